//! Why a tournament command is refused. Every refusal names the article or the rule it
//! keeps, and changes nothing.

use std::fmt;

/// Which kind of refusal, for the caller to map to a status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The command is malformed or out of every range: the caller's mistake.
    Invalid,
    /// It names an entrant, match or round the tournament does not have.
    NotFound,
    /// The tournament's rules refuse it now (the message says why and what would do).
    Rule,
    /// It would create something whose id is taken.
    Exists,
}

/// A refused tournament command: nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentError {
    /// Which kind.
    pub kind: ErrorKind,
    /// For people: what is wrong, the article, and what would be accepted.
    pub message: String,
}

impl TournamentError {
    /// A malformed command.
    pub fn invalid(message: impl Into<String>) -> TournamentError {
        TournamentError {
            kind: ErrorKind::Invalid,
            message: message.into(),
        }
    }

    /// Something named that does not exist.
    pub fn not_found(message: impl Into<String>) -> TournamentError {
        TournamentError {
            kind: ErrorKind::NotFound,
            message: message.into(),
        }
    }

    /// Refused by the tournament's rules now.
    pub fn rule(message: impl Into<String>) -> TournamentError {
        TournamentError {
            kind: ErrorKind::Rule,
            message: message.into(),
        }
    }
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TournamentError {}
