//! The Crawford game, decided on the record as corrected (4.4 (iv), 4.6, 4.7).
//!
//! The Crawford game is the first game that began with a player exactly one point from
//! winning. Corrections change that record after the fact, so the flags are decided again
//! after each:
//!
//! - a game's result corrected (4.6) moves the start score of every later game;
//! - a score corrected (4.7) corrects the score announced before the latest game (the one
//!   in progress, or the last one played if none is): its start score moves by as much.
//!
//! A correction can so make a past game the Crawford game (a double made in it is then void
//! and the director voids it, 4.4 (iv)(b)(c)), or take that status from a game that did not
//! begin one point away on the corrected record — and then a later game is the Crawford
//! game, as the issue-17 scenario needs: 0-2 corrected to 1-1, the game at 2-1 is Crawford.

use super::Match;
use super::cube::Cube;
use crate::side::Side;

/// Whether a game begun at `score` in a match of `length` is the Crawford game if none has
/// been played: a player exactly one point away, and nobody at the length.
pub(super) fn one_away(score: [u32; 2], length: u32) -> bool {
    score.iter().any(|&s| s.saturating_add(1) == length) && score.iter().all(|&s| s < length)
}

/// `score` moved by `delta`, never below zero nor past `u32::MAX`.
fn shifted(score: u32, delta: i64) -> u32 {
    u32::try_from((i64::from(score) + delta).max(0)).unwrap_or(u32::MAX)
}

impl Match {
    /// Whether the next game would be the Crawford game: none played on the corrected
    /// record and a player exactly one point from winning (4.4), whatever brought him there.
    pub(super) fn next_game_is_crawford(&self) -> bool {
        !self.games.iter().any(|g| g.crawford) && one_away(self.score, self.length)
    }

    /// Decides every game's Crawford status again from the corrected start scores. A
    /// centred cube leaves or comes back at once; a turned cube stays until the director
    /// voids its doubles (4.4 (iv)(a)).
    pub(super) fn settle_crawford(&mut self) {
        let mut seen = false;
        for g in &mut self.games {
            g.crawford = !seen && one_away(g.score_at_start, g.length);
            seen |= g.crawford;
        }
        if let Some(game) = self.game.as_mut() {
            let crawford = !seen && one_away(game.score_at_start, game.length);
            if crawford != game.crawford {
                game.crawford = crawford;
                if crawford && game.cube == Some(Cube::CENTRED) {
                    game.cube = None;
                }
                if !crawford && game.cube.is_none() {
                    game.cube = Some(Cube::CENTRED);
                }
            }
        }
    }

    /// Moves `side`'s start score by `delta` in every game from the finished game at index
    /// `from` on, the game in progress included (`from == games.len()`: that game alone).
    pub(super) fn shift_start_scores(&mut self, from: usize, side: Side, delta: i64) {
        let i = side.index();
        for g in self.games.iter_mut().skip(from) {
            g.score_at_start[i] = shifted(g.score_at_start[i], delta);
        }
        if let Some(game) = self.game.as_mut() {
            game.score_at_start[i] = shifted(game.score_at_start[i], delta);
        }
    }

    /// A score corrected to `score` (4.7): the score announced before the latest game was
    /// wrong by the difference.
    pub(super) fn correct_score_record(&mut self, score: [u32; 2]) {
        let latest = if self.game.is_some() {
            self.games.len()
        } else {
            self.games.len().saturating_sub(1)
        };
        for side in Side::BOTH {
            let delta = i64::from(score[side.index()]) - i64::from(self.score(side));
            self.shift_start_scores(latest, side, delta);
        }
        self.score = score;
        self.cap_penalties();
        self.settle_crawford();
    }

    /// Penalty points received are points of the score: after a correction or a
    /// deduction leaves a player fewer points than the penalty points he was counted,
    /// the count follows the score. (A new director's `correct-score 1 0` left phones
    /// showing "a penalty point to Ben" beside Ben's 0.)
    pub(super) fn cap_penalties(&mut self) {
        for side in Side::BOTH {
            let i = side.index();
            self.penalty_received[i] = self.penalty_received[i].min(self.score[i]);
        }
    }
}
