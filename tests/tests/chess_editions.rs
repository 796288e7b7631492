//! Issue 21 from outside, over the API as a stranger's client would play it: the edition
//! chosen by name and shown, its illegal-move penalty with the move handed back (7.5
//! (a)), who may restart the clock (6.12 (c)), the Chess960 draw before play; and issue
//! 18's adversary, a client sending time controls and times at the ends of `i64`.

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

/// 25 minutes sudden death: rapid under every edition.
fn rapid(laws: v1::ChessLaws) -> v1::ChessMatchSettings {
    let control = TimeControl::single(
        baffle_core::Millis::mins(25),
        baffle_core::clock::TimingMethod::SuddenDeath,
    )
    .unwrap();
    v1::ChessMatchSettings {
        control: Some((&control).into()),
        games: 1,
        default_time_ms: 60_000,
        laws: laws as i32,
        ..Default::default()
    }
}

fn main_ms(s: &v1::MatchState, color: i32) -> i64 {
    let clock = s.clock.clone().unwrap();
    if color == WHITE { clock.a } else { clock.b }
        .unwrap()
        .main_ms
}

/// Creates chess match `id` in tournament "t", between players named after it ("`id`
/// A" v "`id` B"): a round has one match per pair of players, and a test here makes
/// several.
async fn create(
    d: &mut Director,
    server: &TestServer,
    id: &str,
    settings: v1::ChessMatchSettings,
) -> Result<v1::MatchState, tonic::Status> {
    d.tournaments
        .create_match(server.director(v1::CreateMatchRequest {
            tournament_id: "t".into(),
            match_id: id.into(),
            player_a: format!("{id} A"),
            player_b: format!("{id} B"),
            scheduled_start_ms: EPOCH.as_ms(),
            chess: Some(settings),
            ..Default::default()
        }))
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test]
async fn issue_18_controls_and_times_beyond_their_bounds_are_invalid_argument_naming_the_bound() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("t", Default::default()).await;
    let method = |m| v1::TimingMethod { method: Some(m) };
    use v1::timing_method::Method as M;
    let period = |base_ms, m| v1::Period {
        base_ms,
        moves: None,
        method: Some(method(m)),
    };
    let controls = [
        period(
            300_000,
            M::Fischer(v1::Fischer {
                increment_ms: i64::MAX,
            }),
        ),
        period(
            300_000,
            M::Fischer(v1::Fischer {
                increment_ms: 1 << 62,
            }),
        ),
        period(
            300_000,
            M::ByoYomi(v1::ByoYomi {
                periods: u32::MAX,
                period_ms: i64::MAX,
            }),
        ),
        period(i64::MAX, M::SuddenDeath(v1::SuddenDeath {})),
    ];
    for (i, p) in controls.into_iter().enumerate() {
        let settings = v1::ChessMatchSettings {
            control: Some(v1::TimeControl {
                periods: vec![p],
                freeze_at_flag: None,
            }),
            ..rapid(v1::ChessLaws::Fide2023)
        };
        let id = format!("bad{i}");
        let e = create(&mut d, &server, &id, settings).await.unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        assert!(e.message().contains("bound"), "{}", e.message());
        let e = d
            .tournaments
            .get_match(v1::GetMatchRequest { match_id: id })
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::NotFound, "a refused match is not made");
    }
    let e = create(
        &mut d,
        &server,
        "late",
        v1::ChessMatchSettings {
            default_time_ms: i64::MAX,
            ..rapid(v1::ChessLaws::Fide2023)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("bound"), "{}", e.message());

    // The arbiter's numbers too: the clocks stopped, a time or a counter beyond the bound.
    create(&mut d, &server, "c", rapid(v1::ChessLaws::Fide2023))
        .await
        .unwrap();
    d.act("c", chess(Chess::Arrive(WHITE))).await;
    d.act("c", chess(Chess::Arrive(BLACK))).await;
    server.time.advance(1_000);
    d.act(
        "c",
        chess(Chess::Pause(v1::PauseReason::DirectorStopped as i32)),
    )
    .await;
    let before = d.state("c").await;
    for action in [
        Chess::SetTime(v1::ChessTime {
            color: WHITE,
            ms: i64::MAX,
        }),
        Chess::SetMoves(v1::ChessMoves {
            color: WHITE,
            moves: u32::MAX,
        }),
    ] {
        let says = d.refused("c", chess(action), Code::InvalidArgument).await;
        assert!(says.contains("bound"), "{says}");
    }
    let after = d.state("c").await;
    assert_eq!(after.seq, before.seq, "nothing was recorded");
    assert_eq!(after.clock.unwrap().a, before.clock.unwrap().a);
    server.stop().await;
}

/// Editions by name, shown in the state; the 2014 Laws give two minutes for an illegal
/// move in rapid where 2023 gives one, and either way the offender moves again.
#[tokio::test]
async fn art_7_5_editions_by_name_their_penalty_and_the_move_handed_back() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("t", Default::default()).await;
    let editions = [
        (
            v1::ChessLaws::Fide2009,
            v1::ChessLaws::Fide2009,
            "FIDE 2009",
        ),
        (
            v1::ChessLaws::Fide2014,
            v1::ChessLaws::Fide2014,
            "FIDE 2014",
        ),
        (
            v1::ChessLaws::Fide2018,
            v1::ChessLaws::Fide2018,
            "FIDE 2018",
        ),
        (
            v1::ChessLaws::Fide2023,
            v1::ChessLaws::Fide2023,
            "FIDE 2023",
        ),
        (v1::ChessLaws::Later, v1::ChessLaws::Fide2023, "FIDE 2023"),
        (
            v1::ChessLaws::Unspecified,
            v1::ChessLaws::Fide2023,
            "FIDE 2023",
        ),
    ];
    for (i, (asked, stated, name)) in editions.into_iter().enumerate() {
        let s = create(&mut d, &server, &format!("e{i}"), rapid(asked))
            .await
            .unwrap();
        let c = s.chess.unwrap();
        assert_eq!((c.laws, c.laws_name.as_str()), (stated as i32, name));
    }
    let e = create(
        &mut d,
        &server,
        "e9",
        v1::ChessMatchSettings {
            laws: 77,
            ..rapid(v1::ChessLaws::Fide2014)
        },
    )
    .await
    .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);

    for id in ["e1", "e3"] {
        d.act(id, chess(Chess::Arrive(WHITE))).await;
        d.act(id, chess(Chess::Arrive(BLACK))).await;
    }
    server.time.advance(10_000);
    for (id, bonus) in [("e1", 120_000), ("e3", 60_000)] {
        // White completes an illegal move: his press starts Black's clock.
        let pressed = d.act(id, chess(Chess::Press(WHITE))).await;
        assert_eq!(pressed.chess.as_ref().unwrap().to_move, BLACK);
        let black = main_ms(&pressed, BLACK);
        let ruled = d
            .act(
                id,
                chess(Chess::IllegalMove(v1::IllegalMove {
                    color: WHITE,
                    opponent_cannot_mate: false,
                })),
            )
            .await;
        let c = ruled.chess.as_ref().unwrap();
        assert_eq!(main_ms(&ruled, BLACK), black + bonus, "{id}");
        assert_eq!(c.to_move, WHITE, "{id}: 7.5 (a), White moves again");
        assert_eq!(c.moves, vec![0, 0], "{id}: the illegal move is not counted");
        assert_eq!(
            ruled.clock.as_ref().unwrap().running,
            v1::Side::A as i32,
            "{id}: White's clock runs"
        );
    }
    server.stop().await;
}

/// 6.12: a player's device may stop the clock only to call the arbiter; it can neither
/// interrupt the game in the arbiter's name nor restart the clock — the arbiter does.
#[tokio::test(start_paused = true)]
async fn art_6_12_c_only_the_arbiter_restarts_the_clock_a_device_only_calls_him() {
    let server = SimServer::start().await;
    let channel = server.channel();
    let mut tables = Tables::create(channel.clone(), &server.token, "open", Default::default())
        .await
        .unwrap();
    let start = EPOCH.as_ms() + 60_000;
    let (m, credential) = tables
        .add_chess(rapid(v1::ChessLaws::Fide2014), start, ("Anna", "Boris"))
        .await
        .unwrap();
    let mut device = Device::connect(DeviceConfig {
        sync_every: Duration::from_secs(1),
        ..DeviceConfig::new(channel.clone(), &format!("{m}-clock"), &credential)
    })
    .await
    .unwrap();
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
    tokio::time::timeout(
        Duration::from_secs(120),
        device.wait_for(|v| v.state.chess.as_ref().is_some_and(|c| c.started)),
    )
    .await
    .expect("the game starts at its time")
    .unwrap();
    assert!(
        device.view().display[0].contains("FIDE 2014"),
        "{:?}",
        device.view().display
    );

    let stopped_in_his_name = device
        .act(chess(Chess::Pause(v1::PauseReason::DirectorStopped as i32)))
        .await
        .unwrap();
    assert!(!stopped_in_his_name.ack.applied);
    assert!(stopped_in_his_name.ack.error.contains("director"));
    let called = device
        .act(chess(Chess::Pause(v1::PauseReason::DirectorCalled as i32)))
        .await
        .unwrap();
    assert!(called.ack.applied, "{}", called.ack.error);
    let restarted = device
        .act(chess(Chess::Resume(v1::Empty {})))
        .await
        .unwrap();
    assert!(
        !restarted.ack.applied,
        "6.12 (c): not the player's to restart"
    );
    assert!(
        restarted.ack.error.contains("director"),
        "{}",
        restarted.ack.error
    );

    let resume = |ruling: bool| v1::ExecuteRequest {
        match_id: m.clone(),
        command: Some(v1::Command {
            action: Some(chess(Chess::Resume(v1::Empty {}))),
        }),
        ruling: ruling.then(|| v1::Ruling {
            reason: "the promotion piece was found".into(),
            article: "6.12 (c)".into(),
        }),
        ..Default::default()
    };
    let mut matches = v1::matches_client::MatchesClient::new(channel.clone());
    let e = matches
        .execute(with_token(resume(false), &server.token))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "the arbiter says why");
    let state = matches
        .execute(with_token(resume(true), &server.token))
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    assert_eq!(state.clock.unwrap().paused, 0, "running again");
}

/// The Chess960 position is drawn before play on the director's word alone; once the
/// game has started, drawing it is an arbiter's ruling.
#[tokio::test]
async fn f_the_chess960_position_before_play_needs_no_ruling() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("t", Default::default()).await;
    // Two boards of a round, each with its players.
    for id in ["before", "after"] {
        d.tournaments
            .create_match(server.director(v1::CreateMatchRequest {
                tournament_id: "t".into(),
                match_id: id.into(),
                player_a: format!("{id} A"),
                player_b: format!("{id} B"),
                scheduled_start_ms: EPOCH.as_ms() + 60_000,
                chess: Some(v1::ChessMatchSettings {
                    chess960: true,
                    ..rapid(v1::ChessLaws::Fide2014)
                }),
                ..Default::default()
            }))
            .await
            .unwrap();
    }
    let draw = |id: &str| v1::ExecuteRequest {
        match_id: id.into(),
        command: Some(v1::Command {
            action: Some(chess(Chess::DrawPosition(v1::Empty {}))),
        }),
        ..Default::default()
    };
    let drawn = d
        .matches
        .execute(server.director(draw("before")))
        .await
        .unwrap()
        .into_inner()
        .state
        .unwrap();
    let position = drawn.chess.unwrap().position.unwrap();
    assert_eq!(position.black_back_rank, position.back_rank.to_lowercase());
    // Without the director's token it is refused all the same.
    let e = d.matches.execute(draw("after")).await.unwrap_err();
    assert!(
        matches!(e.code(), Code::PermissionDenied | Code::Unauthenticated),
        "{e:?}"
    );

    d.act("after", chess(Chess::Arrive(WHITE))).await;
    d.act("after", chess(Chess::Arrive(BLACK))).await;
    server.time.advance(61_000);
    let started = d.act("after", chess(Chess::Press(WHITE))).await;
    assert!(started.chess.unwrap().started);
    let e = d
        .matches
        .execute(server.director(draw("after")))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(e.message().contains("ruling"), "{}", e.message());
    server.stop().await;
}

/// 6.7: neither player comes to a one-game match: both lose, and the match ends with
/// no winner and is not called a draw.
#[tokio::test]
async fn art_6_7_a_double_default_is_not_a_draw() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("t", Default::default()).await;
    create(&mut d, &server, "dd", rapid(v1::ChessLaws::Fide2014))
        .await
        .unwrap();
    server.time.advance(61_000);
    // The match's own timer records the default at its instant.
    let mut s = d.state("dd").await;
    for _ in 0..100 {
        if s.phase == v1::MatchPhase::Over as i32 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        s = d.state("dd").await;
    }
    assert_eq!(s.phase, v1::MatchPhase::Over as i32);
    let result = s.result.unwrap();
    assert_eq!(result.how, "double_default");
    assert_eq!(result.winner, v1::Side::Unspecified as i32);
    let games = &s.chess.unwrap().results;
    assert_eq!(
        games[0].result.unwrap().outcome,
        v1::ChessOutcome::BothLose as i32
    );
}

#[tokio::test]
async fn art_6_2_a_a_mating_move_made_before_the_flag_wins_over_the_api() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("t", Default::default()).await;
    create(&mut d, &server, "mm", rapid(v1::ChessLaws::Fide2023))
        .await
        .unwrap();
    d.act("mm", chess(Chess::Arrive(WHITE))).await;
    d.act("mm", chess(Chess::Arrive(BLACK))).await;
    // White's 25 minutes: he makes his move a second before his flag, and never presses.
    server.time.advance(25 * 60_000 - 1_000);
    d.act("mm", chess(Chess::MoveMade(WHITE))).await;
    d.refused(
        "mm",
        chess(Chess::MoveMade(BLACK)),
        Code::FailedPrecondition,
    )
    .await;
    server.time.advance(2_000);
    let s = d
        .until("mm", |s| s.phase == v1::MatchPhase::Over as i32)
        .await;
    assert_eq!(
        s.result.unwrap().winner,
        v1::Side::B as i32,
        "his flag fell"
    );
    // The made move was mate: it ended the game before the flag (6.2 (a), 5.1 (a)).
    let s = d.act("mm", chess(Chess::Checkmate(WHITE))).await;
    assert_eq!(s.result.unwrap().winner, v1::Side::A as i32);
}
