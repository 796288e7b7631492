//! The `baffle-device` command line.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// baffle-device: simulated baffle clock devices.
#[derive(Debug, Parser)]
#[command(
    name = "baffle-device",
    version,
    after_help = "Examples:\n  baffle-device ping\n  baffle-device demo --tables 4 --length 5\n  baffle console demo-…   (in another terminal, to watch)"
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

    /// The director token (the demo creates its tournament). Default: read from the data dir.
    #[arg(long, global = true, env = "BAFFLE_TOKEN", hide_env_values = true)]
    pub token: Option<String>,

    /// The server's data directory, where the director token file is.
    #[arg(
        long,
        global = true,
        env = "BAFFLE_DATA_DIR",
        default_value = "./baffle-data"
    )]
    pub data_dir: PathBuf,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of `baffle-device`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check that the server is up and serving (grpc.health.v1).
    Ping,
    /// Tables that play whole matches by themselves, through simulated devices.
    Demo {
        /// How many tables (one match each).
        #[arg(long, default_value_t = 2)]
        tables: u32,
        /// Match length in points.
        #[arg(long, default_value_t = 3)]
        length: u32,
        /// Match time per point, seconds.
        #[arg(long, default_value_t = 20)]
        per_point_secs: i64,
        /// Simple delay, seconds.
        #[arg(long, default_value_t = 3)]
        delay_secs: i64,
        /// Longest think time per move, ms (the shortest is a tenth of it).
        #[arg(long, default_value_t = 2_500)]
        think_ms: u64,
        /// Seed for the players' choices.
        #[arg(long, default_value_t = 7)]
        seed: u64,
    },
}

impl Cli {
    /// The director token: given, or read from the data directory.
    pub fn token(&self) -> Option<String> {
        self.token.clone().or_else(|| {
            std::fs::read_to_string(self.data_dir.join("director.token"))
                .ok()
                .map(|t| t.trim().to_string())
        })
    }
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
        let demo = Cli::try_parse_from(["baffle-device", "demo", "--tables", "4"]).unwrap();
        assert!(matches!(
            demo.command,
            Command::Demo {
                tables: 4,
                length: 3,
                ..
            }
        ));
    }
}
