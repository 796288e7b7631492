//! Director actions (2.3, 3.5, 4.3, 4.4, 4.6–4.8): checked here, recorded as a ruling
//! with its reason and article, and followed by what they imply.

use super::articles::check_article;
use super::command::{DirectorAction, Ruling};
use super::event::{Change, Event, GameEnd, MatchEnd};
use super::setup::DiceSource;
use super::setup::{MAX_CLOCK_TIME, MAX_CUBE, MAX_LENGTH, check_clock_settings};
use super::{Match, RuleError};
use crate::side::Side;
use crate::time::Millis;
use crate::time::Timestamp;

/// Points awarded or deducted: 1 to the longest match; zero changes nothing.
fn check_points(points: u32) -> Result<(), RuleError> {
    if points == 0 {
        return Err(RuleError::invalid(
            "",
            "a penalty of zero points changes nothing",
        ));
    }
    if points > MAX_LENGTH {
        return Err(RuleError::invalid(
            "",
            format!("points are 1 to {MAX_LENGTH}, not {points}"),
        ));
    }
    Ok(())
}

impl Match {
    /// Whether the director may take `action` now: a ruling with its reason and article,
    /// values in range, and the state it needs.
    fn check_director(
        &self,
        action: &DirectorAction,
        ruling: &Ruling,
        now: Timestamp,
    ) -> Result<(), RuleError> {
        if ruling.reason.trim().is_empty() || ruling.article.trim().is_empty() {
            return Err(RuleError::invalid(
                "",
                "a director action needs a reason and an article",
            ));
        }
        check_article(&ruling.article)?;
        match *action {
            DirectorAction::AwardPoints { points, .. } => check_points(points),
            DirectorAction::DeductPoints { from, points } => {
                check_points(points)?;
                self.check_deduction(from, points)
            }
            DirectorAction::AdjustTime { side, delta } => self.check_adjust_time(side, delta, now),
            DirectorAction::SetTime { time, .. } => self.check_set_time(time),
            DirectorAction::CorrectScore { a, b } => self.check_score_correction([a, b]),
            DirectorAction::ForfeitGame { .. } => self.current().map(|_| ()),
            DirectorAction::ImposeClock { per_point, delay } => {
                // A value no match takes is refused before the state is asked.
                check_clock_settings(per_point, delay)?;
                if self.game.is_some() {
                    return Err(RuleError::rule(
                        "3.5",
                        "a clock is brought in at the start of a game, not during one",
                    ));
                }
                Ok(())
            }
            DirectorAction::RemoveClock => self.clock_required(),
            DirectorAction::CorrectCube { value, owner } => {
                self.check_cube_correction(value, owner.is_some())
            }
            DirectorAction::CorrectLength { length } => self.check_length_correction(length),
            DirectorAction::EndBreak
            | DirectorAction::GrantBreak { .. }
            | DirectorAction::LeftTable { .. } => self.check_attendance_action(action),
            DirectorAction::ChangeDice { source, baffle_box } => {
                self.check_dice_change(source, baffle_box)
            }
            DirectorAction::DecideAppeal {
                appeal,
                committee,
                votes_for,
                ..
            } => self.check_appeal_decision(appeal, committee, votes_for),
            DirectorAction::Reschedule { start } => self.check_reschedule(start, now),
            DirectorAction::DecideMatch { .. } if !self.undecided => Err(RuleError::rule(
                "2.2",
                "the director decides a match only when both players won it at the same instant",
            )),
            DirectorAction::CorrectResult { game: 0, .. } => {
                Err(RuleError::invalid("4.6", "games are numbered from 1"))
            }
            DirectorAction::ConfirmResult if self.result.is_none_or(|r| r.confirmed) => Err(
                RuleError::rule("4.6", "there is no unconfirmed match result"),
            ),
            _ => Ok(()),
        }
    }

    /// A deduction takes what it says: the fold saturates at zero, so one that would
    /// take less is refused instead of recorded as what did not happen.
    fn check_deduction(&self, from: Side, points: u32) -> Result<(), RuleError> {
        match self.score[from.index()] {
            has if has >= points => Ok(()),
            0 => Err(RuleError::state(format!(
                "{from} has no points: there is nothing to deduct"
            ))),
            has => Err(RuleError::state(format!(
                "{from} has {has}: {points} cannot be deducted"
            ))),
        }
    }

    /// A time adjustment (4.3 (v)): not zero, at most a whole clock either way, and one
    /// that leaves the clock readable.
    fn check_adjust_time(
        &self,
        side: Side,
        delta: Millis,
        now: Timestamp,
    ) -> Result<(), RuleError> {
        if delta.as_ms() == 0 {
            return Err(RuleError::invalid(
                "4.3 (v)",
                "an adjustment of zero changes nothing",
            ));
        }
        if delta.as_ms().unsigned_abs() > MAX_CLOCK_TIME.as_ms().unsigned_abs() {
            return Err(RuleError::invalid(
                "4.3 (v)",
                format!("a time adjustment is at most {MAX_CLOCK_TIME} either way, not {delta}"),
            ));
        }
        self.clock_required()?;
        self.check_adjusted_clock(side, delta, now)
    }

    /// A clock set (3.7) is set to what it should read, which is never more than the
    /// match time the player was given: 25 hours on a 7-point match's clock is a typo,
    /// not a correction.
    fn check_set_time(&self, time: Millis) -> Result<(), RuleError> {
        if time < Millis::ZERO || time > MAX_CLOCK_TIME {
            return Err(RuleError::invalid(
                "3.7",
                format!("a clock is set to 0 to {MAX_CLOCK_TIME}, not {time}"),
            ));
        }
        self.clock_required()?;
        if time > self.clock_initial {
            return Err(RuleError::invalid(
                "3.7",
                format!(
                    "a clock is set to at most the match time each player was given, {}, not {time}",
                    self.clock_initial
                ),
            ));
        }
        Ok(())
    }

    /// A cube correction (4.4 (vi)): a cube level (centred means at 1; after any take the
    /// cube has an owner), in a game where the cube is on the board and no double is
    /// being decided.
    fn check_cube_correction(&self, value: u32, owned: bool) -> Result<(), RuleError> {
        if !value.is_power_of_two() || value > MAX_CUBE || (value == 1) == owned {
            return Err(RuleError::invalid(
                "4.4 (vi)",
                format!(
                    "{value} is not a cube level (1 centred, or 2 to {MAX_CUBE} with an owner)"
                ),
            ));
        }
        let game = self.current()?;
        if game.crawford {
            return Err(RuleError::rule(
                "4.4",
                "the cube is off the board in the Crawford game",
            ));
        }
        if matches!(game.turn, super::Turn::DoubleOffered { .. }) {
            return Err(RuleError::rule(
                "4.4 (vi)",
                "a double is being decided: correct the cube once it is taken or passed",
            ));
        }
        Ok(())
    }

    /// A corrected match length (4.8): in range, and a change.
    fn check_length_correction(&self, length: u32) -> Result<(), RuleError> {
        if length == 0 || length > MAX_LENGTH {
            return Err(RuleError::invalid(
                "4.8",
                format!("a match length is 1 to {MAX_LENGTH} points"),
            ));
        }
        if length == self.length {
            return Err(RuleError::state(format!(
                "the match length is already {length}"
            )));
        }
        Ok(())
    }

    /// A change of dice (3.4) between games; a baffle box goes with dice rolled at the
    /// table (2.4).
    fn check_dice_change(&self, source: DiceSource, baffle_box: bool) -> Result<(), RuleError> {
        if self.game.is_some() {
            return Err(RuleError::rule(
                "3.4",
                "the dice are changed between games, not during one",
            ));
        }
        if baffle_box && source == DiceSource::Server {
            return Err(RuleError::invalid(
                "2.4",
                "a baffle box is for dice rolled at the table, not the server's",
            ));
        }
        if (source, baffle_box) == (self.dice, self.baffle_box) {
            return Err(RuleError::state("the dice are already so"));
        }
        Ok(())
    }

    /// A match is rescheduled or put off before its first game, at a time from now on:
    /// lateness charged for time already passed would be a penalty nobody incurred.
    fn check_reschedule(&self, start: Option<Timestamp>, now: Timestamp) -> Result<(), RuleError> {
        if !self.not_begun() || self.undecided {
            return Err(RuleError::rule(
                "2.2",
                "a match is rescheduled or put off before its first game: this one has begun",
            ));
        }
        if self.break_until.is_some() {
            return Err(RuleError::state("a break is running: end it first"));
        }
        let Some(start) = start else {
            if self.postponed() {
                return Err(RuleError::state("the match is already put off"));
            }
            return Ok(());
        };
        super::setup::check_schedule(start, now)?;
        if start < now {
            return Err(RuleError::invalid(
                "2.2",
                format!(
                    "a match is rescheduled to {} or later (now, or its latest event or its \
                     start once a player is at the table), not {}: lateness would count for \
                     time already passed",
                    now.time_of_day(),
                    start.time_of_day()
                ),
            ));
        }
        if start == self.start && self.lateness_from.is_some() {
            return Err(RuleError::state(format!(
                "the match is already scheduled at {}",
                start.time_of_day()
            )));
        }
        Ok(())
    }

    /// A corrected score must be one the record could show (4.7): not both players at
    /// the length, and nobody further past it than one last game can take him (a
    /// backgammon at the highest cube, 3 × [`MAX_CUBE`], from one point away).
    fn check_score_correction(&self, score: [u32; 2]) -> Result<(), RuleError> {
        let most = self.length - 1 + 3 * MAX_CUBE;
        if let Some(s) = score.iter().find(|&&s| s > most) {
            return Err(RuleError::invalid(
                "4.7",
                format!(
                    "a score of {s} is impossible in a {}-point match: one game takes a player \
                     at most to {most}",
                    self.length
                ),
            ));
        }
        if score.iter().all(|&s| s >= self.length) {
            return Err(RuleError::invalid(
                "4.7",
                format!(
                    "{}-{} is impossible in a {}-point match: only one player can have won",
                    score[0], score[1], self.length
                ),
            ));
        }
        if score == self.score {
            return Err(RuleError::state(format!(
                "the score is already {}-{}",
                score[0], score[1]
            )));
        }
        Ok(())
    }

    pub(super) fn director(
        &mut self,
        action: &DirectorAction,
        ruling: &Ruling,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_director(action, ruling, now)?;
        let before = self.reading(action, now);
        let ruled = Change::Ruled {
            action: action.clone(),
            ruling: ruling.clone(),
            effect: None,
        };
        self.record(out, now, ruled)?;
        // The effect is read off the state the ruling left, and written into its event;
        // the fold reads it again and checks it (`effect.rs`).
        if let (Some(before), Some(after)) = (before, self.reading(action, now))
            && let Some(Event {
                change: Change::Ruled { effect, .. },
                ..
            }) = out.last_mut()
        {
            *effect = before.to(after);
        }
        self.settle_result(out, now)?;
        match *action {
            DirectorAction::ForfeitGame { loser, kind } => {
                let cube = self.current()?.cube_value();
                let ended = Change::GameEnded {
                    winner: loser.other(),
                    result: kind,
                    cube,
                    points: kind.multiplier() * cube,
                    how: GameEnd::Forfeit,
                };
                self.emit(out, now, ended)
            }
            DirectorAction::DecideMatch { winner } => self.emit(
                out,
                now,
                Change::MatchEnded {
                    winner,
                    how: MatchEnd::DirectorDecision,
                },
            ),
            DirectorAction::ForfeitMatch { loser } if self.result.is_none() => self.emit(
                out,
                now,
                Change::MatchEnded {
                    winner: loser.other(),
                    how: MatchEnd::Forfeit,
                },
            ),
            DirectorAction::CorrectLength { length } if self.game.is_none() => {
                self.correct_length(length, now, out)
            }
            DirectorAction::EndBreak | DirectorAction::GrantBreak { .. } => {
                self.attendance_action(action, now, out)
            }
            _ => Ok(()),
        }
    }
}

impl Match {
    /// An adjustment is a correction of a clock (4.3 (v)), never a way to end a match:
    /// one that would leave nothing flags the player, and a mistyped `-20m` for `-20s`
    /// ended a match that had not started, with no ruling left to undo it (a second new
    /// director). Nor does it raise a clock above what the player was given or has now
    /// (after overtime), as `set_time` may not (3.7).
    fn check_adjusted_clock(
        &self,
        side: Side,
        delta: Millis,
        now: Timestamp,
    ) -> Result<(), RuleError> {
        let Some(clock) = self.clock.as_ref() else {
            return Ok(());
        };
        let left = clock.view(side, now).main;
        let after = left + delta;
        if after <= Millis::ZERO {
            return Err(RuleError::invalid(
                "4.3 (v)",
                format!(
                    "{side}'s clock has {left} left: adjusting it by {delta} would leave nothing and end the match on time; \
                     a time penalty leaves some time, and a forfeit is its own ruling"
                ),
            ));
        }
        let most = self.clock_initial.max(left);
        if after > most {
            return Err(RuleError::invalid(
                "4.3 (v)",
                format!(
                    "{side}'s clock has {left} left: adjusting it by {delta} would give {after}, \
                     more than the {most} a clock may hold here (the match time given, 3.7)"
                ),
            ));
        }
        Ok(())
    }
}
