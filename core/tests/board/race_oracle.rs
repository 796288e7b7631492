//! An independent, slow judge of races, written from the rules' words rather than from
//! `core`'s counts of turns: the whole game tree of both sides, turn by turn, with the
//! slow checker's legal plays (`slow.rs`). "Wins whatever the dice" is a search where
//! every roll of both sides and every play of the loser is tried and the winner needs one
//! good play per roll; "the loser surely saves the gammon" is the same with the roles of
//! the plays exchanged. Exponential, memoised: for small positions only.

#![allow(dead_code)]

use std::collections::HashMap;

use baffle_core::backgammon::board::{Checkers, Position};

use crate::slow::{Board, legal_results};

/// The 21 rolls.
pub fn rolls() -> impl Iterator<Item = [u8; 2]> {
    (1..=6u8).flat_map(|a| (a..=6u8).map(move |b| [a, b]))
}

/// A slow board back as a position, the mover first.
fn position(b: &Board) -> Position {
    let mut me = [0u8; 25];
    let mut them = [0u8; 25];
    for point in 1..=24usize {
        let n = b.points[point];
        if n > 0 {
            me[point - 1] = n as u8;
        } else if n < 0 {
            them[24 - point] = (-n) as u8;
        }
    }
    me[24] = b.bar[0] as u8;
    them[24] = b.bar[1] as u8;
    Position::new(me, them).unwrap()
}

/// What a race is searched for, from the point of view of side `hero` of the root:
/// whether he surely gets it, whatever the dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Question {
    /// `hero` bears off all his checkers before the other, whatever the dice.
    Wins,
    /// `hero` (the loser-to-be) bears off a checker before the other finishes, whatever
    /// the dice.
    SavesGammon,
    /// `hero` has no checker left on his points 19–24 or the bar before the other
    /// finishes, whatever the dice.
    SavesBackgammon,
}

fn done(q: Question, hero: &Checkers, start_on_board: u8) -> bool {
    let on_board: u8 = hero.iter().sum();
    match q {
        Question::Wins => on_board == 0,
        Question::SavesGammon => on_board < start_on_board,
        Question::SavesBackgammon => hero[18..].iter().all(|&n| n == 0),
    }
}

/// The judge of one question about one root.
pub struct Oracle {
    q: Question,
    start_on_board: u8,
    memo: HashMap<(Position, bool), bool>,
}

impl Oracle {
    /// Whether `hero` (0 or 1 of `pos`, which numbers A then B) surely gets what `q`
    /// asks, `next` moving first, with `dice` if he has thrown them, and the other's
    /// first turn with `then` if that is thrown already.
    pub fn judge(
        q: Question,
        pos: &Position,
        hero: usize,
        next: usize,
        dice: Option<[u8; 2]>,
        then: Option<[u8; 2]>,
    ) -> bool {
        let start_on_board = pos.sides()[hero].iter().sum();
        let mut o = Oracle {
            q,
            start_on_board,
            memo: HashMap::new(),
        };
        let seen = if next == 0 { *pos } else { pos.swap() };
        let hero_moves = hero == next;
        match dice {
            Some(d) => o.turn(&seen, hero_moves, d, then),
            None => o.node(&seen, hero_moves),
        }
    }

    /// `pos` seen from the mover; `hero_moves` says whether the mover is the hero.
    fn node(&mut self, pos: &Position, hero_moves: bool) -> bool {
        let hero = if hero_moves {
            pos.sides()[0]
        } else {
            pos.sides()[1]
        };
        if done(self.q, &hero, self.start_on_board) {
            return true;
        }
        let other = if hero_moves {
            pos.sides()[1]
        } else {
            pos.sides()[0]
        };
        if other.iter().sum::<u8>() == 0 {
            return false; // the other finished first
        }
        if let Some(&v) = self.memo.get(&(*pos, hero_moves)) {
            return v;
        }
        let v = rolls().all(|d| self.turn(pos, hero_moves, d, None));
        self.memo.insert((*pos, hero_moves), v);
        v
    }

    /// After the mover threw `d`: the hero needs one good play; the other's every play
    /// must still leave the hero his goal. The next turn is thrown `then`, if given.
    fn turn(
        &mut self,
        pos: &Position,
        hero_moves: bool,
        d: [u8; 2],
        then: Option<[u8; 2]>,
    ) -> bool {
        let results: Vec<Position> = legal_results(pos, d).iter().map(position).collect();
        let mut next = |r: &Position| {
            let hero = if hero_moves {
                r.sides()[0]
            } else {
                r.sides()[1]
            };
            if done(self.q, &hero, self.start_on_board) {
                return true;
            }
            let other = if hero_moves {
                r.sides()[1]
            } else {
                r.sides()[0]
            };
            if other.iter().sum::<u8>() == 0 {
                return false;
            }
            match then {
                Some(t) => self.turn(&r.swap(), !hero_moves, t, None),
                None => self.node(&r.swap(), !hero_moves),
            }
        };
        if hero_moves {
            results.iter().any(&mut next)
        } else {
            results.iter().all(&mut next)
        }
    }
}

/// The most turns one side, alone, can need to bear off everything (0 when it has), by
/// plain minimax with the slow checker.
pub fn most_turns_alone(side: &Checkers, memo: &mut HashMap<Checkers, u32>) -> u32 {
    let done = |s: &Checkers| s.iter().sum::<u8>() == 0;
    alone(side, &done, memo)
}

/// The most turns one side, alone, can need to bear off a first checker (0 with none on
/// the board), by plain minimax with the slow checker.
pub fn first_off_alone(side: &Checkers, memo: &mut HashMap<Checkers, u32>) -> u32 {
    let n: u8 = side.iter().sum();
    let done = |s: &Checkers| n == 0 || s.iter().sum::<u8>() < n;
    alone(side, &done, memo)
}

/// The most turns `side` can need to be `done`, whatever it rolls, playing each roll as
/// well as it can (a memo for one `done` only).
fn alone(
    side: &Checkers,
    done: &dyn Fn(&Checkers) -> bool,
    memo: &mut HashMap<Checkers, u32>,
) -> u32 {
    if done(side) {
        return 0;
    }
    if let Some(&t) = memo.get(side) {
        return t;
    }
    let pos = Position::new(*side, [0; 25]).unwrap();
    let mut worst = 0;
    for d in rolls() {
        let best = legal_results(&pos, d)
            .iter()
            .map(|b| alone(&position(b).sides()[0], done, memo))
            .min()
            .unwrap_or(u32::MAX);
        worst = worst.max(best);
    }
    memo.insert(*side, worst + 1);
    worst + 1
}
