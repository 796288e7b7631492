//! Why a chess command was refused: every refusal names the article it enforces and
//! changes nothing.

use std::fmt;

use crate::clock::ClockError;

/// A command the Laws do not allow now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessError {
    /// What is wrong, for people.
    pub message: String,
    /// The article enforced, e.g. "6.2"; empty for plain state errors.
    pub article: &'static str,
    /// True when the command carries a value no game could accept (a negative time), as
    /// opposed to one the state refuses now.
    pub invalid: bool,
}

impl ChessError {
    /// A refusal citing `article` of the FIDE Laws.
    pub fn rule(article: &'static str, message: impl Into<String>) -> ChessError {
        ChessError {
            message: message.into(),
            article,
            invalid: false,
        }
    }

    /// A value out of every acceptable range, citing `article` (empty if none).
    pub fn invalid(article: &'static str, message: impl Into<String>) -> ChessError {
        ChessError {
            message: message.into(),
            article,
            invalid: true,
        }
    }

    /// A refusal about the state of the game, not a particular article.
    pub fn state(message: impl Into<String>) -> ChessError {
        ChessError::rule("", message)
    }
}

impl fmt::Display for ChessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.article.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{} (FIDE Laws {})", self.message, self.article)
        }
    }
}

impl std::error::Error for ChessError {}

impl From<ClockError> for ChessError {
    fn from(e: ClockError) -> ChessError {
        if e.is_invalid_value() {
            return ChessError::invalid("6.10", e.to_string());
        }
        ChessError::rule("6", e.to_string())
    }
}
