//! What is said to a match's actor: the messages its handle (`handle.rs`) sends it, and
//! what a command carries besides the request — its request id, for retries, and how it
//! is admitted under the rate limit. Below both the handle and the actor (`mod.rs`).

use std::sync::Arc;

use baffle_core::backgammon::board::{NextTurn, Position};
use baffle_core::table::{DeviceInput, Request};
use baffle_proto::v1;
use tokio::sync::{broadcast, oneshot};

use crate::error::Error;

/// How a command is admitted under the rate limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Always: the director's commands.
    Always,
    /// Within [`COMMANDS_PER_SECOND`](super::COMMANDS_PER_SECOND) for this caller (a
    /// device, a player) in this match.
    PerCaller(String),
}

/// A command's request id and a fingerprint of what it carried (its caller, command,
/// ruling and expected sequence number): a retry carries the same id *and* the same
/// fingerprint; an id reused for something else is refused, as idempotency keys are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId {
    /// The client's id (non-empty).
    pub id: String,
    /// SHA-256 of what the request carried.
    pub fingerprint: [u8; 32],
}

/// Messages to a match actor.
pub(super) enum Msg {
    Execute {
        request: Request,
        request_id: Option<RequestId>,
        expected_seq: Option<u64>,
        admission: Admission,
        reply: oneshot::Sender<Result<v1::ExecuteReply, Error>>,
    },
    Reveal {
        reply: oneshot::Sender<Result<String, Error>>,
    },
    Subscribe {
        reply: oneshot::Sender<(v1::MatchState, broadcast::Receiver<Arc<v1::MatchUpdate>>)>,
    },
    State {
        reply: oneshot::Sender<v1::MatchState>,
    },
    /// What the director's adjudication help is computed from, and the log's length.
    Adjudicate {
        reply: oneshot::Sender<Option<(Position, NextTurn, u64)>>,
    },
    Presence {
        device: String,
        connected: bool,
    },
    /// A device bound to this match (listed, not connected until it connects) or
    /// unbound from it (no longer listed).
    Bound {
        device: String,
        bound: bool,
    },
    DeviceInput {
        input: DeviceInput,
        reply: oneshot::Sender<Result<v1::Ack, Error>>,
    },
    /// The log grew (a replica reads the new records; the owner has them).
    CatchUp,
    /// This node holds the match's lease now, with `epoch`: take it over. Its previous
    /// holder had been silent `silent_ms` (the database's measure, if known).
    TakeOver {
        node: String,
        epoch: u64,
        silent_ms: Option<u64>,
    },
    /// Stop writing: the node hands the match over (rebalancing). Answered with the
    /// epoch it wrote under, or `None` if it did not write.
    StopWriting {
        reply: oneshot::Sender<Option<u64>>,
    },
    /// The hand-over failed and the node still holds the lease with `epoch`: write
    /// again.
    Resume {
        epoch: u64,
    },
    /// The match was replaced (the handle's shared mark is set): followers are sent a
    /// state that says so.
    Replaced,
}
