//! Moves in a match (issue 23): with `moves: recorded` the board follows the game. A
//! `Move` is checked against the mover's dice (4.2 (iii)); the press still ends the turn
//! (4.2 (i)); a play that bears off the last checker ends the game with the result the
//! board gives (4.5); a concession may not ask more than the position allows (4.5).
//! With `moves: off` (the default) none of this runs and nothing changes.

use super::board::WinKind;
use super::board::{self, Position};
use super::event::{Change, Event, GameEnd};
pub use super::records::BoardState;
use super::{Match, RuleError, Turn};
use crate::side::Side;
use crate::time::Timestamp;

fn from_side(side: Side, seen: Position) -> Position {
    match side {
        Side::A => seen,
        Side::B => seen.swap(),
    }
}

const NOT_RECORDED: &str = "this match does not record moves (moves: off)";

impl Match {
    /// The board of the game in progress (or the last game), when moves are recorded.
    pub fn board(&self) -> Option<&BoardState> {
        self.board.as_ref()
    }

    /// What the board proves for the director (4.3 (iv), 4.5), with A as side 0 and B as
    /// side 1. `None` without a board or before the opening roll.
    pub fn adjudication(&self) -> Option<board::Adjudication> {
        let (position, next) = self.to_adjudicate()?;
        Some(board::adjudicate(&position, next))
    }

    /// What [`Match::adjudication`] is computed from, for a caller that computes it
    /// elsewhere (the server, off the match's task: a race can take milliseconds): the
    /// position with A as side 0, and whose turn comes first — the player on roll, the
    /// doubler while his double waits, the mover until he has moved and his opponent
    /// from then on (his press only confirms it) — with the dice already thrown.
    pub fn to_adjudicate(&self) -> Option<(Position, board::NextTurn)> {
        let state = self.board.as_ref()?;
        let index = |s: Side| if s == Side::A { 0 } else { 1 };
        let game = self.game.as_ref()?;
        let next = match game.turn {
            Turn::Opening => return None,
            Turn::OnRoll { side, .. } | Turn::DoubleOffered { by: side } => {
                board::NextTurn::to_roll(index(side))
            }
            // Once he has moved, the opponent is next, with his premature roll if he
            // made one (4.1 (v)(a): it stands).
            Turn::Moving { side, .. } if state.moved => board::NextTurn {
                side: index(side.other()),
                dice: game.premature_roll.map(|(_, d)| d),
                then: None,
            },
            Turn::Moving { side, dice } => board::NextTurn {
                side: index(side),
                dice: Some(dice),
                then: game.premature_roll.map(|(_, d)| d),
            },
        };
        Some((state.position, next))
    }

    /// `side` reports his play: checked against his dice (4.2 (iii)), recorded in the
    /// canonical notation; if it bears off his last checker the game ends with the result
    /// the board gives.
    pub(super) fn record_move(
        &mut self,
        side: Side,
        play: &str,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let state = self.board.as_ref().ok_or_else(|| {
            RuleError::state(if self.setup.moves.is_off() {
                NOT_RECORDED
            } else {
                "no game has started yet: the first opening throw starts it"
            })
        })?;
        let dice = match self.current()?.turn {
            Turn::Moving { side: s, dice } if s == side => dice,
            _ => {
                return Err(RuleError::rule(
                    "4.2 (iii)",
                    format!("player {side} has no roll to move with"),
                ));
            }
        };
        if state.moved {
            return Err(RuleError::rule(
                "4.2 (i)",
                format!("player {side} has moved: his press ends the turn"),
            ));
        }
        let accepted = board::accept(&state.seen_by(side), dice, play)?;
        let play = accepted.to_string();
        self.emit(out, now, Change::Moved { side, play })?;
        let outcome = self.board.as_ref().and_then(|b| b.position.outcome());
        if let Some(o) = outcome {
            let winner = if o.mover_won { Side::A } else { Side::B };
            let cube = self.current()?.cube_value();
            let ended = Change::GameEnded {
                winner,
                result: o.kind,
                cube,
                points: o.kind.multiplier() * cube,
                how: GameEnd::Declared,
            };
            self.emit(out, now, ended)?;
        }
        Ok(())
    }

    /// Before a press with moves recorded: the mover must have moved, unless no die can
    /// be played, when the empty move is recorded for him.
    pub(super) fn check_moved_before_press(
        &mut self,
        side: Side,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(state) = self.board.as_ref() else {
            return Ok(());
        };
        let Turn::Moving { side: s, dice } = self.current()?.turn else {
            return Ok(());
        };
        if s != side || state.moved {
            return Ok(());
        }
        let plays = board::legal_plays(&state.seen_by(side), dice)?;
        if plays.len() == 1 && plays[0].steps.is_empty() {
            return self.record_move(side, "", now, out);
        }
        Err(RuleError::rule(
            "4.2 (iii)",
            format!("moves are recorded: player {side} sends his move before pressing"),
        ))
    }

    /// A press-back without a roll (4.2 (i)) is for a player who cannot move whatever he
    /// rolls. With moves recorded the board says whether he can: if any of the 21 rolls
    /// has a legal move, he rolls like anyone else. Without the board the press-back is
    /// the player's claim, recorded as such and shown to the director; with dice bound
    /// to their position (`docs/dice.md`) it takes no dice from anyone either way.
    pub(super) fn check_closed_out(&self, side: Side) -> Result<(), RuleError> {
        let Some(state) = self.board.as_ref() else {
            return Ok(());
        };
        let seen = state.seen_by(side);
        for first in 1..=6u8 {
            for second in first..=6u8 {
                let plays = board::legal_plays(&seen, [first, second])?;
                if !(plays.len() == 1 && plays[0].steps.is_empty()) {
                    return Err(RuleError::rule(
                        "4.2 (i)",
                        format!(
                            "player {side} can move with {first}-{second}: only a player who \
                             cannot move whatever he rolls presses back without rolling"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// With moves recorded the board decides results: a declared result is the board's
    /// alone (it comes by itself), and a concession may ask no more than the position
    /// allows (4.5).
    pub(super) fn check_result_against_board(
        &self,
        winner: Side,
        kind: WinKind,
        how: GameEnd,
    ) -> Result<(), RuleError> {
        let Some(state) = self.board.as_ref() else {
            return Ok(());
        };
        match how {
            GameEnd::Declared => Err(RuleError::rule(
                "4.5",
                "moves are recorded: the result comes from the board when the last checker is borne off",
            )),
            GameEnd::Concession => {
                let loser = if winner == Side::A { 1 } else { 0 };
                let most = state.position.most_for_winner(loser);
                if kind.multiplier() > most.multiplier() {
                    return Err(RuleError::rule(
                        "4.5",
                        format!(
                            "a concession of a {kind:?} asks more than the position allows: {most:?} at most"
                        ),
                    ));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// With moves recorded an illegal move is refused when sent, so none stands to be
    /// replayed (4.2 (iii)(c) needs no claim).
    pub(super) fn no_illegal_move_stands(&self) -> Result<(), RuleError> {
        match self.board {
            Some(_) => Err(RuleError::rule(
                "4.2 (iii)",
                "moves are recorded and checked against the roll: no illegal move stands to be replayed",
            )),
            None => Ok(()),
        }
    }

    /// The fold of the board: a game starts on the starting position, a move changes it,
    /// a press or a roll starts a new turn.
    pub(super) fn follow_board(&mut self, change: &Change) -> Result<(), RuleError> {
        if self.setup.moves.is_off() {
            return Ok(());
        }
        match change {
            Change::GameStarted { .. } => {
                self.board = Some(BoardState {
                    position: Position::starting(),
                    moved: false,
                });
            }
            Change::Moved { side, play } => {
                let dice = match self.game.as_ref().map(|g| g.turn) {
                    Some(Turn::Moving { dice, .. }) => dice,
                    _ => return Err(RuleError::state("a move recorded with no roll in play")),
                };
                let state = self
                    .board
                    .as_mut()
                    .ok_or_else(|| RuleError::state("a move recorded with no board"))?;
                let seen = board::accept(&state.seen_by(*side), dice, play)?.result;
                state.position = from_side(*side, seen);
                state.moved = true;
            }
            // A premature roll (4.1 (v)(a)) comes while the mover is still on his turn:
            // his move stays made; the roll becomes the opponent's at the press.
            Change::Rolled {
                premature: true, ..
            } => {}
            Change::Pressed { .. } | Change::Rolled { .. } | Change::OpeningThrow { .. } => {
                if let Some(state) = self.board.as_mut() {
                    state.moved = false;
                }
            }
            _ => {}
        }
        Ok(())
    }
}
