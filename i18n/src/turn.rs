//! Whose turn it is and where the cube stands, in words, computed once: the server
//! calls [`turn`] for every backgammon state it sends (`v1::MatchState.turn_words`, the
//! phone page formats it), and every Rust view — the console, `baffle follow`, `baffle
//! match show`, a clock device's display, `baffle-device`'s faces — formats the same
//! answer from its own catalogue. Nobody else matches on `TurnPhase` to choose words.
//!
//! Like [`crate::describe`], the answer is a [`v1::Words`]: a message id and its
//! arguments, in no language yet, the player by side (a view names him as it likes:
//! a device by his letter, the page by his name).
//!
//! | state | [`Form::Line`] | [`Form::Cell`] (a table's cell) |
//! |---|---|---|
//! | match over (a result) | `turn-match-over` "match over" | `turn-short-over` "over" |
//! | opening roll | `turn-phase-opening` "opening roll" | `turn-short-opening` "opening" |
//! | A on roll | `turn-phase-on-roll` "A to roll" | `turn-short-on-roll` "A roll" |
//! | A moving 6-4 | `turn-phase-moving` "A to move 6-4" | `turn-short-moving` "A move" |
//! | A doubled | `turn-double-offered` "A doubled: B to take or pass" | `turn-short-double-offered` "A doubled" |
//! | no game yet | `match-phase-waiting` "waiting" | `turn-short-none` "-" |
//! | between games | `match-phase-between-games` "between games" | `turn-short-none` "-" |
//!
//! ```
//! use baffle_i18n::{Catalogue, Locale, turn::{Form, turn}};
//! use baffle_proto::v1;
//! let s = v1::MatchState {
//!     turn: v1::TurnPhase::Moving as i32,
//!     turn_side: v1::Side::B as i32,
//!     dice: vec![6, 4],
//!     ..Default::default()
//! };
//! let words = turn(&s, Form::Line).unwrap();
//! assert_eq!(words.id, "turn-phase-moving");
//! assert_eq!(Catalogue::new(Locale::En).words(&words, ["Anna", "Ben"]), "Ben to move 6-4");
//! assert_eq!(Catalogue::new(Locale::El).words(&words, ["A", "B"]), "B παίζει 6-4");
//! ```

use baffle_proto::v1::{self, word_arg::Value as Arg};

use crate::describe::words;

/// Which words: a line's (a display, a scoreboard, the page) or a table cell's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// In a line: "A to move 6-4".
    Line,
    /// In a narrow cell: "A move".
    Cell,
}

/// The messages of the turn's phases: (phase, in a line, in a cell).
const PHASES: [(v1::TurnPhase, &str, &str); 4] = [
    (
        v1::TurnPhase::Opening,
        "turn-phase-opening",
        "turn-short-opening",
    ),
    (
        v1::TurnPhase::OnRoll,
        "turn-phase-on-roll",
        "turn-short-on-roll",
    ),
    (
        v1::TurnPhase::Moving,
        "turn-phase-moving",
        "turn-short-moving",
    ),
    (
        v1::TurnPhase::DoubleOffered,
        "turn-double-offered",
        "turn-short-double-offered",
    ),
];

/// Whose turn it is in backgammon match `s`, and what the game waits for (see the
/// table above); `None` in chess, whose state says who is to move by colour.
pub fn turn(s: &v1::MatchState, form: Form) -> Option<v1::Words> {
    if s.chess.is_some() {
        return None;
    }
    let line = form == Form::Line;
    if s.result.is_some() {
        return Some(words(
            if line {
                "turn-match-over"
            } else {
                "turn-short-over"
            },
            [],
        ));
    }
    let phase = v1::TurnPhase::try_from(s.turn).unwrap_or(v1::TurnPhase::Unspecified);
    let Some((_, in_line, in_cell)) = PHASES.iter().find(|(p, _, _)| *p == phase) else {
        let id = match () {
            () if !line => "turn-short-none",
            () if s.phase == v1::MatchPhase::Waiting as i32 => "match-phase-waiting",
            () => "match-phase-between-games",
        };
        return Some(words(id, []));
    };
    let id = if line { in_line } else { in_cell };
    let name = ("name", Arg::Side(s.turn_side));
    Some(match (phase, line) {
        (v1::TurnPhase::Opening, _) => words(id, []),
        (v1::TurnPhase::Moving, true) => words(id, [name, ("dice", dice(&s.dice))]),
        (v1::TurnPhase::DoubleOffered, true) => {
            words(id, [name, ("other", Arg::Side(other(s.turn_side)))])
        }
        _ => words(id, [name]),
    })
}

/// The cube of backgammon match `s` in a line: "Crawford", "cube 1" in the middle,
/// "cube 2 B" owned by B (`cube-line`, `cube-line-owned`); `None` in chess.
pub fn cube(s: &v1::MatchState) -> Option<v1::Words> {
    if s.chess.is_some() {
        return None;
    }
    let value = ("value", Arg::Number(i64::from(s.cube_value.max(1))));
    Some(if s.crawford {
        words("crawford", [])
    } else if matches!(
        v1::Side::try_from(s.cube_owner),
        Ok(v1::Side::A | v1::Side::B)
    ) {
        words(
            "cube-line-owned",
            [value, ("name", Arg::Side(s.cube_owner))],
        )
    } else {
        words("cube-line", [value])
    })
}

/// The other side than `side` (A for anything but A).
fn other(side: i32) -> i32 {
    if side == v1::Side::A as i32 {
        v1::Side::B as i32
    } else {
        v1::Side::A as i32
    }
}

/// Dice as "6-4".
fn dice(dice: &[u32]) -> Arg {
    let said: Vec<String> = dice.iter().map(u32::to_string).collect();
    Arg::Text(said.join("-"))
}
