//! `baffle.v1.Tournaments`.

use std::sync::Arc;

use baffle_proto::v1;
use baffle_proto::v1::tournaments_server::Tournaments;
use tonic::{Request, Response, Status};

use crate::error::Error;
use crate::hub::{Hub, NewGame, NewMatch, Replacement};
use crate::registry::VenueDates;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::MatchInfo;
use crate::wire::setup::chess_settings;
use crate::wire::tournament::{defaults_from_wire, tournament_to_wire};

/// Serves `Tournaments`.
pub struct TournamentsService<S: EventStore, T: TimeSource> {
    /// The shared state.
    pub hub: Arc<Hub<S, T>>,
}

#[tonic::async_trait]
impl<S: EventStore + Clone, T: TimeSource> Tournaments for TournamentsService<S, T> {
    async fn create_tournament(
        &self,
        r: Request<v1::CreateTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.hub.director(r.metadata()).await?;
        let t = r
            .into_inner()
            .tournament
            .ok_or_else(|| Error::Invalid("tournament is required".into()))?;
        let defaults = defaults_from_wire(t.defaults.unwrap_or_default())?;
        let venue_dates = VenueDates {
            venue: t.venue,
            first_day: t.first_day,
            last_day: t.last_day,
        };
        self.hub
            .create_tournament_at(&t.id, &t.name, defaults, venue_dates)
            .await?;
        let created = self.hub.tournament(&t.id).await?;
        Ok(Response::new(tournament_to_wire(&t.id, &created)))
    }

    async fn get_tournament(
        &self,
        r: Request<v1::GetTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        let id = r.into_inner().id;
        let t = self.hub.tournament(&id).await?;
        Ok(Response::new(tournament_to_wire(&id, &t)))
    }

    async fn list_tournaments(
        &self,
        r: Request<v1::ListTournamentsRequest>,
    ) -> Result<Response<v1::ListTournamentsResponse>, Status> {
        let all = r.into_inner().include_archived;
        Ok(Response::new(v1::ListTournamentsResponse {
            tournaments: self
                .hub
                .tournaments()
                .await
                .iter()
                .filter(|(_, t)| all || !t.archived)
                .map(|(id, t)| tournament_to_wire(id, t))
                .collect(),
        }))
    }

    async fn archive_tournament(
        &self,
        r: Request<v1::ArchiveTournamentRequest>,
    ) -> Result<Response<v1::Tournament>, Status> {
        self.hub.director(r.metadata()).await?;
        let r = r.into_inner();
        let t = self
            .hub
            .archive_tournament(&r.id, r.archived, r.force)
            .await?;
        tracing::info!(
            tournament = %r.id,
            archived = r.archived,
            forced = r.force,
            "tournament archived or brought back"
        );
        Ok(Response::new(tournament_to_wire(&r.id, &t)))
    }

    async fn create_match(
        &self,
        r: Request<v1::CreateMatchRequest>,
    ) -> Result<Response<v1::MatchState>, Status> {
        self.hub.director(r.metadata()).await?;
        let r = r.into_inner();
        let now = self.hub.time.now();
        let start = match r.scheduled_start_ms {
            0 => now,
            ms => baffle_core::Timestamp(ms),
        };
        baffle_core::backgammon::setup::check_schedule(start, now)
            .map_err(|e| Error::Invalid(format!("scheduled_start_ms: {e}")))?;
        let players = [r.player_a.clone(), r.player_b.clone()];
        let game = match r.chess {
            Some(_) if r.moves == v1::MovesSetting::Recorded as i32 || r.dice != 0 => {
                return Err(Error::Invalid(
                    "moves and dice are backgammon settings: a chess match takes neither".into(),
                )
                .into());
            }
            Some(chess) => NewGame::Chess(chess_settings(chess, players.clone(), start, now)?),
            None => NewGame::Backgammon {
                length: r.length,
                unclocked: r.unclocked,
                series_match: (r.series_match != 0).then_some(r.series_match),
                moves: moves_setting(r.moves)?,
                dice: dice_source(r.dice)?,
            },
        };
        let new = NewMatch {
            info: MatchInfo {
                id: r.match_id,
                tournament: r.tournament_id,
                round: r.round,
                table: r.table,
            },
            players,
            start,
            game,
            replaces: (!r.replaces.is_empty()).then_some(Replacement {
                match_id: r.replaces,
                ruling: r.ruling,
            }),
        };
        self.hub.record_by_hand(&new).await?;
        let handle = self.hub.create_match(new).await?;
        Ok(Response::new(handle.state().await?))
    }

    async fn get_match(
        &self,
        r: Request<v1::GetMatchRequest>,
    ) -> Result<Response<v1::MatchState>, Status> {
        let handle = self.hub.match_handle(&r.into_inner().match_id).await?;
        let mut state = handle.state().await?;
        state.sent_at_ms = self.hub.time.now().as_ms();
        Ok(Response::new(state))
    }

    async fn list_matches(
        &self,
        r: Request<v1::ListMatchesRequest>,
    ) -> Result<Response<v1::ListMatchesResponse>, Status> {
        let f = r.into_inner();
        let mut matches = Vec::new();
        let mut offline = Vec::new();
        // Without a tournament, archived tournaments' matches only when asked for.
        let archived: Vec<String> = if f.tournament_id.is_empty() && !f.include_archived {
            self.hub
                .tournaments()
                .await
                .into_iter()
                .filter(|(_, t)| t.archived)
                .map(|(id, _)| id)
                .collect()
        } else {
            Vec::new()
        };
        for h in self.hub.match_handles().await {
            let i = &h.info;
            let wanted = (f.tournament_id.is_empty() || i.tournament == f.tournament_id)
                && !archived.contains(&i.tournament)
                && (f.round == 0 || i.round == f.round)
                && (f.table.is_empty() || i.table == f.table);
            if !wanted {
                continue;
            }
            let state = match h.state().await {
                Ok(state) => state,
                // A log that did not check out: listed apart, so that a director sees it.
                Err(Error::DataLoss(reason)) => {
                    offline.push(v1::OfflineMatch {
                        match_id: i.id.clone(),
                        tournament_id: i.tournament.clone(),
                        round: i.round,
                        table: i.table.clone(),
                        reason,
                    });
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
            if f.phase == 0 || state.phase == f.phase {
                matches.push(state);
            }
        }
        matches.sort_by(|a, b| {
            (&a.tournament_id, a.round, &a.table, &a.match_id).cmp(&(
                &b.tournament_id,
                b.round,
                &b.table,
                &b.match_id,
            ))
        });
        Ok(Response::new(v1::ListMatchesResponse { matches, offline }))
    }
}

/// Where a new match's dice come from; unset is the tournament's.
fn dice_source(wire: i32) -> Result<Option<baffle_core::backgammon::setup::DiceSource>, Status> {
    use baffle_core::backgammon::setup::DiceSource;
    match v1::DiceSource::try_from(wire) {
        Ok(v1::DiceSource::Unspecified) => Ok(None),
        Ok(v1::DiceSource::Server) => Ok(Some(DiceSource::Server)),
        Ok(v1::DiceSource::Physical) => Ok(Some(DiceSource::Physical)),
        Err(_) => Err(Error::Invalid(format!(
            "dice: {wire} is not a dice source (1 server, 2 physical)"
        ))
        .into()),
    }
}

/// The moves setting of a new match; unset is off.
fn moves_setting(wire: i32) -> Result<baffle_core::backgammon::MovesSetting, Status> {
    use baffle_core::backgammon::MovesSetting;
    match v1::MovesSetting::try_from(wire) {
        Ok(v1::MovesSetting::Unspecified | v1::MovesSetting::Off) => Ok(MovesSetting::Off),
        Ok(v1::MovesSetting::Recorded) => Ok(MovesSetting::Recorded),
        Err(_) => Err(Error::Invalid(format!(
            "moves: {wire} is not a moves setting (1 off, 2 recorded)"
        ))
        .into()),
    }
}
