//! The one-sided bear-off tables: for every way to have up to fifteen checkers in a home
//! board, the most turns a side can need, whatever the dice, playing each roll as well as
//! it can, to bear off all of them ([`Table::Finish`]) or its first one ([`Table::FirstOff`]).
//!
//! There are C(21, 6) = 54,264 home boards (0–15 checkers on six points). Each entry is a
//! minimax over the 21 rolls and every legal play of each (the side moves alone: in a race
//! the other side can neither hit nor block), computed by [`build`] and embedded as
//! `bearoff.bin` (two bytes per board, 106 KiB), because building it takes 4.3 s in a
//! release build (measured with the move generator of November 2026) and far longer in a
//! test build, once per process. `cargo run
//! --release -p baffle-core --example bearoff_table` writes the file again;
//! `core/tests/board_bearoff.rs` checks every entry against its children and against an
//! independent search in the tests.
//!
//! A home board is indexed by the combinatorial number system: the counts `h[0..6]` (points
//! 1–6) are read as the places of the five bars that separate them among `n + 5` places,
//! `n` the checkers.

use super::{Checkers, Position, legal_plays};

/// Home boards with up to fifteen checkers: C(21, 6).
pub const BOARDS: usize = 54_264;

/// Which question an entry answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The most turns to bear off every checker.
    Finish = 0,
    /// The most turns to bear off at least one checker (0 for an empty board).
    FirstOff = 1,
}

/// A home board: checkers on points 1–6.
pub type Home = [u8; 6];

const EMBEDDED: &[u8] = include_bytes!("bearoff.bin");

/// The side's checkers as a home board, if all of them are in it.
pub fn home(side: &Checkers) -> Option<Home> {
    side[6..].iter().all(|&n| n == 0).then(|| {
        let mut h = [0; 6];
        h.copy_from_slice(&side[..6]);
        h
    })
}

/// C(n, k) for the small arguments the index needs.
const fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// The index of a home board of at most fifteen checkers, in `0..BOARDS`: boards with
/// fewer checkers first, then by the positions of the bars that separate the points.
pub fn index(h: &Home) -> Option<usize> {
    let n: usize = h.iter().map(|&c| usize::from(c)).sum();
    if n > 15 {
        return None;
    }
    // Bar i (0–4) sits after point i + 1's checkers: at place i + (checkers on points
    // 1..=i+1). Boards of fewer checkers come first: C(n + 5, 6) of them.
    let mut rank = choose(n + 5, 6);
    let mut place = 0;
    for (i, &c) in h.iter().enumerate().take(5) {
        place += usize::from(c);
        rank += choose(place + i, i + 1);
    }
    Some(rank)
}

/// The home board at `index` (the inverse of [`index`]).
pub fn board_at(index: usize) -> Option<Home> {
    if index >= BOARDS {
        return None;
    }
    let mut n = 0;
    while choose(n + 6, 6) <= index {
        n += 1;
    }
    let mut rest = index - choose(n + 5, 6);
    // Bars 1..=5 at strictly increasing places below n + 5; the greatest first.
    let mut places = [0usize; 5];
    for i in (0..5).rev() {
        let mut p = i;
        while choose(p + 1, i + 1) <= rest {
            p += 1;
        }
        places[i] = p;
        rest -= choose(p, i + 1);
    }
    let mut h = [0u8; 6];
    let mut before = 0;
    for i in 0..5 {
        let upto = places[i] - i;
        h[i] = u8::try_from(upto - before).ok()?;
        before = upto;
    }
    h[5] = u8::try_from(n - before).ok()?;
    Some(h)
}

/// The most turns `h` can need for `table`'s goal, from the embedded tables.
pub fn most_turns(table: Table, h: &Home) -> Option<u32> {
    let i = index(h)?;
    EMBEDDED.get(i * 2 + table as usize).map(|&t| u32::from(t))
}

/// The children of a home board: for each of the 21 rolls, the distinct home boards its
/// legal plays leave. The side moves alone.
pub fn children(h: &Home) -> Vec<Vec<Home>> {
    let mut side = [0u8; 25];
    side[..6].copy_from_slice(h);
    let pos = Position {
        sides: [side, [0; 25]],
    };
    let mut out = Vec::with_capacity(21);
    for a in 1..=6u8 {
        for b in a..=6u8 {
            let plays = legal_plays(&pos, [a, b]).unwrap_or_default();
            out.push(
                plays
                    .iter()
                    .filter_map(|p| home(&p.result.sides()[0]))
                    .collect(),
            );
        }
    }
    out
}

/// Builds both tables from scratch, two bytes per board in index order: the content of
/// `bearoff.bin`.
pub fn build() -> Vec<u8> {
    let mut finish = vec![u8::MAX; BOARDS];
    let mut first = vec![u8::MAX; BOARDS];
    // Fewer pips first: every play from a board leaves fewer pips, so its children are done.
    let mut order: Vec<usize> = (0..BOARDS).collect();
    order.sort_by_key(|&i| board_at(i).map_or(0, |h| pips(&h)));
    for &i in &order {
        let Some(h) = board_at(i) else { continue };
        let n: u8 = h.iter().sum();
        if n == 0 {
            finish[i] = 0;
            first[i] = 0;
            continue;
        }
        let kids = children(&h);
        finish[i] = minimax(&kids, |c| {
            (c.iter().sum::<u8>() > 0).then(|| index(c).map_or(u8::MAX, |j| finish[j]))
        });
        first[i] = minimax(&kids, |c| {
            (c.iter().sum::<u8>() == n).then(|| index(c).map_or(u8::MAX, |j| first[j]))
        });
    }
    finish
        .iter()
        .zip(&first)
        .flat_map(|(&f, &o)| [f, o])
        .collect()
}

/// One turn of the minimax: the worst roll, the best play of each; `rest` is `None` for a
/// child that reached the goal and the turns it still needs otherwise.
fn minimax(kids: &[Vec<Home>], rest: impl Fn(&Home) -> Option<u8>) -> u8 {
    let worst = kids
        .iter()
        .map(|plays| {
            plays
                .iter()
                .map(|c| rest(c).unwrap_or(0))
                .min()
                .unwrap_or(0)
        })
        .max()
        .unwrap_or(0);
    worst.saturating_add(1)
}

fn pips(h: &Home) -> u32 {
    h.iter()
        .enumerate()
        .map(|(i, &c)| (i as u32 + 1) * u32::from(c))
        .sum()
}

// The file is two bytes per board, or the build fails here.
const _: () = assert!(EMBEDDED.len() == BOARDS * 2);
