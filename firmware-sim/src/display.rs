//! The device's face in a terminal: what the two clocks show now, ticking between the
//! server's updates from the device's own clock and its sync offset — as the LCD of a real
//! device does — with the score, cube and whose turn it is.

use std::io::Write;
use std::time::Duration;

use baffle_proto::backgammon_text;
use baffle_proto::faces::{faces, mmss};
use baffle_proto::v1;

use crate::device::{DeviceFace, View};

/// One device's face at `server_now_ms` (the server's time as the device estimates it):
/// two lines, e.g.
/// `t1  Anna 2 - 1 Ben  to 5  cube 2 B` and `  ▶ Anna 9:51.2 +2.1  |    Ben 10:00.0   A moves`.
pub fn face(label: &str, view: &View, server_now_ms: i64) -> [String; 2] {
    let s = &view.state;
    if let Some(c) = &s.chess {
        return chess_face(label, view, c, server_now_ms);
    }
    let cube = backgammon_text::cube(s);
    let link = link(view);
    let title = format!(
        "{label}  {} {} - {} {}  to {}  {cube}{link}",
        s.player_a, s.score_a, s.score_b, s.player_b, s.length
    );
    let clock = s.clock.clone().unwrap_or_default();
    let [a, b] = faces(&clock, server_now_ms);
    let show = |name: &str, f: baffle_proto::faces::Face| {
        let mark = if f.flagged {
            "⚑"
        } else if f.running {
            "▶"
        } else {
            " "
        };
        let delay = if f.running && f.delay_ms > 0 {
            format!(" +{:.1}", f.delay_ms as f64 / 1_000.0)
        } else {
            String::new()
        };
        format!("{mark} {name} {}{delay}", mmss(f.main_ms))
    };
    let turn = backgammon_text::turn(s);
    let paused = if clock.paused != 0 { "  paused" } else { "" };
    let clocks = format!(
        "  {}  |  {}   {turn}{paused}",
        show(&s.player_a, a),
        show(&s.player_b, b)
    );
    [title, clocks]
}

/// What the device's link is doing, if not its job.
fn link(view: &View) -> &'static str {
    if view.stopped.is_some() {
        "  [stopped]"
    } else if view.connected {
        ""
    } else {
        "  [offline]"
    }
}

/// A chess clock's face: White's clock (side A) on the left, each with the moves made
/// and the period it is in, so a period change shows as it happens (6.3 (b)):
/// `t1  Anna 1½ - ½ Ben  game 2 of 2 · rapid` and
/// `  ▶ W Ben 14:31.9 m12 P1  |    B Anna 13:02.0 m11 P1`.
fn chess_face(label: &str, view: &View, c: &v1::ChessState, server_now_ms: i64) -> [String; 2] {
    use baffle_proto::chess_text;
    let s = &view.state;
    let title = format!(
        "{label}  {} {} - {} {}  {}{}",
        s.player_a,
        chess_text::points(c.half_points_a),
        chess_text::points(c.half_points_b),
        s.player_b,
        chess_text::game(s, c),
        link(view)
    );
    let clock = s.clock.clone().unwrap_or_default();
    let [white, black] = faces(&clock, server_now_ms);
    let show = |color: v1::Color, f: baffle_proto::faces::Face, side: Option<v1::SideClock>| {
        let side = side.unwrap_or_default();
        let mark = if f.flagged {
            "⚑"
        } else if f.running {
            "▶"
        } else {
            " "
        };
        let name = chess_text::player(s, c, color);
        let letter = if color == v1::Color::White { "W" } else { "B" };
        format!(
            "{mark} {letter} {name} {} {}",
            mmss(f.main_ms),
            chess_text::moves_and_period(&side)
        )
    };
    let state = match v1::MatchPhase::try_from(s.phase) {
        Ok(v1::MatchPhase::Over) => "   match over",
        Ok(v1::MatchPhase::BetweenGames) => "   game over",
        _ if clock.paused != 0 => "   paused",
        _ => "",
    };
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
pub async fn show_until<F: std::future::Future>(
    header: &[String],
    devices: Vec<(String, DeviceFace)>,
    every: Duration,
    done: F,
) -> F::Output {
    let frame = || {
        let faces: Vec<_> = devices
            .iter()
            .map(|(label, d)| face(label, &d.view(), d.server_now_ms()))
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
                player_a: "Anna".into(),
                player_b: "Ben".into(),
                length: 5,
                score_a: 2,
                score_b: 1,
                cube_value: 2,
                cube_owner: v1::Side::B as i32,
                turn: v1::TurnPhase::Moving as i32,
                turn_side: v1::Side::A as i32,
                dice: vec![6, 1],
                clock: Some(clock),
                ..Default::default()
            },
            connected: true,
            ..Default::default()
        };
        let [title, clocks] = face("t1", &view, 1_000 + 9_900);
        assert_eq!(title, "t1  Anna 2 - 1 Ben  to 5  cube 2 B");
        assert_eq!(
            clocks,
            "  ▶ Anna 10:00.0 +2.1  |    Ben 9:00.0   A moves 6-1"
        );
        let [_, clocks] = face("t1", &view, 1_000 + 22_000);
        assert!(clocks.starts_with("  ▶ Anna 9:50.0  |"), "{clocks}");
        let offline = View {
            connected: false,
            ..view
        };
        assert!(face("t1", &offline, 0)[0].ends_with("[offline]"));
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
        let [title, clocks] = face("t1", &view, 1_000);
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
