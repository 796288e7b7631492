//! A tournament's day from the director's command line (`baffle player`, `draw`,
//! `round`, `standings`) against a real server: an 8-player knockout with a
//! consolation, its players imported from a CSV file (a duplicate refused with its line
//! before anything is sent), the draw made, round 1 started, results decided and
//! confirmed at the tables — after which the next matches appear in `draw show` by
//! themselves — the federation's CSV, and the exported log verified by the real `baffle`
//! binary, a tampered copy refused with exit 1. And a round robin ruled on with
//! `pairing` and its table printed in words, CSV and JSON.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use baffle_client::run::Outcome;
use baffle_core::audit::{export, record_hash};
use baffle_tests::TestServer;
use baffle_tests::binaries::built;
use baffle_tests::cli::baffle;
use serde_json::Value;

fn ok(o: &Outcome) {
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
}

async fn draw_json(server: &TestServer, id: &str) -> Value {
    let o = baffle(server, &["--json", "draw", "show", id]).await;
    ok(&o);
    serde_json::from_str(&o.out).expect("draw show --json is JSON")
}

/// The pairings of `draw` whose key starts with `prefix` ("M1-").
fn pairings<'a>(draw: &'a Value, prefix: &str) -> Vec<&'a Value> {
    draw["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["key"].as_str().unwrap().starts_with(prefix))
        .collect()
}

/// Waits until `draw show` has `count` matches keyed `prefix` being played.
async fn until_playing(server: &TestServer, prefix: &str, count: usize) -> Value {
    for _ in 0..200 {
        let d = draw_json(server, "open").await;
        let playing = pairings(&d, prefix)
            .iter()
            .filter(|p| p["state"] == "playing")
            .count();
        if playing == count {
            return d;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!(
        "{count} matches {prefix}… never played: {:#}",
        draw_json(server, "open").await["pairings"]
    );
}

const PLAYERS: &str = "name,federation_id,club,rating,experience
Anna Pappa,GR-101,Volos,1623.50,800
Ben Hall,GR-102,Patras,1580,400
Chris Doukas,GR-103,Volos,1490.25,
Dora Lima,,Athens,,
Eleni Stavrou,GR-105,Athens,1701,1200
Fotis Karras,GR-106,,1550,
Gina Rossi,GR-107,Chania,,
Haris Mavros,GR-108,Patras,1402,90
";

/// Every line of `jsonl` rewritten by `change` (on the record's body), the chain and the
/// end line hashed again: a forger's log, consistent but for what `change` did.
fn forge(jsonl: &str, change: impl Fn(&str) -> String) -> String {
    let mut out = String::new();
    let mut prev = baffle_core::audit::Hash::GENESIS;
    let mut count = 0;
    for line in jsonl.lines() {
        if let Ok(export::Line::Record(mut r)) = export::parse_line(line) {
            r.body = change(&r.body);
            r.prev = prev;
            r.hash = record_hash(r.seq, &r.prev, r.body.as_bytes());
            prev = r.hash;
            count += 1;
            out += &export::record_line(&r);
            out.push('\n');
        }
    }
    out += &export::end_line(count, prev);
    out.push('\n');
    out
}

fn verify_with_binary(file: &Path) -> (i32, String) {
    verify_with(&["draw", "verify"], file)
}

fn verify_with(command: &[&str], file: &Path) -> (i32, String) {
    let bin = built(&["baffle"]);
    let o = Command::new(bin.join("baffle"))
        .args(["--lang", "en"])
        .args(command)
        .arg(file)
        .output()
        .expect("baffle runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

#[tokio::test]
async fn a_knockout_with_a_consolation_is_run_from_the_command_line() {
    let server = TestServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    ok(&baffle(
        &server,
        &["tournament", "create", "open", "--name", "Club open"],
    )
    .await);
    let o = baffle(
        &server,
        &[
            "--lang",
            "en",
            "draw",
            "open",
            "open",
            "--format",
            "knockout",
            "--flights",
            "consolation",
            "--length",
            "3",
            "--tables",
            "1-8",
        ],
    )
    .await;
    ok(&o);
    assert!(o.out.contains("knockout with a consolation"), "{}", o.out);
    let commitment = draw_json(&server, "open").await["commitment"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(commitment.len(), 64);

    // A duplicate name (case and spaces aside) refuses the whole file, naming both lines.
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, format!("{PLAYERS}  anna  pappa ,,,,\n")).unwrap();
    let o = baffle(
        &server,
        &[
            "--lang",
            "en",
            "player",
            "import",
            "open",
            bad.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(o.code, 2, "{}{}", o.out, o.err);
    assert!(
        o.err.contains("line 10") && o.err.contains("line 2"),
        "{}",
        o.err
    );
    let list = baffle(&server, &["--json", "player", "list", "open"]).await;
    ok(&list);
    assert_eq!(list.out.trim(), "[]", "nothing was sent");

    let good = dir.path().join("players.csv");
    std::fs::write(&good, PLAYERS).unwrap();
    let o = baffle(
        &server,
        &[
            "--lang",
            "en",
            "player",
            "import",
            "open",
            good.to_str().unwrap(),
        ],
    )
    .await;
    ok(&o);
    assert!(
        o.out.starts_with("8 registered: Anna Pappa (#1)"),
        "{}",
        o.out
    );
    // Importing again is refused in the same way: they are entered already.
    let o = baffle(
        &server,
        &[
            "--lang",
            "en",
            "player",
            "import",
            "open",
            good.to_str().unwrap(),
        ],
    )
    .await;
    assert_eq!(o.code, 2, "{}", o.err);
    assert!(
        o.err.contains("line 2") && o.err.contains("already entered"),
        "{}",
        o.err
    );

    // The draw is refused while approved players are neither checked in nor out: the
    // core's words reach the director.
    ok(&baffle(&server, &["player", "approve", "open", "--all"]).await);
    let o = baffle(&server, &["--lang", "en", "draw", "make", "open"]).await;
    assert_eq!(o.code, 4, "{}{}", o.out, o.err);
    assert!(o.err.contains("baffle draw show open"), "{}", o.err);
    let o = baffle(
        &server,
        &["--lang", "en", "player", "check-in", "open", "--all"],
    )
    .await;
    ok(&o);
    assert!(
        o.out.starts_with("checked in: Anna Pappa (#1)"),
        "{}",
        o.out
    );
    let list = baffle(&server, &["--lang", "en", "player", "list", "open"]).await;
    ok(&list);
    assert!(
        list.out.contains("Eleni Stavrou") && list.out.contains("1701.00"),
        "{}",
        list.out
    );
    assert_eq!(list.out.matches("checked in").count(), 8, "{}", list.out);

    let o = baffle(
        &server,
        &["--lang", "en", "draw", "make", "open", "--seed-top", "2"],
    )
    .await;
    ok(&o);
    let d = draw_json(&server, "open").await;
    let seed = d["seed"].as_str().unwrap().to_string();
    assert_eq!(seed.len(), 64);
    assert!(o.out.contains(&seed), "{}", o.out);
    // Seeds 1 and 2 are the top-rated: Eleni (1701) and Anna (1623.50).
    assert_eq!(d["seeds"], serde_json::json!([5, 1]));

    ok(&baffle(&server, &["round", "start", "open", "1"]).await);
    let o = baffle(
        &server,
        &["round", "start", "open", "1", "--flight", "consolation"],
    )
    .await;
    ok(&o);
    let d = until_playing(&server, "M1-", 4).await;

    // Each first-round match decided at its table and confirmed by the director (4.6):
    // player B forfeits, so A wins.
    for p in pairings(&d, "M1-") {
        let m = p["match_id"].as_str().unwrap();
        let o = baffle(
            &server,
            &[
                "rule",
                m,
                "--reason",
                "did not come",
                "--article",
                "2.2",
                "forfeit-match",
                "b",
            ],
        )
        .await;
        ok(&o);
        ok(&baffle(
            &server,
            &[
                "rule",
                m,
                "--reason",
                "checked",
                "--article",
                "4.6",
                "confirm",
            ],
        )
        .await);
    }
    // The next matches come by themselves: the main's round 2 (once started) and the
    // consolation's first round, fed by the main's first-round losers.
    let d = until_playing(&server, "C1-", 2).await;
    for p in pairings(&d, "M1-") {
        assert_eq!(p["state"], "decided", "{p:#}");
        assert_eq!(p["winner"], p["player_a"], "{p:#}");
    }
    let m2 = pairings(&d, "M2-");
    assert_eq!(m2.len(), 2, "{:#}", d["pairings"]);
    assert!(
        m2.iter().all(|p| p["state"] == "waiting_for_round"),
        "{m2:#?}"
    );
    ok(&baffle(&server, &["round", "start", "open", "2"]).await);
    until_playing(&server, "M2-", 2).await;

    let shown = baffle(&server, &["--lang", "en", "draw", "show", "open"]).await;
    ok(&shown);
    for text in ["commitment  ", &seed, "consolation, round 1", "M2-1", "won"] {
        assert!(shown.out.contains(text), "{text}: {}", shown.out);
    }
    let shown_el = baffle(&server, &["--lang", "el", "draw", "show", "open"]).await;
    ok(&shown_el);
    assert!(
        shown_el.out.contains("ταμπλό παρηγοριάς"),
        "{}",
        shown_el.out
    );

    // The federation's CSV: a header and one row per decided match.
    let o = baffle(&server, &["standings", "open", "--csv"]).await;
    ok(&o);
    let lines: Vec<&str> = o.out.lines().collect();
    assert_eq!(
        lines[0],
        "tournament,key,date,player_a,federation_id_a,player_b,federation_id_b,winner,score_a,score_b,length,played"
    );
    assert_eq!(lines.len(), 5, "{}", o.out);
    assert!(
        lines[1].starts_with("open,M1-1,2026-01-15,"),
        "{}",
        lines[1]
    );
    let o = baffle(&server, &["--lang", "en", "standings", "open"]).await;
    ok(&o);
    assert!(o.out.contains("still in"), "{}", o.out);

    // The log exported and verified by the real binary; forged copies are refused.
    let file = dir.path().join("open.jsonl");
    ok(&baffle(
        &server,
        &["draw", "export", "open", "-o", file.to_str().unwrap()],
    )
    .await);
    let (code, out) = verify_with_binary(&file);
    assert_eq!(code, 0, "{out}");
    for text in ["VERIFIED", &commitment, "the same order"] {
        assert!(out.contains(text), "{text}: {out}");
    }
    // `audit verify`, the one command for every log baffle exports, knows it too.
    let (code, same) = verify_with(&["audit", "verify"], &file);
    assert_eq!((code, &same), (0, &out));
    let log = std::fs::read_to_string(&file).unwrap();

    // Held to the head published before (`draw show`, the page): the whole log passes
    // through it; the same log cut short by its last records, its end line made again,
    // does not.
    let published = match export::parse_line(log.lines().last().unwrap()).unwrap() {
        export::Line::End { head, .. } => head.to_string(),
        export::Line::Record(_) => panic!("no end line"),
    };
    for command in [&["draw", "verify"][..], &["audit", "verify"][..]] {
        let with_head = [command, &["--head", &published]].concat();
        let (code, out) = verify_with(&with_head, &file);
        assert_eq!(code, 0, "{out}");
        assert!(out.contains("passes through the published head"), "{out}");
        let lines: Vec<&str> = log.lines().collect();
        let cut = forge(&lines[..lines.len() - 4].join("\n"), str::to_string);
        let short = dir.path().join("short.jsonl");
        std::fs::write(&short, cut).unwrap();
        assert_eq!(
            verify_with(command, &short).0,
            0,
            "cut short, it is still a log"
        );
        let (code, out) = verify_with(&with_head, &short);
        assert_eq!(code, 1, "{out}");
        assert!(
            out.contains("does not pass through the published head"),
            "{out}"
        );
    }

    // One byte of the seed changed, the body only: its hash no longer matches.
    let flip = |body: &str| {
        let at = body.find("\"seed\":\"").map(|i| i + 8)?;
        let mut b = body.to_string();
        let c = if &body[at..=at] == "0" { "1" } else { "0" };
        b.replace_range(at..=at, c);
        Some(b)
    };
    let tampered: String = log
        .lines()
        .map(|line| match export::parse_line(line) {
            Ok(export::Line::Record(mut r)) if r.body.contains("draw.made") => {
                r.body = flip(&r.body).unwrap();
                export::record_line(&r) + "\n"
            }
            _ => format!("{line}\n"),
        })
        .collect();
    let bad = dir.path().join("tampered.jsonl");
    std::fs::write(&bad, tampered).unwrap();
    let (code, out) = verify_with_binary(&bad);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("NOT VERIFIED"), "{out}");

    // A forger who hashes the chain again is caught by the commitment…
    let forged = forge(&log, |b| {
        if b.contains("draw.made") {
            flip(b).unwrap()
        } else {
            b.to_string()
        }
    });
    std::fs::write(&bad, forged).unwrap();
    let (code, out) = verify_with_binary(&bad);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("not the one the opening committed to"),
        "{out}"
    );

    // …and one who swaps two players of the order by the seed.
    let order = d["order"].as_array().unwrap();
    let (first, second) = (order[0].to_string(), order[1].to_string());
    let forged = forge(&log, |b| {
        if !b.contains("draw.made") {
            return b.to_string();
        }
        let at = b.find("\"order\":[").unwrap();
        let (head, tail) = b.split_at(at);
        let swapped = tail.replacen(
            &format!("[{first},{second}"),
            &format!("[{second},{first}"),
            1,
        );
        assert_ne!(swapped, tail, "the order starts {first},{second}: {b}");
        format!("{head}{swapped}")
    });
    std::fs::write(&bad, forged).unwrap();
    let (code, out) = verify_with_binary(&bad);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the order is not the one the seed draws"),
        "{out}"
    );

    withdrawals(&server).await;
}

/// Decides the match `m` at its table for `side` (the other forfeits) and confirms it.
async fn forfeit_at_table(server: &TestServer, m: &str, loser: &str) {
    for args in [
        &[
            "--reason",
            "withdrew",
            "--article",
            "2.2",
            "forfeit-match",
            loser,
        ][..],
        &["--reason", "checked", "--article", "4.6", "confirm"][..],
    ] {
        ok(&baffle(server, &[&["rule", m][..], args].concat()).await);
    }
}

/// Players withdrawn after the draw (`player out`): one playing is told to be settled at
/// his table; one between matches forfeits his next one by himself, with no log.
async fn withdrawals(server: &TestServer) {
    let d = draw_json(server, "open").await;
    let c1 = pairings(&d, "C1-1")[0];
    let number = c1["player_a"].to_string();
    let o = baffle(
        server,
        &[
            "--lang", "en", "player", "out", "open", &number, "--reason", "fell ill",
        ],
    )
    .await;
    ok(&o);
    assert!(
        o.out.contains("C1-1") && o.out.contains("is being played"),
        "{}",
        o.out
    );
    // M2-1's player A wins, then withdraws before the final is known.
    let m21 = pairings(&d, "M2-1")[0];
    forfeit_at_table(server, m21["match_id"].as_str().unwrap(), "b").await;
    let finalist = m21["player_a"].to_string();
    let o = baffle(
        server,
        &[
            "--lang",
            "en",
            "player",
            "out",
            "open",
            &finalist,
            "--reason",
            "went home",
        ],
    )
    .await;
    ok(&o);
    assert!(!o.out.contains("is being played"), "{}", o.out);
    let m22 = pairings(&d, "M2-2")[0];
    forfeit_at_table(server, m22["match_id"].as_str().unwrap(), "b").await;
    // The final is decided for M2-2's winner without play, and given no log.
    let d = draw_json(server, "open").await;
    let last = pairings(&d, "M3-1")[0];
    assert_eq!(last["state"], "decided", "{last:#}");
    assert_eq!(last["winner"], m22["player_a"], "{last:#}");
    assert_eq!(last["unplayed"], true, "{last:#}");
    assert_eq!(last["match_id"], "", "{last:#}");
}

/// A round robin from `player add`, rulings on its matches (`pairing`), a round started
/// at a given time, and its table in words, in CSV and in JSON; the core's refusals reach
/// the director in its own words, in either language.
#[tokio::test]
async fn a_round_robin_is_ruled_on_and_its_table_printed() {
    let server = TestServer::start().await;
    ok(&baffle(
        &server,
        &["tournament", "create", "league", "--name", "League"],
    )
    .await);
    ok(&baffle(
        &server,
        &[
            "draw",
            "open",
            "league",
            "--format",
            "round-robin",
            "--length",
            "5",
            "--tables",
            "1,2",
        ],
    )
    .await);
    for (name, rating) in [
        ("Anna", "1600"),
        ("Ben", "1550.5"),
        ("Chris", "1500"),
        ("Dora", "1450"),
    ] {
        ok(&baffle(
            &server,
            &[
                "player",
                "add",
                "league",
                name,
                "--rating",
                rating,
                "--approve",
            ],
        )
        .await);
    }
    ok(&baffle(&server, &["player", "rename", "league", "4", "Dora Lima"]).await);
    ok(&baffle(
        &server,
        &["player", "check-in", "league", "1", "2", "3", "4"],
    )
    .await);
    // Seeds are a knockout's: the core says so, in its words, whatever the language.
    let o = baffle(
        &server,
        &["--lang", "el", "draw", "make", "league", "--seeds", "1,2"],
    )
    .await;
    assert_eq!(o.code, 4, "{}{}", o.out, o.err);
    assert!(
        o.err.contains("δεν έγινε δεκτό") && o.err.contains("knockout"),
        "{}",
        o.err
    );
    ok(&baffle(&server, &["draw", "make", "league"]).await);
    ok(&baffle(
        &server,
        &[
            "round",
            "start",
            "league",
            "1",
            "--at",
            "2026-01-15T12:30:00+02:00",
        ],
    )
    .await);
    let d = draw_json(&server, "league").await;
    let round1 = pairings(&d, "M1-");
    assert_eq!(round1.len(), 2);
    // 10:30 UTC on the test clock's day.
    assert_eq!(
        round1[0]["start_ms"].as_i64(),
        Some(baffle_tests::EPOCH.0 + 37_800_000)
    );
    // Round 1 decided at the tables and confirmed (4.6).
    for p in &round1 {
        let m = p["match_id"].as_str().unwrap();
        ok(&baffle(
            &server,
            &[
                "rule",
                m,
                "--reason",
                "late",
                "--article",
                "2.2",
                "forfeit-match",
                "b",
            ],
        )
        .await);
        ok(&baffle(
            &server,
            &["rule", m, "--reason", "ok", "--article", "4.6", "confirm"],
        )
        .await);
    }
    for _ in 0..200 {
        let d = draw_json(&server, "league").await;
        if pairings(&d, "M1-").iter().all(|p| p["state"] == "decided") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    // M1-2's score corrected by the director (4.6).
    let winner = round1[1]["player_a"].to_string();
    ok(&baffle(
        &server,
        &[
            "pairing",
            "league",
            "M1-2",
            "--reason",
            "score misreported",
            "correct",
            &winner,
            "5-2",
        ],
    )
    .await);
    // A match of a round not started is forfeited here: decided without play.
    let d = draw_json(&server, "league").await;
    let forfeit_to = pairings(&d, "M2-2")[0]["player_a"].to_string();
    ok(&baffle(
        &server,
        &[
            "pairing",
            "league",
            "m2-2",
            "--reason",
            "withdrew",
            "forfeit",
            &forfeit_to,
        ],
    )
    .await);
    let o = baffle(
        &server,
        &[
            "--lang", "en", "pairing", "league", "M1-1", "--reason", "again", "forfeit", "1",
        ],
    )
    .await;
    assert_eq!(o.code, 4, "{}{}", o.out, o.err);
    assert!(o.err.contains("baffle draw show league"), "{}", o.err);

    let o = baffle(&server, &["--lang", "en", "standings", "league"]).await;
    ok(&o);
    assert!(o.out.starts_with("PLACE NAME"), "{}", o.out);
    let o = baffle(&server, &["standings", "league", "--csv-table"]).await;
    ok(&o);
    assert!(
        o.out
            .starts_with("place,number,name,federation_id,played,wins"),
        "{}",
        o.out
    );
    assert_eq!(o.out.lines().count(), 5, "{}", o.out);
    let o = baffle(&server, &["standings", "league", "--csv"]).await;
    ok(&o);
    let rows: Vec<&str> = o.out.lines().collect();
    assert_eq!(rows.len(), 4, "{}", o.out);
    assert!(
        rows[1].starts_with("league,M1-1,2026-01-15,"),
        "{}",
        rows[1]
    );
    assert!(
        rows[1].ends_with(",5,no"),
        "a forfeit is decided without play: {}",
        rows[1]
    );
    assert!(
        rows[2].ends_with(",5,2,5,no"),
        "the corrected score; a correction does not change how it was decided (a forfeit): {}",
        rows[2]
    );
    // Decided before its round started: no date, not played.
    assert!(rows[3].starts_with("league,M2-2,,"), "{}", rows[3]);
    assert!(
        rows[3].ends_with(",5,no"),
        "a forfeit is not played: {}",
        rows[3]
    );
    let o = baffle(&server, &["--json", "standings", "league"]).await;
    ok(&o);
    let table: Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(table["standings"].as_array().unwrap().len(), 4, "{table:#}");
    assert_eq!(table["standings"][0]["score"], 2.0, "{table:#}");

    let list = baffle(&server, &["--json", "player", "list", "league"]).await;
    ok(&list);
    let players: Value = serde_json::from_str(&list.out).unwrap();
    assert_eq!(players[1]["entry_rating"], 1550.5);
    assert_eq!(players[3]["name"], "Dora Lima");
}

/// A chess round robin from the command line: `draw open --chess` gives its games their
/// control, and round 1's games are chess matches at the tables.
#[tokio::test]
async fn a_chess_round_robin_is_opened_and_its_games_are_chess() {
    let server = TestServer::start().await;
    ok(&baffle(
        &server,
        &["tournament", "create", "rapid", "--name", "Rapid"],
    )
    .await);
    // A chess draw needs no length (a backgammon one does: clap says so).
    ok(&baffle(
        &server,
        &[
            "draw",
            "open",
            "rapid",
            "--format",
            "round-robin",
            "--chess",
            "rapid",
            "--default-time",
            "15m",
            "--tables",
            "1,2",
        ],
    )
    .await);
    for name in ["Anna", "Ben", "Chris", "Dora"] {
        ok(&baffle(&server, &["player", "add", "rapid", name, "--approve"]).await);
    }
    ok(&baffle(&server, &["player", "check-in", "rapid", "--all"]).await);
    ok(&baffle(&server, &["draw", "make", "rapid"]).await);
    ok(&baffle(&server, &["round", "start", "rapid", "1"]).await);
    let d = draw_json(&server, "rapid").await;
    let round1 = pairings(&d, "M1-");
    assert_eq!(round1.len(), 2);
    for p in round1 {
        let m = p["match_id"].as_str().unwrap();
        let o = baffle(&server, &["--json", "match", "show", m]).await;
        ok(&o);
        let shown: Value = serde_json::from_str(&o.out).unwrap();
        assert_eq!(shown["game_type"], "chess", "{shown:#}");
    }
}
