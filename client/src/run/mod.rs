//! Runs a parsed `baffle` command and says what to print and which exit status to give.
//! Kept apart from the binary so that tests run the CLI in-process against a real server.
//!
//! This module sends each command to the module that runs it, one per kind of command
//! (tournaments, matches, play, devices, audit, seeds, and a tournament's draw). Under them: [`Outcome`] and
//! refusals (`outcome`), reaching the server (`connection`), arguments as the wire's
//! values (`wire`).

mod audit;
mod connection;
mod devices;
mod draw;
mod live;
mod matches;
mod outcome;
mod play;
mod record;
mod seeds;
mod tournaments;
mod wire;

use baffle_proto::v1;
use baffle_proto::v1::time_controls_client::TimeControlsClient;

use connection::channel;
pub use connection::token;
use outcome::usage;
pub use outcome::{Outcome, refused};

use crate::cli::{Cli, Command};
use crate::{connect, dice, exit, presets, words};

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

/// Runs the command; a failure is an outcome too, so `?` ends a command with it.
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
        Command::Tournament(t) => tournaments::run_tournament(cli, &token, t).await,
        Command::Player(p) => draw::run_player(cli, &token, p).await,
        Command::Draw(d) => draw::run_draw(cli, &token, d).await,
        Command::Round(r) => draw::run_round(cli, &token, r).await,
        Command::Pairing(p) => draw::run_pairing(cli, &token, p).await,
        Command::Standings(s) => draw::run_standings(cli, s).await,
        Command::Match(m) => matches::run_match(cli, &token, m).await,
        Command::Play(p) => play::run_play(cli, &token, p).await,
        Command::Rule(r) => play::run_rule(cli, &token, r).await,
        Command::Chess(c) => play::run_chess(cli, &token, c).await,
        Command::Device(d) => devices::run_device(cli, &token, d).await,
        Command::Audit(a) => audit::run_audit(cli, &token, a).await,
        Command::Live(l) => live::run_live(cli, l).await,
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
