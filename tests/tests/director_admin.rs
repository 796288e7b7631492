//! A director's housekeeping (issue 19): a misspelled player renamed, seen by every
//! follower and kept in the match's verifiable log; a tournament archived out of the
//! listings, its matches still there to play, follow and verify.

use baffle_client::run::Outcome;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::cli::baffle;
use baffle_tests::{EPOCH, TestServer};
use tokio_stream::StreamExt;
use tonic::Code;

#[tokio::test]
async fn a_misspelled_player_is_renamed_for_every_follower_and_in_the_log() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "r1-t7", 5, EPOCH.as_ms()).await;
    d.act("r1-t7", Action::CheckIn(A)).await;
    let mut spectator = MatchesClient::new(server.channel().await);
    let mut watch = spectator
        .watch(v1::WatchRequest {
            match_id: "r1-t7".into(),
            from_seq: 0,
        })
        .await
        .unwrap()
        .into_inner();
    let mut feed = spectator
        .watch_tournament(v1::WatchTournamentRequest {
            tournament_id: "open".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(feed.next().await.unwrap().unwrap().player_b, "Ben");

    let o = baffle(
        &server,
        &["match", "rename", "r1-t7", "b", " Βασίλης Παπαδάκης "],
    )
    .await;
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    assert!(
        o.out.contains("name corrected: Ben → Βασίλης Παπαδάκης"),
        "{}",
        o.out
    );
    assert!(o.out.contains("Anna 0 – 0 Βασίλης Παπαδάκης"), "{}", o.out);

    // The tournament feed and Watch carry the new name; Watch also the record.
    let renamed = feed.next().await.unwrap().unwrap();
    assert_eq!(
        (renamed.match_id.as_str(), renamed.player_b.as_str()),
        ("r1-t7", "Βασίλης Παπαδάκης")
    );
    let mut saw_record = false;
    while let Some(update) = watch.next().await {
        let update = update.unwrap();
        saw_record |= update.events.iter().any(|e| {
            e.kind == "match.renamed"
                && e.body == r#"{"kind":"match.renamed","name":"Βασίλης Παπαδάκης","side":"B","was":"Ben"}"#
        });
        if update
            .state
            .is_some_and(|s| s.player_b == "Βασίλης Παπαδάκης")
        {
            break;
        }
    }
    assert!(saw_record, "Watch sends the rename as a record of the log");
    let before = d.state("r1-t7").await;

    // Bad input is refused with a precise status and changes nothing.
    let long = "x".repeat(65);
    for (name, side, code) in [
        ("", B, Code::InvalidArgument),
        ("   ", B, Code::InvalidArgument),
        (long.as_str(), B, Code::InvalidArgument),
        ("Βασίλης Παπαδάκης", B, Code::InvalidArgument),
        ("Anna", 0, Code::InvalidArgument),
    ] {
        let request = v1::RenamePlayerRequest {
            match_id: "r1-t7".into(),
            side,
            name: name.into(),
        };
        let status = d
            .matches
            .rename_player(d.with_token(request))
            .await
            .unwrap_err();
        assert_eq!(status.code(), code, "{name:?}: {status:?}");
    }
    let unknown = v1::RenamePlayerRequest {
        match_id: "nope".into(),
        side: A,
        name: "Anna".into(),
    };
    let status = d.matches.rename_player(d.with_token(unknown.clone())).await;
    assert_eq!(status.unwrap_err().code(), Code::NotFound);
    let not_director = spectator
        .rename_player(v1::RenamePlayerRequest {
            match_id: "r1-t7".into(),
            ..unknown
        })
        .await
        .unwrap_err();
    assert_eq!(not_director.code(), Code::Unauthenticated);
    let o = baffle(&server, &["match", "rename", "r1-t7", "a", ""]).await;
    assert_eq!(o.code, baffle_client::exit::REFUSED, "{}{}", o.out, o.err);
    assert!(o.err.contains("cannot be empty"), "{}", o.err);
    let after = d.state("r1-t7").await;
    assert_eq!(
        (after.seq, after.head_hash.as_str(), after.player_a.as_str()),
        (before.seq, before.head_hash.as_str(), "Anna")
    );

    // The log with the rename exports and verifies offline.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r1-t7.jsonl");
    let file = file.to_str().unwrap();
    let o = baffle(&server, &["audit", "export", "r1-t7", "-o", file]).await;
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    let o = baffle(&server, &["audit", "verify", file]).await;
    assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    server.stop().await;
}

#[tokio::test]
async fn an_archived_tournament_leaves_the_listings_and_its_matches_stay_verifiable() {
    let server = TestServer::start().await;
    let ok = |o: &Outcome| assert_eq!(o.code, 0, "{}{}", o.out, o.err);
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.tournament("club", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "r1-t7", 5, EPOCH.as_ms()).await;
    d.create_match_at("open", "r1-t8", "8", 5, EPOCH.as_ms())
        .await;

    // Not while a match has no result: the refusal names them and changes nothing.
    let o = baffle(&server, &["tournament", "archive", "open"]).await;
    assert_eq!(o.code, baffle_client::exit::REFUSED, "{}{}", o.out, o.err);
    assert!(
        o.err.contains("r1-t7, r1-t8") && o.err.contains("--force"),
        "{}",
        o.err
    );
    let forfeit = [
        "rule",
        "r1-t7",
        "--reason",
        "absent",
        "--article",
        "2.2",
        "forfeit-match",
        "b",
    ];
    ok(&baffle(&server, &forfeit).await);
    let o = baffle(&server, &["tournament", "archive", "open"]).await;
    assert!(o.err.contains("without a result: r1-t8 "), "{}", o.err);

    let o = baffle(&server, &["tournament", "archive", "open", "--force"]).await;
    ok(&o);
    assert!(o.out.contains("tournament open archived"), "{}", o.out);
    // Out of the default listings, in them with --all; reachable by id.
    let o = baffle(&server, &["tournament", "list"]).await;
    let listed = |out: &str, id: &str| out.lines().any(|l| l.starts_with(&format!("{id} ")));
    assert!(
        !listed(&o.out, "open") && listed(&o.out, "club"),
        "{}",
        o.out
    );
    let o = baffle(&server, &["tournament", "list", "--all"]).await;
    assert!(
        listed(&o.out, "open") && o.out.contains("(archived)"),
        "{}",
        o.out
    );
    let o = baffle(&server, &["--json", "tournament", "list", "--all"]).await;
    let list: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(list[1]["id"], "open");
    assert_eq!(list[1]["archived"], true);
    assert_eq!(list[0]["archived"], false);
    let o = baffle(&server, &["match", "list"]).await;
    assert!(!o.out.contains("r1-t7"), "{}", o.out);
    let o = baffle(&server, &["match", "list", "--all"]).await;
    assert!(
        o.out.contains("r1-t7") && o.out.contains("r1-t8"),
        "{}",
        o.out
    );
    let o = baffle(&server, &["match", "list", "--tournament", "open"]).await;
    assert!(o.out.contains("r1-t7"), "{}", o.out);
    ok(&baffle(&server, &["tournament", "show", "open"]).await);

    // Its matches go on: played, followed, exported and verified.
    ok(&baffle(&server, &["play", "r1-t8", "check-in", "a"]).await);
    let mut spectator = MatchesClient::new(server.channel().await);
    let mut feed = spectator
        .watch_tournament(v1::WatchTournamentRequest {
            tournament_id: "open".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert!(feed.next().await.unwrap().is_ok());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r1-t7.jsonl");
    let file = file.to_str().unwrap();
    ok(&baffle(&server, &["audit", "export", "r1-t7", "-o", file]).await);
    ok(&baffle(&server, &["audit", "verify", file]).await);

    // Only the director; an unknown tournament is not found; twice is once.
    let request = v1::ArchiveTournamentRequest {
        id: "club".into(),
        archived: true,
        force: false,
    };
    let mut tournaments =
        baffle_proto::v1::tournaments_client::TournamentsClient::new(server.channel().await);
    let status = tournaments
        .archive_tournament(request.clone())
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::Unauthenticated);
    let unknown = v1::ArchiveTournamentRequest {
        id: "nope".into(),
        ..request
    };
    let status = d
        .tournaments
        .archive_tournament(d.with_token(unknown))
        .await
        .unwrap_err();
    assert_eq!(status.code(), Code::NotFound);
    ok(&baffle(&server, &["tournament", "archive", "open"]).await);

    // Brought back.
    ok(&baffle(&server, &["tournament", "unarchive", "open"]).await);
    let o = baffle(&server, &["tournament", "list"]).await;
    assert!(
        listed(&o.out, "open") && !o.out.contains("(archived)"),
        "{}",
        o.out
    );
    server.stop().await;
}
