//! The server's shared state: the [registry](crate::registry) (tournaments, matches and
//! devices, event-sourced) and the live matches, each a running actor, with the
//! tournaments' feeds. On start the hub folds the registry's stream and rebuilds every
//! match from its own log, so a restart continues exactly where the last acknowledged
//! event left off.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use baffle_core::Timestamp;
use baffle_core::backgammon::TournamentDefaults;
use baffle_core::chess::ChessSettings;
use baffle_core::table::{GameSetup, MatchInfo, Refusal, Request, Table, TableOptions};
use tokio::sync::{Mutex, broadcast};

use crate::actor::{self, MatchActor, MatchHandle};
use crate::auth;
use crate::error::Error;
use crate::feed::FeedItem;
use crate::followers::Followers;
use crate::keys::ServerKeys;
pub use crate::registry::Replacement;
use crate::registry::{self, Entry, Registry, ServerEntry, Tournament, VenueDates};
use crate::seal::SealKeys;
use crate::seeds::fresh_server_seed;
use crate::signing::HeadSigner;
use crate::store::EventStore;
use crate::time::TimeSource;
use baffle_core::tournament::directory;

mod by_hand;
mod draw_entries;
mod players;
mod replicas;

/// A tournament's log in the event store: its draw's ([`crate::draws`]) or its matches
/// made by hand (`by_hand`).
pub fn tournament_stream(tournament: &str) -> String {
    format!("t/{tournament}")
}

/// A stored log as its export: its first `length` lines (the records a replay read) and
/// the end line at `head`.
pub fn export_lines(lines: &[Vec<u8>], length: u64, head: baffle_core::audit::Hash) -> Vec<String> {
    let mut out: Vec<String> = lines
        .iter()
        .take(usize::try_from(length).unwrap_or(usize::MAX))
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect();
    out.push(baffle_core::audit::export::end_line(length, head));
    out
}

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
    /// Seals the server seeds the registry stores (the seal key; the token's key opens
    /// seeds sealed before there was one).
    seal: SealKeys,
    /// Signs every head sent to followers.
    signer: Arc<HeadSigner>,
    state: Mutex<State>,
    /// The logs of tournaments without a draw, as far as this node has read them; held
    /// while a match made by hand is checked and recorded (`by_hand`).
    by_hand: Mutex<HashMap<String, baffle_core::tournament::by_hand::ByHand>>,
    feeds: std::sync::Mutex<HashMap<String, broadcast::Sender<FeedItem>>>,
    closing: tokio::sync::watch::Sender<bool>,
    /// The open anonymous streams, within their bounds (`followers`).
    pub followers: Arc<Followers>,
    /// This server's last heartbeat before it started, if the store keeps one: every
    /// match recovered credits the outage since (`table.restart`).
    down_since: Option<Timestamp>,
}

/// How often the server marks itself alive: a restart's outage is measured from the
/// last mark, so it exceeds the true outage by under this.
const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(1);

/// Writes the heartbeat off the async workers (it syncs a file).
async fn mark_alive<S: EventStore + Clone, T: TimeSource>(store: &S, time: &T) {
    let (store, now) = (store.clone(), time.now().as_ms());
    let marked = tokio::task::spawn_blocking(move || store.mark_alive(now)).await;
    if let Ok(Err(e)) = marked {
        tracing::warn!(error = %e, "the heartbeat could not be written: a restart now would credit its outage from an older one");
    }
}

/// Ids chosen by people: short, plain, safe in a URL and a stream name (the rule is
/// core's, `directory::check_id`).
pub fn check_id(id: &str, what: &str) -> Result<(), Error> {
    Ok(baffle_core::tournament::directory::check_id(id, what)?)
}

/// A match to create: where it sits, its players and start, and its game.
pub struct NewMatch {
    /// Where it sits.
    pub info: MatchInfo,
    /// The players, A then B.
    pub players: [String; 2],
    /// When it is scheduled to start.
    pub start: Timestamp,
    /// Its game.
    pub game: NewGame,
    /// The match it replaces, by a ruling (checked and recorded by the caller, `Hub::record_by_hand`).
    pub replaces: Option<Replacement>,
}

/// The game of a new match.
#[derive(Clone)]
pub enum NewGame {
    /// Backgammon, by its tournament's defaults.
    Backgammon {
        /// Points.
        length: u32,
        /// Asks for no clock (only where the tournament allows it).
        unclocked: bool,
        /// Which match of a best-of-three series this is (2.2), if one.
        series_match: Option<u32>,
        /// Whether moves are recorded (docs/board.md).
        moves: baffle_core::backgammon::MovesSetting,
        /// Where the dice come from, if not the tournament's.
        dice: Option<baffle_core::backgammon::setup::DiceSource>,
    },
    /// Chess, with its own settings.
    Chess(ChessSettings),
}

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Opens the hub: replays the registry, gives every match its handle, and starts
    /// replaying the match logs in the background (`actor::recovery`).
    pub async fn open(store: S, time: T, keys: ServerKeys) -> Result<Arc<Self>, String> {
        // Read before the first heartbeat of this start overwrites it.
        let down_since = store.last_alive().map(Timestamp);
        let hub = Arc::new(Hub {
            store,
            time,
            seal: keys.seal,
            signer: keys.signer,
            director_token: keys.director_token,
            state: Mutex::new(State::default()),
            by_hand: Mutex::default(),
            feeds: Default::default(),
            closing: tokio::sync::watch::channel(false).0,
            followers: Default::default(),
            down_since,
        });
        // A registry found short would silently forget tournaments, matches and devices:
        // the server does not start on it.
        hub.store
            .check(registry::STREAM)
            .map_err(|e| format!("the registry cannot be trusted: {e}; restore the data directory from a backup (docs/reliability.md)"))?;
        let lines = hub
            .store
            .read(registry::STREAM, 0, usize::MAX)
            .map_err(|e| e.to_string())?;
        let mut state = hub.state.lock().await;
        let (registry, to_recover) = Registry::fold(&lines)?;
        state.registry = registry;
        // Every match gets its handle now; its log is replayed in the background, or at
        // once when a message comes for it (actor::recovery).
        let mut jobs = Vec::with_capacity(to_recover.len());
        for (info, seed) in to_recover {
            jobs.extend(hub.spawn_registered(&mut state, info, seed)?);
        }
        // The recovery summary: what the registry holds, what is replayed, what is lost
        // (each lost match has its own ERROR line naming why).
        let unavailable = state.matches.len() - jobs.len();
        tracing::info!(
            tournaments = state.registry.directory.tournaments.len(),
            matches = state.matches.len(),
            replaying = jobs.len(),
            unavailable,
            "recovered the registry: match logs are replayed in the background"
        );
        actor::recover_in_background(jobs);
        // Bound devices are listed in their matches' states before they connect.
        for (id, d) in &state.registry.devices {
            note_binding(&state, id, None, d.bound.as_deref());
        }
        drop(state);
        hub.keep_heartbeat();
        Ok(hub)
    }

    /// Marks the server alive now (at a clean stop: `serve`).
    pub async fn mark_alive(&self) {
        mark_alive(&self.store, &self.time).await;
    }

    /// Marks the server alive in the store every second until it shuts down (`serve`
    /// marks the stop itself), so the next start knows how long nobody could play
    /// (`table.restart`).
    fn keep_heartbeat(self: &Arc<Self>) {
        let (store, time, mut closing) = (
            self.store.clone(),
            self.time.clone(),
            self.closing.subscribe(),
        );
        tokio::spawn(async move {
            // The mark at the stop itself is `serve`'s, after the last connection closed.
            loop {
                mark_alive(&store, &time).await;
                tokio::select! {
                    _ = tokio::time::sleep(HEARTBEAT) => {}
                    _ = closing.wait_for(|c| *c) => return,
                }
            }
        });
    }

    /// Gives a registered match its handle: its log replayed by the returned job (in the
    /// background), or DATA_LOSS if the log does not check out.
    fn spawn_registered(
        &self,
        state: &mut State,
        info: baffle_core::table::MatchInfo,
        seed: registry::StoredSeed,
    ) -> Result<Option<Arc<actor::Recovery<S>>>, String> {
        if let Err(lost) = self.store.check(&actor::stream(&info.id)) {
            let id = info.id.clone();
            let failed = MatchActor::<S, T>::failed(info, lost.to_string());
            state.matches.insert(id, failed);
            return Ok(None);
        }
        let seed = seed.open(&self.seal, &info.id);
        let setup = self
            .store
            .read(&actor::stream(&info.id), 1, 1)
            .map_err(|e| e.to_string())?;
        let game = setup
            .first()
            .ok_or_else(|| "no set-up record".to_string())
            .and_then(|line| actor::game_of_setup(line));
        let id = info.id.clone();
        let (game, seed) = match game.and_then(|game| Ok((game, seed?))) {
            Ok(ready) => ready,
            // Like any log that does not check out: this match alone is offline.
            Err(why) => {
                state
                    .matches
                    .insert(id, MatchActor::<S, T>::failed(info, why));
                return Ok(None);
            }
        };
        let feed = self.feed(&info.tournament);
        let (handle, job) = MatchActor::spawn_recovering(
            info,
            game,
            seed,
            self.down_since,
            self.store.clone(),
            self.time.clone(),
            (feed, self.signer.clone()),
        );
        state.matches.insert(id.clone(), handle);
        // Replaced before this start: its actor must never run its timers.
        note_replaced(state, &id);
        Ok(Some(job))
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

    /// Runs `f` on the registry (to check a credential).
    pub async fn with_registry<R>(&self, f: impl FnOnce(&Registry) -> R) -> R {
        f(&self.state.lock().await.registry)
    }

    /// New codes for the two players of `match_id` (replacing any earlier ones).
    pub async fn issue_player_codes(&self, match_id: &str) -> Result<[String; 2], Error> {
        let mut state = self.state.lock().await;
        loop {
            if !state.matches.contains_key(match_id) {
                return Err(Error::NotFound(format!("no match {match_id}")));
            }
            let mut codes = [String::new(), String::new()];
            let mut hashes = [String::new(), String::new()];
            for side in baffle_core::Side::BOTH {
                let secret = auth::random_secret()
                    .map_err(|e| Error::Internal(format!("the OS RNG failed: {e}")))?;
                hashes[side.index()] = auth::secret_hash(&secret);
                codes[side.index()] = auth::player_code(match_id, side, &secret);
            }
            let entry = ServerEntry::PlayerCodes {
                match_id: match_id.to_string(),
                hashes,
            };
            if self.record(&mut state, entry).await? {
                return Ok(codes);
            }
        }
    }

    /// The director's token.
    pub fn director_token(&self) -> &str {
        &self.director_token
    }

    /// The key that signs the heads of every match (`crate::signing`).
    pub fn signer(&self) -> &Arc<HeadSigner> {
        &self.signer
    }

    /// The keys that seal and open the server seeds.
    pub fn seal_keys(&self) -> &SealKeys {
        &self.seal
    }

    /// Stores `entry` in the registry's stream, then folds it in: true. False if the
    /// stream holds entries the fold does not: they are folded in, and the caller checks
    /// its change again and retries (every caller loops on it).
    ///
    /// Two things leave the fold behind the stream: another node of a cluster writing the
    /// registry, and a request whose client hung up, dropped by the server at its next
    /// await — which can be the one between the append and the fold (a demo interrupted
    /// while it bound a device left the registry one entry behind on a single node, and
    /// the archive that followed, alone then in not retrying, was answered done unwritten).
    async fn record(&self, state: &mut State, entry: impl Into<Entry>) -> Result<bool, Error> {
        let entry = entry.into();
        let replaced = replaced_by(&entry);
        let line = serde_json::to_vec(&entry).expect("registry entries serialize");
        match self
            .store
            .append(registry::STREAM, state.registry.len, vec![line])
            .await
        {
            Ok(_) => {}
            Err(crate::store::StoreError::Conflict { .. }) => {
                self.catch_up_registry_in(state)?;
                return Ok(false);
            }
            Err(e) => {
                return Err(Error::Unavailable(format!(
                    "the registry could not be stored: {e}"
                )));
            }
        }
        state
            .registry
            .evolve(entry)
            .map_err(|e| Error::Internal(format!("a registry entry does not fold: {e}")))?;
        if let Some(old) = replaced {
            note_replaced(state, &old);
        }
        Ok(true)
    }

    /// Asks the directory what `command` writes, and records it: the directory's rules
    /// decide (core's `Directory::decide`), the hub only stores and folds. When another
    /// writer got there first, the command is decided again on what it wrote.
    async fn direct(&self, state: &mut State, command: &directory::Command) -> Result<(), Error> {
        'decide: loop {
            for record in state.registry.directory.decide(command)? {
                if !self.record(state, record).await? {
                    continue 'decide;
                }
            }
            return Ok(());
        }
    }

    /// Creates a tournament.
    pub async fn create_tournament(
        &self,
        id: &str,
        name: &str,
        defaults: TournamentDefaults,
    ) -> Result<(), Error> {
        self.create_tournament_at(id, name, defaults, VenueDates::default())
            .await
    }

    /// Creates a tournament with where and when it is played.
    pub async fn create_tournament_at(
        &self,
        id: &str,
        name: &str,
        defaults: TournamentDefaults,
        venue_dates: VenueDates,
    ) -> Result<(), Error> {
        let command = directory::Command::CreateTournament {
            id: id.to_string(),
            name: name.to_string(),
            defaults,
            venue_dates,
        };
        self.direct(&mut *self.state.lock().await, &command).await
    }

    /// One tournament.
    pub async fn tournament(&self, id: &str) -> Result<Tournament, Error> {
        check_id(id, "tournament_id")?;
        let state = self.state.lock().await;
        state
            .registry
            .directory
            .tournaments
            .get(id)
            .cloned()
            .ok_or_else(|| Error::NotFound(format!("no tournament {id}")))
    }

    /// Archives tournament `id` (or brings it back, `archived` false) and returns it.
    /// Archiving is refused while a match of it has no result (waiting or being
    /// played), naming them, unless `force`; the same state again changes nothing.
    pub async fn archive_tournament(
        &self,
        id: &str,
        archived: bool,
        force: bool,
    ) -> Result<Tournament, Error> {
        let current = self.tournament(id).await?;
        if current.archived == archived {
            return Ok(current);
        }
        if archived && !force {
            // Asked of the actors outside the lock: a match created meanwhile is not
            // waited for (archiving is a listing's matter, nothing of a match changes).
            let mut unfinished = Vec::new();
            for h in self.match_handles().await {
                if h.info.tournament != id {
                    continue;
                }
                match h.state().await {
                    Ok(s) if s.result.is_none() => unfinished.push(h.info.id.clone()),
                    _ => {}
                }
            }
            if !unfinished.is_empty() {
                unfinished.sort();
                return Err(Error::Refused(baffle_core::table::Refusal {
                    kind: baffle_core::table::RefusalKind::Rule,
                    message: format!(
                        "tournament {id} has matches without a result: {} — finish them, or \
                     archive it anyway with force (baffle tournament archive {id} --force)",
                        unfinished.join(", ")
                    ),
                }));
            }
        }
        let mut state = self.state.lock().await;
        let command = directory::Command::Archive {
            id: id.to_string(),
            archived,
        };
        self.direct(&mut state, &command).await?;
        Ok(state.registry.directory.tournaments[id].clone())
    }

    /// Every tournament, by id.
    pub async fn tournaments(&self) -> Vec<(String, Tournament)> {
        let state = self.state.lock().await;
        state
            .registry
            .directory
            .tournaments
            .iter()
            .map(|(id, t)| (id.clone(), t.clone()))
            .collect()
    }

    /// Creates a match: its log's first records, then its registry entry, then its actor.
    pub async fn create_match(&self, new: NewMatch) -> Result<MatchHandle, Error> {
        let NewMatch {
            info,
            players,
            start,
            game,
            replaces,
        } = new;
        check_id(&info.id, "match_id")?;
        check_id(&info.tournament, "tournament_id")?;
        let mut state = self.state.lock().await;
        let d = state
            .registry
            .directory
            .tournaments
            .get(&info.tournament)
            .map(|t| t.defaults.clone())
            .ok_or_else(|| Error::NotFound(format!("no tournament {}", info.tournament)))?;
        if state.matches.contains_key(&info.id) {
            return Err(Error::AlreadyExists(format!("match {} exists", info.id)));
        }
        let setup = game_setup(&d, players, start, game)?;
        let seed =
            fresh_server_seed().map_err(|e| Error::Internal(format!("the OS RNG failed: {e}")))?;
        let sealed_seed = self
            .seal
            .seal(&info.id, seed.as_bytes())
            .map_err(Error::Internal)?;
        let command = directory::Command::CreateMatch {
            info: info.clone(),
            sealed_seed,
            replaces,
        };
        // Checked before the log is written, and decided again when it is recorded.
        state.registry.directory.decide(&command)?;
        let (table, mut records) =
            Table::create_with_options(info.clone(), setup, self.table_options(&d), seed.clone())?;
        // A match scheduled now or in the past owes what fell due already (lateness points,
        // 2.2; a chess game's start, 6.6): its first records hold them, so the creation's
        // reply shows them.
        let now = self.time.now();
        let table = if now >= start {
            let caught_up = table.plan(&Request::Tick, now)?;
            records.extend(caught_up.records);
            caught_up.table
        } else {
            table
        };
        let lines = records
            .iter()
            .map(|r| baffle_core::audit::export::record_line(r).into_bytes())
            .collect();
        // On a node of a cluster the creating node owns the match first: its lease before
        // its first record (`docs/cluster.md`).
        let taken = || {
            Error::AlreadyExists(format!(
                "a log for match {} exists already: choose another id",
                info.id
            ))
        };
        self.store
            .lease_new(&actor::stream(&info.id))
            .await
            .map_err(|e| match e {
                crate::store::StoreError::Conflict { .. } => taken(),
                e => Error::Unavailable(format!("the match's lease could not be stored: {e}")),
            })?;
        // The log first, then the registry entry: a crash between the two leaves an unused
        // log (its id stays taken), never a registered match without a log.
        self.store
            .append(&actor::stream(&info.id), 0, lines)
            .await
            .map_err(|e| match e {
                crate::store::StoreError::Conflict { .. } => taken(),
                e => Error::Unavailable(format!("the match could not be stored: {e}")),
            })?;
        self.direct(&mut state, &command).await?;
        let handle = MatchActor::spawn(
            table,
            self.store.clone(),
            self.time.clone(),
            self.feed(&info.tournament),
            self.signer.clone(),
        );
        state.matches.insert(info.id.clone(), handle.clone());
        Ok(handle)
    }

    /// Checks `new` as its creation will, storing nothing: its ids, its tournament, and
    /// its set-up (a match made by hand is recorded in its tournament's log only once
    /// it would be created).
    pub async fn check_new_match(&self, new: &NewMatch) -> Result<(), Error> {
        check_id(&new.info.id, "match_id")?;
        check_id(&new.info.tournament, "tournament_id")?;
        let d = self.tournament(&new.info.tournament).await?.defaults;
        let setup = game_setup(&d, new.players.clone(), new.start, new.game.clone())?;
        // Any seed: the set-up is what is checked.
        let seed = baffle_core::dice::ServerSeed::from_bytes([0; 32]);
        Table::create_with_options(new.info.clone(), setup, self.table_options(&d), seed)?;
        Ok(())
    }

    fn table_options(&self, d: &TournamentDefaults) -> TableOptions {
        TableOptions {
            seeds: d.player_seeds,
            reveal_window: d.reveal_window,
            signer: Some(self.signer.public_hex().to_string()),
            ..TableOptions::default()
        }
    }

    /// A match's handle. A malformed id is INVALID_ARGUMENT, as it is at creation; a
    /// well-formed one that names no match NOT_FOUND.
    pub async fn match_handle(&self, id: &str) -> Result<MatchHandle, Error> {
        check_id(id, "match_id")?;
        let state = self.state.lock().await;
        let handle = state
            .matches
            .get(id)
            .cloned()
            .ok_or_else(|| Error::NotFound(format!("no match {id}")))?;
        match handle.unavailable() {
            Some(why) => Err(why),
            None => Ok(handle),
        }
    }

    /// Ok unless match `id` was replaced by a ruling (`NewMatch::replaces`, or a draw's
    /// `match.replaced`): its log stays to be read and verified, but a command to it is
    /// refused, naming the match that replaced it, so nobody plays on at the old table.
    pub async fn check_not_replaced(&self, id: &str) -> Result<(), Error> {
        let state = self.state.lock().await;
        let replaced = &state.registry.directory.replaced;
        let Some((by, ruling)) = replaced.get(id) else {
            return Ok(());
        };
        // Replaced again and again: play goes on in the last of the chain.
        let mut live = by;
        while let Some((next, _)) = replaced.get(live) {
            live = next;
        }
        let then = if live == by {
            String::new()
        } else {
            ", itself replaced since".to_string()
        };
        Err(Error::Refused(baffle_core::table::Refusal {
            kind: baffle_core::table::RefusalKind::Rule,
            message: format!(
                "match {id} was replaced by match {by} ({ruling}{then}): its log is kept, and \
                 play goes on in {live} (baffle match show {live})"
            ),
        }))
    }

    /// A match's handle for a command: as [`Hub::match_handle`], and refused if the match
    /// was replaced ([`Hub::check_not_replaced`]). Every path that writes to a match by
    /// id asks this; reading it asks `match_handle`.
    pub async fn handle_for_command(&self, id: &str) -> Result<MatchHandle, Error> {
        let handle = self.match_handle(id).await?;
        self.check_not_replaced(id).await?;
        Ok(handle)
    }

    /// Every match handle, by id.
    pub async fn match_handles(&self) -> Vec<MatchHandle> {
        self.state.lock().await.matches.values().cloned().collect()
    }

    /// Registers a device and returns its credential.
    pub async fn register_device(&self, id: &str) -> Result<String, Error> {
        check_id(id, "device_id")?;
        let mut state = self.state.lock().await;
        loop {
            if state.registry.devices.contains_key(id) {
                return Err(Error::AlreadyExists(format!("device {id} is registered")));
            }
            let secret = auth::random_secret()
                .map_err(|e| Error::Internal(format!("the OS RNG failed: {e}")))?;
            let entry = ServerEntry::DeviceRegistered {
                id: id.to_string(),
                secret_hash: auth::secret_hash(&secret),
            };
            if self.record(&mut state, entry).await? {
                return Ok(auth::device_credential(id, &secret));
            }
        }
    }

    /// Binds (`Some`) or unbinds (`None`) a device.
    pub async fn bind_device(&self, id: &str, match_id: Option<&str>) -> Result<(), Error> {
        if let Some(m) = match_id {
            check_id(m, "match_id")?;
        }
        let mut state = self.state.lock().await;
        loop {
            let Some(device) = state.registry.devices.get(id) else {
                return Err(Error::NotFound(format!("no device {id}")));
            };
            let was = device.bound.clone();
            if let Some(m) = match_id.filter(|m| !state.matches.contains_key(*m)) {
                return Err(Error::NotFound(format!("no match {m}")));
            }
            let entry = match match_id {
                Some(m) => ServerEntry::DeviceBound {
                    id: id.to_string(),
                    match_id: m.to_string(),
                },
                None => ServerEntry::DeviceUnbound { id: id.to_string() },
            };
            if self.record(&mut state, entry).await? {
                note_binding(&state, id, was.as_deref(), match_id);
                return Ok(());
            }
        }
    }

    /// Revokes a device: its credential is refused from now on.
    pub async fn revoke_device(&self, id: &str) -> Result<(), Error> {
        let mut state = self.state.lock().await;
        loop {
            if !state.registry.devices.contains_key(id) {
                return Err(Error::NotFound(format!("no device {id}")));
            }
            let bound = state.registry.devices[id].bound.clone();
            let entry = ServerEntry::DeviceRevoked { id: id.to_string() };
            if self.record(&mut state, entry).await? {
                note_binding(&state, id, bound.as_deref(), None);
                return Ok(());
            }
        }
    }

    /// The match a device is bound to. One bound on another node of a cluster a moment
    /// ago may not have reached this node's registry yet: it is read again, once.
    pub async fn device_match(&self, id: &str) -> Option<String> {
        let bound = |state: &State| state.registry.devices.get(id).and_then(|d| d.bound.clone());
        let mut state = self.state.lock().await;
        match bound(&state) {
            Some(match_id) => Some(match_id),
            None => {
                self.catch_up_registry_in(&mut state).ok()?;
                bound(&state)
            }
        }
    }
}

/// Tells the matches' actors that `device`, bound to match `was`, is now bound to `now`
/// (either `None`: unbound): a match's state lists the devices bound to it, connected or
/// not. Called under the hub's lock, in the registry's order — on this node's own
/// bindings and on those folded from other nodes.
/// The match a registry entry says was replaced, if it says so.
fn replaced_by(entry: &Entry) -> Option<String> {
    match entry {
        Entry::Directory(directory::Record::Match {
            replaces: Some(r), ..
        }) => Some(r.match_id.clone()),
        _ => None,
    }
}

/// Tells match `id`'s actor, if the directory records it replaced, by which match: its
/// timers stop (`MatchHandle::replaced`). Under the hub's lock, as the record is folded.
fn note_replaced(state: &State, id: &str) {
    if let (Some(handle), Some((by, ruling))) = (
        state.matches.get(id),
        state.registry.directory.replaced.get(id),
    ) {
        handle.replaced(by, ruling);
    }
}

fn note_binding(state: &State, device: &str, was: Option<&str>, now: Option<&str>) {
    if was == now {
        return;
    }
    if let Some(old) = was.and_then(|m| state.matches.get(m)) {
        old.bound(device, false);
    }
    if let Some(new) = now.and_then(|m| state.matches.get(m)) {
        new.bound(device, true);
    }
}

/// A new match's set-up: a chess game's own settings, or a backgammon match by its
/// tournament's defaults, checked.
fn game_setup(
    d: &TournamentDefaults,
    players: [String; 2],
    start: Timestamp,
    game: NewGame,
) -> Result<GameSetup, Error> {
    Ok(match game {
        NewGame::Chess(settings) => GameSetup::Chess(settings),
        NewGame::Backgammon {
            length,
            unclocked,
            series_match,
            moves,
            dice,
        } => {
            let mut setup = d
                .match_setup(players, length, start, unclocked)
                .map_err(Refusal::from)?;
            setup.series_match = series_match;
            setup.moves = moves;
            setup.dice = dice.unwrap_or(setup.dice);
            setup.validate().map_err(Refusal::from)?;
            GameSetup::Backgammon(setup)
        }
    })
}
