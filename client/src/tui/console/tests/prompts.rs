//! The console's prompts: a pause reason's digit, Greek sides, a ruling's reason and
//! article (the usual one offered), and a mistyped value typed again.

use super::super::*;
use super::{Action, answer, prompt_error, state};

#[test]
fn pausing_asks_for_a_permitted_reason_then_a_confirmation() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    board.key(Key::Char('p'));
    // The digit is the whole answer: no Enter.
    assert_eq!(board.key(Key::Char('9')), None);
    // Refused in words, and the prompt stays open for the right digit.
    assert!(prompt_error(&board).unwrap().contains("1 to 8"));
    board.key(Key::Char('4')); // game over, break, director called, dice picked up early, …
    let pending = board.key(Key::Char('y')).unwrap();
    assert_eq!(
        pending.order,
        Order::Execute(Action::Pause(v1::PauseReason::DicePickedUpEarly as i32))
    );
    assert!(pending.label.contains("dice picked up early"));
    board.key(Key::Char('p'));
    assert_eq!(board.key(Key::Esc), None);
    assert_eq!(board.prompt, None, "escape cancels");
}

#[test]
fn a_greek_keyboards_alpha_and_beta_are_the_sides() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    for (typed, side) in [("Α", v1::Side::A), ("β", v1::Side::B), ("b", v1::Side::B)] {
        board.key(Key::Char('w'));
        for c in typed.chars() {
            board.key(Key::Char(c));
        }
        board.key(Key::Enter);
        answer(&mut board, "slow play");
        answer(&mut board, "");
        let Some(Prompt::Confirm(p)) = &board.prompt else {
            panic!("{typed}: {:?} {:?}", board.prompt, board.ticker)
        };
        assert_eq!(
            p.order,
            Order::Execute(Action::Warn(side as i32)),
            "{typed}"
        );
        board.key(Key::Esc);
    }
}

#[test]
fn a_warning_and_penalty_points_carry_the_directors_reason_and_article() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    // A warning: the side, then the reason (required), then the article, 2.3 offered.
    board.key(Key::Char('w'));
    answer(&mut board, "B");
    let Some(Prompt::Input { label, .. }) = &board.prompt else {
        panic!("{:?}", board.prompt)
    };
    assert_eq!(label, "warn Ben in m: the reason for the ruling");
    answer(&mut board, "  ");
    assert_eq!(
        prompt_error(&board).as_deref(),
        Some("a ruling needs a reason: type it")
    );
    answer(&mut board, "slow play after two reminders");
    let Some(Prompt::Input { label, .. }) = &board.prompt else {
        panic!("{:?}", board.prompt)
    };
    assert_eq!(label, "article of the regulations (Enter: 2.3)");
    answer(&mut board, "");
    let Some(Prompt::Confirm(p)) = &board.prompt else {
        panic!("{:?}", board.prompt)
    };
    assert_eq!(
        p.label,
        "warn Ben in m (art. 2.3: slow play after two reminders)"
    );
    let warned = board.key(Key::Char('y')).expect("confirmed");
    let ruling = warned.ruling.unwrap();
    assert_eq!(
        (ruling.reason.as_str(), ruling.article.as_str()),
        ("slow play after two reminders", "2.3")
    );
    // Penalty points: lateness, 2.2, offered; another article typed over it.
    board.key(Key::Char('x'));
    answer(&mut board, "A 1");
    answer(&mut board, "10 minutes late");
    let Some(Prompt::Input { label, .. }) = &board.prompt else {
        panic!("{:?}", board.prompt)
    };
    assert!(label.ends_with("(Enter: 2.2)"), "{label}");
    answer(&mut board, "");
    let late = board.key(Key::Char('y')).expect("confirmed");
    let ruling = late.ruling.unwrap();
    assert_eq!(
        (ruling.reason.as_str(), ruling.article.as_str()),
        ("10 minutes late", "2.2")
    );
    board.key(Key::Char('x'));
    answer(&mut board, "B 1");
    answer(&mut board, "left the table");
    answer(&mut board, "2.3");
    let other = board.key(Key::Char('y')).expect("confirmed");
    assert_eq!(other.ruling.unwrap().article, "2.3");
    // Esc at the reason sends nothing.
    board.key(Key::Char('w'));
    answer(&mut board, "A");
    assert_eq!(board.key(Key::Esc), None);
    assert_eq!(board.prompt, None);
}

#[test]
fn a_mistyped_value_keeps_the_prompt_open_with_the_error() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    board.key(Key::Char('a'));
    assert_eq!(answer(&mut board, "B zz"), None);
    let Some(Prompt::Input { buffer, error, .. }) = &board.prompt else {
        panic!("the prompt closed: {:?}", board.prompt)
    };
    assert_eq!(buffer, "B zz", "what he typed stays, to correct");
    assert!(
        error.as_ref().unwrap().contains("not a duration"),
        "{error:?}"
    );
    for _ in 0..2 {
        board.key(Key::Backspace);
    }
    answer(&mut board, "-30s");
    answer(&mut board, "the clock ran while the table was moved");
    answer(&mut board, "");
    let adjusted = board.key(Key::Char('y')).expect("confirmed");
    assert_eq!(
        adjusted.order,
        Order::Execute(Action::AdjustTime(v1::TimeChange {
            side: v1::Side::B as i32,
            ms: -30_000
        }))
    );
    // A side that is neither: the same.
    board.key(Key::Char('w'));
    answer(&mut board, "C");
    assert!(prompt_error(&board).is_some(), "{:?}", board.prompt);
}

#[test]
fn a_question_answered_no_says_nothing_was_sent() {
    let mut board = Dashboard::new("open");
    board.update(state("m"));
    board.key(Key::Char('w'));
    answer(&mut board, "B");
    answer(&mut board, "slow play");
    answer(&mut board, "");
    assert_eq!(board.key(Key::Char('n')), None);
    assert!(
        board
            .ticker
            .iter()
            .any(|t| t.contains("not sent: warn Ben in m")),
        "{:?}",
        board.ticker
    );
}
