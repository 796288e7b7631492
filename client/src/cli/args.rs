//! The arguments several of `baffle`'s commands share: a side, a game's result, a
//! tournament's clocks and dice, a match's phase, the pause reasons a command may give,
//! and the retry options of every match command. `cli.rs` and its children (`table`,
//! `chess`) take them from here, so no child reaches back into its parent for them.

use clap::{Args, ValueEnum};

/// A player: A or B — also typed on a Greek keyboard, Α or Β (Greek capitals, which
/// look the same), or α, β.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    /// Player A.
    #[value(aliases = ["A", "Α", "α"])]
    A,
    /// Player B.
    #[value(aliases = ["B", "Β", "β"])]
    B,
}

/// A game result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    /// 1 × the cube.
    Single,
    /// 2 × the cube.
    Gammon,
    /// 3 × the cube.
    Backgammon,
}

/// Whether a tournament's matches are clocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClocksArg {
    /// Every match is clocked.
    Required,
    /// Each match chooses (clocked unless created --unclocked).
    Allowed,
    /// No match is clocked.
    Off,
}

/// Where a tournament's dice come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiceArg {
    /// The server's audited dice.
    Server,
    /// Dice rolled at the table and reported.
    Physical,
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PhaseArg {
    /// Players checking in.
    Waiting,
    /// A game in progress.
    Playing,
    /// Between games.
    BetweenGames,
    /// Finished.
    Over,
}

/// The pause reasons the rules allow, by their names in `baffle-core` (not the server's
/// own wait for live dice links, which no command may give).
pub(super) fn pause_reasons() -> clap::builder::PossibleValuesParser {
    use baffle_core::clock::PauseReason;
    let given = PauseReason::ALL
        .into_iter()
        .filter(|r| *r != PauseReason::AwaitingLinks);
    clap::builder::PossibleValuesParser::new(given.map(|r| r.name()))
}

/// Options every match command takes.
#[derive(Debug, Args)]
pub struct CommandOptions {
    /// A request id: a retry with the same id is applied once.
    #[arg(long)]
    pub request_id: Option<String>,
    /// Apply only if the match log has exactly this many events.
    #[arg(long)]
    pub expect_seq: Option<u64>,
}
