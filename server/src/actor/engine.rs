//! The rules a match is played under — backgammon's [`Match`] or chess's [`ChessMatch`] —
//! behind the few questions the actor asks of either: what falls due next, how late the
//! last event was, whether it is over, and what it looks like on the wire.

use baffle_core::Timestamp;
use baffle_core::backgammon::Match;
use baffle_core::chess::ChessMatch;
use baffle_proto::v1;

use crate::wire::{self, Rules, StateContext};

/// A match's engine.
#[derive(Clone)]
pub enum Engine {
    /// A backgammon match.
    Backgammon(Match),
    /// A chess match.
    Chess(ChessMatch),
}

impl Engine {
    /// The rules, as decoding a command needs them.
    pub fn rules(&self) -> Rules {
        match self {
            Engine::Backgammon(m) => Rules::Backgammon(m.setup().dice),
            Engine::Chess(_) => Rules::Chess,
        }
    }

    /// The next instant something falls due by itself.
    pub fn next_due(&self) -> Option<Timestamp> {
        match self {
            Engine::Backgammon(m) => m.next_due().map(|(at, _)| at),
            Engine::Chess(m) => m.next_due(),
        }
    }

    /// The instant of the last event: nothing is ever timed before it.
    pub fn now(&self) -> Timestamp {
        match self {
            Engine::Backgammon(m) => m.now(),
            Engine::Chess(m) => m.now(),
        }
    }

    /// Whether the match is over (its server seed may then be revealed).
    pub fn is_over(&self) -> bool {
        match self {
            Engine::Backgammon(m) => m.result().is_some(),
            Engine::Chess(m) => m.is_over(),
        }
    }

    /// The wire state.
    pub fn state(&self, cx: &StateContext<'_>) -> v1::MatchState {
        match self {
            Engine::Backgammon(m) => wire::match_state(m, cx),
            Engine::Chess(m) => wire::chess::match_state(m, cx),
        }
    }
}
