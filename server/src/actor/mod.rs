//! One task per live match (design principle 4). The actor owns the match's state and
//! applies commands in order: decode → draw server dice (on a copy) → the engine's
//! events → audit records chained to the log → durable append → only then the new state,
//! the reply and the broadcast to watchers. A refused command, or a failed append, leaves
//! everything as it was — the dice stream included. Timers come from the engine's
//! `next_due`; when one fires the actor sends itself a `Tick`.

use std::collections::VecDeque;
use std::sync::Arc;

mod engine;
mod log;
mod recovery;

pub use engine::Engine;
pub use log::{MatchLog, Setup};
pub use recovery::{Recovery, recover_in_background};

use baffle_core::audit::export::record_line;
use baffle_core::audit::{Entry, Record};
use baffle_core::device_time::charge_instant;
use baffle_core::{Side, Timestamp};
use baffle_proto::v1;
use tokio::sync::{broadcast, mpsc, oneshot};
use tonic::Status;

use crate::services::feed::{FeedItem, Summary};
use crate::store::{EventStore, StoreError};
use crate::time::TimeSource;
use crate::wire::{self, MatchInfo, Planned, Rules};

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
        planned: Planned,
        request_id: String,
        expected_seq: Option<u64>,
        reply: oneshot::Sender<Result<v1::ExecuteReply, Status>>,
    },
    Seed {
        side: Side,
        seed: Vec<u8>,
        reply: oneshot::Sender<Result<u64, Status>>,
    },
    Reveal {
        reply: oneshot::Sender<Result<String, Status>>,
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

/// Most credit a device's timestamp can give a player against the server's receipt: a
/// press claimed earlier than this before it arrived is charged as this much earlier.
pub const MAX_LAG_CREDIT: baffle_core::Millis = baffle_core::Millis::secs(2);

/// An input from a device, decoded and timed by the connection that received it.
pub struct DeviceInput {
    /// The device.
    pub device: String,
    /// Its sequence number.
    pub seq: u64,
    /// Its own time for it, in ms on its clock.
    pub device_ms: i64,
    /// That time on the server's clock, if the device's clock is known.
    pub claimed: Option<Timestamp>,
    /// When the server received it.
    pub receipt: Timestamp,
    /// The command, or why it is malformed.
    pub planned: Result<Planned, String>,
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

fn gone() -> Status {
    Status::unavailable("the match is shutting down")
}

impl MatchHandle {
    async fn ask<R>(&self, msg: impl FnOnce(oneshot::Sender<R>) -> Msg) -> Result<R, Status> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(Box::new(msg(reply)))
            .await
            .map_err(|_| self.gone())?;
        answer.await.map_err(|_| self.gone())
    }

    /// Why the actor is not answering: its log failed recovery, or it is shutting down.
    fn gone(&self) -> Status {
        match self.failed.get() {
            Some(why) => Status::data_loss(format!(
                "match {} is unavailable: its log did not check out on start: {why}",
                self.info.id
            )),
            None => gone(),
        }
    }

    /// Applies a decoded command.
    pub async fn execute(
        &self,
        planned: Planned,
        request_id: String,
        expected_seq: Option<u64>,
    ) -> Result<v1::ExecuteReply, Status> {
        self.ask(|reply| Msg::Execute {
            planned,
            request_id,
            expected_seq,
            reply,
        })
        .await?
    }

    /// Records a player's seed.
    pub async fn add_seed(&self, side: Side, seed: Vec<u8>) -> Result<u64, Status> {
        self.ask(|reply| Msg::Seed { side, seed, reply }).await?
    }

    /// Reveals the server seed (after the match).
    pub async fn reveal(&self) -> Result<String, Status> {
        self.ask(|reply| Msg::Reveal { reply }).await?
    }

    /// The current state and a receiver of every later update.
    pub async fn subscribe(
        &self,
    ) -> Result<(v1::MatchState, broadcast::Receiver<Arc<v1::MatchUpdate>>), Status> {
        self.ask(|reply| Msg::Subscribe { reply }).await
    }

    /// Applies a device's input exactly once, in order, timed by the device (principle 5).
    pub async fn device_input(&self, input: DeviceInput) -> Result<v1::Ack, Status> {
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
    pub async fn state(&self) -> Result<v1::MatchState, Status> {
        self.ask(|reply| Msg::State { reply }).await
    }

    /// The current state for a listing: `None` for a match whose log did not check out
    /// on start — it answers DATA_LOSS itself, and a listing goes on without it.
    pub async fn listed_state(&self) -> Result<Option<v1::MatchState>, Status> {
        match self.state().await {
            Ok(state) => Ok(Some(state)),
            Err(e) if e.code() == tonic::Code::DataLoss => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Why the match cannot be used, if its log did not check out on start.
    pub fn unavailable(&self) -> Option<Status> {
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
    log: MatchLog,
    store: S,
    time: T,
    updates: broadcast::Sender<Arc<v1::MatchUpdate>>,
    summaries: broadcast::Sender<FeedItem>,
    replies: VecDeque<(String, v1::ExecuteReply)>,
    window: (i64, u32),
}

impl<S: EventStore, T: TimeSource> MatchActor<S, T> {
    /// Starts the actor for `log` and returns its handle. `summaries` receives the state
    /// after every change (the tournament feed).
    pub fn spawn(
        log: MatchLog,
        store: S,
        time: T,
        summaries: broadcast::Sender<FeedItem>,
    ) -> MatchHandle {
        let (tx, rx) = mpsc::channel(256);
        let handle = MatchHandle {
            tx,
            info: log.info.clone(),
            rules: log.m.rules(),
            failed: Default::default(),
        };
        tokio::spawn(MatchActor::new(log, store, time, summaries).run(rx));
        handle
    }

    fn new(
        log: MatchLog,
        store: S,
        time: T,
        summaries: broadcast::Sender<FeedItem>,
    ) -> MatchActor<S, T> {
        MatchActor {
            log,
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
            let due = self.log.m.next_due();
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
                                // Boxed: the future of a command in flight (a planned copy
                                // of the match, the store's append) is large, and a task
                                // keeps room for its largest state while it waits for
                                // the next message — per live match.
                                Some(msg) => Box::pin(self.handle(*msg)).await,
                                None => return,
                            },
                            () = timer => {
            if let Err(e) = Box::pin(self.commit(&Planned::Tick)).await {
                                    tracing::warn!(match_id = %self.log.info.id, error = %e.message(), "a due event could not be stored; retrying in a second");
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
        self.time.now().max(self.log.m.now())
    }

    async fn handle(&mut self, msg: Msg) {
        match msg {
            Msg::Execute {
                planned,
                request_id,
                expected_seq,
                reply,
            } => {
                let _ = reply.send(self.execute(planned, request_id, expected_seq).await);
            }
            Msg::Seed { side, seed, reply } => {
                let _ = reply.send(self.seed(side, seed).await);
            }
            Msg::Reveal { reply } => {
                let _ = reply.send(self.reveal().await);
            }
            Msg::Subscribe { reply } => {
                let _ = reply.send((self.log.state(self.now()), self.updates.subscribe()));
            }
            Msg::State { reply } => {
                let _ = reply.send(self.log.state(self.now()));
            }
            Msg::DeviceInput { input, reply } => {
                let _ = reply.send(self.device_input(input).await);
            }
            Msg::Presence { device, connected } => {
                // Not an event of the match: nothing is logged, followers get a new state.
                self.log.devices.insert(device, connected);
                let state = self.log.state(self.now());
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
        planned: Planned,
        request_id: String,
        expected_seq: Option<u64>,
    ) -> Result<v1::ExecuteReply, Status> {
        if let Some((_, reply)) = self
            .replies
            .iter()
            .find(|(id, _)| !request_id.is_empty() && *id == request_id)
        {
            return Ok(reply.clone());
        }
        if let Some(expected) = expected_seq.filter(|e| *e != self.log.seq()) {
            return Err(Status::aborted(format!(
                "the match log has {} events, not the expected {expected}: reload the state and retry",
                self.log.seq()
            )));
        }
        let second = self.time.now().as_ms().div_euclid(1_000);
        if self.window.0 != second {
            self.window = (second, 0);
        }
        if self.window.1 >= COMMANDS_PER_SECOND {
            return Err(Status::resource_exhausted(format!(
                "more than {COMMANDS_PER_SECOND} commands per second for one match"
            )));
        }
        self.window.1 += 1;
        let update = self.commit(&planned).await?;
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
    async fn commit(&mut self, planned: &Planned) -> Result<Arc<v1::MatchUpdate>, Status> {
        let now = self.now();
        let (next, bodies) = self.log.plan(planned, now)?;
        self.append(next, bodies).await
    }

    /// Chains `bodies` to the log, stores them durably, then makes `next` the state and
    /// announces the update (built once: the reply, the watchers and the feed share it).
    async fn append(
        &mut self,
        mut next: MatchLog,
        bodies: Vec<String>,
    ) -> Result<Arc<v1::MatchUpdate>, Status> {
        if bodies.is_empty() {
            return Ok(Arc::new(v1::MatchUpdate {
                events: Vec::new(),
                state: Some(self.log.state(self.now())),
            }));
        }
        let mut records: Vec<Record> = Vec::with_capacity(bodies.len());
        for body in bodies {
            let record = Record::next(records.last().or(self.log.last.as_ref()), body);
            records.push(record);
        }
        let lines = records
            .iter()
            .map(|r| record_line(r).into_bytes())
            .collect();
        match self
            .store
            .append(&stream(&self.log.info.id), self.log.seq(), lines)
            .await
        {
            Ok(_) => {}
            Err(StoreError::Conflict { expected, actual }) => {
                return Err(Status::internal(format!(
                    "the match log moved under us ({actual}, expected {expected})"
                )));
            }
            Err(e) => {
                return Err(Status::unavailable(format!(
                    "the event could not be stored: {e}"
                )));
            }
        }
        next.last = records.last().cloned();
        self.log = next;
        let state = self.log.state(self.now());
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
        let last = self
            .log
            .device_seqs
            .get(&input.device)
            .copied()
            .unwrap_or(0);
        let refused = |error: String| v1::Ack {
            seq,
            error,
            ..Default::default()
        };
        let resend = |from: u64, error: String| v1::Ack {
            resend_from: from,
            ..refused(error)
        };
        if seq <= last {
            return v1::Ack {
                seq,
                duplicate: true,
                ..Default::default()
            };
        }
        if seq != last + 1 {
            return resend(
                last + 1,
                format!(
                    "out of order: the next input from this device is seq {}",
                    last + 1
                ),
            );
        }
        let charge = charge_instant(
            input.claimed,
            self.log.m.now(),
            input.receipt,
            MAX_LAG_CREDIT,
        );
        let record = |outcome: &str| {
            serde_json::json!({
                "kind": "device.input", "device": input.device, "seq": seq, "device_ms": input.device_ms,
                "claimed_at": input.claimed.map(Timestamp::as_ms), "receipt": input.receipt.as_ms(),
                "charged_at": charge.at.as_ms(), "credit_ms": charge.credit.as_ms(),
                "bound": format!("{:?}", charge.bound).to_lowercase(), "outcome": outcome,
            })
            .to_string()
        };
        let plan = match &input.planned {
            Ok(planned) => self
                .log
                .plan(planned, charge.at)
                .map_err(|s| s.message().to_string()),
            Err(malformed) => Err(malformed.clone()),
        };
        let (mut next, bodies, error) = match plan {
            Ok((next, bodies)) => (next, [vec![record("applied")], bodies].concat(), None),
            // Refused inputs are recorded too, so that a replay of them stays without effect.
            Err(e) => (
                self.log.clone(),
                vec![record(&format!("refused: {e}"))],
                Some(e),
            ),
        };
        next.device_seqs.insert(input.device.clone(), seq);
        if let Err(e) = self.append(next, bodies).await {
            return resend(seq, format!("not stored, send it again: {}", e.message()));
        }
        match error {
            Some(e) => refused(e),
            None => v1::Ack {
                seq,
                applied: true,
                charged_at_ms: charge.at.as_ms(),
                ..Default::default()
            },
        }
    }

    async fn seed(&mut self, side: Side, seed: Vec<u8>) -> Result<u64, Status> {
        let mut next = self.log.clone();
        next.dice
            .add_player_seed(side, &seed)
            .map_err(|e| Status::failed_precondition(e.to_string()))?;
        let body = Entry::PlayerSeed {
            side: side.to_string(),
            seed: hex::encode(&seed),
        }
        .body();
        self.append(next, vec![body]).await?;
        Ok(self.log.seq())
    }

    async fn reveal(&mut self) -> Result<String, Status> {
        if !self.log.m.is_over() {
            return Err(Status::failed_precondition(
                "the server seed is revealed only after the match",
            ));
        }
        let mut next = self.log.clone();
        let seed = hex::encode(next.dice.reveal().as_bytes());
        if !self.log.revealed {
            next.revealed = true;
            self.append(
                next,
                vec![
                    Entry::Reveal {
                        server_seed: seed.clone(),
                    }
                    .body(),
                ],
            )
            .await?;
        }
        Ok(seed)
    }
}
