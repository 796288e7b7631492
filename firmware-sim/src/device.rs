//! One simulated clock device speaking the device protocol (docs/device-protocol.md).
//!
//! A device is two halves, as in real firmware: the *player side* ([`Device`]) stamps
//! each button press with the device clock the moment it happens and hands it over; the
//! *link side* (a task running `Firmware`) owns the connection. It says hello, syncs the
//! clock every `sync_every` whatever else happens, numbers the inputs, sends them, keeps
//! every one until its ack arrives, and when the connection is lost — by the simulated
//! link's loss or drops, or on purpose — reconnects with backoff and replays what was not
//! acknowledged, in order. A press made while disconnected is stamped when made and sent
//! when the link is back: the player is charged the time the device measured.

use std::collections::VecDeque;
use std::time::Duration;

use baffle_core::device_time::TimeSync;
use baffle_i18n::Locale;
use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::server_message::Message;
use rand_core::SeedableRng;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Status};

use crate::clock::DeviceClock;
use crate::link::{Cut, LinkModel, carry};

pub use crate::error::DeviceError;

/// How a simulated device is set up.
#[derive(Clone, Debug)]
pub struct DeviceConfig {
    /// The server (a lazy channel: it connects, and reconnects, when used).
    pub channel: Channel,
    /// The device id the director registered.
    pub id: String,
    /// Its credential (`dev.<id>.<secret>`).
    pub credential: String,
    /// Its own clock.
    pub clock: DeviceClock,
    /// The simulated link to the server.
    pub link: LinkModel,
    /// How often it syncs its clock (the protocol recommends 100 ms).
    pub sync_every: Duration,
    /// Seed for the link's randomness.
    pub seed: u64,
    /// The nodes of a cluster to go round when the connection is lost (`servers.rs`);
    /// empty: only `channel`. A node naming another as the match's writer is followed.
    pub servers: Vec<String>,
    /// The language of its display, said in its hello (`v1::Hello.lang`): the server's
    /// `Display` lines come in it. None: the server's default (Greek).
    pub lang: Option<Locale>,
}

impl DeviceConfig {
    /// A device on a perfect link, its clock the system clock, syncing every 100 ms.
    pub fn new(channel: Channel, id: &str, credential: &str) -> DeviceConfig {
        DeviceConfig {
            channel,
            id: id.into(),
            credential: credential.into(),
            clock: DeviceClock::from_system(0, 0),
            link: LinkModel::perfect(),
            sync_every: Duration::from_millis(100),
            seed: 1,
            servers: Vec::new(),
            lang: None,
        }
    }

    /// [`DeviceConfig::new`] for the server at `url` (connecting when first used), or
    /// the servers of a list (`a,b,c`), the first first.
    pub fn for_url(url: &str, id: &str, credential: &str) -> Result<DeviceConfig, DeviceError> {
        let servers = crate::servers::list(url);
        let first = servers.first().cloned().unwrap_or_else(|| url.to_string());
        let channel = Endpoint::from_shared(first)?.connect_lazy();
        Ok(DeviceConfig {
            servers: if servers.len() > 1 {
                servers
            } else {
                Vec::new()
            },
            ..DeviceConfig::new(channel, id, credential)
        })
    }
}

/// What the device knows, as its display would show it.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// The bound match as last pushed by the server.
    pub state: v1::MatchState,
    /// The display text as last pushed.
    pub display: Vec<String>,
    /// Whether a connection is up (hello answered).
    pub connected: bool,
    /// Connections made so far.
    pub connections: u32,
    /// Inputs sent and not yet acknowledged.
    pub unacked: usize,
    /// Server time minus device time, by the device's own sync exchanges.
    pub offset_ms: Option<i64>,
    /// Why the device stopped for good (a refused credential, say).
    pub stopped: Option<String>,
}

/// An input and its acknowledgement.
#[derive(Clone, Debug)]
pub struct Acked {
    /// The server's ack.
    pub ack: v1::Ack,
    /// When the input happened, device clock.
    pub device_ms: i64,
    /// When it happened, as an instant of the simulation.
    pub stamped_at: Instant,
}

enum Request {
    Input {
        action: Action,
        device_ms: i64,
        stamped_at: Instant,
        reply: oneshot::Sender<Acked>,
    },
    Cut,
}

/// A running simulated device: the player's side.
pub struct Device {
    clock: DeviceClock,
    requests: mpsc::UnboundedSender<Request>,
    view: watch::Receiver<View>,
    task: JoinHandle<()>,
}

impl Device {
    /// Starts the device and waits until it is connected and has the match's state; a
    /// refused credential or an unbound device is an error.
    pub async fn connect(cfg: DeviceConfig) -> Result<Device, DeviceError> {
        let (requests, incoming) = mpsc::unbounded_channel();
        let (view_tx, view) = watch::channel(View::default());
        let clock = cfg.clock;
        let firmware = Firmware {
            channel: cfg.channel.clone(),
            rotation: crate::servers::Rotation::new(cfg.servers.clone()),
            cfg,
            view: view_tx,
            next_seq: 1,
            unacked: VecDeque::new(),
            sync: TimeSync::new(),
            sync_sent: None,
            report: None,
        };
        let task = tokio::spawn(firmware.run(incoming));
        let mut device = Device {
            clock,
            requests,
            view,
            task,
        };
        device.wait_for(|v| v.connected).await?;
        Ok(device)
    }

    /// What the device knows now.
    pub fn view(&self) -> View {
        self.view.borrow().clone()
    }

    /// The bound match as last pushed.
    pub fn state(&self) -> v1::MatchState {
        self.view.borrow().state.clone()
    }

    /// A receiver of every change of the view.
    pub fn watch(&self) -> watch::Receiver<View> {
        self.view.clone()
    }

    /// The device's clock.
    pub fn clock(&self) -> DeviceClock {
        self.clock
    }

    /// The server's time now as the device estimates it (its clock plus its offset).
    pub fn server_now_ms(&self) -> i64 {
        self.face().server_now_ms()
    }

    /// A handle for showing the device's face while it plays elsewhere.
    pub fn face(&self) -> DeviceFace {
        DeviceFace {
            clock: self.clock,
            view: self.view.clone(),
        }
    }

    /// Waits until the view satisfies `done`; fails if the device stops first.
    pub async fn wait_for(&mut self, done: impl Fn(&View) -> bool) -> Result<View, DeviceError> {
        let view = self
            .view
            .wait_for(|v| done(v) || v.stopped.is_some())
            .await
            .map_err(|_| "the device stopped")?
            .clone();
        match &view.stopped {
            Some(why) if !done(&view) => Err(why.clone().into()),
            _ => Ok(view),
        }
    }

    /// Presses a button now: the input is stamped with the device clock at once and
    /// handed to the link side, which sends it (now, or after a reconnect). The receiver
    /// gives its ack.
    pub fn send(&self, action: Action) -> Result<oneshot::Receiver<Acked>, DeviceError> {
        let (reply, acked) = oneshot::channel();
        let stamped_at = Instant::now();
        self.requests
            .send(Request::Input {
                action,
                device_ms: self.clock.at(stamped_at),
                stamped_at,
                reply,
            })
            .map_err(|_| self.stopped())?;
        Ok(acked)
    }

    fn stopped(&self) -> DeviceError {
        self.view
            .borrow()
            .stopped
            .clone()
            .unwrap_or_else(|| "the device stopped".into())
            .into()
    }

    /// Presses a button now and waits for its ack, then (if applied) for the state it
    /// caused.
    pub async fn act(&mut self, action: Action) -> Result<Acked, DeviceError> {
        let before = self.view.borrow().state.seq;
        let acked = self.send(action)?.await.map_err(|_| self.stopped())?;
        if acked.ack.applied {
            tokio::time::timeout(
                Duration::from_secs(10),
                self.wait_for(|v| v.state.seq > before),
            )
            .await
            .map_err(|_| "no state after an applied input")??;
        }
        Ok(acked)
    }

    /// Starts play at the table: checks both players in and rolls the opening with the
    /// server's dice. Returns the side that moves first (the opening roll's winner).
    pub async fn begin_match(&mut self) -> Result<i32, DeviceError> {
        for side in [v1::Side::A, v1::Side::B] {
            self.act(Action::CheckIn(side as i32)).await?;
        }
        let opening = Action::OpeningRoll(v1::Roll {
            side: 0,
            dice: vec![],
            link: Vec::new(),
        });
        let acked = self.act(opening).await?;
        if !acked.ack.applied {
            return Err(format!("the opening roll was refused: {}", acked.ack.error).into());
        }
        Ok(self.state().turn_side)
    }

    /// Drops the connection now, as a pulled cable would; the device reconnects by itself
    /// and replays what was not acknowledged.
    pub fn cut(&self) {
        let _ = self.requests.send(Request::Cut);
    }

    /// Stops the device.
    pub async fn close(self) {
        drop(self.requests);
        let _ = self.task.await;
    }
}

/// What a display needs of a device: its view and its clock.
#[derive(Clone, Debug)]
pub struct DeviceFace {
    clock: DeviceClock,
    view: watch::Receiver<View>,
}

impl DeviceFace {
    /// What the device knows now.
    pub fn view(&self) -> View {
        self.view.borrow().clone()
    }

    /// The server's time now as the device estimates it.
    pub fn server_now_ms(&self) -> i64 {
        self.clock.now_ms() + self.view.borrow().offset_ms.unwrap_or(0)
    }
}

/// An input sent and not yet acknowledged.
struct Pending {
    input: v1::Input,
    stamped_at: Instant,
    reply: Option<oneshot::Sender<Acked>>,
}

/// How a connection ended.
enum Ended {
    /// The device was closed.
    Closed,
    /// Lost: reconnect.
    Lost,
    /// Refused for good.
    Refused(Status),
    /// Sent to the node that writes the match, at this URL.
    Moved(String),
}

/// A connection ended by `status`: moved if it names the match's writer, else lost.
fn moved(status: &Status) -> Ended {
    crate::servers::owner(status).map_or(Ended::Lost, Ended::Moved)
}

/// What the server sends, as the device receives it.
type Inbound =
    std::pin::Pin<Box<dyn tokio_stream::Stream<Item = Result<v1::ServerMessage, Status>> + Send>>;

/// One connection's two directions, each through the simulated link (if any).
struct Connection {
    out: mpsc::Sender<v1::DeviceMessage>,
    inbound: Inbound,
    cut: Cut,
}

fn message(m: v1::device_message::Message) -> v1::DeviceMessage {
    v1::DeviceMessage { message: Some(m) }
}

/// Refusals that another try would not change.
fn is_final(status: &Status) -> bool {
    matches!(
        status.code(),
        Code::Unauthenticated
            | Code::PermissionDenied
            | Code::FailedPrecondition
            | Code::InvalidArgument
            | Code::NotFound
    )
}

/// The link side of a device: connection, sync, sequencing, replay.
struct Firmware {
    cfg: DeviceConfig,
    /// The server talked to now.
    channel: Channel,
    /// The others, to go round.
    rotation: crate::servers::Rotation,
    view: watch::Sender<View>,
    next_seq: u64,
    unacked: VecDeque<Pending>,
    sync: TimeSync,
    /// The exchange in flight: its `t0`.
    sync_sent: Option<i64>,
    /// The last exchange, to report with the next request.
    report: Option<v1::SyncReport>,
}

impl Firmware {
    async fn run(mut self, mut requests: mpsc::UnboundedReceiver<Request>) {
        let mut backoff = Duration::from_millis(50);
        let mut attempt = 0u64;
        loop {
            attempt += 1;
            let ended = match tokio::time::timeout(self.hello_wait(), self.open(attempt)).await {
                Ok(Ok(mut conn)) => {
                    let ended = self.session(&mut conn, &mut requests).await;
                    conn.cut.cut();
                    ended
                }
                Ok(Err(status)) if is_final(&status) => Ended::Refused(status),
                Ok(Err(status)) => moved(&status),
                Err(_) => Ended::Lost,
            };
            // A connection that got as far as the match's state resets the backoff.
            if self.view.borrow().connected {
                backoff = Duration::from_millis(50);
            }
            self.view.send_modify(|v| v.connected = false);
            match ended {
                Ended::Closed => return,
                // Straight to the node that writes the match.
                Ended::Moved(url) => {
                    if let Some(channel) = crate::servers::lazy(&url) {
                        self.channel = channel;
                    }
                }
                Ended::Refused(status) => {
                    self.view.send_modify(|v| {
                        v.stopped = Some(format!("refused: {}", status.message()));
                    });
                    return;
                }
                Ended::Lost => {
                    if let Some(channel) = self.rotation.advance() {
                        self.channel = channel;
                    }
                    // Keep taking presses while waiting to reconnect: they are stamped
                    // already, and wait in the replay buffer.
                    let wait = tokio::time::sleep(backoff);
                    tokio::pin!(wait);
                    loop {
                        tokio::select! {
                            () = &mut wait => break,
                            r = requests.recv() => match r {
                                None => return,
                                Some(r) => self.take(r, None).await,
                            },
                        }
                    }
                    backoff = self.rotation.next_backoff(backoff);
                }
            }
        }
    }

    /// How long the device waits for a server to answer it — the stream's head, the
    /// hello, the sync before a replay — before it takes the connection as lost.
    fn hello_wait(&self) -> Duration {
        match self.rotation.len() > 1 {
            true => crate::servers::CLUSTER_HELLO_WAIT,
            false => HELLO_WAIT,
        }
    }

    /// How long a connection may bring nothing before it is taken as lost: ten sync
    /// periods, at least [`SILENCE_LIMIT`].
    fn silence_limit(&self) -> Duration {
        self.cfg
            .sync_every
            .saturating_mul(MISSED_SYNC_ANSWERS)
            .max(SILENCE_LIMIT)
    }

    async fn open(&self, attempt: u64) -> Result<Connection, Status> {
        let (out, to_link) = mpsc::channel(256);
        let hello = v1::Hello {
            device_id: self.cfg.id.clone(),
            credential: self.cfg.credential.clone(),
            firmware: concat!("baffle-device ", env!("CARGO_PKG_VERSION")).into(),
            lang: self.cfg.lang.map_or("", Locale::tag).into(),
        };
        out.send(message(v1::device_message::Message::Hello(hello)))
            .await
            .map_err(|_| Status::cancelled("closed"))?;
        let cut = Cut::default();
        if self.cfg.link == LinkModel::perfect() {
            // No simulated link: the device's messages go straight onto the stream.
            let response = DevicesClient::new(self.channel.clone())
                .connect(ReceiverStream::new(to_link))
                .await?;
            let inbound: Inbound = Box::pin(response.into_inner());
            return Ok(Connection { out, inbound, cut });
        }
        let seed = self.cfg.seed.wrapping_mul(1_000_003).wrapping_add(attempt);
        let to_server = carry(
            ReceiverStream::new(to_link),
            self.cfg.link,
            seed,
            cut.clone(),
        );
        let response = DevicesClient::new(self.channel.clone())
            .connect(ReceiverStream::new(to_server))
            .await?;
        let inbound: Inbound = Box::pin(ReceiverStream::new(carry(
            response.into_inner(),
            self.cfg.link.without_faults(),
            seed ^ 0x5eed,
            cut.clone(),
        )));
        Ok(Connection { out, inbound, cut })
    }

    /// One connection, from the hello's answer to its end.
    async fn session(
        &mut self,
        conn: &mut Connection,
        requests: &mut mpsc::UnboundedReceiver<Request>,
    ) -> Ended {
        if let Some(ended) = self.await_hello(conn).await {
            return ended;
        }
        self.sync_sent = None;
        self.view.send_modify(|v| {
            v.connected = true;
            v.connections += 1;
        });
        if let Err(ended) = self.replay_offline(conn).await {
            return ended;
        }
        self.serve(conn, requests).await
    }

    /// The answer to the hello is the match's state (or a refusal); a server that does
    /// not answer in time is treated as a lost connection. `None`: answered.
    async fn await_hello(&mut self, conn: &mut Connection) -> Option<Ended> {
        let answered = tokio::time::timeout(self.hello_wait(), async {
            loop {
                match conn.inbound.next().await {
                    Some(Ok(m)) => {
                        let first = matches!(m.message, Some(Message::Update(_)));
                        if self.receive(conn, m).await.is_err() {
                            return Some(Ended::Lost);
                        }
                        if first {
                            return None;
                        }
                    }
                    Some(Err(status)) if is_final(&status) => {
                        return Some(Ended::Refused(status));
                    }
                    Some(Err(status)) => return Some(moved(&status)),
                    _ => return Some(Ended::Lost),
                }
            }
        })
        .await;
        answered.unwrap_or(Some(Ended::Lost))
    }

    /// Inputs made while offline are charged at their device times only if the server
    /// knows the device's clock first: one exchange, reported, before the replay (the
    /// server may be another node than before, knowing nothing of this device).
    async fn replay_offline(&mut self, conn: &mut Connection) -> Result<(), Ended> {
        if !self.unacked.is_empty() {
            match tokio::time::timeout(self.hello_wait(), self.sync_once(conn)).await {
                Ok(Ok(())) => {}
                Ok(Err(ended)) => return Err(ended),
                Err(_) => return Err(Ended::Lost),
            }
        }
        let replay: Vec<v1::Input> = self.unacked.iter().map(|p| p.input.clone()).collect();
        for input in replay {
            if self.send_input(conn, input).await.is_err() {
                return Err(Ended::Lost);
            }
        }
        Ok(())
    }

    /// The connection in use: syncs on the period, the owner's requests, the server's
    /// messages, until the link drops, the server falls silent or refuses, or the owner
    /// closes the device.
    async fn serve(
        &mut self,
        conn: &mut Connection,
        requests: &mut mpsc::UnboundedReceiver<Request>,
    ) -> Ended {
        let mut sync = tokio::time::interval(self.cfg.sync_every);
        sync.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(self.cfg.seed);
        let drop_at = self.cfg.link.next_drop(&mut rng);
        let dropped = async move {
            match drop_at {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(dropped);
        // A server that sends nothing for ten sync periods — not even the answers to the
        // syncs — is frozen or gone, even if its TCP still accepts (a stopped process):
        // the connection is lost, and the next node of the list tried.
        let silent_for = self.silence_limit();
        let silence = tokio::time::sleep(silent_for);
        tokio::pin!(silence);
        loop {
            let sent = tokio::select! {
                _ = sync.tick() => self.sync_if_free(conn).await,
                r = requests.recv() => match r {
                    None => return Ended::Closed,
                    Some(Request::Cut) => return Ended::Lost,
                    Some(r) => {
                        self.take(r, Some(conn)).await;
                        Ok(())
                    }
                },
                m = conn.inbound.next() => match m {
                    Some(Ok(m)) => {
                        silence.as_mut().reset(Instant::now() + silent_for);
                        self.receive(conn, m).await
                    }
                    Some(Err(status)) if is_final(&status) => return Ended::Refused(status),
                    Some(Err(status)) => return moved(&status),
                    _ => return Ended::Lost,
                },
                () = &mut silence => return Ended::Lost,
                () = &mut dropped => return Ended::Lost,
                () = conn.cut.happened() => return Ended::Lost,
            };
            if sent.is_err() {
                return Ended::Lost;
            }
        }
    }

    /// A sync request, unless one is still awaited: one exchange at a time, since a
    /// request queued behind another on the stream would carry the first one's delay,
    /// and only exchanges that met no queue bound the offset tightly.
    async fn sync_if_free(&mut self, conn: &mut Connection) -> Result<(), ()> {
        let t0 = self.cfg.clock.now_ms();
        if self.sync_sent.is_some_and(|sent| t0 - sent < SYNC_WAIT_MS) {
            return Ok(());
        }
        self.sync_sent = Some(t0);
        let request = v1::SyncRequest {
            device_ms: t0,
            previous: self.report.take(),
        };
        conn.out
            .send(message(v1::device_message::Message::Sync(request)))
            .await
            .map_err(|_| ())
    }

    /// One time-sync exchange, waited for, then reported to the server with a second
    /// request (whose answer the session takes as any other).
    async fn sync_once(&mut self, conn: &mut Connection) -> Result<(), Ended> {
        let t0 = self.cfg.clock.now_ms();
        let request = v1::SyncRequest {
            device_ms: t0,
            previous: self.report.take(),
        };
        let send = |conn: &mut Connection, request| {
            let out = conn.out.clone();
            async move {
                out.send(message(v1::device_message::Message::Sync(request)))
                    .await
                    .map_err(|_| Ended::Lost)
            }
        };
        send(conn, request).await?;
        while self.report.as_ref().is_none_or(|r| r.t0 != t0) {
            match conn.inbound.next().await {
                Some(Ok(m)) => self.receive(conn, m).await.map_err(|()| Ended::Lost)?,
                Some(Err(status)) if is_final(&status) => return Err(Ended::Refused(status)),
                Some(Err(status)) => return Err(moved(&status)),
                None => return Err(Ended::Lost),
            }
        }
        let t0 = self.cfg.clock.now_ms();
        self.sync_sent = Some(t0);
        let request = v1::SyncRequest {
            device_ms: t0,
            previous: self.report.take(),
        };
        send(conn, request).await
    }

    /// Numbers a new input, keeps it for replay, and sends it if connected.
    async fn take(&mut self, request: Request, conn: Option<&mut Connection>) {
        let Request::Input {
            action,
            device_ms,
            stamped_at,
            reply,
        } = request
        else {
            return;
        };
        let input = v1::Input {
            seq: self.next_seq,
            device_ms,
            command: Some(v1::Command {
                action: Some(action),
            }),
        };
        self.next_seq += 1;
        self.unacked.push_back(Pending {
            input: input.clone(),
            stamped_at,
            reply: Some(reply),
        });
        self.view.send_modify(|v| v.unacked = self.unacked.len());
        if let Some(conn) = conn {
            // A failed send is found by the session loop: the link is cut.
            let _ = self.send_input(conn, input).await;
        }
    }

    async fn send_input(&self, conn: &mut Connection, input: v1::Input) -> Result<(), ()> {
        conn.out
            .send(message(v1::device_message::Message::Input(input)))
            .await
            .map_err(|_| ())
    }

    /// Handles one message from the server.
    async fn receive(&mut self, conn: &mut Connection, m: v1::ServerMessage) -> Result<(), ()> {
        match m.message {
            Some(Message::Update(u)) => {
                if let Some(s) = u.state {
                    self.view.send_modify(|v| v.state = s);
                }
            }
            Some(Message::Display(d)) => self.view.send_modify(|v| v.display = d.lines),
            Some(Message::Sync(r)) => {
                self.sync_sent = None;
                let report = v1::SyncReport {
                    t0: r.device_ms,
                    t1: r.server_receive_ms,
                    t2: r.server_send_ms,
                    t3: self.cfg.clock.now_ms(),
                };
                if self
                    .sync
                    .add(report.t0, report.t1, report.t2, report.t3)
                    .is_ok()
                {
                    let offset = self.sync.offset();
                    self.view.send_modify(|v| v.offset_ms = offset);
                }
                // Reported with the next request.
                self.report = Some(report);
            }
            Some(Message::Ack(ack)) if ack.resend_from != 0 => {
                // Out of order (or not stored): send again from there, in order.
                let again: Vec<v1::Input> = self
                    .unacked
                    .iter()
                    .filter(|p| p.input.seq >= ack.resend_from)
                    .map(|p| p.input.clone())
                    .collect();
                for input in again {
                    self.send_input(conn, input).await?;
                }
            }
            Some(Message::Ack(ack)) => {
                if let Some(i) = self.unacked.iter().position(|p| p.input.seq == ack.seq) {
                    let pending = self.unacked.remove(i).expect("position is in range");
                    self.view.send_modify(|v| v.unacked = self.unacked.len());
                    if let Some(reply) = pending.reply {
                        let _ = reply.send(Acked {
                            ack,
                            device_ms: pending.input.device_ms,
                            stamped_at: pending.stamped_at,
                        });
                    }
                }
            }
            None => {}
        }
        Ok(())
    }
}

const SYNC_WAIT_MS: i64 = 150;

/// How long a device with one server waits for its hello to be answered before it tries
/// again: there is nowhere else to go, and a server busy (restarting, reading a long
/// log) may take a while.
const HELLO_WAIT: Duration = Duration::from_secs(10);

/// How many sync answers in a row may be missing before the connection is taken as lost.
pub const MISSED_SYNC_ANSWERS: u32 = 10;

/// The shortest a connection may bring nothing from the server before it is taken as
/// lost: [`MISSED_SYNC_ANSWERS`] answers to the syncs a device sends every 100 ms (the
/// protocol's recommendation; a healthy server answers each within milliseconds). A
/// device syncing less often waits ten of its sync periods. Past it the device goes to the next node of its list (or
/// reconnects to its one server) after the backoff, syncs, and replays — so that a
/// frozen node costs its players about this long, not the whole freeze, and the
/// inputs made meanwhile reach the new writer within the lease, charged at their device
/// times.
pub const SILENCE_LIMIT: Duration = Duration::from_secs(1);
