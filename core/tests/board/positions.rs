//! Positions for the board tests, written as (point, checkers) pairs.

#![allow(dead_code)]

use baffle_core::backgammon::board::{Checkers, Position};

/// A side from (point, checkers) pairs; point 25 is the bar.
pub fn side(points: &[(usize, u8)]) -> Checkers {
    let mut s = [0u8; 25];
    for &(p, n) in points {
        s[p - 1] += n;
    }
    s
}

/// A position: the player on roll's checkers, then the opponent's, each on his own points.
pub fn pos(me: &[(usize, u8)], them: &[(usize, u8)]) -> Position {
    Position::new(side(me), side(them)).unwrap()
}
