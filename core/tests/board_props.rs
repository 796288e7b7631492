//! Property tests of the board: every play the generator finds is legal by an independent
//! slow checker (`board/slow.rs`) and none is missing; written plays read back to their
//! positions; IDs round-trip; game-over detection agrees with the checker counts.

#[path = "board/slow.rs"]
mod slow;

use std::collections::BTreeSet;

use baffle_core::backgammon::WinKind;
use baffle_core::backgammon::board::{BAR, Checkers, Play, Position, accept, legal_plays};
use proptest::prelude::*;

/// A position reached by `plies` random legal plays from the start (`choices` pick the
/// play, `rolls` the dice): the positions real games pass through, hits and bear-offs
/// included.
fn played(rolls: &[(u8, u8)], choices: &[usize]) -> Position {
    let mut pos = Position::starting();
    for (i, &(a, b)) in rolls.iter().enumerate() {
        if pos.outcome().is_some() {
            break;
        }
        let plays = legal_plays(&pos, [a, b]).unwrap();
        pos = plays[choices[i] % plays.len()].result.swap();
    }
    pos
}

/// Any position at all: each side's 15 checkers put anywhere (0 is off, 25 the bar),
/// a checker landing on a point the other side holds going off instead. `home` pulls
/// checkers towards the home boards so that bear-offs are common.
fn scattered(mine: &[u8], theirs: &[u8], home: bool) -> Position {
    let squash = |p: u8| if home { p % 8 } else { p % 26 };
    let mut me: Checkers = [0; 25];
    for &p in mine {
        let p = squash(p);
        if p > 0 {
            me[usize::from(p) - 1] += 1;
        }
    }
    let mut them: Checkers = [0; 25];
    for &p in theirs {
        let p = squash(p);
        // The opponent's point q is the mover's 25 − q; the bars never clash.
        let clash = (1..=24).contains(&p) && me[24 - usize::from(p)] > 0;
        if p > 0 && !clash {
            them[usize::from(p) - 1] += 1;
        }
    }
    Position::new(me, them).unwrap()
}

fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![
        (
            prop::collection::vec((1u8..=6, 1u8..=6), 0..120),
            prop::collection::vec(any::<usize>(), 120)
        )
            .prop_map(|(r, c)| played(&r, &c)),
        (
            prop::collection::vec(any::<u8>(), 15),
            prop::collection::vec(any::<u8>(), 15),
            any::<bool>()
        )
            .prop_map(|(a, b, h)| scattered(&a, &b, h)),
    ]
}

/// Positions where the hard rules bite: the mover with checkers on the bar against a
/// home board the opponent has partly closed, or with every checker home (bear-offs,
/// a larger die only from the highest point) against the opponent's blots and points.
fn entering_or_bearing_off() -> impl Strategy<Value = Position> {
    (
        0u8..=4,
        prop::collection::vec(0u8..=6, 11),
        prop::collection::vec(0u8..=24, 15),
        any::<bool>(),
    )
        .prop_map(|(bar, mine, theirs, home)| {
            let mut me: Checkers = [0; 25];
            if home {
                // Every checker in the home board (0 is off).
                for &p in &mine {
                    if p > 0 {
                        me[usize::from(p) - 1] += 1;
                    }
                }
            } else {
                me[BAR] = bar.max(1);
                for &p in &mine[..8] {
                    me[usize::from(p) * 3 + 5] += 1;
                }
            }
            let mut them: Checkers = [0; 25];
            for &q in &theirs {
                // The opponent's point q is the mover's 25 − q; his checkers go where
                // the mover has none, most of them in the mover's home board (his 19–24).
                let q = if q < 12 { 19 + q % 6 } else { q };
                if q > 0 && me[24 - usize::from(q)] == 0 {
                    them[usize::from(q) - 1] += 1;
                }
            }
            Position::new(me, them).unwrap()
        })
}

/// The position `steps` leave, each applied as written, checking each step's hit.
fn replayed(pos: &Position, play: &Play) -> Result<Position, TestCaseError> {
    let [mut me, mut them] = *pos.sides();
    for s in play.steps.iter() {
        prop_assert!(me[usize::from(s.from) - 1] > 0, "no checker on {}", s.from);
        me[usize::from(s.from) - 1] -= 1;
        if s.to > 0 {
            me[usize::from(s.to) - 1] += 1;
            let theirs = &mut them[24 - usize::from(s.to)];
            prop_assert_eq!(s.hit, *theirs == 1, "hit flag of {:?}", s);
            if *theirs == 1 {
                *theirs = 0;
                them[BAR] += 1;
            }
        } else {
            prop_assert!(!s.hit);
        }
    }
    Ok(Position::new(me, them).unwrap())
}

fn dice() -> impl Strategy<Value = [u8; 2]> {
    (1u8..=6, 1u8..=6).prop_map(|(a, b)| [a, b])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn rule_4_2_every_generated_play_is_legal_and_none_is_missing(pos in any_position(), dice in dice()) {
        let plays = legal_plays(&pos, dice).unwrap();
        let fast: BTreeSet<slow::Board> =
            plays.iter().map(|p| slow::Board::from_position(&p.result)).collect();
        prop_assert_eq!(fast.len(), plays.len(), "one play per resulting position");
        prop_assert_eq!(fast, slow::legal_results(&pos, dice));
    }

    #[test]
    fn rule_4_2_entering_and_bearing_off_agree_with_the_slow_checker_and_steps_replay(
        pos in entering_or_bearing_off(),
        dice in dice(),
    ) {
        let plays = legal_plays(&pos, dice).unwrap();
        // In no particular order, but the same one each time, each position once.
        prop_assert_eq!(&legal_plays(&pos, dice).unwrap(), &plays, "the same order each time");
        let results: BTreeSet<Position> = plays.iter().map(|p| p.result).collect();
        prop_assert_eq!(results.len(), plays.len(), "one play per resulting position");
        let fast: BTreeSet<slow::Board> =
            plays.iter().map(|p| slow::Board::from_position(&p.result)).collect();
        prop_assert_eq!(fast, slow::legal_results(&pos, dice));
        let swapped = legal_plays(&pos, [dice[1], dice[0]]).unwrap();
        prop_assert_eq!(&swapped, &plays, "the order of the dice does not matter");
        for play in &plays {
            prop_assert_eq!(replayed(&pos, play)?, play.result);
        }
    }

    #[test]
    fn rule_4_2_every_play_uses_as_many_dice_and_moves_the_pips_it_says(pos in any_position(), dice in dice()) {
        let plays = legal_plays(&pos, dice).unwrap();
        let used = plays[0].steps.len();
        let before = pos.pips();
        for play in &plays {
            prop_assert_eq!(play.steps.len(), used);
            let after = play.result.pips();
            let moved: u32 = play.steps.iter().map(|s| u32::from(s.from - s.to)).sum();
            // A hit on the mover's point t sends the checker from the opponent's 25 − t to 25.
            let hit_back: u32 = play.steps.iter().filter(|s| s.hit).map(|s| u32::from(s.to)).sum();
            prop_assert_eq!(after[0] + moved, before[0]);
            prop_assert_eq!(after[1], before[1] + hit_back);
            let on_board = |p: &Position, s: usize| 15 - p.borne_off(s);
            let off: u8 = play.steps.iter().filter(|s| s.to == 0).count() as u8;
            prop_assert_eq!(on_board(&play.result, 0) + off, on_board(&pos, 0));
        }
    }

    #[test]
    fn rule_4_2_iii_each_play_written_is_accepted_back_to_its_position(pos in any_position(), dice in dice()) {
        // A sample of the plays (every play of a big double would make this test slow).
        let plays = legal_plays(&pos, dice).unwrap();
        let stride = plays.len().div_ceil(12);
        for play in plays.into_iter().step_by(stride) {
            let written = play.to_string();
            let back = accept(&pos, dice, &written);
            prop_assert!(back.is_ok(), "'{}' refused: {:?}", written, back);
            prop_assert_eq!(back.unwrap().result, play.result);
        }
    }

    #[test]
    fn gnubg_position_id_round_trips(pos in any_position()) {
        let id = pos.gnubg_id();
        prop_assert_eq!(id.len(), 14);
        prop_assert_eq!(Position::from_gnubg_id(&id).unwrap(), pos);
    }

    #[test]
    fn rule_4_5_game_over_agrees_with_the_checker_counts(pos in any_position()) {
        match pos.outcome() {
            None => prop_assert!(pos.borne_off(0) < 15 && pos.borne_off(1) < 15),
            Some(o) => {
                let (w, l) = if o.mover_won { (0, 1) } else { (1, 0) };
                prop_assert_eq!(pos.borne_off(w), 15);
                prop_assert_eq!(pos.pips()[w], 0);
                let loser = pos.sides()[l];
                // The loser's checkers on the bar or on his points 19–24 (the winner's home).
                let in_winners_home: u8 = loser[18..25].iter().sum();
                let kind = if pos.borne_off(l) > 0 {
                    WinKind::Single
                } else if in_winners_home > 0 {
                    WinKind::Backgammon
                } else {
                    WinKind::Gammon
                };
                prop_assert_eq!(o.kind, kind);
            }
        }
    }
}
