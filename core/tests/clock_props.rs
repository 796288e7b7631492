//! Property tests of the clock over random operation sequences.

use baffle_core::clock::{Clock, PauseReason, TimeControl, TimingMethod};
use baffle_core::{Millis, Side, Timestamp};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Start(Side),
    Press(Side),
    Pause(PauseReason),
    Resume,
    Stop,
    Adjust(Side, i64),
    RestartDelay(bool),
    WaitNext(Side),
}

/// One step: some time passes, then an operation is tried.
#[derive(Clone, Debug)]
struct Step {
    after_ms: i64,
    op: Op,
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::A), Just(Side::B)]
}

fn op(with_adjust: bool) -> impl Strategy<Value = Op> {
    let reason = proptest::sample::select(PauseReason::ALL.to_vec());
    let adjust = if with_adjust { 1 } else { 0 };
    prop_oneof![
        2 => side().prop_map(Op::Start),
        12 => side().prop_map(Op::Press),
        1 => reason.prop_map(Op::Pause),
        1 => Just(Op::Resume),
        1 => Just(Op::Stop),
        adjust => (side(), -120_000i64..120_000).prop_map(|(s, d)| Op::Adjust(s, d)),
        1 => any::<bool>().prop_map(Op::RestartDelay),
        1 => side().prop_map(Op::WaitNext),
    ]
}

fn steps(with_adjust: bool) -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (0i64..40_000, op(with_adjust)).prop_map(|(after_ms, op)| Step { after_ms, op }),
        1..80,
    )
}

fn control() -> impl Strategy<Value = TimeControl> {
    prop_oneof![
        (1u32..=25).prop_map(|n| TimeControl::backgammon_default(n).unwrap()),
        Just(TimeControl::fide_classical()),
        Just(TimeControl::rapid()),
        Just(TimeControl::blitz()),
        (1i64..600, 0i64..30).prop_map(|(b, d)| TimeControl::single(
            Millis::secs(b),
            TimingMethod::Bronstein {
                delay: Millis::secs(d)
            }
        )
        .unwrap()),
        (0i64..60, 1u32..5, 1i64..30).prop_map(|(b, k, t)| TimeControl::single(
            Millis::secs(b),
            TimingMethod::ByoYomi {
                periods: k,
                period_time: Millis::secs(t)
            }
        )
        .unwrap()),
        (0i64..60, 1u32..5, 1i64..60).prop_map(|(b, n, t)| TimeControl::single(
            Millis::secs(b),
            TimingMethod::Canadian {
                moves: n,
                period_time: Millis::secs(t)
            }
        )
        .unwrap()),
        (1i64..120)
            .prop_map(|b| TimeControl::single(Millis::secs(b), TimingMethod::SuddenDeath).unwrap()),
    ]
}

fn apply(clock: &mut Clock, op: &Op, now: Timestamp) -> bool {
    match *op {
        Op::Start(s) => clock.start(s, now),
        Op::Press(s) => clock.press(s, now),
        Op::Pause(r) => clock.pause_for(r, now),
        Op::Resume => clock.resume(now),
        Op::Stop => clock.stop(now),
        Op::Adjust(s, d) => clock.adjust(s, Millis(d), now),
        Op::RestartDelay(w) => clock.restart_delay(w, now),
        Op::WaitNext(s) => clock.wait_out_delay_next_turn(s, now),
    }
    .is_ok()
}

fn run(control: &TimeControl, steps: &[Step]) -> (Clock, Timestamp) {
    let mut clock = Clock::new(control.clone(), Timestamp(0));
    let mut now = Timestamp(0);
    for step in steps {
        now = now + Millis(step.after_ms);
        apply(&mut clock, &step.op, now);
    }
    (clock, now)
}

/// Each side's total time left (main time plus overtime still to come).
fn mains(clock: &Clock, now: Timestamp) -> [Millis; 2] {
    Side::BOTH.map(|s| clock.view(s, now).total)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The same operations at the same times always give the same clock, and looking at
    /// the clock (settling it) in between changes nothing.
    #[test]
    fn determinism(control in control(), steps in steps(true), peek in 0usize..80) {
        let (a, end) = run(&control, &steps);
        let (b, _) = run(&control, &steps);
        prop_assert_eq!(&a, &b);

        let mut c = Clock::new(control.clone(), Timestamp(0));
        let mut now = Timestamp(0);
        for (i, step) in steps.iter().enumerate() {
            now = now + Millis(step.after_ms);
            if i == peek {
                c = c.at(now - Millis(step.after_ms / 2));
            }
            apply(&mut c, &step.op, now);
        }
        for side in Side::BOTH {
            prop_assert_eq!(a.view(side, end + Millis(5_000)), c.view(side, end + Millis(5_000)));
        }
    }

    /// A refused operation leaves the clock exactly as it was.
    #[test]
    fn refusals_change_nothing(control in control(), steps in steps(true)) {
        let mut clock = Clock::new(control, Timestamp(0));
        let mut now = Timestamp(0);
        for step in &steps {
            now = now + Millis(step.after_ms);
            let before = clock.clone();
            if !apply(&mut clock, &step.op, now) {
                prop_assert_eq!(&clock, &before);
            }
        }
    }

    /// Time never rises by itself: between operations, and across operations that grant
    /// nothing, no side's time goes up (count-up excepted: there the display counts up).
    #[test]
    fn time_never_rises_without_a_grant(control in control(), steps in steps(true)) {
        prop_assume!(!matches!(control.period(0).method, TimingMethod::CountUp));
        let mut clock = Clock::new(control, Timestamp(0));
        let mut now = Timestamp(0);
        for step in &steps {
            let later = now + Millis(step.after_ms);
            let (t0, t1) = (mains(&clock, now), mains(&clock, later));
            prop_assert!(t1[0] <= t0[0] && t1[1] <= t0[1], "time rose while nothing happened");
            now = later;
            let before = mains(&clock, now);
            let presser = match step.op { Op::Press(s) => Some(s), _ => None };
            let grants = matches!(step.op, Op::Adjust(_, d) if d > 0) || matches!(step.op, Op::RestartDelay(_));
            if apply(&mut clock, &step.op, now) && !grants {
                let after = mains(&clock, now);
                for side in Side::BOTH {
                    if presser != Some(side) {
                        prop_assert!(after[side.index()] <= before[side.index()],
                            "{:?} raised side {}'s time", step.op, side);
                    }
                }
            }
        }
    }

    /// A paused clock does not lose time, however long the pause.
    #[test]
    fn a_paused_clock_does_not_lose_time(control in control(), steps in steps(true), pause_ms in 0i64..10_000_000) {
        let (mut clock, now) = run(&control, &steps);
        if clock.pause_for(PauseReason::DirectorCalled, now).is_ok() {
            prop_assert_eq!(mains(&clock, now), mains(&clock, now + Millis(pause_ms)));
            prop_assert_eq!(clock.next_flag_at(), None);
            let delay = clock.view(clock.running().unwrap(), now).delay;
            prop_assert_eq!(clock.view(clock.running().unwrap(), now + Millis(pause_ms)).delay, delay);
        }
    }

    /// The reported flag instant is exactly when the time reaches zero.
    #[test]
    fn the_flag_instant_is_exact(control in control(), steps in steps(true)) {
        let (clock, _) = run(&control, &steps);
        if let Some(flag) = clock.next_flag_at() {
            let side = clock.running().unwrap();
            prop_assert!(flag >= clock.last_operation());
            let at_flag = clock.view(side, flag);
            prop_assert_eq!(at_flag.flagged_at, Some(flag));
            prop_assert_eq!(at_flag.main, Millis::ZERO);
            if flag > clock.last_operation() {
                let before = clock.view(side, flag - Millis(1));
                prop_assert_eq!(before.flagged_at, None);
                prop_assert!(before.main > Millis::ZERO || before.delay > Millis::ZERO
                    || before.stage != baffle_core::clock::Stage::Main);
            }
            let first = clock.at(flag).first_flag().expect("a flag fell");
            prop_assert!(first.at <= flag);
        }
    }

    /// Simple delay never raises the reserve: a backgammon clock's reserve only ever goes
    /// down unless the director adds time.
    #[test]
    fn simple_delay_never_raises_the_reserve(n in 1u32..=25, steps in steps(false)) {
        let control = TimeControl::backgammon_default(n).unwrap();
        let mut clock = Clock::new(control, Timestamp(0));
        let mut now = Timestamp(0);
        let mut last = mains(&clock, now);
        for step in &steps {
            now = now + Millis(step.after_ms);
            apply(&mut clock, &step.op, now);
            let m = mains(&clock, now);
            prop_assert!(m[0] <= last[0] && m[1] <= last[1]);
            last = m;
        }
    }

    /// Bronstein never ends a move above the time it started with.
    #[test]
    fn bronstein_never_ends_a_move_above_its_start(base in 1i64..600, delay in 0i64..30, steps in steps(false)) {
        let control = TimeControl::single(Millis::secs(base), TimingMethod::Bronstein { delay: Millis::secs(delay) }).unwrap();
        let mut clock = Clock::new(control, Timestamp(0));
        let mut now = Timestamp(0);
        let mut turn_start: [Millis; 2] = mains(&clock, now);
        for step in &steps {
            now = now + Millis(step.after_ms);
            let was_running = clock.running();
            if apply(&mut clock, &step.op, now) {
                if let (Op::Press(s), Some(_)) = (&step.op, was_running) {
                    prop_assert!(clock.view(*s, now).main <= turn_start[s.index()]);
                }
                if let Some(r) = clock.running().filter(|r| was_running != Some(*r)) {
                    turn_start[r.index()] = clock.view(r, now).main;
                }
            }
        }
    }
}
