//! A match as a record of its games — the rolls, plays and cube actions — read from and
//! written to the Jellyfish `.mat` text that GNU Backgammon reads and writes, and
//! replayed through the board: every play checked against its roll, every game's result
//! computed from the position and the cube.

use super::notation::accept;
use super::{Outcome, Position};
use crate::backgammon::WinKind;
use crate::backgammon::error::RuleError;

/// What a player did, in the order done. Players are 0 (the left column of a `.mat`
/// file, gnubg's player 0) and 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Rolled `dice` and played `play` (empty when no die could be played).
    Roll {
        /// Who.
        player: u8,
        /// The dice, as rolled.
        dice: [u8; 2],
        /// The play, in the notation of [`super::Notation`].
        play: String,
    },
    /// Doubled.
    Double {
        /// Who.
        player: u8,
    },
    /// Took a double.
    Take {
        /// Who.
        player: u8,
    },
    /// Passed a double (gnubg writes "Drops").
    Drop {
        /// Who.
        player: u8,
    },
}

impl Action {
    /// Who acted: 0 or 1.
    pub fn player(&self) -> u8 {
        match *self {
            Action::Roll { player, .. }
            | Action::Double { player }
            | Action::Take { player }
            | Action::Drop { player } => player,
        }
    }
}

/// How a game ended and what it was worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, 0 or 1.
    pub winner: u8,
    /// The points won.
    pub points: u32,
}

/// One game: the score when it began, what was done, and the result recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Players 0 and 1's scores before the game.
    pub score: [u32; 2],
    /// The actions, in order.
    pub actions: Vec<Action>,
    /// The result as recorded, if the game ended.
    pub result: Option<GameResult>,
}

/// A match: its length, the players' names and its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    /// The lines of a `.mat` file before its "N point match" line, as read or to be
    /// written: gnubg's match information (`; [EventDate "2026.11.23"]`, `; [Site …]`)
    /// and the blank line after it. Empty for none.
    pub preamble: Vec<String>,
    /// Points to win.
    pub length: u32,
    /// Players 0 and 1.
    pub players: [String; 2],
    /// The games, first first.
    pub games: Vec<GameRecord>,
}

/// How a replayed game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A side bore off all its checkers: single, gammon or backgammon.
    BorneOff(WinKind),
    /// A double was passed.
    Dropped,
    /// Neither: the record's result is a concession (checked against the position).
    Conceded(WinKind),
}

/// A game replayed through the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The result the board and the cube give.
    pub result: Option<GameResult>,
    /// How it ended.
    pub ending: Option<Ending>,
    /// The position at the end, seen from player 0.
    pub final_position: Position,
    /// The cube's value at the end.
    pub cube: u32,
    /// Plays checked.
    pub plays: usize,
}

/// Why a record does not replay: the game and action (both counted from 1) and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The game, from 1.
    pub game: usize,
    /// The action in the game, from 1.
    pub action: usize,
    /// The refusal.
    pub error: RuleError,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "game {}, action {}: {}",
            self.game, self.action, self.error
        )
    }
}

/// The board during a replay: the position from the view of `mover`.
struct Table {
    pos: Position,
    mover: u8,
    last_roller: Option<u8>,
    cube: u32,
    owner: Option<u8>,
    offered_by: Option<u8>,
}

impl Table {
    /// The position seen from `player`.
    fn view(&mut self, player: u8) {
        if self.mover != player {
            self.pos = self.pos.swap();
            self.mover = player;
        }
    }

    fn act(&mut self, action: &Action) -> Result<Option<(GameResult, Ending)>, RuleError> {
        let refuse = |article, why: &str| Err(RuleError::rule(article, why.to_string()));
        if self.offered_by.is_some() && !matches!(action, Action::Take { .. } | Action::Drop { .. })
        {
            return refuse("4.4", "a double must be taken or passed first");
        }
        match *action {
            Action::Roll {
                player,
                dice,
                ref play,
            } => {
                if self.last_roller == Some(player) {
                    return refuse("4.2 (i)", "the same player cannot roll twice in a row");
                }
                self.view(player);
                self.pos = accept(&self.pos, dice, play)?.result;
                self.last_roller = Some(player);
                Ok(self.pos.outcome().map(|Outcome { kind, .. }| {
                    let points = kind.multiplier() * self.cube;
                    (
                        GameResult {
                            winner: player,
                            points,
                        },
                        Ending::BorneOff(kind),
                    )
                }))
            }
            Action::Double { player } => {
                if self.last_roller == Some(player) || self.last_roller.is_none() {
                    return refuse(
                        "4.4",
                        "a player doubles only on his own turn, before rolling",
                    );
                }
                if self.owner.is_some_and(|o| o != player) {
                    return refuse("4.4", "only the cube's owner may redouble");
                }
                self.offered_by = Some(player);
                Ok(None)
            }
            Action::Take { player } | Action::Drop { player } => {
                let Some(doubler) = self.offered_by.filter(|&d| d != player) else {
                    return refuse("4.4", "no double of the opponent to answer");
                };
                self.offered_by = None;
                if matches!(action, Action::Drop { .. }) {
                    let result = GameResult {
                        winner: doubler,
                        points: self.cube,
                    };
                    return Ok(Some((result, Ending::Dropped)));
                }
                self.cube = self.cube.saturating_mul(2);
                self.owner = Some(player);
                Ok(None)
            }
        }
    }
}

/// Replays one game from the starting position: every play must be legal for its roll
/// (4.2 (iii)), every cube action in turn (4.4); the result is computed, not read.
pub fn replay_game(game: &GameRecord, number: usize) -> Result<Replayed, ReplayError> {
    let mut table = Table {
        pos: Position::starting(),
        mover: 0,
        last_roller: None,
        cube: 1,
        owner: None,
        offered_by: None,
    };
    let mut end = None;
    let mut plays = 0;
    for (i, action) in game.actions.iter().enumerate() {
        let fail = |error| ReplayError {
            game: number,
            action: i + 1,
            error,
        };
        if end.is_some() {
            return Err(fail(RuleError::state("the game is already over")));
        }
        end = table.act(action).map_err(fail)?;
        plays += usize::from(matches!(action, Action::Roll { .. }));
    }
    table.view(0);
    let (result, ending) = match (end, game.result) {
        (Some((r, e)), _) => (Some(r), Some(e)),
        // No end on the board, but a winner recorded: a concession, which may not ask
        // more than the position still allows (4.5).
        (None, Some(r)) => {
            let loser_side = if r.winner == 0 { 1 } else { 0 };
            let most = table.pos.most_for_winner(loser_side);
            let kind = [WinKind::Single, WinKind::Gammon, WinKind::Backgammon]
                .into_iter()
                .find(|k| k.multiplier() * table.cube == r.points)
                .filter(|k| k.multiplier() <= most.multiplier())
                .ok_or_else(|| ReplayError {
                    game: number,
                    action: game.actions.len(),
                    error: RuleError::rule(
                        "4.5",
                        format!(
                            "a concession of {} points at a cube of {} asks more than the position allows ({:?} at most)",
                            r.points, table.cube, most
                        ),
                    ),
                })?;
            (Some(r), Some(Ending::Conceded(kind)))
        }
        (None, None) => (None, None),
    };
    Ok(Replayed {
        result,
        ending,
        final_position: table.pos,
        cube: table.cube,
        plays,
    })
}
