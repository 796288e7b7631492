//! Property tests of a chess match over random commands at random times: the match is
//! the fold of its events read back from their audit bodies, a refused command changes
//! nothing, and the score, the games and the end of the match stay consistent after
//! every command — under every edition of the Laws.

use baffle_core::chess::game::QuickplayRuling;
use baffle_core::chess::{
    Chess960, ChessMatch, ChessSettings, Color, Command, GameResult, Laws, MatchCommand,
    MatchEvent, Outcome, Reason,
};
use baffle_core::clock::{PauseReason, TimeControl};
use baffle_core::{Millis, Timestamp};
use proptest::prelude::*;

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn result() -> impl Strategy<Value = GameResult> {
    (
        prop_oneof![
            Just(Outcome::WhiteWins),
            Just(Outcome::BlackWins),
            Just(Outcome::Draw)
        ],
        prop_oneof![Just(Reason::ArbiterDecision), Just(Reason::Agreement)],
    )
        .prop_map(|(outcome, reason)| GameResult { outcome, reason })
}

/// Mostly the commands of play, with the arbiter's mixed in.
fn command() -> impl Strategy<Value = MatchCommand> {
    let game = prop_oneof![
        6 => color().prop_map(Command::Press),
        2 => color().prop_map(Command::Arrive),
        1 => color().prop_map(Command::Resign),
        1 => color().prop_map(Command::ClaimFlag),
        1 => Just(Command::AgreeDraw),
        1 => Just(Command::Pause(PauseReason::DirectorStopped)),
        1 => Just(Command::Resume),
        1 => (color(), 0i64..600_000).prop_map(|(c, t)| Command::SetTime(c, Millis(t))),
        1 => (color(), 0u32..50).prop_map(|(c, m)| Command::SetMoves(c, m)),
        1 => (color(), any::<bool>()).prop_map(|(by, opponent_can_mate)| Command::IllegalMove {
            by,
            opponent_can_mate
        }),
        1 => Just(Command::CannotCheckmate),
        1 => Just(Command::FlagOrderUnknown),
        1 => color().prop_map(Command::QuickplayClaim),
        1 => prop_oneof![
            Just(QuickplayRuling::Draw),
            Just(QuickplayRuling::Increment),
            Just(QuickplayRuling::Postpone { extra_time: true }),
            Just(QuickplayRuling::Postpone { extra_time: false }),
            Just(QuickplayRuling::Reject)
        ]
        .prop_map(Command::QuickplayRuling),
        1 => result().prop_map(Command::ArbiterResult),
        1 => color().prop_map(Command::ExcuseLateness),
    ];
    prop_oneof![
        12 => game.prop_map(MatchCommand::Game),
        1 => Just(MatchCommand::Tick),
        2 => Just(MatchCommand::NextGame),
        1 => (0u16..960).prop_map(|sp| MatchCommand::Position(Chess960::numbered(sp).unwrap())),
    ]
}

/// Every edition of the Laws.
fn laws() -> impl Strategy<Value = Laws> {
    prop::sample::select(Laws::ALL.to_vec())
}

/// Blitz sudden death (3 min), rapid sudden death (12 min: blitz under 2009, so a
/// quickplay claim meets both answers) or rapid with increment.
fn control(kind: u8) -> TimeControl {
    let sudden = |mins| {
        TimeControl::single(
            Millis::mins(mins),
            baffle_core::clock::TimingMethod::SuddenDeath,
        )
        .unwrap()
    };
    match kind {
        0 => sudden(3),
        1 => sudden(12),
        _ => TimeControl::rapid(),
    }
}

fn settings(games: u32, kind: u8, laws: Laws, supervised: bool, default_min: i64) -> ChessSettings {
    ChessSettings {
        players: ["A".into(), "B".into()],
        control: control(kind),
        games,
        start: Timestamp(60_000),
        default_time: Millis::mins(default_min),
        laws,
        supervised,
        chess960: true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_chess_match_is_the_fold_of_its_events_and_stays_consistent(
        games in 1u32..5,
        kind in 0u8..3,
        laws in laws(),
        supervised in any::<bool>(),
        default_min in 0i64..3,
        steps in prop::collection::vec((command(), 0i64..90_000), 1..120),
    ) {
        let settings = settings(games, kind, laws, supervised, default_min);
        let mut m = ChessMatch::new(settings.clone()).unwrap();
        let mut fold = ChessMatch::new(settings).unwrap();
        let mut now = Timestamp(0);
        for (command, pause) in steps {
            now = now + Millis(pause);
            let before = m.clone();
            match m.execute(&command, now) {
                Err(_) => prop_assert_eq!(&m, &before, "a refusal changes nothing"),
                Ok(events) => {
                    for e in &events {
                        let read: MatchEvent = serde_json::from_str(&e.body()).unwrap();
                        prop_assert_eq!(&read, e);
                        fold.evolve(&read).unwrap();
                    }
                    prop_assert_eq!(&fold, &m, "the fold of the events is the match");
                }
            }
            let (a, b) = m.series().half_points();
            let played = m.series().results().len() as u32;
            prop_assert!(played <= m.settings().games);
            prop_assert!(a + b <= 2 * played, "at most one point per game");
            prop_assert!(m.number() >= played.max(1) && m.number() <= played + 1);
            if m.is_over() {
                prop_assert_eq!(m.next_due(), None, "nothing falls due after the end");
                prop_assert!(m.winner().is_some() || played == m.settings().games);
            }
            if m.next_due().is_some() {
                prop_assert!(m.game().result().is_none(), "a finished game waits for no timer");
            }
            prop_assert!(m.now() <= now, "nothing is recorded in the future");
        }
    }
}
