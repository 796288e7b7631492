//! One task per live match (design principle 4): the I/O around the match's
//! [`Table`]. The actor applies requests in order: the table plans the request (its
//! records, chained, on a copy) → durable append → only then the new table, the reply and
//! the broadcast to watchers. A refused request, or a failed append, leaves everything as
//! it was — the dice included. Timers come from the game's `next_due`; when one fires the
//! actor asks its table for a `Tick`.

use std::collections::VecDeque;
use std::sync::Arc;

mod recovery;

pub use baffle_core::table::DeviceInput;
pub use recovery::{Recovery, recover_in_background, rules_from_setup};

use std::collections::BTreeMap;

use baffle_core::Timestamp;
use baffle_core::audit::export::record_line;
use baffle_core::table::{DeviceOutcome, Plan, Request, Table};
use baffle_proto::v1;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::error::Error;
use crate::feed::{FeedItem, Summary};
use crate::store::{EventStore, StoreError};
use crate::time::TimeSource;
use crate::wire::{self, MatchInfo, Rules, StateContext};

/// Most commands per match per second before RESOURCE_EXHAUSTED: far above any real
/// table, low enough that one client cannot monopolise the store.
pub const COMMANDS_PER_SECOND: u32 = 50;

/// Replies kept per match for answering retried request ids.
const REMEMBERED_REPLIES: usize = 256;

/// The name of a match's stream in the event store.
pub fn stream(match_id: &str) -> String {
    format!("m/{match_id}")
}

/// Messages to a match actor.
enum Msg {
    Execute {
        request: Request,
        request_id: String,
        expected_seq: Option<u64>,
        reply: oneshot::Sender<Result<v1::ExecuteReply, Error>>,
    },
    Reveal {
        reply: oneshot::Sender<Result<String, Error>>,
    },
    Subscribe {
        reply: oneshot::Sender<(v1::MatchState, broadcast::Receiver<Arc<v1::MatchUpdate>>)>,
    },
    State {
        reply: oneshot::Sender<v1::MatchState>,
    },
    Presence {
        device: String,
        connected: bool,
    },
    DeviceInput {
        input: DeviceInput,
        reply: oneshot::Sender<v1::Ack>,
    },
}

/// A handle to a running match actor. Cheap to clone.
#[derive(Clone)]
pub struct MatchHandle {
    /// Messages travel boxed: tokio allocates a channel's first block of 32 slots up front,
    /// and a slot of a pointer rather than of the largest message saves some 4.6 KB per
    /// live match.
    tx: mpsc::Sender<Box<Msg>>,
    /// Where the match sits.
    pub info: MatchInfo,
    /// Its rules (and dice), for decoding commands.
    pub rules: Rules,
    /// Why the match is unavailable, if its log could not be recovered.
    failed: Arc<std::sync::OnceLock<String>>,
}

fn gone() -> Error {
    Error::Unavailable("the match is shutting down".into())
}

impl MatchHandle {
    async fn ask<R>(&self, msg: impl FnOnce(oneshot::Sender<R>) -> Msg) -> Result<R, Error> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Box::new(msg(reply)))
            .await
            .map_err(|_| self.gone())?;
        answer.await.map_err(|_| self.gone())
    }

    /// Why the actor is not answering: its log failed recovery, or it is shutting down.
    fn gone(&self) -> Error {
        match self.failed.get() {
            Some(why) => Error::DataLoss(format!(
                "match {} is unavailable: its log did not check out on start: {why}",
                self.info.id
            )),
            None => gone(),
        }
    }

    /// Applies a decoded request.
    pub async fn execute(
        &self,
        request: Request,
        request_id: String,
        expected_seq: Option<u64>,
    ) -> Result<v1::ExecuteReply, Error> {
        self.ask(|reply| Msg::Execute {
            request,
            request_id,
            expected_seq,
            reply,
        })
        .await?
    }

    /// Reveals the server seed (after the match).
    pub async fn reveal(&self) -> Result<String, Error> {
        self.ask(|reply| Msg::Reveal { reply }).await?
    }

    /// The current state and a receiver of every later update.
    pub async fn subscribe(
        &self,
    ) -> Result<(v1::MatchState, broadcast::Receiver<Arc<v1::MatchUpdate>>), Error> {
        self.ask(|reply| Msg::Subscribe { reply }).await
    }

    /// Applies a device's input exactly once, in order, timed by the device (principle 5).
    pub async fn device_input(&self, input: DeviceInput) -> Result<v1::Ack, Error> {
        self.ask(|reply| Msg::DeviceInput { input, reply }).await
    }

    /// Reports a device's connection opening or closing; followers see it in the state.
    pub async fn presence(&self, device: &str, connected: bool) {
        let _ = self
            .tx
            .send(Box::new(Msg::Presence {
                device: device.to_string(),
                connected,
            }))
            .await;
    }

    /// The current state.
    pub async fn state(&self) -> Result<v1::MatchState, Error> {
        self.ask(|reply| Msg::State { reply }).await
    }

    /// The current state for a listing: `None` for a match whose log did not check out
    /// on start — it answers DATA_LOSS itself, and a listing goes on without it.
    pub async fn listed_state(&self) -> Result<Option<v1::MatchState>, Error> {
        match self.state().await {
            Ok(state) => Ok(Some(state)),
            Err(Error::DataLoss(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Why the match cannot be used, if its log did not check out on start.
    pub fn unavailable(&self) -> Option<Error> {
        self.failed.get().map(|_| self.gone())
    }
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
    replies: VecDeque<(String, v1::ExecuteReply)>,
    window: (i64, u32),
}

impl<S: EventStore, T: TimeSource> MatchActor<S, T> {
    /// Starts the actor for `table` and returns its handle. `summaries` receives the
    /// state after every change (the tournament feed).
    pub fn spawn(
        table: Table,
        store: S,
        time: T,
        summaries: broadcast::Sender<FeedItem>,
    ) -> MatchHandle {
        let (tx, rx) = mpsc::channel(256);
        let handle = MatchHandle {
            tx,
            info: table.info().clone(),
            rules: wire::rules(table.game()),
            failed: Default::default(),
        };
        tokio::spawn(MatchActor::new(table, store, time, summaries).run(rx));
        handle
    }

    fn new(
        table: Table,
        store: S,
        time: T,
        summaries: broadcast::Sender<FeedItem>,
    ) -> MatchActor<S, T> {
        MatchActor {
            commitment: table.dice().commitment().to_string(),
            table,
            devices: BTreeMap::new(),
            store,
            time,
            updates: broadcast::channel(UPDATE_BUFFER).0,
            summaries,
            replies: VecDeque::new(),
            window: (0, 0),
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Box<Msg>>) {
        loop {
            let due = self.table.game().next_due();
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

    fn now(&self) -> Timestamp {
        // Never before the last event: a system clock stepped back must not refuse play.
        self.time.now().max(self.table.game().now())
    }

    /// The wire state at `now`.
    fn state(&self, now: Timestamp) -> v1::MatchState {
        let table = &self.table;
        let cx = StateContext {
            info: table.info(),
            commitment: &self.commitment,
            seq: table.len(),
            head: table.head(),
            now,
            anomalies: table.anomalies(),
            devices: &self.devices,
            dice: table.dice(),
        };
        wire::match_state(table.game(), &cx)
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Execute {
                request,
                request_id,
                expected_seq,
                reply,
            } => {
                let _ = reply.send(self.execute(request, request_id, expected_seq).await);
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
            Msg::DeviceInput { input, reply } => {
                let _ = reply.send(self.device_input(input).await);
            }
            Msg::Presence { device, connected } => {
                // Not an event of the match: nothing is logged, followers get a new state.
                self.devices.insert(device, connected);
                let state = self.state(self.now());
                self.summarise(&state);
                let _ = self.updates.send(Arc::new(v1::MatchUpdate {
                    events: vec![],
                    state: Some(state),
                }));
            }
        }
    }

    /// Puts `state` on the tournament feed, encoded once for all its followers (if any).
    fn summarise(&self, state: &v1::MatchState) {
        if self.summaries.receiver_count() > 0 {
            let _ = self.summaries.send(FeedItem::State(Summary::encode(state)));
        }
    }

    async fn execute(
        &mut self,
        request: Request,
        request_id: String,
        expected_seq: Option<u64>,
    ) -> Result<v1::ExecuteReply, Error> {
        if let Some((_, reply)) = self
            .replies
            .iter()
            .find(|(id, _)| !request_id.is_empty() && *id == request_id)
        {
            return Ok(reply.clone());
        }
        if let Some(expected) = expected_seq.filter(|e| *e != self.table.len()) {
            return Err(Error::Stale(format!(
                "the match log has {} events, not the expected {expected}: reload the state and retry",
                self.table.len()
            )));
        }
        let second = self.time.now().as_ms().div_euclid(1_000);
        if self.window.0 != second {
            self.window = (second, 0);
        }
        if self.window.1 >= COMMANDS_PER_SECOND {
            return Err(Error::RateLimited(format!(
                "more than {COMMANDS_PER_SECOND} commands per second for one match"
            )));
        }
        self.window.1 += 1;
        let update = self.commit(&request).await?;
        let reply = v1::ExecuteReply {
            events: update.events.clone(),
            state: update.state.clone(),
        };
        if !request_id.is_empty() {
            if self.replies.len() == REMEMBERED_REPLIES {
                self.replies.pop_front();
            }
            self.replies.push_back((request_id, reply.clone()));
        }
        Ok(reply)
    }

    /// Plans, stores durably, then applies and announces. Returns the update announced:
    /// the events added and the state after them.
    async fn commit(&mut self, request: &Request) -> Result<Arc<v1::MatchUpdate>, Error> {
        let now = self.now();
        let plan = self.table.plan(request, now)?;
        self.append(plan).await
    }

    /// Stores the plan's records durably, then makes its table the state and announces
    /// the update (built once: the reply, the watchers and the feed share it).
    async fn append(&mut self, plan: Plan) -> Result<Arc<v1::MatchUpdate>, Error> {
        let Plan { table, records } = plan;
        if records.is_empty() {
            return Ok(Arc::new(v1::MatchUpdate {
                events: Vec::new(),
                state: Some(self.state(self.now())),
            }));
        }
        let lines = records
            .iter()
            .map(|r| record_line(r).into_bytes())
            .collect();
        match self
            .store
            .append(&stream(&self.table.info().id), self.table.len(), lines)
            .await
        {
            Ok(_) => {}
            Err(StoreError::Conflict { expected, actual }) => {
                return Err(Error::Internal(format!(
                    "the match log moved under us ({actual}, expected {expected})"
                )));
            }
            Err(e) => {
                return Err(Error::Unavailable(format!(
                    "the event could not be stored: {e}"
                )));
            }
        }
        self.table = table;
        let state = self.state(self.now());
        self.summarise(&state);
        let update = Arc::new(v1::MatchUpdate {
            events: records.iter().map(wire::event).collect(),
            state: Some(state),
        });
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
                if let Err(e) = self.append(*plan).await {
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
        self.commit(&Request::Reveal).await?;
        let seed = self
            .table
            .dice()
            .server_seed()
            .expect("the server holds its seeds");
        Ok(hex::encode(seed.as_bytes()))
    }
}
