//! The gRPC services of `baffle.v1`, thin layers over the [`Hub`](crate::hub::Hub): they
//! check who is calling and what was sent, then ask the hub or a match actor.

pub mod audit;
pub mod devices;
pub mod export;
pub mod feed;
pub mod matches;
pub mod tournaments;

use std::sync::Arc;

use baffle_core::audit::export::{Line, parse_line};
use baffle_proto::v1;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Status;

use crate::actor::{self, MatchHandle};
use crate::auth;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire;

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Who is calling, from request metadata. A token that is wrong is UNAUTHENTICATED.
    pub async fn caller(
        &self,
        metadata: &tonic::metadata::MetadataMap,
    ) -> Result<auth::Caller, Status> {
        let token = self.director_token();
        self.with_registry(|registry| auth::identify(metadata, token, registry))
            .await
    }

    /// Refuses anyone but the director.
    pub async fn director(&self, metadata: &tonic::metadata::MetadataMap) -> Result<(), Status> {
        auth::require_director(self.caller(metadata).await?)
    }
}

/// The server-streaming response type of every streaming RPC here.
pub type Stream<T> = ReceiverStream<Result<T, Status>>;

/// The stored records of a match from `from` on, as wire events.
pub fn stored_events<S: EventStore>(
    store: &S,
    match_id: &str,
    from: u64,
    limit: usize,
) -> Result<Vec<v1::Event>, Status> {
    let lines = store
        .read(&actor::stream(match_id), from, limit)
        .map_err(|e| Status::unavailable(format!("the log could not be read: {e}")))?;
    lines
        .iter()
        .map(|l| match std::str::from_utf8(l).ok().map(parse_line) {
            Some(Ok(Line::Record(r))) => Ok(wire::event(&r)),
            _ => Err(Status::internal("a stored record does not parse")),
        })
        .collect()
}

/// Follows a match from `from_seq`: a snapshot with every stored event since, then each
/// update as it happens, with nothing missed or repeated. A follower that falls behind the
/// live feed catches up from the store.
pub fn follow<S: EventStore + Clone, T: TimeSource, O: Send + 'static>(
    hub: Arc<Hub<S, T>>,
    handle: MatchHandle,
    from_seq: u64,
    wrap: fn(v1::MatchUpdate) -> O,
    gauge: crate::metrics::Kind,
) -> mpsc::Receiver<Result<O, Status>> {
    let (tx, rx) = mpsc::channel(64);
    let closed = hub.closed();
    tokio::spawn(async move {
        // Watch streams count as followers; a device's own updates as its connection.
        let _gauge = crate::metrics::Gauge::new(gauge);
        tokio::select! {
            () = follow_into(hub, handle, from_seq, wrap, &tx) => {}
            // The follower went away, or the server is shutting down: let go of the match.
            () = tx.closed() => {}
            () = closed => {}
        }
    });
    rx
}

/// `update` with its state's `sent_at_ms` set to now.
fn stamped(mut update: v1::MatchUpdate, time: &impl TimeSource) -> v1::MatchUpdate {
    if let Some(state) = update.state.as_mut() {
        state.sent_at_ms = time.now().as_ms();
    }
    update
}

async fn follow_into<S: EventStore + Clone, T: TimeSource, O: Send + 'static>(
    hub: Arc<Hub<S, T>>,
    handle: MatchHandle,
    from_seq: u64,
    wrap: fn(v1::MatchUpdate) -> O,
    tx: &mpsc::Sender<Result<O, Status>>,
) {
    {
        let (state, mut live) = match handle.subscribe().await {
            Ok(s) => s,
            Err(e) => {
                let _ = tx.send(Err(e.into())).await;
                return;
            }
        };
        if from_seq > state.seq {
            let _ = tx
                .send(Err(Status::out_of_range(format!(
                    "the log has {} events; from_seq {from_seq} is beyond it",
                    state.seq
                ))))
                .await;
            return;
        }
        let mut next = state.seq;
        let backlog = stored_events(
            &hub.store,
            &handle.info.id,
            from_seq,
            (state.seq - from_seq) as usize,
        );
        let first = backlog.map(|events| {
            stamped(
                v1::MatchUpdate {
                    events,
                    state: Some(state),
                },
                &hub.time,
            )
        });
        if tx.send(first.map(wrap)).await.is_err() {
            return;
        }
        loop {
            match live.recv().await {
                Ok(update) => {
                    let events: Vec<_> = update
                        .events
                        .iter()
                        .filter(|e| e.seq >= next)
                        .cloned()
                        .collect();
                    if let Some(last) = events.last() {
                        next = last.seq + 1;
                    }
                    let update = stamped(
                        v1::MatchUpdate {
                            events,
                            state: update.state.clone(),
                        },
                        &hub.time,
                    );
                    if tx.send(Ok(wrap(update))).await.is_err() {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    // Too slow for the live feed: read what was missed from the log.
                    let state = match handle.state().await {
                        Ok(s) => s,
                        Err(e) => {
                            let _ = tx.send(Err(e.into())).await;
                            return;
                        }
                    };
                    let missed = stored_events(
                        &hub.store,
                        &handle.info.id,
                        next,
                        (state.seq.saturating_sub(next)) as usize,
                    );
                    next = state.seq;
                    if tx
                        .send(missed.map(|events| {
                            wrap(stamped(
                                v1::MatchUpdate {
                                    events,
                                    state: Some(state),
                                },
                                &hub.time,
                            ))
                        }))
                        .await
                        .is_err()
                    {
                        return;
                    }
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            }
        }
    }
}
