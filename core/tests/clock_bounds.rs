//! Issue 18, item 1: no time control and no number a client sends can make the clock
//! wrap, panic or hang. Every control kind with extreme numbers is either refused with a
//! message naming the bound, or played — presses, pauses, corrections and the instants
//! of a chess game that falls due by itself — without a time below zero, an instant
//! that goes backwards, or a timer that fires without moving the game on.

use baffle_core::chess::{ChessMatch, ChessSettings, Color, Command, Laws, MatchCommand};
use baffle_core::clock::{
    Clock, ClockError, MAX_BASE, MAX_BYO_YOMI_PERIODS, MAX_MOVES, MAX_OVERTIME, MAX_PER_MOVE,
    MAX_SET_TIME, Period, TimeControl, TimingMethod,
};
use baffle_core::{Millis, Side, Timestamp};
use proptest::prelude::*;

/// Spans from the ordinary to the ends of `i64`, bounds and their neighbours included.
fn span() -> impl Strategy<Value = Millis> {
    let edges = vec![
        0,
        1,
        -1,
        i64::MAX,
        i64::MIN,
        1 << 62,
        MAX_BASE.as_ms(),
        MAX_BASE.as_ms() + 1,
        MAX_PER_MOVE.as_ms(),
        MAX_PER_MOVE.as_ms() + 1,
        MAX_OVERTIME.as_ms(),
        MAX_OVERTIME.as_ms() + 1,
    ];
    prop_oneof![
        3 => 0i64..600_000,
        2 => prop::sample::select(edges),
        1 => any::<i64>(),
    ]
    .prop_map(Millis)
}

fn count() -> impl Strategy<Value = u32> {
    prop_oneof![
        3 => 1u32..50,
        2 => prop::sample::select(vec![0, 1, u32::MAX, MAX_MOVES, MAX_MOVES + 1, MAX_BYO_YOMI_PERIODS + 1]),
        1 => any::<u32>(),
    ]
}

/// Every timing method, with extreme numbers.
fn method() -> impl Strategy<Value = TimingMethod> {
    prop_oneof![
        Just(TimingMethod::SuddenDeath),
        span().prop_map(|increment| TimingMethod::Fischer { increment }),
        span().prop_map(|delay| TimingMethod::SimpleDelay { delay }),
        span().prop_map(|delay| TimingMethod::Bronstein { delay }),
        (count(), span()).prop_map(|(periods, period_time)| TimingMethod::ByoYomi {
            periods,
            period_time
        }),
        (count(), span())
            .prop_map(|(moves, period_time)| TimingMethod::Canadian { moves, period_time }),
        Just(TimingMethod::CountUp),
    ]
}

fn periods() -> impl Strategy<Value = Vec<Period>> {
    prop::collection::vec(
        (span(), prop::option::of(count()), method())
            .prop_map(|(base, moves, method)| Period::new(base, moves, method)),
        1..4,
    )
    .prop_map(|mut ps| {
        // Mostly well formed, so that the bounds (not the shape) decide.
        let n = ps.len();
        for (i, p) in ps.iter_mut().enumerate() {
            p.moves = if i + 1 == n {
                None
            } else {
                p.moves.or(Some(40))
            };
        }
        ps
    })
}

fn within_bounds(p: &Period) -> bool {
    let per_move_ok = match p.method {
        TimingMethod::Fischer { increment: t }
        | TimingMethod::SimpleDelay { delay: t }
        | TimingMethod::Bronstein { delay: t } => t <= MAX_PER_MOVE,
        TimingMethod::ByoYomi {
            periods,
            period_time,
        } => periods <= MAX_BYO_YOMI_PERIODS && period_time <= MAX_OVERTIME,
        TimingMethod::Canadian { moves, period_time } => {
            moves <= MAX_MOVES && period_time <= MAX_OVERTIME
        }
        _ => true,
    };
    p.base <= MAX_BASE && p.moves.is_none_or(|m| m <= MAX_MOVES) && per_move_ok
}

/// The same periods with every number brought within its bound.
fn clamped(periods: &[Period]) -> Vec<Period> {
    let n = periods.len() as i64;
    let span = |t: Millis, max: Millis| t.min(max);
    periods
        .iter()
        .map(|p| {
            let method = match p.method {
                TimingMethod::Fischer { increment } => TimingMethod::Fischer {
                    increment: span(increment, MAX_PER_MOVE),
                },
                TimingMethod::SimpleDelay { delay } => TimingMethod::SimpleDelay {
                    delay: span(delay, MAX_PER_MOVE),
                },
                TimingMethod::Bronstein { delay } => TimingMethod::Bronstein {
                    delay: span(delay, MAX_PER_MOVE),
                },
                TimingMethod::ByoYomi {
                    periods,
                    period_time,
                } => TimingMethod::ByoYomi {
                    periods: periods.min(MAX_BYO_YOMI_PERIODS),
                    period_time: span(period_time, MAX_OVERTIME),
                },
                TimingMethod::Canadian { moves, period_time } => TimingMethod::Canadian {
                    moves: moves.min(MAX_MOVES),
                    period_time: span(period_time, MAX_OVERTIME),
                },
                m => m,
            };
            let base = span(p.base, Millis(MAX_BASE.as_ms() / n));
            Period::new(base, p.moves.map(|m| m.min(MAX_MOVES)), method)
        })
        .collect()
}

/// A clock operation a client can cause, with its numbers.
#[derive(Clone, Debug)]
enum Op {
    Press,
    Pause,
    Resume,
    SetTime(Millis),
    Adjust(Millis),
    SetMoves(u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => Just(Op::Press),
        1 => Just(Op::Pause),
        1 => Just(Op::Resume),
        1 => span().prop_map(Op::SetTime),
        1 => span().prop_map(Op::Adjust),
        1 => count().prop_map(Op::SetMoves),
    ]
}

fn check_views(clock: &Clock, now: Timestamp) -> Result<(), TestCaseError> {
    for side in Side::BOTH {
        let v = clock.view(side, now);
        prop_assert!(v.main >= Millis::ZERO, "main {:?}", v.main);
        prop_assert!(v.total >= v.main, "total {:?} < main {:?}", v.total, v.main);
        prop_assert!(v.delay >= Millis::ZERO);
    }
    if let Some(flag) = clock.next_flag_at() {
        prop_assert!(flag >= clock.last_operation() || clock.pause().is_some());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn a_control_is_refused_naming_its_bound_or_played_without_wrap_panic_or_hang(
        periods in periods(),
        ops in prop::collection::vec((op(), prop_oneof![0i64..100_000, Just(i64::MAX / 4)]), 0..40),
    ) {
        let in_bounds = periods.iter().all(within_bounds)
            && periods.iter().fold(Millis::ZERO, |t, p| t + p.base) <= MAX_BASE;
        let control = match TimeControl::new(periods.clone()) {
            Err(e) => {
                // Beyond a bound, the refusal names it — unless the control is refused
                // for its shape too (it still is once every number is brought in bounds).
                if !in_bounds && !e.to_string().contains("bound") {
                    prop_assert!(TimeControl::new(clamped(&periods)).is_err(), "{e}");
                }
                return Ok(());
            }
            Ok(c) => c,
        };
        prop_assert!(in_bounds, "accepted beyond a bound: {periods:?}");

        // The clock, driven by every operation a client can cause.
        let mut clock = Clock::new(control.clone(), Timestamp(0));
        clock.start(Side::A, Timestamp(0)).unwrap();
        let mut now = Timestamp(0);
        for (op, wait) in &ops {
            now = now + Millis(*wait);
            let side = clock.running().unwrap_or(Side::A);
            let before = clock.clone();
            let result = match *op {
                Op::Press => clock.press(side, now),
                Op::Pause => clock.pause_for(baffle_core::clock::PauseReason::DirectorStopped, now),
                Op::Resume => clock.resume(now),
                Op::SetTime(t) => clock.set_time(side, t, now),
                Op::Adjust(d) => clock.adjust(side, d, now),
                Op::SetMoves(m) => clock.set_moves(side, m, now),
            };
            match (op, &result) {
                (Op::SetTime(t), Ok(())) => prop_assert!(*t >= Millis::ZERO && *t <= MAX_SET_TIME),
                (Op::Adjust(d), Ok(())) => prop_assert!(d.as_ms().unsigned_abs() <= MAX_SET_TIME.as_ms() as u64),
                (_, Err(ClockError::OutOfBounds { .. } | ClockError::TooManyMoves(_))) => {
                    prop_assert_eq!(&clock, &before, "a refusal changes nothing");
                    prop_assert!(result.unwrap_err().to_string().contains("bound"));
                }
                _ => {}
            }
            check_views(&clock, now)?;
        }

        // A chess game on it: both arrive, White presses; every timer moves it on.
        let settings = ChessSettings {
            players: ["A".into(), "B".into()],
            control,
            games: 1,
            start: Timestamp(1_000),
            default_time: Millis::ZERO,
            laws: Laws::Fide2023,
            supervised: true,
            chess960: false,
        };
        let mut m = ChessMatch::new(settings).unwrap();
        for c in [Color::White, Color::Black] {
            m.execute(&MatchCommand::Game(Command::Arrive(c)), Timestamp(0)).unwrap();
        }
        m.execute(&MatchCommand::Tick, Timestamp(1_000)).unwrap();
        // (Refused only if White's flag fell first, on a control of a few ms.)
        m.execute(&MatchCommand::Tick, Timestamp(2_000)).unwrap();
        let press = m.execute(&MatchCommand::Game(Command::Press(Color::White)), Timestamp(2_000));
        prop_assert!(press.is_ok() || m.is_over(), "{press:?}");
        let mut last = Timestamp(2_000);
        for _ in 0..20 {
            let Some(due) = m.next_due() else { break };
            prop_assert!(due >= last, "a timer in the past: {due:?} < {last:?}");
            let events = m.execute(&MatchCommand::Tick, due).unwrap();
            prop_assert!(
                !events.is_empty() || m.next_due() != Some(due),
                "a timer at {due:?} fired without moving the game on"
            );
            last = due;
            check_views(m.game().clock(), due)?;
        }
    }
}

#[test]
fn issue_18_the_reported_controls_are_refused_naming_the_bound() {
    let refused = [
        TimingMethod::Fischer {
            increment: Millis(i64::MAX),
        },
        TimingMethod::Fischer {
            increment: Millis(1 << 62),
        },
        TimingMethod::ByoYomi {
            periods: u32::MAX,
            period_time: Millis(i64::MAX),
        },
    ];
    for method in refused {
        let e = TimeControl::single(Millis::mins(5), method).unwrap_err();
        assert!(e.to_string().contains("bound"), "{e}");
    }
    let e = TimeControl::single(Millis(i64::MAX), TimingMethod::SuddenDeath).unwrap_err();
    assert!(e.to_string().contains("bound"), "{e}");
}

#[test]
fn issue_18_adjusting_or_setting_beyond_the_bound_is_refused_and_changes_nothing() {
    let mut clock = Clock::new(TimeControl::rapid(), Timestamp(0));
    clock.start(Side::A, Timestamp(0)).unwrap();
    let before = clock.clone();
    for delta in [i64::MAX, i64::MIN, MAX_SET_TIME.as_ms() + 1] {
        let e = clock
            .adjust(Side::A, Millis(delta), Timestamp(10))
            .unwrap_err();
        assert!(e.is_invalid_value(), "{e}");
        assert!(e.to_string().contains("bound"), "{e}");
    }
    assert!(
        clock
            .set_time(Side::A, Millis(i64::MAX), Timestamp(10))
            .is_err()
    );
    assert!(clock.set_moves(Side::A, u32::MAX, Timestamp(10)).is_err());
    assert_eq!(clock, before);
    // At the bound it is accepted, and A is far from losing on time.
    clock.adjust(Side::A, MAX_SET_TIME, Timestamp(10)).unwrap();
    assert!(clock.view(Side::A, Timestamp(10)).main > MAX_SET_TIME);
}
