//! Backgammon match rules as a pure state machine (`shared/rules/backgammon.md`).
//!
//! A [`Match`] is the state of one match. Commands come in ([`Command`]), are checked
//! against the rules at a given time, and become events ([`Event`]); the state is the
//! fold of its events ([`Match::evolve`]). Nothing here reads a clock or does I/O. The
//! engine also says when something is next due ([`Match::next_due`]: a flag, a lateness
//! penalty point, the end of a break) so the server can set a timer and send
//! [`Command::Tick`] without knowing any rule.
//!
//! ```
//! use baffle_core::backgammon::{Command, WinKind, Match, MatchSetup};
//! use baffle_core::backgammon::setup::DiceSource;
//! use baffle_core::{Side, Timestamp};
//!
//! let t = Timestamp;
//! let mut m = Match::new(MatchSetup::new(["Anna", "Ben"], 5, t(0))).unwrap();
//! m.execute(&Command::CheckIn { side: Side::A }, t(0)).unwrap();
//! m.execute(&Command::CheckIn { side: Side::B }, t(0)).unwrap();
//! // Opening roll: A 5, B 3 — A plays first with 5-3 and his clock runs.
//! m.execute(&Command::OpeningThrow { throw: [5, 3], source: DiceSource::Server }, t(1_000)).unwrap();
//! m.execute(&Command::Press { side: Side::A }, t(9_000)).unwrap();
//! // B doubles; A passes: B wins one point.
//! m.execute(&Command::Double { side: Side::B }, t(12_000)).unwrap();
//! let events = m.execute(&Command::Pass { side: Side::A }, t(20_000)).unwrap();
//! assert_eq!(m.score(Side::B), 1);
//! assert_eq!(events.len(), 2); // passed, game ended
//! // A refused command names its rule and changes nothing.
//! let err = m.execute(&Command::Double { side: Side::A }, t(21_000)).unwrap_err();
//! assert!(err.to_string().contains("no game"));
//! ```

mod appeal;
pub mod articles;
mod attendance;
pub mod board;
pub mod command;
mod crawford;
pub mod cube;
mod decide;
mod director;
mod due;
pub mod effect;
pub mod error;
pub mod event;
mod evolve;
pub mod moves;
mod records;
pub mod setup;
pub mod tournament;

pub use board::WinKind;
pub use command::{AppealDecision, Command, DirectorAction, PlayerRequest, Ruling, VoidReason};
pub use cube::{Cube, CubeTurn};
pub use due::Due;
pub use error::RuleError;
pub use event::{Change, Effect, Event, Expiry, GameEnd, MatchEnd};
pub use records::{Appeal, BoardState};
pub use setup::{ClockSetup, DiceSource, MatchSetup, MovesSetting, TimeoutPolicy};
pub use tournament::{ClockPolicy, TournamentDefaults};

use crate::clock::{Clock, TimeControl};
use crate::dice::Roll;
use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Opening throws until the dice differ.
    Opening,
    /// `side` is on roll: he may double (if `may_double` and the cube allows) or roll.
    OnRoll {
        /// Who.
        side: Side,
        /// False after an invalid roll: no double after an attempt to roll (4.4 (ii)).
        may_double: bool,
    },
    /// `side` is moving with `dice`; his press ends the turn.
    Moving {
        /// Who.
        side: Side,
        /// His dice.
        dice: Roll,
    },
    /// `by` doubled; the opponent takes or passes on his own time.
    DoubleOffered {
        /// The doubler.
        by: Side,
    },
}

/// The game in progress.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    /// 1 for the first game of the match.
    pub number: u32,
    /// The Crawford game: no cube (4.4).
    pub crawford: bool,
    /// The cube; `None` when removed (Crawford game).
    pub cube: Option<Cube>,
    /// Every turn of the cube in this game, oldest first.
    pub cube_turns: Vec<CubeTurn>,
    /// Where the game stands.
    pub turn: Turn,
    /// The score when the game began, as corrected since (4.4 (iv), 4.7): the Crawford
    /// game is decided on this record.
    pub score_at_start: [u32; 2],
    /// The match length when the game began (4.8: a correction waits for the next game).
    pub length: u32,
    /// The last completed move: who, with which dice (for replaying an illegal move).
    pub last_move: Option<(Side, Roll)>,
    /// A roll made before the opponent pressed (4.1 (v)(a)).
    pub premature_roll: Option<(Side, Roll)>,
    /// A double offered before the opponent pressed (4.4 (v)).
    pub premature_double: Option<Side>,
}

impl Game {
    /// The value the game is played for now (1 without a cube).
    pub fn cube_value(&self) -> u32 {
        self.cube.map_or(1, |c| c.value)
    }
}

/// A finished game, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FinishedGame {
    /// Its number.
    pub number: u32,
    /// Whether it was the Crawford game.
    pub crawford: bool,
    /// Who won.
    pub winner: Side,
    /// Single, gammon or backgammon.
    pub kind: WinKind,
    /// The cube value played for.
    pub cube: u32,
    /// Points scored.
    pub points: u32,
    /// How it ended.
    pub how: GameEnd,
    /// The cube's turns in the game.
    pub cube_turns: Vec<CubeTurn>,
    /// The score when it began, as corrected since.
    pub score_at_start: [u32; 2],
    /// The match length it was played at.
    pub length: u32,
}

/// The result of a finished match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatchResult {
    /// Who won.
    pub winner: Side,
    /// How.
    pub how: MatchEnd,
    /// Whether the director confirmed it (4.6).
    pub confirmed: bool,
}

/// The state of one backgammon match. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Match {
    setup: MatchSetup,
    length: u32,
    score: [u32; 2],
    penalty_received: [u32; 2],
    warnings: [u32; 2],
    present: [bool; 2],
    lateness_from: Option<Timestamp>,
    /// The scheduled start as it stands: the set-up's, or the director's (2.2).
    start: Timestamp,
    lateness_charged: [u32; 2],
    break_until: Option<Timestamp>,
    breaks_taken: [u32; 2],
    clock: Option<Clock>,
    clock_initial: Millis,
    expiries: [u32; 2],
    timeout_points: [u32; 2],
    game: Option<Game>,
    games: Vec<FinishedGame>,
    pending_length: Option<u32>,
    result: Option<MatchResult>,
    undecided: bool,
    dice: DiceSource,
    baffle_box: bool,
    rulings: u32,
    appeals: Vec<Appeal>,
    requests: Vec<(Side, PlayerRequest)>,
    now: Timestamp,
    /// The board, when the match records moves (`moves.rs`).
    board: Option<BoardState>,
}

impl Match {
    /// A match that has not started; lateness counts from the scheduled start. The
    /// set-up is checked first ([`MatchSetup::validate`]).
    pub fn new(setup: MatchSetup) -> Result<Match, RuleError> {
        setup.validate()?;
        let length = setup.length;
        let clock = match setup.clock {
            Some(c) => {
                let control = TimeControl::backgammon(length, c.per_point, c.delay)
                    .map_err(|e| RuleError::rule("3.5", e.to_string()))?;
                Some(Clock::new(control, setup.scheduled_start))
            }
            None => None,
        };
        let clock_initial = clock.as_ref().map_or(Millis::ZERO, |c| {
            c.view(Side::A, setup.scheduled_start).main
        });
        Ok(Match {
            length,
            score: [0; 2],
            penalty_received: [0; 2],
            warnings: [0; 2],
            present: [false; 2],
            lateness_from: Some(setup.scheduled_start),
            start: setup.scheduled_start,
            lateness_charged: [0; 2],
            break_until: None,
            breaks_taken: [0; 2],
            clock,
            clock_initial,
            expiries: [0; 2],
            timeout_points: [0; 2],
            game: None,
            games: Vec::new(),
            pending_length: None,
            result: None,
            undecided: false,
            dice: setup.dice,
            baffle_box: false,
            rulings: 0,
            appeals: Vec::new(),
            requests: Vec::new(),
            now: setup.scheduled_start,
            board: None,
            setup,
        })
    }

    /// Checks `command` at `now` and returns the events it produces, without changing the
    /// match. Anything due by `now` (a flag, a lateness point, a break's end) comes first.
    pub fn decide(&self, command: &Command, now: Timestamp) -> Result<Vec<Event>, RuleError> {
        Ok(self.step(command, now)?.1)
    }

    /// Handles `command` at `now` and applies its events. On error nothing changes.
    pub fn execute(&mut self, command: &Command, now: Timestamp) -> Result<Vec<Event>, RuleError> {
        let (next, events) = self.step(command, now)?;
        *self = next;
        Ok(events)
    }

    // ---- queries ----

    /// When the match is scheduled to start (2.2): the set-up's time, or the one the
    /// director set since.
    pub fn scheduled_start(&self) -> Timestamp {
        self.start
    }

    /// Whether no game has started and no result is recorded.
    pub(crate) fn not_begun(&self) -> bool {
        self.game.is_none() && self.games.is_empty() && self.result.is_none()
    }

    /// Whether the match is put off (a director's ruling, 2.2): no lateness counts
    /// until he sets a start.
    pub fn postponed(&self) -> bool {
        self.lateness_from.is_none() && self.not_begun() && !self.undecided
    }

    /// The match as it was set up.
    pub fn setup(&self) -> &MatchSetup {
        &self.setup
    }

    /// Corrects `side`'s name (the table's `match.renamed`, checked there): the name
    /// only, nothing of the play.
    pub fn rename_player(&mut self, side: Side, name: &str) {
        self.setup.players[side.index()] = name.to_string();
    }

    /// The match length in force (it may have been corrected, 4.8).
    pub fn length(&self) -> u32 {
        self.length
    }

    /// A player's score, penalty points included.
    pub fn score(&self, side: Side) -> u32 {
        self.score[side.index()]
    }

    /// Points a player still needs.
    pub fn points_needed(&self, side: Side) -> u32 {
        self.length.saturating_sub(self.score(side))
    }

    /// Penalty points a player has received (lateness and director awards, 2.2).
    pub fn penalty_points_received(&self, side: Side) -> u32 {
        self.penalty_received[side.index()]
    }

    /// Warnings the director gave a player (2.3): spectators and the next director see
    /// that penalty points may follow. A warning an appeal overturned still counts: it
    /// was given, and the appeal's decision says the rest.
    pub fn warnings(&self, side: Side) -> u32 {
        self.warnings[side.index()]
    }

    /// Penalty points a player has received for the opponent's time-outs under a
    /// penalty-point policy (§1, "other federations' timeout policies").
    pub fn timeout_points_received(&self, side: Side) -> u32 {
        self.timeout_points[side.index()]
    }

    /// Whether a player is checked in.
    pub fn is_present(&self, side: Side) -> bool {
        self.present[side.index()]
    }

    /// Breaks a player may still take (2.2).
    pub fn breaks_left(&self, side: Side) -> u32 {
        setup::break_allowance(self.length).saturating_sub(self.breaks_taken[side.index()])
    }

    /// The end of the break in progress, if any.
    pub fn break_until(&self) -> Option<Timestamp> {
        self.break_until
    }

    /// The game in progress.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The finished games, oldest first.
    pub fn games(&self) -> &[FinishedGame] {
        &self.games
    }

    /// The clock, if the match is clocked.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The match result, once it is over.
    pub fn result(&self) -> Option<MatchResult> {
        self.result
    }

    /// Where the dice come from now (the set-up's, unless changed between games, 3.4).
    pub fn dice(&self) -> DiceSource {
        self.dice
    }

    /// Whether dice rolled at the table must go through a baffle box (2.4, 3.4).
    pub fn baffle_box(&self) -> bool {
        self.baffle_box
    }

    /// The director's rulings so far: an appeal names one by its number (1 = first).
    pub fn rulings(&self) -> u32 {
        self.rulings
    }

    /// The appeals to the committee, oldest first (5).
    pub fn appeals(&self) -> &[Appeal] {
        &self.appeals
    }

    /// The players' requests for a clock or an observer, oldest first (2.3).
    pub fn requests(&self) -> &[(Side, PlayerRequest)] {
        &self.requests
    }

    /// True when both players won the match at the same instant and the director must
    /// decide it (2.2): nothing else is due and only his rulings are taken.
    pub fn awaiting_decision(&self) -> bool {
        self.undecided
    }

    /// True once a Crawford game has been played: doubling is allowed again.
    pub fn is_post_crawford(&self) -> bool {
        self.games.iter().any(|g| g.crawford) && !self.game.as_ref().is_some_and(|g| g.crawford)
    }

    /// A match-length correction waiting for the next game (4.8).
    pub fn pending_length(&self) -> Option<u32> {
        self.pending_length
    }

    /// Gives `side` `credit` on the clock at `at` for a server outage (the table's
    /// `table.takeover` fold, which checks the credit first): the match's time moves to
    /// `at`, so nothing is later dated before the credit.
    pub fn credit_takeover(
        &mut self,
        side: Side,
        credit: Millis,
        at: Timestamp,
    ) -> Result<(), RuleError> {
        let clock = self
            .clock
            .as_mut()
            .ok_or_else(|| RuleError::state("this match is played without a clock"))?;
        clock.adjust(side, credit, at)?;
        self.now = self.now.max(at);
        Ok(())
    }

    /// The time of the latest event: commands dated earlier are refused.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// The side whose clock should run in the game as it stands.
    fn clock_side(&self) -> Option<Side> {
        match self.game.as_ref()?.turn {
            Turn::Opening => None,
            Turn::OnRoll { side, .. } | Turn::Moving { side, .. } => Some(side),
            Turn::DoubleOffered { by } => Some(by.other()),
        }
    }
}
