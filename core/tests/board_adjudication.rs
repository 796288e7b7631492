//! Adjudication help (4.3 (iv), 4.5): with no contact, a win that is mathematically
//! certain, and a gammon that is no longer possible.

#[path = "board/positions.rs"]
mod positions;

use baffle_core::backgammon::board::{Position, adjudicate, fewest_turns, most_turns};
use positions::pos;

#[test]
fn the_turns_a_bear_off_can_take_are_bounded_both_ways() {
    // One checker on the 6: 2-1 leaves it on the 3, and any roll then bears it off.
    let p = pos(&[(6, 1)], &[(6, 15)]);
    assert_eq!(most_turns(&p, 0), Some(2));
    assert_eq!(fewest_turns(&p, 0), 1);
    // Two on the ace point: every roll bears both off.
    assert_eq!(most_turns(&pos(&[(1, 2)], &[(6, 1)]), 0), Some(1));
    // Fifteen checkers need four turns at least (four off a turn), 167 pips seven.
    assert_eq!(fewest_turns(&p, 1), 4);
    assert_eq!(fewest_turns(&Position::starting(), 0), 7);
    // Outside the home board, or too many checkers: no exact claim.
    assert_eq!(most_turns(&pos(&[(7, 1)], &[(6, 1)]), 0), None);
    assert_eq!(most_turns(&p, 1), None);
}

#[test]
fn rule_4_3_iv_a_certain_win_is_found_only_when_no_dice_can_change_it() {
    // A, on roll, has one checker on his 1 point; B needs four turns at least.
    let a = adjudicate(&pos(&[(1, 1)], &[(6, 15)]));
    assert_eq!(a.certain_winner, Some(0));
    // B (not on roll) bears off his two ace-point checkers with any roll; A, on roll,
    // with five checkers needs two turns at least: B wins whatever the dice.
    let b = adjudicate(&pos(&[(6, 5)], &[(1, 2)]));
    assert_eq!(b.certain_winner, Some(1));
    // With three checkers A could roll a double and finish first: nothing is certain.
    let none = adjudicate(&pos(&[(2, 3)], &[(1, 2)]));
    assert_eq!(none.certain_winner, None);
    // Contact: never.
    assert_eq!(adjudicate(&Position::starting()).certain_winner, None);
    assert_eq!(
        adjudicate(&pos(&[(24, 1)], &[(24, 1)])).certain_winner,
        None
    );
}

#[test]
fn rule_4_5_a_gammon_is_no_longer_possible_once_the_loser_is_sure_to_bear_off_first() {
    // B has borne off a checker: A can win only a single game.
    let p = pos(&[(6, 3)], &[(1, 3)]);
    assert!(!adjudicate(&p).gammon_possible[0]);
    // B (not on roll) has all 15 home, a checker or more on every point: every die bears
    // one off, so his first turn saves the gammon; A, with five left, needs two turns.
    let spread = [(1, 3), (2, 3), (3, 3), (4, 2), (5, 2), (6, 2)];
    let p = pos(&[(6, 5)], &spread);
    assert!(!adjudicate(&p).gammon_possible[0]);
    // With A's last two checkers on his ace point A can finish at once: still possible.
    assert!(adjudicate(&pos(&[(1, 2)], &spread)).gammon_possible[0]);
    // All 15 of B's on his 6 point: a 2-1 bears none off: no claim.
    assert!(adjudicate(&pos(&[(6, 5)], &[(6, 15)])).gammon_possible[0]);
    // Nobody off, contact: still possible; far from home with no contact: no claim.
    assert!(adjudicate(&Position::starting()).gammon_possible[0]);
    let race = pos(&[(3, 15)], &[(18, 15)]);
    assert!(adjudicate(&race).gammon_possible[0]);
}

mod against_play {
    use super::*;
    use baffle_core::backgammon::board::legal_plays;
    use proptest::prelude::*;

    /// A race of both sides in their home boards: `a` and `b` give each checker's point.
    fn race(a: &[u8], b: &[u8]) -> Position {
        let mut me = [0u8; 25];
        let mut them = [0u8; 25];
        for &p in a {
            me[usize::from(p % 6)] += 1;
        }
        for &p in b {
            them[usize::from(p % 6)] += 1;
        }
        Position::new(me, them).unwrap()
    }

    /// Plays the race out, the side to move first at index 0, with `dice`; the claimed
    /// winner `w` (if any) plays each roll to finish fastest by the exact count, the
    /// other side its first legal play unless `save` says bear off when it can. Returns
    /// which side finished first and whether the loser bore off a checker before.
    fn play(mut pos: Position, dice: &[(u8, u8)], fastest: Option<usize>) -> (usize, bool) {
        let mut mover = 0;
        for &(x, y) in dice.iter().cycle() {
            let plays = legal_plays(&pos, [x, y]).unwrap();
            let pick = if fastest == Some(mover) {
                plays
                    .iter()
                    .min_by_key(|p| {
                        if p.result.borne_off(0) == 15 {
                            0
                        } else {
                            most_turns(&p.result, 0).unwrap_or(u32::MAX)
                        }
                    })
                    .unwrap()
            } else {
                // The other side bears off whatever it can (to save a gammon).
                plays.iter().max_by_key(|p| p.result.borne_off(0)).unwrap()
            };
            pos = pick.result;
            if pos.borne_off(0) == 15 {
                return (mover, pos.borne_off(1) > 0);
            }
            pos = pos.swap();
            mover = 1 - mover;
        }
        unreachable!()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn rule_4_3_iv_a_claimed_certain_win_is_won_whatever_the_dice(
            a in prop::collection::vec(0u8..6, 1..=4),
            b in prop::collection::vec(0u8..6, 1..=15),
            dice in prop::collection::vec((1u8..=6, 1u8..=6), 1..40),
        ) {
            let pos = race(&a, &b);
            let help = adjudicate(&pos);
            if let Some(w) = help.certain_winner {
                let (first, _) = play(pos, &dice, Some(w));
                prop_assert_eq!(first, w, "claimed {} for {:?}", w, pos.sides());
            }
        }

        #[test]
        fn rule_4_5_a_gammon_said_impossible_is_never_won(
            a in prop::collection::vec(0u8..6, 1..=8),
            b in prop::collection::vec(0u8..6, 15..=15),
            dice in prop::collection::vec((1u8..=6, 1u8..=6), 1..40),
        ) {
            let pos = race(&a, &b);
            let help = adjudicate(&pos);
            if !help.gammon_possible[0] {
                // A (on roll) finishing first with his fastest moves still does not
                // find B without a checker off.
                let (first, loser_off) = play(pos, &dice, None);
                prop_assert!(first == 1 || loser_off);
            }
        }
    }
}
