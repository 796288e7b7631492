//! The fold: how each event changes a match. `decide` checks commands by evolving the
//! events it emits on a copy, so replaying a log and deciding commands share this code.

use super::board::WinKind;
use super::command::{DirectorAction, VoidReason};
use super::cube::Cube;
use super::event::{Change, Event, Expiry, GameEnd};
use super::{FinishedGame, Game, Match, MatchResult, RuleError, Turn};
use crate::clock::{Clock, ClockError, TimeControl};
use crate::side::Side;
use crate::time::{Millis, Timestamp};

impl Match {
    /// Folds one event in. Events come from [`Match::decide`] (or a log it wrote), so
    /// they are valid; an error here means the log does not belong to this match.
    pub fn evolve(&mut self, event: &Event) -> Result<(), RuleError> {
        let at = event.at;
        match &event.change {
            Change::Requested { side, what } => self.requests.push((*side, *what)),
            Change::Appealed {
                side,
                ruling,
                grounds,
            } => self.appeals.push(super::records::Appeal {
                side: *side,
                ruling: *ruling,
                grounds: grounds.clone(),
                decision: None,
            }),
            Change::CheckedIn { .. }
            | Change::LatenessPoint { .. }
            | Change::BreakStarted { .. }
            | Change::BreakEnded => self.evolve_attendance(&event.change, at)?,
            Change::GameStarted { .. }
            | Change::OpeningThrow { .. }
            | Change::Rolled { .. }
            | Change::RollInvalid { .. }
            | Change::Pressed { .. }
            | Change::PressedBack { .. }
            | Change::TurnReplayed { .. } => self.evolve_play(&event.change, at)?,
            Change::Doubled { .. } | Change::Taken { .. } | Change::Passed { .. } => {
                self.evolve_cube(&event.change, at)?
            }
            Change::Paused { .. }
            | Change::Resumed
            | Change::DelayRestarted
            | Change::WaitOutDelay { .. }
            | Change::TimeExpired { .. } => self.evolve_clock(&event.change, at)?,
            Change::GameEnded { .. }
            | Change::LengthCorrected { .. }
            | Change::LengthKept { .. }
            | Change::MatchEnded { .. }
            | Change::MatchUndecided
            | Change::MatchResumed => self.evolve_result(&event.change, at)?,
            Change::Ruled { action, effect, .. } => {
                self.rulings = self.rulings.saturating_add(1);
                let before = effect.and_then(|_| self.reading(action, at));
                self.evolve_director(action, at)?;
                if let Some(effect) = effect {
                    let read = before
                        .zip(self.reading(action, at))
                        .and_then(|(b, a)| b.to(a));
                    if read != Some(*effect) {
                        return Err(RuleError::invalid(
                            "",
                            format!("the ruling says it changed {effect:?}; it changed {read:?}"),
                        ));
                    }
                }
            }
            Change::Moved { .. } => {}
        }
        self.follow_board(&event.change)?;
        self.now = self.now.max(at);
        Ok(())
    }

    /// Presence, lateness and breaks (2.2).
    fn evolve_attendance(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
        match change {
            Change::CheckedIn { side } => self.present[side.index()] = true,
            Change::LatenessPoint { late } => {
                let to = late.other().index();
                self.score[to] = self.score[to].saturating_add(1);
                self.penalty_received[to] = self.penalty_received[to].saturating_add(1);
                self.lateness_charged[late.index()] =
                    self.lateness_charged[late.index()].saturating_add(1);
            }
            Change::BreakStarted {
                side,
                until,
                granted,
            } => {
                if !granted {
                    self.breaks_taken[side.index()] =
                        self.breaks_taken[side.index()].saturating_add(1);
                }
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
    fn evolve_play(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
        match change {
            Change::GameStarted { number, crawford } => {
                self.game = Some(Game {
                    number: *number,
                    crawford: *crawford,
                    cube: (!crawford).then_some(Cube::CENTRED),
                    cube_turns: Vec::new(),
                    turn: Turn::Opening,
                    score_at_start: self.score,
                    length: self.length,
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
            Change::PressedBack { side } => {
                let game = self.game_mut()?;
                game.last_move = None;
                game.turn = Turn::OnRoll {
                    side: side.other(),
                    may_double: true,
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
    fn evolve_cube(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
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
    fn evolve_clock(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
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
                        let to = side.other().index();
                        self.score[to] = self.score[to].saturating_add(points);
                        self.timeout_points[to] = self.timeout_points[to].saturating_add(points);
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
    fn evolve_result(&mut self, change: &Change, at: Timestamp) -> Result<(), RuleError> {
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
                self.score[winner.index()] = self.score[winner.index()].saturating_add(*points);
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
                    length: game.length,
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
                self.undecided = false;
                self.game = None;
                self.lateness_from = None;
                self.break_until = None;
                self.stop_clock(at)?;
            }
            Change::MatchUndecided => {
                self.undecided = true;
                self.lateness_from = None;
                self.stop_clock(at)?;
            }
            Change::MatchResumed => self.result = None,
            _ => unreachable!("routed by apply"),
        }
        Ok(())
    }

    fn evolve_director(&mut self, action: &DirectorAction, at: Timestamp) -> Result<(), RuleError> {
        match *action {
            DirectorAction::LeftTable { side } => {
                self.breaks_taken[side.index()] = self.breaks_taken[side.index()].saturating_add(1);
            }
            DirectorAction::ChangeDice { source, baffle_box } => {
                (self.dice, self.baffle_box) = (source, baffle_box);
            }
            DirectorAction::DecideAppeal {
                appeal, decision, ..
            } => {
                let i = usize::try_from(appeal).unwrap_or(usize::MAX);
                let appeal = i
                    .checked_sub(1)
                    .and_then(|i| self.appeals.get_mut(i))
                    .ok_or_else(|| RuleError::state(format!("no appeal {appeal}")))?;
                appeal.decision = Some(decision);
            }
            DirectorAction::Warning { side } => {
                self.warnings[side.index()] = self.warnings[side.index()].saturating_add(1);
            }
            DirectorAction::Reschedule { start: None } => self.lateness_from = None,
            DirectorAction::Reschedule { start: Some(start) } => {
                // As a match made for `start`: lateness counts from it afresh, and
                // nothing is played or ruled in it before then.
                self.start = start;
                self.lateness_from = Some(start);
                self.lateness_charged = [0; 2];
                self.now = start;
                if let Some(clock) = self.clock.as_mut() {
                    clock.move_start(start)?;
                }
            }
            DirectorAction::EndBreak
            | DirectorAction::GrantBreak { .. }
            | DirectorAction::DecideMatch { .. }
            | DirectorAction::ForfeitGame { .. }
            | DirectorAction::ForfeitMatch { .. } => {} // the events that follow say what changes
            DirectorAction::AwardPoints { to, points } => {
                self.score[to.index()] = self.score[to.index()].saturating_add(points);
                self.penalty_received[to.index()] =
                    self.penalty_received[to.index()].saturating_add(points);
            }
            DirectorAction::DeductPoints { from, points } => {
                self.score[from.index()] = self.score[from.index()].saturating_sub(points);
                self.cap_penalties();
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
            DirectorAction::CorrectScore { a, b } => self.correct_score_record([a, b]),
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
                self.correct_result(game, winner, kind)?
            }
        }
        Ok(())
    }

    /// A game's result corrected (4.6): the score, and the start score of every later
    /// game, follow; the Crawford game is decided again on the corrected record.
    fn correct_result(&mut self, game: u32, winner: Side, kind: WinKind) -> Result<(), RuleError> {
        let index = self
            .games
            .iter()
            .position(|g| g.number == game)
            .ok_or_else(|| RuleError::state(format!("no finished game {game}")))?;
        let g = &mut self.games[index];
        // A pass is a single game whatever the correction says (4.4).
        let kind = if g.how == GameEnd::Pass {
            WinKind::Single
        } else {
            kind
        };
        let (old_winner, old_points) = (g.winner, g.points);
        let points = kind.multiplier() * g.cube;
        (g.winner, g.kind, g.points) = (winner, kind, points);
        let w = old_winner.index();
        self.score[w] = self.score[w].saturating_sub(old_points);
        self.score[winner.index()] = self.score[winner.index()].saturating_add(points);
        self.shift_start_scores(index + 1, old_winner, -i64::from(old_points));
        self.shift_start_scores(index + 1, winner, i64::from(points));
        self.cap_penalties();
        self.settle_crawford();
        Ok(())
    }

    /// Voids a Crawford or dead-cube double (4.4 (iv), (vii)): in the game in progress
    /// (a), or in the last game when the next has not started (b), even if it ended the
    /// match (c); the score follows the corrected cube. Only a double that was void on the
    /// corrected record can be voided: one made in the Crawford game (which a score or
    /// result correction may have revealed, see `crawford.rs`), or one made by the owner of
    /// a cube already worth the match to him. A Crawford void removes every double of the
    /// game; a dead-cube void undoes the first dead double and what followed it, and the
    /// previous (dead) value decides the points.
    fn void_double(&mut self, reason: VoidReason, at: Timestamp) -> Result<(), RuleError> {
        if let Some(game) = self.game.as_ref() {
            let needed = |side: Side| self.points_needed(side);
            let i = first_void(reason, game.crawford, &game.cube_turns, needed)?;
            let game = self.game.as_mut().expect("checked above");
            let before = game.cube_turns[i].before;
            game.cube_turns.truncate(i);
            game.cube = match reason {
                VoidReason::Crawford => None,
                VoidReason::DeadCube => Some(before),
            };
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
        let (start, length) = (g.score_at_start, g.length);
        let needed = |side: Side| length.saturating_sub(start[side.index()]);
        let i = first_void(reason, g.crawford, &g.cube_turns, needed)?;
        g.cube = match reason {
            VoidReason::Crawford => 1,
            VoidReason::DeadCube => g.cube_turns[i].before.value,
        };
        g.cube_turns.truncate(i);
        let points = g.kind.multiplier() * g.cube;
        let w = g.winner.index();
        self.score[w] = self.score[w]
            .saturating_sub(g.points)
            .saturating_add(points);
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

/// The first of `turns` that was void for `reason`, or why none was. `needed` gives a
/// player's points needed on the corrected record.
fn first_void(
    reason: VoidReason,
    crawford: bool,
    turns: &[super::CubeTurn],
    needed: impl Fn(Side) -> u32,
) -> Result<usize, RuleError> {
    match reason {
        VoidReason::Crawford if !crawford => Err(RuleError::rule(
            "4.4 (iv)",
            "this is not the Crawford game on the record: only a double made in the Crawford \
             game is void (correct the score or a result first if the record is wrong; a wrong \
             cube level is corrected with correct_cube)",
        )),
        VoidReason::Crawford if turns.is_empty() => Err(RuleError::rule(
            "4.4 (iv)",
            "the cube was not turned in this game: there is no double to void",
        )),
        VoidReason::Crawford => Ok(0),
        VoidReason::DeadCube => turns
            .iter()
            .position(|t| t.before.owner == Some(t.by) && t.before.value >= needed(t.by))
            .ok_or_else(|| {
                RuleError::rule(
                    "4.4 (vii)",
                    "no double of a dead cube in this game: a cube is dead only for its owner, \
                     when its value already wins him the match",
                )
            }),
    }
}
