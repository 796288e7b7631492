//! Property tests of the backgammon engine over random command sequences: the state is
//! the fold of its events, and the invariants of the cube, the Crawford game, the score
//! and the end of the match hold after every single event.

use baffle_core::backgammon::setup::DiceSource;
use baffle_core::backgammon::{
    Change, ClockSetup, Command, DirectorAction, Event, Match, MatchSetup, Ruling, TimeoutPolicy,
    Turn, VoidReason, WinKind,
};
use baffle_core::clock::PauseReason;
use baffle_core::{Millis, Side, Timestamp};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    /// The natural next step of the game, chosen by `pick`.
    Play(u8, [u8; 2]),
    /// Any command at all, most of them refused.
    Raw(Command),
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::A), Just(Side::B)]
}

fn kind() -> impl Strategy<Value = WinKind> {
    prop_oneof![
        Just(WinKind::Single),
        Just(WinKind::Gammon),
        Just(WinKind::Backgammon)
    ]
}

fn dice() -> impl Strategy<Value = [u8; 2]> {
    [1u8..=6, 1u8..=6]
}

fn director() -> impl Strategy<Value = DirectorAction> {
    prop_oneof![
        (side(), 1u32..3).prop_map(|(to, points)| DirectorAction::AwardPoints { to, points }),
        (side(), 1u32..3).prop_map(|(from, points)| DirectorAction::DeductPoints { from, points }),
        (0u32..8, 0u32..8).prop_map(|(a, b)| DirectorAction::CorrectScore { a, b }),
        prop_oneof![Just(VoidReason::Crawford), Just(VoidReason::DeadCube)]
            .prop_map(|reason| DirectorAction::VoidDouble { reason }),
        (0u32..7, proptest::option::of(side())).prop_map(|(e, owner)| {
            DirectorAction::CorrectCube {
                value: 1 << e,
                owner,
            }
        }),
        (1u32..12).prop_map(|length| DirectorAction::CorrectLength { length }),
        Just(DirectorAction::ConfirmResult),
        (1u32..6, side(), kind()).prop_map(|(game, winner, kind)| DirectorAction::CorrectResult {
            game,
            winner,
            kind
        }),
        (side(), kind()).prop_map(|(loser, kind)| DirectorAction::ForfeitGame { loser, kind }),
        (side(), -60_000i64..60_000).prop_map(|(side, d)| DirectorAction::AdjustTime {
            side,
            delta: Millis(d)
        }),
        Just(DirectorAction::ImposeClock {
            per_point: Millis::mins(1),
            delay: Millis::secs(8)
        }),
        Just(DirectorAction::EndBreak),
        proptest::option::of(0i64..3_600_000).prop_map(|start| DirectorAction::Reschedule {
            start: start.map(Timestamp)
        }),
        side().prop_map(|side| DirectorAction::GrantBreak { side }),
        side().prop_map(|side| DirectorAction::LeftTable { side }),
        side().prop_map(|winner| DirectorAction::DecideMatch { winner }),
        // Numbers no director means: refused or saturated, never wrapped (issue 17, 6).
        (side(), any::<i64>()).prop_map(|(side, d)| DirectorAction::AdjustTime {
            side,
            delta: Millis(d)
        }),
        (side(), any::<i64>()).prop_map(|(side, t)| DirectorAction::SetTime {
            side,
            time: Millis(t)
        }),
        (any::<u32>(), any::<u32>()).prop_map(|(a, b)| DirectorAction::CorrectScore { a, b }),
        (side(), any::<u32>()).prop_map(|(to, points)| DirectorAction::AwardPoints { to, points }),
        (any::<i64>(), any::<i64>()).prop_map(|(p, d)| DirectorAction::ImposeClock {
            per_point: Millis(p),
            delay: Millis(d)
        }),
    ]
}

fn raw() -> impl Strategy<Value = Command> {
    prop_oneof![
        side().prop_map(|side| Command::CheckIn { side }),
        Just(Command::StartGame),
        dice().prop_map(|throw| Command::OpeningThrow {
            throw,
            source: DiceSource::Server
        }),
        (side(), dice()).prop_map(|(side, dice)| Command::Roll {
            side,
            dice,
            source: DiceSource::Server
        }),
        side().prop_map(|side| Command::Double { side }),
        side().prop_map(|side| Command::Take { side }),
        side().prop_map(|side| Command::Pass { side }),
        side().prop_map(|side| Command::Press { side }),
        (side(), kind()).prop_map(|(winner, kind)| Command::EndGame { winner, kind }),
        (side(), kind()).prop_map(|(side, kind)| Command::Concede { side, kind }),
        proptest::sample::select(PauseReason::ALL.to_vec())
            .prop_map(|reason| Command::Pause { reason }),
        Just(Command::Resume),
        side().prop_map(|side| Command::TakeBreak { side }),
        side().prop_map(|side| Command::InvalidRoll { side }),
        side().prop_map(|offender| Command::ReplayIllegalMove { offender }),
        side().prop_map(|side| Command::PressBack { side }),
        (side(), 0u32..4).prop_map(|(side, ruling)| Command::Appeal {
            side,
            ruling,
            grounds: "prop".into()
        }),
        Just(Command::Tick),
        director().prop_map(|action| Command::Director {
            action,
            ruling: Ruling::new("prop", "2.3")
        }),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![4 => (any::<u8>(), dice()).prop_map(|(c, d)| Op::Play(c, d)), 1 => raw().prop_map(Op::Raw)]
}

fn setup() -> impl Strategy<Value = MatchSetup> {
    let timeout = prop_oneof![
        Just(TimeoutPolicy::LoseMatch),
        Just(TimeoutPolicy::UsbgfOvertime {
            overtime: Millis::mins(1)
        }),
        (1u32..3).prop_map(|points| TimeoutPolicy::PenaltyPoints { points }),
    ];
    (1u32..=9, any::<bool>(), timeout).prop_map(|(length, clocked, timeout)| {
        let mut s = MatchSetup::new(["a", "b"], length, Timestamp(0));
        s.clock = clocked.then_some(ClockSetup {
            per_point: Millis::secs(20),
            ..ClockSetup::default()
        });
        s.timeout = timeout;
        s
    })
}

/// The natural next command for the state.
fn pick(m: &Match, choice: u8, dice: [u8; 2]) -> Command {
    let absent = Side::BOTH.into_iter().find(|s| !m.is_present(*s));
    let Some(game) = m.game() else {
        return match absent {
            Some(side) => Command::CheckIn { side },
            None => Command::OpeningThrow {
                throw: dice,
                source: DiceSource::Server,
            },
        };
    };
    let kind = [WinKind::Single, WinKind::Gammon, WinKind::Backgammon][usize::from(choice % 3)];
    match game.turn {
        Turn::Opening => Command::OpeningThrow {
            throw: dice,
            source: DiceSource::Server,
        },
        Turn::OnRoll { side, .. } if choice.is_multiple_of(4) => Command::Double { side },
        Turn::OnRoll { side, .. } => Command::Roll {
            side,
            dice,
            source: DiceSource::Server,
        },
        Turn::Moving { side, .. } if choice.is_multiple_of(9) => {
            Command::EndGame { winner: side, kind }
        }
        Turn::Moving { side, .. } => Command::Press { side },
        Turn::DoubleOffered { by } if choice.is_multiple_of(3) => {
            Command::Pass { side: by.other() }
        }
        Turn::DoubleOffered { by } => Command::Take { side: by.other() },
    }
}

fn score_may_change(change: &Change) -> bool {
    match change {
        Change::GameEnded { .. } | Change::LatenessPoint { .. } | Change::TimeExpired { .. } => {
            true
        }
        Change::Ruled { action, .. } => matches!(
            action,
            DirectorAction::AwardPoints { .. }
                | DirectorAction::DeductPoints { .. }
                | DirectorAction::CorrectScore { .. }
                | DirectorAction::VoidDouble { .. }
                | DirectorAction::CorrectResult { .. }
        ),
        _ => false,
    }
}

/// Checks what must hold of every state (issue 17): the Crawford game decided on the
/// corrected record; no score above what the record allows; a match won is ended (or left
/// to the director when both won at once), never left running.
fn check_state(m: &Match, score_corrected: bool) -> Result<(), TestCaseError> {
    let one_away = |score: [u32; 2], length: u32| {
        score.iter().any(|&s| s + 1 == length) && score.iter().all(|&s| s < length)
    };
    let mut seen = false;
    for g in m.games() {
        let expected = !seen && one_away(g.score_at_start, g.length);
        prop_assert_eq!(
            g.crawford,
            expected,
            "game {} Crawford on the record",
            g.number
        );
        seen |= expected;
    }
    if let Some(g) = m.game() {
        let expected = !seen && one_away(g.score_at_start, g.length);
        prop_assert_eq!(
            g.crawford,
            expected,
            "game in progress Crawford on the record"
        );
    }
    if !score_corrected {
        for side in [Side::A, Side::B] {
            let won: u64 = m
                .games()
                .iter()
                .filter(|g| g.winner == side)
                .map(|g| u64::from(g.points))
                .sum();
            let allowed = won
                + u64::from(m.penalty_points_received(side))
                + u64::from(m.timeout_points_received(side));
            prop_assert!(
                u64::from(m.score(side)) <= allowed,
                "{side} has {} but the record allows {allowed}",
                m.score(side)
            );
        }
    }
    let won = |side: Side| {
        m.score(side) >= m.length()
            || u64::from(m.penalty_points_received(side)) * 2 > u64::from(m.length())
    };
    if m.result().is_none() && !m.awaiting_decision() {
        prop_assert!(
            !won(Side::A) && !won(Side::B),
            "a match won is still running"
        );
    }
    if m.awaiting_decision() {
        prop_assert!(
            won(Side::A) && won(Side::B),
            "undecided though not both won"
        );
    }
    Ok(())
}

/// Checks the invariants across one event, from `before` to `after`.
fn check_event(
    before: &Match,
    e: &Event,
    after: &Match,
    previous: Option<&Event>,
) -> Result<(), TestCaseError> {
    if let Some(cube) = after.game().and_then(|g| g.cube) {
        prop_assert!(
            cube.value.is_power_of_two() && cube.value <= 64,
            "cube {cube:?}"
        );
    }
    if let Change::Doubled {
        side,
        premature: false,
        ..
    } = e.change
    {
        let game = before.game().expect("doubles happen in games");
        prop_assert!(!game.crawford, "a double in the Crawford game");
        let owner = game.cube.expect("a cube to turn").owner;
        prop_assert!(
            owner.is_none() || owner == Some(side),
            "{side} doubled a cube owned by {owner:?}"
        );
    }
    if let (Some(b), Some(a)) = (before.game(), after.game())
        && b.crawford
        && a.crawford
        && a.number == b.number
    {
        // Only a correction of the record may make it, or unmake it, the Crawford game.
        prop_assert_eq!(b.cube, a.cube, "the cube changed in the Crawford game");
    }
    let scores = |m: &Match| [m.score(Side::A), m.score(Side::B)];
    if scores(before) != scores(after) {
        prop_assert!(
            score_may_change(&e.change),
            "{:?} changed the score",
            e.change
        );
    }
    if before.result().is_some() {
        let allowed = matches!(
            e.change,
            Change::Ruled { .. }
                | Change::MatchResumed
                | Change::LengthKept { .. }
                | Change::Appealed { .. }
        );
        prop_assert!(allowed, "{:?} after the match ended", e.change);
        if after.result().is_none() {
            prop_assert!(matches!(e.change, Change::MatchResumed));
            prop_assert!(
                matches!(previous.map(|p| &p.change), Some(Change::Ruled { .. })),
                "resumed without a ruling"
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_state_is_the_fold_of_its_events_and_invariants_hold(
        setup in setup(),
        ops in prop::collection::vec((0i64..90_000, op()), 1..150),
    ) {
        let mut live = Match::new(setup.clone()).unwrap();
        let mut folded = Match::new(setup.clone()).unwrap();
        let mut now = 0;
        let mut log: Vec<Event> = Vec::new();
        let mut score_corrected = false;
        for (dt, op) in ops {
            now += dt;
            let command = match op {
                Op::Play(choice, dice) => pick(&live, choice, dice),
                Op::Raw(c) => c,
            };
            let before = live.clone();
            match live.execute(&command, Timestamp(now)) {
                Err(_) => prop_assert_eq!(&live, &before, "a refusal changed the match"),
                Ok(events) => {
                    for e in &events {
                        let pre = folded.clone();
                        folded.evolve(e).unwrap();
                        check_event(&pre, e, &folded, log.last())?;
                        score_corrected |= matches!(
                            &e.change,
                            Change::Ruled { action: DirectorAction::CorrectScore { .. }, .. }
                        );
                        log.push(e.clone());
                    }
                    prop_assert_eq!(&folded, &live, "the fold differs after {:?}", command);
                    check_state(&live, score_corrected)?;
                }
            }
        }
        // The log round-trips through its audit bodies.
        let mut replayed = Match::new(setup).unwrap();
        for e in &log {
            let back: Event = serde_json::from_str(&e.body()).unwrap();
            replayed.evolve(&back).unwrap();
        }
        prop_assert_eq!(replayed, live);
    }
}
