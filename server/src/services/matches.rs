//! `baffle.v1.Matches`: the one command RPC, a player's name corrected, and following
//! matches and tournaments.

use std::pin::Pin;
use std::sync::Arc;

use baffle_proto::v1;
use baffle_proto::v1::matches_server::Matches;
use prost::Message;
use sha2::{Digest, Sha256};
use tokio_stream::StreamExt;
use tonic::{Request, Response, Status};

use super::feed::FeedStream;
use super::follow;
use crate::actor::{Admission, RequestId};
use crate::auth::Caller;
use crate::error::Error;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::{self, director_only};

/// Longest request id accepted.
pub const MAX_REQUEST_ID: usize = 64;

/// The request's id with the fingerprint of what it carries — who asks, and the
/// command, ruling and expected sequence number as encoded — or None without an id.
fn request_id(caller: &Caller, r: &v1::ExecuteRequest) -> Option<RequestId> {
    if r.request_id.is_empty() {
        return None;
    }
    let mut hash = Sha256::new();
    let who = match caller {
        Caller::Device(id) => format!("device {id}"),
        other => format!("{other:?}"),
    };
    for part in [
        who.as_bytes(),
        r.match_id.as_bytes(),
        &r.command
            .as_ref()
            .map(Message::encode_to_vec)
            .unwrap_or_default(),
        &r.ruling
            .as_ref()
            .map(Message::encode_to_vec)
            .unwrap_or_default(),
        &r.expected_seq
            .map(|s| s.to_be_bytes().to_vec())
            .unwrap_or_default(),
    ] {
        // Length-prefixed, so that no two different requests hash the same parts.
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part);
    }
    Some(RequestId {
        id: r.request_id.clone(),
        fingerprint: hash.finalize().into(),
    })
}

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
            return Err(
                Error::Invalid(format!("request_id: at most {MAX_REQUEST_ID} bytes")).into(),
            );
        }
        let handle = self.hub.handle_for_command(&r.match_id).await?;
        let by_director_only = r
            .command
            .as_ref()
            .and_then(|c| c.action.as_ref())
            .is_some_and(director_only);
        match &caller {
            Caller::Director => {}
            Caller::Spectator => {
                return Err(Error::Unauthenticated(
                    "commands need the director token or a device credential".into(),
                )
                .into());
            }
            // A player may send his own move (issue 23); with live dice, where he plays
            // from his own phone or terminal, his own play (issue 35); nothing else.
            Caller::Player { match_id, side }
                if *match_id == r.match_id
                    && (own_move(r.command.as_ref(), *side)
                        || (own_play(r.command.as_ref(), *side)
                            && handle.state().await?.live_dice.is_some())) => {}
            Caller::Player { .. } => {
                return Err(Error::PermissionDenied(
                    "a player code gives his seed or chain (Audit), his own moves, and with live dice his own play (roll, double, take, pass, press) and links — nothing for the other side: the table's device or the director sends the rest".into(),
                ).into());
            }
            Caller::Device(id) => {
                if self.hub.device_match(id).await.as_deref() != Some(r.match_id.as_str()) {
                    return Err(Error::PermissionDenied(format!(
                        "device {id} is not bound to match {}",
                        r.match_id
                    ))
                    .into());
                }
                if by_director_only {
                    return Err(Error::PermissionDenied(
                        "only the director may take this action".into(),
                    )
                    .into());
                }
            }
        }
        let request_id = request_id(&caller, &r);
        let admission = match caller {
            Caller::Director => Admission::Always,
            other => Admission::PerCaller(format!("{other:?}")),
        };
        let planned = wire::decode(r.command, r.ruling, handle.game)?;
        Ok(Response::new(
            handle
                .execute(planned, request_id, r.expected_seq, admission)
                .await?,
        ))
    }

    async fn export_match(
        &self,
        r: Request<v1::ExportMatchRequest>,
    ) -> Result<Response<v1::ExportMatchResponse>, Status> {
        let r = r.into_inner();
        let reply = super::export::export_match(&self.hub, &r.match_id, r.format).await?;
        Ok(Response::new(reply))
    }

    async fn rename_player(
        &self,
        r: Request<v1::RenamePlayerRequest>,
    ) -> Result<Response<v1::ExecuteReply>, Status> {
        self.hub.director(r.metadata()).await?;
        let r = r.into_inner();
        let request = wire::rename(&r)?;
        let handle = self.hub.handle_for_command(&r.match_id).await?;
        Ok(Response::new(
            handle
                .execute(request, None, None, Admission::Always)
                .await?,
        ))
    }

    async fn adjudicate(
        &self,
        r: Request<v1::AdjudicateRequest>,
    ) -> Result<Response<v1::Adjudication>, Status> {
        self.hub.director(r.metadata()).await?;
        let r = r.into_inner();
        let handle = self.hub.match_handle(&r.match_id).await?;
        match handle.adjudication().await? {
            Some(help) => Ok(Response::new(help)),
            None => Err(Error::FailedPrecondition(format!(
                "match {} has no game in progress on a board to adjudicate: it is a chess \
                 match, records no moves (moves: off), or is before its first opening \
                 roll, between games or over",
                r.match_id
            ))
            .into()),
        }
    }

    type WatchStream = super::follow::Updates;

    async fn watch(
        &self,
        r: Request<v1::WatchRequest>,
    ) -> Result<Response<Self::WatchStream>, Status> {
        let slot = self.hub.follower_slot(&r).await?;
        let r = r.into_inner();
        let handle = self.hub.match_handle(&r.match_id).await?;
        Ok(Response::new(follow(
            self.hub.clone(),
            handle,
            r.from_seq,
            slot,
            crate::metrics::Kind::Follower,
        )))
    }

    type WatchTournamentStream =
        Pin<Box<dyn tokio_stream::Stream<Item = Result<v1::MatchState, Status>> + Send>>;

    /// baffled answers this method with [`FeedService`](super::feed::FeedService), which
    /// sends every follower the same encoded bytes; this is the same feed, decoded, for a
    /// `MatchesServer` mounted without it.
    async fn watch_tournament(
        &self,
        r: Request<v1::WatchTournamentRequest>,
    ) -> Result<Response<Self::WatchTournamentStream>, Status> {
        let slot = self.hub.follower_slot(&r).await?;
        let feed = FeedStream::open(&self.hub, &r.into_inner().tournament_id, slot).await?;
        Ok(Response::new(Box::pin(
            feed.map(|frame| frame.and_then(|f| f.decode())),
        )))
    }
}

/// Whether `command` is `side`'s own play with server dice — the opening or his roll
/// (dice left to the server), a double, a take or a pass, his press — which a player
/// sends himself in a match with live dice.
fn own_play(command: Option<&v1::Command>, side: baffle_core::Side) -> bool {
    use v1::command::Action;
    let own = baffle_proto::convert::side_to_wire(side) as i32;
    match command.and_then(|c| c.action.as_ref()) {
        // With a link, whose it is: his own (no side is the wire's to refuse as a value).
        Some(Action::OpeningRoll(r)) => {
            r.dice.is_empty() && (r.link.is_empty() || r.side == own || r.side == 0)
        }
        Some(Action::Roll(r)) => r.side == own && r.dice.is_empty(),
        Some(Action::Double(s) | Action::Take(s) | Action::Pass(s) | Action::Press(s)) => *s == own,
        _ => false,
    }
}

/// Whether `command` is a move of `side`'s own (a player's code may send it).
fn own_move(command: Option<&v1::Command>, side: baffle_core::Side) -> bool {
    match command.and_then(|c| c.action.as_ref()) {
        Some(v1::command::Action::Move(m)) => {
            m.side == baffle_proto::convert::side_to_wire(side) as i32
        }
        _ => false,
    }
}
