//! The rules holes an outside client found (issue 17), each driven through the gRPC API
//! as that client did, named by the article it concerns.

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_tests::api::{A, B, Director, defaults, opening, result, roll};
use baffle_tests::{EPOCH, TestServer};
use tonic::Code;

const MIN: i64 = 60_000;

async fn room(dice: v1::DiceSource) -> (TestServer, Director) {
    let server = TestServer::start().await;
    let mut d = Director::connect(&server).await;
    d.tournament("open", defaults(120_000, None, dice)).await;
    (server, d)
}

async fn seated(d: &mut Director, id: &str, length: u32) {
    d.create_match("open", id, length, EPOCH.as_ms()).await;
    d.act(id, Action::CheckIn(A)).await;
    d.act(id, Action::CheckIn(B)).await;
}

/// A game of reported dice from the opening to `winner`'s `kind`, A moving first.
async fn quick_game(d: &mut Director, id: &str, winner: i32, kind: v1::WinKind) {
    d.act(id, opening(6, 1)).await;
    d.act(id, Action::Press(A)).await;
    d.act(id, Action::EndGame(result(winner, kind))).await;
}

#[tokio::test]
async fn rule_4_4_iv_crawford_after_a_corrected_result_through_the_api() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    seated(&mut d, "m", 3).await;
    quick_game(&mut d, "m", B, v1::WinKind::Gammon).await; // 0-2
    d.act("m", opening(6, 1)).await;
    assert!(d.state("m").await.crawford);
    d.act("m", Action::Press(A)).await;
    d.act("m", Action::EndGame(result(A, v1::WinKind::Single)))
        .await; // 1-2
    let correction = v1::ResultCorrection {
        game: 1,
        result: Some(result(B, v1::WinKind::Single)),
    };
    let s = d.act("m", Action::CorrectResult(correction)).await;
    assert_eq!((s.score_a, s.score_b), (1, 1));
    quick_game(&mut d, "m", A, v1::WinKind::Single).await; // 2-1
    let s = d.act("m", opening(6, 1)).await;
    assert!(s.crawford, "the game at 2-1 is the Crawford game");
    d.act("m", Action::Press(A)).await;
    let m = d
        .refused("m", Action::Double(B), Code::FailedPrecondition)
        .await;
    assert!(m.contains("4.4 (iv)"), "{m}");
}

#[tokio::test]
async fn rule_4_4_iv_vii_only_a_void_double_is_voided() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    seated(&mut d, "m", 5).await;
    d.act("m", opening(6, 1)).await;
    d.act("m", Action::Press(A)).await;
    d.act("m", Action::Double(B)).await;
    d.act("m", Action::Take(A)).await; // A owns 2, needs 5: alive
    for reason in [v1::VoidReason::Crawford, v1::VoidReason::DeadCube] {
        let m = d
            .refused(
                "m",
                Action::VoidDoubleReason(reason as i32),
                Code::FailedPrecondition,
            )
            .await;
        assert!(m.contains("4.4 ("), "{m}");
    }
    let s = d.state("m").await;
    assert!(!s.crawford && s.cube_value == 2);
    d.refused("m", Action::VoidDoubleReason(0), Code::InvalidArgument)
        .await;
}

#[tokio::test]
async fn rule_4_3_ii_pause_reasons_that_do_not_fit_are_refused() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    seated(&mut d, "m", 5).await;
    d.act("m", opening(6, 1)).await;
    for reason in [v1::PauseReason::GameOver, v1::PauseReason::Break] {
        let m = d
            .refused("m", Action::Pause(reason as i32), Code::FailedPrecondition)
            .await;
        assert!(m.contains("4.3 (ii)"), "{m}");
    }
    let s = d
        .act("m", Action::Pause(v1::PauseReason::DirectorCalled as i32))
        .await;
    let clock = s.clock.unwrap();
    assert_eq!(
        clock.running,
        v1::Side::Unspecified as i32,
        "a paused clock runs for nobody"
    );
    assert_eq!(clock.paused_side, A, "A's clock runs again on resume");
}

#[tokio::test]
async fn rule_2_2_both_players_late_points_awarded_together_and_the_director_decides() {
    let (server, mut d) = room(v1::DiceSource::Physical).await;
    d.create_match("open", "m", 5, EPOCH.as_ms()).await;
    server.time.advance(15 * MIN);
    let s = d.until("m", |s| s.awaiting_decision).await;
    assert_eq!((s.score_a, s.score_b), (3, 3), "both third points awarded");
    assert!(s.result.is_none() && s.next_due_ms.is_none());
    let m = d
        .refused("m", Action::CheckIn(A), Code::FailedPrecondition)
        .await;
    assert!(m.contains("2.2"), "{m}");
    let s = d.act("m", Action::DecideMatch(B)).await;
    let r = s.result.unwrap();
    assert_eq!(r.winner, B);
    assert_eq!(r.how_kind, v1::MatchEndKind::DirectorDecision as i32);
    assert_eq!(r.how, "director_decision");
}

/// 2.2: the director moves a match's start before its first game (lateness counts
/// afresh from the time he sets) or puts it off; once a game has started, refused.
#[tokio::test]
async fn rule_2_2_a_match_is_rescheduled_or_put_off_through_the_api() {
    let (server, mut d) = room(v1::DiceSource::Physical).await;
    let at = |start_ms: i64| Action::Reschedule(v1::Reschedule { start_ms });
    d.create_match("open", "m", 7, EPOCH.as_ms()).await;
    d.act("m", Action::CheckIn(A)).await;
    server.time.advance(3 * MIN);
    let later = EPOCH.as_ms() + 60 * MIN;
    let s = d.act("m", at(later)).await;
    assert_eq!(s.scheduled_start_ms, later);
    assert_eq!(s.next_due_ms, Some(later + 5 * MIN));
    // From the old start B would be 14 points late by now; from the new one, 2.
    server.time.advance(67 * MIN);
    let s = d.until("m", |s| s.score_a == 2).await;
    assert!(s.result.is_none());
    let m = d
        .refused("m", at(EPOCH.as_ms()), Code::InvalidArgument)
        .await;
    assert!(m.contains("time already passed"), "{m}");
    let s = d.act("m", at(0)).await;
    assert!(s.postponed && s.next_due_ms.is_none());
    // A match made ahead of time is brought forward before its start, while nobody is
    // at its table: dated when the director ruled, not at the start it waited for.
    let now = EPOCH.as_ms() + 70 * MIN;
    d.create_match("open", "early", 5, now + 60 * MIN).await;
    let s = d.act("early", at(now + 30 * MIN)).await;
    assert_eq!(s.scheduled_start_ms, now + 30 * MIN);
    assert_eq!(s.next_due_ms, Some(now + 35 * MIN));
    // A match begun is not moved.
    d.create_match("open", "n", 5, EPOCH.as_ms() + 70 * MIN)
        .await;
    d.act("n", Action::CheckIn(A)).await;
    d.act("n", Action::CheckIn(B)).await;
    quick_game(&mut d, "n", A, v1::WinKind::Single).await;
    let m = d
        .refused("n", at(later + 60 * MIN), Code::FailedPrecondition)
        .await;
    assert!(m.contains("2.2") && m.contains("begun"), "{m}");
}

#[tokio::test]
async fn rule_4_7_impossible_scores_and_rule_4_3_v_overflowing_times_are_invalid() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    seated(&mut d, "m", 5).await;
    for (a, b) in [(1_000_000_000, 0), (5, 5)] {
        let m = d
            .refused(
                "m",
                Action::CorrectScore(v1::Score { a, b }),
                Code::InvalidArgument,
            )
            .await;
        assert!(m.contains("4.7"), "{m}");
    }
    d.act("m", opening(6, 1)).await;
    let before = d.state("m").await;
    for ms in [i64::MAX, i64::MIN] {
        d.refused(
            "m",
            Action::AdjustTime(v1::TimeChange { side: A, ms }),
            Code::InvalidArgument,
        )
        .await;
    }
    let after = d.state("m").await;
    assert_eq!(after.seq, before.seq, "nothing changed");
    assert!(after.result.is_none(), "nobody lost on time");
    let imposed = v1::ImposeClock {
        per_point_ms: -1,
        delay_ms: 12_000,
    };
    d.refused("m", Action::ImposeClock(imposed), Code::InvalidArgument)
        .await;
}

#[tokio::test]
async fn rule_2_2_nonsense_schedules_are_invalid_and_lateness_due_is_in_the_reply() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    let request = |id: &str, start: i64| v1::CreateMatchRequest {
        tournament_id: "open".into(),
        match_id: id.into(),
        player_a: "Anna".into(),
        player_b: "Ben".into(),
        length: 7,
        scheduled_start_ms: start,
        ..Default::default()
    };
    for start in [-5, EPOCH.as_ms() / 1_000, i64::MAX] {
        let e = d
            .tournaments
            .create_match(d.with_token(request("bad", start)))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{start}: {}", e.message());
    }
    // Scheduled 12 minutes ago: two lateness points each are already due.
    let s = d.create(request("late", EPOCH.as_ms() - 12 * MIN)).await;
    assert_eq!((s.score_a, s.score_b), (2, 2));
    assert_eq!(s.next_due_kind, v1::DueKind::LatenessPoint as i32);
    assert_eq!(s.next_due_ms, Some(EPOCH.as_ms() + 3 * MIN));
}

#[tokio::test]
async fn rule_4_8_a_pending_length_correction_is_in_the_state() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    seated(&mut d, "m", 5).await;
    d.act("m", opening(6, 1)).await;
    let s = d.act("m", Action::CorrectLength(7)).await;
    assert_eq!((s.length, s.pending_length), (5, Some(7)));
}

#[tokio::test]
async fn rules_the_api_could_not_express_before() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    seated(&mut d, "m", 7).await;
    // 4.2 (i): a closed-out player presses back without rolling.
    d.act("m", opening(6, 1)).await;
    d.act("m", Action::Press(A)).await;
    let s = d.act("m", Action::PressBack(B)).await;
    assert_eq!((s.turn, s.turn_side), (v1::TurnPhase::OnRoll as i32, A));
    // 2.2: leaving the table mid-game counts as a break.
    let s = d.act("m", Action::LeftTable(B)).await;
    assert_eq!(s.breaks_left, vec![1, 0]);
    d.act("m", roll(A, 3, 1)).await;
    d.act("m", Action::Press(A)).await;
    d.act("m", Action::EndGame(result(A, v1::WinKind::Single)))
        .await;
    // 2.2: an exception, then the director ends it early.
    let s = d.act("m", Action::GrantBreak(B)).await;
    assert!(s.break_until_ms.is_some() && s.breaks_left == vec![1, 0]);
    let s = d.act("m", Action::EndBreak(v1::Empty {})).await;
    assert!(s.break_until_ms.is_none());
    assert_eq!(s.next_due_kind, v1::DueKind::LatenessPoint as i32);
    assert_eq!(s.next_due_side, B);
    // 2.4, 3.4: a baffle box imposed between games.
    let change = v1::DiceChange {
        source: "physical".into(),
        baffle_box: true,
    };
    assert!(d.act("m", Action::ChangeDice(change)).await.baffle_box);
    // 2.3: a player asks for an observer.
    let ask = v1::PlayerRequestCommand {
        side: A,
        what: v1::PlayerRequestKind::Observer as i32,
    };
    let s = d.act("m", Action::Request(ask)).await;
    assert_eq!(s.requests.len(), 1);
    // 5: an appeal of the grant (ruling 2: left_table was 1) and the committee's decision.
    let appeal = v1::AppealCommand {
        side: A,
        ruling: 2,
        grounds: "B had had his break".into(),
    };
    d.act("m", Action::Appeal(appeal)).await;
    let decision = v1::AppealDecisionCommand {
        appeal: 1,
        decision: v1::AppealDecision::Confirm as i32,
        committee: 3,
        votes_for: 2,
    };
    let s = d.act("m", Action::DecideAppeal(decision)).await;
    assert_eq!(s.appeals[0].decision, v1::AppealDecision::Confirm as i32);
}

#[tokio::test]
async fn rule_2_2_a_best_of_three_series_takes_breaks_between_matches_only() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    let s = d
        .create(v1::CreateMatchRequest {
            tournament_id: "open".into(),
            match_id: "s2".into(),
            player_a: "Anna".into(),
            player_b: "Ben".into(),
            length: 5,
            scheduled_start_ms: EPOCH.as_ms(),
            series_match: 2,
            ..Default::default()
        })
        .await;
    assert_eq!(s.series_match, 2);
    d.act("s2", Action::TakeBreak(A)).await;
    let bad = v1::CreateMatchRequest {
        tournament_id: "open".into(),
        match_id: "s4".into(),
        player_a: "Anna".into(),
        player_b: "Ben".into(),
        length: 5,
        series_match: 4,
        ..Default::default()
    };
    let e = d
        .tournaments
        .create_match(d.with_token(bad))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{}", e.message());
}

#[tokio::test]
async fn rule_3_4_a_match_changed_to_server_dice_draws_them_from_its_commitment() {
    let (_server, mut d) = room(v1::DiceSource::Physical).await;
    seated(&mut d, "m", 7).await;
    quick_game(&mut d, "m", A, v1::WinKind::Single).await;
    let change = v1::DiceChange {
        source: "server".into(),
        baffle_box: false,
    };
    let s = d.act("m", Action::ChangeDice(change)).await;
    assert_eq!(s.dice_source, "server");
    let s = d.act("m", baffle_tests::api::server_opening()).await;
    assert_eq!(s.dice.len(), 2, "the server threw the opening");
    let mover = s.turn_side;
    d.act("m", Action::Press(mover)).await;
    let other = if mover == A { B } else { A };
    let s = d.act("m", baffle_tests::api::server_roll(other)).await;
    assert_eq!(s.dice.len(), 2);
    // Reported dice are refused now.
    d.refused("m", roll(mover, 3, 4), Code::InvalidArgument)
        .await;
}
