//! Every legal play of a roll (4.2): as many dice as can be played are played; when only
//! one die of two can be played, the higher one if it can; a checker on the bar enters
//! before any other moves; bearing off only with all fifteen in the home board, a die
//! larger than needed only from the highest occupied point.

use std::cell::RefCell;

use super::Position;
use super::movegen::{Leaf, search};
use super::play::{Play, Steps};
use crate::backgammon::error::RuleError;
use crate::dice::Roll;

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
    // Each play starts as a copy of one made once: pushing a play made afresh each
    // time went through a copy on the stack, read back as wide words over narrower
    // ones just written (a stall that took 70% of this function's time).
    let blank = Play {
        steps: Steps::default(),
        result: *pos,
    };
    let mut plays = vec![blank; leaves.len()];
    let dice = [dice[0].max(dice[1]), dice[0].min(dice[1])];
    for (play, leaf) in plays.iter_mut().zip(leaves.iter()) {
        leaf.write(play, dice, blots);
    }
    plays
}
