//! The board's rules, one test per rule, named after its article (4.2 moves, 4.5 what a
//! game is worth), with perft-style counts of known positions and GNU Backgammon's IDs
//! pinned to what gnubg itself prints.

#[path = "board/slow.rs"]
mod slow;

#[path = "board/positions.rs"]
mod positions;

use baffle_core::backgammon::WinKind;
use baffle_core::backgammon::board::{GameState, MatchId, Notation, Position, accept, legal_plays};
use positions::pos;

fn written(p: &Position, dice: [u8; 2]) -> Vec<String> {
    let mut w: Vec<String> = legal_plays(p, dice)
        .unwrap()
        .iter()
        .map(|p| p.to_string())
        .collect();
    w.sort();
    w
}

/// The count of distinct plays of each opening roll: the slow checker's, and, for 5-5
/// (4: no 6/1, the 1 point is held) and 6-6 (11), counted by hand.
const OPENING_COUNTS: [((u8, u8), usize); 21] = [
    ((1, 1), 42),
    ((1, 2), 15),
    ((1, 3), 16),
    ((1, 4), 14),
    ((1, 5), 8),
    ((1, 6), 10),
    ((2, 2), 75),
    ((2, 3), 17),
    ((2, 4), 18),
    ((2, 5), 8),
    ((2, 6), 14),
    ((3, 3), 73),
    ((3, 4), 17),
    ((3, 5), 9),
    ((3, 6), 14),
    ((4, 4), 52),
    ((4, 5), 9),
    ((4, 6), 14),
    ((5, 5), 4),
    ((5, 6), 7),
    ((6, 6), 11),
];

#[test]
fn perft_the_21_opening_rolls_have_the_counts_of_the_slow_checker_and_by_hand() {
    let start = Position::starting();
    let mut total = 0;
    for ((a, b), n) in OPENING_COUNTS {
        assert_eq!(legal_plays(&start, [a, b]).unwrap().len(), n, "{a}-{b}");
        assert_eq!(legal_plays(&start, [b, a]).unwrap().len(), n, "{b}-{a}");
        assert_eq!(slow::legal_results(&start, [a, b]).len(), n, "{a}-{b} slow");
        total += n;
    }
    assert_eq!(total, 447);
    assert_eq!(
        written(&start, [5, 5]),
        ["13/3 8/3(2)", "13/3(2)", "13/8(2) 13/3", "13/8(4)"].map(String::from)
    );
}

#[test]
fn perft_two_plies_from_the_start_match_the_slow_checker() {
    // Every position after one opening play, every roll of the reply: the sums agree.
    let start = Position::starting();
    let (mut fast, mut slow_total) = (0usize, 0usize);
    for ((a, b), _) in OPENING_COUNTS.iter().filter(|((a, b), _)| a != b) {
        for play in legal_plays(&start, [*a, *b]).unwrap() {
            let reply = play.result.swap();
            for ((c, d), _) in OPENING_COUNTS {
                fast += legal_plays(&reply, [c, d]).unwrap().len();
                slow_total += slow::legal_results(&reply, [c, d]).len();
            }
        }
    }
    assert_eq!(fast, slow_total);
    assert_eq!(fast, 89_153);
}

#[test]
fn rule_4_2_both_dice_are_played_when_both_can_be() {
    // 6-1, checkers on the 8 and the 6, the 2 point held: 8/2 is closed, and the 1 alone
    // (8/7 or 6/5) would leave the 6 unplayed; only 8/7/1 plays both.
    let p = pos(&[(8, 1), (6, 1)], &[(23, 2)]);
    assert_eq!(written(&p, [6, 1]), ["8/1"]);
    for lone in ["6/5", "8/7", ""] {
        let err = accept(&p, [6, 1], lone).unwrap_err();
        assert_eq!(err.article, "4.2 (iii)");
        assert!(err.to_string().contains("uses 2 dice"), "{err}");
    }
}

#[test]
fn rule_4_2_when_only_one_die_can_be_played_it_is_the_higher() {
    // One checker on the 24; the opponent holds the mover's 18 and 14: 6-4 can play only
    // the 4 (24/20, then 20/14 is closed).
    let p = pos(&[(24, 1)], &[(7, 2), (11, 2)]);
    assert_eq!(written(&p, [6, 4]), ["24/20"]);
    // Only the 14 held: 24/18 and 24/20 are each open, but neither goes on: the 6 goes.
    let p = pos(&[(24, 1)], &[(11, 2)]);
    assert_eq!(written(&p, [6, 4]), ["24/18"]);
    let err = accept(&p, [6, 4], "24/20").unwrap_err();
    assert!(err.to_string().contains("the higher"), "{err}");
}

#[test]
fn rule_4_2_a_checker_on_the_bar_enters_before_anything_else_moves() {
    // On the bar against a five-point board with only the 22 (the opponent's 3) open.
    let board = [(1, 2), (2, 2), (4, 2), (5, 2), (6, 2)];
    let p = pos(&[(25, 1), (13, 5)], &board);
    assert_eq!(written(&p, [3, 5]), ["bar/17", "bar/22 13/8"]);
    // Any roll without a 3 cannot enter: no move at all, not even 13/8.
    assert_eq!(written(&p, [5, 4]), [""]);
    assert!(accept(&p, [5, 4], "").is_ok());
    assert_eq!(accept(&p, [5, 4], "13/8").unwrap_err().article, "4.2 (iii)");
    // Two on the bar with 3-3: both enter first, then two more threes anywhere.
    let p = pos(&[(25, 2), (13, 3)], &board);
    let plays = written(&p, [3, 3]);
    assert!(!plays.is_empty());
    assert!(plays.iter().all(|w| w.starts_with("bar/")), "{plays:?}");
    assert!(
        plays.iter().all(|p| p != "bar/22(2)"),
        "all four threes must be played"
    );
    // A closed board: nothing moves, whatever the roll.
    let closed = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)];
    let p = pos(&[(25, 1), (13, 2)], &closed);
    for a in 1..=6 {
        for b in 1..=6 {
            assert_eq!(written(&p, [a, b]), [""]);
        }
    }
}

#[test]
fn rule_4_2_bearing_off_needs_every_checker_home_and_a_larger_die_only_from_the_top() {
    // A checker on the 7: nothing bears off before it is home.
    let p = pos(&[(7, 1), (5, 1), (2, 1)], &[(13, 1)]);
    assert!(legal_plays(&p, [6, 5]).unwrap().iter().all(|p| {
        let s = p.steps.to_vec();
        s[0].from == 7 || s[1].from == 7 && s[0].to != 0
    }));
    // 6-5 with checkers on the 4 and 2: both dice bear off, from the highest first.
    let p = pos(&[(4, 1), (2, 1)], &[(13, 1)]);
    assert_eq!(written(&p, [6, 5]), ["4/off 2/off"]);
    // 2-1 with checkers on the 6 and 5: no die reaches off.
    let p = pos(&[(6, 1), (5, 1)], &[(13, 1)]);
    assert!(written(&p, [2, 1]).iter().all(|w| !w.contains("off")));
    // 6-1 with checkers on the 3 and the 1: the 6 only from the highest point.
    let p = pos(&[(3, 1), (1, 1)], &[(13, 1)]);
    assert_eq!(written(&p, [6, 1]), ["3/off", "3/off 1/off"]);
    let err = accept(&p, [6, 1], "1/off").unwrap_err();
    assert_eq!(err.article, "4.2 (iii)");
    // The 6 cannot bear off the 1 while the 3 is there: 1/off 3/2... is no play.
    assert!(accept(&p, [6, 1], "3/2 1/off").is_err());
}

#[test]
fn rule_4_2_iii_a_reported_play_is_accepted_by_the_position_it_leaves() {
    let start = Position::starting();
    let cases = [
        ([3, 1], "8/5 6/5"),
        ([3, 1], "6/5 8/5"),
        ([6, 4], "24/18 13/9"),
        ([6, 4], "24/14"),
        ([6, 4], "24/20/14"),
        ([6, 6], "24/18(2) 13/7(2)"),
        ([6, 6], "24/18 24/18 13/7 13/7"),
        ([2, 1], "13/11 24/23"),
        ([2, 1], "13/11, 24/23"),
        ([6, 1], "13/7 8/7"),
    ];
    for (dice, text) in cases {
        let play = accept(&start, dice, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            Notation::parse(text).unwrap().result(&start).unwrap(),
            play.result
        );
    }
    for (dice, text) in [
        ([3, 1], "8/3"),
        ([3, 1], "8/5"),
        ([6, 6], "24/18 13/7"),
        ([6, 5], "13/7 13/9"),
    ] {
        let err = accept(&start, dice, text).unwrap_err();
        assert_eq!(err.article, "4.2 (iii)", "{text}");
        assert!(err.to_string().contains("not a legal play"), "{err}");
    }
    // A hit is the position's, whether or not the star is written.
    let p = pos(&[(13, 2)], &[(18, 1)]);
    let hit = accept(&p, [6, 5], "13/7* 13/8").unwrap();
    assert_eq!(hit.result, accept(&p, [6, 5], "13/7 13/8").unwrap().result);
    assert_eq!(hit.result.sides()[1][24], 1, "the blot is on the bar");
    assert_eq!(hit.to_string(), "13/8 13/7*");
    // On the way: 13/9*/7 hits on the 9; written 13/7 it goes by the 11 and does not.
    let p = pos(&[(13, 1)], &[(16, 1)]);
    let via_hit = accept(&p, [4, 2], "13/9*/7").unwrap();
    assert_eq!(via_hit.to_string(), "13/9*/7");
    assert_eq!(accept(&p, [4, 2], "13/7").unwrap().result.sides()[1][24], 0);
}

#[test]
fn rule_4_2_iii_unreadable_or_impossible_moves_are_refused_with_the_reason() {
    let start = Position::starting();
    for (text, why) in [
        ("24-18", "from/to"),
        ("25/30", "points are 1 to 24"),
        ("26/20", "points are 1 to 24"),
        ("18/24", "towards its home"),
        ("24/18(5)", "(2), (3) or (4)"),
        ("off/3", "towards its home"),
        ("6/5 6/5 6/5 6/5 6/5", "at most four"),
    ] {
        let err = accept(&start, [6, 1], text).unwrap_err();
        assert!(
            err.invalid && err.to_string().contains(why),
            "{text}: {err}"
        );
    }
    let err = accept(&start, [6, 1], "7/1").unwrap_err();
    assert!(err.to_string().contains("no checker"), "{err}");
    let err = accept(&start, [6, 1], "13/12").unwrap_err();
    assert!(err.to_string().contains("held by the opponent"), "{err}");
    assert!(
        legal_plays(&start, [0, 7])
            .unwrap_err()
            .to_string()
            .contains("4.1 (i)")
    );
}

#[test]
fn rule_4_5_a_game_is_single_gammon_or_backgammon_by_the_losers_checkers() {
    // The mover has borne off all 15.
    let single = pos(&[], &[(5, 3)]);
    let gammon = pos(&[], &[(5, 15)]);
    let backgammon = pos(&[], &[(5, 14), (20, 1)]);
    let on_the_bar = pos(&[], &[(5, 14), (25, 1)]);
    for (p, kind) in [
        (single, WinKind::Single),
        (gammon, WinKind::Gammon),
        (backgammon, WinKind::Backgammon),
        (on_the_bar, WinKind::Backgammon),
    ] {
        let o = p.outcome().unwrap();
        assert!(o.mover_won);
        assert_eq!(o.kind, kind);
        assert!(!p.swap().outcome().unwrap().mover_won);
    }
    assert_eq!(Position::starting().outcome(), None);
}

#[test]
fn pips_count_each_checker_by_its_distance_from_off() {
    assert_eq!(Position::starting().pips(), [167, 167]);
    let p = pos(&[(25, 1), (3, 2)], &[(1, 1)]);
    assert_eq!(p.pips(), [31, 1]);
    assert!(!pos(&[(6, 2)], &[(6, 2)]).has_contact());
    assert!(Position::starting().has_contact());
    assert!(pos(&[(25, 1)], &[(1, 1)]).has_contact());
}

#[test]
fn gnubg_ids_are_the_ones_gnubg_prints() {
    // Printed by GNU Backgammon 1.07 (`show board`): the start, and a late position of a
    // match it played against itself (root on roll: 2, 2, 4, 1, 3 on his points 2–6;
    // gnubg one checker on his 2 point), with its match ID.
    assert_eq!(Position::starting().gnubg_id(), "4HPwATDgc/ABMA");
    let late = Position::from_gnubg_id("AgAA2F4HAAAAAA").unwrap();
    assert_eq!(
        late,
        pos(&[(2, 2), (3, 2), (4, 4), (5, 1), (6, 3)], &[(2, 1)])
    );
    assert_eq!(late.gnubg_id(), "AgAA2F4HAAAAAA");
    let m = MatchId::decode("QiNgAFAAAAAE").unwrap();
    assert_eq!(
        m,
        MatchId {
            cube_value: 4,
            cube_owner: Some(0),
            on_roll: 1,
            crawford: false,
            state: GameState::Resigned,
            turn: 0,
            doubled: false,
            resigned: 1,
            dice: None,
            length: 3,
            score: [5, 0],
        }
    );
    assert_eq!(m.encode().unwrap(), "QiNgAFAAAAAE");
    assert!(Position::from_gnubg_id("4HPwATDgc/ABM").is_err());
    assert!(Position::from_gnubg_id("//////////////").is_err());
    assert!(MatchId::decode("QiNgAFAAAAA!").is_err());
    assert!(MatchId { cube_value: 3, ..m }.encode().is_err());
}
