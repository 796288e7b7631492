//! The list of players that lasts across tournaments (`player.listed`, `player.rated` in
//! the registry): a tournament registers an entrant from it with his rating and
//! experience, and each rated result of his is written back, so his rating and history
//! follow him from one tournament to the next.

use baffle_core::tournament::Details;

use super::Hub;
use crate::error::Error;
use crate::registry::ListedPlayer;
use crate::store::EventStore;
use crate::time::TimeSource;
use baffle_core::tournament::directory;

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Lists players, all or none: an id already listed is refused, naming it.
    pub async fn list_players(&self, players: Vec<(String, Details)>) -> Result<(), Error> {
        let command = directory::Command::ListPlayers(players);
        self.direct(&mut *self.state.lock().await, &command).await
    }

    /// Every listed player, by id.
    pub async fn players(&self) -> Vec<(String, ListedPlayer)> {
        let state = self.state.lock().await;
        let players = &state.registry.directory.players;
        players
            .iter()
            .map(|(id, p)| (id.clone(), p.clone()))
            .collect()
    }

    /// One listed player.
    pub async fn player(&self, id: &str) -> Result<ListedPlayer, Error> {
        let state = self.state.lock().await;
        Ok(state.registry.directory.player(id)?.clone())
    }

    /// Writes a listed player's rating after a rated result back to the list.
    pub async fn rate_player(
        &self,
        id: &str,
        tournament: &str,
        key: &str,
        rating: i64,
        experience: u32,
    ) -> Result<(), Error> {
        let command = directory::Command::RatePlayer {
            id: id.to_string(),
            tournament: tournament.to_string(),
            key: key.to_string(),
            rating,
            experience,
        };
        self.direct(&mut *self.state.lock().await, &command).await
    }

    /// Corrects a listed player's name on the list (an entrant of his renamed).
    pub async fn rename_listed_player(&self, id: &str, name: &str) -> Result<(), Error> {
        let command = directory::Command::RenamePlayer {
            id: id.to_string(),
            name: name.to_string(),
        };
        self.direct(&mut *self.state.lock().await, &command).await
    }
}
