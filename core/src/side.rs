//! The two sides of a clock and of a match.

use std::fmt;

/// One of the two players, and the half of the clock that is his.
///
/// In backgammon `A` and `B` are the players in the order the match was set up. In chess
/// the chess module maps White and Black onto them per game (colours alternate in a
/// match of several games).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Side {
    /// The first player.
    A,
    /// The second player.
    B,
}

impl Side {
    /// Both sides, `A` first.
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    /// The opponent's side.
    pub const fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    /// 0 for `A`, 1 for `B`: an index into per-side arrays.
    pub const fn index(self) -> usize {
        match self {
            Side::A => 0,
            Side::B => 1,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}
