//! The fold: how each event changes a match. `handle` validates commands by applying the
//! events it emits to a copy, so replaying a log and handling commands share this code.

use super::command::{DirectorAction, GameKind, VoidReason};
use super::cube::Cube;
use super::event::{Change, Event, Expiry, GameEnd};
use super::{FinishedGame, Game, Match, MatchResult, RuleError, Turn};
use crate::clock::{Clock, ClockError, TimeControl};
use crate::side::Side;
use crate::time::{Millis, Timestamp};

impl Match {
    /// Applies one event. Events come from [`Match::handle`] (or a log it wrote), so
    /// they are valid; an error here means the log does not belong to this match.
    pub fn apply(&mut self, event: &Event) -> Result<(), RuleError> {
        let at = event.at;
        match &event.change {
            Change::CheckedIn { .. }
            | Change::LatenessPoint { .. }
            | Change::BreakStarted { .. }
            | Change::BreakEnded => self.apply_attendance(&event.change, at)?,
            Change::GameStarted { .. }
            | Change::OpeningThrow { .. }
            | Change::Rolled { .. }
            | Change::RollInvalid { .. }
            | Change::Pressed { .. }
            | Change::TurnReplayed { .. } => self.apply_play(&event.change, at)?,
            Change::Doubled { .. } | Change::Taken { .. } | Change::Passed { .. } => {
                self.apply_cube(&event.change, at)?
            }
            Change::Paused { .. }
            | Change::Resumed
            | Change::DelayRestarted
            | Change::WaitOutDelay { .. }
            | Change::TimeExpired { .. } => self.apply_clock(&event.change, at)?,
            Change::GameEnded { .. }
            | Change::LengthCorrected { .. }
            | Change::LengthKept { .. }
            | Change::MatchEnded { .. }
            | Change::MatchResumed => self.apply_result(&event.change, at)?,
            Change::Ruled { action, .. } => self.apply_director(action, at)?,
            Change::Moved { .. } => {}
        }
        self.follow_board(&event.change)?;
        self.now = self.now.max(at);
        Ok(())
    }

    /// Presence, lateness and breaks (2.2).
    fn apply_attendance(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
        match change {
            Change::CheckedIn { side } => self.present[side.index()] = true,
            Change::LatenessPoint { late } => {
                let to = late.other().index();
                self.score[to] += 1;
                self.penalty_received[to] += 1;
                self.lateness_charged[late.index()] += 1;
            }
            Change::BreakStarted { side, until } => {
                self.breaks_taken[side.index()] += 1;
                self.present[side.index()] = false;
                self.break_until = Some(*until);
                self.lateness_from = None;
                let counts = self.setup.clock.is_some_and(|c| c.breaks_in_match_time);
                if let Some(clock) = self
                    .clock
                    .as_mut()
                    .filter(|c| counts && c.running().is_none())
                {
                    clock.start(*side, at)?;
                }
            }
            Change::BreakEnded => {
                self.break_until = None;
                self.lateness_from = Some(at);
                self.lateness_charged = [0; 2];
                self.stop_clock(at)?;
            }
            _ => unreachable!("routed by apply"),
        }
        Ok(())
    }

    /// The play of a game: its start, the opening, rolls and presses (3, 4.1, 4.2).
    fn apply_play(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
        match change {
            Change::GameStarted { number, crawford } => {
                self.game = Some(Game {
                    number: *number,
                    crawford: *crawford,
                    cube: (!crawford).then_some(Cube::CENTRED),
                    cube_turns: Vec::new(),
                    turn: Turn::Opening,
                    score_at_start: self.score,
                    last_move: None,
                    premature_roll: None,
                    premature_double: None,
                });
                self.lateness_from = None;
            }
            Change::OpeningThrow { throw, .. } => {
                if throw[0] != throw[1] {
                    let first = if throw[0] > throw[1] {
                        Side::A
                    } else {
                        Side::B
                    };
                    self.game_mut()?.turn = Turn::Moving {
                        side: first,
                        dice: *throw,
                    };
                    if let Some(clock) = self.clock.as_mut().filter(|c| c.running().is_none()) {
                        clock.start(first, at)?;
                    }
                }
            }
            Change::Rolled {
                side,
                dice,
                premature,
                ..
            } => {
                let game = self.game_mut()?;
                if *premature {
                    game.premature_roll = Some((*side, *dice));
                } else {
                    game.turn = Turn::Moving {
                        side: *side,
                        dice: *dice,
                    };
                }
            }
            Change::RollInvalid { side } => {
                self.game_mut()?.turn = Turn::OnRoll {
                    side: *side,
                    may_double: false,
                };
            }
            Change::Pressed { side } => {
                let game = self.game_mut()?;
                if let Turn::Moving { dice, .. } = game.turn {
                    game.last_move = Some((*side, dice));
                }
                // A premature double either takes effect now (a `Doubled` follows) or lapses.
                game.premature_double = None;
                game.turn = match game.premature_roll.take() {
                    Some((roller, dice)) => Turn::Moving { side: roller, dice },
                    None => Turn::OnRoll {
                        side: side.other(),
                        may_double: true,
                    },
                };
                self.press_clock(*side, at)?;
            }
            Change::TurnReplayed { offender } => {
                let game = self.game_mut()?;
                let (_, dice) = game
                    .last_move
                    .ok_or_else(|| RuleError::state("no move to replay"))?;
                game.turn = Turn::Moving {
                    side: *offender,
                    dice,
                };
                self.stop_clock(at)?;
                let clock = self.clock_mut()?;
                clock.wait_out_delay_next_turn(*offender, at)?;
                clock.start(*offender, at)?;
            }
            _ => unreachable!("routed by apply"),
        }
        Ok(())
    }

    /// The cube (4.4).
    fn apply_cube(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
        match change {
            Change::Doubled {
                side, premature, ..
            } => {
                let game = self.game_mut()?;
                if *premature {
                    game.premature_double = Some(*side);
                } else {
                    let before = game
                        .cube
                        .ok_or_else(|| RuleError::state("no cube in this game"))?;
                    game.cube_turns.push(super::CubeTurn {
                        by: *side,
                        before,
                        taken: false,
                    });
                    game.turn = Turn::DoubleOffered { by: *side };
                    game.premature_double = None;
                    self.press_clock(*side, at)?;
                }
            }
            Change::Taken { side } => {
                let game = self.game_mut()?;
                let cube = game
                    .cube
                    .as_mut()
                    .ok_or_else(|| RuleError::state("no cube in this game"))?;
                *cube = Cube {
                    value: cube.value * 2,
                    owner: Some(*side),
                };
                if let Some(t) = game.cube_turns.last_mut() {
                    t.taken = true;
                }
                game.turn = Turn::OnRoll {
                    side: side.other(),
                    may_double: true,
                };
                self.press_clock(*side, at)?;
            }
            Change::Passed { .. } => self.stop_clock(at)?,
            _ => unreachable!("routed by apply"),
        }
        Ok(())
    }

    /// The clock: pauses, delays and expiries (4.3).
    fn apply_clock(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
        match change {
            Change::Paused { reason } => self.clock_mut()?.pause_for(*reason, at)?,
            Change::Resumed => self.clock_mut()?.resume(at)?,
            Change::DelayRestarted => self.clock_mut()?.restart_delay(false, at)?,
            Change::WaitOutDelay { side } => {
                self.clock_mut()?.wait_out_delay_next_turn(*side, at)?
            }
            Change::TimeExpired { side, expiry, .. } => {
                self.expiries[side.index()] += 1;
                match *expiry {
                    Expiry::LoseMatch => {}
                    Expiry::Overtime { time } => {
                        self.clock_mut()?.adjust(*side, time, at)?;
                        self.restart_clock(at)?;
                    }
                    Expiry::PenaltyPoints { points, reserve } => {
                        self.score[side.other().index()] += points;
                        self.clock_mut()?.set_time(*side, reserve, at)?;
                        self.restart_clock(at)?;
                    }
                }
            }
            _ => unreachable!("routed by apply"),
        }
        Ok(())
    }

    /// Results: games, the match, its length (4.5, 4.6, 4.8).
    fn apply_result(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
        match change {
            Change::GameEnded {
                winner,
                result: kind,
                cube,
                points,
                how,
            } => {
                let game = self
                    .game
                    .take()
                    .ok_or_else(|| RuleError::state("no game in progress"))?;
                self.score[winner.index()] += points;
                self.games.push(FinishedGame {
                    number: game.number,
                    crawford: game.crawford,
                    winner: *winner,
                    kind: *kind,
                    cube: *cube,
                    points: *points,
                    how: *how,
                    cube_turns: game.cube_turns,
                    score_at_start: game.score_at_start,
                });
                self.stop_clock(at)?;
            }
            Change::LengthCorrected { length } => {
                self.length = *length;
                self.pending_length = None;
            }
            Change::LengthKept { .. } => self.pending_length = None,
            Change::MatchEnded { winner, how } => {
                self.result = Some(MatchResult {
                    winner: *winner,
                    how: *how,
                    confirmed: false,
                });
                self.game = None;
                self.lateness_from = None;
                self.break_until = None;
                self.stop_clock(at)?;
            }
            Change::MatchResumed => self.result = None,
            _ => unreachable!("routed by apply"),
        }
        Ok(())
    }

    fn apply_director(&mut self, action: &DirectorAction, at: Timestamp) -> Result<(), RuleError> {
        match *action {
            DirectorAction::Warning { .. }
            | DirectorAction::ForfeitGame { .. }
            | DirectorAction::ForfeitMatch { .. } => {} // the events that follow say what changes
            DirectorAction::AwardPoints { to, points } => {
                self.score[to.index()] += points;
                self.penalty_received[to.index()] += points;
            }
            DirectorAction::DeductPoints { from, points } => {
                self.score[from.index()] = self.score[from.index()].saturating_sub(points);
            }
            DirectorAction::AdjustTime { side, delta } => {
                self.clock_mut()?.adjust(side, delta, at)?
            }
            DirectorAction::SetTime { side, time } => self.clock_mut()?.set_time(side, time, at)?,
            DirectorAction::ImposeClock { per_point, delay } => {
                let needed: u32 = Side::BOTH.iter().map(|s| self.points_needed(*s)).sum();
                // ((PA + PB) / 2) × T, exactly: (PA + PB) × T / 2.
                let allotment = Millis(per_point.as_ms() * i64::from(needed) / 2);
                let control = TimeControl::backgammon(self.length, per_point, delay)
                    .map_err(|e| RuleError::rule("3.5", e.to_string()))?;
                let mut clock = Clock::new(control, at);
                clock.impose(allotment, at)?;
                self.clock = Some(clock);
                self.clock_initial = allotment;
                self.expiries = [0; 2];
            }
            DirectorAction::RemoveClock => self.clock = None,
            DirectorAction::VoidDouble { reason } => self.void_double(reason, at)?,
            DirectorAction::CorrectCube { value, owner } => {
                self.game_mut()?.cube = Some(Cube { value, owner });
            }
            DirectorAction::CorrectScore { a, b } => {
                self.score = [a, b];
                let crawford_now = !self.games.iter().any(|g| g.crawford)
                    && self.score.iter().any(|&s| s + 1 == self.length);
                if let Some(game) = self.game.as_mut().filter(|g| crawford_now && !g.crawford) {
                    // The game in progress began at the corrected score: it is the
                    // Crawford game. A centred cube goes at once; a turned one waits for
                    // the director to void the double (4.4 (iv)).
                    game.crawford = true;
                    if game.cube == Some(Cube::CENTRED) {
                        game.cube = None;
                    }
                }
            }
            DirectorAction::CorrectLength { length } => {
                if self.game.is_some() {
                    self.pending_length = Some(length);
                }
            }
            DirectorAction::ConfirmResult => {
                if let Some(r) = self.result.as_mut() {
                    r.confirmed = true;
                }
            }
            DirectorAction::CorrectResult { game, winner, kind } => {
                let g = self
                    .games
                    .iter_mut()
                    .find(|g| g.number == game)
                    .ok_or_else(|| RuleError::state(format!("no finished game {game}")))?;
                let kind = if g.how == GameEnd::Pass {
                    GameKind::Single
                } else {
                    kind
                };
                let points = kind.multiplier() * g.cube;
                self.score[g.winner.index()] =
                    self.score[g.winner.index()].saturating_sub(g.points);
                self.score[winner.index()] += points;
                (g.winner, g.kind, g.points) = (winner, kind, points);
            }
        }
        Ok(())
    }

    /// Voids a Crawford or dead-cube double (4.4 (iv), (vii)): in the game in progress
    /// (a), or in the last game when the next has not started (b), even if it ended the
    /// match (c); the score follows the corrected cube. Such a double can only have been
    /// accepted because the score or length on record was wrong, so the director's ruling
    /// decides: a Crawford void removes every double of the game and makes it the Crawford
    /// game; a dead-cube void undoes the game's last redouble, and the previous (dead)
    /// value decides the points.
    fn void_double(&mut self, reason: VoidReason, at: Timestamp) -> Result<(), RuleError> {
        let first_void = |turns: &[super::CubeTurn]| match reason {
            VoidReason::Crawford if turns.is_empty() => Err(RuleError::rule(
                "4.4 (iv)",
                "the cube was not turned in this game: there is no double to void",
            )),
            VoidReason::Crawford => Ok(0),
            VoidReason::DeadCube => turns
                .iter()
                .rposition(|t| t.before.owner == Some(t.by))
                .ok_or_else(|| {
                    RuleError::rule(
                        "4.4 (vii)",
                        "no redouble in this game: only the cube's owner can double a dead cube",
                    )
                }),
        };
        if let Some(game) = self.game.as_mut() {
            let i = first_void(&game.cube_turns)?;
            let before = game.cube_turns[i].before;
            game.cube_turns.truncate(i);
            match reason {
                VoidReason::Crawford => (game.crawford, game.cube) = (true, None),
                VoidReason::DeadCube => game.cube = Some(before),
            }
            if let Turn::DoubleOffered { by } = game.turn {
                // The void double's decision is off: the doubler goes on to roll.
                game.turn = Turn::OnRoll {
                    side: by,
                    may_double: false,
                };
                self.stop_clock(at)?;
                if let Some(clock) = self.clock.as_mut() {
                    clock.start(by, at)?;
                }
            }
            return Ok(());
        }
        let g = self
            .games
            .last_mut()
            .ok_or_else(|| RuleError::state("no game has been played"))?;
        let i = first_void(&g.cube_turns)?;
        match reason {
            VoidReason::Crawford => (g.crawford, g.cube) = (true, 1),
            VoidReason::DeadCube => g.cube = g.cube_turns[i].before.value,
        }
        g.cube_turns.truncate(i);
        let points = g.kind.multiplier() * g.cube;
        let w = g.winner.index();
        self.score[w] = self.score[w].saturating_sub(g.points) + points;
        g.points = points;
        Ok(())
    }

    fn game_mut(&mut self) -> Result<&mut Game, RuleError> {
        self.game
            .as_mut()
            .ok_or_else(|| RuleError::state("no game in progress"))
    }

    fn clock_mut(&mut self) -> Result<&mut Clock, RuleError> {
        self.clock
            .as_mut()
            .ok_or_else(|| RuleError::state("this match has no clock"))
    }

    fn press_clock(&mut self, side: Side, at: Timestamp) -> Result<(), RuleError> {
        match self.clock.as_mut() {
            Some(clock) => Ok(clock.press(side, at)?),
            None => Ok(()),
        }
    }

    fn stop_clock(&mut self, at: Timestamp) -> Result<(), RuleError> {
        match self.clock.as_mut().map(|c| c.stop(at)) {
            None | Some(Ok(())) | Some(Err(ClockError::NotRunning)) => Ok(()),
            Some(Err(e)) => Err(e.into()),
        }
    }

    /// After a time-out that lets play go on: the clock of whoever is to act runs again.
    fn restart_clock(&mut self, at: Timestamp) -> Result<(), RuleError> {
        let side = self.clock_side();
        let clock = self.clock.as_mut().filter(|c| c.running().is_none());
        if let (Some(side), Some(clock)) = (side, clock) {
            clock.start(side, at)?;
        }
        Ok(())
    }
}
