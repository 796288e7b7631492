//! STUB
use super::keys::{EntrantId, MatchKey};
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game { pub key: MatchKey, pub players: [EntrantId; 2], pub winner: EntrantId, pub score: [u32; 2] }
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row { pub entrant: EntrantId, pub place: u32, pub played: u32, pub wins: u32, pub losses: u32, pub byes: u32, pub score: u32, pub points_for: u32, pub points_against: u32, pub buchholz: u32, pub sonneborn_berger: u32 }
pub fn table(_entrants: &[EntrantId], _games: &[Game], _byes: &[EntrantId]) -> Vec<Row> { todo!() }
