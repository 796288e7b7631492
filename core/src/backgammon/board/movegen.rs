//! The search behind [`legal_plays`](super::legal_plays): every distinct position a roll
//! can leave, each with the from-points of one way to reach it, on a compact board.
//!
//! The mover's side is packed into one `u128` key, four bits a point (a side has at most
//! 15 checkers), his point 1 in the highest nibble and the bar in the lowest; the low 24
//! bits say which of the opponent's blots are still standing (bit `t − 1` for the mover's
//! point `t`). The opponent changes only by being hit, so the key alone names the
//! resulting position, and comparing keys as integers orders them as [`Position`]'s own
//! `Ord` does (a hit blot leaves a 0 where the other position has a 1, on the opponent's
//! point `25 − t`, compared before any lower `t`). De-duplicating the plays of a mixed
//! roll is then finding equal integers (doubles need none); a [`Play`] is written (its
//! position read from the key) only for the plays returned. Bit masks of the points the mover occupies and the opponent
//! holds give the points a die can move from without looking at each point.

use super::play::{HIT, LOW_FIRST, PATH_COUNT, Play, Steps};
use super::{BAR, Position};

/// Bits of the mover's points 1–6 (bit `p − 1` stands for the point `p`).
const HOME: u32 = 0x3F;
/// The bit of the mover's bar in a point mask.
const BAR_BIT: u32 = 1 << BAR;
/// The opponent's 24 points, each still standing (no blot hit yet).
const NOT_HIT: u128 = 0xFF_FFFF;

/// Where the mover's point `p` (1–24, 25 the bar) sits in a key.
#[inline]
const fn shift(point: u32) -> u32 {
    128 - 4 * point
}

/// One checker on the point `p` (index `p`; 0 unused), as a key: looked up rather than
/// shifted, a variable shift of a `u128` being several instructions and a branch.
const ONE: [u128; 26] = {
    let mut t = [0; 26];
    let mut p = 1;
    while p <= 25 {
        t[p] = 1 << shift(p as u32);
        p += 1;
    }
    t
};

/// A position found: its key, and the path to it (the from-points of its steps, five bits
/// each, their count at bit 20, [`LOW_FIRST`], a hit flag per step from bit [`HIT`]),
/// which becomes the play's [`Steps`] as it is.
/// Packed to 20 bytes (from 32): the sort moves less (the 1,000 positions ~2.5% faster).
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
pub(super) struct Leaf {
    pub key: u128,
    pub path: u32,
}

impl Leaf {
    /// Writes the play this leaf stands for over `play` (which holds no step and the
    /// position before): its steps (the path as it is), and its position, read from the
    /// key rather than replayed byte by byte. In place, where the play lies in the list:
    /// a play built aside and moved in is read back as wide words over bytes just
    /// written, and that stall took more than half of `legal_plays`' time for the
    /// opening 3-1.
    /// `dice` come the higher first, ordered once by the caller: ordering them here for
    /// each play cost ~3% (paired: the opening 3-1 0.301 → 0.291 µs, 2-2 1.34 → 1.30).
    pub(super) fn write(&self, play: &mut Play, dice: [u8; 2], blots: u32) {
        let [high, low] = dice;
        play.steps = Steps::new(self.path, high, low);
        let [me, them] = &mut play.result.sides;
        let len = ((self.path >> PATH_COUNT) & 7).min(4) as usize;
        if len <= 2 {
            // Up to two steps replayed on the position before (copied already): fewer
            // instructions than reading all 25 points from the key (the opening 3-1 ~4%
            // faster); from three steps on, reading the key is cheaper.
            let order = if self.path & LOW_FIRST != 0 {
                [low, high]
            } else {
                [high, low]
            };
            for (i, die) in order.into_iter().enumerate().take(len) {
                let from = ((self.path >> (5 * i)) & 31) as usize;
                let to = from.saturating_sub(usize::from(die));
                if let Some(n) = me.get_mut(from.wrapping_sub(1)) {
                    *n = n.wrapping_sub(1);
                }
                if let Some(n) = me.get_mut(to.wrapping_sub(1)) {
                    *n += 1;
                }
            }
        } else {
            // Points 1–16 in the high half (point 1 highest), 17–25 above bit 28 of the
            // low.
            me[..16].copy_from_slice(&spread((self.key >> 64) as u64).to_be_bytes());
            me[16..].copy_from_slice(&spread((self.key as u64) >> 28).to_be_bytes()[7..]);
        }
        let hit = blots & !(self.key as u32);
        if hit != 0 {
            for t in points(hit) {
                them[24 - t as usize] = 0;
            }
            them[BAR] += hit.count_ones() as u8;
        }
    }
}

/// The nibbles of `x` as the bytes of the result, nibble `i` in byte `i`.
#[inline]
fn spread(x: u64) -> u128 {
    let mut z = u128::from(x);
    z = (z | z << 32) & 0x0000_0000_FFFF_FFFF_0000_0000_FFFF_FFFF;
    z = (z | z << 16) & 0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF;
    z = (z | z << 8) & 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF;
    (z | z << 4) & 0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F
}

/// Bit `i` set for each byte `i` of the 24 in `a`, `b`, `c` (each byte at most 15) that
/// `add` carries into its top bit: `0x7F` for those above 0, `0x7E` above 1.
#[inline]
fn bytes_set(a: u64, b: u64, c: u64, add: u8) -> u32 {
    let tops = |w: u64| {
        let t = (w.wrapping_add(u64::from_ne_bytes([add; 8])) & 0x8080_8080_8080_8080) >> 7;
        // Byte i's bit lands at bit 56 + i, no two partial products on one bit.
        (t.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    };
    tops(a) | tops(b) << 8 | tops(c) << 16
}

/// The low nibbles of the bytes of `z` packed, the most significant byte's highest.
#[inline]
fn pack(mut z: u128) -> u64 {
    z = (z | z >> 4) & 0x00FF_00FF_00FF_00FF_00FF_00FF_00FF_00FF;
    z = (z | z >> 8) & 0x0000_FFFF_0000_FFFF_0000_FFFF_0000_FFFF;
    z = (z | z >> 16) & 0x0000_0000_FFFF_FFFF_0000_0000_FFFF_FFFF;
    (z | z >> 32) as u64
}

/// A partial play: its key, the points the mover occupies (bit `p − 1`, bit 24 the bar),
/// and its path.
#[derive(Clone, Copy)]
struct Node {
    key: u128,
    occ: u32,
    path: u32,
}

impl Node {
    #[inline]
    fn leaf(&self) -> Leaf {
        Leaf {
            key: self.key,
            path: self.path,
        }
    }
}

/// What does not change during a play: the mover's points the opponent holds (two or
/// more checkers) and those with an opponent's blot.
struct Board {
    blocked: u32,
    blots: u32,
}

impl Board {
    fn new(pos: &Position) -> (Board, Node) {
        let [me, them] = pos.sides();
        // Eight points at a time, as words of bytes (each at most 15): the key's nibbles
        // by packing bytes, the masks from each byte's top bit after an add. A loop over
        // the 49 bytes took ~37 ns a call: the opening 3-1 11% slower, the 1,000
        // positions 8% (paired, docs/benchmarks.md).
        let word = |s: &[u8]| u64::from_le_bytes(s.try_into().expect("eight points"));
        let (m0, m1, m2) = (word(&me[..8]), word(&me[8..16]), word(&me[16..24]));
        let occ = bytes_set(m0, m1, m2, 0x7F) | u32::from(me[BAR] > 0) << BAR;
        let (t0, t1, t2) = (word(&them[..8]), word(&them[8..16]), word(&them[16..24]));
        // Bit j of these for the opponent's point j + 1, the mover's point 24 − j.
        let held = bytes_set(t0, t1, t2, 0x7E);
        let some = bytes_set(t0, t1, t2, 0x7F);
        let (blocked, blots) = (held.reverse_bits() >> 8, (some & !held).reverse_bits() >> 8);
        let hi = pack(u128::from(m0.swap_bytes()) << 64 | u128::from(m1.swap_bytes()));
        let lo = pack(u128::from(m2.swap_bytes())) << 32 | u64::from(me[BAR]) << 28;
        let key = u128::from(hi) << 64 | u128::from(lo) | NOT_HIT;
        (Board { blocked, blots }, Node { key, occ, path: 0 })
    }

    /// The points (as a mask) that die `d` can move a checker of `n` from: the bar alone
    /// while a checker is on it; points whose landing point the opponent does not hold;
    /// with every checker home, the point `d` itself, or the highest point when it is
    /// lower than `d`.
    #[inline]
    fn froms(&self, n: &Node, d: u32) -> u32 {
        if n.occ & BAR_BIT != 0 {
            let open = self.blocked & (1 << (24 - d)) == 0;
            return if open { BAR_BIT } else { 0 };
        }
        // Bit p − 1 of `blocked << d` is the landing point p − d; points above d only.
        let mut m = n.occ & !(self.blocked << d) & (!0u32 << d);
        if n.occ != 0 && n.occ & !HOME == 0 {
            let highest = 32 - n.occ.leading_zeros();
            if highest <= d {
                m |= 1 << (highest - 1);
            } else {
                m |= n.occ & (1 << (d - 1));
            }
        }
        m
    }

    /// One checker of `n` moved from `from` by `d` (a move [`Board::froms`] allowed).
    #[inline]
    fn play(&self, n: &Node, from: u32, d: u32, mut path_bits: u32) -> Node {
        let one = ONE[from as usize];
        let mut key = n.key - one;
        let mut occ = n.occ;
        if key & (one * 15) == 0 {
            occ &= !(1 << (from - 1));
        }
        if from > d {
            let to = from - d;
            key += ONE[to as usize];
            occ |= 1 << (to - 1);
            // A blot there still standing is hit: its bit goes, and the step says so.
            let hit = (key as u32) & self.blots & (1 << (to - 1));
            key &= !u128::from(hit);
            path_bits |= u32::from(hit != 0) << (HIT + ((n.path >> PATH_COUNT) & 7));
        }
        let count = (n.path >> PATH_COUNT) & 7;
        let path = (n.path | (from << (5 * count)) | path_bits) + (1 << PATH_COUNT);
        Node { key, occ, path }
    }
}

/// Sorts leaves by key (for [`dedup`] of many): by insertion while they are few and
/// nearly in order (see [`Board::mixed`]), where the standard sort's networks would not
/// use that order (the 1,000 positions ~2% faster when every roll's leaves were sorted).
fn sort(leaves: &mut [Leaf]) {
    if leaves.len() > 48 {
        leaves.sort_unstable_by_key(|l| l.key);
        return;
    }
    for i in 1..leaves.len() {
        let x = leaves[i];
        let mut j = i;
        while j > 0 && leaves[j - 1].key > x.key {
            leaves[j] = leaves[j - 1];
            j -= 1;
        }
        leaves[j] = x;
    }
}

/// Drops the leaves whose key an earlier one has, keeping the order. With few leaves
/// (nearly every roll), through a small hash table of their indices: sorting them and
/// dropping neighbours cost more (the opening 3-1 ~7% slower, the 1,000 positions ~10%).
fn dedup(leaves: &mut Vec<Leaf>) {
    const SLOTS: usize = 128;
    const EMPTY: u8 = u8::MAX;
    if leaves.len() > SLOTS / 2 {
        sort(leaves);
        leaves.dedup_by_key(|l| l.key);
        return;
    }
    let mut slots = [EMPTY; SLOTS];
    let mut kept = 0;
    for i in 0..leaves.len() {
        let leaf = leaves[i];
        let key = leaf.key;
        let folded = (key as u64) ^ ((key >> 64) as u64);
        let mut s = (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 57) as usize;
        loop {
            let k = slots[s];
            if k == EMPTY {
                slots[s] = kept as u8;
                leaves[kept] = leaf;
                kept += 1;
                break;
            }
            if { leaves[usize::from(k)].key } == key {
                break;
            }
            s = (s + 1) % SLOTS;
        }
    }
    leaves.truncate(kept);
}

/// Iterates the points of a mask, as 25–1, highest first.
#[inline]
fn points_down(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let p = 32 - mask.leading_zeros();
            mask &= !(1 << (p - 1));
            p
        })
    })
}

/// Iterates the points of a mask, as 1–25.
#[inline]
fn points(mut mask: u32) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let p = mask.trailing_zeros() + 1;
            mask &= mask - 1;
            p
        })
    })
}

/// Every distinct position a legal play of `dice` (each 1–6) leaves in `pos`, one leaf
/// each, into `out` (cleared first), in the order found: the same each time, but not
/// sorted (sorting a double's leaves cost 2-2 from the start ~25%). Never empty: no
/// die playable leaves the one leaf of no step.
/// Returns the mover's points with an opponent's blot, for [`Leaf::write`].
pub(super) fn search(pos: &Position, dice: [u8; 2], out: &mut Vec<Leaf>) -> u32 {
    out.clear();
    let (board, root) = Board::new(pos);
    let (high, low) = (
        u32::from(dice[0].max(dice[1])),
        u32::from(dice[0].min(dice[1])),
    );
    if high == low {
        let mut deepest = 0;
        // One path per multiset of from-points: the leaves are already distinct, and
        // left in the order found.
        board.doubles(root, high, BAR_BIT << 1, 0, &mut deepest, out);
    } else {
        board.mixed(root, high, low, out);
    }
    board.blots
}

impl Board {
    /// Doubles: up to four steps of `d`, each from a point no higher than the one before
    /// (`below` masks the points allowed). Any legal sequence reordered so is legal too
    /// (a step from a lower point never opens one from a higher), and different
    /// multisets of from-points leave different positions, so each position is reached
    /// once. Only the deepest leaves are kept (as many dice as can be played).
    fn doubles(
        &self,
        n: Node,
        d: u32,
        below: u32,
        depth: u32,
        deepest: &mut u32,
        out: &mut Vec<Leaf>,
    ) {
        let froms = self.froms(&n, d) & (below - 1);
        if depth == 4 || froms == 0 {
            if depth > *deepest {
                out.clear();
                *deepest = depth;
            }
            if depth == *deepest {
                out.push(Leaf {
                    key: n.key,
                    path: n.path,
                });
            }
            return;
        }
        if depth == 3 {
            // The fourth step's positions are leaves: pushed here, without a call and a
            // look for a fifth step each (2-2 from the start ~15% faster).
            if *deepest < 4 {
                out.clear();
                *deepest = 4;
            }
            for from in points(froms) {
                out.push(self.play(&n, from, d, 0).leaf());
            }
            return;
        }
        for from in points(froms) {
            let next = self.play(&n, from, d, 0);
            self.doubles(next, d, 1 << from, depth + 1, deepest, out);
        }
    }

    /// Two different dice: both in either order when some play uses both (the same
    /// position reached several ways is kept once); otherwise the higher alone if it can
    /// be played, the lower alone if not, no step if neither.
    ///
    /// The lower die first, then the higher by another checker (not the one just moved)
    /// from a point it could leave at the start, is the same play as the higher first:
    /// a step of the lower die never closes a point nor breaks a bear-off for the other,
    /// so that order is legal too and was found already; it is skipped, and [`dedup`]
    /// has half as many duplicates to drop.
    ///
    /// From-points are tried highest first: the leaves then come out nearly in the order
    /// of their keys (a landing on a lower point makes a larger key), which the insertion
    /// sort liked (opening 3-1 ~18% faster than lowest first) when every roll's leaves
    /// were sorted; now only more than 64 are.
    fn mixed(&self, root: Node, high: u32, low: u32, out: &mut Vec<Leaf>) {
        let high_at_start = self.froms(&root, high);
        for from in points_down(high_at_start) {
            let n1 = self.play(&root, from, high, 0);
            for from2 in points_down(self.froms(&n1, low)) {
                out.push(self.play(&n1, from2, low, 0).leaf());
            }
        }
        for from in points_down(self.froms(&root, low)) {
            let n1 = self.play(&root, from, low, LOW_FIRST);
            // Bit from − low − 1 is the point the checker just moved reached.
            let same = (1u32 << (from - 1)) >> low;
            let found = high_at_start & !same;
            for from2 in points_down(self.froms(&n1, high) & !found) {
                out.push(self.play(&n1, from2, high, 0).leaf());
            }
        }
        if !out.is_empty() {
            dedup(out);
            return;
        }
        for (die, flag) in [(high, 0), (low, LOW_FIRST)] {
            // Different from-points leave different positions: no duplicates here.
            for from in points(self.froms(&root, die)) {
                out.push(self.play(&root, from, die, flag).leaf());
            }
            if !out.is_empty() {
                return;
            }
        }
        out.push(Leaf {
            key: root.key,
            path: 0,
        });
    }
}
