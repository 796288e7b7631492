//! What a command does: the checks, and the records it writes. Each record is folded
//! into a copy as it is made ([`Plan`]), so a refused command changes nothing; after
//! every command the tournament gives a match log to each match that is ready
//! ([`Tournament::assign_ready`]) — which is how a confirmed result makes the next
//! match of its bracket appear.

use std::collections::BTreeSet;

use super::TournamentError;
use super::command::{Command, Seeding};
use super::draw::draw_order;
use super::entrant::{Details, Status, check_text, same_name};
use super::event::Event;
use super::format::{Format, MAX_ENTRANTS};
use super::keys::{EntrantId, Flight, MatchKey};
use super::knockout::Knockout;
use super::state::Tournament;
use crate::audit::{Record, record_hash};
use crate::dice::ServerSeed;
use crate::side::Side;
use crate::time::Timestamp;

/// The outcome of a command: the tournament once its records are stored, and the
/// records.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The tournament after the records.
    pub tournament: Tournament,
    /// The records to append, in order.
    pub records: Vec<Record>,
    /// The same records as events.
    pub events: Vec<Event>,
}

/// The longest match id: the server's limit on ids.
const MAX_ID: usize = 40;

impl Tournament {
    /// Opens a tournament: its first record commits to `seed`, the draw seed.
    pub fn open(
        id: &str,
        name: &str,
        plan: super::format::Plan,
        tables: Vec<String>,
        seed: &ServerSeed,
        now: Timestamp,
    ) -> Result<Plan, TournamentError> {
        plan.validate()?;
        check_text("tournament's name", name, true)?;
        check_tables(&tables)?;
        // The longest key a draw of MAX_ENTRANTS makes is `L9-128`: the match ids
        // `{id}-l9-128` stay within the server's limit.
        if id.len() + 7 > MAX_ID {
            return Err(TournamentError::invalid(format!(
                "a drawn tournament's id is at most {} characters (its matches are named \
                 after it), not {}",
                MAX_ID - 7,
                id.len()
            )));
        }
        let opened = Event::Opened {
            tournament: id.to_string(),
            name: name.to_string(),
            plan,
            commitment: hex::encode(seed.commitment().0),
            tables,
            at: now,
        };
        let t = Tournament::opened(&opened).expect("an opening opens");
        let mut plan = Plan {
            tournament: t,
            records: Vec::new(),
            events: Vec::new(),
        };
        plan.push(opened);
        Ok(plan)
    }

    /// Checks `command` at `now` and returns what it writes; `self` is unchanged.
    pub fn plan(&self, command: &Command, now: Timestamp) -> Result<Plan, TournamentError> {
        let mut plan = Plan {
            tournament: self.clone(),
            records: Vec::new(),
            events: Vec::new(),
        };
        let commands = match command {
            Command::All(list) => list.iter().collect(),
            one => vec![one],
        };
        for command in commands {
            // Each on the tournament the ones before it left: a list is checked as a
            // whole (two registrations of one name in it are refused too).
            for event in plan.tournament.decide(command, now)? {
                plan.push(event);
            }
        }
        // A withdrawn player's pairings are decided without play as they become known.
        loop {
            let walkovers = plan.tournament.forfeits_of_withdrawn();
            if walkovers.is_empty() {
                break;
            }
            for event in walkovers {
                plan.push(event);
            }
        }
        // A Swiss round whose predecessor is complete is paired when it is started;
        // every command may free a table or decide a match: give out what is ready.
        let ready = plan.tournament.assign_ready(now);
        for event in ready {
            plan.push(event);
        }
        Ok(plan)
    }

    fn decide(&self, command: &Command, now: Timestamp) -> Result<Vec<Event>, TournamentError> {
        match command {
            Command::Register { details, approve } => self.register(details, *approve),
            Command::Approve { entrant } => {
                self.before_draw("approve an entrant")?;
                match self.entrant(*entrant)?.status {
                    Status::Registered => Ok(vec![Event::Approved { entrant: *entrant }]),
                    Status::Out => Err(TournamentError::rule(format!(
                        "{} is out of the tournament: register him again to bring him back",
                        self.label(*entrant)
                    ))),
                    _ => Ok(Vec::new()),
                }
            }
            Command::CheckIn { entrant } => {
                self.before_draw("check an entrant in")?;
                match self.entrant(*entrant)?.status {
                    Status::Approved => Ok(vec![Event::CheckedIn {
                        entrant: *entrant,
                        at: now,
                    }]),
                    Status::CheckedIn => Ok(Vec::new()),
                    Status::Registered => Err(TournamentError::rule(format!(
                        "1.4: {} is not approved yet: the director approves every entrant \
                         before he plays (baffle player approve {})",
                        self.label(*entrant),
                        entrant.0
                    ))),
                    Status::Out => Err(TournamentError::rule(format!(
                        "{} is out of the tournament",
                        self.label(*entrant)
                    ))),
                }
            }
            Command::Out { entrant, reason } => self.out(*entrant, reason),
            Command::Rename { entrant, name } => {
                let was = &self.entrant(*entrant)?.details.name;
                check_text("name", name, true)?;
                // The same name again would be a record that changes nothing: refused as
                // a match's rename to its player's name is (a case or spacing
                // correction is a different name, and taken).
                if name == was {
                    return Err(TournamentError::invalid(format!(
                        "{} is already named {name:?}: nothing to rename",
                        self.label(*entrant)
                    )));
                }
                self.check_unique_name(name, Some(*entrant))?;
                Ok(vec![Event::Renamed {
                    entrant: *entrant,
                    name: name.clone(),
                }])
            }
            Command::SetTables { tables } => {
                check_tables(tables)?;
                Ok(vec![Event::TablesSet {
                    tables: tables.clone(),
                }])
            }
            Command::MakeDraw { seed, seeding } => self.make_draw(seed, seeding, now),
            Command::StartRound {
                flight,
                round,
                start,
            } => self.start_round(*flight, *round, start.unwrap_or(now)),
            Command::Confirmed {
                match_id,
                winner,
                score,
                played,
            } => self.confirmed(match_id, *winner, *score, *played),
            Command::Rule { key, ruling, words } => self.rule(*key, ruling, words),
            Command::All(_) => Err(TournamentError::invalid(
                "a list of commands cannot hold another list",
            )),
        }
    }

    fn register(&self, details: &Details, approve: bool) -> Result<Vec<Event>, TournamentError> {
        self.before_draw("register an entrant")?;
        details.validate()?;
        self.check_unique_name(&details.name, None)?;
        if self.entrants.len() >= MAX_ENTRANTS as usize {
            return Err(TournamentError::rule(format!(
                "a tournament takes at most {MAX_ENTRANTS} entrants"
            )));
        }
        let next = self.entrants.keys().next_back().map_or(1, |e| e.0 + 1);
        let entrant = EntrantId(next);
        let mut events = vec![Event::Registered {
            entrant,
            details: details.clone(),
        }];
        if approve {
            events.push(Event::Approved { entrant });
        }
        Ok(events)
    }

    fn check_unique_name(
        &self,
        name: &str,
        except: Option<EntrantId>,
    ) -> Result<(), TournamentError> {
        if let Some((id, _)) = self.entrants.iter().find(|(id, e)| {
            Some(**id) != except && e.status != Status::Out && same_name(&e.details.name, name)
        }) {
            return Err(TournamentError::rule(format!(
                "{name:?} is already entrant {id} ({}): a player is registered once — rename \
                 him if the name was mistyped",
                self.name_of(*id)
            )));
        }
        Ok(())
    }

    fn make_draw(
        &self,
        seed: &ServerSeed,
        seeding: &Seeding,
        now: Timestamp,
    ) -> Result<Vec<Event>, TournamentError> {
        self.before_draw("make the draw")?;
        if seed.commitment().0 != self.commitment {
            return Err(TournamentError::invalid(
                "this seed is not the one the tournament's opening committed to",
            ));
        }
        let field: Vec<EntrantId> = self
            .entrants
            .iter()
            .filter(|(_, e)| e.status == Status::CheckedIn)
            .map(|(id, _)| *id)
            .collect();
        let with = |status: Status| -> Vec<String> {
            self.entrants
                .iter()
                .filter(|(_, e)| e.status == status)
                .map(|(id, _)| self.label(*id))
                .collect()
        };
        let (unapproved, absent) = (with(Status::Registered), with(Status::Approved));
        if !unapproved.is_empty() || !absent.is_empty() {
            let mut missing = Vec::new();
            if !unapproved.is_empty() {
                missing.push(format!("not approved yet: {}", unapproved.join(", ")));
            }
            if !absent.is_empty() {
                missing.push(format!("not checked in: {}", absent.join(", ")));
            }
            return Err(TournamentError::rule(format!(
                "not every entrant is checked in or out ({}) — approve and check in each \
                 who plays, or take him out with a reason (1.4), before the draw",
                missing.join("; ")
            )));
        }
        let seeds = self.seeds(&field, seeding)?;
        let order = draw_order(seed, &self.id, &field, &seeds);
        if let Format::Knockout { flights } = self.plan.format {
            Knockout::new(&order, flights).map_err(|e| TournamentError::rule(e.to_string()))?;
        } else if field.len() < 2 {
            return Err(TournamentError::rule(format!(
                "a draw needs at least 2 entrants checked in; there are {}",
                field.len()
            )));
        }
        let mut events = vec![Event::DrawMade {
            seed: hex::encode(seed.as_bytes()),
            field,
            seeds,
            order,
            at: now,
        }];
        if let Format::Swiss { .. } = self.plan.format {
            let mut after = self.clone();
            after.evolve(&events[0]);
            events.push(after.pair_swiss(1)?);
        }
        Ok(events)
    }

    fn seeds(
        &self,
        field: &[EntrantId],
        seeding: &Seeding,
    ) -> Result<Vec<EntrantId>, TournamentError> {
        if *seeding != Seeding::None && !matches!(self.plan.format, Format::Knockout { .. }) {
            return Err(TournamentError::invalid(
                "only a knockout is seeded: a round robin and a Swiss draw everyone by lot",
            ));
        }
        let seeds = match seeding {
            Seeding::None => Vec::new(),
            Seeding::TopRated(n) => {
                let mut rated: Vec<(i64, EntrantId)> = field
                    .iter()
                    .filter_map(|e| Some((self.entrants.get(e)?.rating?.0, *e)))
                    .collect();
                rated.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                if *n as usize > rated.len() {
                    return Err(TournamentError::invalid(format!(
                        "{n} seeds asked for, but only {} entrants of the field are rated",
                        rated.len()
                    )));
                }
                // Seeding by rating takes a quarter of the field at most (8 of 32, as
                // knockouts are seeded), so chance still places most of it: a mistyped
                // count is refused before a draw that cannot be undone. A director who
                // means more names them (`Seeding::Named`), and the record shows it.
                let most = (field.len() / 4).max(1);
                if *n as usize > most {
                    return Err(TournamentError::invalid(format!(
                        "{n} seeds by rating for a field of {}: at most a quarter of it \
                         ({most}), so the draw still places most of it by lot; name the \
                         seeds to seed more",
                        field.len()
                    )));
                }
                rated
                    .into_iter()
                    .take(*n as usize)
                    .map(|(_, e)| e)
                    .collect()
            }
            Seeding::Named(list) => {
                let mut seen = BTreeSet::new();
                for e in list {
                    if !field.contains(e) {
                        return Err(TournamentError::invalid(format!(
                            "seed {e} is not in the field (checked-in entrants)"
                        )));
                    }
                    if !seen.insert(*e) {
                        return Err(TournamentError::invalid(format!("{e} is seeded twice")));
                    }
                }
                list.clone()
            }
        };
        Ok(seeds)
    }

    /// The first match id of the match at `key`: the tournament's id and the key.
    pub fn match_id(&self, key: MatchKey) -> String {
        format!("{}-{}", self.id, key.to_string().to_lowercase())
    }

    fn entrant(&self, e: EntrantId) -> Result<&super::entrant::Entrant, TournamentError> {
        self.entrants
            .get(&e)
            .ok_or_else(|| TournamentError::not_found(format!("no entrant {e} in {}", self.id)))
    }

    /// `#3 Anna Papadopoulou`.
    pub fn label(&self, e: EntrantId) -> String {
        format!("{e} {}", self.name_of(e))
    }

    fn before_draw(&self, what: &str) -> Result<(), TournamentError> {
        if self.draw.is_some() {
            return Err(TournamentError::rule(format!(
                "the draw is made: the field is closed, so no one can {what} now"
            )));
        }
        Ok(())
    }
}

impl Plan {
    /// Folds `event` in and makes its record.
    fn push(&mut self, event: Event) {
        let t = &mut self.tournament;
        let body = event.body();
        let hash = record_hash(t.length, &t.head, body.as_bytes());
        self.records.push(Record {
            seq: t.length,
            prev: t.head,
            body,
            hash,
        });
        t.evolve(&event);
        t.length += 1;
        t.head = hash;
        self.events.push(event);
    }
}

/// The longest ruling or reason, in characters: room for what a director writes down.
pub const MAX_WORDS: usize = 500;

/// A director's words: not empty, at most [`MAX_WORDS`], no control characters but
/// line breaks.
pub(super) fn check_words(words: &str) -> Result<(), String> {
    if words.trim().is_empty() {
        return Err("none were given".into());
    }
    if words.chars().count() > MAX_WORDS {
        return Err(format!("at most {MAX_WORDS} characters"));
    }
    if words.chars().any(|c| c.is_control() && c != '\n') {
        return Err("no control characters".into());
    }
    Ok(())
}

fn check_tables(tables: &[String]) -> Result<(), TournamentError> {
    let mut seen = BTreeSet::new();
    for t in tables {
        check_text("table", t, true)?;
        if !seen.insert(t) {
            return Err(TournamentError::invalid(format!(
                "table {t:?} is listed twice"
            )));
        }
    }
    if tables.is_empty() {
        return Err(TournamentError::invalid(
            "a tournament needs at least one table to give its matches",
        ));
    }
    Ok(())
}

fn side_index(s: Side) -> usize {
    match s {
        Side::A => 0,
        Side::B => 1,
    }
}

/// The flight's name in messages.
pub fn flight_name(f: Flight) -> &'static str {
    match f {
        Flight::Main => "main",
        Flight::Consolation => "consolation",
        Flight::LastChance => "last-chance",
    }
}

mod results;
mod rounds;
