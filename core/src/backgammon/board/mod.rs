//! The backgammon board: positions, legal plays for a roll, pip counts, the end of a
//! game and what it is worth, move notation, and GNU Backgammon's position and match IDs.
//!
//! A [`Position`] is always seen from the player on roll, as GNU Backgammon keeps it:
//! each side's checkers are counted on its own points 1–24 (1 is its ace point, the
//! last point before bearing off) and its bar. The opponent's point `p` is the mover's
//! point `25 − p`. After a play, [`Position::swap`] turns the board to the other player.
//!
//! ```
//! use baffle_core::backgammon::board::{Position, legal_plays};
//!
//! let start = Position::starting();
//! assert_eq!(start.pips(), [167, 167]);
//! // The opening 3-1 has 16 different resulting positions; 8/5 6/5 is one of them.
//! let plays = legal_plays(&start, [3, 1]).unwrap();
//! assert_eq!(plays.len(), 16);
//! assert!(plays.iter().any(|p| p.to_string() == "8/5 6/5"));
//! ```

mod adjudicate;
pub mod bearoff;
mod export;
mod gnubg_id;
mod mat;
mod movegen;
mod moves;
mod notation;
mod play;
mod race;
mod record;

pub use adjudicate::{Adjudication, NextTurn, adjudicate};
pub use export::{record_from_events, write_sgf};
pub use gnubg_id::{GameState, MatchId};
pub use mat::{parse_mat, write_mat};
pub use moves::legal_plays;
pub use notation::{Notation, Segment, accept};
pub use play::{Play, Step, StepIter, Steps};
pub use race::{Goal, Race, fewest_turns, fewest_turns_after};
pub use record::{
    Action, Ending, GameRecord, GameResult, MatchRecord, ReplayError, Replayed, replay_game,
};

use std::fmt;

use serde::{Deserialize, Serialize};

use super::error::RuleError;

/// How much a game is worth, before the cube (4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinKind {
    /// 1 × the cube.
    Single,
    /// 2 × the cube.
    Gammon,
    /// 3 × the cube.
    Backgammon,
}

impl WinKind {
    /// The multiplier of the cube value.
    pub const fn multiplier(self) -> u32 {
        match self {
            WinKind::Single => 1,
            WinKind::Gammon => 2,
            WinKind::Backgammon => 3,
        }
    }
}

/// Checkers a side has (15 in standard backgammon).
pub const CHECKERS: u8 = 15;
/// The index of the bar in a side's array: its "point 25".
pub const BAR: usize = 24;

/// One side's checkers: points 1–24 at indices 0–23, the bar at [`BAR`]. Checkers
/// borne off are the ones missing from 15.
pub type Checkers = [u8; 25];

/// A position, seen from the player on roll. See the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The player on roll, then his opponent.
    sides: [Checkers; 2],
}

/// A finished game as the board shows it: the player who bore off all his checkers
/// won a single game, a gammon or a backgammon (4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// True if the player on roll (who just moved, before [`Position::swap`]) won.
    pub mover_won: bool,
    /// Single, gammon or backgammon.
    pub kind: WinKind,
}

impl Position {
    /// The starting position: two on the 24 point, five on the 13, three on the 8, five on
    /// the 6, for each side.
    pub fn starting() -> Position {
        let mut side = [0u8; 25];
        side[23] = 2;
        side[12] = 5;
        side[7] = 3;
        side[5] = 5;
        Position {
            sides: [side, side],
        }
    }

    /// A position from each side's checkers, the player on roll first. Refused when a
    /// side has more than 15 checkers, or both sides share a point.
    pub fn new(on_roll: Checkers, opponent: Checkers) -> Result<Position, RuleError> {
        for (who, side) in [("player on roll", &on_roll), ("opponent", &opponent)] {
            let total: u32 = side.iter().map(|&n| u32::from(n)).sum();
            if total > u32::from(CHECKERS) {
                return Err(RuleError::invalid(
                    "",
                    format!("the {who} has {total} checkers on the board; a side has 15"),
                ));
            }
        }
        for point in 1..=24 {
            if on_roll[point - 1] > 0 && opponent[24 - point] > 0 {
                return Err(RuleError::invalid(
                    "",
                    format!("both sides have checkers on the point {point} of the player on roll"),
                ));
            }
        }
        Ok(Position {
            sides: [on_roll, opponent],
        })
    }

    /// The player on roll's checkers, then the opponent's (each on its own points).
    pub fn sides(&self) -> &[Checkers; 2] {
        &self.sides
    }

    /// The board turned to the other player: his turn comes next.
    pub fn swap(&self) -> Position {
        Position {
            sides: [self.sides[1], self.sides[0]],
        }
    }

    /// Checkers of side `s` (0 on roll, 1 opponent) on its own `point` (1–24, 25 the bar).
    pub fn count(&self, s: usize, point: usize) -> u8 {
        self.sides[s][point - 1]
    }

    /// Checkers side `s` has borne off.
    pub fn borne_off(&self, s: usize) -> u8 {
        CHECKERS.saturating_sub(self.sides[s].iter().sum())
    }

    /// The pip counts, the player on roll first: each checker counts its distance from
    /// bearing off (a checker on the bar counts 25).
    pub fn pips(&self) -> [u32; 2] {
        self.sides.map(|side| pip_count(&side))
    }

    /// Whether the two sides can still hit or block each other: some checker of the
    /// player on roll is behind (further from home than) some checker of the opponent.
    pub fn has_contact(&self) -> bool {
        let mover_back = furthest(&self.sides[0]);
        let opponent_back = furthest(&self.sides[1]);
        match (mover_back, opponent_back) {
            // The mover's furthest checker on his point m, the opponent's on his point o,
            // which is the mover's 25 − o: they have passed each other when m < 25 − o.
            (Some(m), Some(o)) => m + o > 25,
            _ => false,
        }
    }

    /// The game's end if a side has borne off all 15 checkers: the winner, and a
    /// single game, a gammon (the loser has borne off none) or a backgammon (none,
    /// and a checker still on the bar or in the winner's home board).
    pub fn outcome(&self) -> Option<Outcome> {
        let winner = (0..2).find(|&s| self.borne_off(s) == CHECKERS)?;
        let loser = &self.sides[1 - winner];
        let kind = if self.borne_off(1 - winner) > 0 {
            WinKind::Single
        } else if loser[BAR] > 0 || loser[18..24].iter().any(|&n| n > 0) {
            // The winner's home board is the loser's points 19–24.
            WinKind::Backgammon
        } else {
            WinKind::Gammon
        };
        Some(Outcome {
            mover_won: winner == 0,
            kind,
        })
    }

    /// The most a game can still be worth to the opponent of side `loser` (0 on roll,
    /// 1 opponent), by the checkers alone (4.5): a single game once the loser has borne
    /// off a checker; a backgammon while he has a checker on the bar or in the winner's
    /// home board, or could still be hit (contact); otherwise a gammon.
    pub fn most_for_winner(&self, loser: usize) -> WinKind {
        let l = &self.sides[loser];
        if self.borne_off(loser) > 0 {
            WinKind::Single
        } else if l[BAR] > 0 || l[18..24].iter().any(|&n| n > 0) || self.has_contact() {
            WinKind::Backgammon
        } else {
            WinKind::Gammon
        }
    }

    pub(crate) fn side_mut(&mut self, s: usize) -> &mut Checkers {
        &mut self.sides[s]
    }
}

/// The pip count of one side.
pub fn pip_count(side: &Checkers) -> u32 {
    side.iter()
        .enumerate()
        .map(|(i, &n)| (i as u32 + 1) * u32::from(n))
        .sum()
}

/// The highest own point (25 the bar) a side has a checker on.
fn furthest(side: &Checkers) -> Option<usize> {
    (0..25).rev().find(|&i| side[i] > 0).map(|i| i + 1)
}

impl fmt::Display for Position {
    /// The GNU Backgammon position ID, e.g. `4HPwATDgc/ABMA` for the start.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", gnubg_id::position_id(self))
    }
}
