//! What a tournament is at a point of its log, and the fold that gets it there
//! ([`Tournament::evolve`]): the one path every record takes, whether planned now or
//! replayed from a store or an export.

use std::collections::BTreeMap;

use super::entrant::{Entrant, Status};
use super::event::Event;
use super::format::{Format, Plan};
use super::keys::{EntrantId, Flight, MatchKey};
use super::knockout::Knockout;
use super::rating::{self, Rating};
use crate::GameType;
use crate::audit::Hash;
use crate::time::Timestamp;

/// The draw as made: the revealed seed, the field, its seeds, and the order drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// The revealed draw seed.
    pub seed: [u8; 32],
    /// The field, ascending.
    pub field: Vec<EntrantId>,
    /// The seeded entrants, seed 1 first.
    pub seeds: Vec<EntrantId>,
    /// The order drawn.
    pub order: Vec<EntrantId>,
    /// When.
    pub at: Timestamp,
}

/// A Swiss round as paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPairing {
    /// The pairs, board 1 first.
    pub pairs: Vec<[EntrantId; 2]>,
    /// The bye.
    pub bye: Option<EntrantId>,
}

/// A match of the draw given its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    /// The match's id (the newest, after replacements).
    pub match_id: String,
    /// Its table.
    pub table: String,
    /// The players, A then B.
    pub players: [EntrantId; 2],
    /// Its scheduled start.
    pub start: Timestamp,
    /// Earlier logs of the same match, replaced by rulings, oldest first.
    pub replaced: Vec<String>,
}

/// A match's result as confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner; none for a drawn chess game.
    pub winner: Option<EntrantId>,
    /// Each player's points, the pairing's order.
    pub score: [u32; 2],
    /// Played (false: a ruling without play).
    pub played: bool,
    /// The director's words, if a ruling.
    pub ruling: String,
}

/// A tournament: the fold of its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its format, game and length.
    pub plan: Plan,
    /// The commitment to the draw seed.
    pub commitment: [u8; 32],
    /// The venue's tables.
    pub tables: Vec<String>,
    /// When it opened.
    pub opened_at: Timestamp,
    /// Its entrants, by number.
    pub entrants: BTreeMap<EntrantId, Entrant>,
    /// The draw, once made.
    pub draw: Option<Drawn>,
    /// The knockout drawn (knockouts only).
    pub(super) knockout: Option<Knockout>,
    /// The Swiss rounds paired, round 1 first.
    pub swiss: Vec<SwissPairing>,
    /// The rounds started and their scheduled start.
    pub rounds: BTreeMap<(Flight, u32), Timestamp>,
    /// The matches given logs.
    pub matches: BTreeMap<MatchKey, Assignment>,
    /// The confirmed results.
    pub results: BTreeMap<MatchKey, Outcome>,
    /// What each match's table last confirmed (winner and score), apart from the
    /// draw's own corrections: a confirmation read again is compared with it.
    pub table_results: BTreeMap<MatchKey, (Option<EntrantId>, [u32; 2])>,
    /// Matches put off, with the ruling.
    pub postponed: BTreeMap<MatchKey, String>,
    /// Matches given their own start.
    pub rescheduled: BTreeMap<MatchKey, Timestamp>,
    /// Records in the log.
    pub length: u64,
    /// The log's head.
    pub head: Hash,
}

impl Tournament {
    /// The tournament its first record opens; `None` if it is not `tournament.opened`
    /// or its commitment is not 64 hex digits.
    pub fn opened(event: &Event) -> Option<Tournament> {
        let Event::Opened {
            tournament,
            name,
            plan,
            commitment,
            tables,
            at,
        } = event
        else {
            return None;
        };
        let commitment = crate::audit::Hash::from_hex(commitment)?.0;
        Some(Tournament {
            id: tournament.clone(),
            name: name.clone(),
            plan: *plan,
            commitment,
            tables: tables.clone(),
            opened_at: *at,
            entrants: BTreeMap::new(),
            draw: None,
            knockout: None,
            swiss: Vec::new(),
            rounds: BTreeMap::new(),
            matches: BTreeMap::new(),
            results: BTreeMap::new(),
            table_results: BTreeMap::new(),
            postponed: BTreeMap::new(),
            rescheduled: BTreeMap::new(),
            length: 0,
            head: Hash::GENESIS,
        })
    }

    /// An entrant's name (`#n` if he is not one).
    pub fn name_of(&self, e: EntrantId) -> String {
        self.entrants
            .get(&e)
            .map_or_else(|| e.to_string(), |x| x.details.name.clone())
    }

    /// The key of the match whose current log is `match_id`.
    pub fn key_of(&self, match_id: &str) -> Option<MatchKey> {
        self.matches
            .iter()
            .find(|(_, a)| a.match_id == match_id)
            .map(|(k, _)| *k)
    }

    /// Folds one record in. The record was checked when it was planned, or by
    /// [`super::replay`]; this only applies it.
    pub fn evolve(&mut self, event: &Event) {
        match event {
            Event::Opened { .. } => {}
            Event::Registered { entrant, details } => {
                self.entrants.insert(
                    *entrant,
                    Entrant {
                        details: details.clone(),
                        status: Status::Registered,
                        rating: details.rating,
                        experience: details.experience,
                    },
                );
            }
            Event::Approved { entrant } => self.set_status(*entrant, Status::Approved),
            Event::CheckedIn { entrant, .. } => self.set_status(*entrant, Status::CheckedIn),
            Event::Out { entrant, .. } => self.set_status(*entrant, Status::Out),
            Event::Renamed { entrant, name } => {
                if let Some(e) = self.entrants.get_mut(entrant) {
                    e.details.name = name.clone();
                }
            }
            Event::TablesSet { tables } => self.tables = tables.clone(),
            Event::DrawMade {
                seed,
                field,
                seeds,
                order,
                at,
            } => self.evolve_draw(seed, field, seeds, order, *at),
            Event::RoundPaired { pairs, bye, .. } => self.swiss.push(SwissPairing {
                pairs: pairs.clone(),
                bye: *bye,
            }),
            Event::RoundStarted {
                flight,
                round,
                start,
            } => {
                self.rounds.insert((*flight, *round), *start);
            }
            Event::Assigned {
                key,
                match_id,
                table,
                players,
                start,
            } => self.assign(*key, match_id, table, *players, *start),
            Event::Result {
                key,
                winner,
                score,
                played,
                ruling,
            } => self.record_result(
                *key,
                Outcome {
                    winner: *winner,
                    score: *score,
                    played: *played,
                    ruling: ruling.clone(),
                },
            ),
            Event::Postponed { key, ruling } => {
                self.postponed.insert(*key, ruling.clone());
            }
            Event::Rescheduled { key, start, .. } => {
                self.postponed.remove(key);
                self.rescheduled.insert(*key, *start);
                if let Some(a) = self.matches.get_mut(key) {
                    a.start = *start;
                }
            }
            Event::Replaced { .. } => {}
        }
    }

    /// The draw made: its seed, field, seeds and order, and a knockout's bracket built
    /// from the order.
    fn evolve_draw(
        &mut self,
        seed: &str,
        field: &[EntrantId],
        seeds: &[EntrantId],
        order: &[EntrantId],
        at: Timestamp,
    ) {
        let seed = crate::audit::Hash::from_hex(seed).map_or([0; 32], |h| h.0);
        if let Format::Knockout { flights } = self.plan.format {
            self.knockout = Knockout::new(order, flights).ok();
        }
        self.draw = Some(Drawn {
            seed,
            field: field.to_vec(),
            seeds: seeds.to_vec(),
            order: order.to_vec(),
            at,
        });
    }

    /// A match log assigned to a pairing; the logs it replaces are remembered, and a
    /// postponement ends.
    fn assign(
        &mut self,
        key: MatchKey,
        match_id: &str,
        table: &str,
        players: [EntrantId; 2],
        start: Timestamp,
    ) {
        let replaced = self
            .matches
            .remove(&key)
            .map(|a| {
                let mut r = a.replaced;
                r.push(a.match_id);
                r
            })
            .unwrap_or_default();
        self.matches.insert(
            key,
            Assignment {
                match_id: match_id.to_owned(),
                table: table.to_owned(),
                players,
                start,
                replaced,
            },
        );
        self.postponed.remove(&key);
    }

    /// A pairing's result: the table's own kept apart from the director's rulings, and
    /// the ratings moved by the first result of a match played.
    fn record_result(&mut self, key: MatchKey, outcome: Outcome) {
        let first = !self.results.contains_key(&key);
        if outcome.ruling.is_empty() || outcome.ruling == super::event::CORRECTED_AT_TABLE {
            self.table_results
                .insert(key, (outcome.winner, outcome.score));
        }
        let (played, winner) = (outcome.played, outcome.winner);
        self.results.insert(key, outcome);
        if first && played {
            self.rate(key, winner);
        }
    }

    fn set_status(&mut self, entrant: EntrantId, status: Status) {
        if let Some(e) = self.entrants.get_mut(&entrant) {
            e.status = status;
        }
    }

    /// Moves both players' ratings by a played result: the FIBS formula for backgammon
    /// (an unrated player counts as FIBS's starting 1500), Elo with K = 20 for chess.
    /// Ratings move once per match: a corrected result does not move them again.
    fn rate(&mut self, key: MatchKey, winner: Option<EntrantId>) {
        let Some(players) = self.pairing_players(key) else {
            return;
        };
        let rating_of = |t: &Tournament, e: EntrantId| {
            t.entrants
                .get(&e)
                .and_then(|x| x.rating)
                .unwrap_or(Rating::FIBS_START)
        };
        let experience_of =
            |t: &Tournament, e: EntrantId| t.entrants.get(&e).map_or(0, |x| x.experience);
        let length = self.plan.length;
        let changes: [i64; 2] = match (self.plan.game, winner) {
            (GameType::Backgammon, Some(w)) => {
                let l = if players[0] == w {
                    players[1]
                } else {
                    players[0]
                };
                let Ok(c) = rating::fibs(
                    rating_of(self, w),
                    rating_of(self, l),
                    length,
                    experience_of(self, w),
                    experience_of(self, l),
                ) else {
                    return;
                };
                if players[0] == w {
                    [c.winner_gain.0, -c.loser_loss.0]
                } else {
                    [-c.loser_loss.0, c.winner_gain.0]
                }
            }
            (GameType::Backgammon, None) => return,
            (GameType::Chess, w) => {
                let score = |p: EntrantId| match w {
                    None => rating::Score::Draw,
                    Some(x) if x == p => rating::Score::Win,
                    Some(_) => rating::Score::Loss,
                };
                let change = |me: EntrantId, them: EntrantId| {
                    rating::elo(rating_of(self, me), rating_of(self, them), score(me), 20)
                        .map_or(0, |r| r.0)
                };
                [
                    change(players[0], players[1]),
                    change(players[1], players[0]),
                ]
            }
        };
        for (p, change) in players.iter().zip(changes) {
            if let Some(e) = self.entrants.get_mut(p) {
                let now = e
                    .rating
                    .unwrap_or(Rating::FIBS_START)
                    .0
                    .saturating_add(change);
                e.rating = Some(Rating(now.clamp(0, Rating::MAX.0)));
                e.experience = e.experience.saturating_add(length);
            }
        }
    }

    /// The players of the match at `key`, when assigned.
    pub fn pairing_players(&self, key: MatchKey) -> Option<[EntrantId; 2]> {
        self.matches.get(&key).map(|a| a.players)
    }
}
