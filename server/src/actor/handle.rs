//! The handle to a match's actor: what the hub and the services hold, and every request
//! they make of the match — each a message answered by the actor in order.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use baffle_core::backgammon::board::adjudicate;
use baffle_proto::v1;
use tokio::sync::{broadcast, mpsc, oneshot};

use super::msg::{Admission, Msg, RequestId};
use crate::error::Error;
use crate::wire::MatchInfo;
use baffle_core::GameType;
use baffle_core::table::{DeviceInput, Request};

/// A handle to a running match actor. Cheap to clone.
#[derive(Clone)]
pub struct MatchHandle {
    /// Messages travel boxed: tokio allocates a channel's first block of 32 slots up front,
    /// and a slot of a pointer rather than of the largest message saves some 4.6 KB per
    /// live match.
    pub(super) tx: mpsc::Sender<Box<Msg>>,
    /// Where the match sits.
    pub info: MatchInfo,
    /// Its rules (and dice), for decoding commands.
    pub game: GameType,
    /// Why the match is unavailable, if its log could not be recovered.
    pub(super) failed: Arc<std::sync::OnceLock<String>>,
    /// Whether this node writes the match (always, but on a node of a cluster).
    pub(super) owner: Arc<AtomicBool>,
    /// The match that replaced this one and the director's words, once the directory
    /// records the replacement ([`MatchHandle::replaced`]): shared with the actor, which
    /// from then on records nothing.
    pub(super) replaced: Arc<std::sync::OnceLock<(String, String)>>,
}

fn gone() -> Error {
    Error::Unavailable("the match is shutting down".into())
}

impl MatchHandle {
    async fn ask<R>(&self, msg: impl FnOnce(oneshot::Sender<R>) -> Msg) -> Result<R, Error> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Box::new(msg(reply)))
            .await
            .map_err(|_| self.gone())?;
        answer.await.map_err(|_| self.gone())
    }

    /// Why the actor is not answering: its log failed recovery, or it is shutting down.
    fn gone(&self) -> Error {
        match self.failed.get() {
            Some(why) => Error::DataLoss(format!(
                "match {} is unavailable: its log did not check out on start: {why}",
                self.info.id
            )),
            None => gone(),
        }
    }

    /// Applies a decoded request; a retry of one applied before (the same request id and
    /// fingerprint) gets the original reply, even after a restart.
    pub async fn execute(
        &self,
        request: Request,
        request_id: Option<RequestId>,
        expected_seq: Option<u64>,
        admission: Admission,
    ) -> Result<v1::ExecuteReply, Error> {
        self.ask(|reply| Msg::Execute {
            request,
            request_id,
            expected_seq,
            admission,
            reply,
        })
        .await?
    }

    /// Reveals the server seed (after the match).
    pub async fn reveal(&self) -> Result<String, Error> {
        self.ask(|reply| Msg::Reveal { reply }).await?
    }

    /// The current state and a receiver of every later update.
    pub async fn subscribe(
        &self,
    ) -> Result<(v1::MatchState, broadcast::Receiver<Arc<v1::MatchUpdate>>), Error> {
        self.ask(|reply| Msg::Subscribe { reply }).await
    }

    /// Applies a device's input exactly once, in order, timed by the device (principle 5).
    pub async fn device_input(&self, input: DeviceInput) -> Result<v1::Ack, Error> {
        self.ask(|reply| Msg::DeviceInput { input, reply }).await?
    }

    /// Whether this node writes the match (on a node of a cluster: holds its lease and
    /// has taken it over).
    pub fn is_owner(&self) -> bool {
        self.owner.load(Ordering::Acquire)
    }

    /// Tells a replica that the log grew: it reads the new records.
    pub async fn catch_up(&self) {
        let _ = self.tx.send(Box::new(Msg::CatchUp)).await;
    }

    /// Tells the actor that this node, `node`, now holds the match's lease with `epoch`;
    /// its previous holder had been silent `silent_ms` (the database's measure, if known).
    pub async fn take_over(&self, node: &str, epoch: u64, silent_ms: Option<u64>) {
        let msg = Msg::TakeOver {
            node: node.to_string(),
            epoch,
            silent_ms,
        };
        let _ = self.tx.send(Box::new(msg)).await;
    }

    /// Makes the actor stop writing the match, after the message it is handling (a
    /// command in flight is answered first: stored or refused): every later command is
    /// answered UNAVAILABLE, naming the new owner once it has taken the match over.
    /// Returns the lease epoch it wrote under, `None` if it did not write.
    pub async fn stop_writing(&self) -> Option<u64> {
        self.ask(|reply| Msg::StopWriting { reply })
            .await
            .ok()
            .flatten()
    }

    /// A hand-over that did not happen: the actor writes again under `epoch`, if this
    /// node still holds the lease with it.
    pub async fn resume(&self, epoch: u64) {
        let _ = self.tx.send(Box::new(Msg::Resume { epoch })).await;
    }

    /// Reports a device's connection opening or closing; followers see it in the state.
    pub async fn presence(&self, device: &str, connected: bool) {
        let _ = self
            .tx
            .send(Box::new(Msg::Presence {
                device: device.to_string(),
                connected,
            }))
            .await;
    }

    /// Reports a device bound to this match (`true`: listed as not connected until it
    /// connects) or unbound from it (`false`: no longer listed). Without waiting: the
    /// hub tells its actors under its lock, so that they hear of bindings in the
    /// registry's order; a full mailbox (256 messages waiting) drops it, with a warning.
    pub fn bound(&self, device: &str, bound: bool) {
        let msg = Msg::Bound {
            device: device.to_string(),
            bound,
        };
        if self.tx.try_send(Box::new(msg)).is_err() {
            tracing::warn!(match_id = %self.info.id, %device, bound, "a device's binding could not be passed to its match (mailbox full or closed)");
        }
    }

    /// Tells the match that match `by` replaced it, with the director's `ruling` (the
    /// directory recorded it): its timers stop — no lateness point, flag or other due
    /// event is recorded in it any more — and its followers are sent a state that says
    /// so. The hub calls it under its lock as it folds the record, and for a replaced
    /// match given its handle at a start before its actor runs, so the actor never
    /// sees a due time after the replacement is known. Without waiting; a second call
    /// changes nothing (a match is replaced once).
    pub fn replaced(&self, by: &str, ruling: &str) {
        if self
            .replaced
            .set((by.to_string(), ruling.to_string()))
            .is_err()
        {
            return;
        }
        // An offline match (its log did not check out) has no actor to tell.
        if self.failed.get().is_none() && self.tx.try_send(Box::new(Msg::Replaced)).is_err() {
            tracing::warn!(match_id = %self.info.id, %by, "a replacement could not be announced to its match's followers (mailbox full or closed); its timers are stopped all the same");
        }
    }

    /// The current state.
    pub async fn state(&self) -> Result<v1::MatchState, Error> {
        self.ask(|reply| Msg::State { reply }).await
    }

    /// What the board proves for the director, if the match records moves and a game
    /// has started: read from the match, computed on a blocking thread (a race can take
    /// tens of milliseconds, `docs/benchmarks.md`), so the match goes on meanwhile.
    pub async fn adjudication(&self) -> Result<Option<v1::Adjudication>, Error> {
        let Some((position, next, seq)) = self.ask(|reply| Msg::Adjudicate { reply }).await? else {
            return Ok(None);
        };
        let help = tokio::task::spawn_blocking(move || adjudicate(&position, next))
            .await
            .map_err(|e| Error::Internal(format!("the adjudication failed: {e}")))?;
        Ok(Some(crate::wire::adjudication(&help, seq)))
    }

    /// The current state for a listing: `None` for a match whose log did not check out
    /// on start — it answers DATA_LOSS itself, and a listing goes on without it.
    pub async fn listed_state(&self) -> Result<Option<v1::MatchState>, Error> {
        match self.state().await {
            Ok(state) => Ok(Some(state)),
            Err(Error::DataLoss(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Why the match cannot be used, if its log did not check out on start.
    pub fn unavailable(&self) -> Option<Error> {
        self.failed.get().map(|_| self.gone())
    }
}
