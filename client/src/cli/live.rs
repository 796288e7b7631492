//! `baffle live …`: a player's own terminal in a match of live dice (`docs/dice.md`,
//! "Live dice"): his chain made and committed, then his links given as the draws are
//! asked for, and his own play typed on standard input.

use std::path::PathBuf;

use clap::Subcommand;

/// `baffle live …`
#[derive(Debug, Subcommand)]
pub enum LiveCommand {
    /// Make your chain (a secret tip from the OS's RNG), commit its anchor with your player
    /// code, and keep it in a file (mode 0600). Run again with the same file, it resumes:
    /// the chain the server holds is not committed again.
    Join {
        /// The match.
        match_id: String,
        /// Your player code (from `baffle audit player-codes`).
        #[arg(long)]
        code: String,
        /// Where your chain is kept. Default: ./baffle-live-MATCH-SIDE.json.
        #[arg(long, value_name = "PATH")]
        chain_file: Option<PathBuf>,
    },
    /// Play: follow the match, give your link by itself whenever a draw waits for it, and
    /// read your commands from standard input, one a line: roll, opening, double, take,
    /// pass, press, move PLAY (e.g. `move 8/3 6/3`), show, quit. At the end of the input
    /// it keeps giving links until the match has a result.
    Play {
        /// The match.
        match_id: String,
        /// Your player code.
        #[arg(long)]
        code: String,
        /// Your chain's file, as `live join` wrote it.
        #[arg(long, value_name = "PATH")]
        chain_file: Option<PathBuf>,
    },
}
