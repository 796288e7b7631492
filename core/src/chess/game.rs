//! One chess game on the shared clock, as a state machine: [`Game::decide`] checks a
//! command at a time and returns its events, [`Game::evolve`] folds an event in, and the
//! state is the fold of the events — `decide` applies each event to a working copy as it
//! emits it, so checking and replaying share one path and a refused command changes
//! nothing. Timers come from [`Game::next_due`]; [`Game::catch_up`] records what fell due
//! (the start, a default, a flag) at its exact instant.

use super::category::{Category, Laws, category, illegal_move_penalty};
use super::error::ChessError;
pub use super::event::{Command, Event, QuickplayRuling};
pub use super::result::{Color, GameResult, Outcome, Reason};
use crate::clock::{Clock, PauseReason, TimeControl, TimingMethod};
use crate::side::Side;
use crate::time::{Millis, Timestamp};

mod made;
mod quickplay;
mod steps;

/// How a game is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// The time control.
    pub control: TimeControl,
    /// The scheduled start: White's clock starts then (6.6).
    pub start: Timestamp,
    /// The default time (6.7): a player not present this long after the start loses.
    /// Zero under the 2009 default.
    pub default_time: Millis,
    /// Which Laws' boundaries and penalties apply.
    pub laws: Laws,
    /// Whether an arbiter watches the game. Without one, in rapid and blitz a flag counts
    /// only on a valid claim (A.4 (d), B).
    pub supervised: bool,
}

impl GameSetup {
    /// A supervised game under the 2023 Laws with a default time of zero.
    pub fn new(control: TimeControl, start: Timestamp) -> GameSetup {
        GameSetup {
            control,
            start,
            default_time: Millis::ZERO,
            laws: Laws::Fide2023,
            supervised: true,
        }
    }
}

/// The increment a rejected or resolved quickplay claim can introduce.
pub const QUICKPLAY_INCREMENT: Millis = Millis::secs(5);
/// Time left under which a quickplay claim may be made.
pub const QUICKPLAY_THRESHOLD: Millis = Millis::mins(2);
/// Time given to the opponent when a quickplay claim is rejected, postponed (if the
/// arbiter chooses) or answered with an increment (2014 G.4, Guidelines III.4).
pub const QUICKPLAY_REJECTED_BONUS: Millis = Millis::mins(2);

/// One game. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    setup: GameSetup,
    category: Category,
    clock: Clock,
    started: bool,
    present: [bool; 2],
    excused: [bool; 2],
    illegal: [u32; 2],
    /// Flags recorded, in the order they fell.
    flags: Vec<(Color, Timestamp)>,
    /// A move made on the board and not yet completed by the press (6.2 (a)): who, when.
    made: Option<(Color, Timestamp)>,
    /// For each flag, when it was noticed if later than it fell.
    flag_notices: Vec<Option<Timestamp>>,
    claim: Option<Color>,
    /// The arbiter postponed his decision on the claim (2009 10.2 (b); G.5; III.5): play
    /// goes on and he rules later, or after a flag.
    claim_postponed: bool,
    result: Option<GameResult>,
}

impl Game {
    /// A game not yet started.
    pub fn new(setup: GameSetup) -> Game {
        let category = category(&setup.control, setup.laws);
        let clock = Clock::new(setup.control.clone(), setup.start);
        Game {
            setup,
            category,
            clock,
            started: false,
            present: [false; 2],
            excused: [false; 2],
            illegal: [0; 2],
            flags: Vec::new(),
            flag_notices: Vec::new(),
            made: None,
            claim: None,
            claim_postponed: false,
            result: None,
        }
    }

    /// The setup.
    pub fn setup(&self) -> &GameSetup {
        &self.setup
    }

    /// Its category.
    pub fn category(&self) -> Category {
        self.category
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Adds `credit` to the clock of `colour_side` (A: White) at `at`: a takeover's
    /// credit for a server outage ([`super::ChessMatch::credit_takeover`]).
    pub(super) fn credit_clock(
        &mut self,
        colour_side: Side,
        credit: Millis,
        at: Timestamp,
    ) -> Result<(), ChessError> {
        self.clock.adjust(colour_side, credit, at)?;
        Ok(())
    }

    /// The result, once over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Whether each player is at the board (White, Black).
    pub fn present(&self) -> [bool; 2] {
        self.present
    }

    /// Illegal moves recorded (White, Black).
    pub fn illegal_moves(&self) -> [u32; 2] {
        self.illegal
    }

    /// Flags recorded, in the order they fell.
    pub fn flags(&self) -> &[(Color, Timestamp)] {
        &self.flags
    }

    /// For each of [`Game::flags`], when it was noticed, if later than it fell (a
    /// command or timer that came after the instant, a restart).
    pub fn flag_notices(&self) -> &[Option<Timestamp>] {
        &self.flag_notices
    }

    /// Whether White's clock has started (6.6).
    pub fn started(&self) -> bool {
        self.started
    }

    /// The quickplay claim awaiting the arbiter, if any.
    pub fn claim(&self) -> Option<Color> {
        self.claim
    }

    /// Whether the arbiter postponed his decision on that claim (play goes on).
    pub fn claim_postponed(&self) -> bool {
        self.claim_postponed
    }

    /// Both players are at the board (the next game of a match, played at once).
    pub(super) fn seat_both(&mut self) {
        self.present = [true, true];
    }

    /// The colour to move, while the game runs.
    pub fn to_move(&self) -> Option<Color> {
        self.clock.running().map(Color::of)
    }

    /// The next instant something falls due by itself: the start, a default, a flag.
    pub fn next_due(&self) -> Option<Timestamp> {
        if self.result.is_some() {
            return None;
        }
        if !self.started {
            return Some(self.setup.start);
        }
        let default = (0..2)
            .any(|i| !self.present[i] && !self.excused[i])
            .then_some(self.setup.start + self.setup.default_time);
        let flag = self.clock.next_flag_at();
        match (default, flag) {
            (Some(d), Some(f)) => Some(d.min(f)),
            (d, f) => d.or(f),
        }
    }

    /// Records what fell due by `now`, in order, and returns the events.
    pub fn catch_up(&mut self, now: Timestamp) -> Vec<Event> {
        let mut out = Vec::new();
        while let Some(due) = self.next_due().filter(|d| *d <= now) {
            let before = out.len();
            let mut work = self.clone();
            if work.due(due, now, &mut out).is_err() || out.len() == before {
                out.truncate(before);
                break;
            }
            *self = work;
        }
        out
    }

    /// What falls due at `at`, recorded at `now` (the same or later).
    fn due(
        &mut self,
        at: Timestamp,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        if !self.started {
            return self.emit(Event::Started { at }, out);
        }
        if at >= self.setup.start + self.setup.default_time {
            let late: Vec<Color> = [Color::White, Color::Black]
                .into_iter()
                .filter(|c| !self.present[c.index()] && !self.excused[c.index()])
                .collect();
            if !late.is_empty() {
                let outcome = match late.as_slice() {
                    [c] => Outcome::win(c.other()),
                    _ => Outcome::BothLose,
                };
                let result = GameResult {
                    outcome,
                    reason: Reason::Default,
                };
                return self.emit(Event::Ended { result, at }, out);
            }
        }
        if let Some(flag_at) = self.clock.next_flag_at().filter(|f| *f <= at) {
            self.flag(flag_at, now, out)?;
        }
        Ok(())
    }

    /// A flag fell at `at`: record it (6.8) with the period's move requirement (6.4) and,
    /// when it is noticed only later (`now`), the time of the notice; and decide what
    /// follows (6.9; A.4 (d)). The result stands at the clock's instant.
    fn flag(
        &mut self,
        at: Timestamp,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        let side = self
            .clock
            .running()
            .ok_or_else(|| ChessError::state("no clock runs"))?;
        let color = Color::of(side);
        let view = self.clock.view(side, at);
        let moves_due = self.setup.control.period(view.period).moves;
        self.emit(
            Event::FlagFell {
                color,
                at,
                moves_due,
                moves_made: view.moves_in_period,
                noticed_at: (now > at).then_some(now),
            },
            out,
        )?;
        if self.flag_counts_at_once() {
            let result = self.flag_result(color);
            self.emit(Event::Ended { result, at }, out)?;
        }
        Ok(())
    }

    /// Without an arbiter, in rapid and blitz a flag counts only when claimed.
    fn flag_counts_at_once(&self) -> bool {
        self.setup.supervised || self.category == Category::Standard
    }

    /// The result of `flagged`'s flag: a loss — but unsupervised, once both flags have
    /// fallen, a draw (A.4 (d)).
    fn flag_result(&self, flagged: Color) -> GameResult {
        let both = self.flags.iter().any(|(c, _)| *c == flagged.other());
        if both && !self.flag_counts_at_once() {
            return GameResult {
                outcome: Outcome::Draw,
                reason: Reason::BothFlags,
            };
        }
        GameResult {
            outcome: Outcome::win(flagged.other()),
            reason: Reason::Flag,
        }
    }

    /// Checks `command` at `now` and returns the events it causes, without changing the
    /// game; [`Game::evolve`] them (or use [`Game::execute`]).
    pub fn decide(&self, command: Command, now: Timestamp) -> Result<Vec<Event>, ChessError> {
        let mut work = self.clone();
        let mut out = work.catch_up(now);
        work.command(command, now, &mut out)?;
        Ok(out)
    }

    /// [`Game::decide`] and evolve: the game changes only if the command is allowed.
    pub fn execute(&mut self, command: Command, now: Timestamp) -> Result<Vec<Event>, ChessError> {
        let events = self.decide(command, now)?;
        for e in &events {
            self.evolve(e)?;
        }
        Ok(events)
    }

    fn over(&self) -> Result<(), ChessError> {
        match self.result {
            Some(r) => Err(ChessError::state(format!(
                "the game is over ({:?}, {:?})",
                r.outcome, r.reason
            ))),
            None => Ok(()),
        }
    }

    fn command(
        &mut self,
        command: Command,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        use Command as C;
        let postponed_draw =
            matches!(command, C::QuickplayRuling(QuickplayRuling::Draw)) && self.claim_postponed;
        let late = matches!(
            command,
            C::CannotCheckmate | C::ArbiterResult(_) | C::Checkmate(_)
        );
        if !late && !postponed_draw {
            self.over()?;
        }
        match command {
            C::Arrive(color) => self.arrive(color, now, out),
            C::Press(color) => self.press(color, now, out),
            C::Resign(color) => {
                self.end(Outcome::win(color.other()), Reason::Resignation, now, out)
            }
            C::Checkmate(winner) => self.checkmate(winner, now, out),
            C::MoveMade(color) => self.move_made(color, now, out),
            C::AgreeDraw => self.end(Outcome::Draw, Reason::Agreement, now, out),
            C::ClaimFlag(claimant) => self.claim_flag(claimant, now, out),
            C::ExcuseLateness(color) => self.emit(Event::Excused { color, at: now }, out),
            C::IllegalMove {
                by,
                opponent_can_mate,
            } => self.illegal_move(by, opponent_can_mate, now, out),
            C::CannotCheckmate => self.cannot_checkmate(now, out),
            C::FlagOrderUnknown => self.flag_order_unknown(now, out),
            C::Pause(reason) => self.pause(reason, now, out),
            C::Resume => self.resume(now, out),
            C::SetTime(color, time) => self.set_time(color, time, now, out),
            C::SetMoves(color, moves) => {
                self.stopped("6.10")?;
                self.emit(
                    Event::MovesSet {
                        color,
                        moves,
                        at: now,
                    },
                    out,
                )
            }
            C::QuickplayClaim(color) => self.quickplay_claim(color, now, out),
            C::QuickplayRuling(ruling) => self.quickplay_ruling(ruling, now, out),
            C::ArbiterResult(result) => self.emit(Event::Ended { result, at: now }, out),
        }
    }

    /// Whether the game has started (6.6) and `color`'s clock runs, for what only the
    /// player on move may do (`what`, under `article`).
    fn check_on_move(
        &self,
        color: Color,
        article: &'static str,
        what: &str,
    ) -> Result<(), ChessError> {
        if !self.started {
            return Err(ChessError::rule("6.6", "the game has not started"));
        }
        if self.to_move() != Some(color) {
            return Err(ChessError::rule(
                article,
                format!("{color:?} is not on move: only the player whose clock runs {what}"),
            ));
        }
        Ok(())
    }

    /// A press by the player on move (6.2), at the board (6.7), with no claim pending.
    fn press(
        &mut self,
        color: Color,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        self.check_on_move(color, "6.2", "presses")?;
        if !self.present[color.index()] {
            return Err(ChessError::rule(
                "6.7",
                format!("{color:?} is not at the board"),
            ));
        }
        if self.claim.is_some() && !self.claim_postponed {
            return Err(ChessError::state("a quickplay claim awaits the arbiter"));
        }
        self.emit(Event::Pressed { color, at: now }, out)
    }

    /// A completed illegal move (2009 7.4; 2014 7.5; 2018 7.5.5): the edition's time to
    /// the opponent, or the game lost at the edition's count; otherwise the position
    /// before it is reinstated, so the offender is on move again and his clock runs.
    fn illegal_move(
        &mut self,
        by: Color,
        opponent_can_mate: bool,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        if !self.started {
            return Err(ChessError::rule("6.6", "the game has not started"));
        }
        let penalty = illegal_move_penalty(self.setup.laws, self.category, self.setup.supervised);
        let count = self.illegal[by.index()].saturating_add(1);
        self.emit(
            Event::IllegalMove {
                color: by,
                count,
                at: now,
            },
            out,
        )?;
        if count >= penalty.losing {
            let outcome = if opponent_can_mate {
                Outcome::win(by.other())
            } else {
                Outcome::Draw
            };
            return self.end(outcome, Reason::IllegalMoves, now, out);
        }
        let bonus = penalty.bonus;
        let opponent = by.other();
        let time = self.clock.view(opponent.side(), now).main + bonus;
        self.emit(
            Event::TimeSet {
                color: opponent,
                time,
                why: format!(
                    "{}: {by:?}'s illegal move gives {opponent:?} {bonus}",
                    penalty.article
                ),
                at: now,
            },
            out,
        )?;
        if self.to_move() == Some(opponent) {
            self.emit(Event::Reinstated { color: by, at: now }, out)?;
        }
        Ok(())
    }

    /// Both flags fell and which fell first is unknown (6.11).
    fn flag_order_unknown(
        &mut self,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        if self.flags.len() < 2 {
            return Err(ChessError::rule("6.11", "both flags must have fallen"));
        }
        let last_period = [Side::A, Side::B].iter().all(|s| {
            let v = self.clock.view(*s, now);
            self.setup.control.period(v.period).moves.is_none()
        });
        if last_period {
            self.end(Outcome::Draw, Reason::BothFlags, now, out)
        } else {
            // 6.11 (a): the game continues; the arbiter sets the times (6.10).
            self.emit(Event::FlagOrderUnknown { at: now }, out)
        }
    }

    fn stopped(&self, article: &'static str) -> Result<(), ChessError> {
        if self.clock.running().is_some() && self.clock.pause().is_none() {
            return Err(ChessError::rule(article, "stop the clocks first"));
        }
        Ok(())
    }

    fn end(
        &mut self,
        outcome: Outcome,
        reason: Reason,
        at: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        self.emit(
            Event::Ended {
                result: GameResult { outcome, reason },
                at,
            },
            out,
        )
    }

    fn emit(&mut self, event: Event, out: &mut Vec<Event>) -> Result<(), ChessError> {
        self.evolve(&event)?;
        out.push(event);
        Ok(())
    }

    /// Folds `event` into the game.
    pub fn evolve(&mut self, event: &Event) -> Result<(), ChessError> {
        match *event {
            Event::Started { at } => {
                self.started = true;
                self.clock.start(Side::A, at)?;
            }
            Event::Arrived { color, at } => {
                self.clock = self.clock.at(at);
                self.present[color.index()] = true;
            }
            Event::Pressed { color, at } => {
                self.made = None;
                self.clock.press(color.side(), at)?
            }
            Event::MoveMade { color, at } => self.made = Some((color, at)),
            Event::FlagFell {
                color,
                at,
                noticed_at,
                ..
            } => {
                self.clock = self.clock.at(at);
                self.flags.push((color, at));
                self.flag_notices.push(noticed_at);
            }
            Event::Paused { ref reason, at } => {
                let reason = PauseReason::from_name(reason)
                    .ok_or_else(|| ChessError::state(format!("unknown pause reason {reason}")))?;
                self.clock.pause_for(reason, at)?;
            }
            Event::Resumed { at } => {
                self.clock.resume(at)?;
                if !self.claim_postponed {
                    self.claim = None;
                }
            }
            Event::Reinstated { color, at } => {
                self.made = None;
                self.clock.hand_back(color.side(), at)?
            }
            Event::QuickplayPostponed { .. } => self.claim_postponed = true,
            Event::QuickplayDismissed { .. } => {
                self.claim = None;
                self.claim_postponed = false;
            }
            Event::TimeSet {
                color, time, at, ..
            } => self.clock.set_time(color.side(), time, at)?,
            Event::MovesSet { color, moves, at } => {
                self.clock.set_moves(color.side(), moves, at)?
            }
            Event::IllegalMove { color, count, .. } => self.illegal[color.index()] = count,
            Event::Excused { color, .. } => self.excused[color.index()] = true,
            Event::FlagOrderUnknown { .. } => {
                self.flags.clear();
                self.flag_notices.clear();
            }
            Event::QuickplayClaimed { color, .. } => self.claim = Some(color),
            Event::IncrementIntroduced { at } => self.introduce_increment(at)?,
            Event::Ended { result, at } => {
                if self.clock.running().is_some() && !self.clock.is_frozen() {
                    self.clock.stop(at)?;
                }
                self.result = Some(result);
            }
        }
        Ok(())
    }

    /// Replaces the clock by one with a 5-second increment for both, keeping each
    /// side's time and move count, the pause and whose turn it is.
    fn introduce_increment(&mut self, at: Timestamp) -> Result<(), ChessError> {
        let control = TimeControl::single(
            Millis::ZERO,
            TimingMethod::Fischer {
                increment: QUICKPLAY_INCREMENT,
            },
        )
        .map_err(|e| ChessError::state(e.0))?;
        let mut clock = Clock::new(control, at);
        for side in Side::BOTH {
            let v = self.clock.view(side, at);
            clock.set_time(side, v.main, at)?;
            clock.set_moves(side, v.moves, at)?;
        }
        if let Some(side) = self.clock.running() {
            clock.start(side, at)?;
            if let Some(p) = self.clock.pause() {
                clock.pause_for(p.reason, at)?;
            }
        }
        self.clock = clock;
        Ok(())
    }
}
