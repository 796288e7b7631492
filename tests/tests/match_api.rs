//! A real tournament room through the gRPC API, on loopback, with the clock injected.

use baffle_proto::v1;
use baffle_proto::v1::WinKind::{Gammon, Single};
use baffle_proto::v1::command::Action;
use baffle_tests::api::{A, B, Director, defaults, opening, result, roll};
use baffle_tests::{EPOCH, TestServer};
use tonic::Code;

const MIN: i64 = 60_000;

/// A complete clocked 5-point match: lateness points from the scheduled start, cube
/// actions, a pass, a gammon, the Crawford game with its double refused, post-Crawford
/// doubling, and the match's end.
#[tokio::test]
async fn a_complete_five_point_match() {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(0, None, v1::DiceSource::Physical))
        .await;
    let start = EPOCH.as_ms() + MIN;
    let s = d.create_match("open", "r1-t7", 5, start).await;
    assert_eq!(
        (s.phase, s.length, s.score_a),
        (v1::MatchPhase::Waiting as i32, 5, 0)
    );
    assert_eq!(s.clock.as_ref().unwrap().a.unwrap().main_ms, 10 * MIN);
    assert_eq!(
        s.next_due_ms,
        Some(start + 5 * MIN),
        "the first lateness point is due 5 min after the start"
    );

    // Anna is on time; Ben arrives 6 minutes late: one penalty point to Anna (2.2).
    d.act("r1-t7", Action::CheckIn(A)).await;
    server.time.advance(7 * MIN);
    let s = d.until("r1-t7", |s| s.score_a == 1).await;
    assert_eq!(s.penalty_points, [1, 0]);
    d.act("r1-t7", Action::CheckIn(B)).await;

    // Game 1: Ben doubles, Anna passes: 1-1.
    let s = d.act("r1-t7", opening(6, 1)).await;
    assert_eq!((s.turn, s.turn_side), (v1::TurnPhase::Moving as i32, A));
    server.time.advance(20_000);
    let s = d.act("r1-t7", Action::Press(A)).await;
    let a = s.clock.unwrap().a.unwrap();
    assert_eq!(a.main_ms, 10 * MIN - 8_000, "20 s thought, 12 s of delay");
    d.act("r1-t7", Action::Double(B)).await;
    let s = d.act("r1-t7", Action::Pass(A)).await;
    assert_eq!(
        (s.score_a, s.score_b, s.phase),
        (1, 1, v1::MatchPhase::BetweenGames as i32)
    );

    // Game 2: Ben wins a gammon with the cube in the middle: 1-3.
    d.act("r1-t7", opening(6, 1)).await;
    d.act("r1-t7", Action::Press(A)).await;
    d.act("r1-t7", roll(B, 3, 4)).await;
    let s = d.act("r1-t7", Action::EndGame(result(B, Gammon))).await;
    assert_eq!((s.score_a, s.score_b), (1, 3));

    // Game 3: Anna doubles, Ben takes, Anna wins single at 2: 3-3.
    d.act("r1-t7", opening(6, 1)).await;
    d.act("r1-t7", Action::Press(A)).await;
    d.act("r1-t7", roll(B, 2, 2)).await;
    d.act("r1-t7", Action::Press(B)).await;
    d.act("r1-t7", Action::Double(A)).await;
    let s = d.act("r1-t7", Action::Take(B)).await;
    assert_eq!((s.cube_value, s.cube_owner), (2, B));
    d.act("r1-t7", roll(A, 5, 1)).await;
    let s = d.act("r1-t7", Action::EndGame(result(A, Single))).await;
    assert_eq!((s.score_a, s.score_b), (3, 3));

    // Game 4: Ben wins a single: 3-4.
    d.act("r1-t7", opening(6, 1)).await;
    let s = d.act("r1-t7", Action::EndGame(result(B, Single))).await;
    assert_eq!((s.score_a, s.score_b), (3, 4));

    // Game 5 is the Crawford game: no doubling.
    let s = d.act("r1-t7", opening(6, 1)).await;
    assert!(s.crawford);
    d.act("r1-t7", Action::Press(A)).await;
    d.act("r1-t7", roll(B, 6, 5)).await;
    d.act("r1-t7", Action::Press(B)).await;
    let why = d
        .refused("r1-t7", Action::Double(A), Code::FailedPrecondition)
        .await;
    assert!(
        why.contains("Crawford game") && why.contains("4.4 (iv)"),
        "{why}"
    );
    let s = d.act("r1-t7", Action::EndGame(result(A, Single))).await;
    assert_eq!((s.score_a, s.score_b), (4, 4));

    // Game 6, post-Crawford: doubling again; Anna wins at 2 and the match.
    let s = d.act("r1-t7", opening(6, 1)).await;
    assert!(!s.crawford && s.post_crawford);
    d.act("r1-t7", Action::Press(A)).await;
    d.act("r1-t7", Action::Double(B)).await;
    d.act("r1-t7", Action::Take(A)).await;
    d.act("r1-t7", roll(B, 1, 2)).await;
    d.act("r1-t7", Action::Press(B)).await;
    d.act("r1-t7", roll(A, 4, 4)).await;
    let s = d.act("r1-t7", Action::EndGame(result(A, Single))).await;
    assert_eq!(
        (s.score_a, s.score_b, s.phase),
        (6, 4, v1::MatchPhase::Over as i32)
    );
    let r = s.result.unwrap();
    assert_eq!(
        (r.winner, r.how.as_str(), r.confirmed),
        (A, "points", false)
    );
    let s = d.act("r1-t7", Action::ConfirmResult(v1::Empty {})).await;
    assert!(s.result.unwrap().confirmed);
    let why = d
        .refused("r1-t7", opening(6, 1), Code::FailedPrecondition)
        .await;
    assert!(why.contains("4.6"), "{why}");
    server.stop().await;
}

/// A match on a short clock: 1 s per point and 12 s delay, so the reserve of a 3-point
/// match is 3 s.
async fn short_clock(policy: Option<v1::timeout_policy::Policy>) -> (TestServer, Director, i64) {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("blitz", defaults(1_000, policy, v1::DiceSource::Physical))
        .await;
    d.create_match("blitz", "m", 3, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    d.act("m", Action::CheckIn(B)).await;
    let s = d.act("m", opening(6, 1)).await;
    let flag = s.clock.unwrap().next_flag_at_ms.unwrap();
    assert_eq!(flag, EPOCH.as_ms() + 12_000 + 3_000);
    (server, d, flag)
}

#[tokio::test]
async fn a_time_out_loses_the_match_at_the_flag() {
    let (server, mut d, flag) = short_clock(None).await;
    server.time.advance(flag - EPOCH.as_ms() + 50);
    let s = d.until("m", |s| s.result.is_some()).await;
    let r = s.result.unwrap();
    assert_eq!((r.winner, r.how.as_str()), (B, "timeout"));
    assert_eq!(
        s.clock.unwrap().first_flag.unwrap().at_ms,
        flag,
        "the exact instant"
    );
    server.stop().await;
}

#[tokio::test]
async fn usbgf_overtime_then_a_second_expiry_loses() {
    let (server, mut d, flag) =
        short_clock(Some(v1::timeout_policy::Policy::UsbgfOvertimeMs(60_000))).await;
    server.time.advance(flag - EPOCH.as_ms());
    let s = d
        .until("m", |s| {
            s.clock
                .as_ref()
                .is_some_and(|c| c.next_flag_at_ms == Some(flag + 12_000 + 60_000))
        })
        .await;
    assert!(s.result.is_none(), "play goes on in overtime");
    server.time.advance(12_000 + 60_000);
    let s = d.until("m", |s| s.result.is_some()).await;
    assert_eq!(s.result.unwrap().how, "timeout");
    server.stop().await;
}

#[tokio::test]
async fn penalty_point_time_out_awards_points_and_halves_the_reserve() {
    let (server, mut d, flag) =
        short_clock(Some(v1::timeout_policy::Policy::PenaltyPoints(1))).await;
    server.time.advance(flag - EPOCH.as_ms());
    let s = d.until("m", |s| s.score_b == 1).await;
    assert!(s.result.is_none());
    assert_eq!(s.clock.unwrap().a.unwrap().main_ms, 1_500, "half of 3 s");
    server.stop().await;
}
