//! Colours and results: who plays White, who scored, and why the game ended.

use serde::{Deserialize, Serialize};

use crate::side::Side;

/// White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// White: side A of the game's clock.
    White,
    /// Black: side B.
    Black,
}

impl Color {
    /// The other colour.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The clock side this colour plays.
    pub const fn side(self) -> Side {
        match self {
            Color::White => Side::A,
            Color::Black => Side::B,
        }
    }

    pub(super) fn of(side: Side) -> Color {
        match side {
            Side::A => Color::White,
            Side::B => Color::Black,
        }
    }

    pub(super) const fn index(self) -> usize {
        self.side().index()
    }
}

/// Who scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// ½-½.
    Draw,
    /// 0-0: both players defaulted (6.7).
    BothLose,
}

impl Outcome {
    pub(super) fn win(color: Color) -> Outcome {
        match color {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// Points for (White, Black), in half points.
    pub fn half_points(self) -> (u32, u32) {
        match self {
            Outcome::WhiteWins => (2, 0),
            Outcome::BlackWins => (0, 2),
            Outcome::Draw => (1, 1),
            Outcome::BothLose => (0, 0),
        }
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Checkmate (declared by the players or the arbiter).
    Checkmate,
    /// Resignation.
    Resignation,
    /// A flag fell before the moves of its period were made (6.9).
    Flag,
    /// A flag fell, but the opponent cannot checkmate by any series of legal moves (6.9).
    FlagInsufficientMaterial,
    /// Agreed.
    Agreement,
    /// The arbiter's decision (stalemate, repetition, a rejected or accepted claim, …).
    ArbiterDecision,
    /// Arrived after the default time (6.7).
    Default,
    /// A second illegal move (7.5).
    IllegalMoves,
    /// Both flags fell in the last period and which fell first cannot be established
    /// (6.11 (b)), or both fell in unsupervised rapid or blitz (A.4 (d)).
    BothFlags,
    /// A quickplay-finish claim upheld.
    QuickplayFinish,
}

/// A result with its reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// Who scored.
    pub outcome: Outcome,
    /// Why.
    pub reason: Reason,
}
