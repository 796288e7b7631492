//! STUB
use std::collections::BTreeSet;
use super::keys::EntrantId;
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound { pub pairs: Vec<(EntrantId, EntrantId)>, pub bye: Option<EntrantId>, pub rematches: usize }
#[derive(Debug)]
pub struct SwissError;
impl std::fmt::Display for SwissError { fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { write!(f, "x") } }
pub fn pair_round(_ranked: &[EntrantId], _played: &BTreeSet<(EntrantId, EntrantId)>, _had_bye: &BTreeSet<EntrantId>) -> Result<SwissRound, SwissError> { todo!() }
