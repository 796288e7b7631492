//! What a command does: the checks, and the records it writes. Each record is folded
//! into a copy as it is made ([`Plan`]), so a refused command changes nothing; after
//! every command the tournament gives a match log to each match that is ready
//! ([`Tournament::assign_ready`]) — which is how a confirmed result makes the next
//! match of its bracket appear.

use std::collections::{BTreeMap, BTreeSet};

use super::command::{Command, Ruling, Seeding};
use super::draw::draw_order;
use super::entrant::{Details, Status, check_text, same_name};
use super::event::Event;
use super::format::{Format, Game, MAX_ENTRANTS};
use super::keys::{EntrantId, Flight, MatchKey};
use super::knockout::Knockout;
use super::pairings::Pairing;
use super::state::Tournament;
use super::{TournamentError, swiss};
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
            Command::Out { entrant, reason } => {
                self.before_draw(
                    "take an entrant out (after it, his matches are forfeited by ruling)",
                )?;
                self.entrant(*entrant)?;
                check_words(reason).map_err(|e| {
                    TournamentError::invalid(format!(
                        "1.4: refusing an entrant needs the explanation given to him: {e}"
                    ))
                })?;
                Ok(vec![Event::Out {
                    entrant: *entrant,
                    reason: reason.clone(),
                }])
            }
            Command::Rename { entrant, name } => {
                self.entrant(*entrant)?;
                check_text("name", name, true)?;
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
        let absent: Vec<String> = self
            .entrants
            .iter()
            .filter(|(_, e)| matches!(e.status, Status::Registered | Status::Approved))
            .map(|(id, _)| self.label(*id))
            .collect();
        if !absent.is_empty() {
            return Err(TournamentError::rule(format!(
                "not every entrant is checked in or out: {} — check each in, or take him out \
                 with a reason (1.4), before the draw",
                absent.join(", ")
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
        if !seeds.is_empty() && !matches!(self.plan.format, Format::Knockout { .. }) {
            return Err(TournamentError::invalid(
                "only a knockout is seeded: a round robin and a Swiss draw everyone by lot",
            ));
        }
        Ok(seeds)
    }

    fn start_round(
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
    pub(super) fn pair_swiss(&self, round: u32) -> Result<Event, TournamentError> {
        let ranked = self.swiss_ranking()?;
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

    fn confirmed(
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
                ruling: super::event::CORRECTED_AT_TABLE.into(),
            };
            self.check_correction(key, &event)?;
            return Ok(vec![event]);
        }
        if winner.is_none() && self.plan.game != Game::Chess {
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

    fn rule(
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
            Ruling::Forfeit { winner } => {
                if decided {
                    return Err(TournamentError::rule(format!(
                        "{key} has a result: correct it (4.6) rather than forfeit it"
                    )));
                }
                self.one_of(&pairing, *winner)?;
                if let Some(a) = self.matches.get(&key) {
                    return Err(TournamentError::rule(format!(
                        "{key} is being played as match {id}: forfeit it at its table \
                         (baffle rule {id} --reason \"…\" --article 2.2 forfeit-match A|B, \
                         then baffle rule {id} --reason \"…\" --article 4.6 confirm), and \
                         its result comes here when confirmed",
                        id = a.match_id
                    )));
                }
                let score = if pairing.players[0] == *winner {
                    [1, 0]
                } else {
                    [0, 1]
                };
                Ok(vec![Event::Result {
                    key,
                    winner: Some(*winner),
                    score,
                    played: false,
                    ruling: ruling_text,
                }])
            }
            Ruling::Correct { winner, score } => {
                let Some(old) = self.results.get(&key) else {
                    return Err(TournamentError::rule(format!(
                        "4.6: {key} has no confirmed result to correct"
                    )));
                };
                if let Some(w) = winner {
                    self.one_of(&pairing, *w)?;
                    let mine = if pairing.players[0] == *w { 0 } else { 1 };
                    if score[mine] < score[1 - mine] {
                        return Err(TournamentError::invalid(format!(
                            "4.6: the winner {} cannot have fewer points than the loser \
                             ({}-{} in the pairing's order, {} first)",
                            self.label(*w),
                            score[0],
                            score[1],
                            self.label(pairing.players[0])
                        )));
                    }
                } else if self.plan.game != Game::Chess {
                    return Err(TournamentError::invalid(
                        "a backgammon match has a winner: a drawn result is for chess",
                    ));
                }
                let event = Event::Result {
                    key,
                    winner: *winner,
                    score: *score,
                    played: old.played,
                    ruling: ruling_text,
                };
                self.check_correction(key, &event)?;
                Ok(vec![event])
            }
            Ruling::Postpone => {
                if decided || self.matches.contains_key(&key) {
                    return Err(TournamentError::rule(format!(
                        "{key} has begun (it has a match log): postpone it at its table with a \
                         ruling there, or replace it"
                    )));
                }
                Ok(vec![Event::Postponed {
                    key,
                    ruling: ruling_text,
                }])
            }
            Ruling::Reschedule { start } => {
                if decided || self.matches.contains_key(&key) {
                    return Err(TournamentError::rule(format!(
                        "{key} has a match log already: its start is its table's (2.2)"
                    )));
                }
                crate::backgammon::setup::check_schedule(*start, self.opened_at)
                    .map_err(|e| TournamentError::invalid(e.to_string()))?;
                Ok(vec![Event::Rescheduled {
                    key,
                    start: *start,
                    ruling: ruling_text,
                }])
            }
            Ruling::Replace => {
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
                        ruling: ruling_text,
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
        }
    }

    /// A correction is refused while a match created after the result depends on it:
    /// the players of every match already given a log must stay who they are.
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
        let mut after = self.clone();
        after.evolve(event);
        let now = after.current_draw();
        for (k, a) in &self.matches {
            let still = now
                .pairings
                .iter()
                .any(|p| p.key == *k && same_pair(p.players, a.players));
            if !still {
                return Err(TournamentError::rule(format!(
                    "4.6: {k} ({}) was drawn from this result: replace or correct it first",
                    a.match_id
                )));
            }
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

#[derive(Default)]
struct Busy {
    players: BTreeSet<EntrantId>,
    tables: BTreeSet<String>,
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
fn check_words(words: &str) -> Result<(), String> {
    if words.trim().is_empty() {
        return Err("they are empty".into());
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

fn ordered([a, b]: [EntrantId; 2]) -> (EntrantId, EntrantId) {
    if a < b { (a, b) } else { (b, a) }
}

fn same_pair(a: [EntrantId; 2], b: [EntrantId; 2]) -> bool {
    ordered(a) == ordered(b)
}

/// The flight's name in messages.
pub fn flight_name(f: Flight) -> &'static str {
    match f {
        Flight::Main => "main",
        Flight::Consolation => "consolation",
        Flight::LastChance => "last-chance",
    }
}
