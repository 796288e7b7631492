//! A tournament's day (`baffle.v1.Draws`): `player …`, `draw …`, `round start`,
//! `pairing` and `standings`. Every change is the director's and needs his token; every
//! read takes `--json`. What the server refuses is shown in its own (the core's) words,
//! with a hint that sends the director to `draw show`.
//!
//! Under it: `parse` (what is typed, and the players' CSV), `show` (the draw in words and
//! tables, and the federation's CSV), `verify` (an exported log checked offline).

mod parse;
mod show;
pub(super) mod verify;

use baffle_proto::v1;
use baffle_proto::v1::draws_client::DrawsClient;
use tonic::transport::Channel;

use super::connection::{authed, channel};
use super::outcome::{Outcome, refused, refused_draw, usage};
use crate::cli::{
    Cli, DetailsArgs, DrawCommand, FlightArg, FlightsArg, FormatArg, Numbers, PairingArgs,
    PairingRuling, PlayerCommand, RoundCommand, StandingsArgs,
};
use crate::views::draw::{
    DrawJson, EntrantView, ListedPlayerView, PairingView, RuledJson, placing, standing,
};
use crate::views::to_json;
use crate::words::{say, say_with, time_of_day};

type Client = DrawsClient<Channel>;

async fn client(cli: &Cli) -> Result<Client, Outcome> {
    Ok(DrawsClient::new(channel(cli).await?))
}

async fn get(client: &mut Client, id: &str) -> Result<v1::DrawView, Outcome> {
    client
        .get_draw(v1::GetDrawRequest {
            tournament_id: id.to_string(),
        })
        .await
        .map(tonic::Response::into_inner)
        .map_err(|s| refused_draw(s, id))
}

/// What a change prints: the draw as JSON with `--json`, else `words`.
fn changed(cli: &Cli, d: &v1::DrawView, words: String) -> Outcome {
    Outcome::ok(if cli.json {
        to_json(&DrawJson::of(d))
    } else {
        words
    })
}

fn flight(f: FlightArg) -> i32 {
    match f {
        FlightArg::Main => v1::Flight::Main,
        FlightArg::Consolation => v1::Flight::Consolation,
        FlightArg::LastChance => v1::Flight::LastChance,
    }
    .into()
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A time typed on the command line (`14:30` today, UTC, or RFC 3339) as ms since the
/// epoch, or the usage error that says how to write one.
pub(super) fn time_arg(text: &str) -> Result<i64, Outcome> {
    parse::time(text, now_ms()).map_err(usage)
}

/// `baffle draw …`.
pub(super) async fn run_draw(
    cli: &Cli,
    token: &Option<String>,
    command: &DrawCommand,
) -> Result<Outcome, Outcome> {
    if let DrawCommand::Verify { file, head } = command {
        return Ok(Outcome::report(
            verify::verify(file, head.as_deref()).map_err(usage)?,
        ));
    }
    let mut client = client(cli).await?;
    match command {
        DrawCommand::Open {
            tournament,
            format,
            flights,
            cycles,
            rounds,
            length,
            tables,
            chess,
        } => {
            let request = v1::OpenDrawRequest {
                tournament_id: tournament.clone(),
                plan: Some(v1::DrawPlan {
                    format: format_arg(*format),
                    flights: flights_arg(*flights),
                    cycles: *cycles,
                    rounds: *rounds,
                    length: length.unwrap_or(1),
                    chess: crate::chess::settings(chess).map_err(usage)?,
                }),
                tables: parse::tables(tables).map_err(usage)?,
            };
            let d = client
                .open_draw(authed(request, token)?)
                .await
                .map_err(|s| refused_draw(s, tournament))?
                .into_inner();
            let args = [
                ("id", d.tournament_id.clone().into()),
                (
                    "plan",
                    d.plan.as_ref().map(show::plan).unwrap_or_default().into(),
                ),
                ("commitment", d.commitment.clone().into()),
            ];
            Ok(changed(cli, &d, say_with("cli-draw-opened", &args) + "\n"))
        }
        DrawCommand::Make {
            tournament,
            seeds,
            seed_top,
        } => make_draw(cli, token, &mut client, tournament, seeds, *seed_top).await,
        DrawCommand::Show { tournament } => {
            let d = get(&mut client, tournament).await?;
            Ok(changed(cli, &d, show::draw_text(&d)))
        }
        DrawCommand::Tables { tournament, tables } => {
            let request = v1::SetTablesRequest {
                tournament_id: tournament.clone(),
                tables: parse::tables(tables).map_err(usage)?,
            };
            let d = client
                .set_tables(authed(request, token)?)
                .await
                .map_err(|s| refused_draw(s, tournament))?
                .into_inner();
            let args = [("tables", d.tables.join(" ").into())];
            Ok(changed(
                cli,
                &d,
                say_with("cli-draw-tables-set", &args) + "\n",
            ))
        }
        DrawCommand::Export { tournament, output } => {
            export_draw(&mut client, tournament, output.as_deref()).await
        }
        DrawCommand::Verify { .. } => unreachable!("verified above"),
    }
}

fn format_arg(format: FormatArg) -> i32 {
    match format {
        FormatArg::Knockout => v1::DrawFormat::Knockout,
        FormatArg::RoundRobin => v1::DrawFormat::RoundRobin,
        FormatArg::Swiss => v1::DrawFormat::Swiss,
    }
    .into()
}

fn flights_arg(flights: FlightsArg) -> i32 {
    match flights {
        FlightsArg::Main => v1::Flights::Main,
        FlightsArg::Consolation => v1::Flights::Consolation,
        FlightsArg::LastChance => v1::Flights::LastChance,
    }
    .into()
}

/// `draw make`: the seeds typed (`1,4,7`) or none, and the draw shown as made.
async fn make_draw(
    cli: &Cli,
    token: &Option<String>,
    client: &mut Client,
    tournament: &str,
    seeds: &Option<String>,
    seed_top: Option<u32>,
) -> Result<Outcome, Outcome> {
    let seeds = match seeds {
        Some(s) => parse::numbers(s).map_err(usage)?,
        None => Vec::new(),
    };
    let request = v1::MakeDrawRequest {
        tournament_id: tournament.to_string(),
        seeds,
        seed_top_rated: seed_top.unwrap_or(0),
    };
    let d = client
        .make_draw(authed(request, token)?)
        .await
        .map_err(|s| refused_draw(s, tournament))?
        .into_inner();
    let args = [
        ("seed", d.seed.clone().into()),
        ("count", d.order.len().to_string().into()),
    ];
    let text = say_with("cli-draw-made", &args) + "\n\n" + &show::draw_text(&d);
    Ok(changed(cli, &d, text))
}

/// `draw export`: the draw's log, line by line as the server streams it, to standard
/// output or (`--output FILE`) to a file, with a count of records on standard error.
async fn export_draw(
    client: &mut Client,
    tournament: &str,
    output: Option<&std::path::Path>,
) -> Result<Outcome, Outcome> {
    let mut stream = client
        .export_draw_log(v1::GetDrawRequest {
            tournament_id: tournament.to_string(),
        })
        .await
        .map_err(|s| refused_draw(s, tournament))?
        .into_inner();
    let mut text = String::new();
    let mut count = 0u64;
    while let Some(line) = stream
        .message()
        .await
        .map_err(|s| refused_draw(s, tournament))?
    {
        text.push_str(&line.line);
        text.push('\n');
        count += 1;
    }
    let Some(path) = output.filter(|p| p.as_os_str() != "-") else {
        return Ok(Outcome::ok(text));
    };
    std::fs::write(path, &text).map_err(|e| {
        Outcome::failed(
            crate::exit::INVALID,
            format!(
                "baffle: {}\n",
                say_with(
                    "cli-file-unwritable",
                    &[
                        ("file", path.display().to_string().into()),
                        ("why", e.to_string().into()),
                    ],
                )
            ),
        )
    })?;
    let args = [
        ("count", count.saturating_sub(1).into()),
        ("file", path.display().to_string().into()),
    ];
    Ok(Outcome {
        code: crate::exit::OK,
        out: String::new(),
        err: say_with("cli-draw-exported", &args) + "\n",
    })
}

/// `baffle player …`.
pub(super) async fn run_player(
    cli: &Cli,
    token: &Option<String>,
    command: &PlayerCommand,
) -> Result<Outcome, Outcome> {
    let mut client = client(cli).await?;
    match command {
        PlayerCommand::Add {
            tournament,
            name,
            listed,
            details,
            approve,
        } => {
            let details = v1::EntrantDetails {
                player_id: listed.clone().unwrap_or_default(),
                ..entrant_details(name.clone().unwrap_or_default(), details)?
            };
            register(cli, token, &mut client, tournament, vec![details], *approve).await
        }
        PlayerCommand::Import {
            tournament,
            file,
            approve,
        } => {
            let players = import_players(&mut client, tournament, file).await?;
            register(cli, token, &mut client, tournament, players, *approve).await
        }
        PlayerCommand::Approve(n) => each(cli, token, &mut client, n, Each::Approve).await,
        PlayerCommand::CheckIn(n) => each(cli, token, &mut client, n, Each::CheckIn).await,
        PlayerCommand::Out {
            tournament,
            number,
            reason,
        } => {
            use v1::update_entrant_request::Action;
            let d = update(
                &mut client,
                token,
                tournament,
                *number,
                Action::OutReason(reason.clone()),
            )
            .await?;
            let args = [
                ("name", show::name_of(&d, *number).into()),
                ("number", (*number).into()),
                ("reason", reason.clone().into()),
            ];
            let mut words = say_with("cli-player-out", &args) + "\n";
            // A match he is playing is settled at its table: say which, and how.
            for p in d.pairings.iter().filter(|p| {
                p.state == v1::PairingState::Playing as i32
                    && (p.player_a == *number || p.player_b == *number)
            }) {
                let args = [
                    ("key", p.key.clone().into()),
                    ("match", p.match_id.clone().into()),
                    ("table", p.table.clone().into()),
                ];
                words += &say_with("cli-player-out-playing", &args);
                words.push('\n');
            }
            Ok(changed(cli, &d, words))
        }
        PlayerCommand::Rename {
            tournament,
            number,
            name,
        } => {
            use v1::update_entrant_request::Action;
            let d = update(
                &mut client,
                token,
                tournament,
                *number,
                Action::Rename(name.clone()),
            )
            .await?;
            let args = [("number", (*number).into()), ("name", name.clone().into())];
            Ok(changed(
                cli,
                &d,
                say_with("cli-player-renamed", &args) + "\n",
            ))
        }
        PlayerCommand::List { tournament: None } => list_players(cli, &mut client).await,
        PlayerCommand::New { id, name, details } => {
            list_new_player(token, &mut client, id, name, details).await
        }
        PlayerCommand::List {
            tournament: Some(tournament),
        } => {
            let d = get(&mut client, tournament).await?;
            Ok(Outcome::ok(if cli.json {
                let players: Vec<_> = d.entrants.iter().map(EntrantView::of).collect();
                to_json(&players)
            } else {
                show::players_table(&d)
            }))
        }
    }
}

/// `player import FILE`: the players' CSV (`-`: standard input), checked against the
/// players already entered before anything is sent.
async fn import_players(
    client: &mut Client,
    tournament: &str,
    file: &std::path::Path,
) -> Result<Vec<v1::EntrantDetails>, Outcome> {
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(file)
    }
    .map_err(|e| {
        usage(say_with(
            "cli-file-unreadable",
            &[
                ("file", file.display().to_string().into()),
                ("why", e.to_string().into()),
            ],
        ))
    })?;
    let known: Vec<String> = get(client, tournament)
        .await?
        .entrants
        .into_iter()
        .filter_map(|e| e.details.map(|d| d.name))
        .collect();
    parse::players_csv(&text, &known).map_err(|why| usage(format!("{}: {why}", file.display())))
}

/// `player new`: a player added to the players' list the server keeps.
async fn list_new_player(
    token: &Option<String>,
    client: &mut Client,
    id: &str,
    name: &str,
    details: &DetailsArgs,
) -> Result<Outcome, Outcome> {
    let player = v1::ListedPlayer {
        id: id.to_string(),
        details: Some(entrant_details(name.to_string(), details)?),
        history: Vec::new(),
    };
    let request = v1::AddPlayersRequest {
        players: vec![player],
    };
    client
        .add_players(authed(request, token)?)
        .await
        .map_err(refused)?;
    Ok(Outcome::ok(
        say_with("cli-player-listed", &[("id", id.to_string().into())]) + "\n",
    ))
}

/// `player list` with no tournament: the players' list the server keeps.
async fn list_players(cli: &Cli, client: &mut Client) -> Result<Outcome, Outcome> {
    let list = client
        .list_players(v1::ListPlayersRequest {})
        .await
        .map_err(refused)?
        .into_inner();
    Ok(Outcome::ok(if cli.json {
        let players: Vec<_> = list.players.iter().map(ListedPlayerView::of).collect();
        to_json(&players)
    } else {
        show::listed_players_table(&list)
    }))
}

/// A registration from the command line's name and details.
fn entrant_details(name: String, d: &DetailsArgs) -> Result<v1::EntrantDetails, Outcome> {
    let rating = d
        .rating
        .as_deref()
        .map(parse::rating)
        .transpose()
        .map_err(usage)?;
    Ok(v1::EntrantDetails {
        name,
        federation_id: d.federation_id.clone(),
        club: d.club.clone(),
        rating_hundredths: rating,
        experience: d.experience,
        player_id: String::new(),
    })
}

/// Registers `players` with one request: all or none.
async fn register(
    cli: &Cli,
    token: &Option<String>,
    client: &mut Client,
    tournament: &str,
    players: Vec<v1::EntrantDetails>,
    approve: bool,
) -> Result<Outcome, Outcome> {
    let before = get(client, tournament).await?.entrants.len();
    let request = v1::RegisterEntrantsRequest {
        tournament_id: tournament.to_string(),
        entrants: players,
        approve,
    };
    let d = client
        .register_entrants(authed(request, token)?)
        .await
        .map_err(|s| refused_draw(s, tournament))?
        .into_inner();
    let added: Vec<u32> = d.entrants.iter().skip(before).map(|e| e.number).collect();
    let id = if approve {
        "cli-players-registered-approved"
    } else {
        "cli-players-registered"
    };
    let args = [
        (
            "count",
            u32::try_from(added.len()).unwrap_or(u32::MAX).into(),
        ),
        ("list", show::named(&d, &added).into()),
    ];
    Ok(changed(cli, &d, say_with(id, &args) + "\n"))
}

async fn update(
    client: &mut Client,
    token: &Option<String>,
    tournament: &str,
    number: u32,
    action: v1::update_entrant_request::Action,
) -> Result<v1::DrawView, Outcome> {
    let request = v1::UpdateEntrantRequest {
        tournament_id: tournament.to_string(),
        entrant: number,
        action: Some(action),
    };
    client
        .update_entrant(authed(request, token)?)
        .await
        .map(tonic::Response::into_inner)
        .map_err(|s| refused_draw(s, tournament))
}

#[derive(Clone, Copy)]
enum Each {
    Approve,
    CheckIn,
}

/// Approves or checks in several players, one request each, in the order given; a
/// refusal stops there, saying who was done before it.
async fn each(
    cli: &Cli,
    token: &Option<String>,
    client: &mut Client,
    n: &Numbers,
    what: Each,
) -> Result<Outcome, Outcome> {
    use v1::update_entrant_request::Action;
    let mut d = get(client, &n.tournament).await?;
    let numbers: Vec<u32> = if n.all {
        let from = match what {
            Each::Approve => v1::EntrantStatus::Registered,
            Each::CheckIn => v1::EntrantStatus::Approved,
        } as i32;
        d.entrants
            .iter()
            .filter(|e| e.status == from)
            .map(|e| e.number)
            .collect()
    } else {
        n.numbers.clone()
    };
    let (done_id, none_id) = match what {
        Each::Approve => ("cli-players-approved", "cli-players-none-to-approve"),
        Each::CheckIn => ("cli-players-checked-in", "cli-players-none-to-check-in"),
    };
    if numbers.is_empty() {
        return Ok(changed(cli, &d, say(none_id) + "\n"));
    }
    let mut done = Vec::new();
    for number in numbers {
        let action = match what {
            Each::Approve => Action::Approve(true),
            Each::CheckIn => Action::CheckIn(true),
        };
        match update(client, token, &n.tournament, number, action).await {
            Ok(next) => {
                d = next;
                done.push(number);
            }
            Err(mut refusal) => {
                if !done.is_empty() {
                    let args = [("list", show::named(&d, &done).into())];
                    refusal.out = say_with(done_id, &args) + "\n";
                }
                return Err(refusal);
            }
        }
    }
    let args = [("list", show::named(&d, &done).into())];
    Ok(changed(cli, &d, say_with(done_id, &args) + "\n"))
}

/// `baffle round start …`.
pub(super) async fn run_round(
    cli: &Cli,
    token: &Option<String>,
    command: &RoundCommand,
) -> Result<Outcome, Outcome> {
    let RoundCommand::Start {
        tournament,
        round,
        flight: f,
        at,
    } = command;
    let start_ms = match at {
        Some(at) => time_arg(at)?,
        None => 0,
    };
    let request = v1::StartRoundRequest {
        tournament_id: tournament.clone(),
        flight: flight(*f),
        round: *round,
        start_ms,
    };
    let d = client(cli)
        .await?
        .start_round(authed(request, token)?)
        .await
        .map_err(|s| refused_draw(s, tournament))?
        .into_inner();
    let wanted = flight(*f);
    let started = d
        .rounds
        .iter()
        .find(|r| r.round == *round && r.flight.max(1) == wanted)
        .map_or(0, |r| r.start_ms);
    let created = d
        .pairings
        .iter()
        .filter(|p| p.round == *round && p.flight.max(1) == wanted && !p.match_id.is_empty())
        .count();
    let args = [
        ("flight", show::flight(wanted).into()),
        ("round", (*round).into()),
        ("at", time_of_day(started).into()),
        ("count", u32::try_from(created).unwrap_or(u32::MAX).into()),
    ];
    let text = say_with("cli-round-started", &args) + "\n\n" + &show::draw_text(&d);
    Ok(changed(cli, &d, text))
}

/// `baffle pairing TOURNAMENT KEY --reason … RULING`.
pub(super) async fn run_pairing(
    cli: &Cli,
    token: &Option<String>,
    args: &PairingArgs,
) -> Result<Outcome, Outcome> {
    use v1::rule_on_pairing_request::Ruling;
    let ruling = match &args.ruling {
        PairingRuling::Forfeit { number } => Ruling::ForfeitTo(*number),
        PairingRuling::Correct { number, score } => {
            let (a, b) = parse::score(score).map_err(usage)?;
            Ruling::Correct(v1::CorrectedResult {
                winner: *number,
                score_a: a,
                score_b: b,
            })
        }
        PairingRuling::Postpone => Ruling::Postpone(true),
        PairingRuling::Reschedule { time } => Ruling::RescheduleMs(time_arg(time)?),
        PairingRuling::Replace => Ruling::Replace(true),
    };
    let request = v1::RuleOnPairingRequest {
        tournament_id: args.tournament.clone(),
        key: args.key.clone(),
        words: args.reason.clone(),
        ruling: Some(ruling),
    };
    let d = client(cli)
        .await?
        .rule_on_pairing(authed(request, token)?)
        .await
        .map_err(|s| refused_draw(s, &args.tournament))?
        .into_inner();
    let key = args.key.to_uppercase();
    // The pairing as the ruling left it: after a replacement, the director's next
    // command goes to its new match, so its id is said (and in the JSON, `ruled`).
    let ruled = d.pairings.iter().find(|p| p.key.eq_ignore_ascii_case(&key));
    if cli.json {
        let json = RuledJson {
            draw: DrawJson::of(&d),
            ruled: ruled.map(PairingView::of),
        };
        return Ok(Outcome::ok(to_json(&json)));
    }
    let mut text = say_with("cli-pairing-ruled", &[("key", key.clone().into())]) + "\n";
    if let (PairingRuling::Replace, Some(p)) = (&args.ruling, ruled)
        && let Some(old) = p.replaced.last()
        && !p.match_id.is_empty()
    {
        let args = [
            ("key", key.into()),
            ("new", p.match_id.clone().into()),
            ("old", old.clone().into()),
        ];
        text += &(say_with("cli-pairing-replaced", &args) + "\n");
    }
    Ok(Outcome::ok(text))
}

/// `baffle standings …`.
pub(super) async fn run_standings(cli: &Cli, args: &StandingsArgs) -> Result<Outcome, Outcome> {
    let d = get(&mut client(cli).await?, &args.tournament).await?;
    Ok(Outcome::ok(if args.csv {
        show::results_csv(&d)
    } else if args.csv_table {
        show::standings_csv(&d)
    } else if cli.json {
        let standings: Vec<_> = d.standings.iter().map(standing).collect();
        let placings: Vec<_> = d.placings.iter().map(placing).collect();
        to_json(&serde_json::json!({
            "tournament": d.tournament_id,
            "standings": standings,
            "placings": placings,
        }))
    } else {
        show::standings_text(&d)
    }))
}
