//! What the registry keeps of a tournament's draw ([`crate::draws`] drives the rest):
//! the draw seed, sealed as match seeds are, and the opening record of its log.

use baffle_core::chess::ChessSettings;
use baffle_core::dice::ServerSeed;

use super::{Hub, check_id};
use crate::error::Error;
use crate::registry::DrawEntry;
use crate::store::EventStore;
use crate::time::TimeSource;
use baffle_core::tournament::directory;

/// The id a draw seed is sealed under: apart from every match id (no match id holds
/// a '/').
fn seal_id(tournament: &str) -> String {
    format!("draw/{tournament}")
}

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Records that `tournament`'s draw is open, with its sealed `seed` and the body of
    /// its log's first record. NOT_FOUND without the tournament; ALREADY_EXISTS if it
    /// has a draw.
    pub async fn record_draw_opened(
        &self,
        tournament: &str,
        seed: &ServerSeed,
        chess: Option<ChessSettings>,
        opening: String,
    ) -> Result<(), Error> {
        check_id(tournament, "tournament_id")?;
        let sealed_seed = self
            .seal
            .seal(&seal_id(tournament), seed.as_bytes())
            .map_err(Error::Internal)?;
        let command = directory::Command::OpenDraw {
            id: tournament.to_string(),
            sealed_seed,
            chess,
            opening,
        };
        self.direct(&mut *self.state.lock().await, &command).await
    }

    /// Every tournament with a draw, and what the registry holds of it.
    pub async fn draw_entries(&self) -> Vec<(String, DrawEntry)> {
        let state = self.state.lock().await;
        state
            .registry
            .directory
            .tournaments
            .iter()
            .filter_map(|(id, t)| Some((id.clone(), t.draw.clone()?)))
            .collect()
    }

    /// The draw seed of `tournament`, unsealed: for the draw, which reveals it.
    pub async fn draw_seed(&self, tournament: &str) -> Result<ServerSeed, Error> {
        let state = self.state.lock().await;
        let entry = state
            .registry
            .directory
            .tournaments
            .get(tournament)
            .and_then(|t| t.draw.as_ref())
            .ok_or_else(|| Error::NotFound(format!("tournament {tournament} has no draw")))?;
        let bytes = self
            .seal
            .open(&seal_id(tournament), &entry.sealed_seed)
            .map_err(|e| Error::Internal(format!("the draw seed does not unseal: {e}")))?;
        Ok(ServerSeed::from_bytes(bytes))
    }
}
