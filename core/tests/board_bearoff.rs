//! The embedded bear-off tables (`core/src/backgammon/board/bearoff.rs`): the index is a
//! bijection, every entry is one more than the worst roll's best play (the minimax
//! recurrence, which with the empty board at 0 has one solution), and small boards agree
//! with an independent minimax over the slow checker's plays.

#[path = "board/race_oracle.rs"]
mod race_oracle;
#[path = "board/slow.rs"]
mod slow;

use std::collections::HashMap;

use baffle_core::backgammon::board::bearoff::{self, BOARDS, Table};

#[test]
fn every_home_board_has_one_index_and_back() {
    for i in 0..BOARDS {
        let h = bearoff::board_at(i).unwrap();
        assert_eq!(bearoff::index(&h), Some(i), "{h:?}");
    }
    assert_eq!(bearoff::board_at(BOARDS), None);
    assert_eq!(bearoff::index(&[16, 0, 0, 0, 0, 0]), None);
    assert_eq!(bearoff::board_at(0), Some([0; 6]));
}

/// The recurrence at board `i`: the worst roll's best play, plus one.
fn recurrence_holds(i: usize) {
    let h = bearoff::board_at(i).unwrap();
    let n: u8 = h.iter().sum();
    let kids = bearoff::children(&h);
    let worst = |rest: &dyn Fn(&[u8; 6]) -> u32| {
        kids.iter()
            .map(|plays| plays.iter().map(rest).min().unwrap())
            .max()
            .unwrap()
            + 1
    };
    let finish = worst(&|c| bearoff::most_turns(Table::Finish, c).unwrap());
    let first = worst(&|c| {
        if c.iter().sum::<u8>() < n {
            0
        } else {
            bearoff::most_turns(Table::FirstOff, c).unwrap()
        }
    });
    assert_eq!(
        bearoff::most_turns(Table::Finish, &h),
        Some(finish),
        "{h:?}"
    );
    assert_eq!(
        bearoff::most_turns(Table::FirstOff, &h),
        Some(first),
        "{h:?}"
    );
}

#[test]
fn every_entry_sampled_is_one_turn_more_than_its_worst_roll_allows() {
    // Every 13th board (4,175 of them) and the fullest ones: a test build checks each in
    // about a millisecond; the release generator builds them all.
    for i in (1..BOARDS).step_by(13).chain(BOARDS - 200..BOARDS) {
        recurrence_holds(i);
    }
}

#[test]
fn small_boards_agree_with_an_independent_minimax_for_both_tables() {
    let mut memo = HashMap::new();
    let mut first_memo = HashMap::new();
    // Up to five checkers: 462 boards.
    for i in 0..BOARDS {
        let h = bearoff::board_at(i).unwrap();
        if h.iter().sum::<u8>() > 5 {
            continue;
        }
        let mut side = [0u8; 25];
        side[..6].copy_from_slice(&h);
        let slow = race_oracle::most_turns_alone(&side, &mut memo);
        assert_eq!(bearoff::most_turns(Table::Finish, &h), Some(slow), "{h:?}");
        let slow = race_oracle::first_off_alone(&side, &mut first_memo);
        assert_eq!(
            bearoff::most_turns(Table::FirstOff, &h),
            Some(slow),
            "{h:?}"
        );
    }
}

#[test]
fn known_bear_offs() {
    // One checker on the 6: 2-1 leaves it on the 3, then any roll bears it off.
    assert_eq!(
        bearoff::most_turns(Table::Finish, &[0, 0, 0, 0, 0, 1]),
        Some(2)
    );
    // Two on the ace point: every roll bears both off.
    assert_eq!(
        bearoff::most_turns(Table::Finish, &[2, 0, 0, 0, 0, 0]),
        Some(1)
    );
    // One on the 6 point: 2-1 bears nothing off the first time, anything the second.
    assert_eq!(
        bearoff::most_turns(Table::FirstOff, &[0, 0, 0, 0, 0, 1]),
        Some(2)
    );
    // One on every point and the rest spread: every die bears a checker off.
    assert_eq!(
        bearoff::most_turns(Table::FirstOff, &[3, 3, 3, 2, 2, 2]),
        Some(1)
    );
}
