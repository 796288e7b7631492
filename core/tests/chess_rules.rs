//! The chess clock rules (`../shared/rules/chess-clock.md`), one test per article, named
//! after it. Times are passed in: a 90-minute period is tested in microseconds.

use baffle_core::Timestamp;
use baffle_core::chess::game::{Command as C, QuickplayRuling};
use baffle_core::chess::{
    Category, Chess960, Color, Event, Game, GameResult, GameSetup, Laws, Outcome, Reason, Series,
    category,
};
use baffle_core::clock::{Period, TimeControl, TimingMethod};
use baffle_core::dice::DiceStream;
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

fn fischer(mins: i64, secs: i64) -> TimeControl {
    TimeControl::single(
        Millis::mins(mins),
        TimingMethod::Fischer {
            increment: Millis::secs(secs),
        },
    )
    .unwrap()
}

/// A game whose players are both at the board before the start, started.
fn started(control: TimeControl) -> Game {
    started_with(GameSetup::new(control, START))
}

fn started_with(setup: GameSetup) -> Game {
    let mut g = Game::new(setup);
    g.execute(C::Arrive(W), at(-60_000)).unwrap();
    g.execute(C::Arrive(B), at(-30_000)).unwrap();
    assert_eq!(g.catch_up(START), vec![Event::Started { at: START }]);
    g
}

/// An unsupervised game (no arbiter watching), started.
fn unsupervised(control: TimeControl) -> Game {
    let mut setup = GameSetup::new(control, START);
    setup.supervised = false;
    started_with(setup)
}

fn draw_by_both_flags() -> Option<GameResult> {
    Some(GameResult {
        outcome: Outcome::Draw,
        reason: Reason::BothFlags,
    })
}

fn main_left(g: &Game, color: Color, now: Timestamp) -> Millis {
    g.clock().view(color.side(), now).main
}

#[test]
fn a1_b1_category_from_base_plus_60_times_increment_under_both_boundaries() {
    let cases = [
        // (control, 2009, later)
        (sudden(5), Category::Blitz, Category::Blitz),
        (fischer(3, 2), Category::Blitz, Category::Blitz),
        (sudden(10), Category::Blitz, Category::Blitz),
        (sudden(12), Category::Blitz, Category::Rapid),
        (fischer(10, 5), Category::Rapid, Category::Rapid),
        (sudden(15), Category::Rapid, Category::Rapid),
        (fischer(45, 15), Category::Standard, Category::Standard),
        (sudden(59), Category::Rapid, Category::Rapid),
        (sudden(60), Category::Standard, Category::Standard),
        (
            TimeControl::fide_classical(),
            Category::Standard,
            Category::Standard,
        ),
        (TimeControl::rapid(), Category::Rapid, Category::Rapid),
        (TimeControl::blitz(), Category::Blitz, Category::Blitz),
    ];
    for (control, old, later) in cases {
        assert_eq!(category(&control, Laws::Fide2009), old, "{control:?}");
        assert_eq!(category(&control, Laws::Fide2023), later, "{control:?}");
    }
}

#[test]
fn art_6_6_whites_clock_starts_at_the_scheduled_start() {
    let mut g = Game::new(GameSetup::new(sudden(10), START));
    g.execute(C::Arrive(W), at(-1)).unwrap();
    g.execute(C::Arrive(B), at(-1)).unwrap();
    assert_eq!(g.next_due(), Some(START));
    assert!(g.catch_up(at(-1)).is_empty());
    g.catch_up(at(5_000));
    assert_eq!(g.to_move(), Some(W));
    assert_eq!(
        main_left(&g, W, at(5_000)),
        Millis::mins(10) - Millis::secs(5)
    );
    assert_eq!(main_left(&g, B, at(5_000)), Millis::mins(10));
}

#[test]
fn art_6_2_only_the_player_on_move_presses_and_the_time_belongs_to_him() {
    let mut g = started(sudden(10));
    let e = g.execute(C::Press(B), at(1_000)).unwrap_err();
    assert_eq!(e.article, "6.2");
    g.execute(C::Press(W), at(7_000)).unwrap();
    assert_eq!(g.to_move(), Some(B));
    assert_eq!(
        main_left(&g, W, at(9_000)),
        Millis::mins(10) - Millis::secs(7)
    );
}

#[test]
fn art_6_7_a_player_arriving_after_the_default_time_loses() {
    let mut setup = GameSetup::new(sudden(60), START);
    setup.default_time = Millis::mins(30);
    let mut g = Game::new(setup);
    g.execute(C::Arrive(W), at(-1)).unwrap();
    // Black is not there; White plays his move, and Black's clock runs.
    g.execute(C::Press(W), at(4_000)).unwrap();
    assert_eq!(g.next_due(), Some(at(30 * 60_000)));
    let events = g.catch_up(at(30 * 60_000 + 5));
    assert!(matches!(
        events.last(),
        Some(Event::Ended {
            result: GameResult {
                outcome: Outcome::WhiteWins,
                reason: Reason::Default
            },
            ..
        })
    ));
}

#[test]
fn art_6_7_unless_the_arbiter_decides_otherwise() {
    let mut setup = GameSetup::new(sudden(60), START);
    setup.default_time = Millis::mins(15);
    let mut g = Game::new(setup);
    g.execute(C::Arrive(W), at(-1)).unwrap();
    g.execute(C::ExcuseLateness(B), at(60_000)).unwrap();
    assert!(
        g.catch_up(at(20 * 60_000))
            .iter()
            .all(|e| !matches!(e, Event::Ended { .. }))
    );
    g.execute(C::Press(W), at(20 * 60_000)).unwrap();
    g.execute(C::Arrive(B), at(25 * 60_000)).unwrap();
    assert_eq!(g.result(), None);
    // Black's clock ran from White's move.
    assert_eq!(main_left(&g, B, at(25 * 60_000)), Millis::mins(55));
}

#[test]
fn art_6_7_neither_present_whites_time_runs_until_he_arrives() {
    let mut setup = GameSetup::new(sudden(60), START);
    setup.default_time = Millis::mins(30);
    let mut g = Game::new(setup);
    g.catch_up(START);
    g.execute(C::Arrive(W), at(10 * 60_000)).unwrap();
    assert_eq!(main_left(&g, W, at(10 * 60_000)), Millis::mins(50));
    g.execute(C::Arrive(B), at(12 * 60_000)).unwrap();
    g.execute(C::Press(W), at(13 * 60_000)).unwrap();
    assert_eq!(main_left(&g, W, at(13 * 60_000)), Millis::mins(47));
}

#[test]
fn art_6_7_both_absent_at_the_default_time_both_lose_and_2009_zero_default_means_at_the_start() {
    let mut g = Game::new(GameSetup::new(sudden(60), START));
    let events = g.catch_up(START);
    assert_eq!(
        g.result(),
        Some(GameResult {
            outcome: Outcome::BothLose,
            reason: Reason::Default
        }),
        "{events:?}"
    );
}

#[test]
fn art_6_4_6_8_6_9_a_flag_is_recorded_at_its_instant_with_the_moves_made_and_a_late_notice() {
    // 10 minutes for 40 moves, then 5 for the rest: White makes 2 moves and runs out.
    let control = TimeControl::new(vec![
        Period::new(Millis::mins(10), Some(40), TimingMethod::SuddenDeath),
        Period::new(Millis::mins(5), None, TimingMethod::SuddenDeath),
    ])
    .unwrap();
    let mut g = started(control);
    g.execute(C::Press(W), at(60_000)).unwrap();
    g.execute(C::Press(B), at(70_000)).unwrap();
    g.execute(C::Press(W), at(80_000)).unwrap();
    g.execute(C::Press(B), at(90_000)).unwrap();
    // White has 10:00 − 1:00 − 0:10 = 8:50 left from 90 s on: the flag falls at 620 s.
    let flag_at = at(90_000 + 530_000);
    assert_eq!(g.next_due(), Some(flag_at));
    let events = g.catch_up(at(700_000));
    assert_eq!(
        events[0],
        Event::FlagFell {
            color: W,
            at: flag_at,
            moves_due: Some(40),
            moves_made: 2,
            // Noticed only at 700 s: the time of the notice is recorded beside it.
            noticed_at: Some(at(700_000)),
        }
    );
    assert_eq!(
        g.result(),
        Some(GameResult {
            outcome: Outcome::BlackWins,
            reason: Reason::Flag
        })
    );
    assert_eq!(g.flags(), &[(W, flag_at)]);
    assert_eq!(g.flag_notices(), &[Some(at(700_000))]);
    // The result stands at the clock's instant, not the notice.
    assert!(matches!(events.last(), Some(Event::Ended { at, .. }) if *at == flag_at));
    // Recorded at its instant, nothing more is said.
    let mut on_time =
        started(TimeControl::single(Millis::mins(1), TimingMethod::SuddenDeath).unwrap());
    let events = on_time.catch_up(at(60_000));
    assert!(matches!(
        events[0],
        Event::FlagFell {
            noticed_at: None,
            ..
        }
    ));
    assert!(
        !serde_json::to_string(&events[0])
            .unwrap()
            .contains("noticed")
    );
    assert_eq!(on_time.flag_notices(), &[None]);
    // The game is over: no more presses.
    assert!(g.execute(C::Press(W), at(700_000)).is_err());
}

#[test]
fn art_6_9_a_flag_against_an_opponent_who_cannot_mate_is_a_draw() {
    let mut g = started(sudden(1));
    g.catch_up(at(61_000));
    assert_eq!(g.result().unwrap().reason, Reason::Flag);
    g.execute(C::CannotCheckmate, at(62_000)).unwrap();
    assert_eq!(
        g.result(),
        Some(GameResult {
            outcome: Outcome::Draw,
            reason: Reason::FlagInsufficientMaterial
        })
    );
    // Only a loss on time can be turned into a draw this way.
    let mut g = started(sudden(1));
    g.execute(C::Resign(W), at(1_000)).unwrap();
    assert_eq!(
        g.execute(C::CannotCheckmate, at(2_000))
            .unwrap_err()
            .article,
        "6.9"
    );
}

#[test]
fn art_6_3_b_a_classical_control_crosses_move_40_with_saved_time_carried_over() {
    // FIDE classical: 90 min for 40 moves, then 30 min, 30 s per move from move 1.
    let mut g = started(TimeControl::fide_classical());
    let mut now = 0;
    for _ in 0..40 {
        now += 60_000; // White: a minute a move
        g.execute(C::Press(W), at(now)).unwrap();
        now += 30_000; // Black: 30 s a move
        g.execute(C::Press(B), at(now)).unwrap();
    }
    // White: 90 min − 40 min used + 30 s for each of the first 41 moves (one before the
    // start, as on a DGT 3000), then 30 min for the second period.
    let w = g.clock().view(Side::A, at(now));
    assert_eq!(w.period, 1);
    assert_eq!(
        w.main,
        Millis::mins(90) - Millis::mins(40) + Millis::secs(30) * 41 + Millis::mins(30)
    );
    let b = g.clock().view(Side::B, at(now));
    assert_eq!(
        b.main,
        Millis::mins(90) - Millis::mins(20) + Millis::secs(30) * 41 + Millis::mins(30)
    );
}

#[test]
fn art_6_10_the_arbiter_corrects_times_and_move_counters_with_the_clocks_stopped() {
    let mut g = started(TimeControl::fide_classical());
    g.execute(C::Press(W), at(10_000)).unwrap();
    let e = g
        .execute(C::SetTime(W, Millis::mins(80)), at(11_000))
        .unwrap_err();
    assert_eq!(e.article, "6.10");
    g.execute(
        C::Pause(baffle_core::clock::PauseReason::DirectorStopped),
        at(12_000),
    )
    .unwrap();
    g.execute(C::SetTime(W, Millis::mins(80)), at(13_000))
        .unwrap();
    g.execute(C::SetMoves(W, 39), at(13_000)).unwrap();
    g.execute(C::Resume, at(20_000)).unwrap();
    let w = g.clock().view(Side::A, at(20_000));
    assert_eq!((w.main, w.moves, w.period), (Millis::mins(80), 39, 0));
    // Black is still on move; the pause cost nobody time.
    assert_eq!(
        main_left(&g, B, at(20_000)),
        Millis::mins(90) + Millis::secs(30) - Millis::secs(2)
    );
}

#[test]
fn art_6_11_both_flags_of_unknown_order_continue_or_draw_in_the_last_period() {
    // Before the last period: the game goes on.
    let control = TimeControl::new(vec![
        Period::new(Millis::mins(1), Some(40), TimingMethod::SuddenDeath),
        Period::new(Millis::mins(1), None, TimingMethod::SuddenDeath),
    ])
    .unwrap();
    let mut g = unsupervised(control);
    // Unsupervised rapid: White's flag falls and nobody claims; he moves on.
    g.catch_up(at(61_000));
    assert_eq!(g.result(), None);
    assert_eq!(g.flags().len(), 1);
    assert_eq!(
        g.execute(C::FlagOrderUnknown, at(61_000))
            .unwrap_err()
            .article,
        "6.11"
    );
    g.execute(C::Press(W), at(61_000)).unwrap();
    g.catch_up(at(130_000));
    assert_eq!(g.flags().len(), 2);
    g.execute(C::FlagOrderUnknown, at(130_000)).unwrap();
    assert_eq!(g.result(), None, "6.11 (a): play on");
    assert!(g.flags().is_empty());

    // In the last period: a draw.
    let mut g = unsupervised(sudden(1));
    g.catch_up(at(61_000));
    g.execute(C::Press(W), at(61_000)).unwrap();
    g.catch_up(at(130_000));
    g.execute(C::FlagOrderUnknown, at(130_000)).unwrap();
    assert_eq!(g.result(), draw_by_both_flags());
}

#[test]
fn a4_d_unsupervised_rapid_a_flag_counts_only_when_claimed_and_both_flags_draw() {
    let mut g = unsupervised(sudden(15));
    g.execute(C::Press(W), at(14 * 60_000)).unwrap();
    // Black's flag falls at 29:00; nobody claims, the game goes on.
    g.catch_up(at(30 * 60_000));
    assert_eq!(g.result(), None);
    assert_eq!(
        g.execute(C::ClaimFlag(B), at(30 * 60_000))
            .unwrap_err()
            .article,
        "6.8"
    );
    // White claims: Black loses.
    let mut claimed = g.clone();
    claimed.execute(C::ClaimFlag(W), at(30 * 60_000)).unwrap();
    assert_eq!(claimed.result().unwrap().outcome, Outcome::WhiteWins);
    // Instead Black moves on, and White's flag falls too: then a claim is a draw.
    g.execute(C::Press(B), at(30 * 60_000)).unwrap();
    g.catch_up(at(32 * 60_000));
    g.execute(C::ClaimFlag(B), at(32 * 60_000)).unwrap();
    assert_eq!(g.result(), draw_by_both_flags());
}

#[test]
fn art_6_12_the_arbiter_stops_and_restarts_the_clocks() {
    let mut g = started(sudden(10));
    g.execute(
        C::Pause(baffle_core::clock::PauseReason::DirectorCalled),
        at(5_000),
    )
    .unwrap();
    assert!(g.execute(C::Press(W), at(6_000)).is_err());
    g.execute(C::Resume, at(65_000)).unwrap();
    assert_eq!(
        main_left(&g, W, at(65_000)),
        Millis::mins(10) - Millis::secs(5)
    );
}

#[test]
fn art_7_5_a_first_illegal_move_gives_the_opponent_time_by_category_and_laws() {
    let cases = [
        // (control, laws, bonus)
        (
            TimeControl::fide_classical(),
            Laws::Fide2023,
            Millis::mins(2),
        ),
        (sudden(5), Laws::Fide2023, Millis::mins(1)),
        (sudden(25), Laws::Fide2023, Millis::mins(1)),
        (sudden(25), Laws::Fide2009, Millis::mins(2)),
    ];
    for (control, laws, bonus) in cases {
        let mut setup = GameSetup::new(control, START);
        setup.laws = laws;
        let mut g = started_with(setup);
        let before = main_left(&g, B, at(3_000));
        g.execute(
            C::IllegalMove {
                by: W,
                opponent_can_mate: true,
            },
            at(3_000),
        )
        .unwrap();
        assert_eq!(main_left(&g, B, at(3_000)), before + bonus, "{laws:?}");
        assert_eq!(g.illegal_moves(), [1, 0]);
    }
}

#[test]
fn art_7_5_a_second_illegal_move_loses_or_draws_if_the_opponent_cannot_mate() {
    for (can_mate, outcome) in [(true, Outcome::BlackWins), (false, Outcome::Draw)] {
        let mut g = started(sudden(10));
        // Pressing without moving counts as an illegal move: the arbiter records it so.
        for _ in 0..2 {
            g.execute(
                C::IllegalMove {
                    by: W,
                    opponent_can_mate: can_mate,
                },
                at(3_000),
            )
            .unwrap();
        }
        assert_eq!(
            g.result(),
            Some(GameResult {
                outcome,
                reason: Reason::IllegalMoves
            })
        );
    }
}

#[test]
fn g_quickplay_finish_claims_need_under_two_minutes_no_increment_and_the_move() {
    let mut g = started(fischer(15, 2));
    g.execute(C::Press(W), at(90_000)).unwrap();
    g.execute(C::Press(B), at(91_000)).unwrap();
    assert!(
        g.execute(C::QuickplayClaim(W), at(95_000)).is_err(),
        "increment"
    );

    // Rapid, 15 minutes sudden death.
    let mut g = started(sudden(15));
    assert!(
        g.execute(C::QuickplayClaim(W), at(30_000)).is_err(),
        "14:30 left"
    );
    g.execute(C::Press(W), at(790_000)).unwrap();
    g.execute(C::Press(B), at(791_000)).unwrap();
    // White has 1:50 left, and the move; Black may not claim for him.
    let err = g.execute(C::QuickplayClaim(B), at(791_000)).unwrap_err();
    assert!(err.message.contains("having the move"), "{err}");
    g.execute(C::QuickplayClaim(W), at(791_000)).unwrap();
    assert!(
        g.execute(C::Press(W), at(792_000)).is_err(),
        "the clocks are stopped"
    );

    // Rejected: two minutes to the opponent.
    let mut rejected = g.clone();
    rejected
        .execute(C::QuickplayRuling(QuickplayRuling::Reject), at(810_000))
        .unwrap();
    assert_eq!(
        main_left(&rejected, B, at(810_000)),
        Millis::mins(15) - Millis::secs(1) + Millis::mins(2)
    );
    assert_eq!(main_left(&rejected, W, at(810_000)), Millis::secs(110));

    // Upheld: a draw.
    let mut upheld = g.clone();
    upheld
        .execute(C::QuickplayRuling(QuickplayRuling::Draw), at(810_000))
        .unwrap();
    assert_eq!(upheld.result().unwrap().reason, Reason::QuickplayFinish);

    // Or a 5-second increment for both from now, and two minutes to the opponent (G.4).
    g.execute(C::QuickplayRuling(QuickplayRuling::Increment), at(810_000))
        .unwrap();
    assert_eq!(
        main_left(&g, B, at(810_000)),
        Millis::mins(15) - Millis::secs(1) + Millis::mins(2)
    );
    g.execute(C::Press(W), at(820_000)).unwrap();
    assert_eq!(main_left(&g, W, at(820_000)), Millis::secs(110 - 10 + 5));
}

#[test]
fn results_carry_their_reason() {
    let mut g = started(sudden(10));
    g.execute(C::Checkmate(B), at(1_000)).unwrap();
    assert_eq!(
        g.result(),
        Some(GameResult {
            outcome: Outcome::BlackWins,
            reason: Reason::Checkmate
        })
    );
    let mut g = started(sudden(10));
    g.execute(C::AgreeDraw, at(1_000)).unwrap();
    assert_eq!(g.result().unwrap().outcome.half_points(), (1, 1));
    assert!(g.execute(C::Resign(W), at(2_000)).is_err(), "over");
}

#[test]
fn the_state_is_the_fold_of_its_events() {
    let mut g = Game::new(GameSetup::new(TimeControl::fide_classical(), START));
    let mut log = Vec::new();
    let commands = [
        (C::Arrive(W), -5),
        (C::Arrive(B), -2),
        (C::Press(W), 30_000),
        (C::Press(B), 50_000),
        (
            C::IllegalMove {
                by: B,
                opponent_can_mate: true,
            },
            51_000,
        ),
        (
            C::Pause(baffle_core::clock::PauseReason::DirectorStopped),
            52_000,
        ),
        (C::SetMoves(B, 0), 53_000),
        (C::Resume, 54_000),
        // 7.5 (a): the position before the illegal move is reinstated: Black again.
        (C::Press(B), 60_000),
        (C::Press(W), 80_000),
        (C::Resign(B), 90_000),
    ];
    for (c, t) in commands {
        log.extend(g.execute(c, at(t)).unwrap());
    }
    let mut replayed = Game::new(GameSetup::new(TimeControl::fide_classical(), START));
    for e in &log {
        // Events are audit bodies: they survive JSON.
        let json = serde_json::to_string(e).unwrap();
        let back: Event = serde_json::from_str(&json).unwrap();
        replayed.evolve(&back).unwrap();
    }
    assert_eq!(replayed, g);
}

#[test]
fn a_match_alternates_colours_and_counts_half_points() {
    let mut s = Series::new(4, None);
    assert_eq!(
        (s.white_in(1), s.white_in(2), s.white_in(3)),
        (Side::A, Side::B, Side::A)
    );
    let win = |outcome| GameResult {
        outcome,
        reason: Reason::Resignation,
    };
    s.record(win(Outcome::WhiteWins)).unwrap(); // A wins with White
    s.record(win(Outcome::WhiteWins)).unwrap(); // B wins with White
    s.record(win(Outcome::Draw)).unwrap();
    assert_eq!(s.half_points(), (3, 3));
    assert_eq!(s.current(), Some(4));
    s.record(win(Outcome::BlackWins)).unwrap(); // game 4: B has White, A wins with Black
    assert_eq!(s.half_points(), (5, 3));
    assert_eq!(s.winner(), Some(Side::A));
    assert!(s.record(win(Outcome::Draw)).is_err());
}

#[test]
fn f_chess960_positions_come_from_the_audited_stream() {
    assert_eq!(Chess960::numbered(518).unwrap().back_rank, "RNBQKBNR");
    let mut stream = DiceStream::new([7; 32]);
    let p = Chess960::draw(&mut stream);
    // The same key gives the same position: anyone can recompute it after the reveal.
    assert_eq!(Chess960::draw(&mut DiceStream::new([7; 32])), p);
    let rank: Vec<char> = p.back_rank.chars().collect();
    let king = rank.iter().position(|c| *c == 'K').unwrap();
    let rooks: Vec<usize> = (0..8).filter(|i| rank[*i] == 'R').collect();
    assert!(
        rooks[0] < king && king < rooks[1],
        "the king between the rooks"
    );
    let bishops: Vec<usize> = (0..8).filter(|i| rank[*i] == 'B').collect();
    assert_ne!(bishops[0] % 2, bishops[1] % 2, "bishops on both colours");
}
