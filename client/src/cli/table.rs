//! The commands at a table: `baffle play MATCH ACTION` (what a player or a device does)
//! and `baffle rule MATCH --reason … --article … ACTION` (a director's ruling).

use clap::{Args, Subcommand, ValueEnum};

use super::args::{CommandOptions, DiceArg, KindArg, SideArg, pause_reasons};

/// `baffle play MATCH ACTION`
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The match.
    pub match_id: String,
    /// Retry and concurrency options.
    #[command(flatten)]
    pub options: CommandOptions,
    /// The action.
    #[command(subcommand)]
    pub action: PlayAction,
}

/// A player's action.
#[derive(Debug, Subcommand)]
pub enum PlayAction {
    /// The player is at the table (2.2).
    CheckIn {
        /// The player: A or B.
        side: SideArg,
    },
    /// Begin the next game.
    Start,
    /// The opening roll: server dice, or --dice A,B as thrown.
    Opening {
        /// Reported dice "6,1" (physical dice only).
        #[arg(long)]
        dice: Option<String>,
    },
    /// Roll: server dice, or --dice a,b as thrown. SIDE may be left out: the player on
    /// roll, as the match says.
    Roll {
        /// The player rolling: A or B.
        side: Option<SideArg>,
        /// Reported dice "3,4" (physical dice only).
        #[arg(long)]
        dice: Option<String>,
    },
    /// The roll in play was invalid (4.1 (iv)).
    InvalidRoll {
        /// The player: A or B.
        side: SideArg,
    },
    /// Double (4.4).
    Double {
        /// The player: A or B.
        side: SideArg,
    },
    /// Take the double. SIDE may be left out: the player the double was offered to.
    Take {
        /// The player: A or B.
        side: Option<SideArg>,
    },
    /// Pass the double. SIDE may be left out: the player the double was offered to.
    Pass {
        /// The player: A or B.
        side: Option<SideArg>,
    },
    /// Press the clock: the turn ends (4.2 (i)). SIDE may be left out: the player whose
    /// turn it is, as the match says.
    Press {
        /// The player: A or B.
        side: Option<SideArg>,
    },
    /// The mover's play, e.g. "24/18 13/11", "bar/22", "6/off", "8/5(2)" (matches that
    /// record moves; checked against the roll, 4.2 (iii)). Then press. The side may be
    /// left out (`move "8/3 6/3"`): the player moving, as the match says.
    Move {
        /// [SIDE] PLAY: A or B, then the play (its parts may be quoted together or not).
        #[arg(num_args = 1.., required = true, value_name = "[SIDE] PLAY")]
        words: Vec<String>,
    },
    /// Report a game's result (4.6).
    EndGame {
        /// Who won the game.
        winner: SideArg,
        /// Single, gammon or backgammon.
        kind: KindArg,
    },
    /// Concede (4.5).
    Concede {
        /// The player: A or B.
        side: SideArg,
        /// Single, gammon or backgammon.
        kind: KindArg,
    },
    /// Stop the clock for a reason the rules allow (4.3 (ii)).
    Pause {
        /// Why the clock stops.
        #[arg(value_parser = pause_reasons())]
        reason: String,
    },
    /// Restart the clock.
    Resume,
    /// Restart the delay after an invalid roll (4.3 (vi)).
    RestartDelay,
    /// The opponent picked up his dice early (4.1 (v)(b)).
    DiceEarly {
        /// Who broke the rule.
        offender: SideArg,
    },
    /// Replay an illegal move after the delay (4.2 (iii)(c)).
    Replay {
        /// Who broke the rule.
        offender: SideArg,
    },
    /// A 5-minute break between games (2.2).
    Break {
        /// The player: A or B.
        side: SideArg,
    },
    /// A closed-out player presses back without rolling (4.2 (i)).
    PressBack {
        /// The player: A or B.
        side: SideArg,
    },
    /// A player asks for a clock or an observer (2.3).
    Ask {
        /// The player: A or B.
        side: SideArg,
        /// What he asks for.
        what: AskArg,
    },
    /// A player appeals ruling number RULING (1 = the match's first) to the committee (5).
    Appeal {
        /// The player: A or B.
        side: SideArg,
        /// The ruling's number, 1 for the match's first.
        ruling: u32,
        /// The grounds, in the player's words.
        grounds: String,
    },
}

/// What a player asks for (2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AskArg {
    /// A clock.
    Clock,
    /// An observer.
    Observer,
}

/// What the appeals committee decided (5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DecisionArg {
    /// The ruling stands.
    Confirm,
    /// The ruling is undone.
    Overturn,
    /// The ruling is replaced.
    Replace,
}

/// `baffle rule MATCH --reason … --article … ACTION`
#[derive(Debug, Args)]
pub struct RuleArgs {
    /// The match.
    pub match_id: String,
    /// What happened and why.
    #[arg(long)]
    pub reason: String,
    /// The article applied, e.g. 2.2.
    #[arg(long)]
    pub article: String,
    /// Retry and concurrency options.
    #[command(flatten)]
    pub options: CommandOptions,
    /// The action.
    #[command(subcommand)]
    pub action: RuleAction,
}

/// A director's action.
#[derive(Debug, Subcommand)]
pub enum RuleAction {
    /// A warning.
    Warn {
        /// The player: A or B.
        side: SideArg,
    },
    /// Penalty points to a player.
    Award {
        /// The player: A or B.
        side: SideArg,
        /// How many.
        points: u32,
    },
    /// Points deducted from a player.
    Deduct {
        /// The player: A or B.
        side: SideArg,
        /// How many (the score does not go below zero).
        points: u32,
    },
    /// Time added or deducted, e.g. 1m or -30s (4.3 (v)).
    AdjustTime {
        /// The player: A or B.
        side: SideArg,
        /// The change, e.g. 1m or -30s.
        #[arg(allow_hyphen_values = true)]
        delta: String,
    },
    /// A side's time set (a replaced clock, 3.7).
    SetTime {
        /// The player: A or B.
        side: SideArg,
        /// What the clock should read, e.g. 25m or 1:30:00.
        time: String,
    },
    /// The game in progress forfeited.
    ForfeitGame {
        /// Who forfeits.
        loser: SideArg,
        /// Single, gammon or backgammon.
        kind: KindArg,
    },
    /// The match forfeited.
    ForfeitMatch {
        /// Who forfeits.
        loser: SideArg,
    },
    /// A clock imposed between games (3.5 (vi)).
    ImposeClock {
        /// Time per point.
        #[arg(long, default_value = "2m")]
        per_point: String,
        /// Delay.
        #[arg(long, default_value = "12s")]
        delay: String,
    },
    /// The clock removed (4.3 (iv)).
    RemoveClock,
    /// A Crawford or dead-cube double voided (4.4).
    VoidDouble {
        /// crawford or dead-cube.
        reason: String,
    },
    /// The cube level corrected (4.4 (vi)).
    CorrectCube {
        /// The right value: 1, 2, 4, …
        value: u32,
        /// Its owner; left out, centred.
        owner: Option<SideArg>,
    },
    /// The score corrected (4.7).
    CorrectScore {
        /// Player A's score.
        a: u32,
        /// Player B's score.
        b: u32,
    },
    /// The match length corrected (4.8).
    CorrectLength {
        /// The right length, in points.
        length: u32,
    },
    /// The match result confirmed (4.6).
    Confirm,
    /// A game's result corrected (4.6).
    CorrectResult {
        /// The game, from 1.
        game: u32,
        /// Who won it.
        winner: SideArg,
        /// Single, gammon or backgammon.
        kind: KindArg,
    },
    /// The break in progress ends now (2.2).
    EndBreak,
    /// The match's start moved to AT (`14:30` today, UTC, or RFC 3339), before its
    /// first game: lateness counts from it afresh (2.2).
    Reschedule {
        /// The new start.
        at: String,
    },
    /// The match put off before its first game: no lateness counts until it is
    /// rescheduled (2.2).
    Postpone,
    /// A break granted as an exception, between games, not counted (2.2).
    GrantBreak {
        /// The player: A or B.
        side: SideArg,
    },
    /// A player left the table mid-game: it counts as a break (2.2).
    LeftTable {
        /// The player: A or B.
        side: SideArg,
    },
    /// The dice changed between games; --baffle-box imposes one (2.4, 3.4).
    ChangeDice {
        /// Where the dice come from now.
        source: DiceArg,
        /// Dice thrown through a baffle box.
        #[arg(long)]
        baffle_box: bool,
    },
    /// The committee's decision on appeal APPEAL (5); the reason carries its reasoning.
    DecideAppeal {
        /// The appeal's number.
        appeal: u32,
        /// What the committee decided.
        decision: DecisionArg,
        /// Members of the committee: 3 or 5.
        #[arg(long, default_value_t = 3)]
        committee: u32,
        /// Members who voted for the decision.
        #[arg(long)]
        votes_for: u32,
    },
    /// The winner of a match both players won at the same instant (2.2).
    DecideMatch {
        /// Who wins the match.
        winner: SideArg,
    },
    /// More time for the players to reveal their committed seeds: the reveals are due
    /// MINUTES from now (1 to 1440). No die is drawn while a reveal is pending; past its
    /// deadline the director extends it, or rules the match forfeited by the player who
    /// does not reveal (forfeit-match, 2.3). Recorded as `dice.reveal_due` with the
    /// reason and article.
    ExtendReveal {
        /// Minutes from now.
        minutes: u32,
    },
}
