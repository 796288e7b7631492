//! `baffle-device`: simulated clock devices.

use baffle_firmware_sim::cli::{Cli, Command};
use baffle_firmware_sim::ping::ping;
use clap::Parser;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let cli = Cli::parse();
    match cli.command {
        Command::Ping => match ping(&cli.server).await {
            Ok(true) => println!("{}: serving", cli.server),
            Ok(false) => {
                println!("{}: not serving", cli.server);
                std::process::exit(1);
            }
            Err(e) => {
                eprintln!("baffle-device: cannot reach {}: {e}", cli.server);
                std::process::exit(3);
            }
        },
    }
}
