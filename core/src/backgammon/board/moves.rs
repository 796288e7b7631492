//! Every legal play of a roll (4.2): as many dice as can be played are played; when only
//! one die of two can be played, the higher one if it can; a checker on the bar enters
//! before any other moves; bearing off only with all fifteen in the home board, a die
//! larger than needed only from the highest occupied point.

use std::fmt;

use super::{BAR, Position};
use crate::backgammon::error::RuleError;
use crate::dice::Roll;

/// One checker moved by one die: from its point (1–24, 25 the bar) to a point (0 is off).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The point left, in the mover's numbering; 25 is the bar.
    pub from: u8,
    /// The point reached; 0 is borne off.
    pub to: u8,
    /// Whether an opponent's blot was hit there.
    pub hit: bool,
}

/// A legal play: the steps, in order, and the position they leave (still seen from the
/// player who moved; [`Position::swap`] gives the opponent's view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The single-die steps, in the order played; empty when no die can be played.
    pub steps: Vec<Step>,
    /// The position after them.
    pub result: Position,
}

/// Moves one checker of the player on roll from `from` by `die`, if the rules allow
/// that single step: the bar first, no landing on a point the opponent holds, bearing
/// off only from the home board (a larger die only from the highest point).
pub(crate) fn step(pos: &Position, from: u8, die: u8) -> Option<(Position, Step)> {
    let me = &pos.sides()[0];
    let from_index = usize::from(from).checked_sub(1)?;
    if from_index > BAR || me[from_index] == 0 || (me[BAR] > 0 && from_index != BAR) {
        return None;
    }
    let mut next = *pos;
    let to = i16::from(from) - i16::from(die);
    let mut hit = false;
    if to >= 1 {
        // The mover's point `to` is the opponent's point 25 − to, at index 24 − to.
        let opp_index = 24 - to as usize;
        match pos.sides()[1][opp_index] {
            0 => {}
            1 => {
                hit = true;
                let opponent = next.side_mut(1);
                opponent[opp_index] = 0;
                opponent[BAR] += 1;
            }
            _ => return None,
        }
        next.side_mut(0)[to as usize - 1] += 1;
    } else {
        let all_home = me[6..].iter().all(|&n| n == 0);
        let highest = me[from_index + 1..].iter().all(|&n| n == 0);
        if !all_home || (to < 0 && !highest) {
            return None;
        }
    }
    next.side_mut(0)[from_index] -= 1;
    let to = u8::try_from(to.max(0)).unwrap_or(0);
    Some((next, Step { from, to, hit }))
}

/// A partial play while generating: the position and the steps so far, kept inline so
/// that the search allocates nothing per step.
#[derive(Clone, Copy)]
struct Node {
    pos: Position,
    steps: [Step; 4],
    len: u8,
}

const NO_STEP: Step = Step {
    from: 0,
    to: 0,
    hit: false,
};

impl Node {
    fn into_play(self) -> Play {
        Play {
            steps: self.steps[..usize::from(self.len)].to_vec(),
            result: self.pos,
        }
    }
}

/// The distinct positions one more die can reach from each of `level`'s, with one way
/// (steps) to reach each.
fn extend(level: &[Node], die: u8) -> Vec<Node> {
    let mut next = Vec::with_capacity(level.len() * 8);
    for node in level {
        let me = &node.pos.sides()[0];
        let froms: &[u8] = if me[BAR] > 0 { &[25] } else { &ALL_POINTS };
        for &from in froms {
            if me[usize::from(from) - 1] == 0 {
                continue;
            }
            if let Some((pos, s)) = step(&node.pos, from, die) {
                let mut steps = node.steps;
                steps[usize::from(node.len)] = s;
                next.push(Node {
                    pos,
                    steps,
                    len: node.len + 1,
                });
            }
        }
    }
    dedup(&mut next);
    next
}

/// One node per distinct position (sorting is cheaper than hashing 50-byte positions).
fn dedup(nodes: &mut Vec<Node>) {
    nodes.sort_unstable_by_key(|n| n.pos);
    nodes.dedup_by(|a, b| a.pos == b.pos);
}

const ALL_POINTS: [u8; 24] = [
    24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
];

/// Every legal play of `dice` in `pos`, one per distinct resulting position (two plays
/// that leave the same position are the same play, 4.2), in the order of their
/// positions. Never empty: when no die can be played the one play is no move. Dice
/// outside 1–6 are refused.
pub fn legal_plays(pos: &Position, dice: Roll) -> Result<Vec<Play>, RuleError> {
    if dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(RuleError::invalid(
            "4.1 (i)",
            format!("dice show 1 to 6, not {}-{}", dice[0], dice[1]),
        ));
    }
    let start = vec![Node {
        pos: *pos,
        steps: [NO_STEP; 4],
        len: 0,
    }];
    let found = if dice[0] == dice[1] {
        // Doubles: up to four steps of the same die; the deepest level reached.
        let mut level = start;
        for _ in 0..4 {
            let next = extend(&level, dice[0]);
            if next.is_empty() {
                break;
            }
            level = next;
        }
        level
    } else {
        let (high, low) = (dice[0].max(dice[1]), dice[0].min(dice[1]));
        let high_first = extend(&start, high);
        let low_first = extend(&start, low);
        let mut both = extend(&high_first, low);
        both.extend(extend(&low_first, high));
        if !both.is_empty() {
            dedup(&mut both);
            both
        } else if !high_first.is_empty() {
            // Only one die can be played: the higher one when it can be.
            high_first
        } else if !low_first.is_empty() {
            low_first
        } else {
            start
        }
    };
    Ok(found.into_iter().map(Node::into_play).collect())
}

impl fmt::Display for Play {
    /// GNU Backgammon's notation: one checker's steps joined (`24/18`, or `13/9*/7` when
    /// it hits on the way), the highest start first, repeats as `(2)`, `bar`, `off`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::notation::format_steps(&self.steps))
    }
}
