//! The `baffle-device` command line.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// baffle-device: simulated baffle clock devices.
#[derive(Debug, Parser)]
#[command(
    name = "baffle-device",
    version,
    after_help = "Examples:\n  baffle-device ping\n  baffle-device demo --tables 4 --length 5\n  baffle-device demo --jitter-ms 200 --drop-every-ms 20000\n  baffle console demo-…   (in another terminal, to watch)\n  baffle-device load --matches 200 --seconds 10"
)]
pub struct Cli {
    /// The server's URL, or several (the nodes of a cluster) separated by commas: a
    /// device goes round them when its connection is lost, and follows the node that
    /// writes its match.
    #[arg(
        long,
        global = true,
        env = "BAFFLE_SERVER",
        default_value = crate::demo::DEFAULT_SERVER
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

    /// The language the devices' faces speak: el (Ελληνικά) or en. Default: the language
    /// of LC_ALL, LC_MESSAGES or LANG (el_GR.UTF-8 → Greek), else English — as `baffle`.
    #[arg(long, global = true, env = "BAFFLE_LANG", value_parser = ["el", "en"])]
    pub lang: Option<String>,

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
        /// Seed for the players' choices and the links.
        #[arg(long, default_value_t = 7)]
        seed: u64,
        /// The devices' simulated link.
        #[command(flatten)]
        link: LinkArgs,
        /// The fastest device clock's drift, ppm.
        #[arg(long, default_value_t = 100)]
        drift_ppm: i64,
        /// Do not draw the devices' clocks (drawn when the output is a terminal).
        #[arg(long)]
        quiet: bool,
        /// Play chess: LENGTH games a table, each on per-point × length plus 1 s a move.
        #[arg(long)]
        chess: bool,
        /// Leave the demo's tournament listed at the end (it is archived by default,
        /// also on Ctrl-C).
        #[arg(long)]
        keep: bool,
        /// Sit the tables in this existing tournament (its matches created there, at
        /// tables demo-1, demo-2, …) instead of a new one; it is never archived.
        #[arg(long, value_name = "ID")]
        tournament: Option<String>,
    },
    /// Many matches pressing as fast as allowed: presses/s and round trips beside a ping.
    Load {
        /// Live matches, one device each.
        #[arg(long, default_value_t = 50)]
        matches: u32,
        /// HTTP/2 connections the devices share.
        #[arg(long, default_value_t = 1)]
        connections: u32,
        /// How long to press, seconds.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// How often each device syncs its clock, ms.
        #[arg(long, default_value_t = 1_000)]
        sync_ms: u64,
        /// Leave the run's tournament listed at the end (it is archived by default,
        /// also on Ctrl-C).
        #[arg(long)]
        keep: bool,
    },
}

/// A simulated link's behaviour (per direction).
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct LinkArgs {
    /// Least one-way delay, ms.
    #[arg(long, default_value_t = 0)]
    pub latency_ms: u64,
    /// Extra one-way delay, uniformly 0 to this, ms.
    #[arg(long, default_value_t = 0)]
    pub jitter_ms: u64,
    /// Chance that a message is lost (its connection ends; the device reconnects).
    #[arg(long, default_value_t = 0.0)]
    pub loss: f64,
    /// Mean time between dropped connections, ms (0: never).
    #[arg(long, default_value_t = 0)]
    pub drop_every_ms: u64,
}

impl LinkArgs {
    /// As a link model (no faults).
    pub fn model(&self) -> crate::link::LinkModel {
        crate::link::LinkModel {
            latency_ms: self.latency_ms,
            jitter_ms: self.jitter_ms,
            loss: self.loss,
            drop_every_ms: self.drop_every_ms,
            ..Default::default()
        }
    }
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
        let demo = Cli::try_parse_from([
            "baffle-device",
            "demo",
            "--tables",
            "4",
            "--jitter-ms",
            "200",
        ])
        .unwrap();
        let Command::Demo { link, .. } = &demo.command else {
            panic!("demo")
        };
        assert_eq!(link.model().jitter_ms, 200);
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
