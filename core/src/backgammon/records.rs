//! Records a [`Match`](super::Match) keeps and its rule files fill in: the appeals to
//! the committee (filed and decided in `appeal.rs`) and the board of a match that records
//! moves (`moves.rs`). They are plain data here, below both the match and the rules that
//! change them, so the match's state does not depend on the files that implement its
//! rules.

use super::board::Position;
use super::command::AppealDecision;
use crate::side::Side;

/// An appeal to the committee against one of the director's rulings (5).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Appeal {
    /// Who appealed.
    pub side: Side,
    /// The ruling appealed: its number among the match's rulings (1 = first).
    pub ruling: u32,
    /// The player's grounds.
    pub grounds: String,
    /// The committee's decision, once made.
    pub decision: Option<AppealDecision>,
}

/// The board of the game in progress, in a match that records moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardState {
    /// The position with player A as side 0 (on roll) and B as side 1.
    pub position: Position,
    /// Whether the player moving now has recorded his move.
    pub moved: bool,
}

impl BoardState {
    /// The position seen from `side`.
    pub fn seen_by(&self, side: Side) -> Position {
        match side {
            Side::A => self.position,
            Side::B => self.position.swap(),
        }
    }

    /// The pip counts of A and B.
    pub fn pips(&self) -> [u32; 2] {
        self.position.pips()
    }
}
