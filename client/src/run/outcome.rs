//! What a command produced, and how a refusal becomes one.
//!
//! Every command ends in an [`Outcome`]: what to print and the exit status. A refusal says
//! what went wrong and, from its gRPC code, what to do next (exit 4); a connection that
//! failed is exit 3, a command line the server never saw exit 2.

use tonic::{Code, Status};

use crate::{exit, words};

/// What a command produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The exit status.
    pub code: i32,
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
}

impl Outcome {
    pub(super) fn ok(out: String) -> Outcome {
        Outcome {
            code: exit::OK,
            out,
            err: String::new(),
        }
    }

    pub(super) fn failed(code: i32, err: String) -> Outcome {
        Outcome {
            code,
            out: String::new(),
            err,
        }
    }
}

/// What to do next, for each kind of refusal.
fn hint(status: &Status) -> String {
    words::say(match status.code() {
        Code::Unauthenticated => "cli-hint-unauthenticated",
        Code::PermissionDenied => "cli-hint-permission-denied",
        Code::NotFound if status.message().starts_with("no tournament") => {
            "cli-hint-not-found-tournament"
        }
        Code::NotFound if status.message().starts_with("no device") => "cli-hint-not-found-device",
        Code::NotFound => "cli-hint-not-found",
        Code::Aborted => "cli-hint-aborted",
        Code::FailedPrecondition => "cli-hint-failed-precondition",
        Code::InvalidArgument | Code::OutOfRange => "cli-hint-invalid-argument",
        Code::ResourceExhausted => "cli-hint-resource-exhausted",
        Code::AlreadyExists => "cli-hint-already-exists",
        _ => "cli-hint-other",
    })
}

/// A refusal as an outcome: connection trouble is exit 3, anything the server refused 4.
pub fn refused(status: Status) -> Outcome {
    // No answer in time (a frozen or overloaded server): a connection failure, not a
    // refusal — exit 3, in words, for every command (reads included).
    if let Some(why) = crate::connect::no_answer(&status) {
        return Outcome::failed(exit::CONNECTION, format!("baffle: {why}\n"));
    }
    if status.code() == Code::Unavailable && status.message().contains("transport") {
        return Outcome::failed(
            exit::CONNECTION,
            format!(
                "baffle: {}\n",
                words::say_with("cli-unreachable", &[("why", status.message().into())])
            ),
        );
    }
    let args = [
        ("code", format!("{:?}", status.code()).into()),
        ("message", status.message().into()),
    ];
    Outcome::failed(
        exit::REFUSED,
        format!(
            "baffle: {}\n        {}\n",
            words::say_with("cli-refused", &args),
            hint(&status)
        ),
    )
}

/// A command line that cannot be sent: exit 2 with the reason.
pub(super) fn usage(message: impl std::fmt::Display) -> Outcome {
    Outcome::failed(exit::USAGE, format!("baffle: {message}\n"))
}
