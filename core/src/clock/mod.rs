//! One clock for every game.
//!
//! [`Clock`] is a two-sided game clock as a value: every operation takes the current time
//! and either changes the clock or returns a [`ClockError`] and changes nothing. Nothing
//! here reads the system clock, so a 12-second delay is tested by passing a time 12
//! seconds later.
//!
//! The clock is *lazy*: it remembers when the running side's turn was last settled and
//! computes the time used on demand. A flag therefore falls at an exact instant
//! ([`Clock::next_flag_at`]) even if nobody looks until later; an operation dated after
//! that instant sees the flag first.
//!
//! ```
//! use baffle_core::clock::{Clock, TimeControl};
//! use baffle_core::{Millis, Side, Timestamp};
//!
//! // A 7-point backgammon match: 14 minutes each, 12-second simple delay.
//! let mut clock = Clock::new(TimeControl::backgammon_default(7).unwrap(), Timestamp(0));
//! clock.start(Side::A, Timestamp(0)).unwrap();
//! // A thinks for 20 s: the first 12 s are delay, 8 s come off the reserve.
//! clock.press(Side::A, Timestamp(20_000)).unwrap();
//! assert_eq!(clock.view(Side::A, Timestamp(20_000)).main, Millis::mins(14) - Millis::secs(8));
//! assert_eq!(clock.running(), Some(Side::B));
//! ```
//!
//! Choices where the rules leave room follow the DGT 3000 and are listed in
//! `docs/clock.md`.

mod control;
mod error;
mod overtime;
mod pause;
mod side;

pub use control::{
    BACKGAMMON_DELAY, BACKGAMMON_PER_POINT, ControlError, MAX_BASE, MAX_BYO_YOMI_PERIODS,
    MAX_MOVES, MAX_OVERTIME, MAX_PER_MOVE, MAX_PERIODS, MAX_SET_MOVES, MAX_SET_TIME, Period,
    Preset, TimeControl, TimingMethod, presets,
};
pub use error::ClockError;
pub use pause::PauseReason;
pub use side::Stage;

use std::sync::Arc;

use overtime::{fischer_increment, overtime_reserve, take};
use side::SideClock;

use crate::side::Side;
use crate::time::{Millis, Timestamp};

/// A flag that fell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Flag {
    /// Whose flag.
    pub side: Side,
    /// The exact instant the side's time reached zero.
    pub at: Timestamp,
}

/// One side's clock as seen at a given time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideView {
    /// Time left in the current stage (main time, or the current overtime period). With
    /// count-up, the time used. Never negative.
    pub main: Millis,
    /// Delay left on this turn if the side is on turn; otherwise the delay its next turn
    /// starts with. Zero for methods without a delay.
    pub delay: Millis,
    /// Moves completed in the game.
    pub moves: u32,
    /// Index of the period in force (0 = first).
    pub period: usize,
    /// Moves completed in the current period.
    pub moves_in_period: u32,
    /// Main time or an overtime stage.
    pub stage: Stage,
    /// All the time left before the flag falls, delay aside: `main` plus any overtime
    /// periods not yet entered. This is what a DGT 3000 displays in byo-yomi. With
    /// count-up, the time used.
    pub total: Millis,
    /// When this side's flag fell, if it has.
    pub flagged_at: Option<Timestamp>,
    /// Whether this side must wait out the delay on its current turn (if on turn) or next.
    pub must_wait_delay: bool,
}

/// The turn in progress: whose clock runs and how much of the delay it has used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Turn {
    side: Side,
    /// Time up to which this turn has been charged.
    since: Timestamp,
    /// Time on turn since the delay (re)started; decides what delay is left.
    delay_used: Millis,
    /// This turn may not end before the delay has run out.
    must_wait: bool,
}

/// A pause in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pause {
    /// Why.
    pub reason: PauseReason,
    /// Since when.
    pub since: Timestamp,
}

/// A two-sided game clock. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    control: Arc<TimeControl>,
    sides: [SideClock; 2],
    turn: Option<Turn>,
    pause: Option<Pause>,
    first_flag: Option<Flag>,
    last: Timestamp,
}

impl Clock {
    /// A stopped clock set to `control`, created at `now`. As on a DGT 3000, a first
    /// period with Fischer increment starts with the increment for move 1 already added.
    pub fn new(control: TimeControl, now: Timestamp) -> Clock {
        let first = *control.period(0);
        let side = SideClock {
            main: first.base + fischer_increment(first.method),
            period: 0,
            moves: 0,
            moves_in_period: 0,
            stage: Stage::Main,
            flagged_at: None,
            wait_next_turn: false,
        };
        Clock {
            control: Arc::new(control),
            sides: [side; 2],
            turn: None,
            pause: None,
            first_flag: None,
            last: now,
        }
    }

    // ---- queries ----

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Whose turn it is: the side whose clock runs, or would run if not paused.
    pub fn running(&self) -> Option<Side> {
        self.turn.map(|t| t.side)
    }

    /// The pause in force, if any.
    pub fn pause(&self) -> Option<Pause> {
        self.pause
    }

    /// The first flag to fall in this game, if any. A networked clock always knows it.
    pub fn first_flag(&self) -> Option<Flag> {
        self.first_flag
    }

    /// True when a flag fell and the clock froze: nothing runs until the director
    /// corrects the time.
    pub fn is_frozen(&self) -> bool {
        self.control.freeze_at_flag() && self.sides.iter().any(|s| s.flagged_at.is_some())
    }

    /// The time of the clock's last operation. Operations dated earlier are refused.
    pub fn last_operation(&self) -> Timestamp {
        self.last
    }

    /// The exact instant the running side's flag will fall if nothing happens first, or
    /// `None` when no flag can fall (stopped, paused, count-up, already flagged).
    pub fn next_flag_at(&self) -> Option<Timestamp> {
        let turn = self.turn.filter(|_| self.pause.is_none())?;
        self.time_to_flag(turn).map(|left| turn.since + left)
    }

    /// One side's clock as it stands at `now` (a time before the last operation reads as
    /// the last operation).
    pub fn view(&self, side: Side, now: Timestamp) -> SideView {
        let settled = self.at(now);
        let s = settled.sides[side.index()];
        let delay = self.control.period(s.period).method.delay();
        let (delay, must_wait) = match settled.turn.filter(|t| t.side == side) {
            Some(t) => ((delay - t.delay_used).max(Millis::ZERO), t.must_wait),
            None => (delay, s.wait_next_turn),
        };
        SideView {
            main: s.main,
            delay,
            moves: s.moves,
            period: s.period,
            moves_in_period: s.moves_in_period,
            stage: s.stage,
            total: s.main + overtime_reserve(self.control.period(s.period).method, s.stage),
            flagged_at: s.flagged_at,
            must_wait_delay: must_wait,
        }
    }

    /// The clock as it stands at `now`: the running side charged up to `now`, any flag
    /// that fell by then recorded at its exact instant.
    pub fn at(&self, now: Timestamp) -> Clock {
        let mut c = self.clone();
        c.settle(now.max(self.last));
        c
    }

    // ---- operations ----

    /// A stopped clock put on a time line that starts at `start` (a match moved before
    /// its first game, 2.2): operations from `start` on are accepted, even if it is
    /// earlier than the last. A running clock is refused: its elapsed time would be lost.
    pub fn move_start(&mut self, start: Timestamp) -> Result<(), ClockError> {
        if let Some(turn) = self.turn {
            return Err(ClockError::AlreadyRunning(turn.side));
        }
        self.last = start;
        Ok(())
    }

    /// Starts `side`'s clock (chess 6.5/6.6: White's clock at the start time; backgammon:
    /// the first player of a game after the opening roll).
    pub fn start(&mut self, side: Side, now: Timestamp) -> Result<(), ClockError> {
        self.apply(now, |c| {
            c.refuse_if_frozen()?;
            if let Some(t) = c.turn {
                return Err(ClockError::AlreadyRunning(t.side));
            }
            c.begin_turn(side, now);
            Ok(())
        })
    }

    /// `side` ends its turn: the move is counted, increments, refunds and period changes
    /// are applied, and the opponent's clock starts (chess 6.2; backgammon 4.2 (i)).
    pub fn press(&mut self, side: Side, now: Timestamp) -> Result<(), ClockError> {
        self.apply(now, |c| {
            c.refuse_if_frozen()?;
            let turn = c.turn.ok_or(ClockError::NotRunning)?;
            if let Some(p) = c.pause {
                return Err(ClockError::Paused(p.reason));
            }
            if turn.side != side {
                return Err(ClockError::NotOnTurn {
                    pressed: side,
                    running: turn.side,
                });
            }
            let completed = *c.control.period(c.sides[side.index()].period);
            let delay = completed.method.delay();
            if turn.must_wait && turn.delay_used < delay {
                return Err(ClockError::MustWaitDelay {
                    left: delay - turn.delay_used,
                });
            }
            c.complete_move(side, completed, turn.delay_used);
            c.begin_turn(side.other(), now);
            Ok(())
        })
    }

    /// Stops the clock with nobody running (a game ended). Clears any pause.
    pub fn stop(&mut self, now: Timestamp) -> Result<(), ClockError> {
        self.apply(now, |c| {
            if c.turn.is_none() {
                return Err(ClockError::NotRunning);
            }
            c.turn = None;
            c.pause = None;
            Ok(())
        })
    }

    /// Pauses the running clock for `reason`. Time stands still until [`Clock::resume`];
    /// the delay left on the turn is kept.
    pub fn pause_for(&mut self, reason: PauseReason, now: Timestamp) -> Result<(), ClockError> {
        self.apply(now, |c| {
            if let Some(p) = c.pause {
                return Err(ClockError::Paused(p.reason));
            }
            if c.turn.is_none() {
                return Err(ClockError::NotRunning);
            }
            c.pause = Some(Pause { reason, since: now });
            Ok(())
        })
    }

    /// Resumes a paused clock: the same side's clock runs again from where it stood.
    pub fn resume(&mut self, now: Timestamp) -> Result<(), ClockError> {
        self.apply(now, |c| {
            c.pause.take().ok_or(ClockError::NotPaused)?;
            if let Some(t) = c.turn.as_mut() {
                t.since = now;
            }
            Ok(())
        })
    }

    /// Restarts the delay of the turn in progress (backgammon 4.3 (vi): after an invalid
    /// roll; 4.2 (iii)(c): an illegal move to be replayed). With Bronstein delay the
    /// part of the delay used so far is given back first, so both delay methods agree.
    /// With `must_wait`, the turn may not end before the fresh delay has run out.
    pub fn restart_delay(&mut self, must_wait: bool, now: Timestamp) -> Result<(), ClockError> {
        self.apply(now, |c| {
            c.refuse_if_frozen()?;
            let mut turn = c.turn.ok_or(ClockError::NotRunning)?;
            let s = &mut c.sides[turn.side.index()];
            if let TimingMethod::Bronstein { delay } = c.control.period(s.period).method {
                s.main += turn.delay_used.min(delay);
            }
            turn.delay_used = Millis::ZERO;
            turn.must_wait |= must_wait;
            c.turn = Some(turn);
            Ok(())
        })
    }

    /// Gives the turn back to `side` without a press: the opponent's clock stops, his
    /// runs (or will, once a pause ends) with a fresh delay, and his last move is not
    /// counted (chess 2009 7.4 (a), 2014 7.5 (a): after an illegal move the position
    /// before it is reinstated and the offender moves again). Times are left as they are:
    /// setting them is the arbiter's judgement (2009 6.13, 2014 7.1).
    pub fn hand_back(&mut self, side: Side, now: Timestamp) -> Result<(), ClockError> {
        self.apply(now, |c| {
            c.refuse_if_frozen()?;
            let turn = c.turn.ok_or(ClockError::NotRunning)?;
            if turn.side == side {
                return Err(ClockError::AlreadyRunning(side));
            }
            let moves = c.sides[side.index()].moves.saturating_sub(1);
            c.count_moves(side, moves);
            c.begin_turn(side, now);
            Ok(())
        })
    }

    /// On `side`'s next turn the move may be made only after the delay has run out: he
    /// loses the benefit of the delay for one turn (backgammon 4.1 (v)(b)).
    pub fn wait_out_delay_next_turn(
        &mut self,
        side: Side,
        now: Timestamp,
    ) -> Result<(), ClockError> {
        self.apply(now, |c| {
            c.sides[side.index()].wait_next_turn = true;
            Ok(())
        })
    }

    /// Sets the time left in `side`'s current stage (chess 6.10; backgammon 3.7, 4.3 (v)).
    /// Time above zero clears the side's flag; zero makes it fall now.
    pub fn set_time(&mut self, side: Side, time: Millis, now: Timestamp) -> Result<(), ClockError> {
        check_set_time(time)?;
        self.apply(now, |c| {
            let s = &mut c.sides[side.index()];
            s.main = time;
            c.after_time_change(side, now);
            Ok(())
        })
    }

    /// Adds (`delta` > 0) or deducts (`delta` < 0) time: penalties, time restored after a
    /// wrong activation (backgammon 4.3 (v)), two minutes for an illegal move (chess 7.5).
    /// A deduction moves into overtime stages as running time would, and makes the flag
    /// fall now if it takes everything; an addition clears the flag.
    pub fn adjust(&mut self, side: Side, delta: Millis, now: Timestamp) -> Result<(), ClockError> {
        if delta.as_ms().unsigned_abs() > MAX_SET_TIME.as_ms().unsigned_abs() {
            return Err(ClockError::OutOfBounds {
                what: "a time adjustment",
                value: delta,
                bound: MAX_SET_TIME,
            });
        }
        self.apply(now, |c| {
            let method = c.control.period(c.sides[side.index()].period).method;
            let s = &mut c.sides[side.index()];
            if delta >= Millis::ZERO || matches!(method, TimingMethod::CountUp) {
                s.main += delta;
                s.main = s.main.max(Millis::ZERO);
            } else {
                take(s, method, -delta);
            }
            c.after_time_change(side, now);
            Ok(())
        })
    }

    /// Corrects `side`'s move counter (chess 6.10). The period in force follows from the
    /// count; the time is not changed (the arbiter sets it with [`Clock::set_time`]).
    pub fn set_moves(&mut self, side: Side, moves: u32, now: Timestamp) -> Result<(), ClockError> {
        if moves > MAX_SET_MOVES {
            return Err(ClockError::TooManyMoves(moves));
        }
        self.apply(now, |c| {
            c.count_moves(side, moves);
            Ok(())
        })
    }

    /// Gives both sides a fresh allotment of `time` in the first period, with move
    /// counters, flags and pending delay waits cleared: a clock imposed mid-match
    /// (backgammon 3.5 (vi), 2.3). The clock must be stopped.
    pub fn impose(&mut self, time: Millis, now: Timestamp) -> Result<(), ClockError> {
        check_set_time(time)?;
        self.apply(now, |c| {
            if let Some(t) = c.turn {
                return Err(ClockError::AlreadyRunning(t.side));
            }
            let fresh = Clock::new((*c.control).clone(), now);
            c.sides = fresh.sides;
            for s in &mut c.sides {
                s.main = time;
            }
            c.first_flag = None;
            Ok(())
        })
    }

    // ---- internals ----

    /// Runs `op` on a settled copy and keeps the result only if `op` succeeds, so a
    /// refused operation changes nothing.
    fn apply(
        &mut self,
        now: Timestamp,
        op: impl FnOnce(&mut Clock) -> Result<(), ClockError>,
    ) -> Result<(), ClockError> {
        if now < self.last {
            return Err(ClockError::TimeWentBackwards {
                last: self.last,
                now,
            });
        }
        let mut next = self.clone();
        next.settle(now);
        op(&mut next)?;
        *self = next;
        Ok(())
    }

    fn refuse_if_frozen(&self) -> Result<(), ClockError> {
        if !self.is_frozen() {
            return Ok(());
        }
        let (side, at) = Side::BOTH
            .into_iter()
            .find_map(|side| self.sides[side.index()].flagged_at.map(|at| (side, at)))
            .expect("a frozen clock has a flag");
        Err(ClockError::Frozen { side, at })
    }

    /// Time the running turn can still last before the flag falls.
    fn time_to_flag(&self, turn: Turn) -> Option<Millis> {
        let s = &self.sides[turn.side.index()];
        if s.flagged_at.is_some() {
            return None;
        }
        let method = self.control.period(s.period).method;
        let reserve = s.main + overtime_reserve(method, s.stage);
        match method {
            TimingMethod::SimpleDelay { delay } => {
                Some((delay - turn.delay_used).max(Millis::ZERO) + reserve)
            }
            TimingMethod::CountUp => None,
            _ => Some(reserve),
        }
    }

    /// Charges the running side for the time from its last settlement up to `now`,
    /// recording a flag at the exact instant it falls.
    fn settle(&mut self, now: Timestamp) {
        self.last = self.last.max(now);
        let Some(mut turn) = self.turn else { return };
        if self.pause.is_some() || now <= turn.since {
            return;
        }
        let elapsed = now - turn.since;
        let to_flag = self.time_to_flag(turn);
        let charged = to_flag.map_or(elapsed, |f| elapsed.min(f));
        let side = &mut self.sides[turn.side.index()];
        let method = self.control.period(side.period).method;
        if side.flagged_at.is_none() {
            let free = (method.delay() - turn.delay_used).max(Millis::ZERO);
            match method {
                TimingMethod::SimpleDelay { .. } => take(side, method, charged - charged.min(free)),
                TimingMethod::CountUp => side.main += charged,
                _ => take(side, method, charged),
            }
        }
        turn.delay_used += elapsed;
        turn.since = now;
        self.turn = Some(turn);
        if let Some(f) = to_flag.filter(|f| elapsed >= *f) {
            let at = turn.since - elapsed + f;
            self.flag(turn.side, at);
        }
    }

    fn flag(&mut self, side: Side, at: Timestamp) {
        let s = &mut self.sides[side.index()];
        if s.flagged_at.is_some() {
            return;
        }
        s.main = Millis::ZERO;
        s.flagged_at = Some(at);
        self.first_flag.get_or_insert(Flag { side, at });
        if self.control.freeze_at_flag() {
            // Frozen: nothing runs any more, and no increment is ever added.
            self.turn = None;
            self.pause = None;
        }
    }

    /// After the director set or adjusted a side's time: zero means the flag falls now;
    /// more clears the flag so play can go on.
    fn after_time_change(&mut self, side: Side, now: Timestamp) {
        let s = &mut self.sides[side.index()];
        let counts_up = matches!(self.control.period(s.period).method, TimingMethod::CountUp);
        if s.main > Millis::ZERO || counts_up {
            s.flagged_at = None;
        } else if s.flagged_at.is_none() {
            self.flag(side, now);
        }
    }

    /// Sets `side`'s move counter, and with it the period in force (a new period starts
    /// in its main time); the time is not changed.
    fn count_moves(&mut self, side: Side, moves: u32) {
        let (period, in_period) = self.control.period_after(moves);
        let s = &mut self.sides[side.index()];
        if s.period != period {
            s.stage = Stage::Main;
        }
        s.moves = moves;
        s.period = period;
        s.moves_in_period = in_period;
    }

    fn begin_turn(&mut self, side: Side, now: Timestamp) {
        let s = &mut self.sides[side.index()];
        let must_wait = std::mem::take(&mut s.wait_next_turn);
        self.turn = Some(Turn {
            side,
            since: now,
            delay_used: Millis::ZERO,
            must_wait,
        });
    }

    /// Counts a completed move and applies what the method gives for it, then moves to
    /// the next period when this one's move count is reached (chess 6.3).
    fn complete_move(&mut self, side: Side, completed: Period, delay_used: Millis) {
        let s = &mut self.sides[side.index()];
        if s.flagged_at.is_some() {
            // A flagged side on a clock without freeze keeps zero: nothing is added.
            s.moves = s.moves.saturating_add(1);
            s.moves_in_period = s.moves_in_period.saturating_add(1);
            return;
        }
        s.moves = s.moves.saturating_add(1);
        s.moves_in_period = s.moves_in_period.saturating_add(1);
        match (completed.method, s.stage) {
            (TimingMethod::Bronstein { delay }, _) => s.main += delay_used.min(delay),
            (TimingMethod::ByoYomi { period_time, .. }, Stage::ByoYomi { .. }) => {
                s.main = period_time
            }
            (TimingMethod::Canadian { moves, period_time }, Stage::Canadian { moves_left }) => {
                if moves_left <= 1 {
                    s.main = period_time;
                    s.stage = Stage::Canadian { moves_left: moves };
                } else {
                    s.stage = Stage::Canadian {
                        moves_left: moves_left - 1,
                    };
                }
            }
            _ => {}
        }
        let last_period = s.period + 1 >= self.control.periods().len();
        if !last_period && completed.moves == Some(s.moves_in_period) {
            // Saved main time carries over (chess 6.3 (b)); time left in an overtime
            // stage belongs to that stage and does not.
            let carried = if s.stage == Stage::Main {
                s.main
            } else {
                Millis::ZERO
            };
            s.period += 1;
            s.moves_in_period = 0;
            s.stage = Stage::Main;
            s.main = carried + self.control.period(s.period).base;
        }
        // The increment of the period in which the next move falls: with "30 s per move
        // from move 1" this is the same as adding 30 s after every move.
        s.main += fischer_increment(self.control.period(s.period).method);
    }
}

/// A time a director sets: not negative, and within [`MAX_SET_TIME`].
fn check_set_time(time: Millis) -> Result<(), ClockError> {
    if time < Millis::ZERO {
        return Err(ClockError::NegativeTime(time));
    }
    if time > MAX_SET_TIME {
        return Err(ClockError::OutOfBounds {
            what: "a clock time",
            value: time,
            bound: MAX_SET_TIME,
        });
    }
    Ok(())
}
