//! Every legal play of a roll (4.2): as many dice as can be played are played; when only
//! one die of two can be played, the higher one if it can; a checker on the bar enters
//! before any other moves; bearing off only with all fifteen in the home board, a die
//! larger than needed only from the highest occupied point.

use std::cell::RefCell;
use std::fmt;
use std::ops::Deref;

use super::Position;
use super::movegen::{Leaf, search};
use crate::backgammon::error::RuleError;
use crate::dice::Roll;

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

/// The steps of a play, at most four, kept inline: a play costs no allocation of its own
/// (a `Vec` per play was one allocation per play, sixteen for the opening 3-1, where
/// `bkgm` makes one in all; docs/benchmarks.md). Reads as a slice of [`Step`]s.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Steps {
    /// The steps, then empty ones.
    pub(super) buf: [Step; 4],
    pub(super) len: u8,
}

impl Steps {
    /// The steps, in the order played.
    pub fn as_slice(&self) -> &[Step] {
        self.buf.get(..usize::from(self.len)).unwrap_or(&self.buf)
    }
}

impl Deref for Steps {
    type Target = [Step];

    fn deref(&self) -> &[Step] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Steps {
    type Item = &'a Step;
    type IntoIter = std::slice::Iter<'a, Step>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for Steps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
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

/// Every legal play of `dice` in `pos`, one per distinct resulting position (two plays
/// that leave the same position are the same play, 4.2), in an order of no meaning but
/// always the same for the same position and dice (not sorted: sorting took about a
/// fifth of the time and no caller needs it). Never empty: when no die can be played
/// the one play is no move. Dice outside 1–6 are refused.
pub fn legal_plays(pos: &Position, dice: Roll) -> Result<Vec<Play>, RuleError> {
    if dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(RuleError::invalid(
            "4.1 (i)",
            format!("dice show 1 to 6, not {}-{}", dice[0], dice[1]),
        ));
    }
    thread_local! {
        /// The search's leaves, kept from one call to the next: no allocation but the
        /// list returned.
        static LEAVES: RefCell<Vec<Leaf>> = RefCell::new(Vec::with_capacity(256));
    }
    Ok(LEAVES.with(|cell| match cell.try_borrow_mut() {
        Ok(mut leaves) => plays_of(pos, dice, &mut leaves),
        Err(_) => plays_of(pos, dice, &mut Vec::new()),
    }))
}

/// The plays of the leaves [`search`] finds, in their order.
fn plays_of(pos: &Position, dice: Roll, leaves: &mut Vec<Leaf>) -> Vec<Play> {
    let blots = search(pos, dice, leaves);
    let mut plays = Vec::with_capacity(leaves.len());
    for leaf in leaves.iter() {
        plays.push(Play {
            steps: Steps::default(),
            result: *pos,
        });
        if let Some(play) = plays.last_mut() {
            leaf.write(play, dice, blots);
        }
    }
    plays
}

impl fmt::Display for Play {
    /// GNU Backgammon's notation: one checker's steps joined (`24/18`, or `13/9*/7` when
    /// it hits on the way), the highest start first, repeats as `(2)`, `bar`, `off`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::notation::format_steps(&self.steps))
    }
}
