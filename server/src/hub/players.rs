//! The list of players that lasts across tournaments (`player.listed`, `player.rated` in
//! the registry): a tournament registers an entrant from it with his rating and
//! experience, and each rated result of his is written back, so his rating and history
//! follow him from one tournament to the next.

use baffle_core::tournament::Details;

use super::{Hub, check_id};
use crate::error::Error;
use crate::registry::{Entry, ListedPlayer};
use crate::store::EventStore;
use crate::time::TimeSource;

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Lists players, all or none: an id already listed is refused, naming it.
    pub async fn list_players(&self, players: Vec<(String, Details)>) -> Result<(), Error> {
        for (id, details) in &players {
            check_id(id, "player id")?;
            details.validate().map_err(|e| Error::Invalid(e.message))?;
        }
        let mut state = self.state.lock().await;
        'retry: loop {
            for (id, _) in &players {
                if state.registry.players.contains_key(id) {
                    return Err(Error::AlreadyExists(format!(
                        "player {id} is listed already"
                    )));
                }
            }
            for (id, details) in &players {
                let entry = Entry::PlayerListed {
                    id: id.clone(),
                    details: details.clone(),
                };
                if !self.record(&mut state, entry).await? {
                    continue 'retry;
                }
            }
            return Ok(());
        }
    }

    /// Every listed player, by id.
    pub async fn players(&self) -> Vec<(String, ListedPlayer)> {
        let state = self.state.lock().await;
        state
            .registry
            .players
            .iter()
            .map(|(id, p)| (id.clone(), p.clone()))
            .collect()
    }

    /// One listed player.
    pub async fn player(&self, id: &str) -> Result<ListedPlayer, Error> {
        let state = self.state.lock().await;
        state
            .registry
            .players
            .get(id)
            .cloned()
            .ok_or_else(|| Error::NotFound(format!("no player {id} on the list")))
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
        let mut state = self.state.lock().await;
        loop {
            let entry = Entry::PlayerRated {
                id: id.to_string(),
                tournament: tournament.to_string(),
                key: key.to_string(),
                rating,
                experience,
            };
            if self.record(&mut state, entry).await? {
                return Ok(());
            }
        }
    }

    /// Corrects a listed player's name on the list (an entrant of his renamed).
    pub async fn rename_listed_player(&self, id: &str, name: &str) -> Result<(), Error> {
        let mut state = self.state.lock().await;
        loop {
            match state.registry.players.get(id) {
                None => return Err(Error::NotFound(format!("no player {id} on the list"))),
                Some(p) if p.details.name == name => return Ok(()),
                Some(_) => {}
            }
            let entry = Entry::PlayerRenamed {
                id: id.to_string(),
                name: name.to_string(),
            };
            if self.record(&mut state, entry).await? {
                return Ok(());
            }
        }
    }
}
