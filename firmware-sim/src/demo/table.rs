//! What every demo table does alike, backgammon (`mod.rs`) or chess (`chess.rs`): its
//! players pick among choices and think before they act, with the demo's seeded RNG, and
//! when its match is over the device goes offline and the table reports a
//! [`TableResult`].

use std::time::Duration;

use baffle_proto::v1;
use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;

use crate::device::Device;

/// How one table's match ended.
#[derive(Clone, Debug, PartialEq)]
pub struct TableResult {
    /// The match id.
    pub match_id: String,
    /// The final state.
    pub state: v1::MatchState,
    /// Inputs the device sent.
    pub inputs: u64,
    /// Connections the device made (more than one: it reconnected).
    pub connections: u32,
}

/// The match is over: the device goes offline, and the table reports.
pub(super) async fn finish(
    device: Device,
    match_id: String,
    state: v1::MatchState,
    inputs: u64,
) -> TableResult {
    let connections = device.view().connections;
    device.close().await;
    TableResult {
        match_id,
        state,
        inputs,
        connections,
    }
}

/// A choice among `n` (0 to `n − 1`), by the players' seeded RNG.
pub(super) fn pick(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    rng.next_u32() % n
}

/// A player thinks: a pause uniformly between `low` and `high` ms.
pub(super) async fn think(rng: &mut ChaCha8Rng, (low, high): (u64, u64)) {
    let ms = if high > low {
        low + u64::from(rng.next_u32()) % (high - low)
    } else {
        low
    };
    if ms > 0 {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
}
