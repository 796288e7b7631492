//! A move made but not yet completed (6.2 (a)): "his move is not considered to have been
//! completed until he has [pressed], unless the made move ends the game". So a flag that
//! falls between the move and the press stands — unless the move was a checkmate, which
//! ended the game before the flag fell (5.1 (a)).

use super::{Color, Event, Game, GameResult, Outcome, Reason};
use crate::chess::error::ChessError;
use crate::time::Timestamp;

impl Game {
    /// The player on move made his move on the board; the press has not come yet.
    pub(super) fn move_made(
        &mut self,
        color: Color,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        self.check_on_move(color, "6.2 (a)", "moves")?;
        if self.made.is_some() {
            return Err(ChessError::rule(
                "6.2 (a)",
                format!("{color:?} has made his move already: his press completes it"),
            ));
        }
        self.emit(Event::MoveMade { color, at: now }, out)
    }

    /// `winner` checkmated. In a game in progress that ends it. In a game his own flag
    /// ended, it still does if his mating move was made before the flag fell: the made
    /// move ended the game (6.2 (a), 5.1 (a)), and the press that did not come in time
    /// does not matter.
    pub(super) fn checkmate(
        &mut self,
        winner: Color,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        let Some(result) = self.result else {
            return self.end(Outcome::win(winner), Reason::Checkmate, now, out);
        };
        let lost_on_his_flag =
            result.reason == Reason::Flag && result.outcome == Outcome::win(winner.other());
        let flag_at = self
            .flags
            .iter()
            .find(|(c, _)| *c == winner)
            .map(|(_, at)| *at);
        let made_before_flag = self
            .made
            .zip(flag_at)
            .is_some_and(|((c, made), flag)| c == winner && made <= flag);
        if !lost_on_his_flag {
            return self.over();
        }
        if !made_before_flag {
            return Err(ChessError::rule(
                "6.2 (a)",
                format!(
                    "{winner:?}'s flag fell before he made a move: his checkmate came too late"
                ),
            ));
        }
        let result = GameResult {
            outcome: Outcome::win(winner),
            reason: Reason::Checkmate,
        };
        self.emit(Event::Ended { result, at: now }, out)
    }
}
