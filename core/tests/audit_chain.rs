//! The audit chain, its export and the offline verifier: a good log verifies; any single
//! altered, dropped, reordered or inserted line is rejected, with the first bad line named.

use baffle_core::Side;
use baffle_core::Timestamp;
use baffle_core::audit::export::{record_line, to_jsonl};
use baffle_core::audit::verify::verify_jsonl;
use baffle_core::audit::{Chain, Entry, Hash, Record};
use baffle_core::backgammon::{Command, MatchSetup, WinKind};
use baffle_core::dice::{DiceVersion, ServerSeed};
use baffle_core::table::{GameSetup, MatchInfo, Request, Table, TableOptions};
use proptest::prelude::*;

/// A realistic match log, written through the [`Table`] as the server writes it: opened,
/// set up, both players' seeds, check-ins, a server opening roll, `rolls` server rolls
/// each ended by a press, and (optionally) the end of the match and the reveal.
fn match_log(seed: u8, rolls: usize, reveal: bool) -> Chain {
    let info = MatchInfo {
        id: format!("match-{seed}"),
        tournament: "open".into(),
        round: 1,
        table: "1".into(),
    };
    let setup = GameSetup::Backgammon(MatchSetup::new(["Anna", "Ben"], 1, Timestamp(0)));
    // Construction 1, with seeds in the clear: logs written before construction 2 still
    // verify, and every check of the chain holds for them.
    let options = TableOptions {
        dice: DiceVersion::V1,
        ..TableOptions::default()
    };
    let (mut table, records) =
        Table::create_with_options(info, setup, options, ServerSeed::from_bytes([seed; 32]))
            .unwrap();
    let mut chain = Chain::new();
    for r in records {
        chain.append(r.body);
    }
    let mut t = 0;
    let mut run = |table: &mut Table, request: Request| {
        t += 1_000;
        let plan = table.plan(&request, Timestamp(t)).unwrap();
        for r in plan.records {
            chain.append(r.body);
        }
        *table = plan.table;
    };
    for (side, s) in [(Side::A, b"anna".as_slice()), (Side::B, b"ben".as_slice())] {
        run(
            &mut table,
            Request::PlayerSeed {
                side,
                seed: s.to_vec(),
            },
        );
    }
    for side in Side::BOTH {
        run(&mut table, Request::Backgammon(Command::CheckIn { side }));
    }
    run(&mut table, Request::ServerOpening);
    let mut mover = table.game().to_move().unwrap();
    run(
        &mut table,
        Request::Backgammon(Command::Press { side: mover }),
    );
    for _ in 0..rolls {
        mover = mover.other();
        run(&mut table, Request::ServerRoll(mover));
        run(
            &mut table,
            Request::Backgammon(Command::Press { side: mover }),
        );
    }
    if reveal {
        let kind = WinKind::Single;
        run(
            &mut table,
            Request::Backgammon(Command::EndGame {
                winner: mover,
                kind,
            }),
        );
        run(&mut table, Request::Reveal);
    }
    chain
}

#[test]
fn a_good_log_verifies_and_every_draw_is_recomputed() {
    let chain = match_log(1, 12, true);
    let report = verify_jsonl(&to_jsonl(chain.records()), Some(chain.head()));
    assert!(report.is_ok(), "{report}");
    assert_eq!(report.records, chain.records().len());
    assert_eq!(report.head, Some(chain.head()));
    assert_eq!(report.dice_verified, 13); // the opening roll and 12 rolls
    let records = chain.records().len();
    assert!(
        report
            .to_string()
            .starts_with(&format!("OK: {records} records")),
        "{report}"
    );
}

#[test]
fn before_the_reveal_the_chain_verifies_but_the_dice_wait() {
    let chain = match_log(2, 5, false);
    let report = verify_jsonl(&to_jsonl(chain.records()), None);
    assert!(report.is_ok(), "{report}");
    assert!(!report.revealed);
    assert_eq!(report.dice_verified, 0);
    assert!(report.to_string().contains("not revealed yet"));
}

/// An attacker who rebuilds the whole chain (every hash recomputed) can change a roll
/// and the move that plays it, but not the dice the committed seed gives.
#[test]
fn forged_dice_in_a_rebuilt_chain_are_caught_by_the_replay() {
    let honest = match_log(3, 6, true);
    let mut forged = Chain::new();
    let mut forged_seq = None;
    let mut forged_dice = None;
    for r in honest.records() {
        let mut body = r.body.clone();
        if forged_seq.is_none() && body.contains(r#""kind":"dice.roll""#) {
            let entry: Entry = serde_json::from_str(&body).unwrap();
            let Entry::Roll {
                side,
                dice,
                game,
                roll,
            } = entry
            else {
                unreachable!()
            };
            let better = [if dice[0] == 6 { 5 } else { 6 }, 6];
            body = Entry::Roll {
                side,
                dice: better,
                game,
                roll,
            }
            .body();
            forged_seq = Some(r.seq);
            forged_dice = Some((dice, better));
        } else if let Some((dice, better)) = forged_dice.take() {
            // The move that plays the roll, made to play the forged one.
            let was = format!(r#""dice":[{},{}]"#, dice[0], dice[1]);
            body = body.replacen(&was, &format!(r#""dice":[{},{}]"#, better[0], better[1]), 1);
        }
        forged.append(body);
    }
    let report = verify_jsonl(&to_jsonl(forged.records()), None);
    let p = report.problem.expect("forgery caught");
    assert!(
        p.reason
            .contains(&format!("record {}", forged_seq.unwrap()))
            && p.reason.contains("not what the revealed seed gives"),
        "{}",
        p.reason
    );
    // And a follower who saw the honest head catches the rebuilt chain at once.
    let witnessed = verify_jsonl(&to_jsonl(forged.records()), Some(honest.head()));
    assert!(!witnessed.is_ok());
}

fn rebuild(bodies: &[String]) -> String {
    let mut chain = Chain::new();
    for b in bodies {
        chain.append(b.clone());
    }
    to_jsonl(chain.records())
}

#[test]
fn a_seed_after_the_first_roll_is_rejected() {
    let chain = match_log(4, 3, false);
    let mut bodies: Vec<String> = chain.records().iter().map(|r| r.body.clone()).collect();
    bodies.push(
        Entry::PlayerSeed {
            side: Side::B,
            seed: "00".into(),
        }
        .body(),
    );
    let report = verify_jsonl(&rebuild(&bodies), None);
    assert!(
        report
            .problem
            .unwrap()
            .reason
            .contains("only until the first roll")
    );
}

#[test]
fn a_reveal_that_does_not_match_the_commitment_is_rejected() {
    let chain = match_log(5, 3, true);
    let mut bodies: Vec<String> = chain.records().iter().map(|r| r.body.clone()).collect();
    bodies.pop();
    bodies.push(
        Entry::Reveal {
            server_seed: hex::encode([6u8; 32]),
        }
        .body(),
    );
    let p = verify_jsonl(&rebuild(&bodies), None).problem.unwrap();
    assert!(p.reason.contains("does not hash to the commitment"));
    assert_eq!(p.seq, Some(bodies.len() as u64 - 1));
}

#[test]
fn structural_problems_are_named() {
    let chain = match_log(6, 2, true);
    let text = to_jsonl(chain.records());
    let lines: Vec<&str> = text.lines().collect();
    let cut = lines[..lines.len() - 1].join("\n");
    assert!(
        verify_jsonl(&cut, None)
            .problem
            .unwrap()
            .reason
            .contains("cut short")
    );
    let garbage = format!("{}\nnot json\n", lines[0]);
    assert_eq!(verify_jsonl(&garbage, None).problem.unwrap().line, 2);
    let first_not_opened = rebuild(&[r#"{"kind":"bg.press"}"#.to_string()]);
    assert!(
        verify_jsonl(&first_not_opened, None)
            .problem
            .unwrap()
            .reason
            .contains("match.opened")
    );
    let not_json = rebuild(&["hello".to_string()]);
    assert!(
        verify_jsonl(&not_json, None)
            .problem
            .unwrap()
            .reason
            .contains("not JSON")
    );
    let wrong_head = verify_jsonl(&text, Some(Hash([1; 32])));
    assert!(
        wrong_head
            .problem
            .unwrap()
            .reason
            .contains("witnessed head")
    );
    let upper = text.replacen(
        &chain.head().to_string(),
        &chain.head().to_string().to_uppercase(),
        1,
    );
    assert!(
        !verify_jsonl(&upper, None).is_ok(),
        "hashes have one spelling"
    );
}

#[derive(Clone, Debug)]
enum Tamper {
    /// Replace the character at (line, column) with another.
    Alter { line: usize, col: usize, with: char },
    /// Remove a line.
    Drop { line: usize },
    /// Swap two lines.
    Swap { a: usize, b: usize },
    /// Insert a copy of line `from` before line `at`.
    Duplicate { from: usize, at: usize },
    /// Insert, before record `at`, a new well-formed record chained to the one before it.
    Forge { at: usize },
}

fn tamper() -> impl Strategy<Value = Tamper> {
    let ix = 0usize..1_000;
    prop_oneof![
        (
            ix.clone(),
            0usize..1_000,
            proptest::sample::select(
                "0123456789abcdefxyz\"{}:, ABC\\"
                    .chars()
                    .collect::<Vec<_>>()
            )
        )
            .prop_map(|(line, col, with)| Tamper::Alter { line, col, with }),
        ix.clone().prop_map(|line| Tamper::Drop { line }),
        (ix.clone(), ix.clone()).prop_map(|(a, b)| Tamper::Swap { a, b }),
        (ix.clone(), ix.clone()).prop_map(|(from, at)| Tamper::Duplicate { from, at }),
        ix.prop_map(|at| Tamper::Forge { at }),
    ]
}

/// Applies the tampering; `None` when it happens to change nothing (a swap of a line
/// with itself, a character replaced by itself).
fn apply(text: &str, records: &[Record], t: &Tamper) -> Option<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let n = lines.len();
    match *t {
        Tamper::Alter { line, col, with } => {
            let l = &mut lines[line % n];
            let chars: Vec<char> = l.chars().collect();
            let col = col % chars.len();
            if chars[col] == with {
                return None;
            }
            *l = chars
                .iter()
                .enumerate()
                .map(|(i, c)| if i == col { with } else { *c })
                .collect();
        }
        Tamper::Drop { line } => {
            lines.remove(line % n);
        }
        Tamper::Swap { a, b } => {
            let (a, b) = (a % n, b % n);
            if lines[a] == lines[b] {
                return None;
            }
            lines.swap(a, b);
        }
        Tamper::Duplicate { from, at } => {
            let copy = lines[from % n].clone();
            lines.insert(at % (n + 1), copy);
        }
        Tamper::Forge { at } => {
            let at = at % records.len();
            let prev = at.checked_sub(1).map(|i| &records[i]);
            let forged = Record::next(
                prev,
                r#"{"at":1,"kind":"bg.pressed","side":"A"}"#.to_string(),
            );
            lines.insert(at, record_line(&forged));
        }
    }
    Some(lines.join("\n") + "\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn any_single_tampering_is_rejected(seed in 1u8..=255, rolls in 0usize..10, reveal in any::<bool>(), t in tamper()) {
        let chain = match_log(seed, rolls, reveal);
        let text = to_jsonl(chain.records());
        prop_assert!(verify_jsonl(&text, None).is_ok());
        if let Some(tampered) = apply(&text, chain.records(), &t) {
            let report = verify_jsonl(&tampered, None);
            prop_assert!(!report.is_ok(), "{:?} went unnoticed", t);
        }
    }
}
