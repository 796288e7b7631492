//! Runs a parsed `baffle` command and says what to print and which exit status to give.
//! Kept apart from the binary so that tests run the CLI in-process against a real server.

use std::path::Path;

use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::time_controls_client::TimeControlsClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use tonic::transport::Channel;
use tonic::{Code, Request, Status};

use crate::cli::{
    AskArg, AuditCommand, Cli, ClocksArg, Command, DecisionArg, DeviceCommand, DiceArg, KindArg,
    MatchCommand, PhaseArg, PlayAction, RuleAction, SideArg, TournamentCommand,
};
use crate::views::{DeviceView, EventView, MatchView, TournamentView, to_json};
use crate::{audit, connect, dice, duration, exit, presets, render, words};

/// What a command produced.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The exit status.
    pub code: i32,
    /// Standard output.
    pub out: String,
    /// Standard error.
    pub err: String,
}

impl Outcome {
    fn ok(out: String) -> Outcome {
        Outcome {
            code: exit::OK,
            out,
            err: String::new(),
        }
    }

    fn failed(code: i32, err: String) -> Outcome {
        Outcome {
            code,
            out: String::new(),
            err,
        }
    }
}

/// What to do next, for each kind of refusal.
fn hint(status: &Status) -> String {
    words::say(match status.code() {
        Code::Unauthenticated => "cli-hint-unauthenticated",
        Code::PermissionDenied => "cli-hint-permission-denied",
        Code::NotFound if status.message().starts_with("no tournament") => {
            "cli-hint-not-found-tournament"
        }
        Code::NotFound if status.message().starts_with("no device") => "cli-hint-not-found-device",
        Code::NotFound => "cli-hint-not-found",
        Code::Aborted => "cli-hint-aborted",
        Code::FailedPrecondition => "cli-hint-failed-precondition",
        Code::InvalidArgument | Code::OutOfRange => "cli-hint-invalid-argument",
        Code::ResourceExhausted => "cli-hint-resource-exhausted",
        Code::AlreadyExists => "cli-hint-already-exists",
        _ => "cli-hint-other",
    })
}

/// A refusal as an outcome: connection trouble is exit 3, anything the server refused 4.
pub fn refused(status: Status) -> Outcome {
    if status.code() == Code::Unavailable && status.message().contains("transport") {
        return Outcome::failed(
            exit::CONNECTION,
            format!(
                "baffle: {}\n",
                words::say_with("cli-unreachable", &[("why", status.message().into())])
            ),
        );
    }
    let args = [
        ("code", format!("{:?}", status.code()).into()),
        ("message", status.message().into()),
    ];
    Outcome::failed(
        exit::REFUSED,
        format!(
            "baffle: {}\n        {}\n",
            words::say_with("cli-refused", &args),
            hint(&status)
        ),
    )
}

/// The director token: given, or read from the data directory.
pub fn token(cli: &Cli) -> Option<String> {
    cli.token.clone().or_else(|| {
        std::fs::read_to_string(cli.data_dir.join("director.token"))
            .ok()
            .map(|t| t.trim().to_string())
    })
}

fn authed<T>(message: T, token: &Option<String>) -> Result<Request<T>, Outcome> {
    let mut request = Request::new(message);
    if let Some(t) = token {
        let value = format!("Bearer {t}")
            .parse()
            .map_err(|_| Outcome::failed(exit::USAGE, "baffle: the token is not text\n".into()))?;
        request.metadata_mut().insert("authorization", value);
    }
    Ok(request)
}

/// Sends a request aimed at one match over `channel` and, on a cluster, on to the node
/// that writes the match when the first answers UNAVAILABLE with `baffle-owner` (the
/// same request, the same request id: `docs/cluster.md`). A refusal is an outcome.
async fn to_owner<M, R, F, Fut>(
    channel: Channel,
    request: Request<M>,
    call: F,
) -> Result<R, Outcome>
where
    M: Clone,
    F: FnMut(Channel, Request<M>) -> Fut,
    Fut: std::future::Future<Output = Result<tonic::Response<R>, Status>>,
{
    connect::following_owner(channel, request, call)
        .await
        .map(tonic::Response::into_inner)
        .map_err(refused)
}

fn side(s: SideArg) -> i32 {
    match s {
        SideArg::A => v1::Side::A as i32,
        SideArg::B => v1::Side::B as i32,
    }
}

fn kind(k: KindArg) -> i32 {
    match k {
        KindArg::Single => v1::GameKind::Single as i32,
        KindArg::Gammon => v1::GameKind::Gammon as i32,
        KindArg::Backgammon => v1::GameKind::Backgammon as i32,
    }
}

fn pause(name: &str) -> Result<i32, Outcome> {
    // `director_stopped` and `director-stopped` alike: the wire's spelling and the rules'.
    let reason = baffle_core::clock::PauseReason::from_name(&name.replace('_', "-"))
        .ok_or_else(|| usage(format!("{name:?} is not a pause reason")))?;
    Ok(baffle_proto::convert::pause_reason_to_wire(reason) as i32)
}

fn usage(message: impl std::fmt::Display) -> Outcome {
    Outcome::failed(exit::USAGE, format!("baffle: {message}\n"))
}

fn dice_arg(text: &Option<String>) -> Result<Vec<u32>, Outcome> {
    let Some(text) = text else { return Ok(vec![]) };
    text.split(',')
        .map(|d| {
            d.trim()
                .parse::<u32>()
                .map_err(|_| usage(format!("--dice takes two numbers like 3,4, not {text:?}")))
        })
        .collect()
}

fn ms(text: &str) -> Result<i64, Outcome> {
    duration::parse(text).map(|m| m.as_ms()).map_err(usage)
}

fn play_action(action: &PlayAction) -> Result<Action, Outcome> {
    Ok(match action {
        PlayAction::CheckIn { side: s } => Action::CheckIn(side(*s)),
        PlayAction::Start => Action::StartGame(v1::Empty {}),
        PlayAction::Opening { dice } => Action::OpeningRoll(v1::Roll {
            side: 0,
            dice: dice_arg(dice)?,
        }),
        PlayAction::Roll { side: s, dice } => Action::Roll(v1::Roll {
            side: side(*s),
            dice: dice_arg(dice)?,
        }),
        PlayAction::InvalidRoll { side: s } => Action::InvalidRoll(side(*s)),
        PlayAction::Double { side: s } => Action::Double(side(*s)),
        PlayAction::Take { side: s } => Action::Take(side(*s)),
        PlayAction::Pass { side: s } => Action::Pass(side(*s)),
        PlayAction::Press { side: s } => Action::Press(side(*s)),
        PlayAction::Move { side: s, play } => Action::Move(v1::Move {
            side: side(*s),
            play: play.clone(),
        }),
        PlayAction::EndGame { winner, kind: k } => Action::EndGame(v1::GameResult {
            side: side(*winner),
            kind: kind(*k),
        }),
        PlayAction::Concede { side: s, kind: k } => Action::Concede(v1::GameResult {
            side: side(*s),
            kind: kind(*k),
        }),
        PlayAction::Pause { reason } => Action::Pause(pause(reason)?),
        PlayAction::Resume => Action::Resume(v1::Empty {}),
        PlayAction::RestartDelay => Action::RestartDelay(v1::Empty {}),
        PlayAction::DiceEarly { offender } => Action::DicePickedUpEarly(side(*offender)),
        PlayAction::Replay { offender } => Action::ReplayIllegalMove(side(*offender)),
        PlayAction::Break { side: s } => Action::TakeBreak(side(*s)),
        PlayAction::PressBack { side: s } => Action::PressBack(side(*s)),
        PlayAction::Ask { side: s, what } => Action::Request(v1::PlayerRequestCommand {
            side: side(*s),
            what: match what {
                AskArg::Clock => v1::PlayerRequestKind::Clock,
                AskArg::Observer => v1::PlayerRequestKind::Observer,
            } as i32,
        }),
        PlayAction::Appeal {
            side: s,
            ruling,
            grounds,
        } => Action::Appeal(v1::AppealCommand {
            side: side(*s),
            ruling: *ruling,
            grounds: grounds.clone(),
        }),
    })
}

fn rule_action(action: &RuleAction) -> Result<Action, Outcome> {
    Ok(match action {
        RuleAction::Warn { side: s } => Action::Warn(side(*s)),
        RuleAction::Award { side: s, points } => Action::AwardPoints(v1::Points {
            side: side(*s),
            points: *points,
        }),
        RuleAction::Deduct { side: s, points } => Action::DeductPoints(v1::Points {
            side: side(*s),
            points: *points,
        }),
        RuleAction::AdjustTime { side: s, delta } => Action::AdjustTime(v1::TimeChange {
            side: side(*s),
            ms: ms(delta)?,
        }),
        RuleAction::SetTime { side: s, time } => Action::SetTime(v1::TimeChange {
            side: side(*s),
            ms: ms(time)?,
        }),
        RuleAction::ForfeitGame { loser, kind: k } => Action::ForfeitGame(v1::GameResult {
            side: side(*loser),
            kind: kind(*k),
        }),
        RuleAction::ForfeitMatch { loser } => Action::ForfeitMatch(side(*loser)),
        RuleAction::ImposeClock { per_point, delay } => Action::ImposeClock(v1::ImposeClock {
            per_point_ms: ms(per_point)?,
            delay_ms: ms(delay)?,
        }),
        RuleAction::RemoveClock => Action::RemoveClock(v1::Empty {}),
        RuleAction::VoidDouble { reason } => Action::VoidDoubleReason(match reason.as_str() {
            "crawford" => v1::VoidReason::Crawford,
            "dead-cube" | "dead_cube" => v1::VoidReason::DeadCube,
            other => {
                return Err(usage(format!(
                    "void-double takes crawford or dead-cube, not {other:?}"
                )));
            }
        } as i32),
        RuleAction::EndBreak => Action::EndBreak(v1::Empty {}),
        RuleAction::GrantBreak { side: s } => Action::GrantBreak(side(*s)),
        RuleAction::LeftTable { side: s } => Action::LeftTable(side(*s)),
        RuleAction::ChangeDice { source, baffle_box } => Action::ChangeDice(v1::DiceChange {
            source: match source {
                DiceArg::Server => "server",
                DiceArg::Physical => "physical",
            }
            .into(),
            baffle_box: *baffle_box,
        }),
        RuleAction::DecideAppeal {
            appeal,
            decision,
            committee,
            votes_for,
        } => Action::DecideAppeal(v1::AppealDecisionCommand {
            appeal: *appeal,
            decision: match decision {
                DecisionArg::Confirm => v1::AppealDecision::Confirm,
                DecisionArg::Overturn => v1::AppealDecision::Overturn,
                DecisionArg::Replace => v1::AppealDecision::Replace,
            } as i32,
            committee: *committee,
            votes_for: *votes_for,
        }),
        RuleAction::DecideMatch { winner } => Action::DecideMatch(side(*winner)),
        RuleAction::CorrectCube { value, owner } => Action::CorrectCube(v1::CubeLevel {
            value: *value,
            owner: owner.map_or(0, side),
        }),
        RuleAction::CorrectScore { a, b } => Action::CorrectScore(v1::Score { a: *a, b: *b }),
        RuleAction::CorrectLength { length } => Action::CorrectLength(*length),
        RuleAction::Confirm => Action::ConfirmResult(v1::Empty {}),
        RuleAction::CorrectResult {
            game,
            winner,
            kind: k,
        } => Action::CorrectResult(v1::ResultCorrection {
            game: *game,
            result: Some(v1::GameResult {
                side: side(*winner),
                kind: kind(*k),
            }),
        }),
    })
}

fn tournament_defaults(
    per_point: &str,
    delay: &str,
    timeout: &str,
    clocks: ClocksArg,
    dice: DiceArg,
    breaks: bool,
    require_player_seeds: bool,
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
    let dice = match dice {
        DiceArg::Server => v1::DiceSource::Server,
        DiceArg::Physical => v1::DiceSource::Physical,
    };
    Ok(v1::TournamentDefaults {
        per_point_ms: ms(per_point)?,
        delay_ms: Some(ms(delay)?),
        timeout: Some(v1::TimeoutPolicy {
            policy: Some(policy),
        }),
        clocks: clocks as i32,
        dice: dice as i32,
        breaks_in_match_time: breaks,
        player_seeds: if require_player_seeds {
            v1::PlayerSeedPolicy::Required
        } else {
            v1::PlayerSeedPolicy::Optional
        } as i32,
    })
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

/// Runs every command except the live views (`follow`, `console`) and `dice stream`,
/// which the binary runs itself.
pub async fn run(cli: &Cli) -> Outcome {
    // In the language asked for, even when called in-process (the tests) or on a
    // runtime that moves the future between threads.
    let locale = words::choose(cli.lang.as_deref(), |name| std::env::var(name).ok());
    match words::InLocale::new(locale, run_inner(cli)).await {
        Ok(o) | Err(o) => o,
    }
}

async fn channel(cli: &Cli) -> Result<Channel, Outcome> {
    connect::connect(&cli.server).await.map_err(|e| {
        // tonic says only "transport error"; the reason is in the chain of sources (an
        // untrusted certificate, a refused connection).
        let mut why = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            why.push_str(&format!(": {s}"));
            source = s.source();
        }
        let hint = if connect::url(&cli.server).starts_with("https://") {
            "is it running, and is its certificate trusted? one from a private CA needs --ca-cert FILE"
        } else {
            "start it with `cargo run --release --bin baffled`, or pass --server URL"
        };
        Outcome::failed(
            exit::CONNECTION,
            format!(
                "baffle: cannot reach the server at {}: {why}\n        {hint}\n",
                cli.server
            ),
        )
    })
}

async fn run_inner(cli: &Cli) -> Result<Outcome, Outcome> {
    if let Some(path) = &cli.ca_cert {
        let pem = std::fs::read(path).map_err(|e| {
            Outcome::failed(
                exit::USAGE,
                format!(
                    "baffle: cannot read the CA certificate {}: {e}\n",
                    path.display()
                ),
            )
        })?;
        connect::trust(pem);
    }
    let token = token(cli);
    match &cli.command {
        Command::Presets { length } => {
            let reply = TimeControlsClient::new(channel(cli).await?)
                .list_presets(v1::ListPresetsRequest {
                    match_length: *length,
                })
                .await
                .map_err(refused)?;
            Ok(Outcome::ok(presets::render(&reply.into_inner().presets)))
        }
        Command::Tournament(t) => run_tournament(cli, &token, t).await,
        Command::Match(m) => run_match(cli, &token, m).await,
        Command::Play(p) => {
            let action = play_action(&p.action)?;
            execute(cli, &token, &p.match_id, action, None, &p.options).await
        }
        Command::Rule(r) => {
            let action = rule_action(&r.action)?;
            let ruling = v1::Ruling {
                reason: r.reason.clone(),
                article: r.article.clone(),
            };
            execute(cli, &token, &r.match_id, action, Some(ruling), &r.options).await
        }
        Command::Chess(c) => run_chess(cli, &token, c).await,
        Command::Device(d) => run_device(cli, &token, d).await,
        Command::Audit(a) => run_audit(cli, &token, a).await,
        Command::Dice(crate::cli::DiceCommand::Key {
            match_id,
            server_seed,
            seed_a,
            seed_b,
        }) => {
            let seed = dice::parse_hex::<32>(server_seed, "--server-seed").map_err(usage)?;
            let a = hex::decode(seed_a).map_err(|_| usage("--seed-a must be hex"))?;
            let b = hex::decode(seed_b).map_err(|_| usage("--seed-b must be hex"))?;
            Ok(Outcome::ok(format!(
                "{}\n",
                dice::key_hex(match_id, seed, &a, &b)
            )))
        }
        Command::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(
                *shell,
                &mut crate::examples::command(),
                "baffle",
                &mut script,
            );
            Ok(Outcome::ok(String::from_utf8_lossy(&script).into_owned()))
        }
        Command::Dice(_) | Command::Follow { .. } | Command::Console { .. } => {
            Err(usage("this command runs in the terminal, not here"))
        }
    }
}

/// `baffle tournament …`.
async fn run_tournament(
    cli: &Cli,
    token: &Option<String>,
    t: &TournamentCommand,
) -> Result<Outcome, Outcome> {
    let mut client = TournamentsClient::new(channel(cli).await?);
    match t {
        TournamentCommand::Create {
            id,
            name,
            per_point,
            delay,
            timeout,
            clocks,
            dice,
            breaks_in_match_time,
            require_player_seeds,
        } => {
            let defaults = tournament_defaults(
                per_point,
                delay,
                timeout,
                *clocks,
                *dice,
                *breaks_in_match_time,
                *require_player_seeds,
            )?;
            let tournament = v1::Tournament {
                id: id.clone(),
                name: name.clone(),
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
            Ok(if cli.json {
                Outcome::ok(to_json(&TournamentView::of(&t)))
            } else {
                let args = [("id", t.id.clone().into())];
                Outcome::ok(words::say_with("cli-tournament-created", &args) + "\n")
            })
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
    Ok(if cli.json {
        Outcome::ok(to_json(&TournamentView::of(&t)))
    } else {
        let said = match (t.archived, already) {
            (true, false) => "cli-tournament-archived",
            (true, true) => "cli-tournament-already-archived",
            (false, false) => "cli-tournament-unarchived",
            (false, true) => "cli-tournament-already-listed",
        };
        let args = [("id", t.id.clone().into())];
        Outcome::ok(words::say_with(said, &args) + "\n")
    })
}

/// `baffle match …`.
async fn run_match(
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
            chess,
        } => {
            let Some((a, b)) = players.split_once(',') else {
                return Err(usage(format!("--players takes \"A,B\", not {players:?}")));
            };
            let scheduled_start_ms = match start_in {
                None => 0,
                Some(d) => {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_millis() as i64);
                    now + ms(d)?
                }
            };
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
            };
            let defaulted = id.is_none();
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
            Ok(match_outcome(cli, &s))
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
            let list = client
                .list_matches(request)
                .await
                .map_err(refused)?
                .into_inner();
            let (list, offline) = (list.matches, list.offline);
            Ok(if cli.json {
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
            })
        }
        MatchCommand::Show { match_id } => {
            let s = client
                .get_match(v1::GetMatchRequest {
                    match_id: match_id.clone(),
                })
                .await
                .map_err(refused)?
                .into_inner();
            Ok(match_outcome(cli, &s))
        }
        MatchCommand::Rename {
            match_id,
            side: who,
            name,
        } => {
            let request = v1::RenamePlayerRequest {
                match_id: match_id.clone(),
                side: side(*who),
                name: name.clone(),
            };
            let reply = to_owner(
                channel(cli).await?,
                authed(request, token)?,
                |c, r| async move { MatchesClient::new(c).rename_player(r).await },
            )
            .await?;
            Ok(reply_outcome(cli, reply))
        }
        MatchCommand::Export { match_id, format } => {
            let format = match format.as_str() {
                "sgf" => v1::ExportFormat::Sgf,
                _ => v1::ExportFormat::Mat,
            };
            let reply = MatchesClient::new(channel(cli).await?)
                .export_match(v1::ExportMatchRequest {
                    match_id: match_id.clone(),
                    format: format as i32,
                })
                .await
                .map_err(refused)?
                .into_inner();
            Ok(Outcome::ok(reply.text))
        }
    }
}

/// `baffle chess MATCH …`.
async fn run_chess(
    cli: &Cli,
    token: &Option<String>,
    c: &crate::chess::ChessArgs,
) -> Result<Outcome, Outcome> {
    let pause = match &c.action {
        crate::chess::ChessAction::Pause { reason } => pause(reason)?,
        _ => 0,
    };
    let command = crate::chess::command(&c.action, pause).map_err(usage)?;
    let ruling = match (&c.reason, &c.article) {
        (Some(reason), Some(article)) => Some(v1::Ruling {
            reason: reason.clone(),
            article: article.clone(),
        }),
        (None, None) => None,
        _ => return Err(usage("--reason and --article go together")),
    };
    let action = Action::Chess(command);
    execute(cli, token, &c.match_id, action, ruling, &c.options).await
}

/// `baffle device …`.
async fn run_device(
    cli: &Cli,
    token: &Option<String>,
    d: &DeviceCommand,
) -> Result<Outcome, Outcome> {
    if let DeviceCommand::List { tournament } = d {
        return device_list(cli, tournament).await;
    }
    let mut client = DevicesClient::new(channel(cli).await?);
    let device = match d {
        DeviceCommand::List { .. } => unreachable!("listed above"),
        DeviceCommand::Register { id } => {
            let r = client
                .register_device(authed(
                    v1::RegisterDeviceRequest {
                        device_id: id.clone(),
                    },
                    token,
                )?)
                .await
                .map_err(refused)?
                .into_inner();
            return Ok(if cli.json {
                Outcome::ok(to_json(
                    &serde_json::json!({ "device_id": id, "credential": r.credential }),
                ))
            } else {
                Outcome::ok(format!(
                    "registered device {id}\ncredential (shown once): {}\n",
                    r.credential
                ))
            });
        }
        DeviceCommand::Bind { id, match_id } => {
            let request = v1::BindDeviceRequest {
                device_id: id.clone(),
                match_id: match_id.clone(),
            };
            client.bind_device(authed(request, token)?).await
        }
        DeviceCommand::Revoke { id } => client
            .revoke_device(authed(
                v1::RevokeDeviceRequest {
                    device_id: id.clone(),
                },
                token,
            )?)
            .await
            .map(|r| {
                let mut d = r.into_inner();
                d.match_id.clear();
                tonic::Response::new(d)
            }),
        DeviceCommand::Unbind { id } => {
            client
                .unbind_device(authed(
                    v1::UnbindDeviceRequest {
                        device_id: id.clone(),
                    },
                    token,
                )?)
                .await
        }
    }
    .map_err(refused)?
    .into_inner();
    Ok(if cli.json {
        Outcome::ok(to_json(&DeviceView {
            device_id: device.device_id,
            match_id: Some(device.match_id),
            connected: false,
        }))
    } else if device.match_id.is_empty() {
        Outcome::ok(format!("device {} is unbound\n", device.device_id))
    } else {
        Outcome::ok(format!(
            "device {} is bound to {}\n",
            device.device_id, device.match_id
        ))
    })
}

/// `baffle device list`: the devices bound to matches, found in the matches' states
/// (the server lists no devices of its own), with whether each is connected now.
async fn device_list(cli: &Cli, tournament: &Option<String>) -> Result<Outcome, Outcome> {
    let list = TournamentsClient::new(channel(cli).await?)
        .list_matches(v1::ListMatchesRequest {
            tournament_id: tournament.clone().unwrap_or_default(),
            ..Default::default()
        })
        .await
        .map_err(refused)?
        .into_inner()
        .matches;
    let mut devices: Vec<DeviceView> = list
        .iter()
        .flat_map(|s| {
            s.devices.iter().map(|d| DeviceView {
                device_id: d.device_id.clone(),
                match_id: Some(s.match_id.clone()),
                connected: d.connected,
            })
        })
        .collect();
    devices.sort_by(|a, b| a.device_id.cmp(&b.device_id));
    if cli.json {
        return Ok(Outcome::ok(to_json(&devices)));
    }
    let mut out = format!("{:<16} {:<16} {}\n", "DEVICE", "MATCH", "CONNECTED");
    for d in &devices {
        out.push_str(&format!(
            "{:<16} {:<16} {}\n",
            d.device_id,
            d.match_id.as_deref().unwrap_or("-"),
            if d.connected { "yes" } else { "no" }
        ));
    }
    Ok(Outcome::ok(out))
}

/// A match as the command's output: JSON with --json, else the text.
fn match_outcome(cli: &Cli, s: &v1::MatchState) -> Outcome {
    if cli.json {
        Outcome::ok(to_json(&MatchView::of(s)))
    } else {
        Outcome::ok(render::match_text(s))
    }
}

async fn execute(
    cli: &Cli,
    token: &Option<String>,
    match_id: &str,
    action: Action,
    ruling: Option<v1::Ruling>,
    options: &crate::cli::CommandOptions,
) -> Result<Outcome, Outcome> {
    let request = v1::ExecuteRequest {
        match_id: match_id.to_string(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        ruling,
        request_id: options.request_id.clone().unwrap_or_default(),
        expected_seq: options.expect_seq,
    };
    // On a cluster, the node that writes the match takes the command (docs/cluster.md).
    let reply = to_owner(
        channel(cli).await?,
        authed(request, token)?,
        |c, r| async move { MatchesClient::new(c).execute(r).await },
    )
    .await?;
    Ok(reply_outcome(cli, reply))
}

/// What a command wrote and the match after it: in words, or `{"events", "state"}`.
fn reply_outcome(cli: &Cli, reply: v1::ExecuteReply) -> Outcome {
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

async fn run_audit(
    cli: &Cli,
    token: &Option<String>,
    command: &AuditCommand,
) -> Result<Outcome, Outcome> {
    if let AuditCommand::Verify {
        file,
        head,
        require_reveal,
        player_seed,
    } = command
    {
        let report =
            audit::verify_file_expecting(file, head.as_deref(), *require_reveal, player_seed)
                .map_err(usage)?;
        let code = if report.is_ok() {
            exit::OK
        } else {
            exit::INVALID
        };
        return Ok(Outcome {
            code,
            out: format!("{report}\n"),
            err: String::new(),
        });
    }
    let channel = channel(cli).await?;
    let mut client = AuditClient::new(channel.clone());
    match command {
        AuditCommand::Commitment { match_id } => {
            let c = client
                .get_commitment(v1::GetCommitmentRequest {
                    match_id: match_id.clone(),
                })
                .await
                .map_err(refused)?;
            let commitment = c.into_inner().commitment;
            Ok(Outcome::ok(if cli.json {
                to_json(&serde_json::json!({ "match_id": match_id, "commitment": commitment }))
            } else {
                format!("{commitment}\n")
            }))
        }
        AuditCommand::Seed {
            match_id,
            side: s,
            seed,
            hex,
            code,
        } => {
            let bytes = if *hex {
                ::hex::decode(seed).map_err(|_| usage("the seed is not hex"))?
            } else {
                seed.as_bytes().to_vec()
            };
            let request = v1::SubmitPlayerSeedRequest {
                match_id: match_id.clone(),
                side: side(*s),
                seed: bytes,
            };
            let r = to_owner(
                channel,
                authed(request, &Some(code.clone()))?,
                |c, r| async move { AuditClient::new(c).submit_player_seed(r).await },
            )
            .await?;
            Ok(Outcome::ok(format!(
                "seed recorded; the log has {} events\n",
                r.seq
            )))
        }
        AuditCommand::PlayerCodes { match_id } => {
            let request = v1::IssuePlayerCodesRequest {
                match_id: match_id.clone(),
            };
            let r = to_owner(channel, authed(request, token)?, |c, r| async move {
                AuditClient::new(c).issue_player_codes(r).await
            })
            .await?;
            Ok(if cli.json {
                Outcome::ok(to_json(
                    &serde_json::json!({ "match_id": match_id, "a": r.code_a, "b": r.code_b }),
                ))
            } else {
                Outcome::ok(format!(
                    "player codes for {match_id} (shown once; hand each player his own):\nA  {}\nB  {}\n",
                    r.code_a, r.code_b
                ))
            })
        }
        AuditCommand::Commit {
            match_id,
            code,
            seed,
        } => {
            let player = code_side(code, match_id)?;
            let seed = match seed {
                Some(hex_seed) => {
                    ::hex::decode(hex_seed).map_err(|_| usage("--seed must be hex"))?
                }
                None => {
                    let mut bytes = vec![0u8; 32];
                    getrandom::fill(&mut bytes)
                        .map_err(|e| usage(format!("no random seed from the OS: {e}")))?;
                    bytes
                }
            };
            let commitment = baffle_core::dice::player_commitment(match_id, player, &seed);
            let request = v1::CommitPlayerSeedRequest {
                match_id: match_id.clone(),
                side: baffle_proto::convert::side_to_wire(player) as i32,
                commitment: commitment.to_vec(),
            };
            to_owner(
                channel,
                authed(request, &Some(code.clone()))?,
                |c, r| async move { AuditClient::new(c).commit_player_seed(r).await },
            )
            .await?;
            Ok(Outcome::ok(format!(
                "committed for {player}: {}\nyour seed, to reveal once both players have committed (keep it):\n{}\n",
                ::hex::encode(commitment),
                ::hex::encode(&seed)
            )))
        }
        AuditCommand::RevealSeed {
            match_id,
            code,
            seed,
        } => {
            let player = code_side(code, match_id)?;
            let request = v1::SubmitPlayerSeedRequest {
                match_id: match_id.clone(),
                side: baffle_proto::convert::side_to_wire(player) as i32,
                seed: ::hex::decode(seed).map_err(|_| usage("--seed must be hex"))?,
            };
            let r = to_owner(
                channel,
                authed(request, &Some(code.clone()))?,
                |c, r| async move { AuditClient::new(c).reveal_player_seed(r).await },
            )
            .await?;
            Ok(Outcome::ok(format!(
                "seed revealed for {player}; the log has {} events\n",
                r.seq
            )))
        }
        AuditCommand::Export { match_id, output } => {
            let text = audit::export_log(channel, match_id)
                .await
                .map_err(refused)?;
            match output {
                // `-o -`: standard output, as `-` means to most tools.
                Some(path) if path.as_os_str() == "-" => Ok(Outcome::ok(text)),
                Some(path) => {
                    write_file(path, &text)?;
                    Ok(Outcome::ok(String::new()))
                }
                None => Ok(Outcome::ok(text)),
            }
        }
        AuditCommand::Reveal { match_id } => {
            let request = v1::RevealRequest {
                match_id: match_id.clone(),
            };
            let r = to_owner(channel, authed(request, token)?, |c, r| async move {
                AuditClient::new(c).reveal(r).await
            })
            .await?;
            let seed = r.server_seed;
            Ok(Outcome::ok(if cli.json {
                to_json(&serde_json::json!({ "match_id": match_id, "server_seed": seed }))
            } else {
                format!("{seed}\n")
            }))
        }
        AuditCommand::Verify { .. } => unreachable!("handled above"),
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), Outcome> {
    std::fs::write(path, text)
        .map_err(|e| Outcome::failed(1, format!("baffle: cannot write {}: {e}\n", path.display())))
}

/// The side a player code is for, checked against the match it is used with.
fn code_side(code: &str, match_id: &str) -> Result<baffle_core::Side, Outcome> {
    let rest = code
        .strip_prefix(&format!("player.{match_id}."))
        .ok_or_else(|| usage(format!("--code is not a player code of match {match_id}")))?;
    match rest.split_once('.').map(|(side, _)| side) {
        Some("a") => Ok(baffle_core::Side::A),
        Some("b") => Ok(baffle_core::Side::B),
        _ => Err(usage(
            "--code is not a player code (player.MATCH.a|b.SECRET)",
        )),
    }
}
