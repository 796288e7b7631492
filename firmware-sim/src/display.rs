//! The device's face in a terminal: what the two clocks show now, ticking between the
//! server's updates from the device's own clock and its sync offset — as the LCD of a real
//! device does — with the score, cube and whose turn it is.

use std::io::Write;
use std::time::Duration;

use baffle_i18n::turn::{Form, cube, turn};
use baffle_i18n::{Catalogue, Locale};
use baffle_proto::backgammon_text::side;
use baffle_proto::chess_text::{player, points};
use baffle_proto::faces::{Face, faces, mmss};
use baffle_proto::v1;

use crate::device::{DeviceFace, View};

/// One device's face at `server_now_ms` (the server's time as the device estimates it),
/// its words from `words` (the catalogue of the language chosen): two lines, e.g.
/// `t1  Anna 2 - 1 Ben  to 5  cube 2 B` and `  ▶ Anna 9:51.2 +2.1  |    Ben 10:00.0   A to
/// move 6-1`.
pub fn face(label: &str, view: &View, server_now_ms: i64, words: &Catalogue) -> [String; 2] {
    let s = &view.state;
    if let Some(c) = &s.chess {
        return chess_face(label, view, c, server_now_ms, words);
    }
    let to = words.format("device-match-to", &[("length", s.length.into())]);
    let title = format!(
        "{label}  {} {} - {} {}  {to}  {}{}",
        s.player_a,
        s.score_a,
        s.score_b,
        s.player_b,
        said(words, cube(s)),
        link(view, words)
    );
    let clock = s.clock.clone().unwrap_or_default();
    let [a, b] = faces(&clock, server_now_ms);
    let show = |name: &str, f: Face| {
        let delay = if f.running && f.delay_ms > 0 {
            format!(" +{:.1}", f.delay_ms as f64 / 1_000.0)
        } else {
            String::new()
        };
        format!("{} {name} {}{delay}", mark(f), mmss(f.main_ms))
    };
    let paused = if clock.paused != 0 {
        format!("  {}", words.format("console-status-paused", &[]))
    } else {
        String::new()
    };
    let clocks = format!(
        "  {}  |  {}   {}{paused}",
        show(&s.player_a, a),
        show(&s.player_b, b),
        said(words, turn(s, Form::Line))
    );
    [title, clocks]
}

/// A clock's mark: ⚑ its flag fell, ▶ it runs, else blank.
fn mark(f: Face) -> &'static str {
    if f.flagged {
        "⚑"
    } else if f.running {
        "▶"
    } else {
        " "
    }
}

/// Words of `baffle_i18n::turn` (the turn, the cube), the sides by their letters: the
/// names are in the title already.
fn said(words: &Catalogue, said: Option<v1::Words>) -> String {
    let letters = [v1::Side::A, v1::Side::B].map(|s| side(s as i32));
    said.map_or(String::new(), |w| words.words(&w, letters))
}

/// What the device's link is doing, if not its job: "  [offline]", "  [stopped]".
fn link(view: &View, words: &Catalogue) -> String {
    let id = if view.stopped.is_some() {
        "device-link-stopped"
    } else if view.connected {
        return String::new();
    } else {
        "device-link-offline"
    };
    format!("  {}", words.format(id, &[]))
}

/// A chess clock's face: White's clock (side A) on the left, each with the moves made
/// and the period it is in, so a period change shows as it happens (6.3 (b)):
/// `t1  Anna 1½ - ½ Ben  game 2 of 2 · rapid` and
/// `  ▶ W Ben 14:31.9 m12 P1  |    B Anna 13:02.0 m11 P1`.
fn chess_face(
    label: &str,
    view: &View,
    c: &v1::ChessState,
    server_now_ms: i64,
    words: &Catalogue,
) -> [String; 2] {
    let s = &view.state;
    let title = format!(
        "{label}  {} {} - {} {}  {}{}",
        s.player_a,
        points(c.half_points_a),
        points(c.half_points_b),
        s.player_b,
        words.chess_game(s, c),
        link(view, words)
    );
    let clock = s.clock.clone().unwrap_or_default();
    let [white, black] = faces(&clock, server_now_ms);
    let show = |color: v1::Color, f: Face, side: Option<v1::SideClock>| {
        let [letter, moves] = words.chess_side(color, &side.unwrap_or_default());
        format!(
            "{} {letter} {} {} {moves}",
            mark(f),
            player(s, c, color),
            mmss(f.main_ms)
        )
    };
    let state = match v1::MatchPhase::try_from(s.phase) {
        Ok(v1::MatchPhase::Over) => Some("turn-match-over"),
        Ok(v1::MatchPhase::BetweenGames) => Some("console-turn-game-over"),
        _ if clock.paused != 0 => Some("console-status-paused"),
        _ => None,
    }
    .map_or(String::new(), |id| format!("   {}", words.format(id, &[])));
    let clocks = format!(
        "  {}  |  {}{state}",
        show(v1::Color::White, white, clock.a),
        show(v1::Color::Black, black, clock.b)
    );
    [title, clocks]
}

/// Redraws the faces of `devices` in the terminal every `every` until `done` completes,
/// under the `header` lines (what to watch them with: kept on screen, not scrolled away by
/// the redraws), and once more when it has: the last frame shows how the matches ended.
/// The faces speak `locale`.
pub async fn show_until<F: std::future::Future>(
    header: &[String],
    devices: Vec<(String, DeviceFace)>,
    every: Duration,
    locale: Locale,
    done: F,
) -> F::Output {
    let words = Catalogue::new(locale);
    let frame = || {
        let faces: Vec<_> = devices
            .iter()
            .map(|(label, d)| face(label, &d.view(), d.server_now_ms(), &words))
            .collect();
        frame(header, &faces)
    };
    draw_until(&mut std::io::stdout(), frame, every, done).await
}

/// Writes `frame()` to `out` every `every` until `done` completes, then a last time.
async fn draw_until<F: std::future::Future>(
    out: &mut impl Write,
    frame: impl Fn() -> String,
    every: Duration,
    done: F,
) -> F::Output {
    tokio::pin!(done);
    let mut tick = tokio::time::interval(every);
    let outcome = loop {
        tokio::select! {
            out = &mut done => break out,
            _ = tick.tick() => {
                let _ = out.write_all(frame().as_bytes());
                let _ = out.flush();
            }
        }
    };
    let _ = out.write_all(frame().as_bytes());
    let _ = out.flush();
    outcome
}

/// A whole screen: cleared, the header lines, then each device's two lines.
fn frame(header: &[String], faces: &[[String; 2]]) -> String {
    let mut screen = String::from("\x1b[H\x1b[2J");
    for line in header.iter().chain(faces.iter().flatten()) {
        screen.push_str(line);
        screen.push('\n');
    }
    screen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match to 5, the cube on 2 at B, A moving 6-1 on `clock`.
    fn moving(player_a: &str, player_b: &str, clock: v1::ClockState) -> v1::MatchState {
        v1::MatchState {
            player_a: player_a.into(),
            player_b: player_b.into(),
            length: 5,
            cube_value: 2,
            cube_owner: v1::Side::B as i32,
            turn: v1::TurnPhase::Moving as i32,
            turn_side: v1::Side::A as i32,
            dice: vec![6, 1],
            clock: Some(clock),
            ..Default::default()
        }
    }

    #[test]
    fn the_face_runs_the_movers_delay_then_main_time() {
        let clock = v1::ClockState {
            as_of_ms: 1_000,
            running: v1::Side::A as i32,
            a: Some(v1::SideClock {
                main_ms: 600_000,
                delay_ms: 12_000,
                ..Default::default()
            }),
            b: Some(v1::SideClock {
                main_ms: 540_000,
                delay_ms: 12_000,
                ..Default::default()
            }),
            ..Default::default()
        };
        let view = View {
            state: v1::MatchState {
                score_a: 2,
                score_b: 1,
                ..moving("Anna", "Ben", clock)
            },
            connected: true,
            ..Default::default()
        };
        let en = Catalogue::new(Locale::En);
        let [title, clocks] = face("t1", &view, 1_000 + 9_900, &en);
        assert_eq!(title, "t1  Anna 2 - 1 Ben  to 5  cube 2 B");
        assert_eq!(
            clocks,
            "  ▶ Anna 10:00.0 +2.1  |    Ben 9:00.0   A to move 6-1"
        );
        let [_, clocks] = face("t1", &view, 1_000 + 22_000, &en);
        assert!(clocks.starts_with("  ▶ Anna 9:50.0  |"), "{clocks}");
        let offline = View {
            connected: false,
            ..view
        };
        assert!(face("t1", &offline, 0, &en)[0].ends_with("[offline]"));
    }

    /// The same face in Greek: every word from the catalogue, the names, digits and
    /// symbols as they are.
    #[test]
    fn a_face_speaks_the_language_chosen() {
        let paused = v1::ClockState {
            paused: 1,
            ..Default::default()
        };
        let view = View {
            state: moving("Άννα", "Βασίλης", paused),
            connected: false,
            ..Default::default()
        };
        let el = Catalogue::new(Locale::El);
        let [title, clocks] = face("t1", &view, 0, &el);
        assert_eq!(
            title,
            "t1  Άννα 0 - 0 Βασίλης  στους 5  βίδος 2 B  [εκτός σύνδεσης]"
        );
        assert!(clocks.ends_with("   A παίζει 6-1  σε παύση"), "{clocks}");
        let over = View {
            state: v1::MatchState {
                phase: v1::MatchPhase::Over as i32,
                chess: Some(v1::ChessState {
                    category: "rapid".into(),
                    games: 4,
                    ..Default::default()
                }),
                game_number: 4,
                ..view.state
            },
            connected: true,
            ..view
        };
        let [title, clocks] = face("t1", &over, 0, &el);
        assert_eq!(title, "t1  Άννα 0 - 0 Βασίλης  παρτίδα 4 από 4 · γρήγορο");
        assert_eq!(
            clocks,
            "    Λ Άννα 0:00.0 κ0 Π1  |    Μ Βασίλης 0:00.0 κ0 Π1   τέλος ματς"
        );
    }

    #[test]
    fn a_chess_face_shows_colours_move_counters_and_periods() {
        let side = |main_ms, moves, period| v1::SideClock {
            main_ms,
            moves,
            period,
            ..Default::default()
        };
        let view = View {
            state: v1::MatchState {
                player_a: "Anna".into(),
                player_b: "Ben".into(),
                game_number: 2,
                phase: v1::MatchPhase::Playing as i32,
                clock: Some(v1::ClockState {
                    as_of_ms: 0,
                    running: v1::Side::A as i32,
                    a: Some(side(900_000, 40, 1)),
                    b: Some(side(60_000, 39, 0)),
                    ..Default::default()
                }),
                chess: Some(v1::ChessState {
                    category: "standard".into(),
                    games: 2,
                    white: v1::Side::B as i32,
                    half_points_a: 1,
                    half_points_b: 1,
                    ..Default::default()
                }),
                ..Default::default()
            },
            connected: true,
            ..Default::default()
        };
        let [title, clocks] = face("t1", &view, 1_000, &Catalogue::new(Locale::En));
        assert_eq!(title, "t1  Anna ½ - ½ Ben  game 2 of 2 · standard");
        assert_eq!(
            clocks,
            "  ▶ W Ben 14:59.0 m40 P2  |    B Anna 1:00.0 m39 P1"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_header_stays_on_every_frame_and_a_last_frame_follows_the_end() {
        use std::sync::atomic::{AtomicU32, Ordering};
        let drawn = AtomicU32::new(0);
        let header = ["playing 1 table(s); watch with: baffle console demo-1".to_string()];
        let mut out = Vec::new();
        let frame = || {
            let n = drawn.fetch_add(1, Ordering::SeqCst);
            frame(&header, &[[format!("t1 frame {n}"), String::new()]])
        };
        let done = tokio::time::sleep(Duration::from_millis(250));
        draw_until(&mut out, frame, Duration::from_millis(100), done).await;
        let text = String::from_utf8(out).unwrap();
        let frames: Vec<&str> = text.split("\x1b[H\x1b[2J").skip(1).collect();
        // Ticks at 0, 100 and 200 ms, then the last frame once the demo ended.
        assert_eq!(frames.len(), 4, "{text:?}");
        for f in &frames {
            assert!(f.starts_with(&header[0]), "{f:?}");
        }
        assert!(frames[3].contains("t1 frame 3"), "{text:?}");
    }
}
