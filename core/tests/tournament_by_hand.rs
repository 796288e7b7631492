//! A tournament without a draw: the matches its director makes by hand, one per table
//! and per pair of players in a round unless one replaces another by a ruling; its log
//! read back through the one replay path, which refuses a log the rule would not have
//! written.

use baffle_core::Timestamp;
use baffle_core::audit::{Record, record_hash};
use baffle_core::tournament::ErrorKind;
use baffle_core::tournament::by_hand::{self, ByHand, HandEvent, NewMatch, Replacing};
use proptest::prelude::*;

/// A log with its records, as the server keeps them.
struct Log {
    t: ByHand,
    records: Vec<Record>,
}

impl Log {
    fn new() -> Log {
        let p = ByHand::create("club", "Club night", Timestamp(0)).unwrap();
        Log {
            t: p.log,
            records: p.records,
        }
    }

    fn make(&mut self, new: NewMatch) -> Result<(), baffle_core::tournament::TournamentError> {
        let before = self.t.clone();
        let p = self.t.plan(&new, Timestamp(self.records.len() as i64));
        assert_eq!(self.t, before, "planning changes nothing");
        let p = p?;
        self.t = p.log;
        self.records.extend(p.records);
        Ok(())
    }
}

fn replacing(new: NewMatch, old: &str, ruling: &str) -> NewMatch {
    NewMatch {
        replaces: Some(Replacing {
            match_id: old.into(),
            ruling: ruling.into(),
        }),
        ..new
    }
}

#[test]
fn a_round_has_one_match_per_table_and_the_second_names_the_first() {
    let mut log = Log::new();
    log.make(NewMatch::new("m1", 1, "4", ["Anna", "Ben"]))
        .unwrap();
    let e = log
        .make(NewMatch::new("m2", 1, "4", ["Chris", "Dora"]))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Rule);
    assert!(
        e.message.contains("m1 (Anna v Ben, table 4)") && e.message.contains("--replaces"),
        "{e}"
    );
    // Another round, or another table, is another match.
    log.make(NewMatch::new("m2", 2, "4", ["Chris", "Dora"]))
        .unwrap();
    log.make(NewMatch::new("m3", 1, "5", ["Chris", "Dora"]))
        .unwrap();
}

#[test]
fn a_round_has_one_match_per_pair_whatever_the_spelling() {
    let mut log = Log::new();
    log.make(NewMatch::new("m1", 1, "4", ["Anna Li", "Ben"]))
        .unwrap();
    let e = log
        .make(NewMatch::new("m2", 1, "5", ["ben", "anna  li"]))
        .unwrap_err();
    assert!(e.message.contains("the same two players"), "{e}");
    // A match is between two players.
    let e = log
        .make(NewMatch::new("m9", 1, "9", ["Gail", " gail"]))
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(e.message.contains("are one"), "{e}");
    // Without tables, the pair alone decides.
    log.make(NewMatch::new("m3", 1, "", ["Chris", "Dora"]))
        .unwrap();
    log.make(NewMatch::new("m4", 1, "", ["Eve", "Finn"]))
        .unwrap();
}

/// 2.2: a best-of-three series is one pair's three matches, at one table or several.
#[test]
fn art_2_2_the_matches_of_a_series_are_one_pair_s_by_design() {
    let mut log = Log::new();
    let series = |id: &str, table: &str, n: u32| NewMatch {
        series_match: n,
        ..NewMatch::new(id, 1, table, ["Anna", "Ben"])
    };
    log.make(series("s1", "4", 1)).unwrap();
    log.make(series("s2", "5", 2)).unwrap();
    // Not at a table taken, even within the series.
    assert!(log.make(series("s3", "4", 3)).is_err());
}

#[test]
fn a_replacement_names_the_match_and_gives_the_director_s_words() {
    let mut log = Log::new();
    log.make(NewMatch::new("m1", 1, "4", ["Anna", "Ben"]))
        .unwrap();
    let again = NewMatch::new("m1b", 1, "4", ["Anna", "Ben"]);
    let e = log.make(replacing(again.clone(), "m1", "  ")).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Invalid);
    assert!(e.message.contains("director's words"), "{e}");
    let e = log
        .make(replacing(again.clone(), "nope", "wrong length"))
        .unwrap_err();
    assert!(e.message.contains("not in tournament club"), "{e}");
    log.make(replacing(again, "m1", "wrong length typed"))
        .unwrap();
    assert_eq!(log.t.replaced_by("m1"), Some("m1b"));
    // A match replaced is replaced once: the next replaces its replacement.
    let third = NewMatch::new("m1c", 1, "4", ["Anna", "Ben"]);
    let e = log
        .make(replacing(third.clone(), "m1", "again"))
        .unwrap_err();
    assert!(e.message.contains("replaced by m1b already"), "{e}");
    log.make(replacing(third, "m1b", "again")).unwrap();
    // The same id twice is refused.
    assert!(log.make(NewMatch::new("m1", 2, "9", ["X", "Y"])).is_err());
}

#[test]
fn the_log_replays_to_the_same_tournament() {
    let mut log = Log::new();
    log.make(NewMatch::new("m1", 1, "4", ["Anna", "Ben"]))
        .unwrap();
    log.make(replacing(
        NewMatch::new("m2", 1, "4", ["Anna", "Ben"]),
        "m1",
        "clock fault",
    ))
    .unwrap();
    assert_eq!(by_hand::replay(&log.records).unwrap(), log.t);
    // Read on from part of it, as a server that keeps the fold does.
    let part = by_hand::replay(&log.records[..2]).unwrap();
    assert_eq!(
        by_hand::follow(Some(part), &log.records[2..]).unwrap(),
        log.t
    );
}

/// A record its own hash covers, at the end of `records`.
fn forge(records: &mut Vec<Record>, event: &HandEvent) {
    let last = records.last().unwrap();
    let body = event.body();
    let seq = last.seq + 1;
    let hash = record_hash(seq, &last.hash, body.as_bytes());
    records.push(Record {
        seq,
        prev: last.hash,
        body,
        hash,
    });
}

#[test]
fn a_log_the_rule_would_not_have_written_does_not_verify() {
    let mut log = Log::new();
    log.make(NewMatch::new("m1", 1, "4", ["Anna", "Ben"]))
        .unwrap();
    // The operator appends a second match at table 4, unlinked, with a good chain.
    let mut forged = log.records.clone();
    forge(
        &mut forged,
        &HandEvent::MatchCreated {
            match_id: "m2".into(),
            round: 1,
            table: "4".into(),
            players: ["Anna".into(), "Ben".into()],
            series_match: 0,
            replaces: None,
            at: Timestamp(5),
        },
    );
    let e = by_hand::replay(&forged).unwrap_err();
    assert!(e.starts_with("record 2:") && e.contains("table 4"), "{e}");
    // A changed body breaks the chain.
    let mut changed = log.records.clone();
    changed[1].body = changed[1].body.replace("Ben", "Bob");
    assert!(by_hand::replay(&changed).unwrap_err().contains("hash"));
    // A draw's log is not this kind.
    let mut second = log.records.clone();
    forge(
        &mut second,
        &HandEvent::Created {
            tournament: "club".into(),
            name: "again".into(),
            at: Timestamp(9),
        },
    );
    assert!(by_hand::replay(&second).unwrap_err().contains("second"));
}

fn ask() -> impl Strategy<Value = (u32, u8, u8, u8, Option<u8>)> {
    (
        1..3u32,
        0..4u8,
        0..5u8,
        0..5u8,
        proptest::option::of(0..12u8),
    )
}

proptest! {
    /// Whatever the director asks, in any order: what is accepted replays to the same
    /// tournament, and no standing match of a round shares a table or a pair.
    #[test]
    fn the_fold_is_the_state_and_the_rule_holds(asks in proptest::collection::vec(ask(), 0..40)) {
        let mut log = Log::new();
        for (i, (round, table, a, b, replaces)) in asks.into_iter().enumerate() {
            let table = if table == 0 { String::new() } else { table.to_string() };
            let mut new = NewMatch::new(&format!("m{i}"), round, &table, ["", ""]);
            // (a == b: refused as one player; kept in the asks to show it changes nothing)
            new.players = [format!("P{a}"), format!("P{b}")];
            new.replaces = replaces.map(|r| Replacing { match_id: format!("m{r}"), ruling: "ruled".into() });
            let _ = log.make(new);
        }
        prop_assert_eq!(by_hand::replay(&log.records).unwrap(), log.t.clone());
        let standing: Vec<_> = log.t.matches.iter().filter(|m| m.replaced_by.is_none()).collect();
        for (i, x) in standing.iter().enumerate() {
            for y in &standing[i + 1..] {
                if x.new.round != y.new.round { continue; }
                prop_assert!(x.new.table.is_empty() || x.new.table != y.new.table);
                let pair = |m: &NewMatch| { let mut p = m.players.clone(); p.sort(); p };
                prop_assert!(pair(&x.new) != pair(&y.new));
            }
        }
    }
}
