//! A backgammon match in words, the same on every display — a device's two lines, the
//! console, the follow view and the CLI (the phone page's `app.js` follows the same
//! table). Beside [`crate::chess_text`], which does the same for chess.
//!
//! | state | short (table cells) | long (lines) |
//! |---|---|---|
//! | cube in the middle | `1` | `cube 1` |
//! | cube owned by B | `2 B` | `cube 2 B` |
//! | Crawford game | `Crawford` | `Crawford` |
//! | opening roll | `opening` | `opening roll` |
//! | A on roll | `A roll` | `A to roll` |
//! | A moving with 6-4 | `A move` | `A moves 6-4` |
//! | A doubled | `A doubled` | `A doubled` |
//! | match over | `over` | `match over` |
//! | between games | `-` | `between games` |

use crate::v1;

/// "A", "B" or "-".
pub fn side(value: i32) -> &'static str {
    match v1::Side::try_from(value) {
        Ok(v1::Side::A) => "A",
        Ok(v1::Side::B) => "B",
        _ => "-",
    }
}

/// The cube for a table cell: "1", "2 B", "Crawford"; "-" in chess.
pub fn cube_short(s: &v1::MatchState) -> String {
    if s.chess.is_some() {
        "-".into()
    } else if s.crawford {
        "Crawford".into()
    } else if s.cube_owner == 0 {
        s.cube_value.max(1).to_string()
    } else {
        format!("{} {}", s.cube_value, side(s.cube_owner))
    }
}

/// The cube in a line: "cube 1", "cube 2 B", "Crawford".
pub fn cube(s: &v1::MatchState) -> String {
    match cube_short(s) {
        c if s.crawford || s.chess.is_some() => c,
        c => format!("cube {c}"),
    }
}

/// Whose turn, in a line: "A to roll", "A moves 6-4", "match over", … (see the table).
pub fn turn(s: &v1::MatchState) -> String {
    let who = side(s.turn_side);
    match v1::TurnPhase::try_from(s.turn) {
        _ if s.result.is_some() => "match over".into(),
        Ok(v1::TurnPhase::Opening) => "opening roll".into(),
        Ok(v1::TurnPhase::OnRoll) => format!("{who} to roll"),
        Ok(v1::TurnPhase::Moving) => format!("{who} moves {}", dice(&s.dice)),
        Ok(v1::TurnPhase::DoubleOffered) => format!("{who} doubled"),
        _ if s.phase == v1::MatchPhase::Waiting as i32 => "waiting".into(),
        _ => "between games".into(),
    }
}

/// Whose turn, for a table cell: "A roll", "A move", "over", … (see the table).
pub fn turn_short(s: &v1::MatchState) -> String {
    let who = side(s.turn_side);
    match v1::TurnPhase::try_from(s.turn) {
        _ if s.result.is_some() => "over".into(),
        Ok(v1::TurnPhase::Opening) => "opening".into(),
        Ok(v1::TurnPhase::OnRoll) => format!("{who} roll"),
        Ok(v1::TurnPhase::Moving) => format!("{who} move"),
        Ok(v1::TurnPhase::DoubleOffered) => format!("{who} doubled"),
        _ => "-".into(),
    }
}

/// Dice as "6-4".
pub fn dice(dice: &[u32]) -> String {
    dice.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_of_the_table() {
        let mut s = v1::MatchState {
            cube_value: 2,
            cube_owner: v1::Side::B as i32,
            turn: v1::TurnPhase::Moving as i32,
            turn_side: v1::Side::A as i32,
            dice: vec![6, 4],
            phase: v1::MatchPhase::Playing as i32,
            ..Default::default()
        };
        assert_eq!(
            (cube_short(&s), cube(&s)),
            ("2 B".into(), "cube 2 B".into())
        );
        assert_eq!(
            (turn_short(&s), turn(&s)),
            ("A move".into(), "A moves 6-4".into())
        );
        s.crawford = true;
        assert_eq!(
            (cube_short(&s), cube(&s)),
            ("Crawford".into(), "Crawford".into())
        );
        s.turn = v1::TurnPhase::Unspecified as i32;
        s.result = Some(v1::MatchResult::default());
        assert_eq!(
            (turn_short(&s), turn(&s)),
            ("over".into(), "match over".into())
        );
    }
}
