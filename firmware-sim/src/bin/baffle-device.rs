//! `baffle-device`: simulated clock devices.

use baffle_firmware_sim::cli::{Cli, Command};
use baffle_firmware_sim::demo::{self, DemoConfig};
use baffle_firmware_sim::ping::ping;
use clap::Parser;

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let code = match &cli.command {
        Command::Ping => match ping(&cli.server).await {
            Ok(true) => {
                println!("{}: serving", cli.server);
                0
            }
            Ok(false) => {
                println!("{}: not serving", cli.server);
                1
            }
            Err(e) => {
                eprintln!("baffle-device: cannot reach {}: {e}", cli.server);
                3
            }
        },
        Command::Demo {
            tables,
            length,
            per_point_secs,
            delay_secs,
            think_ms,
            seed,
        } => {
            let Some(token) = cli.token() else {
                eprintln!(
                    "baffle-device: the demo needs the director token: --token, BAFFLE_TOKEN or --data-dir"
                );
                std::process::exit(2);
            };
            let cfg = DemoConfig {
                tables: *tables,
                length: *length,
                per_point_ms: per_point_secs * 1_000,
                delay_ms: delay_secs * 1_000,
                think_ms: (think_ms / 10, *think_ms),
                seed: *seed,
                tournament: demo::fresh_tournament_id(),
            };
            println!(
                "playing {tables} table(s); watch with: baffle console {}",
                cfg.tournament
            );
            match demo::run(&cli.server, &token, cfg).await {
                Ok(results) => {
                    for r in results {
                        let s = r.state;
                        let how = s.result.map(|r| r.how).unwrap_or_default();
                        println!(
                            "{}: {} {} – {} {} ({how}), {} inputs",
                            r.match_id, s.player_a, s.score_a, s.score_b, s.player_b, r.inputs
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
    };
    std::process::exit(code);
}
