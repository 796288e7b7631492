//! `baffle.v1.Audit`: the commitment, player seeds, the export and the reveal.

use std::sync::Arc;

use baffle_core::audit::Hash;
use baffle_core::audit::export::{Line, end_line, parse_line};
use baffle_proto::convert::side_from_wire;
use baffle_proto::v1;
use baffle_proto::v1::audit_server::Audit;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use super::Stream;
use crate::actor;
use crate::auth::Caller;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;

/// Records per read while exporting.
const EXPORT_CHUNK: usize = 512;

/// Serves `Audit`.
pub struct AuditService<S: EventStore, T: TimeSource> {
    /// The shared state.
    pub hub: Arc<Hub<S, T>>,
}

#[tonic::async_trait]
impl<S: EventStore + Clone, T: TimeSource> Audit for AuditService<S, T> {
    async fn get_commitment(
        &self,
        r: Request<v1::GetCommitmentRequest>,
    ) -> Result<Response<v1::GetCommitmentResponse>, Status> {
        let state = self
            .hub
            .match_handle(&r.into_inner().match_id)
            .await?
            .state()
            .await?;
        Ok(Response::new(v1::GetCommitmentResponse {
            commitment: state.commitment,
        }))
    }

    async fn submit_player_seed(
        &self,
        r: Request<v1::SubmitPlayerSeedRequest>,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let caller = self.hub.caller(r.metadata()).await?;
        let r = r.into_inner();
        match caller {
            Caller::Director => {}
            Caller::Device(id)
                if self.hub.device_match(&id).await.as_deref() == Some(r.match_id.as_str()) => {}
            Caller::Device(id) => {
                return Err(Status::permission_denied(format!(
                    "device {id} is not bound to match {}",
                    r.match_id
                )));
            }
            Caller::Spectator => {
                return Err(Status::unauthenticated(
                    "a seed needs the director token or the match's device",
                ));
            }
        }
        let side =
            side_from_wire(r.side).map_err(|e| Status::invalid_argument(format!("side: {e}")))?;
        let handle = self.hub.match_handle(&r.match_id).await?;
        let seq = handle.add_seed(side, r.seed).await?;
        Ok(Response::new(v1::SubmitPlayerSeedResponse { seq }))
    }

    type ExportLogStream = Stream<v1::ExportLine>;

    async fn export_log(
        &self,
        r: Request<v1::ExportLogRequest>,
    ) -> Result<Response<Self::ExportLogStream>, Status> {
        let match_id = r.into_inner().match_id;
        let state = self.hub.match_handle(&match_id).await?.state().await?;
        let store = self.hub.store.clone();
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        tokio::spawn(async move {
            // Up to the state's sequence number: a consistent prefix, even while play goes on.
            let mut from = 0;
            let mut head = Hash::GENESIS;
            while from < state.seq {
                let want = EXPORT_CHUNK.min((state.seq - from) as usize);
                let lines = match store.read(&actor::stream(&match_id), from, want) {
                    Ok(l) => l,
                    Err(e) => {
                        let _ = tx.send(Err(Status::unavailable(e.to_string()))).await;
                        return;
                    }
                };
                if lines.is_empty() {
                    let _ = tx
                        .send(Err(Status::internal(
                            "the log is shorter than its state says",
                        )))
                        .await;
                    return;
                }
                for l in lines {
                    let line = String::from_utf8_lossy(&l).into_owned();
                    if let Ok(Line::Record(r)) = parse_line(&line) {
                        head = r.hash;
                    }
                    if tx.send(Ok(v1::ExportLine { line })).await.is_err() {
                        return;
                    }
                    from += 1;
                }
            }
            let _ = tx
                .send(Ok(v1::ExportLine {
                    line: end_line(state.seq, head),
                }))
                .await;
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn reveal(
        &self,
        r: Request<v1::RevealRequest>,
    ) -> Result<Response<v1::RevealResponse>, Status> {
        self.hub.director(r.metadata()).await?;
        let server_seed = self
            .hub
            .match_handle(&r.into_inner().match_id)
            .await?
            .reveal()
            .await?;
        Ok(Response::new(v1::RevealResponse { server_seed }))
    }
}
