//! One task per live match (design principle 4): the I/O around the match's
//! [`Table`]. The actor applies requests in order: the table plans the request (its
//! records, chained, on a copy) → durable append → only then the new table, the reply and
//! the broadcast to watchers. A refused request, or a failed append, leaves everything as
//! it was — the dice included. Timers come from the table's `next_due` (the game's, and a
//! live draw's deadline); when one fires the actor asks its table for a `Tick`.
//!
//! On a node of a cluster (`docs/cluster.md`) every node runs an actor for every match,
//! but only the **owner** (the node holding the match's lease) writes: the others are
//! **replicas** that fold each new record of the log when told it grew (`replica.rs`) and
//! broadcast the same updates, so followers may watch on any node; commands to a replica
//! are answered UNAVAILABLE naming the owner. A replica that is given the lease takes the
//! match over: it reads the log to its end and writes the takeover record.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

mod handle;
mod journal;
mod msg;
mod recovery;
mod replica;

pub use baffle_core::table::DeviceInput;
pub use handle::MatchHandle;
pub use msg::{Admission, RequestId};
pub use recovery::{Recovery, game_of_setup, recover_in_background, replay_log};
pub use replica::not_owner;

use std::collections::BTreeMap;

use baffle_core::Timestamp;
use baffle_core::audit::export::record_line;
use baffle_core::table::{DeviceOutcome, Plan, Request, Table};
use baffle_proto::v1;
use tokio::sync::{broadcast, mpsc};

use crate::error::Error;
use crate::feed::{FeedItem, Summary};
use crate::signing::HeadSigner;
use crate::store::{EventStore, Receipt, StoreError};
use crate::time::TimeSource;
use crate::wire::{self, StateContext};
use msg::Msg;

/// Most commands per caller per match per second before RESOURCE_EXHAUSTED: far above
/// any real table, low enough that one client cannot monopolise the store. The director
/// is never limited: a device flooding its match must not lock out his rulings.
pub const COMMANDS_PER_SECOND: u32 = 50;

/// Callers' windows kept before the stale ones are dropped.
const WINDOWS_KEPT: usize = 8;

/// Replies kept in memory per match for answering retried request ids at once; older
/// ones are read back from the store's receipts.
const REMEMBERED_REPLIES: usize = 256;

/// A stored receipt: the fingerprint, then the reply's protobuf encoding.
fn encode_receipt(fingerprint: &[u8; 32], reply: &v1::ExecuteReply) -> Vec<u8> {
    use prost::Message;
    let mut bytes = fingerprint.to_vec();
    reply.encode(&mut bytes).expect("a Vec grows");
    bytes
}

fn decode_receipt(bytes: &[u8]) -> Option<([u8; 32], v1::ExecuteReply)> {
    use prost::Message;
    let (fingerprint, reply) = bytes.split_at_checked(32)?;
    Some((
        fingerprint.try_into().ok()?,
        v1::ExecuteReply::decode(reply).ok()?,
    ))
}

/// The name of a match's stream in the event store.
pub fn stream(match_id: &str) -> String {
    format!("m/{match_id}")
}

/// Updates kept for followers that are slow to read. tokio's broadcast channel allocates
/// all its slots up front (about 48 bytes each), so this is most of what a live match
/// costs in memory; a follower that falls further behind loses nothing — it catches up
/// from the stored log (`services::follow`).
const UPDATE_BUFFER: usize = 16;

/// The running actor.
pub struct MatchActor<S: EventStore, T: TimeSource> {
    table: Table,
    /// Devices that connected, and whether they are now (not in the log).
    devices: BTreeMap<String, bool>,
    /// The dice commitment in hex, computed once: every state shows it.
    commitment: String,
    store: S,
    time: T,
    updates: broadcast::Sender<Arc<v1::MatchUpdate>>,
    summaries: broadcast::Sender<FeedItem>,
    /// The latest replies to commands with a request id, with their fingerprints.
    replies: VecDeque<(RequestId, v1::ExecuteReply)>,
    /// Each limited caller's second and the commands he sent in it.
    windows: BTreeMap<String, (i64, u32)>,
    /// Set when the match was just reloaded from its log (see [`Self::reload`]).
    reloaded: bool,
    /// Whether this node writes the match (shared with the handles): it has an epoch.
    owner: Arc<AtomicBool>,
    /// The lease epoch under which this table is the log's end: the one it created the
    /// match or took it over under. It writes while the store holds that same epoch —
    /// also again after a renewal that came late (a database failover), since no other
    /// node can have written without a new epoch (`replica.rs`).
    epoch: Option<u64>,
    /// Set when an append failed in a way that may have stored it all the same (the
    /// database died while committing: the COMMIT may have been applied though its answer
    /// was lost). The log may then hold records this table does not: they are read
    /// before anything is decided on it ([`Self::settle`]).
    unsure: bool,
    /// A takeover that could not be written yet (node, epoch, the previous holder's
    /// silence as measured at the claim): tried again every second.
    takeover: Option<(String, u64, Option<u64>)>,
    /// Signs the heads this actor sends out.
    signer: Arc<HeadSigner>,
    /// The latest head signed: a state asked for again at the same head (a new
    /// follower, `GetMatch`) is not signed again. Behind a lock only so that the actor
    /// stays `Sync` across its awaits; nothing else ever takes it.
    signed: std::sync::Mutex<Option<v1::SignedHead>>,
    /// Set by the hub once the directory records this match replaced
    /// ([`MatchHandle::replaced`]): no timer runs any more, no command is taken, and
    /// every state says by which match.
    replaced: Arc<std::sync::OnceLock<(String, String)>>,
}

impl<S: EventStore, T: TimeSource> MatchActor<S, T> {
    /// Starts the actor for `table` and returns its handle. `summaries` receives the
    /// state after every change (the tournament feed).
    pub fn spawn(
        table: Table,
        store: S,
        time: T,
        summaries: broadcast::Sender<FeedItem>,
        signer: Arc<HeadSigner>,
    ) -> MatchHandle {
        let (tx, rx) = mpsc::channel(256);
        let epoch = store.held_epoch(&stream(&table.info().id));
        let owner = Arc::new(AtomicBool::new(epoch.is_some()));
        let handle = MatchHandle {
            tx,
            info: table.info().clone(),
            game: table.game().game_type(),
            failed: Default::default(),
            owner: owner.clone(),
            replaced: Default::default(),
        };
        let replaced = handle.replaced.clone();
        let actor = MatchActor::new(
            table,
            store,
            time,
            (summaries, signer),
            (owner, epoch),
            replaced,
        );
        tokio::spawn(actor.run(rx));
        handle
    }

    fn new(
        table: Table,
        store: S,
        time: T,
        (summaries, signer): (broadcast::Sender<FeedItem>, Arc<HeadSigner>),
        (owner, epoch): (Arc<AtomicBool>, Option<u64>),
        replaced: Arc<std::sync::OnceLock<(String, String)>>,
    ) -> MatchActor<S, T> {
        MatchActor {
            replaced,
            owner,
            epoch,
            unsure: false,
            takeover: None,
            commitment: table.dice().commitment().to_string(),
            table,
            devices: BTreeMap::new(),
            store,
            time,
            updates: broadcast::channel(UPDATE_BUFFER).0,
            summaries,
            replies: VecDeque::new(),
            windows: BTreeMap::new(),
            reloaded: false,
            signer,
            signed: std::sync::Mutex::new(None),
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Box<Msg>>) {
        let _live = crate::metrics::Gauge::new(crate::metrics::Kind::LiveMatch);
        // A new match is announced at once: a late table, the one a director most needs
        // to see, must not wait for its first event to appear in the room's feed.
        let state = self.update_state(&self.table, self.now());
        self.summarise(&state);
        loop {
            // A replica records nothing by itself: the owner does; nor does a replaced
            // match, whoever owns it.
            let due = match &self.takeover {
                Some(_) => Some(self.time.now() + baffle_core::Millis::secs(1)),
                None if self.writes() && !self.is_replaced() => self.table.next_due(),
                None => None,
            };
            let timer = {
                let time = self.time.clone();
                async move {
                    match due {
                        Some(at) => time.sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                }
            };
            tokio::select! {
                msg = rx.recv() => match msg {
                    // Boxed: the future of a command in flight (a planned copy of the
                    // table, the store's append) is large, and a task keeps room for its
                    // largest state while it waits for the next message — per live match.
                    Some(msg) => Box::pin(self.handle(*msg)).await,
                    None => return,
                },
                () = timer => {
                    if let Some((node, epoch, silent_ms)) = self.takeover.take() {
                        Box::pin(self.take_over(node, epoch, silent_ms)).await;
                        continue;
                    }
                    // Replaced while its timer ran: the due event is not recorded.
                    if !self.writes() || self.is_replaced() {
                        continue;
                    }
                    if let Err(e) = Box::pin(self.commit(&Request::Tick)).await {
                        tracing::warn!(match_id = %self.table.info().id, error = %e, "a due event could not be stored; retrying in a second");
                        // The due time stays in the past until the event is stored: wait
                        // before trying again rather than spinning on the failure.
                        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                    }
                }
            }
        }
    }

    /// Whether the directory recorded this match replaced.
    fn is_replaced(&self) -> bool {
        self.replaced.get().is_some()
    }

    fn now(&self) -> Timestamp {
        // Never before the last event: a system clock stepped back must not refuse play.
        self.time.now().max(self.table.game().now())
    }

    /// Plans `request` at [`Self::now`], except a director's move of a match's start
    /// (2.2), which is planned at the time he ruled: before the start it would otherwise
    /// be dated at the start, and a match could never be brought forward. The core takes
    /// it then only while nothing has happened in the match; otherwise it is planned at
    /// `now()` as any command.
    fn plan_at_its_time(&self, request: &Request) -> Result<baffle_core::table::Plan, Error> {
        let moves_start = matches!(request, Request::Backgammon(c) if c.moves_start());
        let ruled_at = self.time.now();
        if moves_start
            && ruled_at < self.table.game().now()
            && let Ok(plan) = self.table.plan(request, ruled_at)
        {
            return Ok(plan);
        }
        Ok(self.table.plan(request, self.now())?)
    }

    /// The wire state at `now`, its head signed: what `GetMatch` and a new follower get.
    fn state(&self, now: Timestamp) -> v1::MatchState {
        self.state_of(&self.table, now, true)
    }

    /// The state of an update of `table` (this match's, or a plan's) at `now`, for the
    /// command's reply and the match's followers: its head signed if anyone follows the
    /// match (a `Watch`, the tournament's feed). Nobody else is sent an update, so a
    /// match nobody follows pays no signature for a state only its commander reads — on
    /// the 2 cores, signing every update halved the presses per second of 1,000
    /// unfollowed matches (`docs/benchmarks.md`).
    fn update_state(&self, table: &Table, now: Timestamp) -> v1::MatchState {
        let followed = self.updates.receiver_count() > 0 || self.summaries.receiver_count() > 0;
        self.state_of(table, now, followed)
    }

    /// The wire state of `table` at `now`, its head signed if `signed`.
    fn state_of(&self, table: &Table, now: Timestamp, signed: bool) -> v1::MatchState {
        let signed_head = signed.then(|| self.signed_head(table));
        let cx = StateContext {
            info: table.info(),
            commitment: &self.commitment,
            seq: table.len(),
            head: table.head(),
            now,
            anomalies: table.anomalies(),
            devices: &self.devices,
            dice: table.dice(),
            signed_head,
            uncredited: table.uncredited_outage(),
            replaced: self.replaced.get(),
        };
        wire::match_state(table.game(), &cx)
    }

    /// `table`'s head signed: once per head, however many states show it.
    fn signed_head(&self, table: &Table) -> v1::SignedHead {
        let head = table.head();
        let mut signed = self
            .signed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(s) = signed.as_ref()
            && s.length == table.len()
            && s.head == head.to_string()
        {
            return s.clone();
        }
        let fresh = self.signer.sign(&table.info().id, table.len(), &head);
        *signed = Some(fresh.clone());
        fresh
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Execute {
                request,
                request_id,
                expected_seq,
                admission,
                reply,
            } => {
                let answer = self
                    .execute(request, request_id, expected_seq, admission)
                    .await;
                crate::metrics::command(answer.is_ok());
                let _ = reply.send(answer);
            }
            Msg::Reveal { reply } => {
                let _ = reply.send(self.reveal().await);
            }
            Msg::Subscribe { reply } => {
                let _ = reply.send((self.state(self.now()), self.updates.subscribe()));
            }
            Msg::State { reply } => {
                let _ = reply.send(self.state(self.now()));
            }
            Msg::Adjudicate { reply } => {
                let input = wire::to_adjudicate(self.table.game());
                let _ = reply.send(input.map(|(p, next)| (p, next, self.table.len())));
            }
            Msg::DeviceInput { input, reply } => {
                if !self.writes() {
                    let _ = reply.send(Err(self.not_owner()));
                    return;
                }
                let ack = self.device_input(input).await;
                crate::metrics::command(ack.error.is_empty());
                let _ = reply.send(Ok(ack));
            }
            Msg::CatchUp => self.catch_up(),
            Msg::StopWriting { reply } => {
                let _ = reply.send(self.stop_writing());
            }
            Msg::Resume { epoch } => self.resume(epoch),
            // Not an event of the match: its followers learn it from the next state.
            Msg::Replaced => self.presence_changed(),
            Msg::TakeOver {
                node,
                epoch,
                silent_ms,
            } => self.take_over(node, epoch, silent_ms).await,
            Msg::Presence { device, connected } => {
                // Not an event of the match: nothing is logged, followers get a new state.
                self.devices.insert(device, connected);
                self.presence_changed();
            }
            Msg::Bound { device, bound } => {
                let changed = match bound {
                    true if !self.devices.contains_key(&device) => {
                        self.devices.insert(device, false);
                        true
                    }
                    true => false,
                    false => self.devices.remove(&device).is_some(),
                };
                if changed {
                    self.presence_changed();
                }
            }
        }
    }

    /// Puts `state` on the tournament feed, encoded once for all its followers (if any).
    /// Which devices are bound and connected changed, or the match was replaced: not an
    /// event of the match, so nothing is logged; followers and the tournament feed get
    /// the new state.
    fn presence_changed(&self) {
        let state = self.update_state(&self.table, self.now());
        self.summarise(&state);
        let _ = self.updates.send(Arc::new(v1::MatchUpdate {
            events: vec![],
            state: Some(state),
        }));
    }

    fn summarise(&self, state: &v1::MatchState) {
        if self.summaries.receiver_count() > 0 {
            let _ = self.summaries.send(FeedItem::State(Summary::encode(state)));
        }
    }

    async fn execute(
        &mut self,
        request: Request,
        request_id: Option<RequestId>,
        expected_seq: Option<u64>,
        admission: Admission,
    ) -> Result<v1::ExecuteReply, Error> {
        if let Some(id) = &request_id
            && let Some(reply) = self.earlier_reply(id)?
        {
            return Ok(reply);
        }
        if !self.writes() {
            return Err(self.not_owner());
        }
        // The hub refuses first, naming the match play goes on in; this holds for any
        // path that kept the handle.
        if let Some((by, ruling)) = self.replaced.get() {
            return Err(Error::Refused(baffle_core::table::Refusal {
                kind: baffle_core::table::RefusalKind::Rule,
                message: format!(
                    "match {} was replaced by match {by} ({ruling}): it takes no more commands",
                    self.table.info().id
                ),
            }));
        }
        self.settle()?;
        if let Some(expected) = expected_seq.filter(|e| *e != self.table.len()) {
            return Err(Error::Stale(format!(
                "the match log has {} events, not the expected {expected}: reload the state and retry",
                self.table.len()
            )));
        }
        self.admit(admission)?;
        let plan = self.plan_at_its_time(&request)?;
        self.reloaded = false;
        let update = match self.append(plan, request_id.as_ref()).await {
            // The log was ahead and the match was reloaded from it: plan again, once.
            Err(_) if std::mem::take(&mut self.reloaded) => {
                let plan = self.table.plan(&request, self.now())?;
                self.append(plan, request_id.as_ref()).await?
            }
            other => other?,
        };
        let reply = v1::ExecuteReply {
            events: update.events.clone(),
            state: update.state.clone(),
        };
        if let Some(id) = request_id {
            if self.replies.len() == REMEMBERED_REPLIES {
                self.replies.pop_front();
            }
            self.replies.push_back((id, reply.clone()));
        }
        Ok(reply)
    }

    /// Counts a command against its caller's window, or refuses it over the limit.
    fn admit(&mut self, admission: Admission) -> Result<(), Error> {
        let Admission::PerCaller(caller) = admission else {
            return Ok(());
        };
        let second = self.time.now().as_ms().div_euclid(1_000);
        if self.windows.len() >= WINDOWS_KEPT {
            self.windows.retain(|_, (s, _)| *s == second);
        }
        let window = self.windows.entry(caller).or_insert((second, 0));
        if window.0 != second {
            *window = (second, 0);
        }
        if window.1 >= COMMANDS_PER_SECOND {
            return Err(Error::RateLimited(format!(
                "more than {COMMANDS_PER_SECOND} commands per second from one caller to one match \
                 (the director's are always admitted)"
            )));
        }
        window.1 += 1;
        Ok(())
    }

    /// The reply to an earlier command under `id`'s request id — remembered, or stored
    /// with its records — or None if there was none. An id that came with a different
    /// command is refused: answering it with another command's reply would tell its
    /// client that a command succeeded which never ran.
    fn earlier_reply(&self, id: &RequestId) -> Result<Option<v1::ExecuteReply>, Error> {
        let earlier = match self.replies.iter().find(|(seen, _)| seen.id == id.id) {
            Some((seen, reply)) => Some((seen.fingerprint, reply.clone())),
            None => {
                let stream = stream(&self.table.info().id);
                match self.store.receipt(&stream, &id.id) {
                    Ok(None) => None,
                    Ok(Some(bytes)) => Some(decode_receipt(&bytes).ok_or_else(|| {
                        Error::Internal(format!(
                            "the stored reply to request_id {:?} does not decode",
                            id.id
                        ))
                    })?),
                    Err(e) => {
                        return Err(Error::Unavailable(format!(
                            "the replies to earlier request ids could not be read: {e}"
                        )));
                    }
                }
            }
        };
        match earlier {
            None => Ok(None),
            Some((fingerprint, reply)) if fingerprint == id.fingerprint => Ok(Some(reply)),
            Some(_) => Err(Error::AlreadyExists(format!(
                "request_id {:?} was used for a different command (or caller, or expected_seq): \
                 a retry must repeat the request exactly; a new command needs a new request_id",
                id.id
            ))),
        }
    }

    /// Plans, stores durably, then applies and announces. Returns the update announced:
    /// the events added and the state after them.
    async fn commit(&mut self, request: &Request) -> Result<Arc<v1::MatchUpdate>, Error> {
        self.settle()?;
        let now = self.now();
        let plan = self.table.plan(request, now)?;
        self.append(plan, None).await
    }

    /// Stores the plan's records durably — with the reply as the receipt of `request_id`,
    /// if any, in the same write — then makes its table the state and announces the
    /// update (built once: the reply, the watchers and the feed share it).
    async fn append(
        &mut self,
        plan: Plan,
        request_id: Option<&RequestId>,
    ) -> Result<Arc<v1::MatchUpdate>, Error> {
        let Plan { table, records } = plan;
        if records.is_empty() {
            return Ok(Arc::new(v1::MatchUpdate {
                events: Vec::new(),
                state: Some(self.update_state(&self.table, self.now())),
            }));
        }
        let now = self.time.now().max(table.game().now());
        let update = Arc::new(v1::MatchUpdate {
            events: records.iter().map(wire::event).collect(),
            state: Some(self.update_state(&table, now)),
        });
        let receipt = request_id.map(|id| Receipt {
            key: id.id.clone(),
            value: encode_receipt(
                &id.fingerprint,
                &v1::ExecuteReply {
                    events: update.events.clone(),
                    state: update.state.clone(),
                },
            ),
        });
        let lines = records
            .iter()
            .map(|r| record_line(r).into_bytes())
            .collect();
        match self
            .store
            .append_with_receipt(
                &stream(&self.table.info().id),
                self.table.len(),
                lines,
                receipt,
            )
            .await
        {
            Ok(_) => {}
            Err(StoreError::Conflict { expected, actual }) => {
                // Only this actor writes its stream: the store holds records of an earlier
                // append that failed after writing them (a flush on a full disk), and
                // that the store kept. Take them up from the log, as a restart would;
                // this request is not applied (a command is planned again, once).
                self.reloaded = self.reload();
                return Err(Error::Unavailable(format!(
                    "the store failed after writing earlier records of this match ({actual} \
                     in the log, {expected} acknowledged); the match was reloaded from its \
                     log: retry the command (a retried request_id gets its first reply)"
                )));
            }
            Err(StoreError::Lost(why)) => return Err(Error::DataLoss(why)),
            Err(StoreError::Fenced(why)) => {
                // Nothing was written. The lease lapsed in the database: either another
                // node claims it (a new epoch: this actor reads as a replica until it
                // takes the match over again) or this node's next renewal gets it back
                // under the same epoch, and this table is still the log's end.
                tracing::warn!(match_id = %self.table.info().id, %why, "this node cannot write the match now");
                return Err(self.not_owner());
            }
            Err(e) => {
                self.unsure = true;
                return Err(Error::Unavailable(format!(
                    "the event could not be stored: {e}"
                )));
            }
        }
        self.table = table;
        journal::log_events(&self.table.info().id, &update.events);
        if let Some(state) = &update.state {
            self.summarise(state);
        }
        let _ = self.updates.send(update.clone());
        Ok(update)
    }

    async fn device_input(&mut self, input: DeviceInput) -> v1::Ack {
        let seq = input.seq;
        let refused = |error: String| v1::Ack {
            seq,
            error,
            ..Default::default()
        };
        let resend = |from: u64, error: String| v1::Ack {
            resend_from: from,
            ..refused(error)
        };
        if let Err(e) = self.settle() {
            return resend(seq, format!("not stored, send it again: {e}"));
        }
        match self.table.plan_device_input(&input) {
            DeviceOutcome::Duplicate => v1::Ack {
                seq,
                duplicate: true,
                ..Default::default()
            },
            DeviceOutcome::OutOfOrder { next } => resend(
                next,
                format!("out of order: the next input from this device is seq {next}"),
            ),
            DeviceOutcome::Recorded {
                plan,
                charged_at,
                refused: why,
            } => {
                if let Err(e) = self.append(*plan, None).await {
                    return resend(seq, format!("not stored, send it again: {e}"));
                }
                match why {
                    Some(e) => refused(e),
                    None => v1::Ack {
                        seq,
                        applied: true,
                        charged_at_ms: charged_at.as_ms(),
                        ..Default::default()
                    },
                }
            }
        }
    }

    async fn reveal(&mut self) -> Result<String, Error> {
        if !self.writes() {
            return Err(self.not_owner());
        }
        self.commit(&Request::Reveal).await?;
        let seed = self
            .table
            .dice()
            .server_seed()
            .expect("the server holds its seeds");
        Ok(hex::encode(seed.as_bytes()))
    }
}
