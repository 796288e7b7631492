//! `baffle`: the director's console.

use baffle_client::cli::{Cli, Command};
use baffle_client::{connect, exit, presets};
use baffle_proto::v1::ListPresetsRequest;
use baffle_proto::v1::time_controls_client::TimeControlsClient;
use clap::Parser;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let cli = Cli::parse();
    std::process::exit(run(cli).await);
}

async fn run(cli: Cli) -> i32 {
    let channel = match connect::connect(&cli.server).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("baffle: cannot reach the server at {}: {e}", cli.server);
            eprintln!(
                "        start it with `cargo run --release --bin baffled`, or pass --server URL"
            );
            return exit::CONNECTION;
        }
    };
    match cli.command {
        Command::Presets { length } => {
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
    }
}
