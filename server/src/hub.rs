//! The server's shared state: the [registry](crate::registry) (tournaments, matches and
//! devices, event-sourced) and the live matches, each a running actor, with the
//! tournaments' feeds. On start the hub folds the registry's stream and rebuilds every
//! match from its own log, so a restart continues exactly where the last acknowledged
//! event left off.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use baffle_core::Timestamp;
use baffle_core::table::{GameSetup, Table};
use baffle_proto::v1;
use tokio::sync::{Mutex, broadcast};
use tonic::Status;

use crate::actor::{self, MatchActor, MatchHandle};
use crate::auth;
use crate::feed::FeedItem;
use crate::registry::{self, Entry, Registry};
use crate::seeds::fresh_server_seed;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::MatchInfo;
use crate::wire::setup::{backgammon_setup, chess_settings};
use crate::wire::tournament::{defaults_from_wire, tournament_to_wire};

/// The registry and the live matches, under one lock: a match is registered and its
/// actor started as one step.
#[derive(Default)]
struct State {
    registry: Registry,
    matches: BTreeMap<String, MatchHandle>,
}

/// Everything the services share.
pub struct Hub<S: EventStore, T: TimeSource> {
    /// The event store.
    pub store: S,
    /// The time.
    pub time: T,
    director_token: String,
    state: Mutex<State>,
    feeds: std::sync::Mutex<HashMap<String, broadcast::Sender<FeedItem>>>,
    closing: tokio::sync::watch::Sender<bool>,
}

/// Ids chosen by people: short, plain, safe in a URL and a stream name.
pub fn check_id(id: &str, what: &str) -> Result<(), Status> {
    if registry::valid_id(id) {
        Ok(())
    } else {
        Err(Status::invalid_argument(format!(
            "{what}: 1 to 40 letters, digits, '-' or '_', not {id:?}"
        )))
    }
}

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Opens the hub: replays the registry, gives every match its handle, and starts
    /// replaying the match logs in the background (`actor::recovery`).
    pub async fn open(store: S, time: T, director_token: String) -> Result<Arc<Self>, String> {
        let hub = Arc::new(Hub {
            store,
            time,
            director_token,
            state: Mutex::new(State::default()),
            feeds: Default::default(),
            closing: tokio::sync::watch::channel(false).0,
        });
        let lines = hub
            .store
            .read(registry::STREAM, 0, usize::MAX)
            .map_err(|e| e.to_string())?;
        let mut state = hub.state.lock().await;
        let mut to_recover = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let entry: Entry =
                serde_json::from_slice(line).map_err(|e| format!("registry record {i}: {e}"))?;
            if let Some(m) = state
                .registry
                .apply(entry)
                .map_err(|e| format!("registry record {i}: {e}"))?
            {
                to_recover.push(m);
            }
        }
        // Every match gets its handle now; its log is replayed in the background, or at
        // once when a message comes for it (actor::recovery).
        let mut jobs = Vec::with_capacity(to_recover.len());
        for (info, seed) in to_recover {
            let setup = hub
                .store
                .read(&actor::stream(&info.id), 1, 1)
                .map_err(|e| e.to_string())?;
            let rules = setup
                .first()
                .ok_or_else(|| "no set-up record".to_string())
                .and_then(|line| actor::rules_from_setup(line));
            let id = info.id.clone();
            let rules = match rules {
                Ok(rules) => rules,
                // Like any log that does not check out: this match alone is offline.
                Err(why) => {
                    state
                        .matches
                        .insert(id, MatchActor::<S, T>::failed(info, why));
                    continue;
                }
            };
            let feed = hub.feed(&info.tournament);
            let (handle, job) = MatchActor::spawn_recovering(
                info,
                rules,
                seed,
                hub.store.clone(),
                hub.time.clone(),
                feed,
            );
            state.matches.insert(id, handle);
            jobs.push(job);
        }
        actor::recover_in_background(jobs);
        drop(state);
        Ok(hub)
    }

    /// Starts shutting down: every open stream ends, so connections can close.
    pub fn close(&self) {
        let feeds = self.feeds.lock().expect("feeds lock");
        self.closing.send_replace(true);
        for feed in feeds.values() {
            let _ = feed.send(FeedItem::Closing);
        }
    }

    /// Completes when the hub starts shutting down.
    pub fn closed(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut closing = self.closing.subscribe();
        async move {
            let _ = closing.wait_for(|c| *c).await;
        }
    }

    /// The tournament feed, for the actors of its matches to announce on: every match's
    /// state after each change, and a last message when the server shuts down.
    pub fn feed(&self, tournament: &str) -> broadcast::Sender<FeedItem> {
        let mut feeds = self.feeds.lock().expect("feeds lock");
        Self::feed_in(&mut feeds, tournament)
    }

    /// Follows a tournament's feed; None once the server has begun to shut down (the
    /// feeds' lock orders this against [`Hub::close`], so no follower misses the end).
    pub fn subscribe_feed(&self, tournament: &str) -> Option<broadcast::Receiver<FeedItem>> {
        let mut feeds = self.feeds.lock().expect("feeds lock");
        if *self.closing.borrow() {
            return None;
        }
        Some(Self::feed_in(&mut feeds, tournament).subscribe())
    }

    fn feed_in(
        feeds: &mut HashMap<String, broadcast::Sender<FeedItem>>,
        tournament: &str,
    ) -> broadcast::Sender<FeedItem> {
        feeds
            .entry(tournament.to_string())
            .or_insert_with(|| broadcast::channel(4096).0)
            .clone()
    }

    /// Who is calling, from request metadata. A token that is wrong is UNAUTHENTICATED.
    pub async fn caller(
        &self,
        metadata: &tonic::metadata::MetadataMap,
    ) -> Result<auth::Caller, Status> {
        let state = self.state.lock().await;
        auth::identify(metadata, &self.director_token, &state.registry.devices)
    }

    /// Refuses anyone but the director.
    pub async fn director(&self, metadata: &tonic::metadata::MetadataMap) -> Result<(), Status> {
        auth::require_director(self.caller(metadata).await?)
    }

    /// Stores `entry` in the registry's stream, then folds it in.
    async fn record(&self, state: &mut State, entry: Entry) -> Result<(), Status> {
        let line = serde_json::to_vec(&entry).expect("registry entries serialize");
        self.store
            .append(registry::STREAM, state.registry.len, vec![line])
            .await
            .map_err(|e| Status::unavailable(format!("the registry could not be stored: {e}")))?;
        state
            .registry
            .apply(entry)
            .map_err(|e| Status::internal(format!("a registry entry does not fold: {e}")))?;
        Ok(())
    }

    /// Creates a tournament.
    pub async fn create_tournament(&self, t: v1::Tournament) -> Result<v1::Tournament, Status> {
        check_id(&t.id, "tournament.id")?;
        let defaults = defaults_from_wire(t.defaults.unwrap_or_default())?;
        let mut state = self.state.lock().await;
        if state.registry.tournaments.contains_key(&t.id) {
            return Err(Status::already_exists(format!(
                "tournament {} exists",
                t.id
            )));
        }
        let entry = Entry::Tournament {
            id: t.id.clone(),
            name: t.name.clone(),
            defaults: defaults.clone(),
        };
        self.record(&mut state, entry).await?;
        Ok(tournament_to_wire(&t.id, &t.name, &defaults))
    }

    /// One tournament.
    pub async fn tournament(&self, id: &str) -> Result<v1::Tournament, Status> {
        let state = self.state.lock().await;
        let t = state
            .registry
            .tournaments
            .get(id)
            .ok_or_else(|| Status::not_found(format!("no tournament {id}")))?;
        Ok(tournament_to_wire(id, &t.name, &t.defaults))
    }

    /// Every tournament.
    pub async fn tournaments(&self) -> Vec<v1::Tournament> {
        let state = self.state.lock().await;
        state
            .registry
            .tournaments
            .iter()
            .map(|(id, t)| tournament_to_wire(id, &t.name, &t.defaults))
            .collect()
    }

    /// Creates a match from the request and its tournament's defaults.
    pub async fn create_match(&self, r: v1::CreateMatchRequest) -> Result<MatchHandle, Status> {
        check_id(&r.match_id, "match_id")?;
        let mut state = self.state.lock().await;
        let d = state
            .registry
            .tournaments
            .get(&r.tournament_id)
            .map(|t| t.defaults.clone())
            .ok_or_else(|| Status::not_found(format!("no tournament {}", r.tournament_id)))?;
        if state.matches.contains_key(&r.match_id) {
            return Err(Status::already_exists(format!(
                "match {} exists",
                r.match_id
            )));
        }
        let start = if r.scheduled_start_ms == 0 {
            self.time.now()
        } else {
            Timestamp(r.scheduled_start_ms)
        };
        let players = [r.player_a.clone(), r.player_b.clone()];
        let setup = match r.chess.clone() {
            Some(chess) => {
                GameSetup::Chess(chess_settings(chess, players, start, self.time.now())?)
            }
            None => GameSetup::Backgammon(backgammon_setup(&r, &d, players, start)?),
        };
        let info = MatchInfo {
            id: r.match_id.clone(),
            tournament: r.tournament_id.clone(),
            round: r.round,
            table: r.table.clone(),
        };
        let seed =
            fresh_server_seed().map_err(|e| Status::internal(format!("the OS RNG failed: {e}")))?;
        let (table, records) =
            Table::create(info.clone(), setup, seed.clone()).map_err(crate::wire::refusal)?;
        let lines = records
            .iter()
            .map(|r| baffle_core::audit::export::record_line(r).into_bytes())
            .collect();
        // The log first, then the registry entry: a crash between the two leaves an unused
        // log (its id stays taken), never a registered match without a log.
        self.store
            .append(&actor::stream(&info.id), 0, lines)
            .await
            .map_err(|e| match e {
                crate::store::StoreError::Conflict { .. } => Status::already_exists(format!(
                    "a log for match {} exists already: choose another id",
                    info.id
                )),
                e => Status::unavailable(format!("the match could not be stored: {e}")),
            })?;
        let entry = Entry::Match {
            info: info.clone(),
            server_seed: hex::encode(seed.as_bytes()),
        };
        self.record(&mut state, entry).await?;
        let handle = MatchActor::spawn(
            table,
            self.store.clone(),
            self.time.clone(),
            self.feed(&info.tournament),
        );
        state.matches.insert(info.id.clone(), handle.clone());
        Ok(handle)
    }

    /// A match's handle.
    pub async fn match_handle(&self, id: &str) -> Result<MatchHandle, Status> {
        let state = self.state.lock().await;
        let handle = state
            .matches
            .get(id)
            .cloned()
            .ok_or_else(|| Status::not_found(format!("no match {id}")))?;
        match handle.unavailable() {
            Some(why) => Err(why),
            None => Ok(handle),
        }
    }

    /// Every match handle, by id.
    pub async fn match_handles(&self) -> Vec<MatchHandle> {
        self.state.lock().await.matches.values().cloned().collect()
    }

    /// Registers a device and returns its credential.
    pub async fn register_device(&self, id: &str) -> Result<String, Status> {
        check_id(id, "device_id")?;
        let mut state = self.state.lock().await;
        if state.registry.devices.contains_key(id) {
            return Err(Status::already_exists(format!("device {id} is registered")));
        }
        let secret = auth::random_secret()
            .map_err(|e| Status::internal(format!("the OS RNG failed: {e}")))?;
        let entry = Entry::DeviceRegistered {
            id: id.to_string(),
            secret_hash: auth::secret_hash(&secret),
        };
        self.record(&mut state, entry).await?;
        Ok(auth::device_credential(id, &secret))
    }

    /// Binds (`Some`) or unbinds (`None`) a device.
    pub async fn bind_device(
        &self,
        id: &str,
        match_id: Option<&str>,
    ) -> Result<v1::Device, Status> {
        let mut state = self.state.lock().await;
        if !state.registry.devices.contains_key(id) {
            return Err(Status::not_found(format!("no device {id}")));
        }
        if let Some(m) = match_id.filter(|m| !state.matches.contains_key(*m)) {
            return Err(Status::not_found(format!("no match {m}")));
        }
        let entry = match match_id {
            Some(m) => Entry::DeviceBound {
                id: id.to_string(),
                match_id: m.to_string(),
            },
            None => Entry::DeviceUnbound { id: id.to_string() },
        };
        self.record(&mut state, entry).await?;
        Ok(v1::Device {
            device_id: id.to_string(),
            match_id: match_id.unwrap_or_default().to_string(),
        })
    }

    /// Revokes a device: its credential is refused from now on.
    pub async fn revoke_device(&self, id: &str) -> Result<v1::Device, Status> {
        let mut state = self.state.lock().await;
        if !state.registry.devices.contains_key(id) {
            return Err(Status::not_found(format!("no device {id}")));
        }
        let entry = Entry::DeviceRevoked { id: id.to_string() };
        self.record(&mut state, entry).await?;
        Ok(v1::Device {
            device_id: id.to_string(),
            match_id: String::new(),
        })
    }

    /// The match a device is bound to.
    pub async fn device_match(&self, id: &str) -> Option<String> {
        self.state
            .lock()
            .await
            .registry
            .devices
            .get(id)
            .and_then(|d| d.bound.clone())
    }
}
