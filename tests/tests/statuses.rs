//! Every RPC held to the status rule of `docs/server.md` ("Statuses"): one table, a row
//! per RPC and kind of bad input, each with the code a client must get. A row that
//! disagrees is reported with all the others, so the table reads as the rule.

use baffle_proto::v1;
use baffle_proto::v1::audit_client::AuditClient;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::matches_client::MatchesClient;
use baffle_proto::v1::time_controls_client::TimeControlsClient;
use baffle_proto::v1::tournaments_client::TournamentsClient;
use baffle_tests::api::{A, Director, defaults};
use baffle_tests::{EPOCH, TestServer, with_token};
use tokio_stream::StreamExt;
use tonic::{Code, Status};

const BAD_ID: &str = "no such id!";

/// One row of the table: what was asked, the code the rule gives, the code received.
struct Row {
    what: &'static str,
    expected: Code,
    got: Code,
}

fn code<T>(r: Result<T, Status>) -> Code {
    r.map_or_else(|e| e.code(), |_| Code::Ok)
}

/// The first message of a server stream, or the status that ended it.
async fn first<T>(r: Result<tonic::Response<tonic::Streaming<T>>, Status>) -> Result<T, Status> {
    let mut s = r?.into_inner();
    match s.next().await {
        Some(m) => m,
        None => Err(Status::unknown("the stream ended at once")),
    }
}

fn execute(
    match_id: &str,
    action: Option<Action>,
    expected_seq: Option<u64>,
) -> v1::ExecuteRequest {
    v1::ExecuteRequest {
        match_id: match_id.into(),
        command: Some(v1::Command { action }),
        ruling: Some(v1::Ruling {
            reason: "test".into(),
            article: "2.3".into(),
        }),
        request_id: String::new(),
        expected_seq,
    }
}

#[tokio::test]
async fn every_rpc_answers_bad_input_with_the_status_the_rule_gives() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(120_000, None, v1::DiceSource::Server))
        .await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    let channel = server.channel().await;
    let mut t = TournamentsClient::new(channel.clone());
    let mut m = MatchesClient::new(channel.clone());
    let mut a = AuditClient::new(channel.clone());
    let mut dv = DevicesClient::new(channel.clone());
    let mut tc = TimeControlsClient::new(channel.clone());
    let token = server.token.clone();
    let mut rows: Vec<Row> = Vec::new();
    let mut row = |what, expected, got| {
        rows.push(Row {
            what,
            expected,
            got,
        })
    };

    // ---- Tournaments ----
    let tournament = |id: &str, per_point_ms: i64| v1::CreateTournamentRequest {
        tournament: Some(v1::Tournament {
            id: id.into(),
            name: "x".into(),
            defaults: Some(v1::TournamentDefaults {
                per_point_ms,
                ..defaults(120_000, None, v1::DiceSource::Server)
            }),
            ..Default::default()
        }),
    };
    let r = t.create_tournament(tournament("t2", 120_000)).await;
    row(
        "CreateTournament without a token",
        Code::Unauthenticated,
        code(r),
    );
    let r = t
        .create_tournament(with_token(tournament(BAD_ID, 120_000), &token))
        .await;
    row(
        "CreateTournament, malformed id",
        Code::InvalidArgument,
        code(r),
    );
    let r = t
        .create_tournament(with_token(tournament("t2", -1), &token))
        .await;
    row(
        "CreateTournament, negative per_point_ms",
        Code::InvalidArgument,
        code(r),
    );
    let r = t
        .create_tournament(with_token(tournament("t2", i64::MAX), &token))
        .await;
    row(
        "CreateTournament, huge per_point_ms",
        Code::InvalidArgument,
        code(r),
    );
    let r = t
        .create_tournament(with_token(tournament("open", 120_000), &token))
        .await;
    row("CreateTournament, id taken", Code::AlreadyExists, code(r));
    let get_t = |id: &str| v1::GetTournamentRequest { id: id.into() };
    let r = t.get_tournament(get_t(BAD_ID)).await;
    row(
        "GetTournament, malformed id",
        Code::InvalidArgument,
        code(r),
    );
    let r = t.get_tournament(get_t("nope")).await;
    row("GetTournament, unknown", Code::NotFound, code(r));
    let r = t
        .list_tournaments(v1::ListTournamentsRequest::default())
        .await;
    row("ListTournaments", Code::Ok, code(r));
    let new_match = |tournament: &str, id: &str, length: u32, start: i64| v1::CreateMatchRequest {
        tournament_id: tournament.into(),
        match_id: id.into(),
        player_a: "a".into(),
        player_b: "b".into(),
        length,
        scheduled_start_ms: start,
        ..Default::default()
    };
    let start = EPOCH.as_ms();
    let r = t
        .create_match(with_token(new_match("open", BAD_ID, 5, start), &token))
        .await;
    row(
        "CreateMatch, malformed match id",
        Code::InvalidArgument,
        code(r),
    );
    let r = t
        .create_match(with_token(new_match(BAD_ID, "m2", 5, start), &token))
        .await;
    row(
        "CreateMatch, malformed tournament id",
        Code::InvalidArgument,
        code(r),
    );
    let r = t
        .create_match(with_token(new_match("nope", "m2", 5, start), &token))
        .await;
    row("CreateMatch, unknown tournament", Code::NotFound, code(r));
    let r = t
        .create_match(with_token(new_match("open", "m2", 0, start), &token))
        .await;
    row("CreateMatch, length 0", Code::InvalidArgument, code(r));
    let r = t
        .create_match(with_token(new_match("open", "m2", 5, -5), &token))
        .await;
    row(
        "CreateMatch, scheduled in 1969",
        Code::InvalidArgument,
        code(r),
    );
    let r = t
        .create_match(with_token(new_match("open", "m", 5, start), &token))
        .await;
    row("CreateMatch, id taken", Code::AlreadyExists, code(r));
    let get_m = |id: &str| v1::GetMatchRequest {
        match_id: id.into(),
    };
    let r = t.get_match(get_m(BAD_ID)).await;
    row("GetMatch, malformed id", Code::InvalidArgument, code(r));
    let r = t.get_match(get_m("nope")).await;
    row("GetMatch, unknown", Code::NotFound, code(r));
    let r = t.list_matches(v1::ListMatchesRequest::default()).await;
    row("ListMatches", Code::Ok, code(r));

    // ---- Matches ----
    let check_in = || Some(Action::CheckIn(A));
    let r = m
        .execute(with_token(execute(BAD_ID, check_in(), None), &token))
        .await;
    row(
        "Execute, malformed match id",
        Code::InvalidArgument,
        code(r),
    );
    let r = m
        .execute(with_token(execute("nope", check_in(), None), &token))
        .await;
    row("Execute, unknown match", Code::NotFound, code(r));
    let r = m.execute(execute("m", check_in(), None)).await;
    row("Execute without a token", Code::Unauthenticated, code(r));
    let r = m
        .execute(with_token(execute("m", None, None), &token))
        .await;
    row("Execute, no action", Code::InvalidArgument, code(r));
    let r = m
        .execute(with_token(execute("m", check_in(), Some(99)), &token))
        .await;
    row("Execute, stale expected_seq", Code::Aborted, code(r));
    let r = m
        .execute(with_token(
            execute("m", Some(Action::Double(A)), None),
            &token,
        ))
        .await;
    row(
        "Execute, a rule refuses (no game)",
        Code::FailedPrecondition,
        code(r),
    );
    let cube = v1::CubeLevel { value: 3, owner: A };
    let r = m
        .execute(with_token(
            execute("m", Some(Action::CorrectCube(cube)), None),
            &token,
        ))
        .await;
    row("Execute, cube level 3", Code::InvalidArgument, code(r));
    let r = m
        .execute(with_token(
            execute("m", Some(Action::VoidDoubleReason(0)), None),
            &token,
        ))
        .await;
    row("Execute, void reason unset", Code::InvalidArgument, code(r));
    let adjust = v1::TimeChange {
        side: A,
        ms: i64::MAX,
    };
    let r = m
        .execute(with_token(
            execute("m", Some(Action::AdjustTime(adjust)), None),
            &token,
        ))
        .await;
    row(
        "Execute, adjust_time i64::MAX",
        Code::InvalidArgument,
        code(r),
    );
    let watch = |id: &str, from_seq| v1::WatchRequest {
        match_id: id.into(),
        from_seq,
    };
    let r = first(m.watch(watch(BAD_ID, 0)).await).await;
    row("Watch, malformed id", Code::InvalidArgument, code(r));
    let r = first(m.watch(watch("nope", 0)).await).await;
    row("Watch, unknown", Code::NotFound, code(r));
    let r = first(m.watch(watch("m", 1_000)).await).await;
    row("Watch, beyond the log", Code::OutOfRange, code(r));
    let wt = |id: &str| v1::WatchTournamentRequest {
        tournament_id: id.into(),
    };
    let r = first(m.watch_tournament(wt(BAD_ID)).await).await;
    row(
        "WatchTournament, malformed id",
        Code::InvalidArgument,
        code(r),
    );

    // ---- Audit ----
    let r = a
        .get_commitment(v1::GetCommitmentRequest {
            match_id: BAD_ID.into(),
        })
        .await;
    row(
        "GetCommitment, malformed id",
        Code::InvalidArgument,
        code(r),
    );
    let r = a
        .get_commitment(v1::GetCommitmentRequest {
            match_id: "nope".into(),
        })
        .await;
    row("GetCommitment, unknown", Code::NotFound, code(r));
    let r = a
        .issue_player_codes(with_token(
            v1::IssuePlayerCodesRequest {
                match_id: "nope".into(),
            },
            &token,
        ))
        .await;
    row("IssuePlayerCodes, unknown match", Code::NotFound, code(r));
    let codes = a
        .issue_player_codes(with_token(
            v1::IssuePlayerCodesRequest {
                match_id: "m".into(),
            },
            &token,
        ))
        .await
        .unwrap()
        .into_inner();
    let seed = |bytes: usize, salt: Option<usize>| v1::SubmitPlayerSeedRequest {
        match_id: "m".into(),
        side: A,
        seed: vec![7; bytes],
        salt: salt.map(|n| vec![5; n]),
    };
    let r = a.submit_player_seed(seed(32, None)).await;
    row(
        "SubmitPlayerSeed without a code",
        Code::Unauthenticated,
        code(r),
    );
    let r = a
        .submit_player_seed(with_token(seed(32, None), &codes.code_a))
        .await;
    row(
        "SubmitPlayerSeed, a seed in the clear (construction 2)",
        Code::FailedPrecondition,
        code(r),
    );
    for (what, bytes, salt) in [
        ("RevealPlayerSeed, 15-byte seed", 15, Some(32)),
        ("RevealPlayerSeed, 65-byte seed", 65, Some(32)),
        ("RevealPlayerSeed, no salt", 32, None),
        ("RevealPlayerSeed, 31-byte salt", 32, Some(31)),
    ] {
        let r = a
            .reveal_player_seed(with_token(seed(bytes, salt), &codes.code_a))
            .await;
        row(what, Code::InvalidArgument, code(r));
    }
    let extend = v1::ExtendRevealDeadlineRequest {
        match_id: "m".into(),
        seconds: 60,
        reason: "the player's phone died".into(),
        article: "2.3".into(),
    };
    let r = a.extend_reveal_deadline(extend.clone()).await;
    row(
        "ExtendRevealDeadline without the token",
        Code::Unauthenticated,
        code(r),
    );
    let r = a.extend_reveal_deadline(with_token(extend, &token)).await;
    row(
        "ExtendRevealDeadline with no reveal pending",
        Code::FailedPrecondition,
        code(r),
    );
    let commit = v1::CommitPlayerSeedRequest {
        match_id: "m".into(),
        side: A,
        commitment: vec![1; 5],
    };
    let r = a
        .commit_player_seed(with_token(commit, &codes.code_a))
        .await;
    row(
        "CommitPlayerSeed, 5-byte commitment",
        Code::InvalidArgument,
        code(r),
    );
    let r = a
        .reveal_player_seed(with_token(seed(32, Some(32)), &codes.code_a))
        .await;
    row(
        "RevealPlayerSeed before a commitment",
        Code::FailedPrecondition,
        code(r),
    );
    let export = |id: &str| v1::ExportLogRequest {
        match_id: id.into(),
    };
    let r = first(a.export_log(export(BAD_ID)).await).await;
    row("ExportLog, malformed id", Code::InvalidArgument, code(r));
    let r = first(a.export_log(export("nope")).await).await;
    row("ExportLog, unknown", Code::NotFound, code(r));
    let r = a
        .reveal(with_token(
            v1::RevealRequest {
                match_id: "m".into(),
            },
            &token,
        ))
        .await;
    row(
        "Reveal before the match is over",
        Code::FailedPrecondition,
        code(r),
    );

    // ---- Devices ----
    let register = |id: &str| v1::RegisterDeviceRequest {
        device_id: id.into(),
    };
    let r = dv
        .register_device(with_token(register(BAD_ID), &token))
        .await;
    row(
        "RegisterDevice, malformed id",
        Code::InvalidArgument,
        code(r),
    );
    let r = dv.register_device(register("d1")).await;
    row(
        "RegisterDevice without a token",
        Code::Unauthenticated,
        code(r),
    );
    dv.register_device(with_token(register("d1"), &token))
        .await
        .unwrap();
    let r = dv.register_device(with_token(register("d1"), &token)).await;
    row("RegisterDevice, id taken", Code::AlreadyExists, code(r));
    let bind = |device: &str, id: &str| v1::BindDeviceRequest {
        device_id: device.into(),
        match_id: id.into(),
    };
    let r = dv.bind_device(with_token(bind("nope", "m"), &token)).await;
    row("BindDevice, unknown device", Code::NotFound, code(r));
    let r = dv.bind_device(with_token(bind("d1", "nope"), &token)).await;
    row("BindDevice, unknown match", Code::NotFound, code(r));
    let r = dv.bind_device(with_token(bind("d1", BAD_ID), &token)).await;
    row(
        "BindDevice, malformed match id",
        Code::InvalidArgument,
        code(r),
    );
    let r = dv
        .unbind_device(with_token(
            v1::UnbindDeviceRequest {
                device_id: "nope".into(),
            },
            &token,
        ))
        .await;
    row("UnbindDevice, unknown", Code::NotFound, code(r));
    let r = dv
        .revoke_device(with_token(
            v1::RevokeDeviceRequest {
                device_id: "nope".into(),
            },
            &token,
        ))
        .await;
    row("RevokeDevice, unknown", Code::NotFound, code(r));
    let hello = v1::DeviceMessage {
        message: Some(v1::device_message::Message::Hello(v1::Hello::default())),
    };
    let r = first(dv.connect(tokio_stream::iter([hello])).await).await;
    row(
        "Connect without a credential",
        Code::Unauthenticated,
        code(r),
    );

    // ---- TimeControls ----
    let r = tc
        .list_presets(v1::ListPresetsRequest { match_length: 0 })
        .await;
    row("ListPresets, default length", Code::Ok, code(r));
    let r = tc
        .list_presets(v1::ListPresetsRequest {
            match_length: 100_000,
        })
        .await;
    row("ListPresets, length 100000", Code::InvalidArgument, code(r));

    let wrong: Vec<String> = rows
        .iter()
        .filter(|r| r.expected != r.got)
        .map(|r| format!("{}: expected {:?}, got {:?}", r.what, r.expected, r.got))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} rows disagree:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}
