//! The clock rules of `shared/rules/backgammon.md` and `shared/rules/chess-clock.md`, one
//! test per article, named after it. Time is passed in: nothing here sleeps.

use baffle_core::clock::{
    Clock, ClockError, PauseReason, Period, Stage, TimeControl, TimingMethod,
};
use baffle_core::{Millis, Side, Timestamp};

const A: Side = Side::A;
const B: Side = Side::B;

fn at(ms: i64) -> Timestamp {
    Timestamp(ms)
}

fn secs(s: i64) -> Timestamp {
    Timestamp(s * 1_000)
}

fn bg7() -> Clock {
    let mut c = Clock::new(TimeControl::backgammon_default(7).unwrap(), at(0));
    c.start(A, at(0)).unwrap();
    c
}

fn main_of(c: &Clock, side: Side, now: Timestamp) -> Millis {
    c.view(side, now).main
}

// ---------- backgammon §1: the clock ----------

#[test]
fn backgammon_3_5_reserve_is_match_length_times_time_per_point() {
    let c = Clock::new(TimeControl::backgammon_default(7).unwrap(), at(0));
    assert_eq!(main_of(&c, A, at(0)), Millis::mins(14));
    assert_eq!(main_of(&c, B, at(0)), Millis::mins(14));
    assert_eq!(c.view(A, at(0)).delay, Millis::secs(12));
    let us = TimeControl::backgammon(5, Millis::secs(150), Millis::secs(18)).unwrap();
    let c = Clock::new(us, at(0));
    assert_eq!(main_of(&c, A, at(0)), Millis::ms(750_000));
    assert_eq!(c.view(A, at(0)).delay, Millis::secs(18));
}

#[test]
fn backgammon_3_5_reserve_does_not_run_during_the_delay() {
    let c = bg7();
    assert_eq!(main_of(&c, A, at(11_999)), Millis::mins(14));
    assert_eq!(c.view(A, at(11_999)).delay, Millis::ms(1));
    assert_eq!(main_of(&c, A, at(12_000)), Millis::mins(14));
    assert_eq!(main_of(&c, A, at(12_001)), Millis::mins(14) - Millis::ms(1));
    assert_eq!(c.view(A, at(12_001)).delay, Millis::ZERO);
}

#[test]
fn backgammon_3_5_unused_delay_is_lost_never_accumulated() {
    let mut c = bg7();
    // A presses after 2 s, B after 3 s, A again after 1 s: nobody gains anything.
    c.press(A, secs(2)).unwrap();
    c.press(B, secs(5)).unwrap();
    c.press(A, secs(6)).unwrap();
    assert_eq!(main_of(&c, A, secs(6)), Millis::mins(14));
    assert_eq!(main_of(&c, B, secs(6)), Millis::mins(14));
    // The next turn starts with the full delay again, not 12 s plus what was left.
    assert_eq!(c.view(B, secs(6)).delay, Millis::secs(12));
}

#[test]
fn backgammon_4_2_i_press_ends_the_turn_and_starts_the_opponent() {
    let mut c = bg7();
    c.press(A, secs(20)).unwrap();
    assert_eq!(c.running(), Some(B));
    // A's clock stands still while B's runs.
    assert_eq!(main_of(&c, A, secs(100)), main_of(&c, A, secs(20)));
    assert_eq!(
        main_of(&c, B, secs(100)),
        Millis::mins(14) - Millis::secs(68)
    );
}

#[test]
fn backgammon_4_2_i_only_the_running_side_may_press_and_a_refusal_changes_nothing() {
    let mut c = bg7();
    let before = c.clone();
    let err = c.press(B, secs(3)).unwrap_err();
    assert_eq!(
        err,
        ClockError::NotOnTurn {
            pressed: B,
            running: A
        }
    );
    assert!(err.to_string().contains("4.2 (i)"));
    assert_eq!(c, before);
}

#[test]
fn backgammon_4_4_double_and_take_are_two_presses() {
    // The doubler presses (the taker's clock runs while he decides); the take is a press back.
    let mut c = bg7();
    c.press(A, secs(5)).unwrap(); // double offered
    assert_eq!(c.running(), Some(B));
    c.press(B, secs(25)).unwrap(); // take: B decided in 20 s, 8 s off his reserve
    assert_eq!(c.running(), Some(A));
    assert_eq!(main_of(&c, B, secs(25)), Millis::mins(14) - Millis::secs(8));
}

#[test]
fn backgammon_4_4_pass_stops_the_clock() {
    let mut c = bg7();
    c.press(A, secs(5)).unwrap();
    c.stop(secs(9)).unwrap();
    assert_eq!(c.running(), None);
    assert_eq!(main_of(&c, B, secs(900)), Millis::mins(14));
    assert_eq!(c.next_flag_at(), None);
}

#[test]
fn backgammon_4_3_ii_a_to_g_a_paused_clock_loses_no_time_and_keeps_its_delay() {
    for reason in PauseReason::ALL {
        let mut c = bg7();
        c.pause_for(reason, secs(5)).unwrap();
        assert_eq!(c.pause().unwrap().reason, reason);
        assert_eq!(
            c.next_flag_at(),
            None,
            "{reason}: no flag can fall while paused"
        );
        assert_eq!(main_of(&c, A, secs(3_600)), Millis::mins(14));
        assert_eq!(c.view(A, secs(3_600)).delay, Millis::secs(7));
        c.resume(secs(3_600)).unwrap();
        assert_eq!(c.view(A, secs(3_607)).delay, Millis::ZERO);
        assert_eq!(
            main_of(&c, A, secs(3_610)),
            Millis::mins(14) - Millis::secs(3)
        );
    }
}

#[test]
fn backgammon_4_3_ii_nothing_but_resume_moves_a_paused_clock() {
    let mut c = bg7();
    c.pause_for(PauseReason::DirectorCalled, secs(1)).unwrap();
    assert_eq!(
        c.press(A, secs(2)),
        Err(ClockError::Paused(PauseReason::DirectorCalled))
    );
    assert_eq!(
        c.pause_for(PauseReason::Break, secs(2)),
        Err(ClockError::Paused(PauseReason::DirectorCalled))
    );
    c.resume(secs(3)).unwrap();
    assert_eq!(c.resume(secs(4)), Err(ClockError::NotPaused));
}

#[test]
fn backgammon_4_1_v_b_dice_picked_up_early_opponent_waits_out_the_delay_next_turn() {
    let mut c = bg7();
    // B picks up his dice while A is still moving: A stops the clock, finishes, restarts B's.
    c.pause_for(PauseReason::DicePickedUpEarly, secs(4))
        .unwrap();
    c.wait_out_delay_next_turn(B, secs(4)).unwrap();
    c.resume(secs(30)).unwrap();
    c.press(A, secs(31)).unwrap();
    assert!(c.view(B, secs(31)).must_wait_delay);
    let refused = c.press(B, secs(35)).unwrap_err();
    assert_eq!(
        refused,
        ClockError::MustWaitDelay {
            left: Millis::secs(8)
        }
    );
    assert!(refused.to_string().contains("4.1 (v)(b)"));
    c.press(B, secs(43)).unwrap();
    // Only one turn: B's following turn is normal again.
    c.press(A, secs(44)).unwrap();
    assert!(!c.view(B, secs(44)).must_wait_delay);
    c.press(B, secs(45)).unwrap();
}

#[test]
fn backgammon_4_2_iii_c_illegal_move_replayed_after_the_delay() {
    let mut c = bg7();
    c.press(A, secs(20)).unwrap();
    // B moved illegally; A stops the clock and points it out; B's time restarts.
    c.pause_for(PauseReason::IllegalMoveReplay, secs(30))
        .unwrap();
    c.resume(secs(60)).unwrap();
    c.restart_delay(true, secs(60)).unwrap();
    assert_eq!(c.view(B, secs(60)).delay, Millis::secs(12));
    assert!(matches!(
        c.press(B, secs(65)),
        Err(ClockError::MustWaitDelay { .. })
    ));
    c.press(B, secs(72)).unwrap();
    // B had used 10 s of the first delay, then 12 s of the fresh one: no reserve spent.
    assert_eq!(main_of(&c, B, secs(72)), Millis::mins(14));
}

#[test]
fn backgammon_4_3_vi_invalid_roll_restarts_the_delay() {
    let mut c = bg7();
    c.restart_delay(false, secs(10)).unwrap();
    assert_eq!(c.view(A, secs(10)).delay, Millis::secs(12));
    c.press(A, secs(11)).unwrap(); // no wait imposed
    assert_eq!(main_of(&c, A, secs(11)), Millis::mins(14));
}

#[test]
fn backgammon_4_3_iv_time_expiry_is_known_to_the_millisecond() {
    let mut c = bg7();
    let flag = c.next_flag_at().unwrap();
    assert_eq!(flag, at(12_000 + 14 * 60_000));
    assert_eq!(c.view(A, flag - Millis::ms(1)).flagged_at, None);
    assert_eq!(c.view(A, flag).flagged_at, Some(flag));
    assert_eq!(main_of(&c, A, flag), Millis::ZERO);
    // Pressing 1 ms before the flag is in time; at the flag it is not.
    let mut late = c.clone();
    c.press(A, flag - Millis::ms(1)).unwrap();
    assert!(matches!(
        late.press(A, flag),
        Err(ClockError::Frozen { side: A, .. })
    ));
    assert_eq!(late.at(flag).first_flag().unwrap().at, flag);
}

#[test]
fn backgammon_3_5_vi_clock_imposed_mid_match_gives_both_the_same_allotment() {
    // 11-point match at 3-5: PA = 8, PB = 6, (8 + 6) / 2 x 2 min = 14 min each.
    let mut c = Clock::new(TimeControl::backgammon_default(11).unwrap(), at(0));
    c.start(A, at(0)).unwrap();
    c.press(A, secs(100)).unwrap();
    assert_eq!(
        c.impose(Millis::mins(14), secs(120)),
        Err(ClockError::AlreadyRunning(B))
    );
    c.stop(secs(120)).unwrap();
    c.impose(Millis::mins(14), secs(120)).unwrap();
    assert_eq!(main_of(&c, A, secs(120)), Millis::mins(14));
    assert_eq!(main_of(&c, B, secs(120)), Millis::mins(14));
    assert_eq!(c.view(A, secs(120)).moves, 0);
}

#[test]
fn backgammon_4_3_v_wrong_activation_time_restored() {
    let mut c = bg7();
    c.press(A, secs(1)).unwrap();
    // B's clock ran for 2 minutes without him knowing; the director gives 108 s back.
    c.pause_for(PauseReason::DirectorCalled, secs(121)).unwrap();
    assert_eq!(
        main_of(&c, B, secs(121)),
        Millis::mins(14) - Millis::secs(108)
    );
    c.adjust(B, Millis::secs(108), secs(130)).unwrap();
    assert_eq!(main_of(&c, B, secs(130)), Millis::mins(14));
}

#[test]
fn backgammon_2_2_director_time_deduction_can_make_the_flag_fall_now() {
    let mut c = bg7();
    c.press(A, secs(1)).unwrap();
    c.adjust(A, -Millis::mins(20), secs(5)).unwrap();
    assert_eq!(c.view(A, secs(5)).flagged_at, Some(secs(5)));
    assert_eq!(c.first_flag().unwrap().side, A);
    assert!(c.is_frozen());
}

#[test]
fn usbgf_overtime_added_time_clears_the_flag_and_play_goes_on() {
    let mut c = bg7();
    let flag = c.next_flag_at().unwrap();
    c.adjust(A, Millis::mins(1), flag + Millis::secs(3))
        .unwrap();
    assert!(!c.is_frozen());
    assert_eq!(
        c.first_flag().unwrap().at,
        flag,
        "the first expiry stays on record"
    );
    c.start(A, flag + Millis::secs(3)).unwrap();
    assert_eq!(c.next_flag_at(), Some(flag + Millis::secs(3 + 12 + 60)));
}

// ---------- chess Article 6 ----------

#[test]
fn chess_6_1_only_one_display_runs_at_a_time() {
    let mut c = Clock::new(TimeControl::rapid(), at(0));
    c.start(A, at(0)).unwrap();
    let b0 = main_of(&c, B, at(0));
    assert_eq!(main_of(&c, B, secs(50)), b0);
    c.press(A, secs(50)).unwrap();
    let a1 = main_of(&c, A, secs(50));
    assert_eq!(main_of(&c, A, secs(80)), a1);
    assert_eq!(main_of(&c, B, secs(80)), b0 - Millis::secs(30));
}

#[test]
fn chess_6_2_the_press_completes_the_move_and_counts_it() {
    let mut c = Clock::new(TimeControl::rapid(), at(0));
    c.start(A, at(0)).unwrap();
    c.press(A, secs(5)).unwrap();
    c.press(B, secs(9)).unwrap();
    c.press(A, secs(12)).unwrap();
    assert_eq!(c.view(A, secs(12)).moves, 2);
    assert_eq!(c.view(B, secs(12)).moves, 1);
}

#[test]
fn chess_6_3_a_fischer_dgt_adds_the_first_increment_before_the_start() {
    // The DGT 3000 shows 3:02 for "3 min + 2 s" before the game starts.
    let mut c = Clock::new(TimeControl::blitz(), at(0));
    assert_eq!(main_of(&c, A, at(0)), Millis::secs(182));
    c.start(A, at(0)).unwrap();
    c.press(A, secs(5)).unwrap();
    assert_eq!(main_of(&c, A, secs(5)), Millis::secs(179));
    // A quick move gains time.
    c.press(B, secs(6)).unwrap();
    assert_eq!(main_of(&c, B, secs(6)), Millis::secs(183));
}

#[test]
fn chess_6_3_b_saved_time_is_carried_into_the_next_period() {
    // FIDE classical: 90 min / 40 moves, then 30 min, 30 s per move from move 1.
    let mut c = Clock::new(TimeControl::fide_classical(), at(0));
    assert_eq!(main_of(&c, A, at(0)), Millis::mins(90) + Millis::secs(30));
    c.start(A, at(0)).unwrap();
    let mut now = 0;
    for _ in 0..40 {
        now += 60_000; // A thinks a minute
        c.press(A, at(now)).unwrap();
        now += 1_000;
        c.press(B, at(now)).unwrap();
    }
    let a = c.view(A, at(now));
    assert_eq!(a.moves, 40);
    assert_eq!(a.period, 1);
    assert_eq!(a.moves_in_period, 0);
    // 90:30 - 40 x 1:00 + 40 x 0:30 = 70:30 saved, plus 30:00 for period 2.
    assert_eq!(
        a.main,
        Millis::mins(70) + Millis::secs(30) + Millis::mins(30)
    );
    let b = c.view(B, at(now));
    assert_eq!(
        b.main,
        Millis::mins(90) + Millis::secs(30) + Millis::secs(29 * 40) + Millis::mins(30)
    );
}

#[test]
fn chess_6_3_b_time_delay_mode_main_time_unchanged_if_pressed_within_the_delay() {
    let ctl = TimeControl::single(
        Millis::mins(5),
        TimingMethod::SimpleDelay {
            delay: Millis::secs(5),
        },
    )
    .unwrap();
    let mut c = Clock::new(ctl, at(0));
    c.start(A, at(0)).unwrap();
    c.press(A, at(4_999)).unwrap();
    assert_eq!(main_of(&c, A, at(4_999)), Millis::mins(5));
    c.press(B, at(4_999 + 7_000)).unwrap();
    assert_eq!(
        main_of(&c, B, at(11_999)),
        Millis::mins(5) - Millis::secs(2)
    );
}

#[test]
fn chess_6_4_flag_in_a_period_with_moves_due_shows_the_requirement_unmet() {
    let ctl = TimeControl::new(vec![
        Period::new(Millis::mins(1), Some(3), TimingMethod::SuddenDeath),
        Period::new(Millis::mins(1), None, TimingMethod::SuddenDeath),
    ])
    .unwrap();
    let mut c = Clock::new(ctl, at(0));
    c.start(A, at(0)).unwrap();
    c.press(A, secs(10)).unwrap();
    c.press(B, secs(11)).unwrap();
    let flag = c.next_flag_at().unwrap();
    assert_eq!(flag, secs(61));
    let a = c.view(A, flag);
    assert_eq!(a.flagged_at, Some(flag));
    assert_eq!(
        (a.period, a.moves_in_period),
        (0, 1),
        "1 of the 3 moves due was made"
    );
}

#[test]
fn chess_6_8_and_6_11_the_clock_always_knows_which_flag_fell_first() {
    // Sudden death without freeze (DGT TIME mode): play can go on after a flag.
    let mut c = Clock::new(
        TimeControl::single(Millis::secs(10), TimingMethod::SuddenDeath).unwrap(),
        at(0),
    );
    assert!(!c.control().freeze_at_flag());
    c.start(A, at(0)).unwrap();
    c.press(A, secs(12)).unwrap(); // A's flag fell at 10 s; he may still press
    assert_eq!(c.view(A, secs(12)).main, Millis::ZERO);
    assert_eq!(c.next_flag_at(), Some(secs(22)));
    c.press(B, secs(30)).unwrap();
    assert_eq!(c.first_flag().unwrap().side, A);
    assert_eq!(c.first_flag().unwrap().at, secs(10));
    assert_eq!(c.view(B, secs(30)).flagged_at, Some(secs(22)));
    // A flagged side gets nothing more from running.
    assert_eq!(c.view(A, secs(90)).main, Millis::ZERO);
}

#[test]
fn chess_6_10_arbiter_corrects_times_and_the_move_counter() {
    let mut c = Clock::new(TimeControl::fide_classical(), at(0));
    c.start(A, at(0)).unwrap();
    c.pause_for(PauseReason::DirectorStopped, secs(10)).unwrap();
    c.set_moves(A, 41, secs(10)).unwrap();
    c.set_time(A, Millis::mins(25), secs(10)).unwrap();
    let a = c.view(A, secs(10));
    assert_eq!((a.moves, a.period, a.moves_in_period), (41, 1, 1));
    assert_eq!(a.main, Millis::mins(25));
    assert_eq!(
        c.set_time(B, Millis::ms(-1), secs(10)),
        Err(ClockError::NegativeTime(Millis::ms(-1)))
    );
}

#[test]
fn chess_6_12_the_arbiter_stops_and_resumes_the_clock() {
    let mut c = Clock::new(TimeControl::rapid(), at(0));
    c.start(A, at(0)).unwrap();
    c.pause_for(PauseReason::DirectorStopped, secs(10)).unwrap();
    assert_eq!(PauseReason::DirectorStopped.article(), "chess 6.12");
    let a = main_of(&c, A, secs(10));
    assert_eq!(main_of(&c, A, secs(500)), a);
    c.resume(secs(500)).unwrap();
    assert_eq!(c.running(), Some(A));
}

#[test]
fn chess_7_5_illegal_move_gives_the_opponent_two_minutes() {
    let mut c = Clock::new(TimeControl::rapid(), at(0));
    c.start(A, at(0)).unwrap();
    let b = main_of(&c, B, secs(3));
    c.adjust(B, Millis::mins(2), secs(3)).unwrap();
    assert_eq!(main_of(&c, B, secs(3)), b + Millis::mins(2));
}

#[test]
fn fide_equipment_freeze_at_flag_no_increment_and_nothing_runs() {
    let mut c = Clock::new(TimeControl::blitz(), at(0));
    c.start(A, at(0)).unwrap();
    let flag = c.next_flag_at().unwrap();
    assert_eq!(flag, secs(182));
    let b = main_of(&c, B, flag);
    let frozen = c.press(A, flag + Millis::secs(1)).unwrap_err();
    assert_eq!(frozen, ClockError::Frozen { side: A, at: flag });
    assert!(c.start(B, flag + Millis::secs(1)).is_err());
    assert_eq!(
        main_of(&c, B, flag + Millis::mins(10)),
        b,
        "the other clock is frozen"
    );
    assert_eq!(main_of(&c, A, flag + Millis::mins(10)), Millis::ZERO);
    assert!(c.at(flag).is_frozen());
}

#[test]
fn fide_equipment_bronstein_gives_back_what_was_used_never_more() {
    let ctl = TimeControl::single(
        Millis::mins(5),
        TimingMethod::Bronstein {
            delay: Millis::secs(5),
        },
    )
    .unwrap();
    let mut c = Clock::new(ctl, at(0));
    c.start(A, at(0)).unwrap();
    assert_eq!(
        main_of(&c, A, secs(3)),
        Millis::mins(5) - Millis::secs(3),
        "the display counts down at once"
    );
    c.press(A, secs(3)).unwrap();
    assert_eq!(
        main_of(&c, A, secs(3)),
        Millis::mins(5),
        "back to where the move started, not above"
    );
    c.press(B, secs(11)).unwrap();
    assert_eq!(main_of(&c, B, secs(11)), Millis::mins(5) - Millis::secs(3));
}

#[test]
fn fide_equipment_byo_yomi_periods_reset_and_are_used_up() {
    let ctl = TimeControl::single(
        Millis::secs(10),
        TimingMethod::ByoYomi {
            periods: 3,
            period_time: Millis::secs(5),
        },
    )
    .unwrap();
    let mut c = Clock::new(ctl, at(0));
    c.start(A, at(0)).unwrap();
    assert_eq!(c.next_flag_at(), Some(secs(25)));
    let v = c.view(A, secs(12));
    assert_eq!(
        (v.stage, v.main),
        (Stage::ByoYomi { left: 2 }, Millis::secs(3))
    );
    c.press(A, secs(12)).unwrap();
    assert_eq!(
        main_of(&c, A, secs(12)),
        Millis::secs(5),
        "a move within the period resets it"
    );
    c.press(B, secs(13)).unwrap();
    // A overruns one period: 7 s into his turn he is in the next one with 3 s left.
    let v = c.view(A, secs(20));
    assert_eq!(
        (v.stage, v.main),
        (Stage::ByoYomi { left: 1 }, Millis::secs(3))
    );
    // The current period and one more remain: 13 + 5 + 5 + 5.
    assert_eq!(c.next_flag_at(), Some(secs(28)));
}

#[test]
fn fide_equipment_canadian_byo_yomi_n_moves_in_t() {
    let ctl = TimeControl::single(
        Millis::secs(10),
        TimingMethod::Canadian {
            moves: 2,
            period_time: Millis::secs(20),
        },
    )
    .unwrap();
    let mut c = Clock::new(ctl, at(0));
    c.start(A, at(0)).unwrap();
    c.press(A, secs(15)).unwrap(); // main gone, 5 s into the overtime period
    let v = c.view(A, secs(15));
    assert_eq!(
        (v.stage, v.main),
        (Stage::Canadian { moves_left: 1 }, Millis::secs(15))
    );
    c.press(B, secs(16)).unwrap();
    c.press(A, secs(20)).unwrap(); // second move of the period made: fresh period
    let v = c.view(A, secs(20));
    assert_eq!(
        (v.stage, v.main),
        (Stage::Canadian { moves_left: 2 }, Millis::secs(20))
    );
}

#[test]
fn fide_equipment_count_up_counts_time_used_and_never_flags() {
    let mut c = Clock::new(
        TimeControl::single(Millis::ZERO, TimingMethod::CountUp).unwrap(),
        at(0),
    );
    c.start(A, at(0)).unwrap();
    assert_eq!(c.next_flag_at(), None);
    c.press(A, secs(40)).unwrap();
    assert_eq!(main_of(&c, A, secs(1_000)), Millis::secs(40));
    assert_eq!(main_of(&c, B, secs(100)), Millis::secs(60));
}

#[test]
fn time_going_backwards_is_refused_and_changes_nothing() {
    let mut c = bg7();
    c.press(A, secs(10)).unwrap();
    let before = c.clone();
    assert_eq!(
        c.press(B, secs(9)),
        Err(ClockError::TimeWentBackwards {
            last: secs(10),
            now: secs(9)
        })
    );
    assert_eq!(c, before);
}

#[test]
fn invalid_time_controls_are_refused_with_a_reason() {
    let bad = TimeControl::new(vec![
        Period::new(
            Millis::mins(1),
            None,
            TimingMethod::SuddenDeath
        );
        2
    ]);
    assert!(bad.unwrap_err().to_string().contains("needs a move count"));
    assert!(TimeControl::new(vec![]).is_err());
    assert!(TimeControl::backgammon_default(0).is_err());
    assert!(
        TimeControl::single(
            Millis::mins(1),
            TimingMethod::ByoYomi {
                periods: 0,
                period_time: Millis::secs(1)
            }
        )
        .is_err()
    );
}
