//! Adjudication help for 4.3 (iv) and 4.5, exact for every position without contact:
//! whether a win is already mathematically certain, and whether a gammon or a backgammon
//! is still possible, for either side, given whose turn comes first and, when he has
//! already thrown, his dice.
//!
//! With no contact each side races alone ([`race`](super::race)), so every claim is a
//! comparison of two one-sided counts — the most turns one side can need whatever its
//! dice (playing each roll as well as it can), against the fewest the other can need
//! with the best dice. The dice of the two sides are independent, so the worst case of
//! one and the best case of the other can happen together: each claim is exact, not a
//! bound. `docs/board.md` states each comparison.
//!
//! With contact nothing is claimed: a certain win is never reported, a gammon and a
//! backgammon stay possible while the loser has borne off nothing.

use super::WinKind;
use super::race::{Goal, Race, fewest_turns, fewest_turns_after};
use super::{Checkers, Position};
use crate::dice::Roll;

/// What the board says to the director about a race (4.3 (iv), 4.5), for sides 0 and 1
/// as the position numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Adjudication {
    /// Whose turn the claims count from.
    pub next: NextTurn,
    /// The side that wins whatever the dice, if that is certain.
    pub certain_winner: Option<usize>,
    /// For each side as the winner: whether a gammon is still possible.
    pub gammon_possible: [bool; 2],
    /// For each side as the winner: whether a backgammon is still possible.
    pub backgammon_possible: [bool; 2],
}

/// Whose turn comes first, and the dice already thrown for the turns to come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NextTurn {
    /// Side 0 or 1 of the position.
    pub side: usize,
    /// His roll, when it is already on the board.
    pub dice: Option<Roll>,
    /// The other side's roll for his turn after this one, when he has already thrown it
    /// (a premature roll stands, 4.1 (v)(a)).
    pub then: Option<Roll>,
}

impl NextTurn {
    /// `side` moves next and nobody has thrown.
    pub fn to_roll(side: usize) -> NextTurn {
        NextTurn {
            side,
            dice: None,
            then: None,
        }
    }
}

/// What can be told of `pos` for the director, `next` saying whose turn comes first.
pub fn adjudicate(pos: &Position, next: NextTurn) -> Adjudication {
    if let Some(end) = pos.outcome() {
        let w = if end.mover_won { 0 } else { 1 };
        let mut told = Adjudication {
            next,
            certain_winner: Some(w),
            gammon_possible: [false; 2],
            backgammon_possible: [false; 2],
        };
        told.gammon_possible[w] = end.kind != WinKind::Single;
        told.backgammon_possible[w] = end.kind == WinKind::Backgammon;
        return told;
    }
    let sides = pos.sides();
    if pos.has_contact() {
        let open = [0, 1].map(|w| pos.borne_off(1 - w) == 0);
        return Adjudication {
            next,
            certain_winner: None,
            gammon_possible: open,
            backgammon_possible: [0, 1]
                .map(|w| open[w] && pos.most_for_winner(1 - w) == WinKind::Backgammon),
        };
    }
    let turns = Turns { sides, next };
    let certain_winner = (0..2).find(|&w| turns.wins_surely(w));
    let gammon_possible = [0, 1].map(|w| {
        pos.borne_off(1 - w) == 0 && !turns.saved_in_time(w, Goal::FirstOff, sides[1 - w])
    });
    let backgammon_possible = [0, 1].map(|w| {
        let l = 1 - w;
        let back = back_checkers(&sides[l]);
        gammon_possible[w]
            && back.iter().any(|&n| n > 0)
            && !turns.saved_in_time(w, Goal::Escape, back)
    });
    Adjudication {
        next,
        certain_winner,
        gammon_possible,
        backgammon_possible,
    }
}

/// The two sides' races and the order of their turns. Side `next.side` plays its turns
/// 1, 2, 3, …; the other side plays its turn `t` right after.
struct Turns<'a> {
    sides: &'a [Checkers; 2],
    next: NextTurn,
}

impl Turns<'_> {
    /// The dice `s` has already thrown for his first turn to come, if any.
    fn thrown(&self, s: usize) -> Option<Roll> {
        if self.next.side == s {
            self.next.dice
        } else {
            self.next.then
        }
    }

    /// The fewest turns side `s` can need to finish, with the dice on the board if any.
    fn fewest(&self, s: usize) -> u32 {
        match self.thrown(s) {
            Some(roll) => fewest_turns_after(&self.sides[s], roll),
            None => fewest_turns(&self.sides[s]),
        }
    }

    /// Whether side `s` reaches `goal` from `side` within `k` turns whatever its dice.
    fn surely_within(&self, s: usize, goal: Goal, side: Checkers, k: u32) -> bool {
        let mut race = Race::new(goal, &side);
        match self.thrown(s) {
            Some(roll) => race.after(&side, roll, k),
            None => race.within(&side, k),
        }
    }

    /// Whether `w` finishes first whatever the dice: by his worst case no later than the
    /// other's best. His turn `t` comes before the other's turn `t` when he moves first,
    /// after it otherwise.
    fn wins_surely(&self, w: usize) -> bool {
        let l = 1 - w;
        let best_of_l = self.fewest(l);
        let k = if self.next.side == w {
            best_of_l
        } else {
            best_of_l.saturating_sub(1)
        };
        self.surely_within(w, Goal::Finish, self.sides[w], k)
    }

    /// Whether the loser `1 − w` surely reaches `goal` (from `side`, his checkers or the
    /// ones that matter for it) before `w` can have finished with his best dice.
    fn saved_in_time(&self, w: usize, goal: Goal, side: Checkers) -> bool {
        let l = 1 - w;
        let best_of_w = self.fewest(w);
        // When `w` finishes on his turn t, the loser has had t − 1 turns if `w` moves
        // first, t otherwise.
        let k = if self.next.side == w {
            best_of_w.saturating_sub(1)
        } else {
            best_of_w
        };
        self.surely_within(l, goal, side, k)
    }
}

/// Only the loser's checkers in the winner's home board (his points 19–24) and on the bar:
/// the others never stand in their way, so they are left out of the search for
/// [`Goal::Escape`] (every die is best spent on these).
fn back_checkers(side: &Checkers) -> Checkers {
    let mut back = [0u8; 25];
    back[18..].copy_from_slice(&side[18..]);
    back
}
