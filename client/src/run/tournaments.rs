//! `baffle tournament …`: create, list, show, archive and bring back tournaments.
//!
//! A tournament's defaults (clock, timeout policy, dice, player seeds) are built here from
//! the command line; archiving says whether it changed anything.

use baffle_proto::v1;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use tonic::transport::Channel;

use super::connection::{authed, channel};
use super::outcome::{Outcome, refused, usage};
use super::wire::ms;
use crate::cli::{Cli, ClocksArg, DiceArg, TournamentCommand};
use crate::render;
use crate::views::{TournamentView, to_json};
use crate::words;

/// `baffle tournament …`.
pub(super) async fn run_tournament(
    cli: &Cli,
    token: &Option<String>,
    t: &TournamentCommand,
) -> Result<Outcome, Outcome> {
    let mut client = TournamentsClient::new(channel(cli).await?);
    match t {
        TournamentCommand::Create {
            id,
            name,
            venue,
            first_day,
            last_day,
            per_point,
            delay,
            timeout,
            clocks,
            dice,
            breaks_in_match_time,
            require_player_seeds,
            live_dice,
            reveal_window,
        } => {
            let mut defaults = tournament_defaults(
                per_point,
                delay,
                timeout,
                *clocks,
                *dice,
                *breaks_in_match_time,
                seed_policy(*require_player_seeds, *live_dice),
            )?;
            defaults.reveal_window_seconds = reveal_window
                .as_deref()
                .map(|w| ms(w).map(|m| u32::try_from(m / 1000).unwrap_or(u32::MAX)))
                .transpose()?;
            let tournament = v1::Tournament {
                id: id.clone(),
                name: name.clone(),
                venue: venue.clone(),
                first_day: first_day.clone(),
                last_day: last_day.clone(),
                defaults: Some(defaults),
                ..Default::default()
            };
            let request = authed(
                v1::CreateTournamentRequest {
                    tournament: Some(tournament),
                },
                token,
            )?;
            let t = client
                .create_tournament(request)
                .await
                .map_err(refused)?
                .into_inner();
            Ok(said(cli, &t, "cli-tournament-created"))
        }
        TournamentCommand::List { all } => {
            let list = client
                .list_tournaments(v1::ListTournamentsRequest {
                    include_archived: *all,
                })
                .await
                .map_err(refused)?
                .into_inner();
            if cli.json {
                let views: Vec<_> = list.tournaments.iter().map(TournamentView::of).collect();
                return Ok(Outcome::ok(to_json(&views)));
            }
            Ok(Outcome::ok(render::tournament_table(&list.tournaments)))
        }
        TournamentCommand::Archive { id, force } => {
            archive(cli, token, &mut client, id, true, *force).await
        }
        TournamentCommand::Unarchive { id } => {
            archive(cli, token, &mut client, id, false, false).await
        }
        TournamentCommand::Show { id } => {
            let t = client
                .get_tournament(v1::GetTournamentRequest { id: id.clone() })
                .await
                .map_err(refused)?
                .into_inner();
            Ok(Outcome::ok(if cli.json {
                to_json(&TournamentView::of(&t))
            } else {
                render::tournament_text(&t)
            }))
        }
    }
}

/// Archives tournament `id` (or brings it back) and says so.
async fn archive(
    cli: &Cli,
    token: &Option<String>,
    client: &mut TournamentsClient<Channel>,
    id: &str,
    archived: bool,
    force: bool,
) -> Result<Outcome, Outcome> {
    // Archiving an archived tournament (or bringing back a listed one) changes nothing
    // on the server; the director is told so rather than told it was done.
    let already = client
        .get_tournament(v1::GetTournamentRequest { id: id.to_string() })
        .await
        .is_ok_and(|t| t.into_inner().archived == archived);
    let request = v1::ArchiveTournamentRequest {
        id: id.to_string(),
        archived,
        force,
    };
    let t = client
        .archive_tournament(authed(request, token)?)
        .await
        .map_err(refused)?
        .into_inner();
    let id = match (t.archived, already) {
        (true, false) => "cli-tournament-archived",
        (true, true) => "cli-tournament-already-archived",
        (false, false) => "cli-tournament-unarchived",
        (false, true) => "cli-tournament-already-listed",
    };
    Ok(said(cli, &t, id))
}

/// What a change to a tournament prints: the tournament as JSON with `--json`, else the
/// message `id` naming it.
fn said(cli: &Cli, t: &v1::Tournament, id: &str) -> Outcome {
    Outcome::ok(if cli.json {
        to_json(&TournamentView::of(t))
    } else {
        words::say_with(id, &[("id", t.id.clone().into())]) + "\n"
    })
}

fn tournament_defaults(
    per_point: &str,
    delay: &str,
    timeout: &str,
    clocks: ClocksArg,
    dice: DiceArg,
    breaks: bool,
    player_seeds: v1::PlayerSeedPolicy,
) -> Result<v1::TournamentDefaults, Outcome> {
    use v1::timeout_policy::Policy;
    let policy = match timeout {
        "lose" => Policy::LoseMatch(v1::LoseMatch {}),
        "overtime-1m" => Policy::UsbgfOvertimeMs(60_000),
        "overtime-2m" => Policy::UsbgfOvertimeMs(120_000),
        other => match other.strip_prefix("points:").and_then(|k| k.parse().ok()) {
            Some(k) => Policy::PenaltyPoints(k),
            None => {
                return Err(usage(format!(
                    "--timeout: lose, overtime-1m, overtime-2m or points:K, not {other:?}"
                )));
            }
        },
    };
    let clocks = match clocks {
        ClocksArg::Required => v1::ClockPolicy::Required,
        ClocksArg::Allowed => v1::ClockPolicy::Allowed,
        ClocksArg::Off => v1::ClockPolicy::Off,
    };
    let dice = dice_source(dice);
    Ok(v1::TournamentDefaults {
        per_point_ms: ms(per_point)?,
        delay_ms: Some(ms(delay)?),
        timeout: Some(v1::TimeoutPolicy {
            policy: Some(policy),
        }),
        clocks: clocks as i32,
        dice: dice as i32,
        breaks_in_match_time: breaks,
        player_seeds: player_seeds as i32,
        reveal_window_seconds: None,
    })
}

/// `--require-player-seeds` and `--live-dice` (exclusive) as the wire's policy.
fn seed_policy(require_player_seeds: bool, live_dice: bool) -> v1::PlayerSeedPolicy {
    match (live_dice, require_player_seeds) {
        (true, _) => v1::PlayerSeedPolicy::Live,
        (false, true) => v1::PlayerSeedPolicy::Required,
        (false, false) => v1::PlayerSeedPolicy::Optional,
    }
}

/// A `--dice` argument on the wire.
pub(super) fn dice_source(dice: DiceArg) -> v1::DiceSource {
    match dice {
        DiceArg::Server => v1::DiceSource::Server,
        DiceArg::Physical => v1::DiceSource::Physical,
    }
}
