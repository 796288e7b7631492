//! An independent, slow checker of legal plays, written from the rules rather than from
//! `core`'s generator: one signed board in a fixed orientation, every order of the dice
//! tried checker by checker without any pruning or de-duplication on the way, and the
//! rules of 4.2 applied to the finished sequences at the end.

use baffle_core::backgammon::board::Position;
use std::collections::BTreeSet;

/// `points[1..=24]`: the mover's checkers positive, the opponent's negative, on the
/// mover's numbering. `bar`: the mover's and the opponent's checkers on the bar. `off`:
/// the mover's and the opponent's checkers borne off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Board {
    pub points: [i8; 25],
    pub bar: [i8; 2],
    pub off: [i8; 2],
}

impl Board {
    pub fn from_position(p: &Position) -> Board {
        let [me, them] = p.sides();
        let mut points = [0i8; 25];
        for point in 1..=24usize {
            points[point] += me[point - 1] as i8;
            // The opponent's own point q is the mover's 25 − q.
            points[25 - point] -= them[point - 1] as i8;
        }
        let on_board = |s: &[u8; 25]| s.iter().map(|&n| n as i8).sum::<i8>();
        Board {
            points,
            bar: [me[24] as i8, them[24] as i8],
            off: [15 - on_board(me), 15 - on_board(them)],
        }
    }

    /// One checker from `from` (25 = the bar) by `die`, if the rules allow it.
    fn single(&self, from: usize, die: usize) -> Option<Board> {
        let mut b = *self;
        if from == 25 {
            if b.bar[0] == 0 {
                return None;
            }
            b.bar[0] -= 1;
        } else {
            // Nothing else moves while a checker of the mover is on the bar.
            if b.bar[0] > 0 || b.points[from] <= 0 {
                return None;
            }
            b.points[from] -= 1;
        }
        if die < from {
            let to = from - die;
            if b.points[to] < -1 {
                return None; // two or more of the opponent: a closed point
            }
            if b.points[to] == -1 {
                b.points[to] = 0;
                b.bar[1] += 1;
            }
            b.points[to] += 1;
            return Some(b);
        }
        // Bearing off: every checker (the one moving included) in the home board 1–6.
        let outside: i32 =
            (7..=24).map(|p| self.points[p].max(0) as i32).sum::<i32>() + self.bar[0] as i32;
        if outside > 0 {
            return None;
        }
        if die > from && (from + 1..=6).any(|p| self.points[p] > 0) {
            return None; // a larger die only from the highest point occupied
        }
        b.off[0] += 1;
        Some(b)
    }

    /// All sequences of single moves with `dice` in this order, as far as each goes:
    /// (dice used, the first die used, the board after).
    fn walk(
        &self,
        dice: &[usize],
        used: usize,
        first: usize,
        out: &mut Vec<(usize, usize, Board)>,
    ) {
        let mut moved = false;
        if let Some((&die, rest)) = dice.split_first() {
            for from in 1..=25 {
                if let Some(next) = self.single(from, die) {
                    moved = true;
                    let first = if used == 0 { die } else { first };
                    next.walk(rest, used + 1, first, out);
                }
            }
        }
        if !moved {
            out.push((used, first, *self));
        }
    }
}

/// The set of boards a legal play of `dice` leaves.
pub fn legal_results(p: &Position, dice: [u8; 2]) -> BTreeSet<Board> {
    let b = Board::from_position(p);
    let (d1, d2) = (dice[0] as usize, dice[1] as usize);
    let orders: Vec<Vec<usize>> = if d1 == d2 {
        vec![vec![d1; 4]]
    } else {
        vec![vec![d1, d2], vec![d2, d1]]
    };
    let mut all = Vec::new();
    for order in &orders {
        b.walk(order, 0, 0, &mut all);
    }
    // As many dice as can be played.
    let most = all.iter().map(|(used, _, _)| *used).max().unwrap_or(0);
    let mut best: Vec<_> = all
        .into_iter()
        .filter(|(used, _, _)| *used == most)
        .collect();
    // Only one of two different dice playable: the higher, when some play uses it.
    if most == 1 && d1 != d2 {
        let high = d1.max(d2);
        if best.iter().any(|(_, first, _)| *first == high) {
            best.retain(|(_, first, _)| *first == high);
        }
    }
    best.into_iter().map(|(_, _, b)| b).collect()
}
