//! `baffle.v1.Draws`: a tournament's entrants, draw, rounds and standings, over
//! [`crate::draws::Draws`].

use std::sync::Arc;

use baffle_core::GameType;
use baffle_core::Timestamp;
use baffle_core::tournament::{Command, Details, EntrantId, Seeding, Tournament};
use baffle_proto::v1;
use baffle_proto::v1::draws_server::Draws as DrawsRpc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use super::Stream;
use crate::draws::Draws;
use crate::error::Error;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::draw::{
    details_from_wire, details_to_wire, draw_view, flight_from_wire, plan_from_wire,
    ruling_from_wire,
};
use crate::wire::setup::chess_settings;

/// Serves `Draws`.
pub struct DrawsService<S: EventStore, T: TimeSource> {
    /// The drawn tournaments.
    pub draws: Arc<Draws<S, T>>,
}

fn view(t: &Tournament) -> Response<v1::DrawView> {
    let chess = (t.plan.game == GameType::Chess).then(v1::ChessMatchSettings::default);
    Response::new(draw_view(t, chess))
}

impl<S: EventStore + Clone, T: TimeSource> DrawsService<S, T> {
    async fn run(
        &self,
        metadata: &tonic::metadata::MetadataMap,
        id: &str,
        command: Command,
    ) -> Result<Response<v1::DrawView>, Status> {
        self.draws.hub().director(metadata).await?;
        let t = self.draws.command(id, command).await?;
        Ok(view(&t))
    }
}

#[tonic::async_trait]
impl<S: EventStore + Clone, T: TimeSource> DrawsRpc for DrawsService<S, T> {
    async fn open_draw(
        &self,
        r: Request<v1::OpenDrawRequest>,
    ) -> Result<Response<v1::DrawView>, Status> {
        self.draws.hub().director(r.metadata()).await?;
        let r = r.into_inner();
        let wire_plan = r
            .plan
            .ok_or_else(|| Error::Invalid("plan is required".into()))?;
        let plan = plan_from_wire(&wire_plan)?;
        let now = self.draws.hub().time.now();
        let chess = match wire_plan.chess {
            Some(c) => Some(chess_settings(c, ["A".into(), "B".into()], now, now)?),
            None => None,
        };
        let t = self
            .draws
            .open_draw(&r.tournament_id, plan, chess, r.tables)
            .await?;
        tracing::info!(tournament = %r.tournament_id, "draw opened");
        Ok(view(&t))
    }

    async fn register_entrants(
        &self,
        r: Request<v1::RegisterEntrantsRequest>,
    ) -> Result<Response<v1::DrawView>, Status> {
        let metadata = r.metadata().clone();
        let r = r.into_inner();
        if r.entrants.is_empty() {
            return Err(Error::Invalid("entrants: at least one".into()).into());
        }
        let mut commands = Vec::with_capacity(r.entrants.len());
        for d in r.entrants {
            let mut details = details_from_wire(d);
            // A listed player comes with what the list knows of him.
            if !details.player.is_empty() {
                let listed = self.draws.hub().player(&details.player).await?;
                details = Details {
                    player: details.player,
                    ..listed.details
                };
            }
            commands.push(Command::Register {
                details,
                approve: r.approve,
            });
        }
        self.run(&metadata, &r.tournament_id, Command::All(commands))
            .await
    }

    async fn update_entrant(
        &self,
        r: Request<v1::UpdateEntrantRequest>,
    ) -> Result<Response<v1::DrawView>, Status> {
        use v1::update_entrant_request::Action;
        let metadata = r.metadata().clone();
        let r = r.into_inner();
        let entrant = EntrantId(r.entrant);
        let command = match r.action {
            Some(Action::Approve(_)) => Command::Approve { entrant },
            Some(Action::CheckIn(_)) => Command::CheckIn { entrant },
            Some(Action::OutReason(reason)) => Command::Out { entrant, reason },
            Some(Action::Rename(name)) => Command::Rename { entrant, name },
            None => {
                return Err(Error::Invalid(
                    "action: approve, check_in, out_reason or rename".into(),
                )
                .into());
            }
        };
        self.run(&metadata, &r.tournament_id, command).await
    }

    async fn set_tables(
        &self,
        r: Request<v1::SetTablesRequest>,
    ) -> Result<Response<v1::DrawView>, Status> {
        let metadata = r.metadata().clone();
        let r = r.into_inner();
        self.run(
            &metadata,
            &r.tournament_id,
            Command::SetTables { tables: r.tables },
        )
        .await
    }

    async fn make_draw(
        &self,
        r: Request<v1::MakeDrawRequest>,
    ) -> Result<Response<v1::DrawView>, Status> {
        let metadata = r.metadata().clone();
        let r = r.into_inner();
        let seeding = match (r.seeds.is_empty(), r.seed_top_rated) {
            (true, 0) => Seeding::None,
            (true, n) => Seeding::TopRated(n),
            (false, 0) => Seeding::Named(r.seeds.into_iter().map(EntrantId).collect()),
            (false, _) => {
                return Err(
                    Error::Invalid("seeds and seed_top_rated: one or the other".into()).into(),
                );
            }
        };
        // The seed is the server's, filled in by `Draws::command`.
        let placeholder = baffle_core::dice::ServerSeed::from_bytes([0; 32]);
        self.run(
            &metadata,
            &r.tournament_id,
            Command::MakeDraw {
                seed: placeholder,
                seeding,
            },
        )
        .await
    }

    async fn start_round(
        &self,
        r: Request<v1::StartRoundRequest>,
    ) -> Result<Response<v1::DrawView>, Status> {
        let metadata = r.metadata().clone();
        let r = r.into_inner();
        let command = Command::StartRound {
            flight: flight_from_wire(r.flight)?,
            round: r.round,
            start: (r.start_ms != 0).then_some(Timestamp(r.start_ms)),
        };
        self.run(&metadata, &r.tournament_id, command).await
    }

    async fn rule_on_pairing(
        &self,
        r: Request<v1::RuleOnPairingRequest>,
    ) -> Result<Response<v1::DrawView>, Status> {
        let metadata = r.metadata().clone();
        let r = r.into_inner();
        let (key, ruling) = ruling_from_wire(&r)?;
        let command = Command::Rule {
            key,
            ruling,
            words: r.words,
        };
        self.run(&metadata, &r.tournament_id, command).await
    }

    async fn get_draw(
        &self,
        r: Request<v1::GetDrawRequest>,
    ) -> Result<Response<v1::DrawView>, Status> {
        let t = self.draws.get(&r.into_inner().tournament_id).await?;
        Ok(view(&t))
    }

    type WatchDrawStream = Stream<v1::DrawView>;

    async fn watch_draw(
        &self,
        r: Request<v1::GetDrawRequest>,
    ) -> Result<Response<Self::WatchDrawStream>, Status> {
        let slot = self.draws.hub().follower_slot(&r).await?;
        let id = r.into_inner().tournament_id;
        let first = self.draws.get(&id).await?;
        let mut changed = self.draws.subscribe(&id);
        let closed = self.draws.hub().closed();
        let draws = self.draws.clone();
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        tokio::spawn(async move {
            let _slot = slot;
            tokio::pin!(closed);
            let mut sent = first.length;
            if tx.send(Ok(view(&first).into_inner())).await.is_err() {
                return;
            }
            loop {
                tokio::select! {
                    c = changed.changed() => if c.is_err() { return },
                    () = &mut closed => return,
                    () = tx.closed() => return,
                }
                let Ok(t) = draws.get(&id).await else { return };
                if t.length == sent {
                    continue;
                }
                sent = t.length;
                if tx.send(Ok(view(&t).into_inner())).await.is_err() {
                    return;
                }
            }
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }

    async fn add_players(
        &self,
        r: Request<v1::AddPlayersRequest>,
    ) -> Result<Response<v1::ListPlayersResponse>, Status> {
        self.draws.hub().director(r.metadata()).await?;
        let players = r
            .into_inner()
            .players
            .into_iter()
            .map(|p| {
                let mut details = details_from_wire(p.details.unwrap_or_default());
                details.player = String::new();
                (p.id, details)
            })
            .collect();
        self.draws.hub().list_players(players).await?;
        self.list_players(Request::new(v1::ListPlayersRequest {}))
            .await
    }

    async fn list_players(
        &self,
        _r: Request<v1::ListPlayersRequest>,
    ) -> Result<Response<v1::ListPlayersResponse>, Status> {
        let players = self
            .draws
            .hub()
            .players()
            .await
            .into_iter()
            .map(|(id, p)| v1::ListedPlayer {
                id,
                details: Some(details_to_wire(&p.details)),
                history: p
                    .history
                    .into_iter()
                    .map(|(tournament_id, key, rating)| v1::RatedResult {
                        tournament_id,
                        key,
                        rating_hundredths: rating,
                    })
                    .collect(),
            })
            .collect();
        Ok(Response::new(v1::ListPlayersResponse { players }))
    }

    type ExportDrawLogStream = Stream<v1::ExportLine>;

    async fn export_draw_log(
        &self,
        r: Request<v1::GetDrawRequest>,
    ) -> Result<Response<Self::ExportDrawLogStream>, Status> {
        let id = r.into_inner().tournament_id;
        let lines = self.draws.export(&id).await?;
        let (tx, rx) = tokio::sync::mpsc::channel(lines.len().max(1));
        for line in lines {
            let _ = tx.try_send(Ok(v1::ExportLine { line }));
        }
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}
