//! The quickplay finish (2009 Article 10.2; 2014 Appendix G; Guidelines III from 2018):
//! the claim of the player having the move with under two minutes left, and the
//! arbiter's answers, which differ by edition (`super::super::category`).

use super::{
    Color, Event, Game, Outcome, QUICKPLAY_REJECTED_BONUS, QUICKPLAY_THRESHOLD, QuickplayRuling,
    Reason,
};
use crate::chess::category::{Laws, quickplay_applies, quickplay_increment_allowed};
use crate::chess::error::ChessError;
use crate::clock::{PauseReason, TimingMethod};
use crate::time::Timestamp;

impl Game {
    /// A quickplay-finish claim (2009 10.2; 2014 G.5; Guidelines III.5) by the player
    /// having the move: the clocks stop for the arbiter.
    pub(super) fn quickplay_claim(
        &mut self,
        color: Color,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        let laws = self.setup.laws;
        let article = laws.quickplay_article();
        if !quickplay_applies(laws, self.category, self.setup.supervised) {
            let why = match laws {
                Laws::Fide2009 => {
                    "2009 B.3 (b): Article 10.2 does not apply to blitz without \
                                   adequate supervision"
                }
                _ => "the quickplay-finish rules are for standard and rapid games, not blitz",
            };
            return Err(ChessError::rule(article, why));
        }
        if self.to_move() != Some(color) {
            return Err(ChessError::rule(
                article,
                format!("only the player having the move may claim, and {color:?} is not on move"),
            ));
        }
        if self.claim.is_some() {
            return Err(ChessError::state(
                "a quickplay claim is already before the arbiter",
            ));
        }
        let period = self
            .setup
            .control
            .period(self.clock.view(color.side(), now).period);
        if !matches!(period.method, TimingMethod::SuddenDeath) {
            return Err(ChessError::rule(
                article,
                "a quickplay finish is for games without increment or delay",
            ));
        }
        if self.clock.view(color.side(), now).main >= QUICKPLAY_THRESHOLD {
            return Err(ChessError::rule(
                article,
                "a quickplay claim needs less than two minutes left",
            ));
        }
        self.emit(Event::QuickplayClaimed { color, at: now }, out)?;
        self.emit(
            Event::Paused {
                reason: PauseReason::DirectorCalled.name().to_string(),
                at: now,
            },
            out,
        )
    }

    /// The arbiter's ruling on a quickplay claim: a draw; an increment for both with two
    /// minutes to the opponent (2014 G.4, III.4; not 2009); a postponement, with or
    /// without two minutes to the opponent (2009 10.2 (b), G.5, III.5); or the claim
    /// rejected with two minutes to the opponent (10.2 (c)). A postponed claim is ruled
    /// on later: a draw (also after a flag ended the game) or dismissed.
    pub(super) fn quickplay_ruling(
        &mut self,
        ruling: QuickplayRuling,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        let claimant = self
            .claim
            .ok_or_else(|| ChessError::state("no quickplay claim is pending"))?;
        let article = self.setup.laws.quickplay_article();
        let opponent = claimant.other();
        if self.claim_postponed {
            return match ruling {
                // Also after a flag ended the game: the draw replaces the loss.
                QuickplayRuling::Draw => {
                    self.emit(Event::QuickplayDismissed { at: now }, out)?;
                    self.end(Outcome::Draw, Reason::QuickplayFinish, now, out)
                }
                QuickplayRuling::Reject => self.emit(Event::QuickplayDismissed { at: now }, out),
                _ => Err(ChessError::rule(
                    article,
                    "the decision is postponed: the arbiter now declares a draw or rejects",
                )),
            };
        }
        match ruling {
            QuickplayRuling::Draw => {
                return self.end(Outcome::Draw, Reason::QuickplayFinish, now, out);
            }
            QuickplayRuling::Increment => {
                if !quickplay_increment_allowed(self.setup.laws) {
                    return Err(ChessError::rule(
                        "10.2",
                        "the 2009 Laws let the arbiter declare a draw, postpone or reject, \
                         not introduce an increment",
                    ));
                }
                self.emit(Event::IncrementIntroduced { at: now }, out)?;
                self.give_quickplay_minutes(opponent, "increment introduced", now, out)?;
            }
            QuickplayRuling::Postpone { extra_time } => {
                self.emit(Event::QuickplayPostponed { at: now }, out)?;
                if extra_time {
                    self.give_quickplay_minutes(opponent, "decision postponed", now, out)?;
                }
            }
            QuickplayRuling::Reject => {
                self.give_quickplay_minutes(opponent, "claim rejected", now, out)?;
            }
        }
        self.emit(Event::Resumed { at: now }, out)
    }

    /// Two extra minutes to `opponent` of a quickplay claimant.
    fn give_quickplay_minutes(
        &mut self,
        opponent: Color,
        why: &str,
        now: Timestamp,
        out: &mut Vec<Event>,
    ) -> Result<(), ChessError> {
        let time = self.clock.view(opponent.side(), now).main + QUICKPLAY_REJECTED_BONUS;
        let article = self.setup.laws.quickplay_article();
        self.emit(
            Event::TimeSet {
                color: opponent,
                time,
                why: format!("{article}: {why}, two minutes to the opponent"),
                at: now,
            },
            out,
        )
    }
}
