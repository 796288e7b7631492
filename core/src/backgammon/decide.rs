//! Turning commands into events: every rule check lives here. Each event is folded into a
//! working copy as it is emitted, so later checks see its effect and the copy becomes the
//! new state only if the whole command is accepted.

use super::board::WinKind;
use super::command::{Command, DirectorAction};
use super::event::{Change, Event, GameEnd, MatchEnd};
use super::setup::DiceSource;
use super::{Game, Match, RuleError, Turn};
use crate::clock::PauseReason;
use crate::dice::Roll;
use crate::dice_check::validate_roll;
use crate::side::Side;
use crate::time::Timestamp;

/// Why a server roll is never called invalid (4.1 (iv) is about dice rolled at the
/// table), and what the director does instead: `docs/dice.md`, "Nobody re-draws".
pub const SERVER_DICE_STAND: &str = "server dice are never drawn again: an invalid roll \
     is for dice rolled at the table. A move played in error is replayed (4.2 (iii)); a \
     fault of the table's device is the director's to put right on the clock (adjust_time)";

impl Match {
    pub(super) fn step(
        &self,
        command: &Command,
        now: Timestamp,
    ) -> Result<(Match, Vec<Event>), RuleError> {
        if now < self.now && !self.moves_its_start(command) {
            return Err(RuleError::state(format!(
                "time went backwards: {now} is before the match's last event at {}",
                self.now
            )));
        }
        let mut next = self.clone();
        let mut out = Vec::new();
        next.catch_up(now, &mut out)?;
        next.command(command, now, &mut out)?;
        // Time moves only with events, so the state stays exactly the fold of its log.
        Ok((next, out))
    }

    /// A director's ruling that moves the start of a match waiting for it (2.2) is taken
    /// before that start, while nothing has happened in it (nobody checked in): it is
    /// the only thing that may happen before it.
    fn moves_its_start(&self, command: &Command) -> bool {
        command.moves_start()
            && self.now == self.start
            && self.not_begun()
            && self.present == [false; 2]
    }

    /// Applies `change` at `at`, records it, and follows it with what it implies: the end
    /// of the match, or its resumption after a correction.
    pub(super) fn emit(
        &mut self,
        out: &mut Vec<Event>,
        at: Timestamp,
        change: Change,
    ) -> Result<(), RuleError> {
        self.record(out, at, change)?;
        self.settle_result(out, at)
    }

    /// Applies and records `change` alone: for changes that happen together, settled once
    /// after the last of them.
    pub(super) fn record(
        &mut self,
        out: &mut Vec<Event>,
        at: Timestamp,
        change: Change,
    ) -> Result<(), RuleError> {
        let event = Event { at, change };
        self.evolve(&event)?;
        out.push(event);
        Ok(())
    }

    /// Ends the match when one player has won it (4.5, 2.2), leaves it to the director
    /// when both have at once (2.2: no side order decides), and resumes it when a
    /// correction took a points win away (4.4 (iv)(c), 4.6).
    pub(super) fn settle_result(
        &mut self,
        out: &mut Vec<Event>,
        at: Timestamp,
    ) -> Result<(), RuleError> {
        match self.result {
            None if !self.undecided => {
                let winners: Vec<(Side, MatchEnd)> = Side::BOTH
                    .into_iter()
                    .filter_map(|s| self.won(s).map(|how| (s, how)))
                    .collect();
                match winners[..] {
                    [(winner, how)] => {
                        self.emit(out, at, Change::MatchEnded { winner, how })?;
                        if let Some(requested) = self.pending_length {
                            let why = "the match ended with the game in progress (4.8)".to_string();
                            self.emit(out, at, Change::LengthKept { requested, why })?;
                        }
                    }
                    [_, _] => self.record(out, at, Change::MatchUndecided)?,
                    _ => {}
                }
            }
            Some(r) if r.how == MatchEnd::Points && self.score(r.winner) < self.length => {
                self.emit(out, at, Change::MatchResumed)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// How `side` has won the match on the record, if he has: the length reached (4.5),
    /// or more penalty points received than half the length (2.2).
    fn won(&self, side: Side) -> Option<MatchEnd> {
        if self.score(side) >= self.length {
            Some(MatchEnd::Points)
        } else if u64::from(self.penalty_received[side.index()]) * 2 > u64::from(self.length) {
            Some(MatchEnd::PenaltyPoints)
        } else {
            None
        }
    }

    /// Whether `side` may roll at `now` (anything due by then first): the question the
    /// server asks before it draws dice, so that a roll out of turn draws nothing.
    pub fn may_roll(&self, side: Side, now: Timestamp) -> Result<(), RuleError> {
        let (next, _) = self.step(&Command::Tick, now)?;
        if let Some(r) = next.result {
            return Err(match_over(r.winner));
        }
        next.roll_turn(side).map(|_| ())
    }

    /// Whether `side` may roll in the game as it stands; true if the roll is premature
    /// (made before the opponent pressed), which stands (4.1 (v)(a)).
    fn roll_turn(&self, side: Side) -> Result<bool, RuleError> {
        let game = self.current()?;
        match game.turn {
            Turn::OnRoll { side: s, .. } if s == side => Ok(false),
            // A roll made before the opponent finished his move stands (4.1 (v)(a)).
            Turn::Moving { side: mover, .. }
                if mover == side.other() && game.premature_roll.is_none() =>
            {
                if game.premature_double == Some(side) {
                    return Err(RuleError::rule(
                        "4.4",
                        "a double is offered: the opponent decides first",
                    ));
                }
                Ok(true)
            }
            turn => Err(not_your_turn(side, turn)),
        }
    }

    fn command(
        &mut self,
        command: &Command,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_open_to(command)?;
        match command {
            Command::Tick => Ok(()),
            Command::CheckIn { side } => self.check_in(*side, now, out),
            Command::StartGame => self.start_game(now, out),
            Command::OpeningThrow { throw, source } => {
                self.opening_throw(*throw, *source, now, out)
            }
            Command::Roll { side, dice, source } => self.roll(*side, *dice, *source, now, out),
            Command::InvalidRoll { side } => self.invalid_roll(*side, now, out),
            Command::Double { side } => self.double(*side, now, out),
            Command::Beaver { .. } => Err(RuleError::rule(
                "4.4 (viii)",
                "beavers, automatic doubles and the Jacoby rule are money-game rules, not allowed in tournaments",
            )),
            Command::Take { side } => {
                self.check_decision(*side)?;
                self.emit(out, now, Change::Taken { side: *side })
            }
            Command::Pass { side } => self.pass(*side, now, out),
            Command::Press { side } => self.press(*side, now, out),
            Command::EndGame { winner, kind } => {
                self.end_game(*winner, *kind, GameEnd::Declared, now, out)
            }
            Command::Concede { side, kind } => {
                self.end_game(side.other(), *kind, GameEnd::Concession, now, out)
            }
            Command::Pause { reason } => {
                self.clock_required()?;
                self.check_pause_reason(*reason)?;
                self.emit(out, now, Change::Paused { reason: *reason })
            }
            Command::Resume => {
                self.clock_required()?;
                self.emit(out, now, Change::Resumed)
            }
            Command::RestartDelay => {
                self.clock_required()?;
                self.emit(out, now, Change::DelayRestarted)
            }
            Command::DicePickedUpEarly { offender } => {
                self.dice_picked_up_early(*offender, now, out)
            }
            Command::ReplayIllegalMove { offender } => {
                self.no_illegal_move_stands()?;
                self.replay_illegal_move(*offender, now, out)
            }
            Command::TakeBreak { side } => self.take_break(*side, now, out),
            Command::PressBack { side } => self.press_back(*side, now, out),
            Command::Request { side, what } => self.request(*side, *what, now, out),
            Command::Appeal {
                side,
                ruling,
                grounds,
            } => self.appeal(*side, *ruling, grounds, now, out),
            Command::Move { side, play } => self.record_move(*side, play, now, out),
            Command::Director { action, ruling } => self.director(action, ruling, now, out),
        }
    }

    /// What a match still takes once it is out of play: while it is undecided (2.2) only
    /// the director's decision, and once it has a result only corrections, confirmation
    /// and appeals (5: a ruling may be appealed after the match, within a reasonable time).
    fn check_open_to(&self, command: &Command) -> Result<(), RuleError> {
        if self.undecided
            && !allowed_out_of_play(command, false, |action| {
                matches!(
                    action,
                    DirectorAction::Warning { .. }
                        | DirectorAction::DecideMatch { .. }
                        | DirectorAction::ForfeitMatch { .. }
                )
            })
        {
            return Err(RuleError::rule(
                "2.2",
                "both players won the match at the same instant (lateness penalty points \
                 awarded together): the director decides it (decide_match or forfeit_match)",
            ));
        }
        if let Some(r) = self.result
            && !allowed_out_of_play(command, true, |action| {
                matches!(
                    action,
                    DirectorAction::Warning { .. }
                        | DirectorAction::VoidDouble { .. }
                        | DirectorAction::CorrectScore { .. }
                        | DirectorAction::ConfirmResult
                        | DirectorAction::CorrectResult { .. }
                        | DirectorAction::DecideAppeal { .. }
                )
            })
        {
            return Err(match_over(r.winner));
        }
        Ok(())
    }

    /// A player checks in once.
    fn check_in(
        &mut self,
        side: Side,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.present[side.index()] {
            return Err(RuleError::state(format!(
                "player {side} is already checked in"
            )));
        }
        self.emit(out, now, Change::CheckedIn { side })
    }

    /// A roll by `side`, in turn or premature (4.1 (v)).
    fn roll(
        &mut self,
        side: Side,
        dice: Roll,
        source: DiceSource,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_dice(dice, source)?;
        let premature = self.roll_turn(side)?;
        self.emit(
            out,
            now,
            Change::Rolled {
                side,
                dice,
                source,
                premature,
            },
        )
    }

    /// A roll called invalid (4.1 (iv)): only dice rolled at the table, and only the
    /// roll in play of the player moving.
    fn invalid_roll(
        &mut self,
        side: Side,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if self.dice == DiceSource::Server {
            return Err(RuleError::rule("4.1 (iv)", SERVER_DICE_STAND));
        }
        match self.current()?.turn {
            Turn::Moving { side: s, .. } if s == side => {
                self.emit(out, now, Change::RollInvalid { side })
            }
            _ => Err(RuleError::rule(
                "4.1 (iv)",
                format!("player {side} has no roll in play to call invalid"),
            )),
        }
    }

    /// Whether `reason` fits the match as it stands (4.3 (ii), (vi)): "game over" only
    /// between games, "break" only during a break, the reasons of play only in a game, and
    /// an invalid roll only with dice rolled at the table.
    fn check_pause_reason(&self, reason: PauseReason) -> Result<(), RuleError> {
        let in_game = self.game.is_some();
        let fits = match reason {
            PauseReason::GameOver => !in_game,
            PauseReason::Break => self.break_until.is_some(),
            PauseReason::DirectorCalled | PauseReason::DirectorStopped => true,
            PauseReason::InvalidRoll => in_game && self.dice == DiceSource::Physical,
            PauseReason::DicePickedUpEarly
            | PauseReason::IllegalMoveReplay
            | PauseReason::ResultSettled
            | PauseReason::RollDisputed
            | PauseReason::AwaitingLinks => in_game,
        };
        if fits {
            return Ok(());
        }
        let now = if in_game {
            "a game is in progress"
        } else if self.break_until.is_some() {
            "a break is running"
        } else {
            "no game is in progress"
        };
        let why = match reason {
            PauseReason::InvalidRoll if in_game => {
                "server dice are never invalid (4.1 (iv) is about dice rolled at the table)"
            }
            PauseReason::Break => "only a break running may stop the clock as a break",
            _ => "the reason does not fit",
        };
        Err(RuleError::rule(
            "4.3 (ii)",
            format!("cannot pause for \"{}\": {now}; {why}", reason.describe()),
        ))
    }

    /// An opening throw (3): the first starts the game; equal dice are thrown again.
    fn opening_throw(
        &mut self,
        throw: [u8; 2],
        source: DiceSource,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.check_dice(throw, source)?;
        if self.game.is_none() {
            self.start_game(now, out)?;
        }
        if self.current()?.turn != Turn::Opening {
            return Err(RuleError::state("the opening roll is over"));
        }
        self.emit(out, now, Change::OpeningThrow { throw, source })
    }

    /// A press ends the mover's turn (4.2 (i)); a premature double then takes effect if it is still valid (4.4 (v)).
    fn press(&mut self, side: Side, now: Timestamp, out: &mut Vec<Event>) -> Result<(), RuleError> {
        let game = self.current()?;
        match game.turn {
            Turn::Moving { side: s, .. } if s == side => {}
            Turn::OnRoll { side: s, .. } if s == side => {
                return Err(RuleError::rule(
                    "4.2 (i)",
                    format!("player {side} has not rolled yet"),
                ));
            }
            turn => return Err(not_your_turn(side, turn)),
        }
        let pending_double = game.premature_double;
        self.check_moved_before_press(side, now, out)?;
        self.emit(out, now, Change::Pressed { side })?;
        // The premature double now takes effect if it is still valid (4.4 (v): "valid
        // if otherwise valid"); a correction of the cube or the score meanwhile may
        // have made it void, and then it lapses.
        let game = self.current()?;
        let still_valid = |doubler: Side| {
            !game.crawford
                && game
                    .cube
                    .is_some_and(|c| c.check_double(doubler, self.points_needed(doubler)).is_ok())
        };
        if let Some(doubler) = pending_double.filter(|d| still_valid(*d)) {
            // The doubler presses.
            let value = self.current()?.cube_value() * 2;
            self.emit(
                out,
                now,
                Change::Doubled {
                    side: doubler,
                    value,
                    premature: false,
                },
            )?;
        }
        Ok(())
    }

    /// A closed-out player presses back without rolling (4.2 (i)): nothing is rolled, and
    /// the turn passes to the opponent as after a move.
    fn press_back(
        &mut self,
        side: Side,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        match self.current()?.turn {
            Turn::OnRoll { side: s, .. } if s == side => {
                self.check_closed_out(side)?;
                self.emit(out, now, Change::PressedBack { side })
            }
            turn => Err(not_your_turn(side, turn)),
        }
    }

    /// Dice picked up before the opponent pressed: the offender waits out his delay (4.1 (v)(b)).
    fn dice_picked_up_early(
        &mut self,
        offender: Side,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.clock_required()?;
        match self.current()?.turn {
            Turn::Moving { side, .. } if side == offender.other() => {
                self.emit(out, now, Change::WaitOutDelay { side: offender })
            }
            _ => Err(RuleError::rule(
                "4.1 (v)(b)",
                format!(
                    "player {offender} can pick up his dice early only while the opponent is moving"
                ),
            )),
        }
    }

    /// An illegal move replayed before the opponent rolls (4.2 (iii)(c)).
    fn replay_illegal_move(
        &mut self,
        offender: Side,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        self.clock_required()?;
        let game = self.current()?;
        match (game.turn, game.last_move) {
            (Turn::OnRoll { side, .. }, Some((mover, _)))
                if side == offender.other() && mover == offender =>
            {
                self.emit(out, now, Change::TurnReplayed { offender })
            }
            _ => Err(RuleError::rule(
                "4.2 (iii)(c)",
                format!(
                    "player {offender}'s last move can be replayed only before the opponent rolls"
                ),
            )),
        }
    }

    /// A double passed: the doubler wins the game at the cube's value (4.4).
    fn pass(&mut self, side: Side, now: Timestamp, out: &mut Vec<Event>) -> Result<(), RuleError> {
        self.check_decision(side)?;
        let value = self.current()?.cube_value();
        self.emit(out, now, Change::Passed { side })?;
        let ended = Change::GameEnded {
            winner: side.other(),
            result: WinKind::Single,
            cube: value,
            points: value,
            how: GameEnd::Pass,
        };
        self.emit(out, now, ended)
    }

    pub(super) fn current(&self) -> Result<&Game, RuleError> {
        self.game
            .as_ref()
            .ok_or_else(|| RuleError::state("no game is in progress"))
    }

    pub(super) fn clock_required(&self) -> Result<(), RuleError> {
        match self.clock {
            Some(_) => Ok(()),
            None => Err(RuleError::state("this match is played without a clock")),
        }
    }

    fn check_dice(&self, dice: [u8; 2], source: DiceSource) -> Result<(), RuleError> {
        if source != self.dice {
            let (used, how) = match self.dice {
                DiceSource::Server => ("the server's dice", "leave the dice empty"),
                DiceSource::Physical => ("physically rolled dice", "report them"),
            };
            return Err(RuleError::invalid(
                "3.4",
                format!("this match uses {used}: {how}"),
            ));
        }
        validate_roll(dice).map_err(|e| RuleError::invalid("4.1 (i)", e.to_string()))
    }

    fn start_game(&mut self, now: Timestamp, out: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.game.is_some() {
            return Err(RuleError::state("a game is in progress"));
        }
        if let Some(until) = self.break_until {
            return Err(RuleError::rule(
                "2.2",
                format!("a break runs until {until}"),
            ));
        }
        if let Some(absent) = Side::BOTH.into_iter().find(|s| !self.present[s.index()]) {
            return Err(RuleError::rule(
                "2.2",
                format!("player {absent} is not at the table"),
            ));
        }
        if let Some(length) = self.pending_length {
            self.correct_length(length, now, out)?;
        }
        let number = self.games.len() as u32 + 1;
        let crawford = self.next_game_is_crawford();
        self.emit(out, now, Change::GameStarted { number, crawford })
    }

    /// A length correction between games: made unless the correct length is shorter and
    /// would end the match (4.8).
    pub(super) fn correct_length(
        &mut self,
        length: u32,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if length < self.length && self.score.iter().any(|&s| s >= length) {
            let why = format!(
                "the correct length {length} is shorter and would end the match: it continues at {} (4.8)",
                self.length
            );
            return self.emit(
                out,
                now,
                Change::LengthKept {
                    requested: length,
                    why,
                },
            );
        }
        self.emit(out, now, Change::LengthCorrected { length })
    }

    fn double(
        &mut self,
        side: Side,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let game = self.current()?;
        if game.crawford {
            return Err(RuleError::rule(
                "4.4 (iv)",
                "Crawford game: the cube may not be used",
            ));
        }
        let cube = game
            .cube
            .ok_or_else(|| RuleError::rule("4.4", "the cube is off the board in this game"))?;
        let premature = match game.turn {
            Turn::OnRoll {
                side: s,
                may_double,
            } if s == side => {
                if !may_double {
                    return Err(RuleError::rule(
                        "4.4 (ii)",
                        "the cube must be used before any attempt to roll: no double after an invalid roll",
                    ));
                }
                false
            }
            // A double before the opponent finished his move is valid if otherwise valid (4.4 (v)).
            Turn::Moving { side: mover, .. }
                if mover == side.other()
                    && game.premature_double.is_none()
                    && game.premature_roll.is_none() =>
            {
                true
            }
            _ => {
                return Err(RuleError::rule(
                    "4.4",
                    format!("player {side} may double only on his own turn, before rolling"),
                ));
            }
        };
        cube.check_double(side, self.points_needed(side))?;
        self.emit(
            out,
            now,
            Change::Doubled {
                side,
                value: cube.value * 2,
                premature,
            },
        )
    }

    fn check_decision(&self, side: Side) -> Result<(), RuleError> {
        let game = self.current()?;
        match game.turn {
            // A correction made this the Crawford game while the double was pending: the
            // double is void, and the director voids it (4.4 (iv)(a)).
            Turn::DoubleOffered { .. } if game.crawford => Err(RuleError::rule(
                "4.4 (iv)",
                "Crawford game: this double is void; the director voids it and play continues without the cube",
            )),
            Turn::DoubleOffered { by } if by == side.other() => Ok(()),
            _ => Err(RuleError::rule(
                "4.4",
                format!("no double is offered to player {side}"),
            )),
        }
    }

    fn end_game(
        &mut self,
        winner: Side,
        kind: WinKind,
        how: GameEnd,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let game = self.current()?;
        match game.turn {
            Turn::Opening => {
                return Err(RuleError::state(
                    "the game has not begun: the opening roll comes first",
                ));
            }
            Turn::DoubleOffered { .. } => {
                return Err(RuleError::rule(
                    "4.4",
                    "a double is offered: take or pass first",
                ));
            }
            _ => {}
        }
        self.check_result_against_board(winner, kind, how)?;
        let cube = game.cube_value();
        let ended = Change::GameEnded {
            winner,
            result: kind,
            cube,
            points: kind.multiplier() * cube,
            how,
        };
        self.emit(out, now, ended)
    }
}

fn not_your_turn(side: Side, turn: Turn) -> RuleError {
    match turn {
        Turn::Opening => RuleError::rule("§3", "the opening roll decides who plays first"),
        Turn::DoubleOffered { .. } => {
            RuleError::rule("4.4", "a double is offered: take or pass first")
        }
        Turn::Moving { side: s, .. } if s == side => RuleError::rule(
            "4.2 (i)",
            format!("player {side} has rolled and is moving: his press ends the turn"),
        ),
        Turn::OnRoll { side: s, .. } | Turn::Moving { side: s, .. } => RuleError::rule(
            "4.2 (i)",
            format!("it is player {s}'s turn, not player {side}'s"),
        ),
    }
}

fn match_over(winner: Side) -> RuleError {
    RuleError::rule(
        "4.6",
        format!("the match is over: player {winner} won; only the director's corrections remain"),
    )
}

/// Whether a match out of play takes `command`: the clock's tick always, an appeal when
/// `appeals`, and the director's actions that `director` admits.
fn allowed_out_of_play(
    command: &Command,
    appeals: bool,
    director: impl Fn(&DirectorAction) -> bool,
) -> bool {
    match command {
        Command::Tick => true,
        Command::Director { action, .. } => director(action),
        Command::Appeal { .. } => appeals,
        _ => false,
    }
}
