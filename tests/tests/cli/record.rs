//! What a director rules on, from the command line (issue 31): `match show` lists the
//! games with their numbers, the penalty points, warnings and who is present (text and
//! `--json`); a refusal hints at a ruling only where one would help; a roll, a move or a
//! press may leave out the side the match says is to act.

use baffle_client::run::Outcome;
use baffle_tests::TestServer;
use baffle_tests::cli::baffle;

fn ok(o: Outcome) -> String {
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    o.out
}

/// Tournament `t` (physical dice) and a 3-point match `id` between Anna and Ben, both
/// checked in, with `extra` options.
async fn checked_in(server: &TestServer, id: &str, extra: &[&str]) {
    let _ = baffle(
        server,
        &[
            "tournament",
            "create",
            "t",
            "--name",
            "T",
            "--dice",
            "physical",
        ],
    )
    .await;
    let mut args = vec![
        "match",
        "create",
        "--tournament",
        "t",
        "--id",
        id,
        "--table",
        "1",
        "--length",
        "3",
        "--players",
        "Anna,Ben",
    ];
    args.extend_from_slice(extra);
    ok(baffle(server, &args).await);
    for side in ["a", "b"] {
        ok(baffle(server, &["play", id, "check-in", side]).await);
    }
}

#[tokio::test]
async fn match_show_lists_games_penalties_warnings_and_presence() {
    let server = TestServer::start().await;
    checked_in(&server, "m", &[]).await;
    ok(baffle(&server, &["play", "m", "opening", "--dice", "6,1"]).await);
    ok(baffle(&server, &["play", "m", "end-game", "b", "gammon"]).await);
    let rule = |reason: &'static str, article: &'static str| {
        ["rule", "m", "--reason", reason, "--article", article]
    };
    let mut warn = rule("slow play", "2.3").to_vec();
    warn.extend(["warn", "b"]);
    ok(baffle(&server, &warn).await);
    let mut award = rule("6 minutes late", "2.2").to_vec();
    award.extend(["award", "a", "1"]);
    ok(baffle(&server, &award).await);

    let out = ok(baffle(&server, &["match", "show", "m"]).await);
    for line in [
        "player A: Anna, present; penalty points 1, warnings 0",
        "player B: Ben, present; penalty points 0, warnings 1",
        "  1. Ben won 2 points (gammon, cube 1)",
    ] {
        assert!(out.contains(line), "{line:?} in\n{out}");
    }
    let json = ok(baffle(&server, &["--json", "match", "show", "m"]).await);
    let view: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(view["warnings"], serde_json::json!([0, 1]));
    assert_eq!(view["penalty_points"], serde_json::json!([1, 0]));
    assert_eq!(view["present"], serde_json::json!([true, true]));
    assert_eq!(
        view["games"],
        serde_json::json!([{"number": 1, "winner": "B", "points": 2, "kind": "gammon",
                            "cube": 1, "how": "declared"}])
    );
    // In Greek too.
    let el = ok(baffle(&server, &["--lang", "el", "match", "show", "m"]).await);
    assert!(
        el.contains("1. Ben κέρδισε 2 πόντους (διπλή, βίδος 1)"),
        "{el}"
    );

    // A mistyped game number: the refusal sends him to the numbers, not to rule.
    let mut correct = rule("miscounted", "4.6").to_vec();
    correct.extend(["correct-result", "5", "a", "single"]);
    let o = baffle(&server, &correct).await;
    assert_eq!(o.code, 4, "{}", o.err);
    assert!(o.err.contains("no finished game 5"), "{}", o.err);
    assert!(
        o.err.contains("lists the games with their numbers"),
        "{}",
        o.err
    );
    assert!(!o.err.contains("a ruling of yours"), "{}", o.err);
    // The right number is taken.
    let mut correct = rule("miscounted", "4.6").to_vec();
    correct.extend(["correct-result", "1", "b", "single"]);
    ok(baffle(&server, &correct).await);
    let out = ok(baffle(&server, &["match", "show", "m"]).await);
    assert!(
        out.contains("  1. Ben won 1 point (single, cube 1)"),
        "{out}"
    );
    server.stop().await;
}

#[tokio::test]
async fn the_side_to_act_may_be_left_out_and_refusals_hint_what_helps() {
    let server = TestServer::start().await;
    checked_in(&server, "mv", &["--record-moves"]).await;
    // Before the opening roll nobody is to move: the side must be named.
    let o = baffle(&server, &["play", "mv", "press"]).await;
    assert_eq!(o.code, 2, "{}{}", o.out, o.err);
    assert!(o.err.contains("name the side"), "{}", o.err);
    ok(baffle(&server, &["play", "mv", "opening", "--dice", "3,1"]).await);
    // A roll while Anna moves would be Ben's early roll: said so, not "nobody".
    let o = baffle(&server, &["play", "mv", "roll", "--dice", "6,4"]).await;
    assert_eq!(o.code, 2, "{}{}", o.out, o.err);
    assert!(
        o.err.contains("Anna is moving in mv") && o.err.contains("4.1 (v)(a)"),
        "{}",
        o.err
    );
    // The new director's line: the play alone, the mover found from the match.
    let out = ok(baffle(&server, &["play", "mv", "move", "8/5 6/5"]).await);
    assert!(out.contains("Anna played 8/5 6/5"), "{out}");
    ok(baffle(&server, &["play", "mv", "press"]).await);
    let out = ok(baffle(&server, &["play", "mv", "roll", "--dice", "6,4"]).await);
    assert!(out.contains("Ben"), "{out}");
    // Unquoted, and with the side named: both still work.
    let out = ok(baffle(&server, &["play", "mv", "move", "b", "24/18", "13/9"]).await);
    assert!(out.contains("Ben played 24/18 13/9"), "{out}");
    // Out of turn: the order of play, no ruling hinted.
    let o = baffle(&server, &["play", "mv", "roll", "b", "--dice", "2,2"]).await;
    assert_eq!(o.code, 4, "{}", o.err);
    assert!(o.err.contains("whose turn it is"), "{}", o.err);
    assert!(!o.err.contains("a ruling of yours"), "{}", o.err);
    // A double: the take needs no side, the player it was offered to is the one.
    ok(baffle(&server, &["play", "mv", "press"]).await);
    ok(baffle(&server, &["play", "mv", "double", "a"]).await);
    let out = ok(baffle(&server, &["play", "mv", "take"]).await);
    assert!(out.contains("Ben took"), "{out}");
    server.stop().await;
}
