//! Why a backgammon command was refused. Every refusal names the rule it enforces and
//! changes nothing.

use std::fmt;

use crate::clock::ClockError;

/// A command the rules do not allow now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// What is wrong, for people.
    pub message: String,
    /// The article enforced, e.g. "4.4 (iv)"; empty for plain state errors.
    pub article: &'static str,
    /// True when the command carries a value no match could accept (a length of 0, a
    /// penalty of a million points), as opposed to one the state refuses now: the server
    /// answers the first INVALID_ARGUMENT, the second FAILED_PRECONDITION.
    pub invalid: bool,
}

impl RuleError {
    /// A refusal citing `article` of the backgammon rules.
    pub fn rule(article: &'static str, message: impl Into<String>) -> RuleError {
        RuleError {
            message: message.into(),
            article,
            invalid: false,
        }
    }

    /// A refusal that is about the state, not a particular article.
    pub fn state(message: impl Into<String>) -> RuleError {
        RuleError {
            message: message.into(),
            article: "",
            invalid: false,
        }
    }

    /// A value out of every acceptable range, citing `article` (empty if none).
    pub fn invalid(article: &'static str, message: impl Into<String>) -> RuleError {
        RuleError {
            message: message.into(),
            article,
            invalid: true,
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.article.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{} (backgammon rules {})", self.message, self.article)
        }
    }
}

impl std::error::Error for RuleError {}

impl From<ClockError> for RuleError {
    fn from(e: ClockError) -> Self {
        if e.is_invalid_value() {
            return RuleError::invalid("", format!("clock: {e}"));
        }
        RuleError::state(format!("clock: {e}"))
    }
}
