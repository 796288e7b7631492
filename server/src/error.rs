//! What can go wrong inside the server, in its own words. The gRPC edge turns each into
//! a status (`wire::status`, `docs/server.md` says which means what); nothing below the
//! services knows tonic.

use std::fmt;

use baffle_core::table::Refusal;

/// A failure of a request inside the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The match's table refused: a rule, or a request that does not fit the match.
    Refused(Refusal),
    /// A value no request may carry (an id of the wrong shape).
    Invalid(String),
    /// No such tournament, match or device.
    NotFound(String),
    /// The id is taken.
    AlreadyExists(String),
    /// The caller did not say who it is, or its credential is not valid.
    Unauthenticated(String),
    /// The caller is known but may not do this.
    PermissionDenied(String),
    /// The request does not fit the state of things now (not a rule of the match: a
    /// match that is not over yet for an export, a device not bound to a match).
    FailedPrecondition(String),
    /// A value outside the range the request may ask for (an event past the log's end).
    OutOfRange(String),
    /// The caller took too long (a device that sends no hello in time).
    DeadlineExceeded(String),
    /// The caller's view of the log is stale (`expected_seq`).
    Stale(String),
    /// Too many commands for one match in a second.
    RateLimited(String),
    /// The store could not take the change; nothing changed and it may be retried.
    Unavailable(String),
    /// Another node of the cluster writes this match (`docs/cluster.md`): the request
    /// goes to it, at `owner` (its advertised address) when one holds the lease now.
    NotOwner {
        /// The owner's address.
        owner: Option<String>,
        /// Why, naming the owner, for people.
        message: String,
    },
    /// A log did not check out: that match is offline.
    DataLoss(String),
    /// A fault of the server or its machine.
    Internal(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Refused(r) => write!(f, "{r}"),
            Error::Invalid(m)
            | Error::NotFound(m)
            | Error::AlreadyExists(m)
            | Error::Unauthenticated(m)
            | Error::PermissionDenied(m)
            | Error::FailedPrecondition(m)
            | Error::OutOfRange(m)
            | Error::DeadlineExceeded(m)
            | Error::Stale(m)
            | Error::RateLimited(m)
            | Error::Unavailable(m)
            | Error::DataLoss(m)
            | Error::Internal(m)
            | Error::NotOwner { message: m, .. } => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Error {
        Error::Refused(r)
    }
}
