//! A play as the move generator writes it and every reader takes it: the [`Step`]s of
//! one checker moved by one die, packed into [`Steps`], and the [`Play`] they make with
//! the position they leave. How a play is written for people is `notation`.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::Position;

/// In a path: the count of steps, the flag saying the lower die was played first (or
/// alone), and from bit `HIT` a flag per step saying it hit.
pub(super) const PATH_COUNT: u32 = 20;
pub(super) const LOW_FIRST: u32 = 1 << 23;
pub(super) const HIT: u32 = 24;

/// One checker moved by one die: from its point (1–24, 25 the bar) to a point (0 is off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Step {
    /// The point left, in the mover's numbering; 25 is the bar.
    pub from: u8,
    /// The point reached; 0 is borne off.
    pub to: u8,
    /// Whether an opponent's blot was hit there.
    pub hit: bool,
}

/// The steps of a play, at most four, kept as the search found them: the from-point of
/// each (five bits), their count, whether the lower die went first, a hit flag each,
/// and the dice; a [`Step`] is made when read. Writing them so costs a play one store,
/// where writing each step (a loop of four and 13 bytes) took about a tenth of
/// `legal_plays`' time (docs/benchmarks.md). A play costs no allocation of its own.
#[derive(Clone, Copy, Default)]
pub struct Steps {
    /// The search's path (as bytes: a play of 56 bytes, not 60 with a `u32`, the
    /// sample ~2% faster): from-points at bits 0–19, the count at bit 20, the flag
    /// saying the lower die went first, hit flags from bit 24; nothing else set.
    path: [u8; 4],
    /// The higher die, then the lower.
    dice: [u8; 2],
}

impl Steps {
    /// The steps of a leaf's path with dice `high` and `low`.
    #[inline]
    pub(super) fn new(path: u32, high: u8, low: u8) -> Steps {
        Steps {
            path: path.to_le_bytes(),
            dice: [high, low],
        }
    }

    /// The path, as a `u32`.
    #[inline]
    fn path(&self) -> u32 {
        u32::from_le_bytes(self.path)
    }

    /// How many steps (0–4).
    pub fn len(&self) -> usize {
        ((self.path() >> PATH_COUNT) & 7).min(4) as usize
    }

    /// Whether no die was played.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The step played `i`-th (from 0), if there is one.
    pub fn get(&self, i: usize) -> Option<Step> {
        if i >= self.len() {
            return None;
        }
        let [high, low] = self.dice;
        // Dice alternate, the lower first when the flag says so.
        let die = if i.is_multiple_of(2) == (self.path() & LOW_FIRST != 0) {
            low
        } else {
            high
        };
        let from = ((self.path() >> (5 * i)) & 31) as u8;
        Some(Step {
            from,
            to: from.saturating_sub(die),
            hit: (self.path() >> (HIT as usize + i)) & 1 != 0,
        })
    }

    /// The steps, in the order played.
    pub fn iter(&self) -> StepIter {
        StepIter {
            steps: *self,
            next: 0,
        }
    }

    /// The steps, in the order played, as a `Vec`.
    pub fn to_vec(&self) -> Vec<Step> {
        self.iter().collect()
    }
}

/// The steps of a [`Steps`], in the order played.
#[derive(Clone, Debug)]
pub struct StepIter {
    steps: Steps,
    next: usize,
}

impl Iterator for StepIter {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        let step = self.steps.get(self.next)?;
        self.next += 1;
        Some(step)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.steps.len() - self.next.min(self.steps.len());
        (left, Some(left))
    }
}

impl ExactSizeIterator for StepIter {}

impl IntoIterator for &Steps {
    type Item = Step;
    type IntoIter = StepIter;

    fn into_iter(self) -> StepIter {
        self.iter()
    }
}

/// Steps are equal when they read the same (the same steps may be kept two ways: a
/// bear-off reads the same with either die).
impl PartialEq for Steps {
    fn eq(&self, other: &Steps) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Steps {}

impl Hash for Steps {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        for s in self {
            s.hash(state);
        }
    }
}

impl fmt::Debug for Steps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A legal play: the steps, in order, and the position they leave (still seen from the
/// player who moved; [`Position::swap`] gives the opponent's view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// The single-die steps, in the order played; empty when no die can be played.
    pub steps: Steps,
    /// The position after them.
    pub result: Position,
}
