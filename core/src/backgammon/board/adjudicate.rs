//! Adjudication help for 4.3 (iv) and 4.5: with no contact, whether a win is already
//! mathematically certain, and whether a gammon is still possible. Each side then races
//! alone, so each is computed for one side at a time:
//!
//! - the fewest turns a side can need to bear off all its checkers, a bound no dice can
//!   beat: a turn moves at most 24 pips and bears off at most 4 checkers;
//! - the most turns a side can need when it plays each roll to finish fastest, computed
//!   exactly (every roll, every legal play) once all its checkers are in its home board
//!   and at most [`EXACT_CHECKERS`] remain; otherwise no claim is made;
//! - whether a side in its home board bears off a checker on its next turn whatever it
//!   rolls (every roll's legal plays are generated); a gammon is then no longer possible
//!   if that turn comes before the opponent's fewest turns to finish. Deeper searches
//!   are not made: otherwise a gammon is reported possible.
//!
//! A win is certain for the player on roll when his most turns are no more than the
//! opponent's fewest; for the other player when they are fewer (he rolls second).

use std::collections::HashMap;

use super::{BAR, CHECKERS, Checkers, Position, legal_plays};

/// The most checkers for which the exact worst case of a bear-off is computed: the
/// states grow as C(n + 6, 6), each with 21 rolls to generate; four is 210 of them, a
/// few milliseconds. Beyond it no claim is made.
pub const EXACT_CHECKERS: u8 = 4;

/// What the board says to the director about a race (4.3 (iv), 4.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Adjudication {
    /// Side 0 (on roll) or 1 wins whatever the dice, if that is certain.
    pub certain_winner: Option<usize>,
    /// For each side as the winner: whether a gammon is still possible. `false` once the
    /// other side has borne off a checker, or is sure to before the winner can finish.
    pub gammon_possible: [bool; 2],
}

/// The fewest turns side `s` can need to bear off everything: no dice can do better.
pub fn fewest_turns(pos: &Position, s: usize) -> u32 {
    let pips = pos.pips()[s];
    let left = u32::from(CHECKERS - pos.borne_off(s));
    pips.div_ceil(24).max(left.div_ceil(4))
}

/// A side's checkers in its home board, as counts on points 1–6, if all are there.
fn home(side: &Checkers) -> Option<[u8; 6]> {
    side[6..=BAR].iter().all(|&n| n == 0).then(|| {
        let mut h = [0; 6];
        h.copy_from_slice(&side[..6]);
        h
    })
}

/// Worst-case turns to reach a goal, by exact search over every roll and the fastest
/// play of each, memoised per home-board position.
struct Race {
    memo: HashMap<[u8; 6], u32>,
    /// Stop once this many or fewer checkers remain (0: bear off all).
    goal: u8,
}

impl Race {
    fn worst(&mut self, h: [u8; 6]) -> u32 {
        if h.iter().sum::<u8>() <= self.goal {
            return 0;
        }
        if let Some(&t) = self.memo.get(&h) {
            return t;
        }
        let mut me = [0u8; 25];
        me[..6].copy_from_slice(&h);
        let pos = Position {
            sides: [me, [0; 25]],
        };
        let mut worst = 0;
        for a in 1..=6u8 {
            for b in a..=6u8 {
                let plays = legal_plays(&pos, [a, b]).unwrap_or_default();
                let best = plays
                    .iter()
                    .filter_map(|p| home(&p.result.sides()[0]))
                    .map(|next| self.worst(next))
                    .min()
                    .unwrap_or(0);
                worst = worst.max(best);
            }
        }
        let turns = worst + 1;
        self.memo.insert(h, turns);
        turns
    }
}

/// The most turns side `s` can need to bear off all its checkers, playing each roll to
/// finish fastest, when it is known (all home, at most [`EXACT_CHECKERS`] left).
pub fn most_turns(pos: &Position, s: usize) -> Option<u32> {
    let h = home(&pos.sides()[s])?;
    if h.iter().sum::<u8>() > EXACT_CHECKERS {
        return None;
    }
    Some(
        Race {
            memo: HashMap::new(),
            goal: 0,
        }
        .worst(h),
    )
}

/// Whether side `s`, all home, bears off a checker on its next turn whatever it rolls.
fn bears_off_next_turn(pos: &Position, s: usize) -> bool {
    if home(&pos.sides()[s]).is_none() {
        return false;
    }
    let seen = if s == 0 { *pos } else { pos.swap() };
    let before = seen.borne_off(0);
    (1..=6u8).all(|a| {
        (a..=6u8).all(|b| {
            legal_plays(&seen, [a, b])
                .unwrap_or_default()
                .iter()
                .any(|p| p.result.borne_off(0) > before)
        })
    })
}

/// What can be told of `pos` (seen from the player on roll) for the director.
pub fn adjudicate(pos: &Position) -> Adjudication {
    let contact = pos.has_contact();
    let over = pos.outcome().is_some();
    // Does side `w` finish before side `l` gets `l_turns` turns? `w` rolls first if 0.
    let before = |w: usize, w_turns: u32, l_turns: u32| {
        if w == 0 {
            w_turns <= l_turns
        } else {
            w_turns < l_turns
        }
    };
    let certain_winner = (!contact && !over)
        .then(|| {
            (0..2).find(|&w| {
                most_turns(pos, w).is_some_and(|t| before(w, t, fewest_turns(pos, 1 - w)))
            })
        })
        .flatten();
    let gammon_possible = [0, 1].map(|w| {
        let l = 1 - w;
        if pos.borne_off(l) > 0 {
            return false;
        }
        if contact || over {
            return true;
        }
        // The loser is sure to bear off a checker first if every roll of his next turn
        // bears one off and that turn comes before the winner's fewest turns to finish.
        !(bears_off_next_turn(pos, l) && before(l, 1, fewest_turns(pos, w)))
    });
    Adjudication {
        certain_winner,
        gammon_possible,
    }
}
