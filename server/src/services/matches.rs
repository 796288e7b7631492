//! `baffle.v1.Matches`: the one command RPC, and following matches and tournaments.

use std::sync::Arc;

use baffle_proto::v1;
use baffle_proto::v1::matches_server::Matches;
use tokio_stream::wrappers::ReceiverStream;
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

    type WatchTournamentStream = Stream<v1::MatchState>;

    async fn watch_tournament(
        &self,
        r: Request<v1::WatchTournamentRequest>,
    ) -> Result<Response<Self::WatchTournamentStream>, Status> {
        let id = r.into_inner().tournament_id;
        self.hub.tournament(&id).await?;
        let mut live = self.hub.feed(&id).subscribe();
        let mut current = Vec::new();
        for h in self
            .hub
            .match_handles()
            .await
            .into_iter()
            .filter(|h| h.info.tournament == id)
        {
            current.push(h.state().await?);
        }
        let (tx, rx) = tokio::sync::mpsc::channel(256);
        let closed = self.hub.closed();
        let time = self.hub.time.clone();
        let stamped = move |mut state: v1::MatchState| {
            state.sent_at_ms = time.now().as_ms();
            state
        };
        tokio::spawn(async move {
            let feed = async {
                for state in current {
                    if tx.send(Ok(stamped(state))).await.is_err() {
                        return;
                    }
                }
                loop {
                    match live.recv().await {
                        Ok(state) => {
                            if tx.send(Ok(stamped(state))).await.is_err() {
                                return;
                            }
                        }
                        // Summaries are whole states: a follower that fell behind just gets the next.
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                    }
                }
            };
            tokio::select! {
                () = feed => {}
                () = tx.closed() => {}
                () = closed => {}
            }
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}
