//! Chess on the shared clock (`../shared/rules/chess-clock.md`): the FIDE clock rules as a
//! pure state machine, in the style of [`crate::backgammon`]. The module does not know
//! the position — the arbiter judges the board — but it gets every clock rule right.
//!
//! - [`category`](mod@category): standard, rapid or blitz from base + 60 × increment,
//!   under the 2009 or the later boundaries.
//! - [`game`]: one game — the start at the scheduled time (6.6), default time (6.7),
//!   presses (6.2), flags with their instant and the move-count check (6.4, 6.8, 6.9),
//!   both flags (6.11), the arbiter's pauses and corrections (6.10, 6.12), illegal moves
//!   (7.5), quickplay-finish claims, and results with their reason.
//! - [`series`]: a short match of several games with colours alternating, and Chess960
//!   starting positions from the audited generator.
//! - [`chess_match`]: the match as the server runs it — settings, the game in progress,
//!   the next game, the position — one state machine whose events are audit bodies.
//!
//! White plays [`Side::A`](crate::Side::A) on the game's clock, Black [`Side::B`](crate::Side::B).

pub mod category;
pub mod chess_match;
mod error;
mod event;
pub mod game;
mod result;
pub mod series;

pub use category::{Category, Laws, category};
pub use chess_match::{ChessMatch, ChessSettings, MatchCommand, MatchEvent, SeriesEvent};
pub use error::ChessError;
pub use game::{Color, Command, Event, Game, GameResult, GameSetup, Outcome, Reason};
pub use series::{Chess960, Series};
