//! The rules after corrections, and the rules the first build could not express: each
//! hole an outside client found (issue 17), tested by the article it breaks.

#[path = "backgammon/harness.rs"]
mod harness;

use baffle_core::backgammon::setup::DiceSource;
use baffle_core::backgammon::{
    AppealDecision, Change, Command, DirectorAction, MatchEnd, MatchSetup, PlayerRequest, Turn,
    VoidReason, WinKind,
};
use baffle_core::clock::PauseReason;
use baffle_core::{Millis, Timestamp};
use harness::{A, B, Table};

const MIN: i64 = 60_000;

// ---------- 4.4 (iv), 4.6: Crawford on the corrected record ----------

#[test]
fn rule_4_4_iv_crawford_is_decided_on_the_corrected_record() {
    // 3-point match: B wins game 1 with a gammon (0-2), game 2 is Crawford, A wins it (1-2).
    let mut t = Table::seated(3);
    t.quick_game(B, WinKind::Gammon);
    t.quick_game(A, WinKind::Single);
    assert!(t.m.games()[1].crawford);
    // Game 1 was a single: 1-1, and game 2 began at 0-1 — it was not the Crawford game.
    t.director(DirectorAction::CorrectResult {
        game: 1,
        winner: B,
        kind: WinKind::Single,
    });
    assert_eq!((t.m.score(A), t.m.score(B)), (1, 1));
    assert!(
        !t.m.games()[1].crawford,
        "0-1 in a 3-point match is no one away"
    );
    // At 1-1 nobody is one away: a normal game, which A wins (2-1).
    t.wait(1_000).opening([6, 1]);
    assert!(!t.m.game().unwrap().crawford);
    t.wait(5_000).press(A);
    t.wait(1_000).ok(Command::EndGame {
        winner: A,
        kind: WinKind::Single,
    });
    // 2-1: the first game with a player one point away on the corrected record.
    t.wait(1_000).opening([6, 1]);
    assert!(
        t.m.game().unwrap().crawford,
        "the game at 2-1 is the Crawford game"
    );
    t.wait(5_000).press(A);
    assert_eq!(t.err(Command::Double { side: B }).article, "4.4 (iv)");
}

#[test]
fn rule_4_4_iv_a_correction_that_reveals_the_crawford_game_in_progress_removes_the_cube() {
    let mut t = Table::seated(5);
    t.quick_game(A, WinKind::Gammon); // 2-0
    t.wait(1_000).opening([6, 1]); // not Crawford
    assert!(t.m.game().unwrap().cube.is_some());
    // Game 1 was a backgammon: 3-0 before this game... still not one away in 5.
    t.director(DirectorAction::CorrectResult {
        game: 1,
        winner: A,
        kind: WinKind::Backgammon,
    });
    assert!(!t.m.game().unwrap().crawford);
    // ... but the score announced before this game was 4-0: this is the Crawford game.
    t.director(DirectorAction::CorrectScore { a: 4, b: 0 });
    let game = t.m.game().unwrap();
    assert!(game.crawford && game.cube.is_none());
    // And undone: back to 3-0, the centred cube returns.
    t.director(DirectorAction::CorrectScore { a: 3, b: 0 });
    let game = t.m.game().unwrap();
    assert!(!game.crawford && game.cube.is_some());
}

// ---------- 4.4 (iv), (vii): only a void double is voided ----------

#[test]
fn rule_4_4_iv_a_double_in_a_game_that_is_not_crawford_cannot_be_voided_as_crawford() {
    let mut t = Table::seated(5);
    t.wait(1_000).opening([6, 1]);
    t.wait(5_000).press(A);
    t.double_take(B);
    let e = t.director_err(DirectorAction::VoidDouble {
        reason: VoidReason::Crawford,
    });
    assert_eq!(e.article, "4.4 (iv)");
    assert!(e.message.contains("not the Crawford game"), "{e}");
    // The game did not become a Crawford game either.
    assert!(!t.m.game().unwrap().crawford);
}

#[test]
fn rule_4_4_vii_a_live_redouble_is_not_voided_as_dead() {
    let mut t = Table::seated(9);
    t.wait(1_000).opening([6, 1]);
    t.wait(5_000).press(A);
    t.double_take(B); // A owns 2
    t.turn(B, [1, 2]);
    t.double_take(A); // B owns 4, needs 9: alive
    let e = t.director_err(DirectorAction::VoidDouble {
        reason: VoidReason::DeadCube,
    });
    assert_eq!(e.article, "4.4 (vii)");
    assert_eq!(t.m.game().unwrap().cube.unwrap().value, 4);
}

// ---------- 4.3 (ii): pause reasons that fit ----------

#[test]
fn rule_4_3_ii_a_mid_game_pause_for_game_over_or_break_is_refused() {
    let mut t = Table::seated(5);
    t.wait(1_000).opening([6, 1]);
    for reason in [PauseReason::GameOver, PauseReason::Break] {
        let e = t.err(Command::Pause { reason });
        assert_eq!(e.article, "4.3 (ii)", "{e}");
    }
    // Server dice are never invalid (4.1 (iv)): no pause for an invalid roll either.
    assert_eq!(
        t.err(Command::Pause {
            reason: PauseReason::InvalidRoll
        })
        .article,
        "4.3 (ii)"
    );
    t.ok(Command::Pause {
        reason: PauseReason::DirectorCalled,
    });
}

#[test]
fn rule_4_3_ii_between_games_the_reasons_of_play_do_not_fit() {
    let mut t = Table::seated(5);
    t.quick_game(A, WinKind::Single);
    // The reason fits; the clock already stopped with the game (4.3 (ii)(a)).
    let e = t.err(Command::Pause {
        reason: PauseReason::GameOver,
    });
    assert!(e.message.contains("not running"), "{e}");
    let e = t.err(Command::Pause {
        reason: PauseReason::IllegalMoveReplay,
    });
    assert!(e.message.contains("no game is in progress"), "{e}");
}

// ---------- 2.2: both players late ----------

#[test]
fn rule_2_2_simultaneous_lateness_points_are_awarded_together() {
    // 7-point match, both 15 minutes late: three points each, and 3 is not over 3.5.
    let mut t = Table::new(MatchSetup::new(["a", "b"], 7, Timestamp(0)));
    t.at(15 * MIN).ok(Command::Tick);
    assert_eq!((t.m.score(A), t.m.score(B)), (3, 3));
    assert!(t.m.result().is_none());
}

#[test]
fn rule_2_2_both_passing_half_the_length_at_once_is_for_the_director_to_decide() {
    // 5-point match, both 15 minutes late: at 15:00 each has received 3 > 2.5.
    let mut t = Table::new(MatchSetup::new(["a", "b"], 5, Timestamp(0)));
    let events = t.at(15 * MIN).ok(Command::Tick);
    assert_eq!(
        Table::kinds(&events)[4..],
        ["lateness_point", "lateness_point", "match_undecided"]
    );
    assert_eq!((t.m.score(A), t.m.score(B)), (3, 3), "B's third point too");
    assert!(t.m.awaiting_decision() && t.m.result().is_none());
    assert_eq!(
        t.m.next_due(),
        None,
        "no more lateness while the director decides"
    );
    let e = t.at(16 * MIN).err(Command::CheckIn { side: A });
    assert_eq!(e.article, "2.2");
    t.director(DirectorAction::DecideMatch { winner: B });
    let r = t.m.result().unwrap();
    assert_eq!((r.winner, r.how), (B, MatchEnd::DirectorDecision));
    assert!(!t.m.awaiting_decision());
}

#[test]
fn rule_2_2_the_side_order_does_not_decide_simultaneous_penalties() {
    // Both absent: whatever the length, the points fall in pairs and neither side wins
    // by being folded first.
    for length in 1..=11 {
        let mut t = Table::new(MatchSetup::new(["a", "b"], length, Timestamp(0)));
        t.at(120 * MIN).ok(Command::Tick);
        assert_eq!(t.m.score(A), t.m.score(B), "{length} points");
        assert!(
            t.m.result().is_none(),
            "{length} points: no side wins by order"
        );
        assert!(t.m.awaiting_decision(), "{length} points");
    }
}

// ---------- 4.7: impossible scores ----------

#[test]
fn rule_4_7_an_impossible_score_is_refused() {
    let mut t = Table::seated(5);
    let e = t.director_err(DirectorAction::CorrectScore {
        a: 1_000_000_000,
        b: 0,
    });
    assert!(e.invalid && e.article == "4.7", "{e}");
    let e = t.director_err(DirectorAction::CorrectScore { a: 5, b: 5 });
    assert!(e.message.contains("only one player can have won"), "{e}");
    // A score past the length by what one game can bring is a win.
    t.director(DirectorAction::CorrectScore { a: 6, b: 2 });
    assert_eq!(t.m.result().unwrap().winner, A);
}

// ---------- 4.3 (v), 3.7, 3.5: bounded times ----------

#[test]
fn rule_4_3_v_a_time_adjustment_out_of_bounds_is_refused_and_changes_nothing() {
    let mut t = Table::seated(5);
    t.wait(1_000).opening([6, 1]);
    for delta in [i64::MAX, i64::MIN, 7 * 24 * 60 * MIN + 1] {
        let e = t.director_err(DirectorAction::AdjustTime {
            side: A,
            delta: Millis(delta),
        });
        assert!(e.invalid, "{e}");
    }
    let e = t.director_err(DirectorAction::SetTime {
        side: A,
        time: Millis(i64::MAX),
    });
    assert!(e.invalid && e.article == "3.7", "{e}");
    // A week is within the arithmetic's bound but not the clock's: a clock holds at most
    // the match time given (10 minutes here), and an adjustment never empties it.
    for delta in [7 * 24 * 60 * MIN, 10 * MIN, -10 * MIN] {
        let e = t.director_err(DirectorAction::AdjustTime {
            side: A,
            delta: Millis(delta),
        });
        assert!(e.invalid && e.article == "4.3 (v)", "{e}");
    }
    t.director(DirectorAction::AdjustTime {
        side: A,
        delta: Millis(-MIN),
    });
    assert!(t.m.result().is_none());
}

#[test]
fn rule_3_5_a_clock_with_a_huge_time_per_point_is_refused() {
    let mut setup = MatchSetup::new(["a", "b"], 999, Timestamp(0));
    setup.clock.as_mut().unwrap().per_point = Millis(i64::MAX / 2);
    let e = baffle_core::backgammon::Match::new(setup).unwrap_err();
    assert!(e.invalid && e.article == "3.5", "{e}");
    let mut t = Table::seated(5);
    t.director(DirectorAction::RemoveClock);
    let e = t.director_err(DirectorAction::ImposeClock {
        per_point: Millis(-1),
        delay: Millis::secs(12),
    });
    assert!(e.invalid, "{e}");
}

#[test]
fn rule_2_2_a_schedule_outside_the_window_is_refused() {
    use baffle_core::backgammon::setup::check_schedule;
    let now = Timestamp(1_795_000_000_000); // November 2026
    assert!(check_schedule(Timestamp(-5), now).unwrap_err().invalid);
    assert!(check_schedule(Timestamp(now.as_ms() / 1_000), now).is_err());
    assert!(check_schedule(now, now).is_ok());
    assert!(check_schedule(Timestamp(now.as_ms() - 60 * MIN), now).is_ok());
}

// ---------- rules the first build could not express ----------

#[test]
fn rule_2_2_the_director_ends_a_break_early() {
    let mut t = Table::seated(7);
    t.quick_game(A, WinKind::Single);
    t.ok(Command::TakeBreak { side: B });
    t.wait(MIN).director(DirectorAction::EndBreak);
    assert_eq!(t.m.break_until(), None);
    // B is late from now: his first lateness point falls 5 minutes on.
    let (at, _) = t.m.next_due().unwrap();
    assert_eq!(at, Timestamp(t.now) + Millis::mins(5));
    assert!(
        t.director_err(DirectorAction::EndBreak)
            .message
            .contains("no break")
    );
}

#[test]
fn rule_2_2_the_director_grants_a_break_as_an_exception() {
    let mut t = Table::seated(7); // one break each
    t.quick_game(A, WinKind::Single);
    t.ok(Command::TakeBreak { side: B });
    assert_eq!(t.m.breaks_left(B), 0);
    t.director(DirectorAction::GrantBreak { side: B });
    assert_eq!(t.m.breaks_left(B), 0, "an exception is not counted");
    assert_eq!(t.m.break_until(), Some(Timestamp(t.now) + Millis::mins(10)));
    t.wait(20 * MIN).ok(Command::CheckIn { side: B });
    t.wait(1_000).opening([6, 1]);
    assert_eq!(
        t.director_err(DirectorAction::GrantBreak { side: A })
            .article,
        "2.2"
    );
}

#[test]
fn rule_2_2_leaving_the_table_mid_game_counts_as_a_break() {
    let mut t = Table::seated(7);
    t.wait(1_000).opening([6, 1]);
    t.director(DirectorAction::LeftTable { side: A });
    assert_eq!(t.m.breaks_left(A), 0);
    t.wait(5_000).press(A);
    t.wait(1_000).ok(Command::EndGame {
        winner: B,
        kind: WinKind::Single,
    });
    let e = t.err(Command::TakeBreak { side: A });
    assert!(e.message.contains("has had his 1 break"), "{e}");
}

#[test]
fn rule_2_2_a_best_of_three_series_breaks_only_between_matches() {
    let mut setup = MatchSetup::new(["a", "b"], 5, Timestamp(0));
    setup.series_match = Some(2);
    let mut t = Table::new(setup.clone());
    // Before match 2 begins: between matches of the series.
    t.ok(Command::TakeBreak { side: A });
    t.at(5 * MIN).ok(Command::CheckIn { side: A });
    t.ok(Command::CheckIn { side: B });
    t.quick_game(A, WinKind::Single);
    let e = t.err(Command::TakeBreak { side: B });
    assert!(e.message.contains("best-of-three"), "{e}");
    // The first match of a series has no match before it.
    setup.series_match = Some(1);
    assert_eq!(
        Table::new(setup)
            .err(Command::TakeBreak { side: A })
            .article,
        "2.2"
    );
}

#[test]
fn rule_4_2_i_a_closed_out_player_presses_back_without_rolling() {
    let mut t = Table::seated(5);
    t.wait(1_000).opening([6, 1]);
    t.wait(5_000).press(A);
    // B is on the bar against a closed board: he presses back, nothing is rolled.
    let events = t.wait(2_000).ok(Command::PressBack { side: B });
    assert_eq!(Table::kinds(&events), ["pressed_back"]);
    assert_eq!(
        t.m.game().unwrap().turn,
        Turn::OnRoll {
            side: A,
            may_double: true
        }
    );
    assert_eq!(t.m.clock().unwrap().running(), Some(A));
    // Not out of turn, and not after rolling.
    assert_eq!(t.err(Command::PressBack { side: B }).article, "4.2 (i)");
    t.roll(A, [3, 3]);
    assert_eq!(t.err(Command::PressBack { side: A }).article, "4.2 (i)");
}

#[test]
fn rule_3_4_the_dice_change_between_games_and_a_baffle_box_is_imposed() {
    let mut t = Table::seated(7);
    t.quick_game(A, WinKind::Single);
    t.director(DirectorAction::ChangeDice {
        source: DiceSource::Physical,
        baffle_box: true,
    });
    assert!(t.m.baffle_box() && t.m.dice() == DiceSource::Physical);
    // Server dice are refused now; reported dice are taken.
    t.wait(1_000);
    assert!(
        t.err(Command::OpeningThrow {
            throw: [6, 1],
            source: DiceSource::Server,
        })
        .message
        .contains("physically rolled")
    );
    t.ok(Command::OpeningThrow {
        throw: [6, 1],
        source: DiceSource::Physical,
    });
    let e = t.director_err(DirectorAction::ChangeDice {
        source: DiceSource::Server,
        baffle_box: false,
    });
    assert_eq!(e.article, "3.4");
    // A baffle box is for dice at the table.
    let mut t = Table::seated(7);
    let e = t.director_err(DirectorAction::ChangeDice {
        source: DiceSource::Server,
        baffle_box: true,
    });
    assert!(e.invalid && e.article == "2.4");
}

#[test]
fn rule_2_3_a_players_request_for_a_clock_or_an_observer_is_recorded() {
    let mut t = Table::seated(7);
    t.director(DirectorAction::RemoveClock);
    t.ok(Command::Request {
        side: A,
        what: PlayerRequest::Clock,
    });
    t.ok(Command::Request {
        side: B,
        what: PlayerRequest::Observer,
    });
    assert_eq!(
        t.m.requests(),
        [(A, PlayerRequest::Clock), (B, PlayerRequest::Observer)]
    );
    t.director(DirectorAction::ImposeClock {
        per_point: Millis::mins(2),
        delay: Millis::secs(12),
    });
    // A clock cannot be asked for twice.
    assert!(
        t.err(Command::Request {
            side: B,
            what: PlayerRequest::Clock
        })
        .message
        .contains("already has a clock")
    );
}

#[test]
fn rule_5_an_appeal_and_the_committees_decision_are_recorded() {
    let mut t = Table::seated(7);
    t.director(DirectorAction::Warning { side: A }); // ruling 1
    t.director(DirectorAction::AwardPoints { to: B, points: 1 }); // ruling 2
    let e = t.err(Command::Appeal {
        side: A,
        ruling: 3,
        grounds: "no reason given".into(),
    });
    assert!(!e.invalid && e.article == "5", "no ruling 3 yet: {e}");
    let e = t.err(Command::Appeal {
        side: A,
        ruling: 0,
        grounds: "no reason given".into(),
    });
    assert!(e.invalid, "{e}");
    assert!(
        t.err(Command::Appeal {
            side: A,
            ruling: 2,
            grounds: " ".into(),
        })
        .invalid
    );
    t.ok(Command::Appeal {
        side: A,
        ruling: 2,
        grounds: "I was at the table at 5:00".into(),
    });
    // A committee of 3 decides by simple majority.
    let decide = |votes_for, committee| DirectorAction::DecideAppeal {
        appeal: 1,
        decision: AppealDecision::Overturn,
        committee,
        votes_for,
    };
    assert!(
        t.director_err(decide(1, 3))
            .message
            .contains("simple majority")
    );
    assert!(t.director_err(decide(2, 4)).message.contains("3 or 5"));
    t.director(decide(2, 3));
    assert_eq!(t.m.appeals()[0].decision, Some(AppealDecision::Overturn));
    assert!(
        t.director_err(decide(3, 3))
            .message
            .contains("decided already")
    );
    // The overturned award is carried out by the director's correction.
    t.director(DirectorAction::DeductPoints { from: B, points: 1 });
    assert_eq!(t.m.score(B), 0);
}

#[test]
fn rule_5_a_ruling_may_be_appealed_after_the_match() {
    let mut t = Table::seated(1);
    t.director(DirectorAction::ForfeitMatch { loser: A });
    assert!(t.m.result().is_some());
    t.ok(Command::Appeal {
        side: A,
        ruling: 1,
        grounds: "the forfeit was for the wrong player".into(),
    });
    let events = t.director(DirectorAction::DecideAppeal {
        appeal: 1,
        decision: AppealDecision::Confirm,
        committee: 5,
        votes_for: 3,
    });
    assert!(matches!(events[0].change, Change::Ruled { .. }));
}

// ---------- §1: what follows an expiry ----------

#[test]
fn rule_4_3_iv_after_usbgf_overtime_the_clock_restarts_with_a_fresh_delay() {
    let mut setup = MatchSetup::new(["a", "b"], 1, Timestamp(0));
    setup.timeout = baffle_core::backgammon::TimeoutPolicy::UsbgfOvertime {
        overtime: Millis::mins(1),
    };
    let mut t = Table::new(setup);
    t.ok(Command::CheckIn { side: A });
    t.ok(Command::CheckIn { side: B });
    t.at(1_000).opening([6, 1]); // A's clock: 12 s delay, then 2:00
    let flag = 1_000 + 12_000 + 120_000;
    t.at(flag).ok(Command::Tick);
    let view = t.m.clock().unwrap().view(A, Timestamp(flag));
    assert_eq!((view.delay, view.main), (Millis::secs(12), Millis::mins(1)));
    assert!(t.m.result().is_none());
}
