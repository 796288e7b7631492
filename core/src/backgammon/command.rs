//! What players, devices and directors ask the rules engine to do.

use serde::{Deserialize, Serialize};

use super::board::WinKind;
use super::setup::DiceSource;
use crate::clock::PauseReason;
use crate::dice::Roll;
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// Why a double is voided (4.4 (iv), 4.4 (vii)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VoidReason {
    /// A double in the Crawford game (4.4 (iv)): the game is played without the cube.
    Crawford,
    /// A double of a dead cube (4.4 (vii)): the previous (dead) value stands.
    DeadCube,
}

/// What a player may ask the director for (2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerRequest {
    /// That the rest of the match be played with a clock.
    Clock,
    /// That an observer watch the match.
    Observer,
}

/// What an appeals committee decided about a ruling (5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppealDecision {
    /// The ruling stands.
    Confirm,
    /// The ruling is undone; the director's corrections that follow carry it out.
    Overturn,
    /// The ruling is replaced by another, which the director's corrections carry out.
    Replace,
}

/// Why the director acts, and under which article. Recorded with every director action.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Ruling {
    /// What happened and why, in the director's words.
    pub reason: String,
    /// The article applied, e.g. "2.3" or "4.4 (iv)".
    pub article: String,
}

impl Ruling {
    /// A ruling with its reason and article.
    pub fn new(reason: impl Into<String>, article: impl Into<String>) -> Ruling {
        Ruling {
            reason: reason.into(),
            article: article.into(),
        }
    }
}

/// What only the director may do. Each comes with a [`Ruling`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "action")]
pub enum DirectorAction {
    /// A warning; nothing else changes (2.3).
    Warning {
        /// Who is warned.
        side: Side,
    },
    /// Penalty points to a player (2.2, 2.3, 4.4 (iv)).
    AwardPoints {
        /// Who receives them.
        to: Side,
        /// How many.
        points: u32,
    },
    /// Points deducted from a player's score (4.4 (iv)).
    DeductPoints {
        /// From whom.
        from: Side,
        /// How many (the score does not go below zero).
        points: u32,
    },
    /// Match time added (> 0) or deducted (< 0): a penalty, or time restored after a
    /// wrong activation (4.3 (v)).
    AdjustTime {
        /// Whose clock.
        side: Side,
        /// How much.
        delta: Millis,
    },
    /// A side's time is set: a defective clock replaced (3.7), or times corrected.
    SetTime {
        /// Whose clock.
        side: Side,
        /// The time it shows from now on.
        time: Millis,
    },
    /// The current game is forfeited: the opponent wins it at the cube's value.
    ForfeitGame {
        /// Who forfeits.
        loser: Side,
        /// Single, gammon or backgammon.
        kind: WinKind,
    },
    /// The break in progress ends now: players not back are late from now (2.2).
    EndBreak,
    /// A break granted as an exception (2.2: "the director may make exceptions"): between
    /// games or before the first, beyond the allowance, not counted against it.
    GrantBreak {
        /// Who takes it.
        side: Side,
    },
    /// A player left the table mid-game without need: it counts as one of his breaks
    /// (2.2). Recorded even when none is left, for the director's further ruling.
    LeftTable {
        /// Who left.
        side: Side,
    },
    /// The dice are changed between games (2.4, 3.4): their source, and whether a
    /// baffle box is imposed on dice rolled at the table.
    ChangeDice {
        /// Where the dice come from from the next game on.
        source: DiceSource,
        /// Whether dice rolled at the table must go through a baffle box.
        baffle_box: bool,
    },
    /// An appeals committee's decision on an appeal, by simple majority (5). The ruling
    /// that goes with it carries the reasoning.
    DecideAppeal {
        /// The appeal's number (1 = the match's first).
        appeal: u32,
        /// Confirm, overturn or replace.
        decision: AppealDecision,
        /// Members of the committee: 3 or 5.
        committee: u32,
        /// Members who voted for the decision: a majority.
        votes_for: u32,
    },
    /// The director decides a match that both players won at the same instant (2.2).
    DecideMatch {
        /// The winner.
        winner: Side,
    },
    /// The match is forfeited (disqualification, 2.3).
    ForfeitMatch {
        /// Who forfeits.
        loser: Side,
    },
    /// The match's start moved to the time the director sets (2.2: lateness counts from
    /// it), or, with no start, the match put off: no lateness counts until a start is set
    /// again. Only before the first game; the points of lateness already charged stay
    /// (the director deducts them by a ruling of their own if they were charged in
    /// error).
    Reschedule {
        /// The new scheduled start, not before the ruling; none puts the match off.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start: Option<Timestamp>,
    },
    /// A clock brought in mid-match: each player gets `((PA + PB) / 2) × per_point`
    /// (3.5 (vi), 2.3). Only between games.
    ImposeClock {
        /// Match time per point, T.
        per_point: Millis,
        /// The delay, D.
        delay: Millis,
    },
    /// The clock is taken away: both reserves expired and the order is unknown (4.3 (iv)).
    RemoveClock,
    /// A Crawford or dead-cube double is voided (4.4 (iv), (vii)): in the game in progress,
    /// or in the last game if the next has not started.
    VoidDouble {
        /// Which rule the double broke.
        reason: VoidReason,
    },
    /// The cube's level is corrected; the action stands (4.4 (vi)).
    CorrectCube {
        /// The right value.
        value: u32,
        /// The right owner (`None`: centred).
        owner: Option<Side>,
    },
    /// The score is corrected (4.7).
    CorrectScore {
        /// Player A's score.
        a: u32,
        /// Player B's score.
        b: u32,
    },
    /// The match length is corrected (4.8).
    CorrectLength {
        /// The right length.
        length: u32,
    },
    /// The director confirms and records the match result (4.6).
    ConfirmResult,
    /// A wrongly recorded game result is corrected (4.6).
    CorrectResult {
        /// The game's number (1 = first).
        game: u32,
        /// The right winner.
        winner: Side,
        /// The right kind.
        kind: WinKind,
    },
}

/// A command to the rules engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "command")]
pub enum Command {
    /// A player is present at the table (2.2).
    CheckIn {
        /// Who.
        side: Side,
    },
    /// Begin the next game (both players present, no break running).
    StartGame,
    /// One opening throw, `[A's die, B's die]`: equal dice are thrown again; the higher
    /// die plays first with both dice. Starts the next game if none is in progress.
    OpeningThrow {
        /// The two dice.
        throw: Roll,
        /// Server dice or reported.
        source: DiceSource,
    },
    /// The player on roll rolls (or a premature roll before the opponent pressed, 4.1 (v)(a)).
    Roll {
        /// Who rolls.
        side: Side,
        /// The dice.
        dice: Roll,
        /// Server dice or reported.
        source: DiceSource,
    },
    /// The roll was invalid (4.1 (iv)) and is rolled again; no double after it (4.4 (ii)).
    InvalidRoll {
        /// Whose roll.
        side: Side,
    },
    /// Offer a double: the doubler presses and the opponent decides on his time (4.4).
    Double {
        /// The doubler.
        side: Side,
    },
    /// A beaver: refused in tournaments (4.4 (viii)).
    Beaver {
        /// Who tried.
        side: Side,
    },
    /// Take the double: the taker owns the cube and presses back (4.4).
    Take {
        /// The taker.
        side: Side,
    },
    /// Pass the double: the game ends, the doubler wins the cube's value before the
    /// double, and the clock stops (4.4).
    Pass {
        /// Who passes.
        side: Side,
    },
    /// End of a turn: press the clock (4.2 (i)).
    Press {
        /// Who presses.
        side: Side,
    },
    /// A game's result, reported by the winner or his device (4.6).
    EndGame {
        /// Who won.
        winner: Side,
        /// Single, gammon or backgammon.
        kind: WinKind,
    },
    /// The mover's play, in the usual notation (`24/18 13/11`, `bar/22`, `6/off`,
    /// `8/5(2)`), in a match that records moves: checked against his roll (4.2 (iii)).
    Move {
        /// Who moves.
        side: Side,
        /// The play as written.
        play: String,
    },
    /// A player concedes a single game, gammon or backgammon (4.5).
    Concede {
        /// Who concedes.
        side: Side,
        /// What he concedes.
        kind: WinKind,
    },
    /// Stop the clock for one of the reasons the rules allow (4.3 (ii), 4.3 (vi)).
    Pause {
        /// Why.
        reason: PauseReason,
    },
    /// Restart a paused clock.
    Resume,
    /// Restart the delay of the turn in progress after an invalid roll (4.3 (vi)).
    RestartDelay,
    /// The opponent picked up his dice before the player finished: he waits out the
    /// delay on his next turn (4.1 (v)(b)).
    DicePickedUpEarly {
        /// Who picked up early.
        offender: Side,
    },
    /// The offender's illegal move is replayed: his time restarts and he may move only
    /// after the delay (4.2 (iii)(c)).
    ReplayIllegalMove {
        /// Who moved illegally.
        offender: Side,
    },
    /// A closed-out player presses back without rolling (4.2 (i): "if the opponent cannot
    /// move or double, the player still presses and waits for the opponent to press
    /// back"). No roll is invented: his turn passes unplayed.
    PressBack {
        /// The player on roll who cannot move.
        side: Side,
    },
    /// A player asks for a clock or an observer; recorded for the director (2.3).
    Request {
        /// Who asks.
        side: Side,
        /// For what.
        what: PlayerRequest,
    },
    /// A player appeals a ruling of the director to the committee (5).
    Appeal {
        /// Who appeals.
        side: Side,
        /// Which ruling: its number among the match's rulings (1 = the first).
        ruling: u32,
        /// The grounds, in the player's words.
        grounds: String,
    },
    /// A 5-minute break, between games only (2.2).
    TakeBreak {
        /// Who takes it.
        side: Side,
    },
    /// Apply whatever is due by now: flags, lateness points, the end of a break.
    Tick,
    /// A director action.
    Director {
        /// What.
        action: DirectorAction,
        /// Why.
        ruling: Ruling,
    },
}

impl Command {
    /// Whether this is the director's move of the match's start (2.2): the one command a
    /// match waiting for its start takes before it, dated when he ruled.
    pub fn moves_start(&self) -> bool {
        matches!(
            self,
            Command::Director {
                action: DirectorAction::Reschedule { .. },
                ..
            }
        )
    }
}
