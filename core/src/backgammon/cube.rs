//! The doubling cube (4.4).

use serde::{Deserialize, Serialize};

use super::error::RuleError;
use super::setup::MAX_CUBE;
use crate::side::Side;

/// The cube of a game: its value and who owns it (`None`: in the middle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cube {
    /// 1, 2, 4, … 64.
    pub value: u32,
    /// The player who may redouble; `None` while centred.
    pub owner: Option<Side>,
}

impl Cube {
    /// The cube at the start of a game: in the middle, at 1 (4.4).
    pub const CENTRED: Cube = Cube {
        value: 1,
        owner: None,
    };

    /// True when `side` owns the cube at a value that already wins him the match: the
    /// cube is dead for him (4.4 (vii)).
    pub fn is_dead_for(&self, side: Side, points_needed: u32) -> bool {
        self.owner == Some(side) && self.value >= points_needed
    }

    /// Checks that `side` may turn the cube now, given the points he needs.
    pub fn check_double(&self, side: Side, points_needed: u32) -> Result<(), RuleError> {
        if let Some(owner) = self.owner.filter(|o| *o != side) {
            return Err(RuleError::rule(
                "4.4",
                format!("player {owner} owns the cube: only the owner may redouble"),
            ));
        }
        if self.is_dead_for(side, points_needed) {
            return Err(RuleError::rule(
                "4.4 (vii)",
                format!(
                    "dead cube: at {} it already wins the {points_needed} points player {side} needs",
                    self.value
                ),
            ));
        }
        if self.value >= MAX_CUBE {
            return Err(RuleError::rule(
                "4.4",
                format!("the cube's highest value is {MAX_CUBE}"),
            ));
        }
        Ok(())
    }
}

/// One turn of the cube in a game, kept so that a void double can be undone (4.4 (iv), (vii)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CubeTurn {
    /// Who doubled.
    pub by: Side,
    /// The cube before the double.
    pub before: Cube,
    /// Whether the double was taken (`false`: passed or still pending).
    pub taken: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_4_4_only_the_owner_redoubles_and_64_is_the_top() {
        let owned = Cube {
            value: 2,
            owner: Some(Side::B),
        };
        assert!(
            owned
                .check_double(Side::A, 5)
                .unwrap_err()
                .to_string()
                .contains("only the owner")
        );
        assert!(owned.check_double(Side::B, 5).is_ok());
        assert!(Cube::CENTRED.check_double(Side::A, 5).is_ok());
        let top = Cube {
            value: 64,
            owner: Some(Side::A),
        };
        assert!(
            top.check_double(Side::A, 100)
                .unwrap_err()
                .message
                .contains("64")
        );
    }

    #[test]
    fn rule_4_4_vii_dead_cube() {
        let cube = Cube {
            value: 4,
            owner: Some(Side::A),
        };
        assert!(cube.is_dead_for(Side::A, 3));
        assert!(cube.is_dead_for(Side::A, 4));
        assert!(!cube.is_dead_for(Side::A, 5));
        assert!(!cube.is_dead_for(Side::B, 1), "dead only for its owner");
        assert_eq!(
            cube.check_double(Side::A, 4).unwrap_err().article,
            "4.4 (vii)"
        );
    }
}
