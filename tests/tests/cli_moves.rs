//! Moves from the command line (issue 23): a director creates a match that records moves,
//! sends a play, sees an illegal one refused naming 4.2 (iii) with exit status 4, and
//! sees the pip counts.

use baffle_client::cli::Cli;
use baffle_client::run::{Outcome, run};
use baffle_tests::TestServer;
use clap::Parser;

async fn baffle(server: &TestServer, args: &[&str]) -> Outcome {
    let mut all = vec![
        "baffle",
        "--server",
        &server.addr_url,
        "--token",
        &server.token,
    ];
    all.extend_from_slice(args);
    run(&Cli::try_parse_from(all).expect("valid arguments")).await
}

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
    assert!(o.out.contains("bg.moved"), "{}", o.out);
    let o = baffle(&server, &["match", "show", "r1-t7"]).await;
    ok(&o);
    assert!(o.out.contains("pips A 163  B 167"), "{}", o.out);
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
