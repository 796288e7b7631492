//! Restarting on the same data directory, and followers that resume without gaps.

use baffle_core::audit::verify::verify_jsonl;
use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_tests::api::{A, B, Director, defaults};
use baffle_tests::{EPOCH, TestServer};
use tokio_stream::StreamExt;

async fn export(server: &TestServer, match_id: &str) -> String {
    baffle_client::audit::export_log(server.channel().await, match_id)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_restart_mid_match_continues_state_clock_chain_and_followers() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 7, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;

    // A follower from the start.
    let mut watcher = MatchesClient::new(server.channel().await);
    let mut stream = watcher
        .watch(v1::WatchRequest {
            match_id: "m".into(),
            from_seq: 0,
        })
        .await
        .unwrap()
        .into_inner();
    let first = stream.next().await.unwrap().unwrap();
    let mut seen: Vec<u64> = first.events.iter().map(|e| e.seq).collect();

    let s = d.act("m", baffle_tests::api::server_opening()).await;
    let mover = s.turn_side;
    server.time.advance(30_000);
    d.act("m", Action::Press(mover)).await;
    let other = if mover == A { B } else { A };
    d.act("m", Action::Double(other)).await;
    server.time.advance(5_000);
    let before = d.act("m", Action::Take(mover)).await;
    while seen.last().copied() != Some(before.seq - 1) {
        let u = stream.next().await.unwrap().unwrap();
        seen.extend(u.events.iter().map(|e| e.seq));
    }
    drop(stream);

    let (dir, time) = server.stop().await;
    time.advance(10_000); // ten seconds of downtime
    let server = TestServer::start_in(dir, time).await;
    let mut d = Director::connect(&server).await;
    let after = d.state("m").await;
    assert_eq!(
        (after.seq, &after.head_hash),
        (before.seq, &before.head_hash)
    );
    assert_eq!(
        (
            after.score_a,
            after.score_b,
            after.cube_value,
            after.cube_owner
        ),
        (0, 0, 2, mover)
    );
    assert_eq!(
        (after.turn, after.turn_side),
        (before.turn, before.turn_side)
    );
    let (c0, c1) = (before.clock.unwrap(), after.clock.unwrap());
    let side = |c: &v1::ClockState| {
        if other == A {
            c.a.unwrap()
        } else {
            c.b.unwrap()
        }
    };
    // The doubler's clock ran through the downtime: 10 s more of his 12 s delay used.
    assert_eq!(side(&c1).delay_ms, side(&c0).delay_ms - 10_000);
    assert_eq!(
        c1.a.unwrap().moves + c1.b.unwrap().moves,
        c0.a.unwrap().moves + c0.b.unwrap().moves
    );

    // Play on, then resume following from the last event seen: nothing missed or repeated.
    let s = d.act("m", baffle_tests::api::server_roll(other)).await;
    let mut watcher = MatchesClient::new(server.channel().await);
    let from = seen.last().unwrap() + 1;
    let mut stream = watcher
        .watch(v1::WatchRequest {
            match_id: "m".into(),
            from_seq: from,
        })
        .await
        .unwrap()
        .into_inner();
    let resumed = stream.next().await.unwrap().unwrap();
    seen.extend(resumed.events.iter().map(|e| e.seq));
    assert_eq!(
        seen,
        (0..s.seq).collect::<Vec<_>>(),
        "every event exactly once"
    );

    // The chain verifies across the restart.
    let report = verify_jsonl(&export(&server, "m").await, None);
    assert!(report.is_ok(), "{report}");
    assert_eq!(report.head.unwrap().to_string(), s.head_hash);
    server.stop().await;
}

#[tokio::test]
async fn server_dice_are_committed_recorded_and_recomputable_after_the_reveal() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    let s = d.create_match("open", "m", 3, EPOCH.as_ms()).await;
    let commitment = s.commitment.clone();
    assert_eq!(commitment.len(), 64);

    let mut audit = AuditClient::new(server.channel().await);
    let codes = baffle_tests::seeds::player_codes(&server, "m").await;
    // Each player commits to his own seed, with his own code; both reveal.
    let server_commitment =
        baffle_tests::seeds::server_commitment(server.channel().await, "m").await;
    let code = |side| {
        if side == A {
            &codes.code_a
        } else {
            &codes.code_b
        }
    };
    let core_side = |side| {
        if side == A {
            baffle_core::Side::A
        } else {
            baffle_core::Side::B
        }
    };
    let secret = |side| baffle_tests::seeds::Secret::named(format!("{side}'s words").as_bytes(), 9);
    for side in [A, B] {
        let request = baffle_tests::seeds::commit_request(
            &server_commitment,
            "m",
            core_side(side),
            &secret(side),
        );
        audit
            .commit_player_seed(baffle_tests::with_token(request, code(side)))
            .await
            .unwrap();
    }
    for side in [A, B] {
        let request = baffle_tests::seeds::reveal_request("m", core_side(side), &secret(side));
        audit
            .reveal_player_seed(baffle_tests::with_token(request, code(side)))
            .await
            .unwrap();
    }
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d.act("m", baffle_tests::api::server_opening()).await;
    let late = audit
        .commit_player_seed(baffle_tests::with_token(
            baffle_tests::seeds::commit_request(
                &server_commitment,
                "m",
                baffle_core::Side::B,
                &secret(B),
            ),
            &codes.code_b,
        ))
        .await
        .unwrap_err();
    assert_eq!(late.code(), tonic::Code::FailedPrecondition);
    // A roll out of turn is refused and draws no dice.
    let not_on_roll = s.turn_side;
    d.refused(
        "m",
        baffle_tests::api::server_roll(not_on_roll),
        tonic::Code::FailedPrecondition,
    )
    .await;
    d.act("m", Action::Press(not_on_roll)).await;
    let other = if not_on_roll == A { B } else { A };
    d.act("m", baffle_tests::api::server_roll(other)).await;

    let early = audit
        .reveal(server.director(v1::RevealRequest {
            match_id: "m".into(),
        }))
        .await
        .unwrap_err();
    assert!(early.message().contains("after the match"));
    d.act("m", Action::ForfeitMatch(A)).await;
    let seed = audit
        .reveal(server.director(v1::RevealRequest {
            match_id: "m".into(),
        }))
        .await
        .unwrap()
        .into_inner()
        .server_seed;
    assert_eq!(seed.len(), 64);

    let report = verify_jsonl(&export(&server, "m").await, None);
    assert!(report.is_ok(), "{report}");
    assert!(report.revealed);
    assert_eq!(
        report.dice_verified, 2,
        "the opening roll and one roll, recomputed"
    );
    server.stop().await;
}

/// A match log that does not check out on start (here, a record that does not continue
/// the chain) makes that match answer DATA_LOSS with the reason, and only that match: the
/// others are served as before, and listings go on without it.
#[tokio::test]
async fn a_log_that_does_not_check_out_takes_only_its_match_offline() {
    use baffle_server::store::{EventStore, SledStore};
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Server))
        .await;
    // Rounds 1 and 2 (each Anna v Ben at table 7).
    for m in ["good", "bad"] {
        d.create_match("open", m, 7, EPOCH.as_ms()).await;
        d.act(m, Action::CheckIn(A)).await;
    }
    let good = d.state("good").await;
    drop(d);
    let (dir, time) = server.stop().await;
    // Tamper with the stored log of "bad" while the server is down.
    let path = dir.path().join("store");
    let store = loop {
        match SledStore::open(&path) {
            Ok(s) => break s,
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(1)).await,
        }
    };
    let len = store.len("m/bad").unwrap();
    let zeros = "0".repeat(64);
    let forged = format!(
        r#"{{"seq":{len},"prev":"{zeros}","hash":"{zeros}","body":"{{\"kind\":\"bg.pressed\"}}"}}"#
    );
    store
        .append("m/bad", len, vec![forged.as_bytes().to_vec()])
        .await
        .unwrap();
    drop(store);

    let server = TestServer::start_in(dir, time).await;
    let mut d = Director::connect(&server).await;
    let mut after = d.state("good").await;
    after.sent_at_ms = good.sent_at_ms;
    assert_eq!(after, good, "the good match is served as it was");
    let e = d
        .tournaments
        .get_match(v1::GetMatchRequest {
            match_id: "bad".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), tonic::Code::DataLoss, "{e:?}");
    assert!(
        e.message()
            .contains("record 3: prev is not the hash of the record before it"),
        "{}",
        e.message()
    );
    // The tournament's list goes on without it, and names it apart, with the reason
    // (issue 18, item 2: taken offline loudly).
    let listing = d
        .tournaments
        .list_matches(v1::ListMatchesRequest {
            tournament_id: "open".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner();
    let listed: Vec<&str> = listing
        .matches
        .iter()
        .map(|m| m.match_id.as_str())
        .collect();
    assert_eq!(listed, ["good"]);
    let offline: Vec<&str> = listing
        .offline
        .iter()
        .map(|m| m.match_id.as_str())
        .collect();
    assert_eq!(offline, ["bad"]);
    assert!(
        listing.offline[0].reason.contains("record 3"),
        "{listing:?}"
    );
    // The director's console raises it: a line in its line mode, a to-do on screen.
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        baffle_client::tui::lines::console(server.url(), "open".into(), false, &mut out, &mut err),
    )
    .await;
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("bad round 2 table 7: OFFLINE — ") && out.contains("record 3"),
        "{out}"
    );
    // As NDJSON with --json, in the views' shape.
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        baffle_client::tui::lines::console(server.url(), "open".into(), true, &mut out, &mut err),
    )
    .await;
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.lines()
            .any(|l| l.contains(r#""match_id":"bad""#) && l.contains(r#""status":"offline""#)),
        "{out}"
    );
    let mut board = baffle_client::tui::console::Dashboard::new("open");
    board
        .offline
        .insert("bad".into(), listing.offline[0].clone());
    let todos = board.todos(0);
    assert!(todos[0].text.contains("OFFLINE"), "{:?}", todos[0].text);
    server.stop().await;
}

/// Issue 20: a tournament's venue and days are kept, checked, and survive a restart.
#[tokio::test]
async fn a_tournament_keeps_its_venue_and_days_across_a_restart() {
    use baffle_proto::v1::tournaments_client::TournamentsClient;
    let server = TestServer::start().await;
    let mut t = TournamentsClient::new(server.channel().await);
    let create = |id: &str, first: &str, last: &str| {
        server.director(v1::CreateTournamentRequest {
            tournament: Some(v1::Tournament {
                id: id.into(),
                name: "Πανελλήνιο Πρωτάθλημα Τάβλι 2026".into(),
                venue: "Αθήνα, Ξενοδοχείο Τιτάνια".into(),
                first_day: first.into(),
                last_day: last.into(),
                ..Default::default()
            }),
        })
    };
    let made = t
        .create_tournament(create("gbf", "2026-11-21", "2026-11-23"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (
            made.venue.as_str(),
            made.first_day.as_str(),
            made.last_day.as_str()
        ),
        ("Αθήνα, Ξενοδοχείο Τιτάνια", "2026-11-21", "2026-11-23")
    );
    for (first, last, field) in [
        ("2026-02-30", "", "first_day"),
        ("2026-11-21", "21/11/2026", "last_day"),
        ("2026-11-23", "2026-11-21", "last_day"),
    ] {
        let refused = t
            .create_tournament(create("bad", first, last))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{refused:?}");
        assert!(refused.message().contains(field), "{refused:?}");
    }
    let (dir, time) = server.stop().await;
    let server = TestServer::start_in(dir, time).await;
    let mut t = TournamentsClient::new(server.channel().await);
    let again = t
        .get_tournament(v1::GetTournamentRequest { id: "gbf".into() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.venue, "Αθήνα, Ξενοδοχείο Τιτάνια");
    assert_eq!(
        (again.first_day, again.last_day),
        (made.first_day, made.last_day)
    );
    let listed = t
        .list_tournaments(v1::ListTournamentsRequest::default())
        .await
        .unwrap()
        .into_inner();
    assert!(!listed.tournaments.iter().any(|x| x.id == "bad"));
    server.stop().await;
}

/// Issue 31 (2): a restart of `baffled` cost a player 21 s of his clock, silently. The
/// restart credits what the outage charged the running clock of a match played without
/// devices, up to a minute; what it charged beyond that is put before the director in
/// the state (`uncredited_outage`) until he rules on that clock.
#[tokio::test]
async fn a_restart_gives_back_the_clock_time_its_outage_took() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(120_000, None, v1::DiceSource::Server))
        .await;
    for m in ["short", "long"] {
        d.create_match("open", m, 7, EPOCH.as_ms()).await;
        d.act(m, Action::CheckIn(A)).await;
        d.act(m, Action::CheckIn(B)).await;
        d.act(m, baffle_tests::api::server_opening()).await;
    }
    // 30 s into the opening turn: the 12 s delay is spent, main time runs.
    server.time.advance(30_000);
    let main = |s: &v1::MatchState| {
        let clock = s.clock.clone().unwrap();
        let side = if s.turn_side == A { clock.a } else { clock.b };
        side.unwrap().main_ms
    };
    let before = main(&d.state("short").await);

    // 21 s down: all of it given back.
    let (dir, time) = server.stop().await;
    time.advance(21_000);
    let server = TestServer::start_in(dir, time).await;
    let mut d = Director::connect(&server).await;
    let after = d.state("short").await;
    assert_eq!(
        main(&after),
        before,
        "the 21 s the server was down are given back"
    );
    assert_eq!(after.uncredited_outage, None);
    let log = export(&server, "short").await;
    assert!(
        log.contains(
            r#"\"charged_ms\":21000,\"credit_ms\":21000,\"down_ms\":21000,\"kind\":\"table.restart\""#
        ),
        "{log}"
    );
    assert!(verify_jsonl(&log, None).is_ok());

    // "long" was given its 21 s too. Now 90 s down: a minute back, 30 s to the director.
    let long_before = main(&d.state("long").await);
    let (dir, time) = server.stop().await;
    time.advance(90_000);
    let server = TestServer::start_in(dir, time).await;
    let mut d = Director::connect(&server).await;
    let after = d.state("long").await;
    assert_eq!(main(&after), long_before - 30_000);
    let left = after.uncredited_outage.expect("30 s left to the director");
    assert_eq!((left.side, left.ms), (after.turn_side, 30_000));
    // The director rules on that clock: the to-do is settled.
    let side = after.turn_side;
    let ruled = d
        .act(
            "long",
            Action::AdjustTime(v1::TimeChange { side, ms: 30_000 }),
        )
        .await;
    assert_eq!(ruled.uncredited_outage, None);
    assert_eq!(main(&ruled), long_before);
    assert!(verify_jsonl(&export(&server, "long").await, None).is_ok());
    server.stop().await;
}
