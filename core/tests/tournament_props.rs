//! Whole tournament days at random: every format, field size and number of tables,
//! rounds started and results confirmed in random orders. After every command the log
//! replays to the same tournament; no player and no table holds two matches at once;
//! every match given a log is a pairing of the draw in a started round; and the day
//! always ends, every match decided.

use std::collections::BTreeSet;

use baffle_core::dice::ServerSeed;
use baffle_core::side::Side;
use baffle_core::tournament::knockout::Flights;
use baffle_core::tournament::{
    Command, Details, EntrantId, Format, Plan, Ruling, Seeding, Tournament, replay,
};
use baffle_core::{GameType, Timestamp};
use proptest::prelude::*;

fn format(kind: u8, size: u32) -> Format {
    match kind % 5 {
        0 => Format::Knockout {
            flights: Flights::Main,
        },
        1 if size >= 4 => Format::Knockout {
            flights: Flights::Consolation,
        },
        2 if size >= 8 => Format::Knockout {
            flights: Flights::LastChance,
        },
        3 => Format::RoundRobin { cycles: 1 },
        4 => Format::Swiss { rounds: 3 },
        _ => Format::Knockout {
            flights: Flights::Main,
        },
    }
}

struct Day {
    t: Tournament,
    records: Vec<baffle_core::audit::Record>,
    now: i64,
}

impl Day {
    fn run(&mut self, c: &Command) -> bool {
        self.now += 60_000;
        match self.t.plan(c, Timestamp(self.now)) {
            Ok(p) => {
                self.t = p.tournament;
                self.records.extend(p.records);
                true
            }
            Err(_) => false,
        }
    }

    fn check(&self) -> Result<(), TestCaseError> {
        prop_assert_eq!(
            &replay(&self.records).map_err(TestCaseError::fail)?,
            &self.t
        );
        let draw = self.t.current_draw();
        let (mut players, mut tables) = (BTreeSet::new(), BTreeSet::new());
        for (k, a) in &self.t.matches {
            prop_assert!(
                draw.pairings
                    .iter()
                    .any(|p| p.key == *k && p.players == a.players),
                "{} is not a pairing of the draw",
                k
            );
            prop_assert!(self.t.rounds.contains_key(&(k.flight, k.round)));
            if !self.t.results.contains_key(k) {
                for p in a.players {
                    prop_assert!(players.insert(p), "{} plays two matches at once", p);
                }
                prop_assert!(
                    tables.insert(a.table.clone()),
                    "table {} holds two",
                    a.table
                );
            }
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn a_day_replays_keeps_players_and_tables_single_and_always_ends(
        size in 2u32..=17,
        kind in 0u8..5,
        tables in 1usize..=5,
        choices in prop::collection::vec(any::<u32>(), 400),
    ) {
        let plan = Plan { format: format(kind, size), game: GameType::Backgammon, length: 3 };
        let seed = ServerSeed::from_bytes([size as u8; 32]);
        let names = (1..=tables).map(|i| i.to_string()).collect();
        let opened = Tournament::open("p", "Props", plan, names, &seed, Timestamp(0)).unwrap();
        let mut day = Day { t: opened.tournament, records: opened.records, now: 0 };
        for i in 1..=size {
            let d = Details::named(&format!("P{i}"));
            let ok = day.run(&Command::Register { details: d, approve: true });
            prop_assert!(ok);
            let ok = day.run(&Command::CheckIn { entrant: EntrantId(i) });
            prop_assert!(ok);
        }
        let ok = day.run(&Command::MakeDraw { seed, seeding: Seeding::None });
        prop_assert!(ok);
        day.check()?;
        let mut choices = choices.into_iter().cycle();
        let mut steps = 0;
        loop {
            steps += 1;
            prop_assert!(steps < 2_000, "the day does not end");
            let c = choices.next().unwrap();
            let draw = day.t.current_draw();
            let undecided: Vec<_> = draw.pairings.iter()
                .filter(|p| !day.t.results.contains_key(&p.key)).collect();
            let playing: Vec<_> = undecided.iter()
                .filter(|p| day.t.matches.contains_key(&p.key)).collect();
            let unstarted: Vec<_> = day.t.flights().into_iter()
                .flat_map(|f| (1..=day.t.round_count(f)).map(move |r| (f, r)))
                .filter(|k| !day.t.rounds.contains_key(k)).collect();
            if undecided.is_empty() && unstarted.is_empty() {
                break;
            }
            match c % 4 {
                // Start a round (a Swiss refuses one out of order; nothing changes then).
                0 if !unstarted.is_empty() => {
                    let (flight, round) = unstarted[c as usize / 4 % unstarted.len()];
                    day.run(&Command::StartRound { flight, round, start: None });
                }
                // A forfeit of a match not begun.
                1 if undecided.len() > playing.len() => {
                    let waiting: Vec<_> = undecided.iter()
                        .filter(|p| !day.t.matches.contains_key(&p.key)).collect();
                    let p = waiting[c as usize / 4 % waiting.len()];
                    let winner = p.players[(c / 8 % 2) as usize];
                    let ok = day.run(&Command::Rule {
                        key: p.key,
                        ruling: Ruling::Forfeit { winner },
                        words: "no-show".into(),
                    });
                    prop_assert!(ok, "a forfeit of a match not begun is taken");
                }
                // A confirmed result.
                _ if !playing.is_empty() => {
                    let p = playing[c as usize / 4 % playing.len()];
                    let side = if c / 16 % 2 == 0 { Side::A } else { Side::B };
                    let match_id = day.t.matches[&p.key].match_id.clone();
                    let ok = day.run(&Command::Confirmed {
                        match_id,
                        winner: Some(side),
                        score: if side == Side::A { [3, 1] } else { [0, 3] },
                        played: true,
                    });
                    prop_assert!(ok, "a confirmed result is taken");
                }
                _ => {
                    // Nothing playing and nothing to forfeit: start what is left.
                    if let Some(&(flight, round)) = unstarted.first() {
                        day.run(&Command::StartRound { flight, round, start: None });
                    }
                }
            }
            day.check()?;
        }
        // The end: every flight of a knockout has its winner; a table for the others.
        if let Format::Knockout { .. } = day.t.plan.format {
            for f in day.t.flights() {
                prop_assert!(day.t.placings().iter().any(|p| p.flight == f && p.place == Some(1)));
            }
        } else {
            let rows = day.t.table().unwrap();
            let wins: u32 = rows.iter().map(|r| r.wins).sum();
            prop_assert_eq!(wins as usize, day.t.results.len());
        }
    }
}
