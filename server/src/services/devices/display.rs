//! What a device's display shows of its match: two short lines, made from the match's
//! wire state each time it changes (the session sends them with every update), in the
//! language the device asked for in its hello (`session::language`).
//!
//! Every word comes from the catalogue: whose turn and the cube from
//! `baffle_i18n::turn`, the one place the turn is put into words (the console, `baffle
//! follow`, the page and `baffle-device`'s faces say the same), the players by their
//! letters — a clock's display is narrow. A backgammon display:
//!
//! ```text
//! Anna 3 - 1 Ben  cube 2 B
//! A to move 6-4  9:51.2 | 10:00.0
//! ```

use baffle_core::Millis;
use baffle_i18n::Catalogue;
use baffle_i18n::turn::{Form, cube, turn};
use baffle_proto::backgammon_text::side;
use baffle_proto::chess_text::points;
use baffle_proto::v1;

/// Two short lines for a device's display: score and cube; whose turn and both clocks.
/// A chess match shows the game, colours, move counters and periods instead.
pub fn display(s: &v1::MatchState, words: &Catalogue) -> Vec<String> {
    if let Some(chess) = &s.chess {
        return chess_display(s, chess, words);
    }
    // The sides by their letters, as the display's narrow lines name them.
    let letters = [v1::Side::A, v1::Side::B].map(|s| side(s as i32));
    let said = |w: Option<v1::Words>| w.map_or(String::new(), |w| words.words(&w, letters));
    let first = format!(
        "{} {} - {} {}  {}",
        s.player_a,
        s.score_a,
        s.score_b,
        s.player_b,
        said(cube(s))
    );
    let clocks = s
        .clock
        .as_ref()
        .map(|c| {
            let t = |c: Option<v1::SideClock>| Millis(c.unwrap_or_default().main_ms).to_string();
            format!("  {} | {}", t(c.a), t(c.b))
        })
        .unwrap_or_default();
    vec![first, format!("{}{clocks}", said(turn(s, Form::Line)))]
}

/// A chess display: "Ann 1½ - ½ Bo  game 3 of 4 · rapid · FIDE 2014", then each clock
/// as colour, time, moves made and period — so the display shows when a period changes
/// (6.3 (b)) and which edition's rules the arbiter applies.
fn chess_display(s: &v1::MatchState, c: &v1::ChessState, words: &Catalogue) -> Vec<String> {
    let first = format!(
        "{} {} - {} {}  {}",
        s.player_a,
        points(c.half_points_a),
        points(c.half_points_b),
        s.player_b,
        words.chess_game(s, c)
    );
    let clock = s.clock.clone().unwrap_or_default();
    let face = |color: v1::Color, side: Option<v1::SideClock>| {
        let side = side.unwrap_or_default();
        let [letter, moves] = words.chess_side(color, &side);
        format!("{letter} {} {moves}", Millis(side.main_ms))
    };
    let state = match v1::MatchPhase::try_from(s.phase) {
        Ok(v1::MatchPhase::Over) => Some("turn-match-over"),
        Ok(v1::MatchPhase::BetweenGames) => Some("console-turn-game-over"),
        Ok(v1::MatchPhase::Waiting) => Some("match-phase-waiting"),
        _ if clock.paused != 0 => Some("console-status-paused"),
        _ => None,
    }
    .map_or(String::new(), |id| format!("{}  ", words.format(id, &[])));
    let second = format!(
        "{state}{} | {}",
        face(v1::Color::White, clock.a),
        face(v1::Color::Black, clock.b)
    );
    vec![first, second]
}

#[cfg(test)]
mod tests {
    use baffle_i18n::Locale;

    use super::*;

    /// A match to 5, the cube on 2 at B, A moving 6-4, 9:51.2 against 10:00.0.
    fn moving() -> v1::MatchState {
        let side = |main_ms| v1::SideClock {
            main_ms,
            ..Default::default()
        };
        v1::MatchState {
            player_a: "Anna".into(),
            player_b: "Ben".into(),
            score_a: 3,
            score_b: 1,
            cube_value: 2,
            cube_owner: v1::Side::B as i32,
            turn: v1::TurnPhase::Moving as i32,
            turn_side: v1::Side::A as i32,
            dice: vec![6, 4],
            clock: Some(v1::ClockState {
                a: Some(side(591_200)),
                b: Some(side(600_000)),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn the_lines_speak_the_language_given() {
        let s = moving();
        assert_eq!(
            display(&s, &Catalogue::new(Locale::En)),
            [
                "Anna 3 - 1 Ben  cube 2 B",
                "A to move 6-4  9:51.2 | 10:00.0"
            ]
        );
        assert_eq!(
            display(&s, &Catalogue::new(Locale::El)),
            [
                "Anna 3 - 1 Ben  βίδος 2 B",
                "A παίζει 6-4  9:51.2 | 10:00.0"
            ]
        );
    }

    #[test]
    fn a_chess_display_names_the_game_colours_moves_and_periods() {
        let s = v1::MatchState {
            game_number: 3,
            phase: v1::MatchPhase::BetweenGames as i32,
            chess: Some(v1::ChessState {
                games: 4,
                category: "rapid".into(),
                half_points_a: 3,
                half_points_b: 1,
                ..Default::default()
            }),
            ..moving()
        };
        assert_eq!(
            display(&s, &Catalogue::new(Locale::En)),
            [
                "Anna 1½ - ½ Ben  game 3 of 4 · rapid",
                "game over  W 9:51.2 m0 P1 | B 10:00.0 m0 P1"
            ]
        );
        assert_eq!(
            display(&s, &Catalogue::new(Locale::El))[1],
            "τέλος παρτίδας  Λ 9:51.2 κ0 Π1 | Μ 10:00.0 κ0 Π1"
        );
    }
}
