//! `baffle match …`: create, list, show, rename, export; and how a match is printed.
//!
//! Match ids are global across tournaments, so a taken id is explained with an example of
//! one that is free. `reply_outcome` prints what any command on a match wrote.

use baffle_proto::v1;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use tonic::Code;
use tonic::transport::Channel;

use super::connection::{authed, channel, to_owner};
use super::outcome::{Outcome, refused, usage};
use super::record;
use super::wire::{ms, side};
use crate::cli::{Cli, MatchCommand, PhaseArg, SideArg};
use crate::views::{EventView, MatchView, to_json};
use crate::{exit, render, reveal, words};

/// `baffle match …`.
pub(super) async fn run_match(
    cli: &Cli,
    token: &Option<String>,
    m: &MatchCommand,
) -> Result<Outcome, Outcome> {
    let mut client = TournamentsClient::new(channel(cli).await?);
    match m {
        MatchCommand::Create {
            tournament,
            id,
            round,
            table,
            length,
            players,
            start_in,
            unclocked,
            series_match,
            record_moves,
            dice,
            replaces,
            ruling,
            chess,
        } => {
            let Some((a, b)) = players.split_once(',') else {
                return Err(usage(format!("--players takes \"A,B\", not {players:?}")));
            };
            let scheduled_start_ms = scheduled_start(start_in)?;
            let request = v1::CreateMatchRequest {
                tournament_id: tournament.clone(),
                match_id: id.clone().unwrap_or_else(|| format!("r{round}-t{table}")),
                round: *round,
                table: table.clone(),
                player_a: a.trim().into(),
                player_b: b.trim().into(),
                length: length.unwrap_or(0),
                scheduled_start_ms,
                unclocked: *unclocked,
                chess: crate::chess::settings(chess).map_err(usage)?,
                series_match: series_match.unwrap_or(0),
                moves: if *record_moves {
                    v1::MovesSetting::Recorded
                } else {
                    v1::MovesSetting::Unspecified
                } as i32,
                dice: dice.map_or(v1::DiceSource::Unspecified, super::tournaments::dice_source)
                    as i32,
                replaces: replaces.clone().unwrap_or_default(),
                ruling: ruling.clone().unwrap_or_default(),
            };
            create_match(cli, token, &mut client, request, id.is_none()).await
        }
        MatchCommand::List {
            tournament,
            round,
            table,
            phase,
            all,
        } => {
            let request = v1::ListMatchesRequest {
                tournament_id: tournament.clone().unwrap_or_default(),
                round: round.unwrap_or(0),
                table: table.clone().unwrap_or_default(),
                phase: phase_filter(*phase),
                include_archived: *all,
            };
            list_matches(cli, &mut client, request).await
        }
        MatchCommand::Show { match_id } => show_match(cli, token, &mut client, match_id).await,
        MatchCommand::Rename {
            match_id,
            side: who,
            name,
        } => rename_player(cli, token, match_id, *who, name).await,
        MatchCommand::Export { match_id, format } => export(cli, match_id, format).await,
    }
}

/// `match list`: the matches, and (in words) the players' reveals they wait for.
async fn list_matches(
    cli: &Cli,
    client: &mut TournamentsClient<Channel>,
    request: v1::ListMatchesRequest,
) -> Result<Outcome, Outcome> {
    let list = client
        .list_matches(request)
        .await
        .map_err(refused)?
        .into_inner();
    let reveals = if cli.json {
        String::new()
    } else {
        pending_reveals(client, &list.matches).await?
    };
    let mut outcome = list_outcome(cli, list);
    outcome.out.push_str(&reveals);
    Ok(outcome)
}

/// `match show`: the match's state, its games from its log (backgammon), its dice
/// checked once revealed, and what the board proves for the director.
async fn show_match(
    cli: &Cli,
    token: &Option<String>,
    client: &mut TournamentsClient<Channel>,
    match_id: &str,
) -> Result<Outcome, Outcome> {
    let s = client
        .get_match(v1::GetMatchRequest {
            match_id: match_id.to_string(),
        })
        .await
        .map_err(refused)?
        .into_inner();
    let help = adjudication(cli, token, &s).await;
    // A backgammon match's games are in its log, not its state.
    let games = if s.chess.is_none() && s.seq > 0 {
        let events = crate::tui::app::records(&cli.server, match_id, 0, s.seq).await;
        Some(record::games(&events))
    } else {
        None
    };
    if cli.json {
        let mut view = serde_json::to_value(MatchView::of(&s)).unwrap_or_default();
        if let Some(help) = &help {
            view["adjudication"] = render::adjudication_json(help);
        }
        if let Some(games) = &games {
            let more = record::json(&s, games);
            view["warnings"] = more["warnings"].clone();
            view["games"] = more["games"].clone();
        }
        return Ok(Outcome::ok(to_json(&view)));
    }
    let mut text = if s.dice_revealed {
        // A revealed match's dice are recomputed here before they are called verified.
        let check = reveal::check(channel(cli).await?, match_id, &s.head_hash).await;
        render::match_text_checked(&s, Some(&check))
    } else {
        render::match_text(&s)
    };
    if let Some(games) = &games {
        text.push_str(&record::lines(&s, games));
    }
    if let Some(help) = &help {
        text.push_str(&render::adjudication_lines(help));
    }
    Ok(Outcome::ok(text))
}

/// What the board of `s` proves for the director (4.3 (iv), 4.5), asked with his token:
/// `None` without a board or a token, or if the server will not say.
async fn adjudication(
    cli: &Cli,
    token: &Option<String>,
    s: &v1::MatchState,
) -> Option<v1::Adjudication> {
    s.board.as_ref()?;
    crate::tui::app::adjudication(&cli.server, token, &s.match_id).await
}

/// `baffle match rename`: a player's name corrected, sent to the node that writes the match.
async fn rename_player(
    cli: &Cli,
    token: &Option<String>,
    match_id: &str,
    who: SideArg,
    name: &str,
) -> Result<Outcome, Outcome> {
    let request = v1::RenamePlayerRequest {
        match_id: match_id.to_string(),
        side: side(who),
        name: name.to_string(),
    };
    let reply = to_owner(
        channel(cli).await?,
        authed(request, token)?,
        |c, r| async move { MatchesClient::new(c).rename_player(r).await },
    )
    .await?;
    Ok(reply_outcome(cli, reply))
}

/// `baffle match export`: the match as a file GNU Backgammon reads, `.mat` or `.sgf`.
async fn export(cli: &Cli, match_id: &str, format: &str) -> Result<Outcome, Outcome> {
    let format = match format {
        "sgf" => v1::ExportFormat::Sgf,
        _ => v1::ExportFormat::Mat,
    };
    let reply = MatchesClient::new(channel(cli).await?)
        .export_match(v1::ExportMatchRequest {
            match_id: match_id.to_string(),
            format: format as i32,
        })
        .await
        .map_err(refused)?
        .into_inner();
    Ok(Outcome::ok(reply.text))
}

fn phase_filter(phase: Option<PhaseArg>) -> i32 {
    (match phase {
        None => v1::MatchPhase::Unspecified,
        Some(PhaseArg::Waiting) => v1::MatchPhase::Waiting,
        Some(PhaseArg::Playing) => v1::MatchPhase::Playing,
        Some(PhaseArg::BetweenGames) => v1::MatchPhase::BetweenGames,
        Some(PhaseArg::Over) => v1::MatchPhase::Over,
    }) as i32
}

/// When a match created with `--start-in D` is to start: D from now, in ms since the
/// epoch; 0 when no start is given.
fn scheduled_start(start_in: &Option<String>) -> Result<i64, Outcome> {
    Ok(match start_in {
        None => 0,
        Some(d) => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            now + ms(d)?
        }
    })
}

/// `baffle match create`, once its request is built: creates the match and prints it. A
/// taken id is explained with one that would be free (`defaulted`: the id was not given).
async fn create_match(
    cli: &Cli,
    token: &Option<String>,
    client: &mut TournamentsClient<Channel>,
    request: v1::CreateMatchRequest,
    defaulted: bool,
) -> Result<Outcome, Outcome> {
    let (tournament, round, table) = (
        request.tournament_id.clone(),
        request.round,
        request.table.clone(),
    );
    let s = client
        .create_match(authed(request, token)?)
        .await
        .map_err(|status| match status.code() {
            // Match ids are global: the default r<round>-t<table> of a second
            // section is taken by the first.
            Code::AlreadyExists => {
                let refusal = [
                    ("code", "AlreadyExists".into()),
                    ("message", status.message().into()),
                ];
                let example = format!("{tournament}-r{round}-t{table}");
                let id = if defaulted {
                    "cli-hint-match-id-default-taken"
                } else {
                    "cli-hint-match-id-taken"
                };
                Outcome::failed(
                    exit::REFUSED,
                    format!(
                        "baffle: {}\n        {}\n",
                        words::say_with("cli-refused", &refusal),
                        words::say_with(id, &[("example", example.into())])
                    ),
                )
            }
            _ => refused(status),
        })?
        .into_inner();
    let mut outcome = match_outcome(cli, &s);
    // Lateness counts from the scheduled start (2.2): a round created ahead of its time
    // with the default start collected penalty points five minutes later, silently (a
    // second new director). Say when the first one falls.
    if !cli.json && s.next_due_kind == v1::DueKind::LatenessPoint as i32 {
        let args = [(
            "time",
            words::time_of_day(s.next_due_ms.unwrap_or_default()).into(),
        )];
        outcome
            .err
            .push_str(&words::say_with("cli-lateness-counts", &args));
        outcome.err.push('\n');
    }
    Ok(outcome)
}

/// The reveals the listed matches wait for — and, with live dice, the links a draw waits
/// for — a line each after the table: each such match read again (`GetMatch`) for the
/// server's clock, which judges a deadline passed.
async fn pending_reveals(
    client: &mut TournamentsClient<Channel>,
    matches: &[v1::MatchState],
) -> Result<String, Outcome> {
    let mut text = String::new();
    let waits = |s: &v1::MatchState| {
        !reveal::pending(s).is_empty() || !reveal::live_lines(s, None).is_empty()
    };
    for listed in matches.iter().filter(|s| waits(s)) {
        let s = client
            .get_match(v1::GetMatchRequest {
                match_id: listed.match_id.clone(),
            })
            .await
            .map_err(refused)?
            .into_inner();
        for line in reveal::lines(&s, Some(s.sent_at_ms), None) {
            text.push_str(&format!("{}  {line}\n", s.match_id));
        }
    }
    Ok(text)
}

/// A list of matches as the command's output: JSON with --json, else a table.
fn list_outcome(cli: &Cli, list: v1::ListMatchesResponse) -> Outcome {
    let (list, offline) = (list.matches, list.offline);
    if cli.json {
        let views: Vec<_> = list.iter().map(MatchView::of).collect();
        Outcome::ok(to_json(&views))
    } else {
        // Matches whose log is lost are said after the table, loudly.
        let mut text = render::match_table(&list);
        for m in &offline {
            text.push_str(&words::line_offline(m));
            text.push('\n');
        }
        Outcome::ok(text)
    }
}

/// A match as the command's output: JSON with --json, else the text.
fn match_outcome(cli: &Cli, s: &v1::MatchState) -> Outcome {
    if cli.json {
        Outcome::ok(to_json(&MatchView::of(s)))
    } else {
        Outcome::ok(render::match_text(s))
    }
}

/// What a command wrote and the match after it: in words, or `{"events", "state"}`.
pub(super) fn reply_outcome(cli: &Cli, reply: v1::ExecuteReply) -> Outcome {
    let state = reply.state.unwrap_or_default();
    let names = [state.player_a.as_str(), state.player_b.as_str()];
    if cli.json {
        let events: Vec<_> = reply
            .events
            .iter()
            .map(|e| EventView::of(e, names))
            .collect();
        Outcome::ok(to_json(&serde_json::json!({
            "events": events,
            "state": MatchView::of(&state),
        })))
    } else {
        Outcome::ok(format!(
            "{}{}",
            render::events_text(&reply.events, names),
            render::match_text(&state)
        ))
    }
}
