//! Rounds: starting one (a Swiss's next round paired from the standings first), and
//! giving each match that is ready its log, its table and its start.

use std::collections::{BTreeMap, BTreeSet};

use super::flight_name;
use crate::time::Timestamp;
use crate::tournament::event::Event;
use crate::tournament::format::Format;
use crate::tournament::keys::{EntrantId, Flight};
use crate::tournament::pairings::ordered;
use crate::tournament::state::Tournament;
use crate::tournament::{TournamentError, swiss};

impl Tournament {
    pub(super) fn start_round(
        &self,
        flight: Flight,
        round: u32,
        start: Timestamp,
    ) -> Result<Vec<Event>, TournamentError> {
        if self.draw.is_none() {
            return Err(TournamentError::rule(
                "the draw is not made yet: make it first (baffle draw make)",
            ));
        }
        let count = self.round_count(flight);
        if count == 0 {
            return Err(TournamentError::not_found(format!(
                "this tournament has no {} flight: its format has {}",
                flight_name(flight),
                self.flights()
                    .iter()
                    .map(|f| flight_name(*f))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        if round == 0 || round > count {
            return Err(TournamentError::not_found(format!(
                "the {} flight has rounds 1 to {count}, not {round}",
                flight_name(flight)
            )));
        }
        if self.rounds.contains_key(&(flight, round)) {
            return Err(TournamentError::rule(format!(
                "round {round} of the {} flight has started already",
                flight_name(flight)
            )));
        }
        let mut events = Vec::new();
        if let Format::Swiss { .. } = self.plan.format
            && round > 1
        {
            let paired = u32::try_from(self.swiss.len()).unwrap_or(u32::MAX);
            if round != paired + 1 || !self.rounds.contains_key(&(flight, paired)) {
                return Err(TournamentError::rule(format!(
                    "a Swiss plays its rounds in order: round {} comes next",
                    if self.rounds.contains_key(&(flight, paired)) {
                        paired + 1
                    } else {
                        paired
                    }
                )));
            }
            let unfinished = self.unfinished_in(paired);
            if !unfinished.is_empty() {
                return Err(TournamentError::rule(format!(
                    "round {round} is paired from round {paired}'s results: {} still to come",
                    unfinished.join(", ")
                )));
            }
            events.push(self.pair_swiss(round)?);
        }
        events.push(Event::RoundStarted {
            flight,
            round,
            start,
        });
        Ok(events)
    }

    /// The matches of Swiss round `round` without a result, by key.
    fn unfinished_in(&self, round: u32) -> Vec<String> {
        self.current_draw()
            .pairings
            .iter()
            .filter(|p| p.key.round == round && !self.results.contains_key(&p.key))
            .map(|p| p.key.to_string())
            .collect()
    }

    /// Pairs Swiss round `round` from the standings now (the fold recomputes it).
    pub(in crate::tournament) fn pair_swiss(&self, round: u32) -> Result<Event, TournamentError> {
        let mut ranked = self.swiss_ranking()?;
        // A player withdrawn after the draw is paired no more.
        ranked.retain(|e| !self.is_out(*e));
        let draw = self.current_draw();
        let played: BTreeSet<(EntrantId, EntrantId)> =
            draw.pairings.iter().map(|p| ordered(p.players)).collect();
        let had_bye: BTreeSet<EntrantId> = draw.byes.iter().map(|b| b.entrant).collect();
        let paired = swiss::pair_round(&ranked, &played, &had_bye)
            .map_err(|e| TournamentError::rule(e.to_string()))?;
        Ok(Event::RoundPaired {
            round,
            pairs: paired.pairs.iter().map(|(a, b)| [*a, *b]).collect(),
            bye: paired.bye,
        })
    }

    /// The field in standing order, equal places in draw order: what a Swiss pairs from.
    pub fn swiss_ranking(&self) -> Result<Vec<EntrantId>, TournamentError> {
        let Some(drawn) = &self.draw else {
            return Ok(Vec::new());
        };
        let position: BTreeMap<EntrantId, usize> = drawn
            .order
            .iter()
            .enumerate()
            .map(|(i, e)| (*e, i))
            .collect();
        let mut rows = self.table()?;
        rows.sort_by_key(|r| {
            (
                r.place,
                position.get(&r.entrant).copied().unwrap_or(usize::MAX),
            )
        });
        Ok(rows.into_iter().map(|r| r.entrant).collect())
    }

    /// Gives a match log to every pairing that is ready: undecided, without one, in a
    /// started round, not postponed, both players free, and a table free (the first
    /// free one in the venue's order). Matches go out in key order.
    pub fn assign_ready(&self, now: Timestamp) -> Vec<Event> {
        // Each assignment takes a table and two players: folded into a working copy so
        // the next one sees them taken.
        let mut work = self.clone();
        let mut out = Vec::new();
        for pairing in self.current_draw().pairings {
            let key = pairing.key;
            let Some(round_start) = work.rounds.get(&(key.flight, key.round)) else {
                continue;
            };
            if work.results.contains_key(&key)
                || work.matches.contains_key(&key)
                || work.postponed.contains_key(&key)
            {
                continue;
            }
            let busy = work.busy();
            if pairing.players.iter().any(|p| busy.players.contains(p)) {
                continue;
            }
            let Some(table) = work
                .tables
                .iter()
                .find(|t| !busy.tables.contains(*t))
                .cloned()
            else {
                break;
            };
            let start = work
                .rescheduled
                .get(&key)
                .copied()
                .unwrap_or_else(|| (*round_start).max(now));
            let event = Event::Assigned {
                key,
                match_id: work.match_id(key),
                table,
                players: pairing.players,
                start,
            };
            work.evolve(&event);
            out.push(event);
        }
        out
    }

    /// The players and tables of matches with a log and no result.
    fn busy(&self) -> Busy {
        let mut busy = Busy::default();
        for (k, a) in &self.matches {
            if !self.results.contains_key(k) {
                busy.players.extend(a.players);
                busy.tables.insert(a.table.clone());
            }
        }
        busy
    }
}

#[derive(Default)]
struct Busy {
    players: BTreeSet<EntrantId>,
    tables: BTreeSet<String>,
}
