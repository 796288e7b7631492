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

    /// An offline check's report, on standard output, with the exit code it chose (a
    /// log that fails a check is exit 1, and still printed).
    pub(super) fn report((code, out): (i32, String)) -> Outcome {
        Outcome {
            code,
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
        Code::FailedPrecondition => precondition_hint(status.message()),
        Code::InvalidArgument | Code::OutOfRange => "cli-hint-invalid-argument",
        Code::ResourceExhausted => "cli-hint-resource-exhausted",
        Code::AlreadyExists => "cli-hint-already-exists",
        _ => "cli-hint-other",
    })
}

/// What to do next about a refusal of the rules, from what it says. A ruling of the
/// director is offered only where one is the way on: the refusal names the director's
/// part (a void, a correction, a stopped clock) or an article where the director may
/// make exceptions (2.2: breaks, lateness). A record asked for by a number that is not
/// there sends the director to the list of numbers; the order of play (the turn, the
/// dice, the cube, the moves: 3, 4.1, 4.2, 4.4) to whose turn it is. A new director was
/// told to rule when he had mistyped a game's number.
fn precondition_hint(message: &str) -> &'static str {
    let m = message.to_lowercase();
    let article = message
        .rsplit_once("(backgammon rules ")
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .unwrap_or("");
    if m.starts_with("no ") || m.starts_with("there is no ") {
        "cli-hint-look-up"
    } else if m.contains("not at the table") {
        // A player not checked in: the way on is his check-in, not a ruling (a second
        // new director's opening roll was refused so, and hinted at a ruling).
        "cli-hint-check-in"
    } else if m.contains("the director decides") {
        // A ruling of his refused: ruling again is not the way on.
        "cli-hint-refused-now"
    } else if m.contains("director") || article.starts_with("2.2") {
        "cli-hint-failed-precondition"
    } else if ["§3", "4.1", "4.2", "4.4"]
        .iter()
        .any(|a| article.starts_with(a))
    {
        "cli-hint-play-order"
    } else {
        "cli-hint-refused-now"
    }
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
    let hint = hint(&status);
    refused_with(&status, hint)
}

/// A refusal (exit 4) in the server's words, with a hint on the line below.
fn refused_with(status: &Status, hint: String) -> Outcome {
    let args = [
        ("code", format!("{:?}", status.code()).into()),
        ("message", status.message().into()),
    ];
    Outcome::failed(
        exit::REFUSED,
        format!(
            "baffle: {}\n        {hint}\n",
            words::say_with("cli-refused", &args)
        ),
    )
}

/// A refusal of a draw's command: as [`refused`], but what the rules refuse now (or a
/// player, match or round the draw does not have) sends the director to the draw, not to
/// a match. The server's (the core's) words are shown as they are.
pub(super) fn refused_draw(status: Status, tournament: &str) -> Outcome {
    let to_draw = match status.code() {
        Code::FailedPrecondition | Code::AlreadyExists => true,
        Code::NotFound => !status.message().starts_with("no tournament"),
        _ => false,
    };
    if !to_draw {
        return refused(status);
    }
    let hint = if status.message().contains("has no draw") {
        words::say_with("cli-hint-draw-open", &[("id", tournament.into())])
    } else {
        words::say_with("cli-hint-draw", &[("id", tournament.into())])
    };
    refused_with(&status, hint)
}

/// A command line that cannot be sent: exit 2 with the reason.
pub(super) fn usage(message: impl std::fmt::Display) -> Outcome {
    Outcome::failed(exit::USAGE, format!("baffle: {message}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hint_for(message: &str) -> &'static str {
        precondition_hint(message)
    }

    #[test]
    fn a_ruling_is_hinted_only_where_one_would_help() {
        // A game's number mistyped: the numbers are in `match show`.
        assert_eq!(hint_for("no finished game 5"), "cli-hint-look-up");
        assert_eq!(
            hint_for("there is no appeal 3: 1 so far (backgammon rules 5)"),
            "cli-hint-look-up"
        );
        // The order of play: no ruling changes whose turn it is.
        for m in [
            "the same player cannot roll twice in a row (backgammon rules 4.2 (i))",
            "a double must be taken or passed first (backgammon rules 4.4)",
            "the opening roll decides who plays first (backgammon rules §3)",
        ] {
            assert_eq!(hint_for(m), "cli-hint-play-order", "{m}");
        }
        // Where the director's ruling is the way on.
        for m in [
            "the match is over: player A won; only the director's corrections remain (backgammon rules 4.6)",
            "breaks are taken only between games (backgammon rules 2.2)",
        ] {
            assert_eq!(hint_for(m), "cli-hint-failed-precondition", "{m}");
        }
        // A player not at the table: check him in.
        assert_eq!(
            hint_for("player A is not at the table (backgammon rules 2.2)"),
            "cli-hint-check-in"
        );
        // A refusal of the director's own ruling does not send him to rule again.
        assert_eq!(
            hint_for(
                "the director decides a match only when both players won it at the same instant (backgammon rules 2.2)"
            ),
            "cli-hint-refused-now"
        );
        assert_eq!(
            hint_for("this match already has a clock (backgammon rules 2.3)"),
            "cli-hint-refused-now"
        );
    }
}
