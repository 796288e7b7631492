//! `baffle.v1.Audit`: the commitment, player seeds, the export and the reveal.

use std::sync::Arc;

use baffle_core::Side;
use baffle_core::audit::Hash;
use baffle_core::audit::Reader;
use baffle_core::audit::export::end_line;
use baffle_core::table::Request as TableRequest;

use baffle_proto::v1;
use baffle_proto::v1::audit_server::Audit;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use super::Stream;
use crate::actor;
use crate::auth::Caller;
use crate::error::Error;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire;

/// Records per read while exporting.
const EXPORT_CHUNK: usize = 512;

/// Serves `Audit`.
pub struct AuditService<S: EventStore, T: TimeSource> {
    /// The shared state.
    pub hub: Arc<Hub<S, T>>,
}

impl<S: EventStore + Clone, T: TimeSource> AuditService<S, T> {
    /// The side a seed is for, if the caller is that side's player in that match: only a
    /// player gives his own seed — not the director, not the other player, not the
    /// table's device (docs/dice.md, threat model).
    fn player(&self, caller: &Caller, match_id: &str, side: i32) -> Result<Side, Status> {
        let side = wire::side(side, "side")?;
        match caller {
            Caller::Player {
                match_id: m,
                side: s,
            } if m == match_id && *s == side => Ok(side),
            Caller::Player { .. } => Err(Error::PermissionDenied(
                "this player code is for another match or the other side".into(),
            )
            .into()),
            Caller::Spectator => Err(Error::Unauthenticated(
                "a seed needs the player's own code (the director issues them: IssuePlayerCodes)"
                    .into(),
            )
            .into()),
            Caller::Director | Caller::Device(_) => Err(Error::PermissionDenied(
                "only the player himself gives his seed, with his player code".into(),
            )
            .into()),
        }
    }

    /// The side a live link is for, if the caller may carry it: that side's player, the
    /// director, or the device bound to the match (a relay from the player's phone).
    /// Nobody but the player can make one — it must hash to his last — so carrying it is
    /// all the others can do.
    async fn relayer(&self, caller: &Caller, match_id: &str, side: i32) -> Result<Side, Status> {
        match caller {
            Caller::Director => {}
            Caller::Device(id) if self.hub.device_match(id).await.as_deref() == Some(match_id) => {}
            Caller::Device(id) => {
                return Err(Error::PermissionDenied(format!(
                    "device {id} is not bound to match {match_id}"
                ))
                .into());
            }
            Caller::Spectator => {
                return Err(Error::Unauthenticated(
                    "a link needs the player's own code (or the table's device, or the director, relaying it)".into(),
                ).into());
            }
            Caller::Player { .. } => return self.player(caller, match_id, side),
        }
        wire::side(side, "side")
    }

    /// A player's own dice request: the caller checked as `side`'s player of `match_id`
    /// ([`Self::player`]), then the request `make` builds for that side recorded.
    async fn by_player(
        &self,
        caller: &Caller,
        match_id: &str,
        side: i32,
        make: impl FnOnce(Side) -> Result<TableRequest, Error>,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let side = self.player(caller, match_id, side)?;
        let request = make(side)?;
        self.seed(match_id, side, request).await
    }

    /// Records a seed request of `side`'s; answers with the log's length after it.
    async fn seed(
        &self,
        match_id: &str,
        side: Side,
        request: TableRequest,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let admission = actor::Admission::PerCaller(format!("player {side:?}"));
        self.record(match_id, request, admission).await
    }

    /// Records a dice request; answers with the log's length after it.
    async fn record(
        &self,
        match_id: &str,
        request: TableRequest,
        admission: actor::Admission,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let handle = self.hub.handle_for_command(match_id).await?;
        let reply = handle.execute(request, None, None, admission).await?;
        Ok(Response::new(v1::SubmitPlayerSeedResponse {
            seq: reply.state.map_or(0, |s| s.seq),
        }))
    }
}

/// A field of 32 bytes, or INVALID_ARGUMENT naming it (`what` says what it holds).
fn bytes32(bytes: Vec<u8>, what: &str) -> Result<[u8; 32], Error> {
    bytes
        .try_into()
        .map_err(|_| Error::Invalid(format!("{what}, 32 bytes")))
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
            dice_construction: state.dice_construction,
        }))
    }

    async fn submit_player_seed(
        &self,
        r: Request<v1::SubmitPlayerSeedRequest>,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let caller = self.hub.caller(r.metadata()).await?;
        let r = r.into_inner();
        self.by_player(&caller, &r.match_id, r.side, |side| {
            Ok(TableRequest::PlayerSeed { side, seed: r.seed })
        })
        .await
    }

    async fn issue_player_codes(
        &self,
        r: Request<v1::IssuePlayerCodesRequest>,
    ) -> Result<Response<v1::IssuePlayerCodesResponse>, Status> {
        self.hub.director(r.metadata()).await?;
        let [code_a, code_b] = self
            .hub
            .issue_player_codes(&r.into_inner().match_id)
            .await?;
        Ok(Response::new(v1::IssuePlayerCodesResponse {
            code_a,
            code_b,
        }))
    }

    async fn commit_player_seed(
        &self,
        r: Request<v1::CommitPlayerSeedRequest>,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let caller = self.hub.caller(r.metadata()).await?;
        let r = r.into_inner();
        self.by_player(&caller, &r.match_id, r.side, |side| {
            let commitment = bytes32(
                r.commitment,
                "commitment: the SHA-256 of the seed (docs/dice.md)",
            )?;
            Ok(TableRequest::CommitSeed { side, commitment })
        })
        .await
    }

    async fn reveal_player_seed(
        &self,
        r: Request<v1::SubmitPlayerSeedRequest>,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let caller = self.hub.caller(r.metadata()).await?;
        let r = r.into_inner();
        self.by_player(&caller, &r.match_id, r.side, |side| {
            Ok(TableRequest::RevealSeed {
                side,
                seed: r.seed,
                salt: r.salt,
            })
        })
        .await
    }

    async fn extend_reveal_deadline(
        &self,
        r: Request<v1::ExtendRevealDeadlineRequest>,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        self.hub.director(r.metadata()).await?;
        let r = r.into_inner();
        let request = TableRequest::ExtendReveal {
            window: baffle_core::Millis::secs(i64::from(r.seconds)),
            ruling: baffle_core::table::ChessRuling {
                reason: r.reason,
                article: r.article,
            },
        };
        self.record(&r.match_id, request, actor::Admission::Always)
            .await
    }

    async fn commit_chain(
        &self,
        r: Request<v1::CommitChainRequest>,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let caller = self.hub.caller(r.metadata()).await?;
        let r = r.into_inner();
        self.by_player(&caller, &r.match_id, r.side, |side| {
            let anchor = bytes32(r.anchor, "anchor: the chain's anchor (docs/dice.md)")?;
            Ok(TableRequest::CommitChain {
                side,
                anchor,
                length: r.length,
            })
        })
        .await
    }

    async fn give_link(
        &self,
        r: Request<v1::GiveLinkRequest>,
    ) -> Result<Response<v1::SubmitPlayerSeedResponse>, Status> {
        let caller = self.hub.caller(r.metadata()).await?;
        let r = r.into_inner();
        let side = self.relayer(&caller, &r.match_id, r.side).await?;
        let link = wire::link(r.link, "link")?;
        self.seed(&r.match_id, side, TableRequest::DiceLink { side, link })
            .await
    }

    type ExportLogStream = Stream<v1::ExportLine>;

    async fn export_log(
        &self,
        r: Request<v1::ExportLogRequest>,
    ) -> Result<Response<Self::ExportLogStream>, Status> {
        let slot = self.hub.follower_slot(&r).await?;
        let match_id = r.into_inner().match_id;
        let state = self.hub.match_handle(&match_id).await?.state().await?;
        let store = self.hub.store.clone();
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        tokio::spawn(async move {
            let _slot = slot;
            // Up to the state's sequence number: a consistent prefix, even while play goes on.
            let mut from = 0;
            let mut head = Hash::GENESIS;
            let mut reader = Reader::new();
            while from < state.seq {
                let want = EXPORT_CHUNK.min((state.seq - from) as usize);
                let lines = match store.read(&actor::stream(&match_id), from, want) {
                    Ok(l) => l,
                    Err(e) => {
                        let _ = tx.send(Err(Error::Unavailable(e.to_string()).into())).await;
                        return;
                    }
                };
                if lines.is_empty() {
                    let _ = tx
                        .send(Err(Error::Internal(
                            "the log is shorter than its state says".into(),
                        )
                        .into()))
                        .await;
                    return;
                }
                for l in lines {
                    match reader.record(&l) {
                        Ok(r) => head = r.hash,
                        Err(e) => {
                            let lost = Error::DataLoss(format!("match {match_id}'s log: {e}"));
                            let _ = tx.send(Err(lost.into())).await;
                            return;
                        }
                    }
                    // The reader took it as UTF-8: the line goes out as stored.
                    let line = String::from_utf8_lossy(&l).into_owned();
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
