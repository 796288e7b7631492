//! A tournament day by its rules: registration and approval (1.4), the draw, rounds
//! that start themselves (2.2), results confirmed and corrected (4.6), rulings on a
//! match of the draw, and the log replayed to the same tournament.

use baffle_core::GameType;
use baffle_core::Timestamp;
use baffle_core::dice::ServerSeed;
use baffle_core::side::Side;
use baffle_core::tournament::knockout::Flights;
use baffle_core::tournament::{
    Command, Details, EntrantId, ErrorKind, Event, Flight, Format, MatchKey, Plan, Ruling, Seeding,
    Tournament, replay,
};

const SEED: ServerSeed = ServerSeed::from_bytes([9; 32]);
const MIN: i64 = 60_000;

fn knockout(flights: Flights) -> Plan {
    Plan {
        format: Format::Knockout { flights },
        game: GameType::Backgammon,
        length: 5,
    }
}

/// A day: its log's records kept beside the tournament, as the server keeps them.
struct Day {
    t: Tournament,
    records: Vec<baffle_core::audit::Record>,
    events: Vec<Event>,
}

impl Day {
    fn open(plan: Plan, tables: usize) -> Day {
        let tables = (1..=tables).map(|i| i.to_string()).collect();
        let p = Tournament::open("club", "Club day", plan, tables, &SEED, Timestamp(0)).unwrap();
        Day {
            t: p.tournament,
            records: p.records,
            events: p.events,
        }
    }

    fn run(
        &mut self,
        c: Command,
        at: i64,
    ) -> Result<Vec<Event>, baffle_core::tournament::TournamentError> {
        let before = self.t.clone();
        let p = self.t.plan(&c, Timestamp(at));
        assert_eq!(self.t, before, "planning changes nothing");
        let p = p?;
        self.t = p.tournament;
        self.records.extend(p.records);
        self.events.extend(p.events.clone());
        Ok(p.events)
    }

    fn ok(&mut self, c: Command, at: i64) -> Vec<Event> {
        self.run(c, at).unwrap()
    }

    /// Starts round `round` of the main flight now (at `at`).
    fn start(&mut self, round: u32, at: i64) -> Vec<Event> {
        self.ok(
            Command::StartRound {
                flight: Flight::Main,
                round,
                start: None,
            },
            at,
        )
    }

    /// Registers, approves and checks in one player: the next entrant.
    fn enter(&mut self, details: Details) {
        let events = self.ok(
            Command::Register {
                details,
                approve: true,
            },
            0,
        );
        let Some(Event::Registered { entrant, .. }) = events.first() else {
            panic!("not registered: {events:?}");
        };
        let entrant = *entrant;
        self.ok(Command::CheckIn { entrant }, 0);
    }

    /// Registers, approves and checks in `n` players.
    fn field(&mut self, n: u32) {
        for i in 1..=n {
            self.ok(
                Command::Register {
                    details: Details::named(&format!("Player {i}")),
                    approve: true,
                },
                MIN,
            );
            self.ok(
                Command::CheckIn {
                    entrant: EntrantId(i),
                },
                MIN,
            );
        }
    }

    fn draw(&mut self) {
        self.ok(
            Command::MakeDraw {
                seed: SEED,
                seeding: Seeding::None,
            },
            2 * MIN,
        );
    }

    /// The match at `key` won by its player A, 5–0, confirmed.
    fn win_a(&mut self, key: MatchKey, at: i64) -> Vec<Event> {
        let id = self.t.matches[&key].match_id.clone();
        self.ok(
            Command::Confirmed {
                match_id: id,
                winner: Some(Side::A),
                score: [5, 0],
                played: true,
            },
            at,
        )
    }

    /// Corrects the result at `key` (4.6) with the director's `words`.
    fn correct(
        &mut self,
        key: MatchKey,
        winner: Option<EntrantId>,
        score: [u32; 2],
        words: &str,
        at: i64,
    ) -> Result<Vec<Event>, baffle_core::tournament::TournamentError> {
        let ruling = Ruling::Correct { winner, score };
        let words = words.into();
        self.run(Command::Rule { key, ruling, words }, at)
    }

    /// The draw's pairing at `key` now.
    fn pairing(&self, key: MatchKey) -> baffle_core::tournament::pairings::Pairing {
        self.t
            .current_draw()
            .pairings
            .into_iter()
            .find(|p| p.key == key)
            .unwrap()
    }

    fn assigned(events: &[Event]) -> Vec<MatchKey> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Assigned { key, .. } => Some(*key),
                _ => None,
            })
            .collect()
    }
}

fn rule_kind(
    r: Result<Vec<Event>, baffle_core::tournament::TournamentError>,
) -> (ErrorKind, String) {
    let e = r.unwrap_err();
    (e.kind, e.message)
}

#[test]
fn art_1_4_every_entrant_is_approved_before_he_is_drawn() {
    let mut d = Day::open(knockout(Flights::Main), 4);
    d.ok(
        Command::Register {
            details: Details::named("Anna"),
            approve: false,
        },
        0,
    );
    let (kind, m) = rule_kind(d.run(
        Command::CheckIn {
            entrant: EntrantId(1),
        },
        0,
    ));
    assert_eq!(kind, ErrorKind::Rule);
    assert!(m.contains("1.4"), "{m}");
    // Refusing him needs the explanation the article asks for.
    let (kind, m) = rule_kind(d.run(
        Command::Out {
            entrant: EntrantId(1),
            reason: String::new(),
        },
        0,
    ));
    assert_eq!(kind, ErrorKind::Invalid);
    assert!(m.contains("1.4"), "{m}");
    // Not approved, or approved but not checked in: the draw waits for him, naming him
    // and what he lacks.
    let draw = Command::MakeDraw {
        seed: SEED,
        seeding: Seeding::None,
    };
    let (_, m) = rule_kind(d.run(draw.clone(), 0));
    assert!(m.contains("not approved yet: #1 Anna"), "{m}");
    d.ok(
        Command::Approve {
            entrant: EntrantId(1),
        },
        0,
    );
    let (_, m) = rule_kind(d.run(draw, 0));
    assert!(m.contains("not checked in: #1 Anna"), "{m}");
}

#[test]
fn a_player_is_registered_once_whatever_the_case_and_spaces() {
    let mut d = Day::open(knockout(Flights::Main), 4);
    d.ok(
        Command::Register {
            details: Details::named("Anna Papadopoulou"),
            approve: true,
        },
        0,
    );
    let (kind, m) = rule_kind(d.run(
        Command::Register {
            details: Details::named("anna  papadopoulou"),
            approve: true,
        },
        0,
    ));
    assert_eq!(kind, ErrorKind::Rule);
    assert!(m.contains("#1"), "{m}");
    // A list is all or none: a duplicate inside it refuses the whole list.
    let list = Command::All(vec![
        Command::Register {
            details: Details::named("Ben"),
            approve: true,
        },
        Command::Register {
            details: Details::named("BEN"),
            approve: true,
        },
    ]);
    assert!(d.run(list, 0).is_err());
    assert_eq!(d.t.entrants.len(), 1);
    // A rename is one record, and every match shows it.
    d.ok(
        Command::Rename {
            entrant: EntrantId(1),
            name: "Anna Papadopoulou-Ioannou".into(),
        },
        0,
    );
    assert_eq!(d.t.name_of(EntrantId(1)), "Anna Papadopoulou-Ioannou");
}

/// A stranger renamed an entrant to the name he had, and the log took an
/// `entrant.renamed` that changed nothing. It is refused as a match's rename to the same
/// name is (INVALID_ARGUMENT), naming the entrant, and nothing is recorded; a correction
/// of case alone is a new spelling, and is taken.
#[test]
fn renaming_an_entrant_to_the_name_he_has_is_refused_and_records_nothing() {
    let mut d = Day::open(knockout(Flights::Main), 4);
    d.ok(
        Command::Register {
            details: Details::named("Anna Papadopoulou"),
            approve: true,
        },
        0,
    );
    let before = d.t.clone();
    let (kind, m) = rule_kind(d.run(
        Command::Rename {
            entrant: EntrantId(1),
            name: "Anna Papadopoulou".into(),
        },
        0,
    ));
    assert_eq!(kind, ErrorKind::Invalid);
    assert!(m.contains("#1") && m.contains("already named"), "{m}");
    assert_eq!(d.t, before);
    assert_eq!(
        d.records.len(),
        3,
        "opened, registered, approved: no rename"
    );
    let events = d.ok(
        Command::Rename {
            entrant: EntrantId(1),
            name: "Anna PAPADOPOULOU".into(),
        },
        0,
    );
    assert_eq!(events.len(), 1, "{events:?}");
}

#[test]
fn the_draw_closes_the_field_and_must_use_the_committed_seed() {
    let mut d = Day::open(knockout(Flights::Main), 4);
    d.field(5);
    let (kind, _) = rule_kind(d.run(
        Command::MakeDraw {
            seed: ServerSeed::from_bytes([8; 32]),
            seeding: Seeding::None,
        },
        0,
    ));
    assert_eq!(kind, ErrorKind::Invalid);
    d.draw();
    let (_, m) = rule_kind(d.run(
        Command::Register {
            details: Details::named("Late"),
            approve: true,
        },
        0,
    ));
    assert!(m.contains("closed"), "{m}");
    // Five entrants in a bracket of eight: three byes, in the first round only.
    let draw = d.t.current_draw();
    assert_eq!(draw.byes.len(), 3);
    assert!(draw.byes.iter().all(|b| b.key.round == 1));
}

#[test]
fn art_2_2_a_match_is_created_only_when_its_round_starts_scheduled_at_its_start() {
    let mut d = Day::open(knockout(Flights::Main), 8);
    d.field(8);
    d.draw();
    assert!(
        d.t.matches.is_empty(),
        "nothing is played before its round starts"
    );
    let start = 30 * MIN;
    let events = d.ok(
        Command::StartRound {
            flight: Flight::Main,
            round: 1,
            start: Some(Timestamp(start)),
        },
        3 * MIN,
    );
    let keys = Day::assigned(&events);
    assert_eq!(keys.len(), 4);
    for k in &keys {
        let a = &d.t.matches[k];
        assert_eq!(
            a.start,
            Timestamp(start),
            "lateness counts from the round's start"
        );
        assert_eq!(a.match_id, format!("club-{}", k.to_string().to_lowercase()));
    }
    // Round 2 is not started: a result leaves its match waiting.
    let events = d.win_a(MatchKey::main(1, 1), 40 * MIN);
    assert!(Day::assigned(&events).is_empty());
    d.win_a(MatchKey::main(1, 2), 41 * MIN);
    let events = d.start(2, 42 * MIN);
    assert_eq!(Day::assigned(&events), vec![MatchKey::main(2, 1)]);
    assert_eq!(
        d.t.matches[&MatchKey::main(2, 1)].start,
        Timestamp(42 * MIN)
    );
    // In a started round, the next match appears with the result that completes it.
    d.win_a(MatchKey::main(1, 3), 50 * MIN);
    let events = d.win_a(MatchKey::main(1, 4), 55 * MIN);
    assert_eq!(Day::assigned(&events), vec![MatchKey::main(2, 2)]);
    assert_eq!(
        d.t.matches[&MatchKey::main(2, 2)].start,
        Timestamp(55 * MIN)
    );
}

#[test]
fn a_match_waits_for_a_free_table_and_a_free_player() {
    let mut d = Day::open(knockout(Flights::Main), 2);
    d.field(8);
    d.draw();
    let events = d.start(1, 3 * MIN);
    assert_eq!(Day::assigned(&events).len(), 2, "two tables, two matches");
    let first_table = d.t.matches[&MatchKey::main(1, 1)].table.clone();
    let events = d.win_a(MatchKey::main(1, 1), 10 * MIN);
    assert_eq!(Day::assigned(&events), vec![MatchKey::main(1, 3)]);
    assert_eq!(d.t.matches[&MatchKey::main(1, 3)].table, first_table);
}

#[test]
fn art_4_6_a_result_is_corrected_while_nothing_drawn_from_it_is_played() {
    let mut d = Day::open(knockout(Flights::Main), 8);
    d.field(4);
    d.draw();
    d.start(1, 3 * MIN);
    d.start(2, 3 * MIN);
    let k1 = MatchKey::main(1, 1);
    d.win_a(k1, 10 * MIN);
    let [a, b] = d.t.matches[&k1].players;
    // The score alone may be corrected.
    d.correct(k1, Some(a), [5, 3], "score sheet checked", 11 * MIN)
        .unwrap();
    assert_eq!(d.t.results[&k1].score, [5, 3]);
    // The winner may change while the final is not drawn...
    d.correct(k1, Some(b), [3, 5], "wrong winner reported", 12 * MIN)
        .unwrap();
    // ...but not once the final is given a log with the old winner in it.
    d.win_a(MatchKey::main(1, 2), 13 * MIN);
    assert!(d.t.matches.contains_key(&MatchKey::main(2, 1)));
    let (_, m) = rule_kind(d.correct(k1, Some(a), [5, 3], "again", 14 * MIN));
    assert!(m.contains("4.6") && m.contains("M2-1"), "{m}");
    // A second confirmation of the same match is nothing new.
    let id = d.t.matches[&k1].match_id.clone();
    assert!(
        d.ok(
            Command::Confirmed {
                match_id: id,
                winner: Some(Side::A),
                score: [5, 0],
                played: true
            },
            15 * MIN
        )
        .is_empty()
    );
}

#[test]
fn a_match_is_replaced_only_by_a_ruling_that_names_it_and_the_old_log_stays_linked() {
    let mut d = Day::open(knockout(Flights::Main), 8);
    d.field(4);
    d.draw();
    d.start(1, 3 * MIN);
    let k = MatchKey::main(1, 2);
    let (kind, _) = rule_kind(d.run(
        Command::Rule {
            key: k,
            ruling: Ruling::Replace,
            words: String::new(),
        },
        4 * MIN,
    ));
    assert_eq!(
        kind,
        ErrorKind::Invalid,
        "a ruling needs the director's words"
    );
    d.ok(
        Command::Rule {
            key: k,
            ruling: Ruling::Replace,
            words: "the board was set up wrongly".into(),
        },
        4 * MIN,
    );
    let a = &d.t.matches[&k];
    assert_eq!(a.match_id, "club-m1-2-r2");
    assert_eq!(a.replaced, vec!["club-m1-2".to_string()]);
    // The old log's result is not the match's any more.
    let (kind, _) = rule_kind(d.run(
        Command::Confirmed {
            match_id: "club-m1-2".into(),
            winner: Some(Side::A),
            score: [5, 0],
            played: true,
        },
        5 * MIN,
    ));
    assert_eq!(kind, ErrorKind::NotFound);
}

/// Seeding by rating takes a quarter of the field at most, and only rated entrants: a
/// mistyped count is refused before the draw, which cannot be undone.
#[test]
fn a_knockout_seeds_by_rating_at_most_a_quarter_of_its_field() {
    use baffle_core::tournament::rating::Rating;
    let mut d = Day::open(knockout(Flights::Main), 4);
    for i in 1..=11 {
        let mut details = Details::named(&format!("Player {i}"));
        details.rating = (i <= 9).then_some(Rating(150_000 + i64::from(i)));
        d.enter(details);
    }
    for (n, why) in [(3, "a quarter"), (10, "only 9")] {
        let (kind, m) = rule_kind(d.run(
            Command::MakeDraw {
                seed: SEED,
                seeding: Seeding::TopRated(n),
            },
            0,
        ));
        assert_eq!(kind, ErrorKind::Invalid);
        assert!(m.contains(why), "{m}");
    }
    assert!(d.t.draw.is_none(), "nothing drawn");
    d.ok(
        Command::MakeDraw {
            seed: SEED,
            seeding: Seeding::TopRated(2),
        },
        0,
    );
    assert_eq!(d.t.draw.unwrap().seeds, vec![EntrantId(9), EntrantId(8)]);
}

/// A Swiss or a round robin draws everyone by lot: any seeding is refused as such.
#[test]
fn only_a_knockout_is_seeded() {
    let plan = Plan {
        format: Format::Swiss { rounds: 3 },
        game: GameType::Backgammon,
        length: 5,
    };
    let mut d = Day::open(plan, 4);
    d.field(7);
    for seeding in [Seeding::TopRated(2), Seeding::Named(vec![EntrantId(1)])] {
        let (kind, m) = rule_kind(d.run(
            Command::MakeDraw {
                seed: SEED,
                seeding,
            },
            0,
        ));
        assert_eq!(kind, ErrorKind::Invalid);
        assert!(m.contains("only a knockout is seeded"), "{m}");
    }
}

/// A forfeit of a match without a log keeps the pairing's sides, and a corrected score
/// cannot give the winner fewer points than the loser (4.6).
#[test]
fn a_forfeit_keeps_the_sides_and_a_correction_keeps_the_winner_ahead() {
    let mut d = Day::open(knockout(Flights::Main), 1);
    d.field(4);
    d.draw();
    let k = MatchKey::main(1, 2);
    let before = d.pairing(k);
    let [a, b] = before.players;
    d.ok(
        Command::Rule {
            key: k,
            ruling: Ruling::Forfeit { winner: b },
            words: "A did not come".into(),
        },
        0,
    );
    let after = d.pairing(k);
    assert_eq!(after.players, [a, b], "the sides stay");
    assert_eq!(d.t.results[&k].score, [0, 1]);
    let (kind, m) = rule_kind(d.correct(k, Some(b), [5, 0], "typo", 0));
    assert_eq!(kind, ErrorKind::Invalid);
    assert!(m.contains("4.6") && m.contains("fewer points"), "{m}");
}

#[test]
fn a_postponed_match_waits_until_it_is_rescheduled() {
    let mut d = Day::open(knockout(Flights::Main), 8);
    d.field(4);
    d.draw();
    let k = MatchKey::main(1, 1);
    d.ok(
        Command::Rule {
            key: k,
            ruling: Ruling::Postpone,
            words: "player delayed by the ferry".into(),
        },
        3 * MIN,
    );
    let events = d.start(1, 4 * MIN);
    assert_eq!(Day::assigned(&events), vec![MatchKey::main(1, 2)]);
    let events = d.ok(
        Command::Rule {
            key: k,
            ruling: Ruling::Reschedule {
                start: Timestamp(90 * MIN),
            },
            words: "the ferry is in".into(),
        },
        5 * MIN,
    );
    assert_eq!(Day::assigned(&events), vec![k]);
    assert_eq!(d.t.matches[&k].start, Timestamp(90 * MIN));
}

/// A match that has its log is put off or moved too (2.2): the tournament records it,
/// and the server has its table carry it out (a table already playing refuses it).
/// Once decided it is not moved; a chess game is replaced instead (6.6).
#[test]
fn art_2_2_a_created_match_is_put_off_and_rescheduled_until_its_result() {
    let mut d = Day::open(knockout(Flights::Main), 4);
    d.field(4);
    d.draw();
    d.start(1, 3 * MIN);
    let k = MatchKey::main(1, 1);
    let rule = |ruling: Ruling| Command::Rule {
        key: k,
        ruling,
        words: "the room is closed for an hour".into(),
    };
    let events = d.ok(rule(Ruling::Postpone), 4 * MIN);
    assert!(matches!(events[..], [Event::Postponed { key, .. }] if key == k));
    let (kind, m) = rule_kind(d.run(rule(Ruling::Postpone), 4 * MIN));
    assert_eq!(kind, ErrorKind::Rule);
    assert!(m.contains("already put off"), "{m}");
    let start = Timestamp(70 * MIN);
    d.ok(rule(Ruling::Reschedule { start }), 5 * MIN);
    assert_eq!(
        d.t.matches[&k].start, start,
        "the assignment shows the new start"
    );
    assert!(!d.t.postponed.contains_key(&k));
    d.win_a(k, 80 * MIN);
    let (kind, m) = rule_kind(d.run(rule(Ruling::Postpone), 81 * MIN));
    assert_eq!(kind, ErrorKind::Rule);
    assert!(m.contains("has a result"), "{m}");

    let mut chess = Day::open(
        Plan {
            format: Format::RoundRobin { cycles: 1 },
            game: GameType::Chess,
            length: 1,
        },
        4,
    );
    chess.field(4);
    chess.draw();
    chess.start(1, 3 * MIN);
    let (kind, m) = rule_kind(chess.run(
        Command::Rule {
            key: MatchKey::main(1, 1),
            ruling: Ruling::Postpone,
            words: "power cut".into(),
        },
        4 * MIN,
    ));
    assert_eq!(kind, ErrorKind::Rule);
    assert!(m.contains("6.6") && m.contains("replace"), "{m}");
}

#[test]
fn a_forfeit_decides_a_match_not_yet_begun_and_the_winner_goes_on() {
    let mut d = Day::open(knockout(Flights::Main), 1);
    d.field(4);
    d.draw();
    d.start(1, 3 * MIN);
    // One table: M1-1 is played, M1-2 waits; its player does not come.
    let k = MatchKey::main(1, 2);
    let pairing = d.pairing(k);
    d.ok(
        Command::Rule {
            key: k,
            ruling: Ruling::Forfeit {
                winner: pairing.players[0],
            },
            words: "no-show after 30 minutes".into(),
        },
        40 * MIN,
    );
    assert_eq!(d.t.results[&k].winner, Some(pairing.players[0]));
    assert!(!d.t.results[&k].played);
}

/// A result corrected at its table and confirmed again reaches the draw as a
/// correction (4.6), under the same rule as the draw's own; the table's first
/// confirmation read again does not undo a correction the draw made itself.
#[test]
fn art_4_6_a_result_corrected_at_its_table_is_taken_by_the_draw() {
    let mut d = Day::open(knockout(Flights::Main), 1);
    d.field(2);
    d.draw();
    d.start(1, MIN);
    let k = MatchKey::main(1, 1);
    d.win_a(k, 2 * MIN);
    let [a, b] = d.t.matches[&k].players;
    let id = d.t.matches[&k].match_id.clone();
    let confirmed = |winner, score| Command::Confirmed {
        match_id: id.clone(),
        winner: Some(winner),
        score,
        played: true,
    };
    let events = d.ok(confirmed(Side::B, [2, 5]), 3 * MIN);
    assert_eq!(events.len(), 1);
    assert_eq!(d.t.results[&k].winner, Some(b));
    assert!(d.t.results[&k].ruling.contains("4.6"));
    // The draw's own correction stands when the table's result is read again.
    d.correct(k, Some(a), [5, 4], "the scoresheet", 4 * MIN)
        .unwrap();
    assert!(d.ok(confirmed(Side::B, [2, 5]), 5 * MIN).is_empty());
    assert_eq!(d.t.results[&k].winner, Some(a));
}

/// A played result moves both ratings by the FIBS formula (the same numbers as
/// `rating::fibs`); a forfeit does not, nor does a correction of a rated result.
#[test]
fn ratings_move_by_the_fibs_formula_once_per_played_match() {
    use baffle_core::tournament::rating::{Rating, fibs};
    let mut d = Day::open(knockout(Flights::Main), 8);
    for (i, r) in [(1, 160_000), (2, 150_000), (3, 150_000), (4, 150_000)] {
        let mut details = Details::named(&format!("Player {i}"));
        details.rating = Some(Rating(r));
        details.experience = 500;
        d.enter(details);
    }
    d.draw();
    d.start(1, 3 * MIN);
    let k = MatchKey::main(1, 1);
    let [a, b] = d.t.matches[&k].players;
    let rating = |d: &Day, e: EntrantId| d.t.entrants[&e].rating.unwrap();
    let (ra, rb) = (rating(&d, a), rating(&d, b));
    d.win_a(k, 10 * MIN);
    let change = fibs(ra, rb, 5, 500, 500).unwrap();
    assert!(change.winner_gain.0 > 0);
    assert_eq!(rating(&d, a).0, ra.0 + change.winner_gain.0);
    assert_eq!(rating(&d, b).0, rb.0 - change.loser_loss.0);
    assert_eq!(d.t.entrants[&a].experience, 505);
    // A correction keeps the ratings where the first result put them.
    let (after_a, after_b) = (rating(&d, a), rating(&d, b));
    d.correct(k, Some(a), [5, 4], "score sheet", 11 * MIN)
        .unwrap();
    assert_eq!((rating(&d, a), rating(&d, b)), (after_a, after_b));
    // A forfeit at the table is recorded unplayed: no rating moves.
    let k2 = MatchKey::main(1, 2);
    let [c, e] = d.t.matches[&k2].players;
    let (rc, re) = (rating(&d, c), rating(&d, e));
    let id = d.t.matches[&k2].match_id.clone();
    d.ok(
        Command::Confirmed {
            match_id: id,
            winner: Some(Side::B),
            score: [0, 0],
            played: false,
        },
        12 * MIN,
    );
    assert!(!d.t.results[&k2].played);
    assert_eq!((rating(&d, c), rating(&d, e)), (rc, re));
}

#[test]
fn the_log_replays_to_the_same_tournament_and_a_changed_record_is_named() {
    let mut d = Day::open(knockout(Flights::Consolation), 4);
    d.field(8);
    d.draw();
    for round in 1..=3 {
        d.ok(
            Command::StartRound {
                flight: Flight::Main,
                round,
                start: None,
            },
            3 * MIN,
        );
    }
    let mut at = 10 * MIN;
    while let Some(k) =
        d.t.matches
            .keys()
            .find(|k| !d.t.results.contains_key(k) && k.flight == Flight::Main)
            .copied()
    {
        at += MIN;
        d.win_a(k, at);
    }
    assert!(d.t.placings().iter().any(|p| p.place == Some(1)));
    let replayed = replay(&d.records).unwrap();
    assert_eq!(replayed, d.t);
    // A forged order: named, at its record.
    let i = d
        .records
        .iter()
        .position(|r| r.body.contains("draw.made"))
        .unwrap();
    let mut forged = d.records.clone();
    let body = forged[i].body.replace("\"order\":[", "\"order\":[99,");
    forged[i] = baffle_core::audit::Record::next(Some(&forged[i - 1]), body);
    let mut prev = forged[i].clone();
    for r in forged.iter_mut().skip(i + 1) {
        *r = baffle_core::audit::Record::next(Some(&prev), r.body.clone());
        prev = r.clone();
    }
    let e = replay(&forged).unwrap_err();
    assert!(
        e.contains(&format!("record {i}")) && e.contains("order"),
        "{e}"
    );
}

#[test]
fn art_4_6_a_result_beside_a_bye_is_not_corrected_once_its_next_match_is_played() {
    let mut d = Day::open(knockout(Flights::Main), 8);
    d.field(3);
    d.draw();
    d.start(1, 3 * MIN);
    d.start(2, 3 * MIN);
    let played: Vec<MatchKey> = d.t.matches.keys().copied().collect();
    assert_eq!(played.len(), 1, "{played:?}");
    let k1 = played[0];
    d.win_a(k1, 10 * MIN);
    let [a, b] = d.t.matches[&k1].players;
    let next = MatchKey::main(2, 1);
    assert!(d.t.matches[&next].players.contains(&a));
    d.win_a(next, 20 * MIN);
    let (_, m) = rule_kind(d.correct(k1, Some(b), [3, 5], "wrong winner reported", 21 * MIN));
    assert!(m.contains("4.6") && m.contains("M2-1"), "{m}");
    // The same correction written into the log by hand does not verify.
    let forged = Event::Result {
        key: k1,
        winner: Some(b),
        score: [3, 5],
        played: true,
        ruling: "wrong winner reported".into(),
    };
    let mut records = d.records.clone();
    records.push(baffle_core::audit::Record::next(
        records.last(),
        forged.body(),
    ));
    let e = replay(&records).unwrap_err();
    let last = records.len() - 1;
    assert!(
        e.contains(&format!("record {last}")) && e.contains("M2-1"),
        "{e}"
    );
    assert_eq!(replay(&d.records).unwrap(), d.t);
}

/// A player withdrawn after the draw: the match he is playing is settled at its table,
/// and every later pairing of his — the main draw's or a consolation's he is fed into —
/// is won without play by his opponent as soon as it is known, with no command.
#[test]
fn a_player_withdrawn_after_the_draw_forfeits_every_pairing_still_to_come() {
    let mut d = Day::open(knockout(Flights::Consolation), 8);
    d.field(8);
    d.draw();
    d.start(1, 3 * MIN);
    let k1 = MatchKey::main(1, 1);
    let [a, gone] = d.t.matches[&k1].players;
    let events = d.ok(
        Command::Out {
            entrant: gone,
            reason: "fell ill".into(),
        },
        5 * MIN,
    );
    assert!(matches!(events[..], [Event::Out { .. }]), "{events:?}");
    // His match at the table is settled there, then confirmed.
    d.win_a(k1, 6 * MIN);
    // Fed into the consolation, he forfeits there once his opponent is known.
    for i in 2..=4 {
        d.win_a(MatchKey::main(1, i), 7 * MIN);
    }
    let c = MatchKey {
        flight: Flight::Consolation,
        round: 1,
        index: 1,
    };
    let r = &d.t.results[&c];
    assert!(!r.played, "{r:?}");
    assert!(!d.t.matches.contains_key(&c), "no log for a forfeit");
    let pairing = d.pairing(c);
    assert!(pairing.players.contains(&gone));
    assert_ne!(r.winner, Some(gone));
    // The main draw goes on with his round-1 opponent.
    assert!(
        d.t.current_draw()
            .pairings
            .iter()
            .any(|p| p.key == MatchKey::main(2, 1) && p.players.contains(&a)),
    );
    // Refused: out twice; the log replays to the same day.
    let (kind, m) = rule_kind(d.run(
        Command::Out {
            entrant: gone,
            reason: "again".into(),
        },
        8 * MIN,
    ));
    assert_eq!(kind, ErrorKind::Rule, "{m}");
    assert!(m.contains("already"), "{m}");
    assert_eq!(replay(&d.records).unwrap(), d.t);
}

/// Withdrawn before his round starts, a player's pairing is decided at once, and his
/// opponent goes on without playing.
#[test]
fn a_player_withdrawn_before_his_match_has_a_log_loses_it_without_play() {
    let mut d = Day::open(knockout(Flights::Main), 8);
    d.field(4);
    d.draw();
    let k = MatchKey::main(1, 2);
    let pairing = d.pairing(k);
    let [stays, gone] = pairing.players;
    let events = d.ok(
        Command::Out {
            entrant: gone,
            reason: "left the venue".into(),
        },
        3 * MIN,
    );
    assert!(
        events.iter().any(|e| matches!(e, Event::Result { key, winner: Some(w), played: false, .. } if *key == k && *w == stays)),
        "{events:?}"
    );
    // Round 1 starts with the other match only.
    let assigned = Day::assigned(&d.start(1, 4 * MIN));
    assert_eq!(assigned, vec![MatchKey::main(1, 1)]);
    assert_eq!(replay(&d.records).unwrap(), d.t);
}

/// A Swiss pairs a withdrawn player no more: the round after his withdrawal is paired
/// from the others (and replays to the same pairing).
#[test]
fn a_swiss_pairs_a_withdrawn_player_no_more() {
    let plan = Plan {
        format: Format::Swiss { rounds: 3 },
        game: GameType::Backgammon,
        length: 5,
    };
    let mut d = Day::open(plan, 4);
    d.field(6);
    d.draw();
    d.start(1, 3 * MIN);
    let keys: Vec<MatchKey> = d.t.matches.keys().copied().collect();
    assert_eq!(keys.len(), 3);
    for k in &keys {
        d.win_a(*k, 10 * MIN);
    }
    let gone = d.t.matches[&keys[0]].players[1];
    d.ok(
        Command::Out {
            entrant: gone,
            reason: "went home".into(),
        },
        11 * MIN,
    );
    d.start(2, 12 * MIN);
    let round2: Vec<_> =
        d.t.current_draw()
            .pairings
            .into_iter()
            .filter(|p| p.key.round == 2)
            .collect();
    assert_eq!(round2.len(), 2, "{round2:?}");
    assert!(round2.iter().all(|p| !p.players.contains(&gone)));
    assert_eq!(replay(&d.records).unwrap(), d.t);
}
