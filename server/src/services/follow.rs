//! Following one match (`Matches.Watch`, and a device's stream of updates): a snapshot
//! with every stored event since the follower's position, then each update as it
//! happens, with nothing missed or repeated. A follower that falls behind the live feed
//! catches up from the store.
//!
//! A follower is a stream and nothing else — no task or channel of its own, like the
//! tournament feed (`feed.rs`). Each open stream costs the server memory for as long as
//! it stays open, and anyone may open them: a task with a channel of 32 pre-allocated
//! 1.2 KiB slots cost 23 KiB a stream, this costs a few (docs/benchmarks.md, "Memory per
//! follower stream").

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use baffle_proto::v1;
use tokio::sync::broadcast::{self, error::RecvError};
use tokio_stream::Stream;
use tonic::Status;

use super::stored_events;
use crate::actor::MatchHandle;
use crate::error::Error;
use crate::followers::FollowerSlot;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;

/// The updates of one follower.
pub type Updates = Pin<Box<dyn Stream<Item = Result<v1::MatchUpdate, Status>> + Send>>;

/// Follows `handle`'s match from `from_seq`, holding `slot` (the follower's place among
/// the open streams) and a count in the `kind` gauge of the metrics for as long as the
/// stream lives. The stream ends when the server starts shutting down, and after an
/// error.
pub fn follow<S: EventStore + Clone, T: TimeSource>(
    hub: Arc<Hub<S, T>>,
    handle: MatchHandle,
    from_seq: u64,
    slot: FollowerSlot,
    kind: crate::metrics::Kind,
) -> Updates {
    let closed = Box::pin(hub.closed());
    let follower = Follower {
        hub,
        handle,
        step: Step::Start { from_seq },
        closed,
        _slot: slot,
        _gauge: crate::metrics::Gauge::new(kind),
    };
    Box::pin(futures_util::stream::unfold(follower, |mut f| async move {
        let update = f.next_update().await?;
        Some((update, f))
    }))
}

/// Where a follower is.
enum Step {
    /// Nothing sent yet: the snapshot comes first.
    Start { from_seq: u64 },
    /// Following the live feed; `next` is the first log position not yet sent.
    Live {
        live: broadcast::Receiver<Arc<v1::MatchUpdate>>,
        next: u64,
    },
    /// Ended (after an error, or as the server shuts down).
    Done,
}

struct Follower<S: EventStore, T: TimeSource> {
    hub: Arc<Hub<S, T>>,
    handle: MatchHandle,
    step: Step,
    closed: Pin<Box<dyn Future<Output = ()> + Send>>,
    _slot: FollowerSlot,
    _gauge: crate::metrics::Gauge,
}

impl<S: EventStore + Clone, T: TimeSource> Follower<S, T> {
    /// The next message, or None once the stream has ended.
    async fn next_update(&mut self) -> Option<Result<v1::MatchUpdate, Status>> {
        let update = match std::mem::replace(&mut self.step, Step::Done) {
            Step::Done => return None,
            Step::Start { from_seq } => self.snapshot(from_seq).await,
            Step::Live { mut live, next } => {
                let received = tokio::select! {
                    () = &mut self.closed => return None,
                    received = live.recv() => received,
                };
                match received {
                    Ok(update) => {
                        let events: Vec<_> = update
                            .events
                            .iter()
                            .filter(|e| e.seq >= next)
                            .cloned()
                            .collect();
                        let next = events.last().map_or(next, |last| last.seq + 1);
                        self.step = Step::Live { live, next };
                        Ok(v1::MatchUpdate {
                            events,
                            state: update.state.clone(),
                        })
                    }
                    // Too slow for the live feed: read what was missed from the log.
                    Err(RecvError::Lagged(_)) => self.catch_up(live, next).await,
                    Err(RecvError::Closed) => return None,
                }
            }
        };
        Some(update.map(|u| self.stamped(u)))
    }

    /// The state with every stored event from `from_seq`; the live feed from there.
    async fn snapshot(&mut self, from_seq: u64) -> Result<v1::MatchUpdate, Status> {
        let (state, live) = self.handle.subscribe().await?;
        if from_seq > state.seq {
            return Err(Error::OutOfRange(format!(
                "the log has {} events; from_seq {from_seq} is beyond it",
                state.seq
            ))
            .into());
        }
        let events = self.stored(from_seq, state.seq)?;
        self.step = Step::Live {
            live,
            next: state.seq,
        };
        Ok(v1::MatchUpdate {
            events,
            state: Some(state),
        })
    }

    /// The state now with the stored events from `next` on.
    async fn catch_up(
        &mut self,
        live: broadcast::Receiver<Arc<v1::MatchUpdate>>,
        next: u64,
    ) -> Result<v1::MatchUpdate, Status> {
        let state = self.handle.state().await?;
        let events = self.stored(next, state.seq)?;
        self.step = Step::Live {
            live,
            next: state.seq.max(next),
        };
        Ok(v1::MatchUpdate {
            events,
            state: Some(state),
        })
    }

    /// The stored events from `from` up to `to`.
    fn stored(&self, from: u64, to: u64) -> Result<Vec<v1::Event>, Status> {
        let count = usize::try_from(to.saturating_sub(from)).unwrap_or(usize::MAX);
        stored_events(&self.hub.store, &self.handle.info.id, from, count)
    }

    /// `update` with its state's `sent_at_ms` set to now.
    fn stamped(&self, mut update: v1::MatchUpdate) -> v1::MatchUpdate {
        if let Some(state) = update.state.as_mut() {
            state.sent_at_ms = self.hub.time.now().as_ms();
        }
        update
    }
}
