//! Results and rulings on a match of the draw: a result confirmed at its table (4.6), a
//! forfeit, a correction while nothing drawn from it is played, a postponement, a new
//! start, a replacement log; and a player taken out, whose pairings are then forfeited.

use super::{MAX_ID, check_words, side_index};
use crate::GameType;
use crate::side::Side;
use crate::tournament::TournamentError;
use crate::tournament::command::Ruling;
use crate::tournament::entrant::Status;
use crate::tournament::event::Event;
use crate::tournament::format::Format;
use crate::tournament::keys::{EntrantId, MatchKey};
use crate::tournament::pairings::Pairing;
use crate::tournament::state::Tournament;

impl Tournament {
    pub(super) fn confirmed(
        &self,
        match_id: &str,
        winner: Option<Side>,
        score: [u32; 2],
        played: bool,
    ) -> Result<Vec<Event>, TournamentError> {
        let key = self.key_of(match_id).ok_or_else(|| {
            TournamentError::not_found(format!(
                "match {match_id} is not a current match of {}'s draw",
                self.id
            ))
        })?;
        let players = self.matches[&key].players;
        let winner_entrant = winner.map(|s| players[side_index(s)]);
        if let Some(old) = self.results.get(&key) {
            // The same confirmation read again (a restart, a second watcher): nothing new,
            // even when the draw corrected it since (its own correction stands).
            if self.table_results.get(&key) == Some(&(winner_entrant, score)) {
                return Ok(Vec::new());
            }
            // Corrected at its table and confirmed again (4.6): the draw takes the
            // correction, under the same rule as its own (nothing drawn from the old
            // result may have been given a log since).
            let event = Event::Result {
                key,
                winner: winner_entrant,
                score,
                played: old.played,
                ruling: crate::tournament::event::CORRECTED_AT_TABLE.into(),
            };
            self.check_correction(key, &event)?;
            return Ok(vec![event]);
        }
        if winner.is_none() && self.plan.game != GameType::Chess {
            return Err(TournamentError::invalid(
                "a backgammon match has a winner: a drawn result is for chess",
            ));
        }
        Ok(vec![Event::Result {
            key,
            winner: winner_entrant,
            score,
            played,
            ruling: String::new(),
        }])
    }

    pub(super) fn rule(
        &self,
        key: MatchKey,
        ruling: &Ruling,
        words: &str,
    ) -> Result<Vec<Event>, TournamentError> {
        check_words(words).map_err(|e| {
            TournamentError::invalid(format!("a ruling needs the director's words: {e}"))
        })?;
        let pairing = self.pairing(key)?;
        let ruling_text = words.to_string();
        let decided = self.results.contains_key(&key);
        match ruling {
            Ruling::Forfeit { winner } => self.forfeit(key, &pairing, *winner, decided, words),
            Ruling::Correct { winner, score } => {
                self.correct(key, &pairing, *winner, *score, words)
            }
            Ruling::Postpone => {
                self.check_movable(key, decided)?;
                if self.postponed.contains_key(&key) {
                    return Err(TournamentError::rule(format!("{key} is already put off")));
                }
                Ok(vec![Event::Postponed {
                    key,
                    ruling: ruling_text,
                }])
            }
            Ruling::Reschedule { start } => {
                self.check_movable(key, decided)?;
                crate::backgammon::setup::check_schedule(*start, self.opened_at)
                    .map_err(|e| TournamentError::invalid(e.to_string()))?;
                Ok(vec![Event::Rescheduled {
                    key,
                    start: *start,
                    ruling: ruling_text,
                }])
            }
            Ruling::Replace => self.replace(key, decided, words),
        }
    }

    /// An entrant taken out: before the draw, refused or withdrawn (1.4); after it,
    /// withdrawn from the day — each pairing of his without a log is then decided
    /// without play for his opponent as soon as it is known
    /// ([`Self::forfeits_of_withdrawn`]); a match he is playing is settled at its table.
    pub(super) fn out(
        &self,
        entrant: EntrantId,
        reason: &str,
    ) -> Result<Vec<Event>, TournamentError> {
        let e = self.entrant(entrant)?;
        check_words(reason).map_err(|e| {
            TournamentError::invalid(format!(
                "1.4: taking an entrant out needs the explanation given to him: {e}"
            ))
        })?;
        if e.status == Status::Out {
            return Err(TournamentError::rule(format!(
                "{} is out of the tournament already",
                self.label(entrant)
            )));
        }
        if let Some(drawn) = &self.draw
            && !drawn.field.contains(&entrant)
        {
            return Err(TournamentError::rule(format!(
                "{} was not checked in, so he is not in the draw",
                self.label(entrant)
            )));
        }
        Ok(vec![Event::Out {
            entrant,
            reason: reason.to_string(),
        }])
    }

    /// The results a withdrawal decides now: every undecided pairing without a log in
    /// which a player is out, won without play by his opponent (by player A when both
    /// are out, so that a knockout goes on; he forfeits his next pairing in turn).
    pub(super) fn forfeits_of_withdrawn(&self) -> Vec<Event> {
        let out = |e: EntrantId| self.is_out(e);
        let mut events = Vec::new();
        for p in self.current_draw().pairings {
            let [a, b] = p.players;
            if self.results.contains_key(&p.key)
                || self.matches.contains_key(&p.key)
                || !(out(a) || out(b))
            {
                continue;
            }
            let winner = if out(a) && !out(b) { b } else { a };
            let gone = if out(a) { a } else { b };
            let words = format!("{} withdrew from the tournament", self.label(gone));
            events.push(won_without_play(&p, winner, &words));
        }
        events
    }

    /// Whether entrant `e` is out of the tournament (refused, or withdrawn).
    pub(super) fn is_out(&self, e: EntrantId) -> bool {
        self.entrants
            .get(&e)
            .is_some_and(|e| e.status == Status::Out)
    }

    /// A pairing forfeited before it has a log: one with a log is forfeited at its table,
    /// and its result comes here when confirmed.
    fn forfeit(
        &self,
        key: MatchKey,
        pairing: &Pairing,
        winner: EntrantId,
        decided: bool,
        words: &str,
    ) -> Result<Vec<Event>, TournamentError> {
        if decided {
            return Err(TournamentError::rule(format!(
                "{key} has a result: correct it (4.6) rather than forfeit it"
            )));
        }
        self.one_of(pairing, winner)?;
        if let Some(a) = self.matches.get(&key) {
            return Err(TournamentError::rule(format!(
                "{key} is being played as match {id}: forfeit it at its table \
                 (baffle rule {id} --reason \"…\" --article 2.2 forfeit-match A|B, \
                 then baffle rule {id} --reason \"…\" --article 4.6 confirm), and \
                 its result comes here when confirmed",
                id = a.match_id
            )));
        }
        Ok(vec![won_without_play(pairing, winner, words)])
    }

    /// A confirmed result corrected (4.6): the winner has at least the loser's points,
    /// and only chess has no winner.
    fn correct(
        &self,
        key: MatchKey,
        pairing: &Pairing,
        winner: Option<EntrantId>,
        score: [u32; 2],
        words: &str,
    ) -> Result<Vec<Event>, TournamentError> {
        let Some(old) = self.results.get(&key) else {
            return Err(TournamentError::rule(format!(
                "4.6: {key} has no confirmed result to correct"
            )));
        };
        if let Some(w) = winner {
            self.one_of(pairing, w)?;
            let mine = if pairing.players[0] == w { 0 } else { 1 };
            if score[mine] < score[1 - mine] {
                return Err(TournamentError::invalid(format!(
                    "4.6: the winner {} cannot have fewer points than the loser \
                     ({}-{} in the pairing's order, {} first)",
                    self.label(w),
                    score[0],
                    score[1],
                    self.label(pairing.players[0])
                )));
            }
        } else if self.plan.game != GameType::Chess {
            return Err(TournamentError::invalid(
                "a backgammon match has a winner: a drawn result is for chess",
            ));
        }
        let event = Event::Result {
            key,
            winner,
            score,
            played: old.played,
            ruling: words.to_string(),
        };
        self.check_correction(key, &event)?;
        Ok(vec![event])
    }

    /// A match's log replaced by a fresh one (`-r2`, `-r3`, …) at the same table, before
    /// it has a result.
    fn replace(
        &self,
        key: MatchKey,
        decided: bool,
        words: &str,
    ) -> Result<Vec<Event>, TournamentError> {
        let Some(a) = self.matches.get(&key) else {
            return Err(TournamentError::rule(format!(
                "{key} has no match log to replace"
            )));
        };
        if decided {
            return Err(TournamentError::rule(format!(
                "{key} has a result: correct it (4.6) rather than replay it"
            )));
        }
        let n = a.replaced.len() + 2;
        let match_id = format!("{}-r{n}", self.match_id(key));
        if match_id.len() > MAX_ID {
            return Err(TournamentError::rule(format!(
                "{key} was replaced too often: its next id {match_id} is too long"
            )));
        }
        Ok(vec![
            Event::Replaced {
                key,
                old: a.match_id.clone(),
                ruling: words.to_string(),
            },
            Event::Assigned {
                key,
                match_id,
                table: a.table.clone(),
                players: a.players,
                start: a.start,
            },
        ])
    }

    /// A correction is refused while a match created after the result depends on it:
    /// the players of every match already given a log must stay who they are.
    /// A match is put off or given its own start before its result; one with a log is
    /// moved at its table too (2.2: the server sends its table the director's ruling,
    /// which a match already begun refuses). A chess game's start is its clock's (6.6):
    /// it is replaced, with a new start, instead.
    fn check_movable(&self, key: MatchKey, decided: bool) -> Result<(), TournamentError> {
        if decided {
            return Err(TournamentError::rule(format!(
                "{key} has a result: it is not moved any more"
            )));
        }
        if self.plan.game == GameType::Chess && self.matches.contains_key(&key) {
            return Err(TournamentError::rule(format!(
                "{key} has a game log: a chess game starts when its clock says (6.6); \
                 replace the match to play it at another time"
            )));
        }
        Ok(())
    }

    fn check_correction(&self, key: MatchKey, event: &Event) -> Result<(), TournamentError> {
        if let Format::Swiss { .. } = self.plan.format
            && self.swiss.len() > key.round as usize
        {
            return Err(TournamentError::rule(format!(
                "4.6: round {} was paired from this result: a Swiss result is corrected before \
                 the next round is paired",
                key.round + 1
            )));
        }
        if let Some(k) = self.redrawn_by(event) {
            return Err(TournamentError::rule(format!(
                "4.6: {k} ({}) was drawn from this result: replace or correct it first",
                self.matches[&k].match_id
            )));
        }
        Ok(())
    }

    fn pairing(&self, key: MatchKey) -> Result<Pairing, TournamentError> {
        self.current_draw()
            .pairings
            .into_iter()
            .find(|p| p.key == key)
            .ok_or_else(|| {
                TournamentError::not_found(format!(
                    "{key} is not a match of the draw with both players known"
                ))
            })
    }

    fn one_of(&self, pairing: &Pairing, e: EntrantId) -> Result<(), TournamentError> {
        if pairing.players.contains(&e) {
            Ok(())
        } else {
            Err(TournamentError::invalid(format!(
                "{} does not play {}",
                self.label(e),
                pairing.key
            )))
        }
    }
}

/// The result of `pairing` won by `winner` without play (a forfeit, a withdrawal): a
/// point to him in the pairing's order, and the ruling's `words`.
fn won_without_play(pairing: &Pairing, winner: EntrantId, words: &str) -> Event {
    let score = if pairing.players[0] == winner {
        [1, 0]
    } else {
        [0, 1]
    };
    Event::Result {
        key: pairing.key,
        winner: Some(winner),
        score,
        played: false,
        ruling: words.to_string(),
    }
}
