//! Which game: the one word for it in every crate.
//!
//! A match, a stored log and a tournament each say which game they are with this type;
//! the wire's decoding, the log's parsing and the tournament's plan all read it. (What
//! a *single game is worth*, single, gammon or backgammon, is `backgammon::WinKind`.)

use serde::{Deserialize, Serialize};

/// Which game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameType {
    /// Backgammon: a log's other events are `bg.*`; a tournament's matches are of its
    /// length, rated by the FIBS formula. The default, since a tournament record written
    /// before chess tournaments existed names no game.
    #[default]
    Backgammon,
    /// Chess: a log's other events are `chess.*`; a tournament's games are rated by Elo.
    Chess,
}
