//! A short match of several games between two players, colours alternating: player A
//! has White in games 1, 3, 5, … Scores are kept in half points. A Chess960 series draws
//! its starting position from the match's audited dice stream (commitment before,
//! reveal after: `docs/dice.md`), and every game of it starts from that position.

use serde::{Deserialize, Serialize};

use super::game::{Color, GameResult, Outcome};
use crate::dice::{DiceStream, chess960_back_rank};
use crate::side::Side;

/// A Chess960 starting position: its number (0–959, 518 being the classical one) and
/// White's back rank from a to h (Black mirrors it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chess960 {
    /// The starting position's number.
    pub sp: u16,
    /// White's back rank, a to h, e.g. "RNBQKBNR".
    pub back_rank: String,
}

impl Chess960 {
    /// The position numbered `sp`.
    pub fn numbered(sp: u16) -> Option<Chess960> {
        let rank = chess960_back_rank(sp)?;
        Some(Chess960 {
            sp,
            back_rank: rank.iter().collect(),
        })
    }

    /// Black's back rank, a to h, in lower case: White's mirrored (Appendix F).
    pub fn black_back_rank(&self) -> String {
        self.back_rank.to_ascii_lowercase()
    }

    /// The next position drawn from the audited stream.
    pub fn draw(stream: &mut DiceStream) -> Chess960 {
        let sp = stream.chess960();
        Chess960::numbered(sp).expect("the stream draws 0..960")
    }
}

/// A match of `games` games between players A and B.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    games: u32,
    results: Vec<GameResult>,
    position: Option<Chess960>,
}

impl Series {
    /// A match of `games` games (at least one), from the usual position or `position`.
    pub fn new(games: u32, position: Option<Chess960>) -> Series {
        Series {
            games: games.max(1),
            results: Vec::new(),
            position,
        }
    }

    /// Games in the match.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// The Chess960 position, if any.
    pub fn position(&self) -> Option<&Chess960> {
        self.position.as_ref()
    }

    /// Sets the Chess960 position (drawn once, before it is needed).
    pub(super) fn set_position(&mut self, position: Chess960) {
        self.position = Some(position);
    }

    /// The game being played or next, 1 = first; `None` when all are played.
    pub fn current(&self) -> Option<u32> {
        let n = self.results.len() as u32 + 1;
        (n <= self.games).then_some(n)
    }

    /// Who has White in game `n` (1 = first): A in odd games, B in even.
    pub fn white_in(&self, n: u32) -> Side {
        if n % 2 == 1 { Side::A } else { Side::B }
    }

    /// The player of `color` in game `n`.
    pub fn player(&self, n: u32, color: Color) -> Side {
        match color {
            Color::White => self.white_in(n),
            Color::Black => self.white_in(n).other(),
        }
    }

    /// Records the current game's result; refused when all games are played.
    pub fn record(&mut self, result: GameResult) -> Result<(), String> {
        if self.current().is_none() {
            return Err(format!("all {} games are played", self.games));
        }
        self.results.push(result);
        Ok(())
    }

    /// Replaces the last game's result (a ruling after it ended, 6.9).
    pub(super) fn correct_last(&mut self, result: GameResult) {
        if let Some(last) = self.results.last_mut() {
            *last = result;
        }
    }

    /// Results so far, game 1 first.
    pub fn results(&self) -> &[GameResult] {
        &self.results
    }

    /// Half points of (A, B).
    pub fn half_points(&self) -> (u32, u32) {
        self.results
            .iter()
            .enumerate()
            .fold((0, 0), |(a, b), (i, r)| {
                let (white, black) = r.outcome.half_points();
                if self.white_in(i as u32 + 1) == Side::A {
                    (a + white, b + black)
                } else {
                    (a + black, b + white)
                }
            })
    }

    /// The match winner once decided: more than half the points available.
    pub fn winner(&self) -> Option<Side> {
        let (a, b) = self.half_points();
        let total = 2 * self.games;
        if 2 * a > total {
            Some(Side::A)
        } else if 2 * b > total {
            Some(Side::B)
        } else {
            None
        }
    }

    /// Whether a game result counts for player `side` as a win.
    pub fn won_by(&self, n: u32, outcome: Outcome) -> Option<Side> {
        match outcome {
            Outcome::WhiteWins => Some(self.player(n, Color::White)),
            Outcome::BlackWins => Some(self.player(n, Color::Black)),
            Outcome::Draw | Outcome::BothLose => None,
        }
    }
}
