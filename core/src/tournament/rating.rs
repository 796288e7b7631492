//! STUB
use serde::{Deserialize, Serialize};
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(transparent)]
pub struct Rating(pub i64);
#[derive(Debug)]
pub struct RatingError;
impl std::fmt::Display for RatingError { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "x") } }
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FibsChange { pub winner_gain: Rating, pub loser_loss: Rating }
pub fn fibs(_w: Rating, _l: Rating, _length: u32, _we: u32, _le: u32) -> Result<FibsChange, RatingError> { todo!() }
pub const MAX_RATING: Rating = Rating(1_000_000);
pub const START: Rating = Rating(150_000);
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score { Win, Draw, Loss }
pub fn elo(_p: Rating, _o: Rating, _s: Score, _k: u32) -> Result<Rating, RatingError> { todo!() }
impl std::fmt::Display for Rating { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "{}", self.0) } }
