//! One side's state on the clock: its time left in the current stage, the period and
//! stage it is in, and its move counts. [`Clock`](super::Clock) holds one [`SideClock`]
//! per side; the overtime rules in `overtime.rs` move a side from stage to stage.

use crate::time::{Millis, Timestamp};

/// Which stage of its period a side is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The period's main time (for count-up: the time used).
    Main,
    /// Byo-yomi: in an overtime period, with `left` further periods after it.
    ByoYomi {
        /// Periods not yet started.
        left: u32,
    },
    /// Canadian byo-yomi: `moves_left` moves still to make in this overtime period.
    Canadian {
        /// Moves still due in the current overtime period.
        moves_left: u32,
    },
}

/// One side's clock: what [`Clock`](super::Clock) keeps per side between operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct SideClock {
    pub(super) main: Millis,
    pub(super) period: usize,
    pub(super) moves: u32,
    pub(super) moves_in_period: u32,
    pub(super) stage: Stage,
    pub(super) flagged_at: Option<Timestamp>,
    pub(super) wait_next_turn: bool,
}
