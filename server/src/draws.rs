//! The server's driver of tournaments' draws: each drawn tournament's log (stream
//! `t/{id}`), its [`Tournament`] (the fold of that log), and the matches it makes.
//!
//! A command is planned by the core, its records appended to the log, and only then
//! kept — as a match's are. Every `match.assigned` it wrote is then made a real match
//! through the hub (its log, its actor), with the players' names from the entrants. A
//! result comes back the other way: a watcher follows the tournament's feed and, when a
//! match of the draw has its result confirmed by the director (4.6), tells the
//! tournament, whose plan may assign the next match of the bracket.
//!
//! A crash between the two halves is mended at the next start ([`Draws::open`]): an
//! assignment without its match gets it, a confirmed result the log lacks is read from
//! the match. Both are idempotent (the same match id; a result already recorded is
//! nothing new), so running them again is harmless.

use std::collections::BTreeMap;
use std::sync::Arc;

use baffle_core::GameType;
use baffle_core::Timestamp;
use baffle_core::audit::export;
use baffle_core::audit::{Reader, Record};
use baffle_core::side::Side;
use baffle_core::table::MatchInfo;
use baffle_core::tournament::{self, Command, ErrorKind, Event, Tournament, TournamentError};
use baffle_proto::v1;
use tokio::sync::{Mutex, watch};

use crate::error::Error;
use crate::feed::FeedItem;
use crate::hub::{Hub, NewGame, NewMatch};
use crate::registry::Replacement;
use crate::seeds::fresh_server_seed;
use crate::store::{EventStore, StoreError};
use crate::time::TimeSource;

mod at_table;

pub use crate::hub::tournament_stream as stream;

/// Every drawn tournament, each behind one lock, and a signal per tournament that its
/// draw changed (for `WatchDraw`).
pub struct Draws<S: EventStore, T: TimeSource> {
    hub: Arc<Hub<S, T>>,
    tournaments: Mutex<BTreeMap<String, Tournament>>,
    changed: std::sync::Mutex<BTreeMap<String, watch::Sender<u64>>>,
    /// Itself, to start a watcher for a draw first seen in a request.
    me: std::sync::OnceLock<std::sync::Weak<Self>>,
}

impl From<TournamentError> for Error {
    fn from(e: TournamentError) -> Error {
        match e.kind {
            ErrorKind::Invalid => Error::Invalid(e.message),
            ErrorKind::NotFound => Error::NotFound(e.message),
            ErrorKind::Exists => Error::AlreadyExists(e.message),
            ErrorKind::Rule => Error::Refused(baffle_core::table::Refusal {
                kind: baffle_core::table::RefusalKind::Rule,
                message: e.message,
            }),
        }
    }
}

impl<S: EventStore + Clone, T: TimeSource> Draws<S, T> {
    /// Replays every drawn tournament's log, mends what a crash left half done, and
    /// starts each one's watcher of confirmed results.
    pub async fn open(hub: Arc<Hub<S, T>>) -> Result<Arc<Self>, String> {
        let draws = Arc::new(Draws {
            hub: hub.clone(),
            tournaments: Mutex::new(BTreeMap::new()),
            changed: Default::default(),
            me: std::sync::OnceLock::new(),
        });
        let _ = draws.me.set(Arc::downgrade(&draws));
        for (id, entry) in hub.draw_entries().await {
            let t = draws
                .load(&id, &entry.opening)
                .await
                .map_err(|e| e.to_string())?;
            draws.tournaments.lock().await.insert(id.clone(), t);
            draws.clone().watch_results(&id);
        }
        Ok(draws)
    }

    /// Reads a tournament's log, writing its opening first if a crash left it empty.
    async fn load(&self, id: &str, opening: &str) -> Result<Tournament, Error> {
        let stream = stream(id);
        self.hub
            .store
            .check(&stream)
            .map_err(|e| Error::DataLoss(format!("tournament {id}'s log: {e}")))?;
        let mut lines = self
            .hub
            .store
            .read(&stream, 0, usize::MAX)
            .map_err(|e| Error::Unavailable(e.to_string()))?;
        if lines.is_empty() {
            let first = Record::next(None, opening.to_string());
            let line = export::record_line(&first).into_bytes();
            match self.hub.store.append(&stream, 0, vec![line]).await {
                Ok(_) | Err(StoreError::Conflict { .. }) => {}
                Err(e) => return Err(Error::Unavailable(e.to_string())),
            }
            lines = self
                .hub
                .store
                .read(&stream, 0, usize::MAX)
                .map_err(|e| Error::Unavailable(e.to_string()))?;
        }
        let records = Reader::new()
            .records(&lines)
            .map_err(|e| Error::DataLoss(format!("tournament {id}'s log: {e}")))?;
        tournament::replay(&records)
            .map_err(|e| Error::DataLoss(format!("tournament {id}'s log: {e}")))
    }

    /// Opens `id`'s draw: the seed drawn and sealed in the registry, the log's first
    /// record committing to it.
    pub async fn open_draw(
        self: &Arc<Self>,
        id: &str,
        plan: tournament::Plan,
        chess: Option<baffle_core::chess::ChessSettings>,
        tables: Vec<String>,
    ) -> Result<Tournament, Error> {
        let t = self.hub.tournament(id).await?;
        if t.draw.is_none() && self.hub.store.len(&stream(id)).unwrap_or(0) > 0 {
            return Err(Error::Refused(baffle_core::table::Refusal {
                kind: baffle_core::table::RefusalKind::Rule,
                message: format!(
                    "tournament {id} has matches made by hand (its log holds them): open the \
                     draw in a tournament of its own"
                ),
            }));
        }
        // The draw names its matches `{id}-{key}`: a match made earlier under such an id
        // (in any tournament) would be taken for one of them.
        let squatted: Vec<String> = self
            .hub
            .match_handles()
            .await
            .into_iter()
            .map(|h| h.info.id)
            .filter(|m| tournament::MatchKey::of_draw_id(id, m).is_some())
            .collect();
        if !squatted.is_empty() {
            return Err(Error::Refused(baffle_core::table::Refusal {
                kind: baffle_core::table::RefusalKind::Rule,
                message: format!(
                    "matches {} hold ids this draw would give its own ({id}-<key>): open the \
                     draw in a tournament of another id",
                    squatted.join(", ")
                ),
            }));
        }
        let seed =
            fresh_server_seed().map_err(|e| Error::Internal(format!("the OS RNG failed: {e}")))?;
        let now = self.hub.time.now();
        // A tournament created without a name is called by its id.
        let name = if t.name.trim().is_empty() {
            id
        } else {
            &t.name
        };
        let opened = Tournament::open(id, name, plan, tables, &seed, now)?;
        let opening = opened.records[0].body.clone();
        self.hub
            .record_draw_opened(id, &seed, chess, opening.clone())
            .await?;
        let loaded = self.load(id, &opening).await?;
        self.tournaments
            .lock()
            .await
            .insert(id.to_string(), loaded.clone());
        self.clone().watch_results(id);
        self.announce(id, loaded.length);
        Ok(loaded)
    }

    /// The hub the draws drive.
    pub fn hub(&self) -> &Arc<Hub<S, T>> {
        &self.hub
    }

    /// The draw of `id` as it stands.
    pub async fn get(&self, id: &str) -> Result<Tournament, Error> {
        crate::hub::check_id(id, "tournament_id")?;
        self.refresh(id).await?;
        self.tournaments
            .lock()
            .await
            .get(id)
            .cloned()
            .ok_or_else(|| Error::NotFound(format!("tournament {id} has no draw")))
    }

    /// Reads `id`'s log again when the store holds more of it than this process has
    /// folded — on a node of a cluster, another node's commands (`docs/cluster.md`) —
    /// or when its draw was opened elsewhere. On one server the store's length is the
    /// fold's, and this costs a length read.
    async fn refresh(&self, id: &str) -> Result<(), Error> {
        let stored = self.hub.store.len(&stream(id)).unwrap_or(0);
        let known = self.tournaments.lock().await.get(id).map(|t| t.length);
        if known.is_some_and(|n| n >= stored) || (known.is_none() && stored == 0) {
            return Ok(());
        }
        let opening = match self.opening(id).await {
            Some(opening) => opening,
            None => {
                // Opened on another node a moment ago: its registry entry may not have
                // reached this one's fold yet.
                let _ = self.hub.catch_up_registry().await;
                match self.opening(id).await {
                    Some(opening) => opening,
                    None => return Ok(()),
                }
            }
        };
        let loaded = self.load(id, &opening).await?;
        let first = {
            let mut all = self.tournaments.lock().await;
            let first = !all.contains_key(id);
            if all.get(id).is_none_or(|t| t.length < loaded.length) {
                all.insert(id.to_string(), loaded);
            }
            first
        };
        if first {
            // The watcher runs beside the requests, on the `Arc` `open` made.
            if let Some(me) = self.me.get().and_then(std::sync::Weak::upgrade) {
                me.watch_results(id);
            }
        }
        Ok(())
    }

    /// The body of `id`'s opening record, as the registry holds it.
    async fn opening(&self, id: &str) -> Option<String> {
        self.hub
            .draw_entries()
            .await
            .into_iter()
            .find(|(t, _)| t == id)
            .map(|(_, entry)| entry.opening)
    }

    /// Follows changes to `id`'s draw: the log's length after each.
    pub fn subscribe(&self, id: &str) -> watch::Receiver<u64> {
        let mut changed = self.changed.lock().expect("changed lock");
        changed
            .entry(id.to_string())
            .or_insert_with(|| watch::channel(0).0)
            .subscribe()
    }

    fn announce(&self, id: &str, length: u64) {
        let changed = self.changed.lock().expect("changed lock");
        if let Some(tx) = changed.get(id) {
            tx.send_replace(length);
        }
    }

    /// The log of `id` as export lines, with the end line. A tournament without a draw:
    /// the log of its matches made by hand.
    pub async fn export(&self, id: &str) -> Result<Vec<String>, Error> {
        let t = match self.get(id).await {
            Ok(t) => t,
            Err(Error::NotFound(_)) if self.hub.tournament(id).await.is_ok() => {
                return self.hub.export_by_hand(id).await;
            }
            Err(e) => return Err(e),
        };
        let lines = self
            .hub
            .store
            .read(&stream(id), 0, usize::MAX)
            .map_err(|e| Error::Unavailable(e.to_string()))?;
        Ok(crate::hub::export_lines(&lines, t.length, t.head))
    }

    /// Runs `command` on `id`'s draw: planned, stored, kept; then the matches it
    /// assigned are created. The draw seed is filled in for `MakeDraw` here, the only
    /// place it leaves the registry.
    pub async fn command(&self, id: &str, command: Command) -> Result<Tournament, Error> {
        let command = match command {
            Command::MakeDraw { seeding, .. } => Command::MakeDraw {
                seed: self.hub.draw_seed(id).await?,
                seeding,
            },
            other => other,
        };
        self.refresh(id).await?;
        let (after, events) = {
            let mut all = self.tournaments.lock().await;
            let current = all
                .get(id)
                .ok_or_else(|| Error::NotFound(format!("tournament {id} has no draw")))?;
            // A fault in the rules must not take the tournament's watcher (or the server)
            // with it: it is refused as an internal error, and nothing changes.
            let now = self.hub.time.now();
            let plan = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                current.plan(&command, now)
            }))
            .map_err(|_| {
                Error::Internal(format!(
                    "tournament {id}: the rules failed on this command (a fault of baffle's: \
                     nothing changed; please report it)"
                ))
            })??;
            if plan.records.is_empty() {
                return Ok(current.clone());
            }
            self.move_at_table(current, &command).await?;
            let lines = plan
                .records
                .iter()
                .map(|r| export::record_line(r).into_bytes())
                .collect();
            self.hub
                .store
                .append(&stream(id), current.length, lines)
                .await
                .map_err(|e| match e {
                    StoreError::Conflict { .. } => {
                        Error::Stale(format!("tournament {id}'s log moved meanwhile: ask again"))
                    }
                    e => Error::Unavailable(format!("the draw could not be stored: {e}")),
                })?;
            all.insert(id.to_string(), plan.tournament.clone());
            (plan.tournament, plan.events)
        };
        self.announce(id, after.length);
        self.rate_listed_players(&after, &events).await;
        self.rename_in_matches(&after, &events).await;
        self.make_matches(&after, &events).await;
        Ok(after)
    }

    /// Writes back to the server's list of players the rating of each listed entrant a
    /// result in `events` rated (a played result, the first for its match).
    async fn rate_listed_players(&self, t: &Tournament, events: &[Event]) {
        for e in events {
            // Rated: a played result confirmed at its table. A ruling (a forfeit, or the
            // correction of a rated result) rates nobody (docs/tournament.md, Ratings).
            let Event::Result {
                key,
                played: true,
                ruling,
                ..
            } = e
            else {
                continue;
            };
            if !ruling.is_empty() {
                continue;
            }
            let Some(players) = t.pairing_players(*key) else {
                continue;
            };
            for p in players {
                let Some(entrant) = t.entrants.get(&p) else {
                    continue;
                };
                if entrant.details.player.is_empty() {
                    continue;
                }
                let rating = entrant.rating.map_or(0, |r| r.0);
                let made = self
                    .hub
                    .rate_player(
                        &entrant.details.player,
                        &t.id,
                        &key.to_string(),
                        rating,
                        entrant.experience,
                    )
                    .await;
                if let Err(error) = made {
                    tracing::error!(tournament = %t.id, player = %entrant.details.player, %error, "a listed player's rating could not be written back");
                }
            }
        }
    }

    /// Gives each renamed entrant's new name to every match of his with a log (the
    /// match's own record says it, `match.renamed`, so its table and card show it) and,
    /// for a player from the list, to the list.
    async fn rename_in_matches(&self, t: &Tournament, events: &[Event]) {
        for e in events {
            let Event::Renamed { entrant, name } = e else {
                continue;
            };
            // A player from the list: the list follows (it is one player everywhere).
            if let Some(listed) = t.entrants.get(entrant).map(|e| &e.details.player)
                && !listed.is_empty()
                && let Err(error) = self.hub.rename_listed_player(listed, name).await
            {
                tracing::warn!(tournament = %t.id, player = %listed, %error, "a renamed entrant keeps his old name on the list");
            }
            for a in t.matches.values() {
                let Some(i) = a.players.iter().position(|p| p == entrant) else {
                    continue;
                };
                let side = if i == 0 { Side::A } else { Side::B };
                let request = baffle_core::table::Request::RenamePlayer {
                    side,
                    name: name.clone(),
                };
                let done = match self.hub.match_handle(&a.match_id).await {
                    Ok(h) => h
                        .execute(request, None, None, crate::actor::Admission::Always)
                        .await
                        .map(|_| ()),
                    Err(e) => Err(e),
                };
                if let Err(error) = done {
                    tracing::warn!(tournament = %t.id, match_id = %a.match_id, %error, "a renamed entrant's match keeps the old name");
                }
            }
        }
    }

    /// Creates the match of every `match.assigned` in `events`; one that follows a
    /// `match.replaced` of its place names the match it replaces, so the directory links
    /// the two and the old one takes no more commands.
    async fn make_matches(&self, t: &Tournament, events: &[Event]) {
        let mut replacing = None;
        for e in events {
            if let Event::Replaced { key, old, ruling } = e {
                let replacement = Replacement {
                    match_id: old.clone(),
                    ruling: ruling.clone(),
                };
                replacing = Some((*key, replacement));
                continue;
            }
            let Event::Assigned {
                key,
                match_id,
                table,
                players,
                start,
            } = e
            else {
                continue;
            };
            let replaces = replacing
                .take()
                .filter(|(replaced, _)| replaced == key)
                .map(|(_, r)| r);
            let place = (key.round, match_id.as_str(), table.as_str());
            let made = self
                .create_match(t, place, *players, *start, replaces)
                .await;
            if let Err(error) = made {
                tracing::error!(tournament = %t.id, %key, %match_id, %error, "a match of the draw could not be created: it is created again at the next start");
            }
        }
    }

    async fn create_match(
        &self,
        t: &Tournament,
        (round, match_id, table): (u32, &str, &str),
        players: [tournament::EntrantId; 2],
        start: Timestamp,
        replaces: Option<Replacement>,
    ) -> Result<(), Error> {
        let names = players.map(|p| t.name_of(p));
        let game = match t.plan.game {
            GameType::Backgammon => NewGame::Backgammon {
                length: t.plan.length,
                unclocked: false,
                series_match: None,
                moves: Default::default(),
                dice: None,
            },
            GameType::Chess => {
                let mut settings = self
                    .hub
                    .draw_entries()
                    .await
                    .into_iter()
                    .find(|(id, _)| *id == t.id)
                    .and_then(|(_, e)| e.chess)
                    .ok_or_else(|| {
                        Error::Internal(format!("tournament {} has no chess settings", t.id))
                    })?;
                settings.players = names.clone();
                settings.start = start;
                NewGame::Chess(settings)
            }
        };
        let made = self
            .hub
            .create_match(NewMatch {
                info: MatchInfo {
                    id: match_id.to_string(),
                    tournament: t.id.clone(),
                    round,
                    table: table.to_string(),
                },
                players: names,
                start,
                game,
                replaces,
            })
            .await;
        match made {
            Ok(_) => Ok(()),
            // Made before a crash: the same match, or someone else's under its id.
            Err(Error::AlreadyExists(_)) => {
                let h = self.hub.match_handle(match_id).await?;
                if h.info.tournament == t.id && h.info.table == table && h.info.round == round {
                    Ok(())
                } else {
                    Err(Error::Internal(format!(
                        "match id {match_id} is taken by another match ({} round {} table \
                         {}): replace {} with a ruling to give it a new log",
                        h.info.tournament, h.info.round, h.info.table, match_id
                    )))
                }
            }
            Err(e) => Err(e),
        }
    }

    /// Follows `id`'s feed for confirmed results of its draw's matches, after reading
    /// every match once (what was confirmed while the server was down, or before a
    /// lag).
    fn watch_results(self: Arc<Self>, id: &str) {
        let id = id.to_string();
        tokio::spawn(async move {
            let Some(mut feed) = self.hub.subscribe_feed(&id) else {
                return;
            };
            self.mend(&id).await;
            loop {
                match feed.recv().await {
                    Ok(FeedItem::State(summary)) => {
                        if let Ok(state) = summary.decode(0) {
                            self.note_result(&id, &state).await;
                        }
                    }
                    Ok(FeedItem::Closing)
                    | Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                        return;
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        self.mend(&id).await;
                    }
                }
            }
        });
    }

    /// Creates every assigned match that has no log, and records every confirmed result
    /// the draw lacks (or has otherwise: a correction at its table).
    async fn mend(&self, id: &str) {
        let Ok(t) = self.get(id).await else {
            return;
        };
        for (key, a) in &t.matches {
            match self.hub.match_handle(&a.match_id).await {
                Ok(h) => {
                    if let Ok(state) = h.state().await {
                        self.note_result(id, &state).await;
                    }
                }
                Err(Error::NotFound(_)) => {
                    // Made again after a crash: the words of its replacement, if it was
                    // one, are in the draw's log; the directory links the two.
                    let replaces = a.replaced.last().map(|old| Replacement {
                        match_id: old.clone(),
                        ruling: format!("match.replaced of {key} in the draw's log"),
                    });
                    let place = (key.round, a.match_id.as_str(), a.table.as_str());
                    let made = self.create_match(&t, place, a.players, a.start, replaces);
                    if let Err(error) = made.await {
                        tracing::error!(tournament = %id, %key, %error, "a match of the draw could not be created");
                    }
                }
                Err(_) => {}
            }
        }
    }

    /// Tells the draw a confirmed result of one of its matches.
    async fn note_result(&self, id: &str, state: &v1::MatchState) {
        let Some(result) = &state.result else {
            return;
        };
        if !result.confirmed {
            return;
        }
        // Only the current log of a match of the draw; a result the draw has already, as
        // it is, is nothing new to the core (and a corrected one is its correction).
        let ours = {
            let all = self.tournaments.lock().await;
            all.get(id)
                .and_then(|t| t.key_of(&state.match_id))
                .is_some()
        };
        if !ours {
            return;
        }
        let winner = match v1::Side::try_from(result.winner) {
            Ok(v1::Side::A) => Some(Side::A),
            Ok(v1::Side::B) => Some(Side::B),
            _ => None,
        };
        // A forfeit, the director's decision or a double default ends a match without
        // its play deciding it: recorded, but not rated.
        let played = !matches!(
            result.how.as_str(),
            "forfeit" | "director_decision" | "double_default"
        );
        let command = Command::Confirmed {
            match_id: state.match_id.clone(),
            winner,
            score: [state.score_a, state.score_b],
            played,
        };
        if let Err(error) = self.command(id, command).await {
            tracing::warn!(tournament = %id, match_id = %state.match_id, %error, "a confirmed result was not taken by the draw");
        }
    }
}
