//! The one replay path: logs written before the Table still verify, and a log whose
//! played dice, opening throws or Chess960 position differ from the draws is rejected
//! even with its chain rebuilt around the change (issue 15).
//!
//! The fixtures in `fixtures/logs-before-table/` were exported from a server built from
//! the commit before the Table existed: a demo backgammon match and a demo chess match
//! played by devices, a match of loaded physical dice (anomalies), a match with both
//! players' seeds, and a Chess960 match with an arbiter's ruling.

use baffle_core::audit::export::{Line, parse_line, to_jsonl};
use baffle_core::audit::verify::verify_jsonl;
use baffle_core::audit::{Chain, Record};
use baffle_core::table::Replay;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/logs-before-table/{name}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn records(log: &str) -> Vec<Record> {
    log.lines()
        .filter_map(|l| match parse_line(l).unwrap() {
            Line::Record(r) => Some(r),
            Line::End { .. } => None,
        })
        .collect()
}

/// The log with `edit` applied to every body, the chain rebuilt so every hash is right.
fn forged(log: &str, edit: impl Fn(usize, &str) -> String) -> String {
    let mut chain = Chain::new();
    for (i, r) in records(log).iter().enumerate() {
        chain.append(edit(i, &r.body));
    }
    to_jsonl(chain.records())
}

/// `body` with the pair of dice under `key` changed to another valid pair.
fn other_dice(body: &str, key: &str) -> String {
    let start = format!(r#""{key}":["#);
    let was = &body.split(&start).nth(1).unwrap()[..3];
    let other = if was == "6,1" { "5,2" } else { "6,1" };
    body.replace(&format!("{start}{was}]"), &format!("{start}{other}]"))
}

/// The seq of the first record whose body contains `needle`.
fn first(log: &str, needle: &str) -> usize {
    records(log)
        .iter()
        .position(|r| r.body.contains(needle))
        .unwrap_or_else(|| panic!("no {needle} in the log"))
}

const FIXTURES: [(&str, bool, usize); 5] = [
    // (name, revealed, server draws)
    ("demo-backgammon", true, 13),
    ("demo-chess", true, 0),
    ("physical-loaded", false, 0),
    ("server-seeded", true, 3),
    ("chess960", true, 1),
];

#[test]
fn logs_written_before_the_table_still_verify_and_replay() {
    for (name, revealed, draws) in FIXTURES {
        let log = fixture(name);
        let report = verify_jsonl(&log, None);
        assert!(report.is_ok(), "{name}: {report}");
        assert_eq!(report.revealed, revealed, "{name}");
        assert_eq!(report.dice_verified, draws, "{name}: {report}");
        let table = Replay::run(&records(&log), None).unwrap();
        assert_eq!(Some(table.head()), report.head, "{name}");
        assert_eq!(table.dice().draws(), draws, "{name}");
    }
    // The loaded dice raised their anomalies again on replay, the same as recorded.
    let table = Replay::run(&records(&fixture("physical-loaded")), None).unwrap();
    assert_eq!(table.anomalies().0, 4);
}

#[test]
fn a_played_roll_that_is_not_the_drawn_roll_is_rejected() {
    let log = fixture("demo-backgammon");
    let at = first(&log, r#""kind":"bg.rolled""#);
    let bad = forged(&log, |i, body| {
        if i == at {
            other_dice(body, "dice")
        } else {
            body.to_string()
        }
    });
    let report = verify_jsonl(&bad, None);
    let p = report.problem.expect("rejected");
    assert_eq!(p.seq, Some(at as u64), "{p:?}");
    assert!(p.reason.contains("was drawn"), "{}", p.reason);
}

#[test]
fn a_draw_changed_with_its_use_is_caught_at_the_reveal() {
    let log = fixture("demo-backgammon");
    let draw = first(&log, r#""kind":"dice.roll""#);
    let played = first(&log, r#""kind":"bg.rolled""#);
    let bad = forged(&log, |i, body| {
        if i == draw || i == played {
            other_dice(body, "dice")
        } else {
            body.to_string()
        }
    });
    let p = verify_jsonl(&bad, None).problem.expect("rejected");
    assert!(p.reason.contains(&format!("record {draw}")), "{}", p.reason);
    assert!(p.reason.contains("revealed seed"), "{}", p.reason);
    // Before the reveal nothing can tell: the log is consistent but unrevealed.
    let unrevealed = {
        let mut r = records(&bad);
        r.pop();
        to_jsonl(&r)
    };
    let report = verify_jsonl(&unrevealed, None);
    assert!(report.is_ok() && !report.revealed, "{report}");
}

#[test]
fn opening_throws_that_are_not_the_drawn_ones_are_rejected() {
    let log = fixture("server-seeded");
    let at = first(&log, r#""kind":"bg.opening_throw""#);
    let bad = forged(&log, |i, body| {
        if i == at {
            other_dice(body, "throw")
        } else {
            body.to_string()
        }
    });
    let p = verify_jsonl(&bad, None).problem.expect("rejected");
    assert_eq!(p.seq, Some(at as u64));
    assert!(p.reason.contains("opening throw"), "{}", p.reason);
}

#[test]
fn a_chess960_position_that_is_not_the_drawn_one_is_rejected() {
    let log = fixture("chess960");
    let draw = first(&log, r#""kind":"dice.chess960""#);
    let set = first(&log, r#""kind":"chess.position""#);
    let body = &records(&log)[set].body;
    let sp: u16 = body
        .split(r#""sp":"#)
        .nth(1)
        .unwrap()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let other = if sp == 518 { 0 } else { 518 };
    let rank = |sp: u16| -> String {
        baffle_core::dice::chess960_back_rank(sp)
            .unwrap()
            .iter()
            .collect()
    };
    let moved = |body: &str| {
        body.replace(&format!(r#""sp":{sp}"#), &format!(r#""sp":{other}"#))
            .replace(&rank(sp), &rank(other))
    };
    // The position alone: it is not the draw.
    let bad = forged(&log, |i, b| if i == set { moved(b) } else { b.into() });
    let p = verify_jsonl(&bad, None).problem.expect("rejected");
    assert_eq!(p.seq, Some(set as u64));
    // Draw and position together: the revealed seed gives another.
    let bad = forged(&log, |i, b| {
        if i == set || i == draw {
            moved(b)
        } else {
            b.into()
        }
    });
    let p = verify_jsonl(&bad, None).problem.expect("rejected");
    assert!(p.reason.contains(&format!("record {draw}")), "{}", p.reason);
}

#[test]
fn bodies_must_be_canonical() {
    let log = fixture("server-seeded");
    // A duplicated key in a game event.
    let at = first(&log, r#""kind":"bg.pressed""#);
    let bad = forged(&log, |i, b| {
        if i == at {
            b.replace(r#""side":"#, r#""side":"A","side":"#)
        } else {
            b.into()
        }
    });
    let p = verify_jsonl(&bad, None).problem.expect("rejected");
    assert_eq!(p.seq, Some(at as u64));
    // Upper-case hex in the commitment and in the revealed seed.
    for kind in ["match.opened", "dice.reveal"] {
        let at = first(&log, &format!(r#""kind":"{kind}""#));
        let bad = forged(&log, |i, b| {
            if i == at {
                let (head, hex) = b.rsplit_once(":\"").unwrap();
                format!("{head}:\"{}", hex.to_uppercase())
            } else {
                b.into()
            }
        });
        let p = verify_jsonl(&bad, None).problem.expect("rejected");
        assert_eq!(p.seq, Some(at as u64), "{kind}");
        assert!(p.reason.contains("lower-case hex"), "{kind}: {}", p.reason);
    }
}

#[test]
fn a_reported_roll_and_its_anomalies_must_match_what_was_rolled() {
    let log = fixture("physical-loaded");
    let at = first(&log, r#""kind":"dice.reported""#);
    let bad = forged(&log, |i, b| {
        if i == at {
            other_dice(b, "dice")
        } else {
            b.into()
        }
    });
    assert!(!verify_jsonl(&bad, None).is_ok());
    // An anomaly dropped from the log: the watch raised it, so the next record is wrong.
    let anomaly = first(&log, r#""kind":"dice.anomaly""#);
    let mut r: Vec<String> = records(&log).into_iter().map(|r| r.body).collect();
    r.remove(anomaly);
    let mut chain = Chain::new();
    for b in r {
        chain.append(b);
    }
    let p = verify_jsonl(&to_jsonl(chain.records()), None)
        .problem
        .expect("rejected");
    assert!(p.reason.contains("dice watch"), "{p:?}");
}

/// Found from outside: before the reveal, server dice of 7 or 0 (a roll and its use forged
/// together) verified, and a tied last opening throw failed with an unrelated reason.
#[test]
fn sealed_server_dice_are_checked_for_range_and_opening_ties() {
    let log = fixture("demo-backgammon");
    let unrevealed = |log: &str| {
        let mut r = records(log);
        r.pop(); // the reveal
        to_jsonl(&r)
    };
    let draw = first(&log, r#""kind":"dice.roll""#);
    let played = first(&log, r#""kind":"bg.rolled""#);
    let die = |body: &str| {
        let start = r#""dice":["#;
        let was = &body.split(start).nth(1).unwrap()[..3];
        body.replace(&format!("{start}{was}]"), &format!("{start}2,7]"))
    };
    let bad = forged(&log, |i, b| {
        if i == draw || i == played {
            die(b)
        } else {
            b.into()
        }
    });
    let p = verify_jsonl(&unrevealed(&bad), None)
        .problem
        .expect("rejected");
    assert_eq!(p.seq, Some(draw as u64));
    assert!(p.reason.contains("server roll"), "{}", p.reason);
    let opening = first(&log, r#""kind":"dice.opening""#);
    let thrown = first(&log, r#""kind":"bg.opening_throw""#);
    let tie = |body: &str| {
        let (head, _) = body.split_once(r#""throw"#).unwrap();
        match body.contains(r#""throws""#) {
            true => format!("{head}\"throws\":[[3,3]]}}"),
            false => format!(r#"{head}"throw":[3,3],"source":"server"}}"#),
        }
    };
    let bad = forged(&log, |i, b| {
        if i == opening || i == thrown {
            tie(b)
        } else {
            b.into()
        }
    });
    let p = verify_jsonl(&unrevealed(&bad), None)
        .problem
        .expect("rejected");
    assert_eq!(p.seq, Some(opening as u64));
    assert!(p.reason.contains("ends on a tie"), "{}", p.reason);
}

/// A follower who watched during play saw a head before the reveal: the complete log
/// passes through it. A log rewritten before it, or cut short of it, does not.
#[test]
fn a_witnessed_head_is_a_point_the_log_passes_through() {
    let log = fixture("server-seeded");
    let all = records(&log);
    let seen = all[all.len() - 3].hash;
    assert!(verify_jsonl(&log, Some(seen)).is_ok());
    let cut = to_jsonl(&all[..all.len() - 4]);
    let p = verify_jsonl(&cut, Some(seen)).problem.expect("rejected");
    assert!(p.reason.contains("witnessed head"), "{}", p.reason);
    // An editor's trailing newline is not a line of the log.
    assert!(verify_jsonl(&format!("{log}\n"), Some(seen)).is_ok());
}

/// The log with `bodies` inserted before record `at`, the chain rebuilt.
fn inserted(log: &str, at: usize, bodies: &[&str]) -> String {
    let mut chain = Chain::new();
    for (i, r) in records(log).iter().enumerate() {
        if i == at {
            for b in bodies {
                chain.append(b.to_string());
            }
        }
        chain.append(r.body.clone());
    }
    to_jsonl(chain.records())
}

fn takeover(epoch: u64, node: &str) -> String {
    format!(r#"{{"at":1,"epoch":{epoch},"kind":"table.takeover","node":"{node}"}}"#)
}

/// A node of a cluster taking a match over (`docs/cluster.md`): recorded between two
/// appends it verifies, each with a newer epoch; between a draw and its use, or with an
/// epoch not newer than the last, it does not.
#[test]
fn a_takeover_verifies_between_appends_with_ever_newer_epochs() {
    let log = fixture("demo-backgammon");
    let draw = first(&log, r#""kind":"dice.roll""#);
    let (two, three) = (takeover(2, "n2"), takeover(3, "n1"));
    let good = inserted(&log, draw, &[&two, &three]);
    let report = verify_jsonl(&good, None);
    assert!(report.is_ok(), "{report}");
    assert_eq!(Replay::run(&records(&good), None).unwrap().epoch(), 3);

    let between = inserted(&log, draw + 1, &[&two]);
    let p = verify_jsonl(&between, None).problem.expect("rejected");
    assert_eq!(p.seq, Some(draw as u64 + 1), "{p:?}");
    assert!(p.reason.contains("was not played"), "{}", p.reason);

    let older = inserted(&log, draw, &[&three, &two]);
    let p = verify_jsonl(&older, None).problem.expect("rejected");
    assert_eq!(p.seq, Some(draw as u64 + 1), "{p:?}");
    assert!(p.reason.contains("epoch 2 after epoch 3"), "{}", p.reason);
}

/// A misspelled name is corrected by a `match.renamed` record (issue 19): the log with it
/// replays and verifies, even after the match and the reveal; a bad name is refused and
/// changes nothing; a forged rename whose `was` is not the name then is rejected.
#[test]
fn a_renamed_player_replays_and_verifies_and_a_forged_rename_does_not() {
    use baffle_core::Side;
    use baffle_core::table::{MAX_PLAYER_NAME, RefusalKind, Request};
    let log = fixture("demo-backgammon");
    let mut log_records = records(&log);
    let table = Replay::run(&log_records, None).unwrap();
    let was = table.game().players()[1].clone();
    let rename = |name: &str| Request::RenamePlayer {
        side: Side::B,
        name: name.into(),
    };
    let now = table.game().now();
    let plan = table.plan(&rename("  Βασίλης Παπαδάκης "), now).unwrap();
    assert_eq!(plan.records.len(), 1);
    assert_eq!(plan.table.game().players()[1], "Βασίλης Παπαδάκης");
    assert_eq!(plan.table.game().players()[0], table.game().players()[0]);
    log_records.extend(plan.records.clone());
    let replayed = Replay::run(&log_records, None).unwrap();
    assert_eq!(replayed.game().players()[1], "Βασίλης Παπαδάκης");
    assert_eq!(replayed.head(), plan.table.head());
    let jsonl = to_jsonl(&log_records);
    let report = verify_jsonl(&jsonl, None);
    assert!(report.is_ok(), "{report}");

    let long = "x".repeat(MAX_PLAYER_NAME + 1);
    for bad in ["", "  ", "Ben\nBen", &long, "Βασίλης Παπαδάκης"] {
        let refused = plan.table.plan(&rename(bad), now).unwrap_err();
        assert_eq!(refused.kind, RefusalKind::Invalid, "{bad:?}: {refused}");
    }

    let forged_log = forged(&jsonl, |_, body| {
        body.replace(&format!(r#""was":"{was}""#), r#""was":"Nobody""#)
    });
    assert_ne!(forged_log, jsonl);
    let report = verify_jsonl(&forged_log, None);
    assert!(
        !report.is_ok(),
        "a rename from a name the player did not have"
    );
}
