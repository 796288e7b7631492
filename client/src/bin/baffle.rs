//! `baffle`: the director's console.

use baffle_client::cli::{AuditCommand, Cli, Command, DiceCommand};
use baffle_client::{audit, connect, dice, exit, presets};
use baffle_proto::v1::ListPresetsRequest;
use baffle_proto::v1::time_controls_client::TimeControlsClient;
use clap::Parser;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Presets { length } => list_presets(&cli.server, length).await,
        Command::Dice(command) => run_dice(command),
        Command::Audit(AuditCommand::Export { match_id, output }) => {
            export(&cli.server, &match_id, output).await
        }
        Command::Audit(AuditCommand::Verify { file, head }) => {
            match audit::verify_file(&file, head.as_deref()) {
                Ok(report) => {
                    println!("{report}");
                    if report.is_ok() {
                        exit::OK
                    } else {
                        exit::INVALID
                    }
                }
                Err(e) => usage(&e),
            }
        }
    };
    std::process::exit(code);
}

async fn export(server: &str, match_id: &str, output: Option<std::path::PathBuf>) -> i32 {
    let channel = match connect::connect(server).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("baffle: cannot reach the server at {server}: {e}");
            return exit::CONNECTION;
        }
    };
    let text = match audit::export_log(channel, match_id).await {
        Ok(text) => text,
        Err(status) => {
            eprintln!("baffle: refused: {}", status.message());
            return exit::REFUSED;
        }
    };
    let written = match output {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            use std::io::Write;
            std::io::stdout()
                .write_all(text.as_bytes())
                .map_err(|e| e.to_string())
        }
    };
    match written {
        Ok(()) => exit::OK,
        Err(e) => {
            eprintln!("baffle: {e}");
            1
        }
    }
}

fn usage(message: &str) -> i32 {
    eprintln!("baffle: {message}");
    exit::USAGE
}

async fn list_presets(server: &str, length: u32) -> i32 {
    let channel = match connect::connect(server).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("baffle: cannot reach the server at {server}: {e}");
            eprintln!(
                "        start it with `cargo run --release --bin baffled`, or pass --server URL"
            );
            return exit::CONNECTION;
        }
    };
    let reply = TimeControlsClient::new(channel)
        .list_presets(ListPresetsRequest {
            match_length: length,
        })
        .await;
    match reply {
        Ok(r) => {
            print!("{}", presets::render(&r.into_inner().presets));
            exit::OK
        }
        Err(status) => {
            eprintln!("baffle: refused: {}", status.message());
            exit::REFUSED
        }
    }
}

fn run_dice(command: DiceCommand) -> i32 {
    match command {
        DiceCommand::Key {
            match_id,
            server_seed,
            seed_a,
            seed_b,
        } => {
            let parsed = (|| {
                let seed = dice::parse_hex::<32>(&server_seed, "--server-seed")?;
                let a = hex::decode(&seed_a).map_err(|_| "--seed-a must be hex".to_string())?;
                let b = hex::decode(&seed_b).map_err(|_| "--seed-b must be hex".to_string())?;
                Ok::<_, String>(dice::key_hex(&match_id, seed, &a, &b))
            })();
            match parsed {
                Ok(key) => {
                    println!("{key}");
                    exit::OK
                }
                Err(e) => usage(&e),
            }
        }
        DiceCommand::Stream { key, count, format } => match dice::parse_hex::<32>(&key, "--key") {
            Ok(key) => {
                match dice::write_stream(&mut std::io::stdout().lock(), key, count, format) {
                    Ok(()) => exit::OK,
                    // A closed pipe (`| head`) is the reader's choice, not a failure.
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::OK,
                    Err(e) => {
                        eprintln!("baffle: writing the stream failed: {e}");
                        1
                    }
                }
            }
            Err(e) => usage(&e),
        },
    }
}
