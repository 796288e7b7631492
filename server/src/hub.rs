//! The server's shared state: tournaments, matches (each a running actor) and devices.
//!
//! The registry is itself a stream in the event store (`registry`): tournaments created,
//! matches created (with their secret server seed: this stream is never exported),
//! devices registered, bound and unbound. On start the hub replays it and rebuilds every
//! match from its own log, so a restart continues exactly where the last acknowledged
//! event left off.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use baffle_core::backgammon::{DiceSource, TimeoutPolicy};
use baffle_core::clock::{BACKGAMMON_DELAY, BACKGAMMON_PER_POINT};
use baffle_core::{Millis, Timestamp};
use baffle_proto::v1;
use serde::{Deserialize, Serialize};
use tokio::sync::{Mutex, broadcast};
use tonic::Status;

use crate::actor::{self, MatchActor, MatchHandle};
use crate::auth;
use crate::match_setup::{backgammon_setup, chess_settings};
use crate::seeds::fresh_server_seed;
use crate::services::feed::FeedItem;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::MatchInfo;
use baffle_core::table::{GameSetup, Table};

const REGISTRY: &str = "registry";

/// A tournament's defaults, as stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Defaults {
    /// Time per point.
    pub per_point: Millis,
    /// Delay.
    pub delay: Millis,
    /// Time-out policy.
    pub timeout: TimeoutPolicy,
    /// "required", "allowed" or "off".
    pub clocks: String,
    /// Dice source.
    pub dice: DiceSource,
    /// Breaks in match time.
    pub breaks_in_match_time: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind")]
enum Entry {
    #[serde(rename = "tournament.created")]
    Tournament {
        id: String,
        name: String,
        defaults: Defaults,
    },
    #[serde(rename = "match.created")]
    Match {
        info: MatchInfo,
        server_seed: String,
    },
    #[serde(rename = "device.registered")]
    DeviceRegistered { id: String, secret_hash: String },
    #[serde(rename = "device.bound")]
    DeviceBound { id: String, match_id: String },
    #[serde(rename = "device.unbound")]
    DeviceUnbound { id: String },
    #[serde(rename = "device.revoked")]
    DeviceRevoked { id: String },
}

/// A registered device.
#[derive(Clone, Debug)]
pub struct DeviceRecord {
    secret_hash: String,
    /// The match it is bound to.
    pub bound: Option<String>,
}

#[derive(Default)]
struct Registry {
    tournaments: BTreeMap<String, (String, Defaults)>,
    matches: BTreeMap<String, MatchHandle>,
    devices: BTreeMap<String, DeviceRecord>,
    len: u64,
}

/// Everything the services share.
pub struct Hub<S: EventStore, T: TimeSource> {
    /// The event store.
    pub store: S,
    /// The time.
    pub time: T,
    director_token: String,
    registry: Mutex<Registry>,
    feeds: std::sync::Mutex<HashMap<String, broadcast::Sender<FeedItem>>>,
    closing: tokio::sync::watch::Sender<bool>,
}

/// Ids chosen by people: short, plain, safe in a URL and a stream name.
pub fn check_id(id: &str, what: &str) -> Result<(), Status> {
    let ok = (1..=40).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
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
            registry: Mutex::new(Registry::default()),
            feeds: Default::default(),
            closing: tokio::sync::watch::channel(false).0,
        });
        let lines = hub
            .store
            .read(REGISTRY, 0, usize::MAX)
            .map_err(|e| e.to_string())?;
        let mut reg = hub.registry.lock().await;
        reg.len = lines.len() as u64;
        let mut to_recover = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            let entry: Entry =
                serde_json::from_slice(line).map_err(|e| format!("registry record {i}: {e}"))?;
            match entry {
                Entry::Tournament { id, name, defaults } => {
                    reg.tournaments.insert(id, (name, defaults));
                }
                Entry::Match { info, server_seed } => {
                    let seed: [u8; 32] = hex::decode(&server_seed)
                        .ok()
                        .and_then(|b| b.try_into().ok())
                        .ok_or_else(|| format!("registry record {i}: a bad server seed"))?;
                    to_recover.push((info, seed));
                }
                Entry::DeviceRegistered { id, secret_hash } => {
                    reg.devices.insert(
                        id,
                        DeviceRecord {
                            secret_hash,
                            bound: None,
                        },
                    );
                }
                Entry::DeviceBound { id, match_id } => {
                    if let Some(d) = reg.devices.get_mut(&id) {
                        d.bound = Some(match_id);
                    }
                }
                Entry::DeviceRevoked { id } => {
                    reg.devices.remove(&id);
                }
                Entry::DeviceUnbound { id } => {
                    if let Some(d) = reg.devices.get_mut(&id) {
                        d.bound = None;
                    }
                }
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
                    reg.matches
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
            reg.matches.insert(id, handle);
            jobs.push(job);
        }
        actor::recover_in_background(jobs);
        drop(reg);
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
        match auth::presented(metadata)? {
            auth::Presented::None => Ok(auth::Caller::Spectator),
            auth::Presented::Token(t) if auth::same_secret(&t, &self.director_token) => {
                Ok(auth::Caller::Director)
            }
            auth::Presented::Token(_) => Err(Status::unauthenticated("the token is not valid")),
            auth::Presented::Device { id, secret } => {
                let reg = self.registry.lock().await;
                match reg.devices.get(&id) {
                    Some(d) if auth::same_secret(&auth::secret_hash(&secret), &d.secret_hash) => {
                        Ok(auth::Caller::Device(id))
                    }
                    _ => Err(Status::unauthenticated(
                        "the device credential is not valid",
                    )),
                }
            }
        }
    }

    /// Refuses anyone but the director.
    pub async fn director(&self, metadata: &tonic::metadata::MetadataMap) -> Result<(), Status> {
        match self.caller(metadata).await? {
            auth::Caller::Director => Ok(()),
            auth::Caller::Spectator => {
                Err(Status::unauthenticated("this needs the director token"))
            }
            auth::Caller::Device(_) => {
                Err(Status::permission_denied("only the director may do this"))
            }
        }
    }

    async fn record(&self, reg: &mut Registry, entry: &Entry) -> Result<(), Status> {
        let line = serde_json::to_vec(entry).expect("registry entries serialize");
        self.store
            .append(REGISTRY, reg.len, vec![line])
            .await
            .map_err(|e| Status::unavailable(format!("the registry could not be stored: {e}")))?;
        reg.len += 1;
        Ok(())
    }

    /// Creates a tournament.
    pub async fn create_tournament(&self, t: v1::Tournament) -> Result<v1::Tournament, Status> {
        check_id(&t.id, "tournament.id")?;
        let defaults = defaults_from_wire(t.defaults.unwrap_or_default())?;
        let mut reg = self.registry.lock().await;
        if reg.tournaments.contains_key(&t.id) {
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
        self.record(&mut reg, &entry).await?;
        reg.tournaments
            .insert(t.id.clone(), (t.name.clone(), defaults.clone()));
        Ok(tournament_to_wire(&t.id, &t.name, &defaults))
    }

    /// One tournament.
    pub async fn tournament(&self, id: &str) -> Result<v1::Tournament, Status> {
        let reg = self.registry.lock().await;
        let (name, d) = reg
            .tournaments
            .get(id)
            .ok_or_else(|| Status::not_found(format!("no tournament {id}")))?;
        Ok(tournament_to_wire(id, name, d))
    }

    /// Every tournament.
    pub async fn tournaments(&self) -> Vec<v1::Tournament> {
        let reg = self.registry.lock().await;
        reg.tournaments
            .iter()
            .map(|(id, (name, d))| tournament_to_wire(id, name, d))
            .collect()
    }

    /// Creates a match from the request and its tournament's defaults.
    pub async fn create_match(&self, r: v1::CreateMatchRequest) -> Result<MatchHandle, Status> {
        check_id(&r.match_id, "match_id")?;
        let mut reg = self.registry.lock().await;
        let (_, d) = reg
            .tournaments
            .get(&r.tournament_id)
            .cloned()
            .ok_or_else(|| Status::not_found(format!("no tournament {}", r.tournament_id)))?;
        if reg.matches.contains_key(&r.match_id) {
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
        let (table, records) = Table::create(info.clone(), setup, seed.clone())
            .map_err(|e| Status::invalid_argument(e.message))?;
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
        self.record(
            &mut reg,
            &Entry::Match {
                info: info.clone(),
                server_seed: hex::encode(seed.as_bytes()),
            },
        )
        .await?;
        let handle = MatchActor::spawn(
            table,
            self.store.clone(),
            self.time.clone(),
            self.feed(&info.tournament),
        );
        reg.matches.insert(info.id.clone(), handle.clone());
        Ok(handle)
    }

    /// A match's handle.
    pub async fn match_handle(&self, id: &str) -> Result<MatchHandle, Status> {
        let reg = self.registry.lock().await;
        let handle = reg
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
        self.registry
            .lock()
            .await
            .matches
            .values()
            .cloned()
            .collect()
    }

    /// Registers a device and returns its credential.
    pub async fn register_device(&self, id: &str) -> Result<String, Status> {
        check_id(id, "device_id")?;
        let mut reg = self.registry.lock().await;
        if reg.devices.contains_key(id) {
            return Err(Status::already_exists(format!("device {id} is registered")));
        }
        let secret = auth::random_secret()
            .map_err(|e| Status::internal(format!("the OS RNG failed: {e}")))?;
        let secret_hash = auth::secret_hash(&secret);
        self.record(
            &mut reg,
            &Entry::DeviceRegistered {
                id: id.to_string(),
                secret_hash: secret_hash.clone(),
            },
        )
        .await?;
        reg.devices.insert(
            id.to_string(),
            DeviceRecord {
                secret_hash,
                bound: None,
            },
        );
        Ok(auth::device_credential(id, &secret))
    }

    /// Binds (`Some`) or unbinds (`None`) a device.
    pub async fn bind_device(
        &self,
        id: &str,
        match_id: Option<&str>,
    ) -> Result<v1::Device, Status> {
        let mut reg = self.registry.lock().await;
        if !reg.devices.contains_key(id) {
            return Err(Status::not_found(format!("no device {id}")));
        }
        if let Some(m) = match_id.filter(|m| !reg.matches.contains_key(*m)) {
            return Err(Status::not_found(format!("no match {m}")));
        }
        let entry = match match_id {
            Some(m) => Entry::DeviceBound {
                id: id.to_string(),
                match_id: m.to_string(),
            },
            None => Entry::DeviceUnbound { id: id.to_string() },
        };
        self.record(&mut reg, &entry).await?;
        let device = reg.devices.get_mut(id).expect("checked above");
        device.bound = match_id.map(str::to_string);
        Ok(v1::Device {
            device_id: id.to_string(),
            match_id: match_id.unwrap_or_default().to_string(),
        })
    }

    /// Revokes a device: its credential is refused from now on.
    pub async fn revoke_device(&self, id: &str) -> Result<v1::Device, Status> {
        let mut reg = self.registry.lock().await;
        if !reg.devices.contains_key(id) {
            return Err(Status::not_found(format!("no device {id}")));
        }
        self.record(&mut reg, &Entry::DeviceRevoked { id: id.to_string() })
            .await?;
        reg.devices.remove(id);
        Ok(v1::Device {
            device_id: id.to_string(),
            match_id: String::new(),
        })
    }

    /// The match a device is bound to.
    pub async fn device_match(&self, id: &str) -> Option<String> {
        self.registry
            .lock()
            .await
            .devices
            .get(id)
            .and_then(|d| d.bound.clone())
    }
}

fn defaults_from_wire(d: v1::TournamentDefaults) -> Result<Defaults, Status> {
    let per_point = if d.per_point_ms == 0 {
        BACKGAMMON_PER_POINT
    } else {
        Millis(d.per_point_ms)
    };
    let delay = d.delay_ms.map_or(BACKGAMMON_DELAY, Millis);
    if per_point <= Millis::ZERO || delay < Millis::ZERO {
        return Err(Status::invalid_argument(
            "defaults: the time per point must be positive and the delay not negative",
        ));
    }
    use v1::timeout_policy::Policy;
    let timeout = match d.timeout.and_then(|t| t.policy) {
        None | Some(Policy::LoseMatch(_)) => TimeoutPolicy::LoseMatch,
        Some(Policy::UsbgfOvertimeMs(ms)) if ms == 60_000 || ms == 120_000 => {
            TimeoutPolicy::UsbgfOvertime {
                overtime: Millis(ms),
            }
        }
        Some(Policy::UsbgfOvertimeMs(ms)) => {
            return Err(Status::invalid_argument(format!(
                "defaults.timeout: USBGF overtime is 60000 or 120000 ms, not {ms}"
            )));
        }
        Some(Policy::PenaltyPoints(0)) => {
            return Err(Status::invalid_argument(
                "defaults.timeout: penalty_points is at least 1",
            ));
        }
        Some(Policy::PenaltyPoints(points)) => TimeoutPolicy::PenaltyPoints { points },
    };
    let clocks = match v1::ClockPolicy::try_from(d.clocks) {
        Ok(v1::ClockPolicy::Unspecified | v1::ClockPolicy::Required) => "required",
        Ok(v1::ClockPolicy::Allowed) => "allowed",
        Ok(v1::ClockPolicy::Off) => "off",
        Err(_) => {
            return Err(Status::invalid_argument(format!(
                "defaults.clocks: unknown value {}",
                d.clocks
            )));
        }
    };
    let dice = match v1::DiceSource::try_from(d.dice) {
        Ok(v1::DiceSource::Unspecified | v1::DiceSource::Server) => DiceSource::Server,
        Ok(v1::DiceSource::Physical) => DiceSource::Physical,
        Err(_) => {
            return Err(Status::invalid_argument(format!(
                "defaults.dice: unknown value {}",
                d.dice
            )));
        }
    };
    Ok(Defaults {
        per_point,
        delay,
        timeout,
        clocks: clocks.into(),
        dice,
        breaks_in_match_time: d.breaks_in_match_time,
    })
}

fn tournament_to_wire(id: &str, name: &str, d: &Defaults) -> v1::Tournament {
    use v1::timeout_policy::Policy;
    let policy = match d.timeout {
        TimeoutPolicy::LoseMatch => Policy::LoseMatch(v1::LoseMatch {}),
        TimeoutPolicy::UsbgfOvertime { overtime } => Policy::UsbgfOvertimeMs(overtime.as_ms()),
        TimeoutPolicy::PenaltyPoints { points } => Policy::PenaltyPoints(points),
    };
    let clocks = match d.clocks.as_str() {
        "allowed" => v1::ClockPolicy::Allowed,
        "off" => v1::ClockPolicy::Off,
        _ => v1::ClockPolicy::Required,
    };
    v1::Tournament {
        id: id.to_string(),
        name: name.to_string(),
        defaults: Some(v1::TournamentDefaults {
            per_point_ms: d.per_point.as_ms(),
            delay_ms: Some(d.delay.as_ms()),
            timeout: Some(v1::TimeoutPolicy {
                policy: Some(policy),
            }),
            clocks: clocks as i32,
            dice: match d.dice {
                DiceSource::Server => v1::DiceSource::Server,
                DiceSource::Physical => v1::DiceSource::Physical,
            } as i32,
            breaks_in_match_time: d.breaks_in_match_time,
        }),
    }
}
