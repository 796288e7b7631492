//! Chess through the whole system (issue 8): a rapid match over the API with a simulated
//! clock device on virtual time, arbiter rulings by the director, a restart that
//! recovers every chess event, and Chess960 positions from the audited dice. The clock
//! rules themselves are tested article by article in `core/tests/chess_rules.rs`.

use std::time::Duration;

use baffle_core::clock::TimeControl;
use baffle_firmware_sim::demo::Tables;
use baffle_firmware_sim::device::{Device, DeviceConfig};
use baffle_proto::v1;
use baffle_proto::v1::chess_command::Action as Chess;
use baffle_proto::v1::command::Action;
use baffle_tests::api::Director;
use baffle_tests::{EPOCH, SimServer, TestServer, with_token};
use tonic::Code;

const WHITE: i32 = v1::Color::White as i32;
const BLACK: i32 = v1::Color::Black as i32;

fn chess(action: Chess) -> Action {
    Action::Chess(v1::ChessCommand {
        action: Some(action),
    })
}

fn rapid(games: u32) -> v1::ChessMatchSettings {
    v1::ChessMatchSettings {
        control: Some((&TimeControl::rapid()).into()),
        games,
        ..Default::default()
    }
}

fn chess_state(s: &v1::MatchState) -> &v1::ChessState {
    s.chess.as_ref().expect("a chess match has a chess state")
}

fn side_clock(s: &v1::MatchState, color: i32) -> v1::SideClock {
    let clock = s.clock.clone().expect("a chess match is clocked");
    if color == WHITE { clock.a } else { clock.b }.expect("both sides")
}

/// A rapid match of two games played from the table's clock device: the players arrive,
/// White's clock starts at the scheduled time (6.6), presses alternate and add the
/// increment (6.2, 6.3 (a)), the director rules an illegal move (7.5, one minute in rapid
/// under the later Laws), Black resigns, the next game starts with colours reversed, and
/// a flag ends the match (6.9) at its exact instant — while the device cannot take an
/// arbiter's action.
#[tokio::test(start_paused = true)]
async fn a_rapid_match_is_played_from_the_device_with_the_arbiter_over_the_api() {
    let server = SimServer::start().await;
    let channel = server.channel();
    let mut tables = Tables::create(channel.clone(), &server.token, "open", Default::default())
        .await
        .unwrap();
    let start = EPOCH.as_ms() + 60_000;
    let (m, credential) = tables
        .add_chess(rapid(2), start, ("Anna", "Boris"))
        .await
        .unwrap();
    // Syncing once a second rather than ten times keeps the quarter of an hour of
    // virtual time this match takes cheap in real time.
    let mut device = Device::connect(DeviceConfig {
        sync_every: Duration::from_secs(1),
        // Its display in English ("m0 P1"; the server's default is Greek).
        lang: Some(baffle_i18n::Locale::En),
        ..DeviceConfig::new(channel.clone(), &format!("{m}-clock"), &credential)
    })
    .await
    .unwrap();
    let s = device.state();
    assert_eq!(s.phase, v1::MatchPhase::Waiting as i32);
    assert_eq!(chess_state(&s).category, "rapid");
    assert_eq!(s.length, 2, "the length of a chess match is its games");

    // 6.7: both players arrive before the start.
    for color in [WHITE, BLACK] {
        assert!(
            device
                .act(chess(Chess::Arrive(color)))
                .await
                .unwrap()
                .ack
                .applied
        );
    }
    // 6.2: nobody presses before the start.
    let early = device.act(chess(Chess::Press(WHITE))).await.unwrap();
    assert!(!early.ack.applied);
    assert!(early.ack.error.contains("6.6"), "{}", early.ack.error);

    // 6.6: at the scheduled start White's clock starts by itself.
    let started = tokio::time::timeout(
        Duration::from_secs(120),
        device.wait_for(|v| v.state.chess.as_ref().is_some_and(|c| c.started)),
    )
    .await
    .expect("the game starts at its time")
    .unwrap();
    assert_eq!(started.state.phase, v1::MatchPhase::Playing as i32);
    assert_eq!(chess_state(&started.state).to_move, WHITE);
    assert_eq!(chess_state(&started.state).white, v1::Side::A as i32);
    // 6.3 (a): the first increment is on the clock before the first move.
    assert_eq!(
        side_clock(&started.state, WHITE).main_ms,
        15 * 60_000 + 10_000
    );
    assert!(device.view().display.iter().any(|l| l.contains("m0 P1")));

    // Ten moves each, 20 s of thought per move.
    let mut to_move = WHITE;
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_secs(20)).await;
        let acked = device.act(chess(Chess::Press(to_move))).await.unwrap();
        assert!(acked.ack.applied, "{}", acked.ack.error);
        to_move = if to_move == WHITE { BLACK } else { WHITE };
    }
    let s = device.state();
    assert_eq!(chess_state(&s).moves, vec![10, 10]);
    // Each move cost 20 s and earned 10 s back: 15 min + 10 s − 10 × 10 s.
    assert_eq!(
        side_clock(&s, WHITE).main_ms,
        15 * 60_000 + 10_000 - 100_000
    );
    assert!(
        device.view().display[1].contains("m10"),
        "{:?}",
        device.view().display
    );

    // 7.5: a device cannot rule; the director can, with a reason and an article.
    let refused = device
        .act(chess(Chess::IllegalMove(v1::IllegalMove {
            color: WHITE,
            opponent_cannot_mate: false,
        })))
        .await
        .unwrap();
    assert!(!refused.ack.applied);
    assert!(
        refused.ack.error.contains("director"),
        "{}",
        refused.ack.error
    );
    let black_before = side_clock(&device.state(), BLACK).main_ms;
    let ruled = execute(
        &server,
        &m,
        chess(Chess::IllegalMove(v1::IllegalMove {
            color: WHITE,
            opponent_cannot_mate: false,
        })),
        true,
    )
    .await
    .unwrap();
    assert_eq!(
        side_clock(&ruled.state.clone().unwrap(), BLACK).main_ms,
        black_before + 60_000,
        "one minute to the opponent in rapid under the later Laws"
    );
    assert!(ruled.events.iter().any(|e| e.kind == "chess.ruling"));
    assert_eq!(
        chess_state(ruled.state.as_ref().unwrap()).illegal_moves,
        vec![1, 0]
    );

    // Black resigns: 1-0, and the match waits for game 2.
    assert!(
        device
            .act(chess(Chess::Resign(BLACK)))
            .await
            .unwrap()
            .ack
            .applied
    );
    let s = device.state();
    assert_eq!(s.phase, v1::MatchPhase::BetweenGames as i32);
    let c = chess_state(&s);
    assert_eq!((c.half_points_a, c.half_points_b), (2, 0));
    assert_eq!(
        c.results[0].result,
        Some(v1::ChessResult {
            outcome: v1::ChessOutcome::WhiteWins as i32,
            reason: v1::ChessReason::Resignation as i32,
        })
    );

    // Game 2: colours reversed, both at the board, White's clock running at once.
    assert!(
        device
            .act(chess(Chess::NextGame(v1::Empty {})))
            .await
            .unwrap()
            .ack
            .applied
    );
    let s = device.state();
    assert_eq!(s.game_number, 2);
    assert_eq!(chess_state(&s).white, v1::Side::B as i32);
    assert_eq!(s.turn_side, v1::Side::B as i32, "Boris has White and moves");
    // White (Boris) never moves: his flag falls at the exact instant (6.8, 6.9).
    let flag_due = s.clock.as_ref().unwrap().next_flag_at_ms.unwrap();
    let over = tokio::time::timeout(
        Duration::from_secs(20 * 60),
        device.wait_for(|v| v.state.phase == v1::MatchPhase::Over as i32),
    )
    .await
    .expect("the flag falls")
    .unwrap()
    .state;
    let c = chess_state(&over);
    assert_eq!(
        c.flags,
        vec![v1::ChessFlag {
            color: WHITE,
            at_ms: flag_due,
            // The match's timer records it at the instant: no later notice.
            noticed_at_ms: None,
        }]
    );
    assert_eq!(
        c.results[1].result,
        Some(v1::ChessResult {
            outcome: v1::ChessOutcome::BlackWins as i32,
            reason: v1::ChessReason::Flag as i32,
        })
    );
    assert_eq!((c.half_points_a, c.half_points_b), (4, 0));
    let result = over.result.expect("the match is over");
    assert_eq!(result.winner, v1::Side::A as i32);
    assert_eq!(result.how, "points");
    device.close().await;
    server.stop().await;
}

/// Executes `action` on match `m` as the director (with a ruling when `ruling`).
async fn execute(
    server: &SimServer,
    m: &str,
    action: Action,
    ruling: bool,
) -> Result<v1::ExecuteReply, tonic::Status> {
    let request = v1::ExecuteRequest {
        match_id: m.into(),
        command: Some(v1::Command {
            action: Some(action),
        }),
        ruling: ruling.then(|| v1::Ruling {
            reason: "seen by the arbiter".into(),
            article: "7.5".into(),
        }),
        ..Default::default()
    };
    v1::matches_client::MatchesClient::new(server.channel())
        .execute(with_token(request, &server.token))
        .await
        .map(tonic::Response::into_inner)
}

/// Commands of the wrong game, arbiter actions without a ruling, and malformed chess
/// commands are refused with a precise status and change nothing.
#[tokio::test]
async fn wrong_and_malformed_chess_commands_are_refused_and_change_nothing() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("t", Default::default()).await;
    let created = d
        .tournaments
        .create_match(server.director(v1::CreateMatchRequest {
            tournament_id: "t".into(),
            match_id: "c".into(),
            player_a: "A".into(),
            player_b: "B".into(),
            chess: Some(v1::ChessMatchSettings {
                default_time_ms: 60_000,
                ..rapid(1)
            }),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(created.chess.is_some());
    // 6.7: a default time of 0 and a start of now would be a double default at once.
    let e = d
        .tournaments
        .create_match(server.director(v1::CreateMatchRequest {
            tournament_id: "t".into(),
            match_id: "lost-at-once".into(),
            player_a: "A".into(),
            player_b: "B".into(),
            chess: Some(rapid(1)),
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("6.7"), "{}", e.message());
    d.create_match("t", "bg", 3, EPOCH.as_ms()).await;
    let before = d.state("c").await;
    let cases = [
        (Action::CheckIn(1), None, "chess match"),
        (chess(Chess::Press(0)), None, "colour"),
        (
            chess(Chess::SetTime(v1::ChessTime {
                color: WHITE,
                ms: 1,
            })),
            None,
            "ruling",
        ),
        (
            chess(Chess::SetTime(v1::ChessTime {
                color: WHITE,
                ms: -1,
            })),
            Some(()),
            "negative",
        ),
        (
            chess(Chess::QuickplayRuling(9)),
            Some(()),
            "quickplay_ruling",
        ),
        (
            chess(Chess::ArbiterResult(v1::ChessResult::default())),
            Some(()),
            "outcome",
        ),
    ];
    for (action, ruling, says) in cases {
        let e = d
            .matches
            .execute(server.director(v1::ExecuteRequest {
                match_id: "c".into(),
                command: Some(v1::Command {
                    action: Some(action),
                }),
                ruling: ruling.map(|()| v1::Ruling {
                    reason: "r".into(),
                    article: "6.10".into(),
                }),
                ..Default::default()
            }))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        assert!(e.message().contains(says), "{says}: {}", e.message());
    }
    let e = d
        .try_act("bg", chess(Chess::Press(WHITE)))
        .await
        .unwrap_err();
    assert!(e.message().contains("backgammon match"), "{}", e.message());
    // The rules refuse what the Laws do not allow: 6.10 needs the clocks stopped.
    let e = d
        .matches
        .execute(server.director(v1::ExecuteRequest {
            match_id: "c".into(),
            command: Some(v1::Command {
                action: Some(chess(Chess::DrawPosition(v1::Empty {}))),
            }),
            ruling: Some(v1::Ruling {
                reason: "r".into(),
                article: "F".into(),
            }),
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("not a Chess960"), "{}", e.message());
    let after = d.state("c").await;
    assert_eq!(after.seq, before.seq, "nothing was recorded");
    assert_eq!(after.chess, before.chess);
    server.stop().await;
}

/// A chess match survives a restart event for event — rulings, flags, the position —
/// and its audit log verifies, with the Chess960 draw recomputed after the reveal.
#[tokio::test]
async fn a_chess960_match_recovers_after_a_restart_and_its_log_verifies() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("t", Default::default()).await;
    let settings = v1::ChessMatchSettings {
        chess960: true,
        default_time_ms: 30 * 60_000,
        ..rapid(1)
    };
    d.tournaments
        .create_match(server.director(v1::CreateMatchRequest {
            tournament_id: "t".into(),
            match_id: "c960".into(),
            player_a: "A".into(),
            player_b: "B".into(),
            scheduled_start_ms: EPOCH.as_ms(),
            chess: Some(settings),
            ..Default::default()
        }))
        .await
        .unwrap();
    // Nobody is there; the first command after the start records it, and the position
    // is drawn as the game starts (F: the position is drawn from the audited dice).
    server.time.advance(5_000);
    let s = d.act("c960", chess(Chess::Arrive(WHITE))).await;
    let c = chess_state(&s).clone();
    assert!(c.started);
    let position = c.position.expect("drawn at the start");
    assert!(position.sp < 960);
    assert_eq!(position.back_rank.len(), 8);
    // 6.7: Black is not there yet, and the default time is 30 minutes: White's clock runs.
    assert_eq!(c.present, vec![true, false]);
    assert_eq!(s.phase, v1::MatchPhase::Playing as i32);
    server.time.advance(60_000);
    d.act("c960", chess(Chess::Arrive(BLACK))).await;
    d.act("c960", chess(Chess::Press(WHITE))).await;
    d.act(
        "c960",
        chess(Chess::Pause(v1::PauseReason::DirectorStopped as i32)),
    )
    .await;
    let ruled = d
        .matches
        .execute(server.director(v1::ExecuteRequest {
            match_id: "c960".into(),
            command: Some(v1::Command {
                action: Some(chess(Chess::SetTime(v1::ChessTime {
                    color: BLACK,
                    ms: 600_000,
                }))),
            }),
            ruling: Some(v1::Ruling {
                reason: "the clock was set wrongly".into(),
                article: "6.10".into(),
            }),
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        side_clock(ruled.state.as_ref().unwrap(), BLACK).main_ms,
        600_000
    );
    d.act("c960", chess(Chess::Resume(v1::Empty {}))).await;
    server.time.advance(1_000);
    let before = d.act("c960", chess(Chess::AgreeDraw(v1::Empty {}))).await;
    assert_eq!(before.phase, v1::MatchPhase::Over as i32);
    assert_eq!(before.result.as_ref().unwrap().how, "draw");

    let (dir, time) = server.stop().await;
    let server = TestServer::start_in(dir, time).await;
    let mut d = Director::connect(&server).await;
    let mut after = d.state("c960").await;
    let mut expected = before.clone();
    (after.sent_at_ms, expected.sent_at_ms) = (0, 0);
    // GetMatch signs the head; the reply before, with nobody following, did not
    // (docs/audit-log.md, "Signed heads and witnesses"): the same head either way.
    let signed = after.signed_head.take().expect("a signed head");
    assert_eq!((signed.length, signed.head), (before.seq, before.head_hash));
    assert_eq!(after, expected, "the same match after the restart");

    // After the match the seed is revealed and the whole log verifies offline.
    v1::audit_client::AuditClient::new(server.channel().await)
        .reveal(server.director(v1::RevealRequest {
            match_id: "c960".into(),
        }))
        .await
        .unwrap();
    let log = baffle_client::audit::export_log(server.channel().await, "c960")
        .await
        .unwrap();
    let report = baffle_core::audit::verify::verify_jsonl(&log, None);
    assert!(report.is_ok(), "{:?}", report.problem);
    assert!(report.revealed);
    assert_eq!(report.dice_verified, 1, "the position was recomputed");
    server.stop().await;
}
