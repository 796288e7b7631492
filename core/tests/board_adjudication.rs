//! Adjudication help (4.3 (iv), 4.5), exact for every race: a win that is mathematically
//! certain, and a gammon or a backgammon no longer possible, for either side, whoever is
//! on roll and with the dice already thrown. Checked against an independent search of
//! both sides' whole game tree (`board/race_oracle.rs`), from both sides of the board.

#[path = "board/positions.rs"]
mod positions;
#[path = "board/race_oracle.rs"]
mod race_oracle;
#[path = "board/slow.rs"]
mod slow;

use baffle_core::backgammon::board::{
    Adjudication, Checkers, NextTurn, Position, adjudicate, fewest_turns, legal_plays,
};
use positions::{pos, side};
use race_oracle::{Oracle, Question};

/// Sides A and B as the position numbers them: A's checkers first.
fn ab(a: &[(usize, u8)], b: &[(usize, u8)]) -> Position {
    pos(a, b)
}

fn to_roll(side: usize) -> NextTurn {
    NextTurn::to_roll(side)
}

/// The same race with A and B exchanged: what is told must be exchanged too.
fn mirrored(p: &Position, next: NextTurn) -> (Position, NextTurn) {
    (
        p.swap(),
        NextTurn {
            side: 1 - next.side,
            ..next
        },
    )
}

fn exchanged(a: &Adjudication) -> Adjudication {
    Adjudication {
        next: NextTurn {
            side: 1 - a.next.side,
            ..a.next
        },
        certain_winner: a.certain_winner.map(|w| 1 - w),
        gammon_possible: [a.gammon_possible[1], a.gammon_possible[0]],
        backgammon_possible: [a.backgammon_possible[1], a.backgammon_possible[0]],
    }
}

#[test]
fn the_fewest_turns_are_the_sixes_the_checkers_need_four_to_a_turn() {
    // 6-6 moves every checker a "six" closer per die; no roll does more.
    assert_eq!(fewest_turns(&side(&[(6, 1)])), 1);
    assert_eq!(fewest_turns(&side(&[(1, 5)])), 2);
    assert_eq!(fewest_turns(&side(&[(7, 1)])), 1);
    assert_eq!(fewest_turns(&side(&[(7, 3)])), 2);
    // The start: 2 × 4 + 5 × 3 + 3 × 2 + 5 × 1 = 34 sixes, nine turns.
    assert_eq!(fewest_turns(&Position::starting().sides()[0]), 9);
}

#[test]
fn rule_4_3_iv_a_certain_win_for_the_side_on_roll_from_both_sides_of_the_board() {
    // One checker on the ace point against fifteen at home: the one to roll wins, A or B.
    let p = ab(&[(1, 1)], &[(6, 15)]);
    assert_eq!(adjudicate(&p, to_roll(0)).certain_winner, Some(0));
    let q = ab(&[(6, 15)], &[(1, 1)]);
    assert_eq!(adjudicate(&q, to_roll(1)).certain_winner, Some(1));
    // The same checker when the other rolls first: he cannot finish in one turn, so the
    // ace-point checker still wins, rolling second.
    assert_eq!(adjudicate(&p, to_roll(1)).certain_winner, Some(0));
    assert_eq!(adjudicate(&q, to_roll(0)).certain_winner, Some(1));
}

#[test]
fn rule_4_3_iv_the_side_not_on_roll_wins_surely_only_if_the_other_cannot_finish_first() {
    // B has two on his ace point (any roll bears both off); A has five on his 6 point.
    // A, rolling first, needs two turns at least: B wins whatever the dice.
    let p = ab(&[(6, 5)], &[(1, 2)]);
    assert_eq!(adjudicate(&p, to_roll(0)).certain_winner, Some(1));
    // With three on his 2 point A could roll a double and finish first: nothing certain.
    let q = ab(&[(2, 3)], &[(1, 2)]);
    assert_eq!(adjudicate(&q, to_roll(0)).certain_winner, None);
    // B on roll there: B finishes at once.
    assert_eq!(adjudicate(&q, to_roll(1)).certain_winner, Some(1));
}

#[test]
fn rule_4_3_iv_the_dice_already_thrown_count() {
    // A to move with three on his 2 point and B two on his ace point: 2-2 or more of a
    // double wins for A, 2-1 loses.
    let q = ab(&[(2, 3)], &[(1, 2)]);
    let thrown = |d| NextTurn {
        side: 0,
        dice: Some(d),
        then: None,
    };
    assert_eq!(adjudicate(&q, thrown([2, 2])).certain_winner, Some(0));
    assert_eq!(adjudicate(&q, thrown([2, 1])).certain_winner, Some(1));
}

#[test]
fn rule_4_3_iv_a_premature_roll_already_thrown_counts_too() {
    // A moves 2-1 with three on his 2 point and leaves one checker; B threw before A
    // pressed (4.1 (v)(a): it stands), and any roll bears off his two on the ace point:
    // with B's roll known, A's 2-1 is a certain loss.
    let q = ab(&[(2, 3)], &[(1, 2)]);
    let thrown = |then| NextTurn {
        side: 0,
        dice: Some([2, 1]),
        then,
    };
    assert_eq!(adjudicate(&q, thrown(Some([1, 1]))).certain_winner, Some(1));
    // Against three on B's 6 point, B's 2-1 thrown already cannot finish, nor can his
    // next roll: A bears his last checker off first.
    let r = ab(&[(2, 3)], &[(6, 3)]);
    assert_eq!(adjudicate(&r, thrown(Some([2, 1]))).certain_winner, Some(0));
    // Without B's roll known nothing is certain: 6-6 would bear his three off at once.
    assert_eq!(adjudicate(&r, thrown(None)).certain_winner, None);
}

#[test]
fn rule_4_3_iv_b_rolling_with_his_last_checker_on_the_ace_point_is_said_to_win() {
    // The outside tester's case: B on roll, his last checker on his ace point.
    let p = ab(&[(6, 3), (5, 3)], &[(1, 1)]);
    assert_eq!(adjudicate(&p, to_roll(1)).certain_winner, Some(1));
    // And A is never said to win a race B can finish with 3-3 or 5-5 first.
    let p = ab(&[(1, 1)], &[(3, 4)]);
    assert_eq!(adjudicate(&p, to_roll(1)).certain_winner, None);
}

#[test]
fn rule_4_5_no_gammon_once_the_loser_has_borne_off_or_surely_will_in_time() {
    // B has borne off a checker: A can win only a single game.
    let p = ab(&[(6, 3)], &[(1, 3)]);
    assert_eq!(adjudicate(&p, to_roll(0)).gammon_possible, [false, false]);
    // B, on roll with all 15 home and one on every point: every roll bears one off.
    let spread = [(1, 3), (2, 3), (3, 3), (4, 2), (5, 2), (6, 2)];
    let p = ab(&[(6, 5)], &spread);
    assert!(!adjudicate(&p, to_roll(1)).gammon_possible[0]);
    // A on roll instead, needing two turns at least: B still bears one off first.
    assert!(!adjudicate(&p, to_roll(0)).gammon_possible[0]);
    // But A with two on his ace point finishes at once when on roll: a gammon.
    let p = ab(&[(1, 2)], &spread);
    assert!(adjudicate(&p, to_roll(0)).gammon_possible[0]);
    assert!(!adjudicate(&p, to_roll(1)).gammon_possible[0]);
    // The outside tester's case: B on roll with all 15 home, a checker off with every
    // roll, cannot lose a gammon; while A, with fifteen on his 10 point, needs more
    // turns to bring them home than B to finish: B can still win a gammon.
    let p = ab(&[(10, 15)], &spread);
    assert_eq!(adjudicate(&p, to_roll(1)).gammon_possible, [false, true]);
}

#[test]
fn rule_4_5_a_backgammon_is_possible_only_while_the_loser_can_be_caught_in_the_winners_home() {
    // B's checker on his 20 point is in A's home board; A (on roll) has one checker
    // on his ace point: he bears it off at once and wins a backgammon.
    let p = ab(&[(1, 1)], &[(20, 1), (6, 14)]);
    let told = adjudicate(&p, to_roll(0));
    assert_eq!(told.certain_winner, Some(0));
    assert_eq!(told.backgammon_possible, [true, false]);
    // B on roll: any roll takes his checker out of A's home board first.
    let told = adjudicate(&p, to_roll(1));
    assert_eq!(told.backgammon_possible, [false, false]);
    assert!(told.gammon_possible[0]);
    // No checker of B's in A's home board: no backgammon, whoever rolls.
    let p = ab(&[(1, 1)], &[(18, 1), (6, 14)]);
    assert!(!adjudicate(&p, to_roll(0)).backgammon_possible[0]);
}

#[test]
fn with_contact_nothing_is_certain_and_everything_stays_possible() {
    let start = Position::starting();
    for next in [0, 1] {
        let told = adjudicate(&start, to_roll(next));
        assert_eq!(told.certain_winner, None);
        assert_eq!(told.gammon_possible, [true, true]);
        assert_eq!(told.backgammon_possible, [true, true]);
    }
}

#[test]
fn every_race_is_adjudicated_even_far_from_home() {
    // Both sides far from home, no contact (the old help made no claim here): B has
    // fifteen on his 18 point (twelve turns at least), A five on his 3: A wins surely,
    // and a gammon is possible — B cannot bring fifteen checkers home in two turns.
    let p = ab(&[(3, 5)], &[(18, 15)]);
    let told = adjudicate(&p, to_roll(0));
    assert_eq!(told.certain_winner, Some(0));
    assert!(told.gammon_possible[0]);
    assert!(
        !told.backgammon_possible[0],
        "B has no checker in A's home board"
    );
}

mod against_the_whole_game_tree {
    use super::*;
    use proptest::prelude::*;

    /// A small race: each side's checkers given by their points (1–12: some outside the
    /// home board), no contact possible with points this low.
    fn race(a: &[u8], b: &[u8]) -> Position {
        let place = |pts: &[u8]| {
            let mut s: Checkers = [0; 25];
            for &p in pts {
                s[usize::from(p) - 1] += 1;
            }
            s
        };
        Position::new(place(a), place(b)).unwrap()
    }

    fn judged(p: &Position, next: NextTurn) -> Adjudication {
        let sure = |q, hero| Oracle::judge(q, p, hero, next.side, next.dice, next.then);
        let certain_winner = (0..2).find(|&w| sure(Question::Wins, w));
        let gammon_possible =
            [0, 1].map(|w| p.borne_off(1 - w) == 0 && !sure(Question::SavesGammon, 1 - w));
        let backgammon_possible = [0, 1].map(|w| {
            p.borne_off(1 - w) == 0
                && p.sides()[1 - w][18..].iter().any(|&n| n > 0)
                && !sure(Question::SavesBackgammon, 1 - w)
        });
        Adjudication {
            next,
            certain_winner,
            gammon_possible,
            backgammon_possible,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        #[test]
        fn rule_4_3_iv_and_4_5_every_claim_equals_the_game_trees_for_either_side_on_roll(
            a in prop::collection::vec(1u8..=9, 1..=3),
            b in prop::collection::vec(1u8..=9, 1..=3),
            next in 0usize..2,
            thrown in prop::option::of((1u8..=6, 1u8..=6)),
            then in prop::option::of((1u8..=6, 1u8..=6)),
        ) {
            let p = race(&a, &b);
            // The other's roll can be thrown already (premature) only once the mover's is.
            let dice = thrown.map(|(x, y)| [x, y]);
            let then = then.filter(|_| dice.is_some()).map(|(x, y)| [x, y]);
            let next = NextTurn { side: next, dice, then };
            prop_assert_eq!(adjudicate(&p, next), judged(&p, next), "{:?}", p.sides());
        }

        #[test]
        fn rule_4_5_gammons_are_judged_as_the_game_tree_does_with_fifteen_checkers_home(
            a in prop::collection::vec(1u8..=6, 1..=3),
            b in prop::collection::vec(4u8..=6, 15..=15),
            next in 0usize..2,
        ) {
            let p = race(&a, &b);
            let next = NextTurn::to_roll(next);
            let sure = Oracle::judge(Question::SavesGammon, &p, 1, next.side, None, None);
            prop_assert_eq!(adjudicate(&p, next).gammon_possible[0], !sure, "{:?}", p.sides());
        }

        #[test]
        fn the_claims_are_the_same_from_the_other_side_of_the_board(
            a in prop::collection::vec(1u8..=24, 1..=15),
            b in prop::collection::vec(1u8..=12, 1..=15),
            next in 0usize..2,
        ) {
            let mut pa: Checkers = [0; 25];
            let mut pb: Checkers = [0; 25];
            for &x in &a { pa[usize::from(x) - 1] += 1; }
            for &x in &b { pb[usize::from(x) - 1] += 1; }
            let Ok(p) = Position::new(pa, pb) else { return Ok(()) };
            let next = NextTurn::to_roll(next);
            let (q, other) = mirrored(&p, next);
            prop_assert_eq!(adjudicate(&q, other), exchanged(&adjudicate(&p, next)));
        }

        #[test]
        fn rule_4_3_iv_a_claimed_certain_win_survives_every_roll_with_some_play(
            a in prop::collection::vec(1u8..=8, 1..=5),
            b in prop::collection::vec(1u8..=12, 1..=15),
            next in 0usize..2,
            dice in prop::collection::vec((1u8..=6, 1u8..=6), 40),
        ) {
            let mut p = race(&a, &b);
            let mut next = next;
            let Some(w) = adjudicate(&p, NextTurn::to_roll(next)).certain_winner else {
                return Ok(());
            };
            // Played out with any dice: the winner picks a play that keeps the claim,
            // which must exist; the other plays his first legal play.
            for (x, y) in dice {
                let seen = if next == 0 { p } else { p.swap() };
                let plays = legal_plays(&seen, [x, y]).unwrap();
                let back = |r: Position| if next == 0 { r } else { r.swap() };
                let chosen = if next == w {
                    plays.iter().map(|pl| back(pl.result)).find(|r| {
                        r.outcome().is_some()
                            || adjudicate(r, NextTurn::to_roll(1 - next)).certain_winner == Some(w)
                    })
                } else {
                    plays.first().map(|pl| back(pl.result))
                };
                prop_assert!(chosen.is_some(), "no play keeps {}'s certain win in {:?}", w, p.sides());
                p = chosen.unwrap();
                if let Some(end) = p.outcome() {
                    prop_assert_eq!(if end.mover_won { 0 } else { 1 }, w);
                    return Ok(());
                }
                next = 1 - next;
            }
        }
    }
}
