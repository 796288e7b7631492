//! Every refusal gets its precise status and changes nothing: retries, stale sequence
//! numbers, each role boundary, malformed and out-of-range input, and the limits.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use baffle_tests::api::{A, B, Director, defaults, opening};
use baffle_tests::{EPOCH, TestServer, with_token};
use tonic::Code;

fn execute(
    match_id: &str,
    action: Option<Action>,
    request_id: &str,
    expected_seq: Option<u64>,
) -> v1::ExecuteRequest {
    v1::ExecuteRequest {
        match_id: match_id.into(),
        command: Some(v1::Command { action }),
        ruling: None,
        request_id: request_id.into(),
        expected_seq,
    }
}

async fn room() -> (TestServer, Director) {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("open", "m1", 5, EPOCH.as_ms()).await;
    d.create_match("open", "m2", 5, EPOCH.as_ms()).await;
    (server, d)
}

#[tokio::test]
async fn a_retried_command_is_applied_once() {
    let (server, mut d) = room().await;
    let mut c = MatchesClient::new(server.channel().await);
    let first = c
        .execute(server.director(execute("m1", Some(Action::CheckIn(A)), "req-1", None)))
        .await
        .unwrap()
        .into_inner();
    let again = c
        .execute(server.director(execute("m1", Some(Action::CheckIn(A)), "req-1", None)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, again);
    assert_eq!(
        d.state("m1").await.seq,
        first.state.unwrap().seq,
        "applied once"
    );
    // Without the id the same command is a new one, and the rules refuse it.
    let e = c
        .execute(server.director(execute("m1", Some(Action::CheckIn(A)), "", None)))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    server.stop().await;
}

fn adjust(ms: i64, request_id: &str) -> v1::ExecuteRequest {
    v1::ExecuteRequest {
        ruling: Some(v1::Ruling {
            reason: "the clock was started late".into(),
            article: "4.3 (v)".into(),
        }),
        ..execute(
            "m1",
            Some(Action::AdjustTime(v1::TimeChange { side: A, ms })),
            request_id,
            None,
        )
    }
}

fn a_main_ms(state: &v1::MatchState) -> i64 {
    state.clock.as_ref().unwrap().a.as_ref().unwrap().main_ms
}

/// Issue 18 (4): `adjust_time -60000` with `request_id=fix-42`, a restart, the same
/// request again: applied once (-60 s, not -120 s), and answered with the first reply.
#[tokio::test]
async fn a_retried_command_is_applied_once_across_a_restart() {
    let (server, mut d) = room().await;
    let before = a_main_ms(&d.state("m1").await);
    let mut c = MatchesClient::new(server.channel().await);
    let first = c
        .execute(server.director(adjust(-60_000, "fix-42")))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(a_main_ms(first.state.as_ref().unwrap()), before - 60_000);
    let (dir, time) = server.stop().await;
    let server = TestServer::start_in(dir, time).await;
    let mut c = MatchesClient::new(server.channel().await);
    let again = c
        .execute(server.director(adjust(-60_000, "fix-42")))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, again, "the retry gets the original reply");
    let mut d = Director::connect(&server).await;
    let now = d.state("m1").await;
    assert_eq!(now.seq, first.state.as_ref().unwrap().seq, "applied once");
    assert_eq!(a_main_ms(&now), before - 60_000, "-60 s, not -120 s");
    server.stop().await;
}

/// Issue 17: a request id reused with a different command is refused, before and after a
/// restart, and changes nothing; so is the same command from another caller.
#[tokio::test]
async fn a_request_id_reused_for_another_command_is_refused() {
    let (server, mut d) = room().await;
    let mut c = MatchesClient::new(server.channel().await);
    c.execute(server.director(adjust(-60_000, "fix-42")))
        .await
        .unwrap();
    let seq = d.state("m1").await.seq;
    let e = c
        .execute(server.director(adjust(60_000, "fix-42")))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::AlreadyExists, "{e:?}");
    assert!(e.message().contains("fix-42"), "{}", e.message());
    let (dir, time) = server.stop().await;
    let server = TestServer::start_in(dir, time).await;
    let mut c = MatchesClient::new(server.channel().await);
    let e = c
        .execute(server.director(adjust(60_000, "fix-42")))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::AlreadyExists, "{e:?}");
    let e = c
        .execute(server.director(v1::ExecuteRequest {
            expected_seq: Some(seq),
            ..adjust(-60_000, "fix-42")
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::AlreadyExists, "another expected_seq: {e:?}");
    let mut d = Director::connect(&server).await;
    assert_eq!(d.state("m1").await.seq, seq, "nothing changed");
    server.stop().await;
}

#[tokio::test]
async fn a_stale_expected_sequence_is_aborted_and_changes_nothing() {
    let (server, mut d) = room().await;
    let seq = d.state("m1").await.seq;
    let mut c = MatchesClient::new(server.channel().await);
    let e = c
        .execute(server.director(execute("m1", Some(Action::CheckIn(A)), "", Some(seq - 1))))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Aborted);
    assert_eq!(d.state("m1").await.seq, seq);
    c.execute(server.director(execute("m1", Some(Action::CheckIn(A)), "", Some(seq))))
        .await
        .unwrap();
    server.stop().await;
}

#[tokio::test]
async fn each_role_boundary_holds() {
    let (server, mut d) = room().await;
    let channel = server.channel().await;
    let mut matches = MatchesClient::new(channel.clone());
    let mut devices = DevicesClient::new(channel.clone());
    let mut tournaments = TournamentsClient::new(channel);
    let seq = d.state("m1").await.seq;

    // Spectators read, but do not act.
    let e = matches
        .execute(execute("m1", Some(Action::CheckIn(A)), "", None))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
    tournaments
        .get_match(v1::GetMatchRequest {
            match_id: "m1".into(),
        })
        .await
        .unwrap();
    // A wrong token is refused outright.
    let e = matches
        .execute(with_token(
            execute("m1", Some(Action::CheckIn(A)), "", None),
            "nope",
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);

    // A device acts only on its bound match, and never as the director.
    let reg = devices
        .register_device(server.director(v1::RegisterDeviceRequest {
            device_id: "table-7".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    let device = reg.credential;
    let e = matches
        .execute(with_token(
            execute("m1", Some(Action::CheckIn(A)), "", None),
            &device,
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied, "not bound yet");
    devices
        .bind_device(server.director(v1::BindDeviceRequest {
            device_id: "table-7".into(),
            match_id: "m1".into(),
        }))
        .await
        .unwrap();
    matches
        .execute(with_token(
            execute("m1", Some(Action::CheckIn(A)), "", None),
            &device,
        ))
        .await
        .unwrap();
    let e = matches
        .execute(with_token(
            execute("m2", Some(Action::CheckIn(A)), "", None),
            &device,
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied);
    let mut director_action = execute(
        "m1",
        Some(Action::AwardPoints(v1::Points { side: A, points: 1 })),
        "",
        None,
    );
    director_action.ruling = Some(v1::Ruling {
        reason: "x".into(),
        article: "2.3".into(),
    });
    let e = matches
        .execute(with_token(director_action, &device))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied);
    let e = devices
        .register_device(with_token(
            v1::RegisterDeviceRequest {
                device_id: "evil".into(),
            },
            &device,
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::PermissionDenied);
    let e = tournaments
        .create_tournament(v1::CreateTournamentRequest {
            tournament: Some(v1::Tournament {
                id: "x".into(),
                ..Default::default()
            }),
        })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
    // A forged secret for a real device id.
    let forged = format!("dev.table-7.{}", "0".repeat(64));
    let e = matches
        .execute(with_token(
            execute("m1", Some(Action::CheckIn(B)), "", None),
            &forged,
        ))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
    assert_eq!(
        d.state("m1").await.seq,
        seq + 1,
        "only the bound device's check-in landed"
    );
    assert_eq!(d.state("m2").await.seq, seq);
    server.stop().await;
}

#[tokio::test]
async fn malformed_and_out_of_range_input_gets_invalid_argument_or_not_found() {
    let (server, mut d) = room().await;
    let seq = d.state("m1").await.seq;
    let mut c = MatchesClient::new(server.channel().await);
    let cases: Vec<(v1::ExecuteRequest, Code)> = vec![
        (execute("m1", None, "", None), Code::InvalidArgument),
        (
            execute("m1", Some(Action::Press(0)), "", None),
            Code::InvalidArgument,
        ),
        (
            execute("m1", Some(Action::Press(9)), "", None),
            Code::InvalidArgument,
        ),
        (
            execute("m1", Some(opening(7, 0)), "", None),
            Code::InvalidArgument,
        ),
        (
            execute("m1", Some(Action::Pause(0)), "", None),
            Code::InvalidArgument,
        ),
        (
            execute("m1", Some(Action::Warn(A)), "", None),
            Code::InvalidArgument,
        ), // no ruling
        (
            execute("m1", Some(Action::CheckIn(A)), &"x".repeat(65), None),
            Code::InvalidArgument,
        ),
        (
            execute("nope", Some(Action::CheckIn(A)), "", None),
            Code::NotFound,
        ),
        (
            execute("m1", Some(Action::Double(A)), "", None),
            Code::FailedPrecondition,
        ),
    ];
    for (request, code) in cases {
        let what = format!("{:?}", request.command);
        let e = c.execute(server.director(request)).await.unwrap_err();
        assert_eq!(e.code(), code, "{what}: {}", e.message());
    }
    let mut t = TournamentsClient::new(server.channel().await);
    let bad_match = v1::CreateMatchRequest {
        tournament_id: "open".into(),
        match_id: "bad id!".into(),
        player_a: "a".into(),
        player_b: "b".into(),
        length: 5,
        ..Default::default()
    };
    assert_eq!(
        t.create_match(server.director(bad_match.clone()))
            .await
            .unwrap_err()
            .code(),
        Code::InvalidArgument
    );
    let zero = v1::CreateMatchRequest {
        match_id: "ok".into(),
        length: 0,
        ..bad_match.clone()
    };
    assert_eq!(
        t.create_match(server.director(zero))
            .await
            .unwrap_err()
            .code(),
        Code::InvalidArgument
    );
    let dup = v1::CreateMatchRequest {
        match_id: "m1".into(),
        ..bad_match.clone()
    };
    assert_eq!(
        t.create_match(server.director(dup))
            .await
            .unwrap_err()
            .code(),
        Code::AlreadyExists
    );
    let nowhere = v1::CreateMatchRequest {
        tournament_id: "none".into(),
        match_id: "ok".into(),
        ..bad_match
    };
    assert_eq!(
        t.create_match(server.director(nowhere))
            .await
            .unwrap_err()
            .code(),
        Code::NotFound
    );
    let mut w = c
        .watch(v1::WatchRequest {
            match_id: "m1".into(),
            from_seq: 999,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(w.message().await.unwrap_err().code(), Code::OutOfRange);
    assert_eq!(d.state("m1").await.seq, seq, "nothing changed");
    server.stop().await;
}

#[tokio::test]
async fn limits_answer_resource_exhausted_and_the_server_stays_up() {
    let (server, mut d) = room().await;
    let mut c = MatchesClient::new(server.channel().await);
    // A message over 64 KiB: tonic's decoder refuses it (with OUT_OF_RANGE) before it is read.
    let mut huge = execute("m1", Some(Action::Warn(A)), "", None);
    huge.ruling = Some(v1::Ruling {
        reason: "x".repeat(100_000),
        article: "2.3".into(),
    });
    let e = c.execute(server.director(huge)).await.unwrap_err();
    assert_eq!(e.code(), Code::OutOfRange, "{}", e.message());
    assert!(e.message().contains("too large"));
    // More than 50 commands from one device to its match in one second (the test clock
    // stands still).
    let device = d.device(server.channel().await, "clock-1", "m1").await;
    let mut exhausted = None;
    for i in 0..60 {
        let side = if i % 2 == 0 { A } else { B };
        let r = c
            .execute(with_token(
                execute("m1", Some(Action::TakeBreak(side)), "", None),
                &device,
            ))
            .await;
        if r.is_err_and(|e| e.code() == Code::ResourceExhausted) {
            exhausted = Some(i);
            break;
        }
    }
    assert_eq!(exhausted, Some(50));
    // Issue 18 (8): the limit is the caller's: in the same second the director is
    // admitted every time (60 of 60), and the device is still held.
    for i in 0..60 {
        let side = if i % 2 == 0 { A } else { B };
        let r = c
            .execute(server.director(execute("m1", Some(Action::TakeBreak(side)), "", None)))
            .await;
        assert!(
            !r.is_err_and(|e| e.code() == Code::ResourceExhausted),
            "director command {i} was refused by the rate limit"
        );
    }
    let held = c
        .execute(with_token(
            execute("m1", Some(Action::TakeBreak(A)), "", None),
            &device,
        ))
        .await
        .unwrap_err();
    assert_eq!(held.code(), Code::ResourceExhausted);
    // Another match is not affected, and the next second the first is served again.
    d.act("m2", Action::CheckIn(A)).await;
    server.time.advance(1_000);
    d.act("m1", Action::CheckIn(A)).await;
    server.stop().await;
}

#[tokio::test]
async fn matches_are_listed_by_tournament_round_table_and_phase() {
    let (server, mut d) = room().await;
    d.tournament("other", defaults(0, None, v1::DiceSource::Physical))
        .await;
    d.create_match("other", "x1", 3, EPOCH.as_ms()).await;
    d.act("m2", Action::CheckIn(A)).await;
    d.act("m2", Action::CheckIn(B)).await;
    d.act("m2", opening(6, 1)).await;
    let mut t = TournamentsClient::new(server.channel().await);
    let list = |f: v1::ListMatchesRequest| {
        let mut t = t.clone();
        async move {
            t.list_matches(f)
                .await
                .unwrap()
                .into_inner()
                .matches
                .into_iter()
                .map(|m| m.match_id)
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        list(v1::ListMatchesRequest::default()).await,
        ["m1", "m2", "x1"]
    );
    assert_eq!(
        list(v1::ListMatchesRequest {
            tournament_id: "open".into(),
            ..Default::default()
        })
        .await,
        ["m1", "m2"]
    );
    // Each match in a round of its own (a round has one Anna v Ben): "open"'s m1 and m2
    // in rounds 1 and 2, "other"'s x1 in its round 1, all at table 7.
    assert_eq!(
        list(v1::ListMatchesRequest {
            round: 2,
            ..Default::default()
        })
        .await,
        ["m2"]
    );
    assert_eq!(
        list(v1::ListMatchesRequest {
            round: 3,
            ..Default::default()
        })
        .await,
        Vec::<String>::new()
    );
    assert_eq!(
        list(v1::ListMatchesRequest {
            table: "7".into(),
            round: 1,
            ..Default::default()
        })
        .await,
        ["m1", "x1"]
    );
    let playing = v1::ListMatchesRequest {
        phase: v1::MatchPhase::Playing as i32,
        ..Default::default()
    };
    assert_eq!(list(playing).await, ["m2"]);
    let tournaments = t
        .list_tournaments(v1::ListTournamentsRequest::default())
        .await
        .unwrap()
        .into_inner()
        .tournaments;
    assert_eq!(
        tournaments
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>(),
        ["open", "other"]
    );
    let open = t
        .get_tournament(v1::GetTournamentRequest { id: "open".into() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        open.defaults.unwrap().per_point_ms,
        120_000,
        "0 means the default of 2 minutes"
    );
    server.stop().await;
}
