//! `baffle.v1.Matches`: the one command RPC, and following matches and tournaments.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use baffle_proto::v1;
use baffle_proto::v1::matches_server::Matches;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tokio_stream::wrappers::{BroadcastStream, ReceiverStream};
use tonic::{Request, Response, Status};

use super::{Stream, follow};
use crate::auth::Caller;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::{self, director_only};

/// Longest request id accepted.
pub const MAX_REQUEST_ID: usize = 64;

/// Serves `Matches`.
pub struct MatchesService<S: EventStore, T: TimeSource> {
    /// The shared state.
    pub hub: Arc<Hub<S, T>>,
}

#[tonic::async_trait]
impl<S: EventStore + Clone, T: TimeSource> Matches for MatchesService<S, T> {
    async fn execute(
        &self,
        r: Request<v1::ExecuteRequest>,
    ) -> Result<Response<v1::ExecuteReply>, Status> {
        let caller = self.hub.caller(r.metadata()).await?;
        let r = r.into_inner();
        if r.request_id.len() > MAX_REQUEST_ID {
            return Err(Status::invalid_argument(format!(
                "request_id: at most {MAX_REQUEST_ID} bytes"
            )));
        }
        let handle = self.hub.match_handle(&r.match_id).await?;
        let by_director_only = r
            .command
            .as_ref()
            .and_then(|c| c.action.as_ref())
            .is_some_and(director_only);
        match caller {
            Caller::Director => {}
            Caller::Spectator => {
                return Err(Status::unauthenticated(
                    "commands need the director token or a device credential",
                ));
            }
            Caller::Device(id) => {
                if self.hub.device_match(&id).await.as_deref() != Some(r.match_id.as_str()) {
                    return Err(Status::permission_denied(format!(
                        "device {id} is not bound to match {}",
                        r.match_id
                    )));
                }
                if by_director_only {
                    return Err(Status::permission_denied(
                        "only the director may take this action",
                    ));
                }
            }
        }
        let planned = wire::decode(r.command, r.ruling, handle.rules)?;
        Ok(Response::new(
            handle
                .execute(planned, r.request_id, r.expected_seq)
                .await?,
        ))
    }

    type WatchStream = Stream<v1::MatchUpdate>;

    async fn watch(
        &self,
        r: Request<v1::WatchRequest>,
    ) -> Result<Response<Self::WatchStream>, Status> {
        let r = r.into_inner();
        let handle = self.hub.match_handle(&r.match_id).await?;
        let rx = follow(self.hub.clone(), handle, r.from_seq, |u| u);
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    type WatchTournamentStream = FeedStream;

    async fn watch_tournament(
        &self,
        r: Request<v1::WatchTournamentRequest>,
    ) -> Result<Response<Self::WatchTournamentStream>, Status> {
        let id = r.into_inner().tournament_id;
        self.hub.tournament(&id).await?;
        let live = self.hub.feed(&id).subscribe();
        let mut current = Vec::new();
        for h in self
            .hub
            .match_handles()
            .await
            .into_iter()
            .filter(|h| h.info.tournament == id)
        {
            current.extend(h.listed_state().await?);
        }
        let time = self.hub.time.clone();
        Ok(Response::new(FeedStream {
            snapshot: current.into_iter(),
            live: BroadcastStream::new(live),
            closed: Box::pin(self.hub.closed()),
            now_ms: Box::new(move || time.now().as_ms()),
        }))
    }
}

/// A tournament feed as the response stream itself: the current state of every match,
/// then each match's state after every change, each stamped as it leaves; it ends when
/// the server shuts down. No task or channel of its own: with thousands of followers,
/// each update costs one wake-up per follower, not three.
pub struct FeedStream {
    snapshot: std::vec::IntoIter<v1::MatchState>,
    live: BroadcastStream<v1::MatchState>,
    closed: Pin<Box<dyn Future<Output = ()> + Send>>,
    now_ms: Box<dyn Fn() -> i64 + Send + Sync>,
}

impl tokio_stream::Stream for FeedStream {
    type Item = Result<v1::MatchState, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.closed.as_mut().poll(cx).is_ready() {
            return Poll::Ready(None);
        }
        let next = match self.snapshot.next() {
            Some(state) => state,
            None => loop {
                match std::task::ready!(Pin::new(&mut self.live).poll_next(cx)) {
                    Some(Ok(state)) => break state,
                    // Summaries are whole states: a follower that fell behind just gets
                    // the next.
                    Some(Err(BroadcastStreamRecvError::Lagged(_))) => continue,
                    None => return Poll::Ready(None),
                }
            },
        };
        let mut state = next;
        state.sent_at_ms = (self.now_ms)();
        Poll::Ready(Some(Ok(state)))
    }
}
