//! What differs between the editions of the FIDE Laws (`docs/chess.md`, "Editions"), one
//! test per article and edition, named after them: categories, illegal moves, the
//! reinstated position, who restarts the clock, and the quickplay finish.

use baffle_core::Timestamp;
use baffle_core::chess::game::{Command as C, QuickplayRuling};
use baffle_core::chess::{
    Category, ChessMatch, ChessSettings, Color, Event, Game, GameSetup, Laws, MatchCommand,
    Outcome, Reason, category,
};
use baffle_core::clock::{PauseReason, TimeControl, TimingMethod};
use baffle_core::{Millis, Side};

const START: Timestamp = Timestamp(1_000_000);
const W: Color = Color::White;
const B: Color = Color::Black;

fn at(ms: i64) -> Timestamp {
    START + Millis(ms)
}

fn sudden(mins: i64) -> TimeControl {
    TimeControl::single(Millis::mins(mins), TimingMethod::SuddenDeath).unwrap()
}

fn game(control: TimeControl, laws: Laws, supervised: bool) -> Game {
    let mut setup = GameSetup::new(control, START);
    setup.laws = laws;
    setup.supervised = supervised;
    let mut g = Game::new(setup);
    g.execute(C::Arrive(W), at(-60_000)).unwrap();
    g.execute(C::Arrive(B), at(-30_000)).unwrap();
    assert_eq!(g.catch_up(START), vec![Event::Started { at: START }]);
    g
}

fn main_left(g: &Game, color: Color, now: Timestamp) -> Millis {
    g.clock().view(color.side(), now).main
}

fn illegal(g: &mut Game, by: Color, t: i64) {
    g.execute(
        C::IllegalMove {
            by,
            opponent_can_mate: true,
        },
        at(t),
    )
    .unwrap();
}

const LATER: [Laws; 3] = [Laws::Fide2014, Laws::Fide2018, Laws::Fide2023];

#[test]
fn a1_b1_2009_blitz_under_15_minutes_2014_2018_2023_blitz_10_minutes_or_less() {
    for (control, in_2009, later) in [
        (sudden(10), Category::Blitz, Category::Blitz),
        (sudden(11), Category::Blitz, Category::Rapid),
        (sudden(14), Category::Blitz, Category::Rapid),
        (sudden(15), Category::Rapid, Category::Rapid),
        (sudden(59), Category::Rapid, Category::Rapid),
        (sudden(60), Category::Standard, Category::Standard),
    ] {
        assert_eq!(category(&control, Laws::Fide2009), in_2009, "{control:?}");
        for laws in LATER {
            assert_eq!(category(&control, laws), later, "{laws:?} {control:?}");
        }
    }
}

#[test]
fn a1_b1_every_edition_counts_60_times_the_increment_but_not_a_delay() {
    let with = |method| TimeControl::single(Millis::mins(5), method).unwrap();
    let increment = with(TimingMethod::Fischer {
        increment: Millis::secs(10),
    });
    let simple = with(TimingMethod::SimpleDelay {
        delay: Millis::secs(10),
    });
    let bronstein = with(TimingMethod::Bronstein {
        delay: Millis::secs(10),
    });
    for laws in Laws::ALL {
        // 5 min + 60 × 10 s = 15 min: rapid in every edition.
        assert_eq!(category(&increment, laws), Category::Rapid, "{laws:?}");
        // A delay is not an increment (6.3 (b)): 5 minutes, blitz.
        assert_eq!(category(&simple, laws), Category::Blitz, "{laws:?}");
        assert_eq!(category(&bronstein, laws), Category::Blitz, "{laws:?}");
    }
}

#[test]
fn art_7_4_b_2009_two_minutes_for_each_of_the_first_two_illegal_moves_the_third_loses() {
    // Standard, rapid, and blitz under an arbiter (B.2: the competition rules apply).
    for (control, supervised) in [
        (TimeControl::fide_classical(), true),
        (sudden(25), true),
        (sudden(25), false),
        (sudden(5), true),
    ] {
        let mut g = game(control.clone(), Laws::Fide2009, supervised);
        let black = main_left(&g, B, at(1_000));
        illegal(&mut g, W, 1_000);
        illegal(&mut g, W, 2_000);
        assert_eq!(
            g.result(),
            None,
            "{control:?}: two illegal moves do not lose"
        );
        assert_eq!(
            main_left(&g, B, at(2_000)),
            black + Millis::mins(4),
            "{control:?}"
        );
        illegal(&mut g, W, 3_000);
        assert_eq!(
            g.result().map(|r| (r.outcome, r.reason)),
            Some((Outcome::BlackWins, Reason::IllegalMoves)),
            "{control:?}: the third loses"
        );
    }
}

#[test]
fn b3_c_2009_unsupervised_blitz_the_first_illegal_move_loses_or_draws() {
    for (can_mate, outcome) in [(true, Outcome::BlackWins), (false, Outcome::Draw)] {
        let mut g = game(sudden(5), Laws::Fide2009, false);
        g.execute(
            C::IllegalMove {
                by: W,
                opponent_can_mate: can_mate,
            },
            at(1_000),
        )
        .unwrap();
        assert_eq!(
            g.result().map(|r| (r.outcome, r.reason)),
            Some((outcome, Reason::IllegalMoves))
        );
    }
}

/// The time the first illegal move gives and that the second loses, per edition.
fn first_then_second(laws: Laws, control: TimeControl, bonus: Millis) {
    first_then_second_under(laws, control, bonus, &[true, false]);
}

fn first_then_second_under(laws: Laws, control: TimeControl, bonus: Millis, supervision: &[bool]) {
    for &supervised in supervision {
        let mut g = game(control.clone(), laws, supervised);
        let black = main_left(&g, B, at(1_000));
        illegal(&mut g, W, 1_000);
        assert_eq!(
            main_left(&g, B, at(1_000)),
            black + bonus,
            "{laws:?} {control:?}"
        );
        assert_eq!(g.result(), None);
        illegal(&mut g, W, 2_000);
        assert_eq!(
            g.result().map(|r| (r.outcome, r.reason)),
            Some((Outcome::BlackWins, Reason::IllegalMoves)),
            "{laws:?} {control:?}: the second loses"
        );
    }
}

#[test]
fn art_7_5_b_2014_two_minutes_in_every_category_the_second_loses_under_an_arbiter() {
    first_then_second(
        Laws::Fide2014,
        TimeControl::fide_classical(),
        Millis::mins(2),
    );
    for control in [sudden(25), sudden(5)] {
        first_then_second_under(Laws::Fide2014, control, Millis::mins(2), &[true]);
    }
}

#[test]
fn a_4_b_and_b_4_2014_unsupervised_rapid_and_blitz_the_first_illegal_move_loses() {
    for control in [sudden(25), sudden(5)] {
        for (can_mate, outcome) in [(true, Outcome::BlackWins), (false, Outcome::Draw)] {
            let mut g = game(control.clone(), Laws::Fide2014, false);
            g.execute(
                C::IllegalMove {
                    by: W,
                    opponent_can_mate: can_mate,
                },
                at(1_000),
            )
            .unwrap();
            assert_eq!(
                g.result().map(|r| (r.outcome, r.reason)),
                Some((outcome, Reason::IllegalMoves)),
                "{control:?}"
            );
        }
    }
}

#[test]
fn art_7_5_5_2018_one_minute_in_blitz_two_in_rapid_and_standard() {
    first_then_second(
        Laws::Fide2018,
        TimeControl::fide_classical(),
        Millis::mins(2),
    );
    first_then_second(Laws::Fide2018, sudden(25), Millis::mins(2));
    first_then_second(Laws::Fide2018, sudden(5), Millis::mins(1));
}

#[test]
fn art_7_5_5_2023_one_minute_in_rapid_and_blitz_two_in_standard() {
    first_then_second(
        Laws::Fide2023,
        TimeControl::fide_classical(),
        Millis::mins(2),
    );
    first_then_second(Laws::Fide2023, sudden(25), Millis::mins(1));
    first_then_second(Laws::Fide2023, sudden(5), Millis::mins(1));
}

#[test]
fn art_7_4_a_2009_7_5_a_2014_the_position_is_reinstated_and_the_offender_moves_again() {
    for laws in Laws::ALL {
        let mut g = game(TimeControl::fide_classical(), laws, true);
        g.execute(C::Press(W), at(10_000)).unwrap();
        g.execute(C::Press(B), at(20_000)).unwrap();
        // White completes an illegal move: his press starts Black's clock.
        g.execute(C::Press(W), at(30_000)).unwrap();
        assert_eq!(g.to_move(), Some(B));
        let events = g
            .execute(
                C::IllegalMove {
                    by: W,
                    opponent_can_mate: true,
                },
                at(35_000),
            )
            .unwrap();
        assert!(
            events.contains(&Event::Reinstated {
                color: W,
                at: at(35_000)
            }),
            "{laws:?}: {events:?}"
        );
        // White is on move again, his clock runs, and the illegal move is not counted.
        assert_eq!(g.to_move(), Some(W), "{laws:?}");
        assert_eq!(g.clock().running(), Some(Side::A));
        assert_eq!(g.clock().view(Side::A, at(35_000)).moves, 1, "{laws:?}");
        let black = main_left(&g, B, at(35_000));
        let white = main_left(&g, W, at(35_000));
        assert_eq!(main_left(&g, B, at(95_000)), black, "Black's clock stopped");
        assert_eq!(main_left(&g, W, at(95_000)), white - Millis::mins(1));
        // White replaces the move and presses; Black is on move.
        g.execute(C::Press(W), at(95_000)).unwrap();
        assert_eq!(g.to_move(), Some(B));
        assert_eq!(g.clock().view(Side::A, at(95_000)).moves, 2);
    }
}

#[test]
fn art_7_5_a_an_illegal_move_found_on_the_offenders_own_turn_leaves_the_turn() {
    // Found while White's clock runs (the arbiter stopped it first): nothing to hand back.
    let mut g = game(sudden(25), Laws::Fide2014, true);
    g.execute(C::Pause(PauseReason::DirectorStopped), at(5_000))
        .unwrap();
    let events = g
        .execute(
            C::IllegalMove {
                by: W,
                opponent_can_mate: true,
            },
            at(6_000),
        )
        .unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Reinstated { .. })));
    assert_eq!(g.to_move(), Some(W));
}

#[test]
fn art_6_12_c_only_the_arbiter_restarts_the_clock_and_only_he_interrupts_the_game() {
    assert!(C::Resume.is_arbiters(), "6.12 (c): the arbiter decides");
    assert!(
        C::Pause(PauseReason::DirectorStopped).is_arbiters(),
        "6.12 (a): the arbiter interrupts the game"
    );
    assert!(
        !C::Pause(PauseReason::DirectorCalled).is_arbiters(),
        "6.12 (b): a player may stop the clock to call the arbiter"
    );
}

/// A rapid game without increment (15 minutes) in which White, on move, has 1:50 left.
fn white_short_of_time(laws: Laws) -> Game {
    let mut g = game(sudden(15), laws, true);
    g.execute(C::Press(W), at(790_000)).unwrap();
    g.execute(C::Press(B), at(791_000)).unwrap();
    g
}

#[test]
fn art_10_2_g_5_iii_5_only_the_player_having_the_move_claims() {
    for laws in Laws::ALL {
        let mut g = white_short_of_time(laws);
        // Black has plenty of time, but it is about White in any case: Black is not on move.
        let err = g.execute(C::QuickplayClaim(B), at(792_000)).unwrap_err();
        assert_eq!(err.article, laws.quickplay_article(), "{laws:?}");
        g.execute(C::QuickplayClaim(W), at(792_000)).unwrap();
        assert_eq!(g.claim(), Some(W));
    }
}

#[test]
fn b3_b_2009_no_quickplay_claim_in_unsupervised_blitz_but_under_an_arbiter() {
    for (supervised, allowed) in [(true, true), (false, false)] {
        let mut g = game(sudden(3), Laws::Fide2009, supervised);
        g.execute(C::Press(W), at(70_000)).unwrap();
        g.execute(C::Press(B), at(71_000)).unwrap();
        let claim = g.execute(C::QuickplayClaim(W), at(71_000));
        assert_eq!(claim.is_ok(), allowed, "{claim:?}");
    }
}

#[test]
fn g3_iii_2_2014_2018_2023_no_quickplay_claim_in_blitz() {
    for laws in LATER {
        for supervised in [true, false] {
            let mut g = game(sudden(3), laws, supervised);
            g.execute(C::Press(W), at(70_000)).unwrap();
            g.execute(C::Press(B), at(71_000)).unwrap();
            let err = g.execute(C::QuickplayClaim(W), at(71_000)).unwrap_err();
            assert!(err.message.contains("not blitz"), "{laws:?}: {err}");
        }
    }
}

#[test]
fn g4_iii_4_an_increment_gives_the_opponent_two_minutes_and_2009_has_no_increment() {
    for laws in LATER {
        let mut g = white_short_of_time(laws);
        g.execute(C::QuickplayClaim(W), at(792_000)).unwrap();
        let black = main_left(&g, B, at(800_000));
        g.execute(C::QuickplayRuling(QuickplayRuling::Increment), at(800_000))
            .unwrap();
        assert_eq!(
            main_left(&g, B, at(800_000)),
            black + Millis::mins(2),
            "{laws:?}"
        );
        assert_eq!(g.claim(), None);
    }
    let mut g = white_short_of_time(Laws::Fide2009);
    g.execute(C::QuickplayClaim(W), at(792_000)).unwrap();
    let err = g
        .execute(C::QuickplayRuling(QuickplayRuling::Increment), at(800_000))
        .unwrap_err();
    assert_eq!(err.article, "10.2");
}

#[test]
fn art_10_2_b_g_5_the_arbiter_postpones_and_rules_after_the_flag() {
    for laws in Laws::ALL {
        for extra_time in [true, false] {
            let mut g = white_short_of_time(laws);
            g.execute(C::QuickplayClaim(W), at(792_000)).unwrap();
            let black = main_left(&g, B, at(800_000));
            g.execute(
                C::QuickplayRuling(QuickplayRuling::Postpone { extra_time }),
                at(800_000),
            )
            .unwrap();
            let bonus = if extra_time {
                Millis::mins(2)
            } else {
                Millis::ZERO
            };
            assert_eq!(main_left(&g, B, at(800_000)), black + bonus);
            // Play goes on, the claim still before the arbiter.
            assert!(g.claim_postponed());
            g.execute(C::Press(W), at(810_000)).unwrap();
            g.execute(C::Press(B), at(811_000)).unwrap();
            // White's flag falls: he loses on time, until the arbiter rules.
            g.catch_up(at(1_000_000));
            assert_eq!(g.result().map(|r| r.reason), Some(Reason::Flag));
            g.execute(C::QuickplayRuling(QuickplayRuling::Draw), at(1_000_000))
                .unwrap();
            assert_eq!(
                g.result().map(|r| (r.outcome, r.reason)),
                Some((Outcome::Draw, Reason::QuickplayFinish)),
                "{laws:?}"
            );
            assert_eq!(g.claim(), None);
        }
    }
}

#[test]
fn art_10_2_b_a_postponed_claim_rejected_later_gives_no_more_time() {
    let mut g = white_short_of_time(Laws::Fide2009);
    g.execute(C::QuickplayClaim(W), at(792_000)).unwrap();
    g.execute(
        C::QuickplayRuling(QuickplayRuling::Postpone { extra_time: true }),
        at(800_000),
    )
    .unwrap();
    g.execute(C::Press(W), at(810_000)).unwrap();
    let black = main_left(&g, B, at(820_000));
    g.execute(C::QuickplayRuling(QuickplayRuling::Reject), at(820_000))
        .unwrap();
    assert_eq!(main_left(&g, B, at(820_000)), black);
    assert_eq!((g.claim(), g.result()), (None, None));
    assert!(
        g.execute(C::QuickplayRuling(QuickplayRuling::Draw), at(821_000))
            .is_err(),
        "no claim is pending"
    );
}

#[test]
fn art_10_2_b_a_postponed_draw_after_the_flag_decides_a_one_game_match() {
    let settings = ChessSettings {
        players: ["Ann".into(), "Bo".into()],
        control: sudden(15),
        games: 1,
        start: START,
        default_time: Millis::mins(1),
        laws: Laws::Fide2014,
        supervised: true,
        chess960: false,
    };
    let mut m = ChessMatch::new(settings).unwrap();
    let game = |c| MatchCommand::Game(c);
    m.execute(&game(C::Arrive(W)), at(-1)).unwrap();
    m.execute(&game(C::Arrive(B)), at(-1)).unwrap();
    m.execute(&game(C::Press(W)), at(790_000)).unwrap();
    m.execute(&game(C::Press(B)), at(791_000)).unwrap();
    m.execute(&game(C::QuickplayClaim(W)), at(792_000)).unwrap();
    m.execute(
        &game(C::QuickplayRuling(QuickplayRuling::Postpone {
            extra_time: true,
        })),
        at(800_000),
    )
    .unwrap();
    m.execute(&MatchCommand::Tick, at(1_000_000)).unwrap();
    assert_eq!(m.winner(), Some(Side::B), "lost on time");
    m.execute(
        &game(C::QuickplayRuling(QuickplayRuling::Draw)),
        at(1_000_000),
    )
    .unwrap();
    assert!(m.is_over());
    assert_eq!(m.winner(), None, "drawn");
    assert_eq!(m.series().half_points(), (1, 1));
}
