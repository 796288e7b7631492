//! # A tournament: its entrants, the draw, its rounds and its standings
//!
//! The tournament is a state machine beside the [`crate::table::Table`]: it decides what
//! a director's command does ([`Tournament::plan`], which folds each record into a copy
//! and keeps it only if the command is accepted) and folds the records it writes
//! ([`Tournament::evolve`]), with the time passed in. The server drives it: it keeps the
//! log, creates the match logs the tournament assigns (`match.assigned`) and tells it
//! each confirmed result. The verifier replays the same log through the same fold
//! ([`replay`]), recomputing the draw from its revealed seed.
//!
//! - [`keys`]: who plays ([`EntrantId`]) and where a match sits in the draw
//!   ([`MatchKey`]: flight, round, index).
//! - [`entrant`]: a registration, approved (1.4) and checked in, once per player.
//! - [`format`]: knockout, round robin or Swiss; the game and the match length.
//! - [`draw`]: the order of the field from the committed seed.
//! - [`knockout`], [`round_robin`], [`swiss`]: each format's pairings.
//! - [`event`], [`command`]: the log's records and what a director asks.
//! - [`state`], [`decide`], [`pairings`], [`ranking`]: the fold, the checks, the draw as
//!   it stands, the standings.
//! - [`standings`], [`rating`]: tables with tie-breaks; the FIBS formula and Elo.
//! - [`replay`]: reading a log back, as the server's recovery and the verifier do.
//! - [`directory`]: which tournaments and matches exist, with their names, venues,
//!   days and defaults, and the list of players that lasts across tournaments.
//! - [`by_hand`]: a tournament without a draw, whose director makes its matches: their
//!   log, and the rule of one match per table and pair in a round.

pub mod by_hand;
pub mod command;
pub mod decide;
pub mod directory;
pub mod draw;
pub mod entrant;
pub mod error;
pub mod event;
pub mod format;
pub mod keys;
pub mod knockout;
pub mod pairings;
pub mod ranking;
pub mod rating;
pub mod replay;
pub mod round_robin;
pub mod standings;
pub mod state;
pub mod swiss;

pub use command::{Command, Ruling, Seeding};
pub use decide::Plan as TournamentPlan;
pub use entrant::{Details, Entrant, Status};
pub use error::{ErrorKind, TournamentError};
pub use event::Event;
pub use format::{Format, Plan};
pub use keys::{EntrantId, Flight, MatchKey};
pub use replay::replay;
pub use state::Tournament;
