//! # A tournament without a draw: the matches its director makes by hand
//!
//! A director who makes his matches himself (`baffle match create`) keeps the same kind
//! of record of them as a draw does: the tournament's log (stream `t/{id}`, written when
//! its first match is made) opens with `tournament.created` and holds a `match.created`
//! for every match, in the order they were made, hash-chained like every log and read
//! back through [`replay`] by the server and by `baffle audit verify`.
//!
//! One rule is kept here ([`ByHand::plan`]): a round has one match at a table and one
//! between two players (the matches of a best-of-three series aside, 2.2). A second is
//! made only to replace the first, naming it, with the director's words, so a match
//! recreated with fresh dice (to escape an opening he disliked, say) is always linked
//! to the one it replaced.
//!
//! ```
//! use baffle_core::Timestamp;
//! use baffle_core::tournament::by_hand::{ByHand, NewMatch, Replacing};
//!
//! let created = ByHand::create("club", "Club night", Timestamp(0)).unwrap();
//! let log = created.log;
//! let first = NewMatch::new("m1", 1, "4", ["Anna", "Ben"]);
//! let log = log.plan(&first, Timestamp(1)).unwrap().log;
//! // The same table in the same round: refused unless it replaces m1.
//! let again = NewMatch::new("m2", 1, "4", ["Anna", "Ben"]);
//! assert!(log.plan(&again, Timestamp(2)).is_err());
//! let replacing = NewMatch {
//!     replaces: Some(Replacing { match_id: "m1".into(), ruling: "wrong length".into() }),
//!     ..again
//! };
//! let plan = log.plan(&replacing, Timestamp(2)).unwrap();
//! assert_eq!(plan.log.replaced_by("m1"), Some("m2"));
//! ```

use serde::{Deserialize, Serialize};

use super::decide::check_words;
use super::entrant::same_name;
use super::error::TournamentError;
use crate::audit::{Hash, Record, record_hash};
use crate::time::Timestamp;

/// A match the director asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMatch {
    /// Its id.
    pub match_id: String,
    /// Its round.
    pub round: u32,
    /// Its table; empty when none is named.
    pub table: String,
    /// The players' names, A then B.
    pub players: [String; 2],
    /// Which match of a best-of-three series it is (1 to 3); 0 for a single match.
    pub series_match: u32,
    /// The match it replaces, with the director's words.
    pub replaces: Option<Replacing>,
}

impl NewMatch {
    /// A single match, replacing none.
    pub fn new(match_id: &str, round: u32, table: &str, players: [&str; 2]) -> NewMatch {
        NewMatch {
            match_id: match_id.to_string(),
            round,
            table: table.to_string(),
            players: players.map(str::to_string),
            series_match: 0,
            replaces: None,
        }
    }
}

/// The match a new one replaces, and the director's ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replacing {
    /// The match replaced.
    pub match_id: String,
    /// The director's words.
    pub ruling: String,
}

/// One record of a by-hand tournament's log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind")]
pub enum HandEvent {
    /// The first record: the tournament.
    #[serde(rename = "tournament.created")]
    Created {
        /// Its id.
        tournament: String,
        /// Its name.
        name: String,
        /// When the log was begun.
        at: Timestamp,
    },
    /// A match made by hand (its own log holds its dice, clock and play).
    #[serde(rename = "match.created")]
    MatchCreated {
        /// Its id.
        match_id: String,
        /// Its round.
        round: u32,
        /// Its table.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        table: String,
        /// The players' names, A then B.
        players: [String; 2],
        /// Which match of a best-of-three series (1 to 3).
        #[serde(default, skip_serializing_if = "is_zero")]
        series_match: u32,
        /// The match it replaces, with the ruling.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<Replacing>,
        /// When.
        at: Timestamp,
    },
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl HandEvent {
    /// The record's body: compact JSON with its `kind`.
    pub fn body(&self) -> String {
        serde_json::to_string(self).expect("by-hand events serialize")
    }

    /// The match a `match.created` records, as it was asked, and when.
    fn asked(&self) -> Option<(NewMatch, Timestamp)> {
        let HandEvent::MatchCreated {
            match_id,
            round,
            table,
            players,
            series_match,
            replaces,
            at,
        } = self
        else {
            return None;
        };
        let new = NewMatch {
            match_id: match_id.clone(),
            round: *round,
            table: table.clone(),
            players: players.clone(),
            series_match: *series_match,
            replaces: replaces.clone(),
        };
        Some((new, *at))
    }
}

/// A match as the log made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    /// What was asked.
    pub new: NewMatch,
    /// When.
    pub at: Timestamp,
    /// The match that replaced it, if one did.
    pub replaced_by: Option<String>,
}

/// A by-hand tournament: the fold of its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByHand {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its matches, in the order they were made.
    pub matches: Vec<Made>,
    /// Records in the log.
    pub length: u64,
    /// The log's head.
    pub head: Hash,
}

/// What a command writes: the log after it and the records to append.
#[derive(Clone, Debug)]
pub struct HandPlan {
    /// The tournament after the records.
    pub log: ByHand,
    /// The records, in order.
    pub records: Vec<Record>,
}

impl HandPlan {
    fn push(&mut self, event: HandEvent) {
        let body = event.body();
        let hash = record_hash(self.log.length, &self.log.head, body.as_bytes());
        self.records.push(Record {
            seq: self.log.length,
            prev: self.log.head,
            body,
            hash,
        });
        self.log.evolve(&event);
        self.log.length += 1;
        self.log.head = hash;
    }
}

impl ByHand {
    /// The log's first record, for tournament `id` named `name`.
    pub fn create(id: &str, name: &str, now: Timestamp) -> Result<HandPlan, TournamentError> {
        if id.trim().is_empty() {
            return Err(TournamentError::invalid("a tournament has an id"));
        }
        let mut plan = HandPlan {
            log: ByHand {
                id: id.to_string(),
                name: name.to_string(),
                matches: Vec::new(),
                length: 0,
                head: Hash::GENESIS,
            },
            records: Vec::new(),
        };
        plan.push(HandEvent::Created {
            tournament: id.to_string(),
            name: name.to_string(),
            at: now,
        });
        Ok(plan)
    }

    /// The match `id`, if the log made it.
    pub fn made(&self, id: &str) -> Option<&Made> {
        self.matches.iter().find(|m| m.new.match_id == id)
    }

    /// The match that replaced `id`, if one did.
    pub fn replaced_by(&self, id: &str) -> Option<&str> {
        self.made(id)?.replaced_by.as_deref()
    }

    /// Checks `new` at `now` against the matches made so far and returns what it
    /// writes; `self` is unchanged.
    pub fn plan(&self, new: &NewMatch, now: Timestamp) -> Result<HandPlan, TournamentError> {
        if self.made(&new.match_id).is_some() {
            return Err(TournamentError::rule(format!(
                "match {} is in tournament {}'s log already",
                new.match_id, self.id
            )));
        }
        if same_name(&new.players[0], &new.players[1]) {
            return Err(TournamentError::invalid(format!(
                "a match is between two players: {:?} and {:?} are one (names are compared \
                 ignoring case and spaces)",
                new.players[0], new.players[1]
            )));
        }
        if let Some(r) = &new.replaces {
            check_words(&r.ruling).map_err(|why| {
                TournamentError::invalid(format!(
                    "ruling: replacing a match needs the director's words: {why}"
                ))
            })?;
            let Some(old) = self.made(&r.match_id) else {
                return Err(TournamentError::not_found(format!(
                    "replaces: match {} is not in tournament {}",
                    r.match_id, self.id
                )));
            };
            if let Some(by) = &old.replaced_by {
                return Err(TournamentError::rule(format!(
                    "match {} was replaced by {by} already: replace {by} instead",
                    r.match_id
                )));
            }
        }
        let clashes = self.clashes(new);
        if !clashes.is_empty() {
            return Err(TournamentError::rule(format!(
                "round {} of {} has this match already: {} — a second is created only to \
                 replace it, naming it with a ruling (--replaces ID --ruling \"…\")",
                new.round,
                self.id,
                clashes.join("; ")
            )));
        }
        let mut plan = HandPlan {
            log: self.clone(),
            records: Vec::new(),
        };
        plan.push(HandEvent::MatchCreated {
            match_id: new.match_id.clone(),
            round: new.round,
            table: new.table.clone(),
            players: new.players.clone(),
            series_match: new.series_match,
            replaces: new.replaces.clone(),
            at: now,
        });
        Ok(plan)
    }

    /// The matches of `new`'s round, still standing and not the one it replaces, at
    /// its table or between its two players, as people read them.
    fn clashes(&self, new: &NewMatch) -> Vec<String> {
        let replaced = new.replaces.as_ref().map(|r| r.match_id.as_str());
        self.matches
            .iter()
            .filter(|m| m.new.round == new.round && m.replaced_by.is_none())
            .filter(|m| Some(m.new.match_id.as_str()) != replaced)
            .filter_map(|m| {
                let old = &m.new;
                let same_table = !old.table.is_empty() && old.table == new.table;
                let [a, b] = &new.players;
                let same_pair = (same_name(a, &old.players[0]) && same_name(b, &old.players[1]))
                    || (same_name(a, &old.players[1]) && same_name(b, &old.players[0]));
                // The matches of a best-of-three series are one pair's by design (2.2).
                let another_of_a_series =
                    new.series_match != 0 && old.series_match != 0 && !same_table;
                if !(same_table || (same_pair && !another_of_a_series)) {
                    return None;
                }
                let why = if same_table {
                    format!("table {}", old.table)
                } else {
                    "the same two players".to_string()
                };
                Some(format!(
                    "{} ({} v {}, {why})",
                    old.match_id, old.players[0], old.players[1]
                ))
            })
            .collect()
    }

    /// Folds one record (after the first) in.
    pub fn evolve(&mut self, event: &HandEvent) {
        let Some((new, at)) = event.asked() else {
            return;
        };
        if let Some(r) = &new.replaces
            && let Some(old) = self
                .matches
                .iter_mut()
                .find(|m| m.new.match_id == r.match_id)
        {
            old.replaced_by = Some(new.match_id.clone());
        }
        self.matches.push(Made {
            new,
            at,
            replaced_by: None,
        });
    }
}

/// Reads a by-hand tournament's log back from the first record: the chain, each
/// record's canonical spelling, and every match checked by the rule it was made under
/// (a log that gives a table two matches in a round, unlinked, is refused).
pub fn replay(records: &[Record]) -> Result<ByHand, String> {
    follow(None, records)
}

/// Reads on from `log` (none: from the first record) through `records`, the ones that
/// follow it: what a server that keeps the fold reads of a log that grew.
pub fn follow(log: Option<ByHand>, records: &[Record]) -> Result<ByHand, String> {
    let mut log = log;
    for r in records {
        let at = |m: String| format!("record {}: {m}", r.seq);
        let seq = log.as_ref().map_or(0, |t| t.length);
        let prev = log.as_ref().map_or(Hash::GENESIS, |t| t.head);
        if r.seq != seq || r.prev != prev {
            return Err(at(
                "out of order: its seq or prev does not follow the record before".into(),
            ));
        }
        if record_hash(r.seq, &r.prev, r.body.as_bytes()) != r.hash {
            return Err(at("its hash is not the hash of its contents".into()));
        }
        let event: HandEvent = serde_json::from_str(&r.body)
            .map_err(|e| at(format!("not a by-hand tournament record: {e}")))?;
        if event.body() != r.body {
            return Err(at("not in its one canonical spelling".into()));
        }
        let next = match (log.take(), &event) {
            (
                None,
                HandEvent::Created {
                    tournament,
                    name,
                    at: when,
                },
            ) => {
                ByHand::create(tournament, name, *when)
                    .map_err(|e| at(e.message))?
                    .log
            }
            (None, _) => return Err(at("the first record is not tournament.created".into())),
            (Some(_), HandEvent::Created { .. }) => {
                return Err(at("a second tournament.created".into()));
            }
            (Some(t), made) => {
                let Some((new, when)) = made.asked() else {
                    return Err(at("not a match.created".into()));
                };
                let plan = t.plan(&new, when).map_err(|e| at(e.message))?;
                if plan.records.last().map(|p| &p.body) != Some(&r.body) {
                    return Err(at("not the record its match makes".into()));
                }
                plan.log
            }
        };
        log = Some(next);
    }
    log.ok_or_else(|| "the log is empty".to_string())
}
