//! # baffle-core: the rules as a pure library
//!
//! Everything baffle enforces lives here, with no async runtime, no I/O and no system
//! clock: callers pass the time in, and every operation either changes a value or
//! returns an error that names the rule and changes nothing.
//!
//! - [`clock`]: one two-sided clock for backgammon and chess, with every timing method a
//!   tournament clock has.
//! - [`backgammon`] and [`chess`]: the rules of each game on that clock, each an
//!   [`engine::Engine`].
//! - [`table`]: one match at its table — game, dice, devices and audit chain — the layer
//!   the server runs and the verifier replays.
//! - [`time`]: integer milliseconds and instants.
//! - [`side`]: the two players.
//! - [`tournament`]: entrants, the draw, rounds and standings: the matches between matches.

pub mod audit;
pub mod backgammon;
pub mod chess;
pub mod clock;
pub mod device_time;
pub mod dice;
pub mod dice_check;
pub mod engine;
pub mod game_type;
pub mod side;
pub mod table;
pub mod time;
pub mod tournament;

pub use game_type::GameType;
pub use side::Side;
pub use time::{Millis, Timestamp};
