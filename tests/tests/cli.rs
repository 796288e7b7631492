//! The `baffle` CLI against an in-process server: what a director types, what he sees,
//! and the exit status scripts rely on.

use baffle_client::cli::Cli;
use baffle_client::run::{Outcome, run};
use baffle_tests::TestServer;
use baffle_tests::cli::baffle;
use clap::Parser;

async fn spectator(server: &TestServer, args: &[&str]) -> Outcome {
    let dir = tempfile::tempdir().unwrap(); // no token file here
    let mut all = vec![
        "baffle",
        "--server",
        &server.addr_url,
        "--data-dir",
        dir.path().to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    run(&Cli::try_parse_from(all).expect("valid arguments")).await
}

#[tokio::test]
async fn a_director_runs_a_match_from_the_command_line() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    let o = baffle(
        &server,
        &[
            "tournament",
            "create",
            "open",
            "--name",
            "Club open",
            "--dice",
            "physical",
            "--timeout",
            "points:1",
        ],
    )
    .await;
    ok(&o);
    let o = baffle(
        &server,
        &[
            "match",
            "create",
            "--tournament",
            "open",
            "--round",
            "1",
            "--table",
            "7",
            "--length",
            "7",
            "--players",
            "Anna,Ben",
        ],
    )
    .await;
    ok(&o);
    assert!(
        o.out.starts_with("r1-t7  open  round 1  table 7  waiting"),
        "{}",
        o.out
    );
    for side in ["a", "b"] {
        ok(&baffle(&server, &["play", "r1-t7", "check-in", side]).await);
    }
    let o = baffle(&server, &["play", "r1-t7", "opening", "--dice", "6,1"]).await;
    ok(&o);
    assert!(
        o.out.contains("opening throw: Anna 6, Ben 1") && o.out.contains("A to move 6-1"),
        "{}",
        o.out
    );
    // With a request id the side must be named: found from the state, it would change
    // once the command is done, and the retry would be another command (refused).
    let o = baffle(&server, &["play", "--request-id", "p1", "r1-t7", "press"]).await;
    assert_eq!(o.code, 2, "{}", o.err);
    assert!(
        o.err.contains("with --request-id, name the side"),
        "{}",
        o.err
    );
    let pressed = baffle(
        &server,
        &["play", "--request-id", "p1", "r1-t7", "press", "a"],
    )
    .await;
    ok(&pressed);
    let again = baffle(
        &server,
        &["play", "--request-id", "p1", "r1-t7", "press", "a"],
    )
    .await;
    ok(&again);
    assert_eq!(again.out, pressed.out, "the retry gets the first reply");

    // A refusal names the rule and says what to do; exit status 4.
    let o = baffle(&server, &["play", "r1-t7", "press", "a"]).await;
    assert_eq!(o.code, 4);
    assert!(
        o.err.contains("FailedPrecondition")
            && o.err.contains("4.2 (i)")
            && o.err.contains("baffle match show"),
        "{}",
        o.err
    );

    // A ruling; JSON for scripts.
    let o = baffle(
        &server,
        &[
            "--json",
            "rule",
            "r1-t7",
            "--reason",
            "slow play",
            "--article",
            "2.3",
            "adjust-time",
            "b",
            "-30s",
        ],
    )
    .await;
    ok(&o);
    let v: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(v["events"][0]["event"]["kind"], "bg.ruling");
    assert_eq!(v["state"]["clock"]["b"]["main_ms"], 14 * 60_000 - 30_000);
    assert_eq!(
        v["events"][0]["event"]["effect"],
        serde_json::json!({"of": "clock", "side": "B", "before": 14 * 60_000, "after": 14 * 60_000 - 30_000})
    );
    // A correction says what it changed (issue 31: they all said "the director's decision").
    let o = baffle(
        &server,
        &[
            "rule",
            "r1-t7",
            "--reason",
            "misread",
            "--article",
            "4.7",
            "correct-score",
            "1",
            "0",
        ],
    )
    .await;
    ok(&o);
    assert!(
        o.out
            .contains("art. 4.7 of the regulations: score corrected: 0–0 → 1–0"),
        "{}",
        o.out
    );
    let o = baffle(
        &server,
        &[
            "rule",
            "r1-t7",
            "--reason",
            "x",
            "--article",
            "99.9",
            "warn",
            "a",
        ],
    )
    .await;
    assert_eq!(o.code, 4, "{}", o.err);
    assert!(
        o.err.contains("not an article of the regulations"),
        "{}",
        o.err
    );
    let o = baffle(
        &server,
        &["--json", "match", "list", "--tournament", "open"],
    )
    .await;
    let v: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(v[0]["match_id"], "r1-t7");
    assert_eq!(v[0]["players"], serde_json::json!(["Anna", "Ben"]));

    // Devices.
    let o = baffle(&server, &["device", "register", "t7"]).await;
    assert!(
        o.out.contains("credential (shown once): dev.t7."),
        "{}",
        o.out
    );
    let o = baffle(&server, &["device", "bind", "t7", "r1-t7"]).await;
    assert_eq!(o.out, "device t7 is bound to r1-t7\n");
    // Listed once bound, not yet connected (it was listed only once it had connected:
    // a director checking his tables before the round saw an empty list).
    let listed = || async { baffle(&server, &["device", "list"]).await.out };
    baffle_tests::cluster::eventually("the bound device is listed", || async {
        listed()
            .await
            .lines()
            .any(|l| l.split_whitespace().eq(["t7", "r1-t7", "no"]))
            .then_some(())
    })
    .await;
    ok(&baffle(&server, &["device", "unbind", "t7"]).await);
    baffle_tests::cluster::eventually("the unbound device is no longer listed", || async {
        (!listed().await.contains("t7")).then_some(())
    })
    .await;
    ok(&baffle(&server, &["device", "bind", "t7", "r1-t7"]).await);

    // Audit: export, verify, tamper, verify again.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r1-t7.jsonl");
    ok(&baffle(
        &server,
        &["audit", "export", "r1-t7", "-o", file.to_str().unwrap()],
    )
    .await);
    let o = baffle(&server, &["audit", "verify", file.to_str().unwrap()]).await;
    assert_eq!(o.code, 0);
    assert!(o.out.starts_with("OK: "), "{}", o.out);
    let tampered = std::fs::read_to_string(&file)
        .unwrap()
        .replace(r#"\"Anna\""#, r#"\"Anne\""#);
    std::fs::write(&file, tampered).unwrap();
    let o = baffle(&server, &["audit", "verify", file.to_str().unwrap()]).await;
    assert_eq!(o.code, 1);
    assert!(o.out.starts_with("BAD: line 2 (record 1)"), "{}", o.out);
    server.stop().await;
}

#[tokio::test]
async fn exit_statuses_tell_usage_refusal_and_connection_apart() {
    let server = TestServer::start().await;
    // Usage: a bad duration.
    let o = baffle(
        &server,
        &["tournament", "create", "x", "--per-point", "two minutes"],
    )
    .await;
    assert_eq!(o.code, 2, "{}", o.err);
    // Refused: no token for a director action.
    let o = spectator(&server, &["tournament", "create", "x"]).await;
    assert_eq!(o.code, 4);
    assert!(
        o.err.contains("Unauthenticated") && o.err.contains("--token"),
        "{}",
        o.err
    );
    // Spectators read without a token.
    assert_eq!(spectator(&server, &["tournament", "list"]).await.code, 0);
    // Not found.
    assert_eq!(baffle(&server, &["match", "show", "nope"]).await.code, 4);
    let url = server.addr_url.clone();
    server.stop().await;
    // Connection.
    let o = run(&Cli::try_parse_from(["baffle", "--server", &url, "match", "list"]).unwrap()).await;
    assert_eq!(o.code, 3, "{}", o.err);
    assert!(o.err.contains("cannot reach"));
    // Each reason once, and a hint a director can follow without the source tree.
    assert!(
        !o.err.contains("tcp connect error: tcp connect error") && !o.err.contains("cargo"),
        "{}",
        o.err
    );
    assert!(o.err.contains("is `baffled` running there?"), "{}", o.err);
    // In Greek too (it stayed English under --lang el).
    let args = ["baffle", "--lang", "el", "--server", &url, "match", "list"];
    let o = run(&Cli::try_parse_from(args).unwrap()).await;
    assert_eq!(o.code, 3, "{}", o.err);
    assert!(
        o.err.contains("δεν υπάρχει σύνδεση με τον διακομιστή") && o.err.contains("τρέχει εκεί"),
        "{}",
        o.err
    );
}

#[tokio::test]
async fn shell_completion_scripts() {
    let server = TestServer::start().await;
    let o = baffle(&server, &["completions", "bash"]).await;
    assert!(
        o.out.contains("_baffle()") && o.out.contains("check-in"),
        "{}",
        &o.out[..200.min(o.out.len())]
    );
    server.stop().await;
}

/// A chess match from the command line: created with a preset, played, ruled on by the
/// arbiter (who must give a reason and an article), and shown as chess.
#[tokio::test]
async fn an_arbiter_runs_a_chess_match_from_the_command_line() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    ok(&baffle(&server, &["tournament", "create", "club"]).await);
    let o = baffle(
        &server,
        &[
            "match",
            "create",
            "--tournament",
            "club",
            "--table",
            "1",
            "--players",
            "Ann,Bo",
            "--chess",
            "25m+10s",
            "--games",
            "2",
            "--default-time",
            "15m",
        ],
    )
    .await;
    ok(&o);
    assert!(o.out.contains("Ann 0 – 0 Bo (of 2)"), "{}", o.out);
    assert!(o.out.contains("game 1 of 2 · rapid"), "{}", o.out);
    ok(&baffle(&server, &["chess", "r1-t1", "arrive", "white"]).await);
    ok(&baffle(&server, &["chess", "r1-t1", "arrive", "black"]).await);
    // The game started when it was created (start: now, 15 minutes' grace); White moves.
    let o = baffle(&server, &["chess", "r1-t1", "press", "white"]).await;
    ok(&o);
    assert!(o.out.contains("#"), "the events are listed: {}", o.out);
    assert!(o.out.contains("Bo (Black) to move"), "{}", o.out);
    // An arbiter's action needs the ruling.
    let refused = baffle(&server, &["chess", "r1-t1", "illegal", "black"]).await;
    assert_eq!(refused.code, 4, "{}", refused.err);
    assert!(refused.err.contains("ruling"), "{}", refused.err);
    let o = baffle(
        &server,
        &[
            "chess",
            "r1-t1",
            "--reason",
            "knight moved like a bishop",
            "--article",
            "7.5",
            "illegal",
            "black",
        ],
    )
    .await;
    ok(&o);
    assert!(o.out.contains("arbiter's decision, art. 7.5"), "{}", o.out);
    assert!(o.out.contains("illegal moves [0, 1]"), "{}", o.out);
    ok(&baffle(&server, &["chess", "r1-t1", "resign", "black"]).await);
    let o = baffle(&server, &["--json", "match", "show", "r1-t1"]).await;
    ok(&o);
    let v: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(v["chess"]["half_points"], serde_json::json!([2, 0]));
    assert_eq!(v["chess"]["results"][0]["result"], "1-0 resignation");
    assert_eq!(v["phase"], "between_games");
    // The status is the proto's MatchStatus, written as every enum is (`views`).
    assert_eq!(v["status"], "between_games");
    server.stop().await;
}

/// Player seeds from the command line (issue 16): the director issues the codes, each
/// player commits with his own (a random seed, printed for him), both reveal, the dice
/// are drawn, and each checks his own seed went in with the verifier.
#[tokio::test]
async fn players_commit_and_reveal_their_seeds_from_the_command_line() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    ok(&baffle(&server, &["tournament", "create", "club", "--name", "Club"]).await);
    let create = [
        "match",
        "create",
        "--tournament",
        "club",
        "--table",
        "3",
        "--length",
        "3",
        "--players",
        "Anna,Ben",
    ];
    ok(&baffle(&server, &create).await);
    let codes = baffle(&server, &["audit", "player-codes", "r1-t3"]).await;
    ok(&codes);
    let code = |letter: &str| {
        codes
            .out
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{letter}  ")))
            .unwrap()
            .to_string()
    };
    let (code_a, code_b) = (code("A"), code("B"));
    // The director's token is not a player's code.
    let refused = baffle(
        &server,
        &["audit", "commit", "r1-t3", "--code", &server.token],
    )
    .await;
    assert_eq!(refused.code, 2, "{}", refused.err);
    // Each commits with a random seed and salt, and keeps the two commands it prints:
    // the reveal, and the check of his own seed and commitment after the match.
    let mut kept = Vec::new();
    for code in [&code_a, &code_b] {
        let o = spectator(&server, &["audit", "commit", "r1-t3", "--code", code]).await;
        ok(&o);
        let command = |prefix: &str| -> Vec<String> {
            let line = o.out.lines().find(|l| l.trim_start().starts_with(prefix));
            let line = line.unwrap_or_else(|| panic!("no {prefix:?} in {}", o.out));
            line.split_whitespace()
                .skip(1)
                .map(str::to_string)
                .collect()
        };
        kept.push((
            command("baffle audit reveal-seed"),
            command("baffle audit verify"),
        ));
    }
    for (reveal, _) in &kept {
        let args: Vec<&str> = reveal.iter().map(String::as_str).collect();
        ok(&spectator(&server, &args).await);
    }
    let seeds: Vec<String> = kept
        .iter()
        .map(|(reveal, _)| {
            let at = reveal.iter().position(|a| a == "--seed").unwrap();
            reveal[at + 1].clone()
        })
        .collect();
    for side in ["a", "b"] {
        ok(&baffle(&server, &["play", "r1-t3", "check-in", side]).await);
    }
    ok(&baffle(&server, &["play", "r1-t3", "opening"]).await);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r1-t3.jsonl");
    let file = file.to_str().unwrap();
    ok(&spectator(&server, &["audit", "export", "r1-t3", "-o", file]).await);
    let mine = format!("a={}", seeds[0]);
    let seed_only = spectator(&server, &["audit", "verify", file, "--player-seed", &mine]).await;
    ok(&seed_only);
    assert!(
        seed_only.err.contains("does not rule out a twin"),
        "{}",
        seed_only.err
    );
    // The check `audit commit` printed, run on the export (it names the log
    // MATCH.jsonl; the reveal is not in yet, so --require-reveal is left for later).
    let check: Vec<&str> = kept[0]
        .1
        .iter()
        .map(|a| {
            if a.ends_with(".jsonl") {
                file
            } else {
                a.as_str()
            }
        })
        .filter(|a| *a != "--require-reveal")
        .collect();
    ok(&spectator(&server, &check).await);
    let not_mine = format!("b={}", seeds[0]);
    let o = spectator(
        &server,
        &["audit", "verify", file, "--player-seed", &not_mine],
    )
    .await;
    assert_eq!(o.code, 1, "{}", o.out);
}

/// Issue 23: a match that records moves, from the command line: a move sent, an illegal
/// one refused naming 4.2 (iii) with exit status 4, the pip counts shown, the exports.
#[tokio::test]
async fn a_director_records_moves_from_the_command_line() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    let create = [
        "tournament",
        "create",
        "open",
        "--name",
        "Club",
        "--dice",
        "physical",
    ];
    ok(&baffle(&server, &create).await);
    let o = baffle(
        &server,
        &[
            "match",
            "create",
            "--tournament",
            "open",
            "--round",
            "1",
            "--table",
            "7",
            "--length",
            "5",
            "--players",
            "Anna,Ben",
            "--record-moves",
        ],
    )
    .await;
    ok(&o);
    for side in ["a", "b"] {
        ok(&baffle(&server, &["play", "r1-t7", "check-in", side]).await);
    }
    ok(&baffle(&server, &["play", "r1-t7", "opening", "--dice", "3,1"]).await);
    let o = baffle(&server, &["play", "r1-t7", "move", "a", "24/18"]).await;
    assert_eq!(o.code, 4, "{}{}", o.out, o.err);
    assert!(
        o.err.contains("FailedPrecondition") && o.err.contains("4.2 (iii)"),
        "{}",
        o.err
    );
    let o = baffle(&server, &["play", "r1-t7", "move", "a", "8/5 6/5"]).await;
    ok(&o);
    assert!(o.out.contains("Anna played 8/5 6/5"), "{}", o.out);
    let o = baffle(&server, &["match", "show", "r1-t7"]).await;
    ok(&o);
    assert!(o.out.contains("pips A 163  B 167"), "{}", o.out);
    // The director is told what the board proves (4.5: with contact, anything); a
    // spectator reading the same match is not (1.7).
    assert!(
        o.out.contains("board  A can still win a backgammon (4.5)")
            && o.out.contains("board  B can still win a backgammon (4.5)"),
        "{}",
        o.out
    );
    let seen = spectator(&server, &["match", "show", "r1-t7"]).await;
    assert!(
        seen.out.contains("pips A 163") && !seen.out.contains("(4.5)"),
        "{}",
        seen.out
    );
    let o = baffle(&server, &["--json", "match", "show", "r1-t7"]).await;
    ok(&o);
    assert!(o.out.contains(r#""pips": ["#), "{}", o.out);
    assert!(
        o.out.contains(r#""backgammon_possible": ["#) && o.out.contains(r#""next": "B""#),
        "{}",
        o.out
    );
    let o = baffle(&server, &["match", "export", "r1-t7", "--format", "sgf"]).await;
    ok(&o);
    assert!(
        o.out.starts_with("(;FF[4]GM[6]") && o.out.contains(";W[31hefe]"),
        "{}",
        o.out
    );
    let o = baffle(&server, &["match", "export", "r1-t7"]).await;
    ok(&o);
    assert!(o.out.contains("  1) 31: 8/5 6/5"), "{}", o.out);
}

/// Issue 19: the edges a new director hit in his first fifteen minutes, each as he typed
/// it: side letters in capitals, an address without `http://`, the chess pause's own
/// default, `5:00`, a match before its start, a second section's default id, words
/// instead of event names, and JSON without Rust debug text.
#[tokio::test]
async fn what_a_new_director_types_is_understood() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    // An address as the server prints it, without http://.
    let bare = server.addr.to_string();
    let o = run(&Cli::try_parse_from([
        "baffle",
        "--server",
        &bare,
        "--token",
        &server.token,
        "tournament",
        "create",
        "open",
        "--name",
        "Club open",
        "--dice",
        "physical",
    ])
    .unwrap())
    .await;
    ok(&o);
    ok(&baffle(
        &server,
        &["tournament", "create", "second", "--name", "Section B"],
    )
    .await);
    let create = |tournament: &'static str| {
        [
            "match",
            "create",
            "--tournament",
            tournament,
            "--table",
            "7",
            "--length",
            "3",
            "--players",
            "Anna,Ben",
        ]
    };
    ok(&baffle(&server, &create("open")).await);
    // The second section's default id is taken: the error says what to do.
    let o = baffle(&server, &create("second")).await;
    assert_eq!(o.code, 4);
    assert!(
        o.err.contains("--id") && o.err.contains("second-r1-t7"),
        "{}",
        o.err
    );
    // Capitals, and words rather than event names.
    let o = baffle(&server, &["play", "r1-t7", "check-in", "A"]).await;
    ok(&o);
    assert!(o.out.contains("Anna checked in"), "{}", o.out);
    assert!(!o.out.contains("bg."), "{}", o.out);
    ok(&baffle(&server, &["play", "r1-t7", "check-in", "B"]).await);
    assert!(
        baffle(&server, &["match", "show", "r1-t7"])
            .await
            .out
            .contains("ready"),
        "both checked in, nothing started: ready"
    );
    ok(&baffle(&server, &["play", "r1-t7", "opening", "--dice", "6,1"]).await);
    // A clock face as the director reads it off the old clock.
    let o = baffle(
        &server,
        &[
            "--json",
            "rule",
            "r1-t7",
            "--reason",
            "clock replaced",
            "--article",
            "3.7",
            "set-time",
            "B",
            "5:00",
        ],
    )
    .await;
    ok(&o);
    let v: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(v["state"]["clock"]["b"]["main_ms"], 300_000);
    assert!(v["events"][0]["text"].as_str().unwrap().contains("ruling"));
    // The tournament for people by default, JSON on request; no debug text anywhere.
    let o = baffle(&server, &["tournament", "show", "open"]).await;
    ok(&o);
    assert!(o.out.starts_with("open  Club open\n"), "{}", o.out);
    let o = baffle(&server, &["--json", "tournament", "show", "open"]).await;
    let v: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(v["timeout"]["policy"], "lose_match");
    assert_eq!(v["clocks"], "required");
    for args in [
        &["--json", "tournament", "list"][..],
        &["--json", "match", "list"],
        &["--json", "match", "show", "r1-t7"],
        &["--json", "device", "list"],
    ] {
        let o = baffle(&server, args).await;
        ok(&o);
        assert!(
            !o.out.contains("Some(") && !o.out.contains("PAUSE_REASON"),
            "{}",
            o.out
        );
        serde_json::from_str::<serde_json::Value>(&o.out).expect("JSON");
    }
    let v: serde_json::Value = serde_json::from_str(
        &baffle(&server, &["--json", "match", "show", "r1-t7"])
            .await
            .out,
    )
    .unwrap();
    assert!(v["devices"].is_array() && v["dice_anomalies"] == 0, "{v}");
    // A match won, shown with its winner and whether it is confirmed.
    ok(&baffle(
        &server,
        &[
            "rule",
            "r1-t7",
            "--reason",
            "left",
            "--article",
            "2.2",
            "forfeit-match",
            "b",
        ],
    )
    .await);
    let o = baffle(&server, &["match", "list", "--tournament", "open"]).await;
    assert!(
        o.out.contains("STATUS") && o.out.contains("WINNER"),
        "{}",
        o.out
    );
    assert!(
        o.out.contains("over") && o.out.contains("Anna ("),
        "{}",
        o.out
    );
    ok(&baffle(
        &server,
        &[
            "rule",
            "r1-t7",
            "--reason",
            "ok",
            "--article",
            "4.6",
            "confirm",
        ],
    )
    .await);
    let o = baffle(&server, &["match", "list", "--tournament", "open"]).await;
    assert!(o.out.contains("confirmed"), "{}", o.out);
    server.stop().await;
}

/// A match scheduled later refuses play saying when it starts; a chess pause works with
/// its own default reason.
#[tokio::test]
async fn a_match_before_its_start_and_the_chess_pause_default() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    ok(&baffle(&server, &["tournament", "create", "club"]).await);
    // The README's chess sequence: a match starting 10 minutes after the server's
    // (manual) now, 2026-01-15 00:10 UTC; the players may arrive early, the arbiter's
    // ruling waits for the start.
    let mut d = baffle_tests::api::Director::connect(&server).await;
    d.create_chess(
        "club",
        "later",
        "2",
        baffle_tests::EPOCH.as_ms() + 600_000,
        baffle_proto::v1::ChessMatchSettings {
            control: Some((&baffle_core::clock::TimeControl::rapid()).into()),
            games: 2,
            ..Default::default()
        },
    )
    .await;
    ok(&baffle(&server, &["chess", "later", "arrive", "white"]).await);
    ok(&baffle(&server, &["chess", "later", "arrive", "black"]).await);
    let o = baffle(
        &server,
        &[
            "chess",
            "later",
            "--reason",
            "illegal move",
            "--article",
            "7.5",
            "illegal",
            "black",
        ],
    )
    .await;
    assert_eq!(o.code, 4, "{}{}", o.out, o.err);
    assert!(o.err.contains("the match starts at 00:10 UTC"), "{}", o.err);
    assert!(!o.err.contains("backwards"), "{}", o.err);
    ok(&baffle(
        &server,
        &[
            "match",
            "create",
            "--tournament",
            "club",
            "--table",
            "1",
            "--players",
            "Ann,Bo",
            "--chess",
            "rapid",
            "--default-time",
            "15m",
        ],
    )
    .await);
    let o = baffle(
        &server,
        &[
            "chess",
            "r1-t1",
            "--reason",
            "dispute",
            "--article",
            "6.12",
            "pause",
        ],
    )
    .await;
    ok(&o);
    assert!(
        o.out.contains("paused: stopped by the director"),
        "{}",
        o.out
    );
    server.stop().await;
}

/// `baffle follow` without a terminal: a line per change, NDJSON with --json, ending
/// when the result is confirmed; an unknown match ends at once with exit status 4.
#[tokio::test]
async fn follow_without_a_terminal_prints_lines() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = baffle_client::tui::lines::follow(
        server.addr_url.clone(),
        "nope".into(),
        false,
        &mut out,
        &mut err,
    )
    .await
    .unwrap();
    assert_eq!(code, 4);
    assert!(String::from_utf8_lossy(&err).contains("nope"), "{err:?}");

    ok(&baffle(
        &server,
        &["tournament", "create", "open", "--dice", "physical"],
    )
    .await);
    let create = [
        "match",
        "create",
        "--tournament",
        "open",
        "--table",
        "7",
        "--length",
        "3",
        "--players",
        "Anna,Ben",
    ];
    ok(&baffle(&server, &create).await);
    let url = server.addr_url.clone();
    let follower = tokio::spawn(async move {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = baffle_client::tui::lines::follow(url, "r1-t7".into(), true, &mut out, &mut err)
            .await
            .unwrap();
        (code, String::from_utf8(out).unwrap())
    });
    for args in [
        &["play", "r1-t7", "check-in", "a"][..],
        &[
            "rule",
            "r1-t7",
            "--reason",
            "absent",
            "--article",
            "2.2",
            "forfeit-match",
            "b",
        ],
        &[
            "rule",
            "r1-t7",
            "--reason",
            "ok",
            "--article",
            "4.6",
            "confirm",
        ],
    ] {
        ok(&baffle(&server, args).await);
    }
    let (code, out) = tokio::time::timeout(std::time::Duration::from_secs(30), follower)
        .await
        .expect("follow ends once the result is confirmed")
        .unwrap();
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert!(lines.len() >= 2, "{out}");
    assert_eq!(lines.last().unwrap()["state"]["status"], "confirmed");
    assert!(
        lines
            .iter()
            .flat_map(|l| l["events"].as_array().unwrap())
            .any(|e| e["text"] == "Anna checked in"),
        "{out}"
    );
    server.stop().await;
}

/// `--lang el`: the tables and lines a director reads are Greek, in aligned columns;
/// `--json` is the same in both languages (machine values for scripts).
#[tokio::test]
async fn the_command_line_speaks_greek_and_json_stays_the_same() {
    use unicode_width::UnicodeWidthStr;
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    ok(&baffle(
        &server,
        &["tournament", "create", "open", "--dice", "physical"],
    )
    .await);
    for (table, players) in [("7", "Άννα Παπαδοπούλου,Βασίλης"), ("12", "Anna,Ben")]
    {
        let create = [
            "match",
            "create",
            "--tournament",
            "open",
            "--table",
            table,
            "--length",
            "3",
            "--players",
            players,
        ];
        ok(&baffle(&server, &create).await);
    }
    ok(&baffle(&server, &["play", "r1-t7", "check-in", "a"]).await);
    let list = baffle(&server, &["--lang", "el", "match", "list"]).await;
    ok(&list);
    let lines: Vec<&str> = list.out.lines().collect();
    assert!(lines[0].starts_with("ΜΑΤΣ"), "{}", list.out);
    assert!(list.out.contains("1 παρών"), "{}", list.out);
    assert!(list.out.contains("αναμονή"), "{}", list.out);
    assert!(list.out.contains("(στους 3)"), "{}", list.out);
    // Each column starts at the same terminal column on every line, Greek or not.
    let status_at = |line: &str, word: &str| line.find(word).map(|i| line[..i].width());
    let header = status_at(lines[0], "ΚΑΤΑΣΤΑΣΗ").expect("the status header");
    for word in ["1 παρών", "αναμονή"] {
        let line = lines.iter().find(|l| l.contains(word)).expect("a row");
        assert_eq!(status_at(line, word), Some(header), "{}", list.out);
    }

    let show = baffle(&server, &["--lang", "el", "match", "show", "r1-t7"]).await;
    ok(&show);
    assert!(
        show.out.contains("γύρος 1  τραπέζι 7  1 παρών"),
        "{}",
        show.out
    );
    assert!(show.out.contains("σκορ"), "{}", show.out);
    let english = baffle(&server, &["--lang", "en", "match", "show", "r1-t7"]).await;
    assert!(
        english.out.contains("round 1  table 7  present"),
        "{}",
        english.out
    );

    // A refusal, with what to do next, in Greek (the server's own message stays English).
    let missing = baffle(&server, &["--lang", "el", "match", "show", "nope"]).await;
    assert_eq!(missing.code, 4);
    assert!(
        missing.err.contains("δεν έγινε δεκτό (NotFound)")
            && missing.err.contains("ελέγξτε τον κωδικό"),
        "{}",
        missing.err
    );

    // The events a command wrote, in Greek.
    let play = baffle(
        &server,
        &["--lang", "el", "play", "r1-t12", "check-in", "b"],
    )
    .await;
    ok(&play);
    assert!(play.out.contains("Ben: παρών"), "{}", play.out);

    for args in [&["match", "show", "r1-t7"][..], &["match", "list"]] {
        let with = |lang: &'static str| {
            let mut all = vec!["--json", "--lang", lang];
            all.extend_from_slice(args);
            all
        };
        let el = baffle(&server, &with("el")).await;
        let en = baffle(&server, &with("en")).await;
        ok(&el);
        assert_eq!(el.out, en.out, "--json is language-free");
    }
    server.stop().await;
}

/// What the director is told says what happened: archiving an archived tournament (or
/// bringing back a listed one) changed nothing and says so, in both languages; "(archived)"
/// follows the name; an unknown tournament's hint names `tournament list`; a refusal's
/// hint does not send the director to himself; `audit export -o -` is standard output.
#[tokio::test]
async fn what_the_director_is_told_is_what_happened() {
    let server = TestServer::start().await;
    let ok = |o: Outcome| {
        assert_eq!(o.code, 0, "{}", o.err);
        o.out
    };
    for (id, name) in [("t", "Spring"), ("longer", "The Long Autumn Open")] {
        let args = [
            "tournament",
            "create",
            id,
            "--name",
            name,
            "--dice",
            "physical",
        ];
        ok(baffle(&server, &args).await);
    }
    let out = ok(baffle(&server, &["tournament", "archive", "t"]).await);
    assert!(out.contains("archived:"), "{out}");
    let out = ok(baffle(&server, &["tournament", "archive", "t"]).await);
    assert!(out.contains("already archived"), "{out}");
    let out = ok(baffle(&server, &["--lang", "el", "tournament", "archive", "t"]).await);
    assert!(out.contains("ήδη αρχειοθετημένο"), "{out}");
    // "(archived)" right after the name.
    let out = ok(baffle(&server, &["tournament", "list", "--all"]).await);
    assert!(out.contains("Spring (archived)"), "{out}");
    let out = ok(baffle(&server, &["tournament", "unarchive", "t"]).await);
    assert!(out.contains("back in the listings"), "{out}");
    let out = ok(baffle(&server, &["tournament", "unarchive", "t"]).await);
    assert!(out.contains("already listed"), "{out}");
    let out = ok(baffle(&server, &["--lang", "el", "tournament", "unarchive", "t"]).await);
    assert!(out.contains("ήδη στους καταλόγους"), "{out}");
    // An unknown tournament: the hint names the tournaments' listing.
    let o = baffle(&server, &["tournament", "show", "nope"]).await;
    assert_eq!(o.code, 4);
    assert!(o.err.contains("baffle tournament list"), "{}", o.err);
    assert!(!o.err.contains("match list"), "{}", o.err);
    // A rule's refusal: the user of `baffle` is the director.
    let args = [
        "match",
        "create",
        "--tournament",
        "t",
        "--id",
        "m",
        "--table",
        "1",
        "--length",
        "3",
        "--players",
        "Anna,Ben",
    ];
    ok(baffle(&server, &args).await);
    let o = baffle(&server, &["audit", "reveal", "m"]).await;
    assert_eq!(o.code, 4, "{}", o.err);
    assert!(o.err.contains("FailedPrecondition"), "{}", o.err);
    assert!(!o.err.contains("ask the director"), "{}", o.err);
    // `-o -`: standard output, no file named "-".
    let out = ok(baffle(&server, &["audit", "export", "m", "-o", "-"]).await);
    assert!(out.contains("match.opened"), "{out}");
    assert!(!std::path::Path::new("-").exists());
    // … and `audit verify -` reads standard input: the export piped into the verifier
    // (the real program, whose standard input this is).
    let bin = baffle_tests::binaries::built(&["baffle"]);
    let verify = |text: String| {
        let mut child = std::process::Command::new(bin.join("baffle"))
            .args(["audit", "verify", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let good = verify(out.clone());
    assert!(
        good.status.success(),
        "{}",
        String::from_utf8_lossy(&good.stderr)
    );
    let tampered = verify(out.replacen("match.opened", "match.opened ", 1));
    assert!(!tampered.status.success(), "a tampered export verified");
    server.stop().await;
}

#[path = "cli/record.rs"]
mod record;
