//! The `baffle` command line.

use clap::{Parser, Subcommand};

use crate::connect::DEFAULT_SERVER;

/// baffle: the director's console for the baffle tournament clock and dice server.
#[derive(Debug, Parser)]
#[command(
    name = "baffle",
    version,
    after_help = "Examples:\n  baffle presets\n  baffle presets --length 11\n  baffle --server http://10.0.0.5:50051 presets"
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
    }
}
