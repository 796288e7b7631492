//! `baffle`: the director's console.

use std::io::Write;

use baffle_client::cli::{Cli, Command, DiceCommand};
use baffle_client::{dice, exit, run, tui};
use clap::Parser;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let cli = Cli::parse();
    let code = match &cli.command {
        Command::Dice(DiceCommand::Stream { key, count, format }) => stream(key, *count, *format),
        Command::Follow { match_id } => {
            live(tui::app::follow(cli.server.clone(), match_id.clone()).await)
        }
        Command::Console { tournament } => {
            live(tui::app::console(cli.server.clone(), run::token(&cli), tournament.clone()).await)
        }
        _ => {
            let outcome = run::run(&cli).await;
            let _ = std::io::stdout().write_all(outcome.out.as_bytes());
            let _ = std::io::stderr().write_all(outcome.err.as_bytes());
            outcome.code
        }
    };
    std::process::exit(code);
}

fn live(result: std::io::Result<()>) -> i32 {
    match result {
        Ok(()) => exit::OK,
        Err(e) => {
            eprintln!("baffle: the terminal failed: {e}");
            1
        }
    }
}

fn stream(key: &str, count: u64, format: dice::StreamFormat) -> i32 {
    let key = match dice::parse_hex::<32>(key, "--key") {
        Ok(k) => k,
        Err(e) => {
            eprintln!("baffle: {e}");
            return exit::USAGE;
        }
    };
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
