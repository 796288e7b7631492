//! A move made but not yet completed by the press (6.2 (a)): the press completes it,
//! unless the made move ends the game — a checkmate made before the flag fell wins.

use baffle_core::chess::game::Command as C;
use baffle_core::chess::{Color, Event, Game, GameResult, GameSetup, Outcome, Reason};
use baffle_core::clock::{TimeControl, TimingMethod};
use baffle_core::{Millis, Timestamp};

const START: Timestamp = Timestamp(1_000_000);
const W: Color = Color::White;
const B: Color = Color::Black;

fn at(ms: i64) -> Timestamp {
    START + Millis(ms)
}

/// A supervised game of one minute each, started, White on move.
fn one_minute() -> Game {
    let control = TimeControl::single(Millis::mins(1), TimingMethod::SuddenDeath).unwrap();
    let mut g = Game::new(GameSetup::new(control, START));
    g.execute(C::Arrive(W), at(-1_000)).unwrap();
    g.execute(C::Arrive(B), at(-1_000)).unwrap();
    assert_eq!(g.catch_up(START), vec![Event::Started { at: START }]);
    g
}

fn result(g: &Game) -> Option<(Outcome, Reason)> {
    g.result().map(|r: GameResult| (r.outcome, r.reason))
}

#[test]
fn art_6_2_a_a_made_move_is_completed_only_by_the_press() {
    let mut g = one_minute();
    g.execute(C::MoveMade(W), at(50_000)).unwrap();
    assert!(g.execute(C::MoveMade(W), at(51_000)).is_err(), "made once");
    assert!(
        g.execute(C::MoveMade(B), at(51_000)).is_err(),
        "not on move"
    );
    // The flag falls before the press: the move was not completed, White lost on time.
    let events = g.catch_up(at(60_000));
    assert!(matches!(events[0], Event::FlagFell { color: W, .. }));
    assert_eq!(result(&g), Some((Outcome::BlackWins, Reason::Flag)));
}

#[test]
fn art_6_2_a_5_1_a_a_mating_move_made_before_the_flag_ends_the_game() {
    let mut g = one_minute();
    g.execute(C::MoveMade(W), at(59_000)).unwrap();
    g.catch_up(at(60_000)); // the flag falls before the press
    assert_eq!(result(&g), Some((Outcome::BlackWins, Reason::Flag)));
    // The arbiter (or the board) establishes the made move was mate: it ended the game.
    g.execute(C::Checkmate(W), at(62_000)).unwrap();
    assert_eq!(result(&g), Some((Outcome::WhiteWins, Reason::Checkmate)));
}

#[test]
fn art_6_2_a_a_mate_after_the_flag_comes_too_late() {
    let mut g = one_minute();
    g.catch_up(at(60_000));
    let e = g.execute(C::Checkmate(W), at(61_000)).unwrap_err();
    assert!(e.to_string().contains("6.2 (a)"), "{e}");
    assert_eq!(result(&g), Some((Outcome::BlackWins, Reason::Flag)));
    // A press clears a made move: a move made, pressed, then the next turn's flag.
    let mut g = one_minute();
    g.execute(C::MoveMade(W), at(1_000)).unwrap();
    g.execute(C::Press(W), at(2_000)).unwrap();
    g.execute(C::Press(B), at(3_000)).unwrap();
    g.catch_up(at(70_000));
    assert!(g.execute(C::Checkmate(W), at(71_000)).is_err());
}

#[test]
fn art_6_12_the_clocks_stop_only_to_call_the_arbiter_or_by_his_decision() {
    use baffle_core::clock::PauseReason;
    let mut g = one_minute();
    for reason in [
        PauseReason::Break,
        PauseReason::GameOver,
        PauseReason::RollDisputed,
    ] {
        let e = g.execute(C::Pause(reason), at(1_000)).unwrap_err();
        assert!(e.to_string().contains("6.12"), "{e}");
    }
    g.execute(C::Pause(PauseReason::DirectorCalled), at(1_000))
        .unwrap();
}
