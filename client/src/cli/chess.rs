//! `baffle chess MATCH ACTION` and `baffle match create … --chess`: the arguments as
//! clap reads them. What they become on the wire is `crate::chess`.

use clap::{Args, Subcommand, ValueEnum};

/// White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// White.
    White,
    /// Black.
    Black,
}

/// The FIDE Laws' edition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LawsArg {
    /// The 2009 Laws.
    #[value(name = "2009")]
    Fide2009,
    /// The 2014 Laws.
    #[value(name = "2014")]
    Fide2014,
    /// The 2018 Laws.
    #[value(name = "2018")]
    Fide2018,
    /// The 2023 Laws ("later" is its old name).
    #[value(name = "2023", alias = "later")]
    Fide2023,
}

/// `baffle match create … --chess CONTROL`: the settings of a chess match.
#[derive(Debug, Args)]
pub struct ChessMatchArgs {
    /// Make it a chess match with this control: fide-classical, rapid, blitz, or a
    /// custom BASE+INCREMENT ("25m+10s", Fischer), BASE+dDELAY ("5m+d5s", simple delay),
    /// BASE+bDELAY ("5m+b5s", Bronstein) or BASE alone (sudden death).
    #[arg(long, value_name = "CONTROL")]
    pub chess: Option<String>,
    /// Chess: games in the match (colours alternate).
    #[arg(long, default_value_t = 1, requires = "chess")]
    pub games: u32,
    /// Chess: the default time (6.7); default 0, players at the board at the start.
    #[arg(long, requires = "chess")]
    pub default_time: Option<String>,
    /// Chess: the Laws' edition for the category and penalties.
    #[arg(long, value_enum, default_value_t = LawsArg::Fide2023, requires = "chess")]
    pub laws: LawsArg,
    /// Chess: no arbiter watches (A.4 (d): flags count only when claimed).
    #[arg(long, requires = "chess")]
    pub unsupervised: bool,
    /// Chess: Chess960, the position drawn from the audited dice.
    #[arg(long, requires = "chess")]
    pub chess960: bool,
}

/// `baffle chess MATCH ACTION`
#[derive(Debug, Args)]
pub struct ChessArgs {
    /// The match.
    pub match_id: String,
    /// The arbiter's reason (required with arbiter actions).
    #[arg(long)]
    pub reason: Option<String>,
    /// The article applied, e.g. 7.5 (required with arbiter actions).
    #[arg(long)]
    pub article: Option<String>,
    /// Retry and concurrency options.
    #[command(flatten)]
    pub options: super::args::CommandOptions,
    /// The action.
    #[command(subcommand)]
    pub action: ChessAction,
}

/// A chess action: the players' first, then the arbiter's.
#[derive(Debug, Subcommand)]
pub enum ChessAction {
    /// The player of COLOR is at the board (6.7).
    Arrive {
        /// The player's colour.
        color: ColorArg,
    },
    /// COLOR completes a move and presses (6.2).
    Press {
        /// The player's colour.
        color: ColorArg,
    },
    /// COLOR resigns.
    Resign {
        /// The player's colour.
        color: ColorArg,
    },
    /// COLOR checkmated the opponent.
    Checkmate {
        /// The player's colour.
        color: ColorArg,
    },
    /// The players agree a draw.
    Draw,
    /// COLOR claims the opponent's fallen flag (unsupervised, A.4 (d)).
    ClaimFlag {
        /// The player's colour.
        color: ColorArg,
    },
    /// Stop the clocks (6.12): the arbiter's `director-stopped` (the default, with
    /// --reason and --article), or a player's `director-called` to call him.
    Pause {
        /// Why.
        #[arg(default_value = "director-stopped")]
        reason: String,
    },
    /// Arbiter: restart the clocks (6.12 (c)).
    Resume,
    /// COLOR, the player having the move, claims a quickplay finish (under two minutes,
    /// no increment, not blitz).
    QuickplayClaim {
        /// The player's colour.
        color: ColorArg,
    },
    /// Start the next game now, colours reversed.
    NextGame,
    /// Arbiter: COLOR may play though late (6.7).
    Excuse {
        /// The player's colour.
        color: ColorArg,
    },
    /// Arbiter: an illegal move by COLOR, or a press without a move (2009 7.4, 2014
    /// 7.5): the edition's penalty, and COLOR moves again.
    Illegal {
        /// Who.
        color: ColorArg,
        /// The opponent cannot checkmate: an illegal move that would lose draws.
        #[arg(long)]
        opponent_cannot_mate: bool,
    },
    /// Arbiter: the flagged player's opponent cannot checkmate (6.9): a draw.
    CannotCheckmate,
    /// Arbiter: both flags fell, order unknown (6.11).
    FlagOrderUnknown,
    /// Arbiter: set COLOR's clock, clocks stopped (6.10).
    SetTime {
        /// The player's colour.
        color: ColorArg,
        /// What the clock should read, e.g. 25m or 1:30:00.
        time: String,
    },
    /// Arbiter: set COLOR's move counter, clocks stopped (6.10).
    SetMoves {
        /// The player's colour.
        color: ColorArg,
        /// What the move counter should read.
        moves: u32,
    },
    /// Arbiter: rule on the quickplay claim.
    Quickplay {
        /// The arbiter's ruling.
        ruling: QuickplayArg,
    },
    /// Arbiter: decide the game's result.
    Result {
        /// 1-0, 0-1, draw or 0-0.
        outcome: String,
        /// Why: checkmate, resignation, flag, agreement, arbiter-decision, …
        #[arg(default_value = "arbiter-decision")]
        reason: String,
    },
    /// Draw the Chess960 position now (before play without a ruling; after, arbiter).
    DrawPosition,
}

/// A quickplay ruling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QuickplayArg {
    /// Upheld: a draw.
    Draw,
    /// A 5-second increment for both, two minutes to the opponent (not under 2009).
    Increment,
    /// Decision postponed, two minutes to the opponent; rule later.
    Postpone,
    /// Decision postponed without extra time; rule later.
    PostponeNoTime,
    /// Rejected: two minutes to the opponent (a postponed claim: dismissed).
    Reject,
}
