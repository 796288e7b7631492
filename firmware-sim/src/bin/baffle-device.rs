//! `baffle-device`: simulated clock devices.

use std::io::IsTerminal;
use std::time::Duration;

use baffle_firmware_sim::cli::{Cli, Command};
use baffle_firmware_sim::demo::{self, DemoConfig};
use baffle_firmware_sim::load::{self, LoadConfig};
use baffle_firmware_sim::ping::ping;
use baffle_proto::v1;
use clap::Parser;

fn token_or_exit(cli: &Cli, what: &str) -> String {
    cli.token().unwrap_or_else(|| {
        eprintln!(
            "baffle-device: {what} needs the director token: --token, BAFFLE_TOKEN or --data-dir"
        );
        std::process::exit(2);
    })
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let code = match &cli.command {
        Command::Ping => ping_status(&cli.server).await,
        Command::Demo {
            tables,
            length,
            per_point_secs,
            delay_secs,
            think_ms,
            seed,
            link,
            drift_ppm,
            quiet,
            chess,
            keep,
            tournament,
        } => {
            let token = token_or_exit(&cli, "the demo");
            // The director's own tournament is never archived by the demo.
            let keep = &(*keep || tournament.is_some());
            let cfg = DemoConfig {
                tables: *tables,
                length: *length,
                per_point_ms: per_point_secs * 1_000,
                delay_ms: delay_secs * 1_000,
                think_ms: (think_ms / 10, *think_ms),
                seed: *seed,
                tournament: tournament.clone().unwrap_or_else(demo::fresh_tournament_id),
                existing: tournament.is_some(),
                link: link.model(),
                drift_ppm: *drift_ppm,
                display: !quiet && std::io::stdout().is_terminal(),
                locale: baffle_i18n::choose(cli.lang.as_deref(), |name| std::env::var(name).ok()),
                chess: *chess,
                servers: Vec::new(),
                url: cli.server.clone(),
                keep: *keep,
            };
            run_demo(&cli.server, &token, cfg).await
        }
        Command::Load {
            matches,
            connections,
            seconds,
            sync_ms,
            keep,
        } => {
            let token = token_or_exit(&cli, "the load run");
            let cfg = LoadConfig {
                matches: *matches,
                connections: *connections,
                duration: Duration::from_secs(*seconds),
                sync_every: Duration::from_millis(*sync_ms),
                progress: Some(progress_printer()),
                keep: *keep,
                ..LoadConfig::default()
            };
            run_load(&cli.server, &token, cfg).await
        }
    };
    std::process::exit(code);
}

/// `ping`: whether the server serves, as the exit status (0 serving, 1 not, 3 not
/// reached).
async fn ping_status(server: &str) -> i32 {
    match ping(server).await {
        Ok(true) => {
            println!("{server}: serving");
            0
        }
        Ok(false) => {
            println!("{server}: not serving");
            1
        }
        Err(e) => {
            eprintln!("baffle-device: cannot reach {server}: {e}");
            3
        }
    }
}

/// `demo`: plays the tables to their end, printing each match's result, and archives
/// the demo's own tournament unless kept; the exit status.
async fn run_demo(server: &str, token: &str, cfg: DemoConfig) -> i32 {
    let tournament = cfg.tournament.clone();
    let keep = cfg.keep;
    println!("{}", demo::watch_line(&cfg));
    let run = demo::run(server, token, cfg);
    let Some(outcome) = interruptible(run, server, token, &tournament, keep).await else {
        std::process::exit(INTERRUPTED);
    };
    match outcome {
        Ok(results) => {
            for r in results {
                let s = r.state;
                let how = s.result.map_or(String::new(), |r| {
                    v1::MatchEndKind::try_from(r.how_kind)
                        .unwrap_or_default()
                        .as_str_name()
                        .trim_start_matches("MATCH_END_KIND_")
                        .to_lowercase()
                });
                println!(
                    "{}: {} {} – {} {} ({how}), {} inputs, {} connection(s)",
                    r.match_id,
                    s.player_a,
                    s.score_a,
                    s.score_b,
                    s.player_b,
                    r.inputs,
                    r.connections
                );
            }
            if !keep {
                println!(
                    "tournament {tournament} archived (baffle tournament list --all shows it)"
                );
            }
            0
        }
        Err(e) => {
            eprintln!("baffle-device: the demo stopped: {e}");
            1
        }
    }
}

/// `load`: the load run's report, and the exit status.
async fn run_load(server: &str, token: &str, cfg: LoadConfig) -> i32 {
    let tournament = cfg.tournament.clone();
    let keep = cfg.keep;
    let run = load::run(server, token, cfg);
    let Some(outcome) = interruptible(run, server, token, &tournament, keep).await else {
        std::process::exit(INTERRUPTED);
    };
    match outcome {
        Ok(report) => {
            print!("{}", report.render());
            0
        }
        Err(e) => {
            eprintln!("baffle-device: the load run stopped: {e}");
            1
        }
    }
}

/// The exit status after Ctrl-C (128 + SIGINT, as shells report it).
const INTERRUPTED: i32 = 130;

/// Runs `run` to its end, or until Ctrl-C: then archives `tournament` (unless `keep`)
/// so an interrupted demo or load run leaves nothing in the listings, and returns None.
async fn interruptible<R>(
    run: impl std::future::Future<Output = R>,
    server: &str,
    token: &str,
    tournament: &str,
    keep: bool,
) -> Option<R> {
    tokio::select! {
        outcome = run => Some(outcome),
        _ = tokio::signal::ctrl_c() => {
            if keep {
                eprintln!("baffle-device: interrupted; tournament {tournament} left listed");
            } else {
                match demo::archive(server, token, tournament).await {
                    Ok(()) => eprintln!(
                        "baffle-device: interrupted; tournament {tournament} archived"
                    ),
                    Err(e) => eprintln!(
                        "baffle-device: interrupted; tournament {tournament} could not be archived: {e}"
                    ),
                }
            }
            None
        }
    }
}

/// A channel whose lines are printed on standard error as they come (the load's progress).
fn progress_printer() -> tokio::sync::mpsc::UnboundedSender<String> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        while let Some(line) = rx.recv().await {
            eprintln!("{line}");
        }
    });
    tx
}
