//! One side racing alone: with no contact neither side can hit or block the other, so
//! each side's progress depends only on its own checkers and its own dice. This module
//! answers, for one side, "can it reach a goal within `k` turns whatever the dice, if it
//! plays each roll as well as it can?" — exactly, by search over the 21 rolls and every
//! legal play of each, with the home-board cases read from the [`bearoff`] tables.
//!
//! The goals are the ones 4.3 (iv) and 4.5 ask about: bearing off every checker (who
//! wins), bearing off a first checker (a gammon saved), and leaving the winner's home
//! board (a backgammon saved).
//!
//! The search stays small because the worst roll, 2-1, moves three pips and two
//! checkers: a side with more than `3k` pips still to travel cannot be sure of anything
//! in `k` turns, and is refused before any play is generated. Measured on the widest
//! races the adjudication asks about (`core/benches/core_ops.rs`).

use std::collections::HashMap;

use super::bearoff::{self, Table};
use super::{CHECKERS, Checkers, Position, legal_plays};
use crate::dice::Roll;

/// What a side races for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Every checker borne off: the game won.
    Finish,
    /// A first checker borne off: no gammon (4.5). Asked only of a side with none off.
    FirstOff,
    /// No checker left on the points 19–24, the winner's home board: no backgammon.
    Escape,
}

/// The 21 rolls, the smallest first: the worst ones are tried first, so a side that
/// cannot make it is refused early.
const ROLLS: [Roll; 21] = [
    [1, 2],
    [1, 1],
    [1, 3],
    [1, 4],
    [2, 3],
    [1, 5],
    [2, 2],
    [2, 4],
    [1, 6],
    [2, 5],
    [3, 4],
    [2, 6],
    [3, 5],
    [3, 3],
    [3, 6],
    [4, 5],
    [4, 6],
    [5, 5],
    [5, 6],
    [4, 4],
    [6, 6],
];

/// A side's progress towards a goal, searched with a memo of what is settled.
pub struct Race {
    goal: Goal,
    /// Checkers the side had when the question was asked: `FirstOff` is reached once
    /// fewer are left.
    start: u8,
    /// For each position seen: the most turns known not to be enough, and the fewest
    /// known to be enough.
    memo: HashMap<Checkers, (u32, u32)>,
}

impl Race {
    /// A search for `goal`, for a side that has `side`'s checkers now.
    pub fn new(goal: Goal, side: &Checkers) -> Race {
        Race {
            goal,
            start: on_board(side),
            memo: HashMap::new(),
        }
    }

    /// Whether `side` is at its goal.
    fn reached(&self, side: &Checkers) -> bool {
        match self.goal {
            Goal::Finish => on_board(side) == 0,
            Goal::FirstOff => on_board(side) < self.start,
            Goal::Escape => side[18..].iter().all(|&n| n == 0),
        }
    }

    /// Turns no dice can make shorter for the worst roll: 2-1 moves three pips and at most
    /// two checkers a turn.
    fn at_least(&self, side: &Checkers) -> u32 {
        let outside: u32 = (7..=25)
            .map(|p| (p as u32 - 6) * u32::from(side[p - 1]))
            .sum();
        match self.goal {
            Goal::Finish => super::pip_count(side)
                .div_ceil(3)
                .max(u32::from(on_board(side)).div_ceil(2)),
            Goal::FirstOff => (outside + 1).div_ceil(3),
            Goal::Escape => (19..=25)
                .map(|p| (p as u32 - 18) * u32::from(side[p - 1]))
                .sum::<u32>()
                .div_ceil(3),
        }
    }

    /// Whether `side` reaches the goal within `k` of its turns whatever it rolls.
    pub fn within(&mut self, side: &Checkers, k: u32) -> bool {
        if self.reached(side) {
            return true;
        }
        if k == 0 || self.at_least(side) > k {
            return false;
        }
        if let Some(t) = self.tabled(side) {
            return t <= k;
        }
        let (short, enough) = self.memo.get(side).copied().unwrap_or((0, u32::MAX));
        if k <= short {
            return false;
        }
        if k >= enough {
            return true;
        }
        let made = ROLLS.iter().all(|&roll| self.after(side, roll, k));
        let entry = self.memo.entry(*side).or_insert((0, u32::MAX));
        if made {
            entry.1 = entry.1.min(k);
        } else {
            entry.0 = entry.0.max(k);
        }
        made
    }

    /// Whether `side`, having rolled `roll`, has a play that leaves the goal within the
    /// `k − 1` turns after this one (`k` counts this turn).
    pub fn after(&mut self, side: &Checkers, roll: Roll, k: u32) -> bool {
        if self.reached(side) {
            return true;
        }
        let Some(rest) = k.checked_sub(1) else {
            return false;
        };
        let mut plays = alone(side, roll);
        if self.goal == Goal::Escape {
            // A checker out of the winner's home board never matters again: forgetting
            // it leaves fewer positions to search (and only frees the dice for the rest).
            for next in &mut plays {
                next[..18].fill(0);
            }
        }
        if plays.iter().any(|next| self.reached(next)) {
            return true;
        }
        // The plays that leave the least to do first: one that makes it ends the search.
        plays.retain(|next| self.at_least(next) <= rest);
        plays.sort_by_cached_key(|next| self.at_least(next));
        plays.iter().any(|next| self.within(next, rest))
    }

    /// The exact answer for a side with every checker home, where the tables have one.
    fn tabled(&self, side: &Checkers) -> Option<u32> {
        let table = match self.goal {
            Goal::Finish => Table::Finish,
            Goal::FirstOff if on_board(side) == self.start => Table::FirstOff,
            _ => return None,
        };
        bearoff::most_turns(table, &bearoff::home(side)?)
    }
}

/// The positions `side`'s legal plays of `roll` leave when it moves alone.
fn alone(side: &Checkers, roll: Roll) -> Vec<Checkers> {
    let pos = Position {
        sides: [*side, [0; 25]],
    };
    legal_plays(&pos, roll)
        .unwrap_or_default()
        .into_iter()
        .map(|p| p.result.sides()[0])
        .collect()
}

/// Checkers not yet borne off.
fn on_board(side: &Checkers) -> u8 {
    side.iter().sum::<u8>().min(CHECKERS)
}

/// The fewest turns `side` can need to bear off everything, whatever the dice: exact.
/// No roll does better than 6-6 — no die-step brings any checker closer by more than
/// one "six" (a move of six pips, or a bear-off) — and 6-6 always plays four such steps.
/// So it is the number of sixes the checkers need, `Σ ⌈point / 6⌉`, four to a turn.
pub fn fewest_turns(side: &Checkers) -> u32 {
    let sixes: u32 = (1..=25)
        .map(|p| (p as u32).div_ceil(6) * u32::from(side[p - 1]))
        .sum();
    sixes.div_ceil(4)
}

/// The fewest turns, the current one with `roll` already thrown.
pub fn fewest_turns_after(side: &Checkers, roll: Roll) -> u32 {
    if on_board(side) == 0 {
        return 0;
    }
    1 + alone(side, roll)
        .iter()
        .map(fewest_turns)
        .min()
        .unwrap_or_else(|| fewest_turns(side))
}
