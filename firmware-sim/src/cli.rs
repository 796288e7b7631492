//! The `baffle-device` command line.

use clap::{Parser, Subcommand};

/// baffle-device: simulated baffle clock devices.
#[derive(Debug, Parser)]
#[command(
    name = "baffle-device",
    version,
    after_help = "Example:\n  baffle-device ping"
)]
pub struct Cli {
    /// The server's URL.
    #[arg(
        long,
        global = true,
        env = "BAFFLE_SERVER",
        default_value = "http://127.0.0.1:50051"
    )]
    pub server: String,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of `baffle-device`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check that the server is up and serving (grpc.health.v1).
    Ping,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
        assert!(matches!(
            Cli::try_parse_from(["baffle-device", "ping"])
                .unwrap()
                .command,
            Command::Ping
        ));
    }
}
