//! What happened: the events a match log is made of. The state of a match is the fold of
//! its events ([`super::Match::evolve`]).

use serde::{Deserialize, Serialize};

use super::board::WinKind;
use super::command::{DirectorAction, PlayerRequest, Ruling};
use super::setup::DiceSource;
use crate::clock::PauseReason;
use crate::dice::Roll;
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    /// The result was declared (the game was played out).
    Declared,
    /// A double was passed.
    Pass,
    /// A player conceded (4.5).
    Concession,
    /// The director forfeited the game.
    Forfeit,
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEnd {
    /// The winner reached the match length.
    Points,
    /// The loser's time expired (4.3 (iv)).
    Timeout,
    /// The winner received more lateness penalty points than half the match length (2.2).
    PenaltyPoints,
    /// The loser forfeited the match.
    Forfeit,
    /// The director decided a match that both players won at the same instant (2.2).
    DirectorDecision,
}

/// What a time expiry led to, under the match's policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Expiry {
    /// The match is lost.
    LoseMatch,
    /// USBGF overtime granted.
    Overtime {
        /// Time added.
        time: Millis,
    },
    /// Penalty points to the opponent, reserve reset.
    PenaltyPoints {
        /// Points awarded.
        points: u32,
        /// The reserve after the reset.
        reserve: Millis,
    },
}

/// One change to a match.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum Change {
    /// A play recorded and checked against the roll (4.2 (iii)), in the canonical
    /// notation (`board::Play`'s), in a match that records moves.
    #[serde(rename = "bg.moved")]
    Moved {
        /// Who moved.
        side: Side,
        /// The play.
        play: String,
    },
    /// A player is present.
    #[serde(rename = "bg.checked_in")]
    CheckedIn {
        /// Who.
        side: Side,
    },
    /// A lateness penalty point to the punctual player (2.2).
    #[serde(rename = "bg.lateness_point")]
    LatenessPoint {
        /// Who is late.
        late: Side,
    },
    /// A break began (2.2).
    #[serde(rename = "bg.break_started")]
    BreakStarted {
        /// Who takes it.
        side: Side,
        /// When it ends.
        until: Timestamp,
        /// Granted by the director as an exception: not counted against the allowance.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        granted: bool,
    },
    /// The break ended: players not back are late from now.
    #[serde(rename = "bg.break_ended")]
    BreakEnded,
    /// A game began.
    #[serde(rename = "bg.game_started")]
    GameStarted {
        /// 1 for the first game.
        number: u32,
        /// Whether it is the Crawford game (the cube is removed).
        crawford: bool,
    },
    /// An opening throw.
    #[serde(rename = "bg.opening_throw")]
    OpeningThrow {
        /// `[A's die, B's die]`.
        throw: Roll,
        /// Server or reported dice.
        source: DiceSource,
    },
    /// A roll.
    #[serde(rename = "bg.rolled")]
    Rolled {
        /// Who rolled.
        side: Side,
        /// The dice.
        dice: Roll,
        /// Server or reported dice.
        source: DiceSource,
        /// Made before the opponent pressed (4.1 (v)(a)): it stands.
        premature: bool,
    },
    /// An invalid roll, to be rolled again (4.1 (iv)).
    #[serde(rename = "bg.roll_invalid")]
    RollInvalid {
        /// Whose.
        side: Side,
    },
    /// A double offered (the doubler pressed). Premature doubles wait for the press
    /// that ends the opponent's move (4.4 (v)).
    #[serde(rename = "bg.doubled")]
    Doubled {
        /// The doubler.
        side: Side,
        /// The value offered.
        value: u32,
        /// Offered before the opponent finished his move.
        premature: bool,
    },
    /// A double taken (the taker pressed back).
    #[serde(rename = "bg.taken")]
    Taken {
        /// The taker.
        side: Side,
    },
    /// A double passed.
    #[serde(rename = "bg.passed")]
    Passed {
        /// Who passed.
        side: Side,
    },
    /// A closed-out player pressed back without rolling: the turn passes (4.2 (i)).
    #[serde(rename = "bg.pressed_back")]
    PressedBack {
        /// Who pressed.
        side: Side,
    },
    /// A player asked for a clock or an observer (2.3).
    #[serde(rename = "bg.requested")]
    Requested {
        /// Who.
        side: Side,
        /// For what.
        what: PlayerRequest,
    },
    /// A player appealed a ruling to the committee (5).
    #[serde(rename = "bg.appealed")]
    Appealed {
        /// Who.
        side: Side,
        /// The ruling's number among the match's rulings.
        ruling: u32,
        /// His grounds.
        grounds: String,
    },
    /// A press: the turn ends.
    #[serde(rename = "bg.pressed")]
    Pressed {
        /// Who pressed.
        side: Side,
    },
    /// A game ended.
    #[serde(rename = "bg.game_ended")]
    GameEnded {
        /// Who won.
        winner: Side,
        /// Single, gammon or backgammon (a pass counts as single).
        result: WinKind,
        /// The cube value played for.
        cube: u32,
        /// Points scored: kind × cube.
        points: u32,
        /// How.
        how: GameEnd,
    },
    /// The clock was paused.
    #[serde(rename = "bg.paused")]
    Paused {
        /// Why.
        reason: PauseReason,
    },
    /// The clock was resumed.
    #[serde(rename = "bg.resumed")]
    Resumed,
    /// The delay of the turn in progress restarted (4.3 (vi)).
    #[serde(rename = "bg.delay_restarted")]
    DelayRestarted,
    /// `side` must wait out the delay on his next turn (4.1 (v)(b)).
    #[serde(rename = "bg.wait_out_delay")]
    WaitOutDelay {
        /// Who.
        side: Side,
    },
    /// The offender's turn is given back to replay an illegal move (4.2 (iii)(c)).
    #[serde(rename = "bg.turn_replayed")]
    TurnReplayed {
        /// Who moved illegally.
        offender: Side,
    },
    /// A reserve expired (4.3 (iv)).
    #[serde(rename = "bg.time_expired")]
    TimeExpired {
        /// Whose.
        side: Side,
        /// The exact instant it reached zero.
        flagged_at: Timestamp,
        /// What follows under the match's policy.
        expiry: Expiry,
    },
    /// A director action, with its ruling.
    #[serde(rename = "bg.ruling")]
    Ruled {
        /// What.
        action: DirectorAction,
        /// Why, and under which article.
        ruling: Ruling,
        /// What it changed, before and after: for the corrections of points, results
        /// and clocks, and the confirmation (`effect.rs`); absent for other actions and
        /// in rulings recorded before effects were.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        effect: Option<Effect>,
    },
    /// A pending match-length correction took effect (4.8).
    #[serde(rename = "bg.length_corrected")]
    LengthCorrected {
        /// The new length.
        length: u32,
    },
    /// A match-length correction could not be made (4.8): the match goes on at the
    /// length it has.
    #[serde(rename = "bg.length_kept")]
    LengthKept {
        /// The correction that was not made.
        requested: u32,
        /// Why.
        why: String,
    },
    /// The match ended.
    #[serde(rename = "bg.match_ended")]
    MatchEnded {
        /// Who won.
        winner: Side,
        /// How.
        how: MatchEnd,
    },
    /// Both players won the match at the same instant (lateness penalty points awarded
    /// together, 2.2): the director decides it; until then nothing else is due.
    #[serde(rename = "bg.match_undecided")]
    MatchUndecided,
    /// A correction undid the end of the match: it continues (4.4 (iv)(c), 4.6).
    #[serde(rename = "bg.match_resumed")]
    MatchResumed,
}

/// A change at an instant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Event {
    /// When it happened.
    pub at: Timestamp,
    /// What happened.
    #[serde(flatten)]
    pub change: Change,
}

impl Event {
    /// The event as an audit record body: compact JSON with its `kind`.
    pub fn body(&self) -> String {
        serde_json::to_string(self).expect("events always serialize")
    }
}

/// What a ruling changed, as `bg.ruling`'s `effect`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "of")]
pub enum Effect {
    /// The score, A's then B's (a confirmation leaves it as it was).
    Score {
        /// Before the ruling.
        before: [u32; 2],
        /// After it.
        after: [u32; 2],
    },
    /// A side's clock: its main time left at the ruling's instant.
    Clock {
        /// Whose.
        side: Side,
        /// Before the ruling.
        before: Millis,
        /// After it.
        after: Millis,
    },
}
