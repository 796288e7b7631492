//! What a tournament's feed carries: each match's state after a change, encoded once by
//! the match's actor for every follower ([`Summary`]), and the last message at shutdown.
//! Below the actor, so actors announce on it without knowing the service that serves it
//! (`services::feed`, which adds each copy's `sent_at_ms`).

use baffle_proto::v1;
use bytes::Bytes;
use prost::Message;

use crate::error::Error;

/// A match's state as its followers receive it, encoded once: every field but
/// `sent_at_ms`.
#[derive(Clone, Debug)]
pub struct Summary(Bytes);

impl Summary {
    /// The encoded bytes, shared by every follower's copy.
    pub fn bytes(&self) -> &Bytes {
        &self.0
    }
}

impl Summary {
    /// Encodes `state`, leaving out `sent_at_ms`. The actors' states are not stamped,
    /// so they are encoded as they are; a stamped one is copied without its stamp.
    pub fn encode(state: &v1::MatchState) -> Summary {
        let bytes = if state.sent_at_ms == 0 {
            state.encode_to_vec()
        } else {
            v1::MatchState {
                sent_at_ms: 0,
                ..state.clone()
            }
            .encode_to_vec()
        };
        Summary(bytes.into())
    }

    /// The state again, with `sent_at_ms` as a copy sent at `sent_at_ms` has it.
    pub fn decode(&self, sent_at_ms: i64) -> Result<v1::MatchState, Error> {
        let mut state = v1::MatchState::decode(self.0.clone())
            .map_err(|e| Error::Internal(format!("a summary does not decode: {e}")))?;
        state.sent_at_ms = sent_at_ms;
        Ok(state)
    }
}

/// What a tournament's broadcast channel carries.
#[derive(Clone, Debug)]
pub enum FeedItem {
    /// A match's state after a change.
    State(Summary),
    /// The server is shutting down: the feed ends. (A message on the channel costs the
    /// followers nothing more than the updates do; a shutdown signal polled beside the
    /// channel would cost each follower a shared lock on every update.)
    Closing,
}
