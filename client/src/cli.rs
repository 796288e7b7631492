//! The `baffle` command line.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::connect::DEFAULT_SERVER;
use crate::dice::StreamFormat;

/// baffle: the director's console for the baffle tournament clock and dice server.
#[derive(Debug, Parser)]
#[command(
    name = "baffle",
    version,
    after_help = "Examples:\n  baffle presets --length 11\n  baffle audit export r1-t7 -o r1-t7.jsonl\n  baffle audit verify r1-t7.jsonl --head 66a3b9f8…\n  baffle dice stream --key 01b604a9… --count 10000000 --format dice > dice.bin"
)]
pub struct Cli {
    /// The server's URL.
    #[arg(long, global = true, env = "BAFFLE_SERVER", default_value = DEFAULT_SERVER)]
    pub server: String,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of `baffle`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the preset time controls the server offers.
    Presets {
        /// Match length in points for the backgammon preset.
        #[arg(long, default_value_t = 7)]
        length: u32,
    },
    /// Offline tools for the audited dice (no server needed).
    #[command(subcommand)]
    Dice(DiceCommand),
    /// Offline verification of exported match logs (no server needed).
    #[command(subcommand)]
    Audit(AuditCommand),
}

/// `baffle dice …`
#[derive(Debug, Subcommand)]
pub enum DiceCommand {
    /// Print the dice key of a match from its revealed seed and the player seeds.
    Key {
        /// The match id.
        #[arg(long)]
        match_id: String,
        /// The revealed server seed, 64 hex digits.
        #[arg(long)]
        server_seed: String,
        /// Player A's seed, hex (empty if none).
        #[arg(long, default_value = "")]
        seed_a: String,
        /// Player B's seed, hex (empty if none).
        #[arg(long, default_value = "")]
        seed_b: String,
    },
    /// Write the stream of a dice key to standard output, for ent or dieharder.
    Stream {
        /// The dice key, 64 hex digits.
        #[arg(long)]
        key: String,
        /// How many dice (or raw words with --format raw).
        #[arg(long, default_value_t = 1_000_000)]
        count: u64,
        /// What to write.
        #[arg(long, value_enum, default_value_t = StreamFormat::Dice)]
        format: StreamFormat,
    },
}

/// `baffle audit …`
#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Fetch a match's log from the server as JSON Lines (no token needed).
    Export {
        /// The match id.
        match_id: String,
        /// Write to this file instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Verify an exported match log: chain, commitment and every server roll.
    /// Exit status 0 when it verifies, 1 when it does not.
    Verify {
        /// The JSON Lines export.
        file: PathBuf,
        /// A head hash a follower witnessed: the log must end there.
        #[arg(long)]
        head: Option<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from(["baffle", "presets", "--length", "11"]).unwrap();
        assert!(matches!(cli.command, Command::Presets { length: 11 }));
        assert_eq!(cli.server, DEFAULT_SERVER);
        let cli = Cli::try_parse_from(["baffle", "audit", "verify", "x.jsonl"]).unwrap();
        assert!(matches!(
            cli.command,
            Command::Audit(AuditCommand::Verify { head: None, .. })
        ));
    }
}
