//! `baffle`: the director's console.

use std::io::{IsTerminal, Write};

use baffle_client::cli::{AuditCommand, Command, DiceCommand};
use baffle_client::{dice, exit, run, tui, words};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let cli = baffle_client::examples::parse();
    // --lang, BAFFLE_LANG, else the POSIX locale (el_GR.UTF-8 → Greek), else English.
    let lang = cli.lang.as_deref();
    words::set_locale(words::choose(lang, |name| std::env::var(name).ok()));
    // The screens need a terminal on both ends; piped or scripted, a line per change.
    let terminal = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    let code = match &cli.command {
        Command::Dice(DiceCommand::Stream { key, count, format }) => stream(key, *count, *format),
        Command::Follow { match_id } if cli.json || !terminal => lines(
            tui::lines::follow(
                cli.server.clone(),
                match_id.clone(),
                cli.json,
                &mut out,
                &mut err,
            )
            .await,
        ),
        // Its lines as they come, and Ctrl-C stops it (it never acts on the match).
        Command::Audit(AuditCommand::Witness {
            match_id,
            out: file,
        }) => lines(
            baffle_client::witness::witness(
                cli.server.clone(),
                match_id.clone(),
                file,
                async {
                    let _ = tokio::signal::ctrl_c().await;
                },
                &mut out,
                &mut err,
            )
            .await,
        ),
        Command::Console { tournament } if cli.json || !terminal => lines(
            tui::lines::console(
                cli.server.clone(),
                tournament.clone(),
                cli.json,
                &mut out,
                &mut err,
            )
            .await,
        ),
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

fn lines(result: std::io::Result<i32>) -> i32 {
    match result {
        Ok(code) => code,
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => exit::OK,
        Err(e) => {
            eprintln!("baffle: writing failed: {e}");
            1
        }
    }
}

fn live(result: std::io::Result<()>) -> i32 {
    match result {
        Ok(()) => exit::OK,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("baffle: {e}");
            exit::REFUSED
        }
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
