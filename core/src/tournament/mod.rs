//! # A tournament: its entrants, the draw, its rounds and its standings
//!
//! The tournament is a state machine beside the [`crate::table::Table`]: it decides what
//! a director's command does and folds the records it writes, with the time passed in.
//! The server drives it (it keeps the log and creates the match logs the tournament
//! assigns); the verifier replays the same log through the same fold.
//!
//! - [`keys`]: who plays ([`EntrantId`]) and where a match sits in the draw
//!   ([`MatchKey`]: flight, round, index).

pub mod keys;

pub use keys::{EntrantId, Flight, MatchKey};
