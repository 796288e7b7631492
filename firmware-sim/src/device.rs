//! One simulated clock device speaking the device protocol (docs/device-protocol.md):
//! hello, time sync, sequenced inputs stamped with its own clock, acknowledgements, and
//! after a lost connection a new hello and the replay of every input not yet acknowledged.

use std::collections::VecDeque;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use baffle_proto::v1;
use baffle_proto::v1::command::Action;
use baffle_proto::v1::devices_client::DevicesClient;
use baffle_proto::v1::server_message::Message;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Streaming;
use tonic::transport::Endpoint;

/// Why the device stopped.
pub type DeviceError = Box<dyn std::error::Error + Send + Sync>;

/// The device's own monotonic clock: the system clock shifted by `offset_ms` and running
/// `drift_ppm` fast (a real device's crystal is never exact).
#[derive(Clone, Copy, Debug, Default)]
pub struct DeviceClock {
    /// Device time minus system time at the Unix epoch, ms.
    pub offset_ms: i64,
    /// Parts per million the device clock runs fast (negative: slow).
    pub drift_ppm: i64,
}

impl DeviceClock {
    /// The device's time now, in ms.
    pub fn now_ms(&self) -> i64 {
        let system = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        system + self.offset_ms + system % 1_000_000_000 * self.drift_ppm / 1_000_000
    }
}

/// A connected device.
pub struct Device {
    id: String,
    credential: String,
    server: String,
    clock: DeviceClock,
    out: mpsc::Sender<v1::DeviceMessage>,
    inbound: Streaming<v1::ServerMessage>,
    next_seq: u64,
    unacked: VecDeque<v1::Input>,
    /// The bound match as last pushed by the server.
    pub state: v1::MatchState,
    /// The display text as last pushed.
    pub display: Vec<String>,
}

fn msg(m: v1::device_message::Message) -> v1::DeviceMessage {
    v1::DeviceMessage { message: Some(m) }
}

impl Device {
    /// Connects, says hello, syncs its clock and waits for the match's state.
    pub async fn connect(
        server: &str,
        id: &str,
        credential: &str,
        clock: DeviceClock,
    ) -> Result<Device, DeviceError> {
        let (out, inbound) = Device::open(server, id, credential).await?;
        let mut device = Device {
            id: id.into(),
            credential: credential.into(),
            server: server.into(),
            clock,
            out,
            inbound,
            next_seq: 1,
            unacked: VecDeque::new(),
            state: v1::MatchState::default(),
            display: Vec::new(),
        };
        device.wait_update().await?;
        for _ in 0..3 {
            device.sync().await?;
        }
        Ok(device)
    }

    async fn open(
        server: &str,
        id: &str,
        credential: &str,
    ) -> Result<
        (
            mpsc::Sender<v1::DeviceMessage>,
            Streaming<v1::ServerMessage>,
        ),
        DeviceError,
    > {
        let channel = Endpoint::from_shared(server.to_string())?.connect().await?;
        let (out, rx) = mpsc::channel(64);
        let hello = v1::Hello {
            device_id: id.into(),
            credential: credential.into(),
            firmware: concat!("baffle-device ", env!("CARGO_PKG_VERSION")).into(),
        };
        out.send(msg(v1::device_message::Message::Hello(hello)))
            .await?;
        let inbound = DevicesClient::new(channel)
            .connect(ReceiverStream::new(rx))
            .await?
            .into_inner();
        Ok((out, inbound))
    }

    /// After a lost connection: a new hello, a sync, and every unacknowledged input again.
    pub async fn reconnect(&mut self) -> Result<(), DeviceError> {
        let (out, inbound) = Device::open(&self.server, &self.id, &self.credential).await?;
        self.out = out;
        self.inbound = inbound;
        self.wait_update().await?;
        self.sync().await?;
        let pending: Vec<_> = self.unacked.iter().cloned().collect();
        for input in pending {
            self.out
                .send(msg(v1::device_message::Message::Input(input.clone())))
                .await?;
            self.ack(input.seq).await?;
        }
        Ok(())
    }

    /// Reads until something that is not a state push arrives, keeping the state.
    async fn next_reply(&mut self) -> Result<Message, DeviceError> {
        loop {
            let message = self
                .inbound
                .next()
                .await
                .ok_or("the server closed the connection")??;
            match message.message {
                Some(Message::Update(u)) => {
                    if let Some(s) = u.state {
                        self.state = s;
                    }
                }
                Some(Message::Display(d)) => self.display = d.lines,
                Some(other) => return Ok(other),
                None => {}
            }
        }
    }

    async fn wait_update(&mut self) -> Result<(), DeviceError> {
        loop {
            let message = self
                .inbound
                .next()
                .await
                .ok_or("the server closed the connection")??;
            if let Some(Message::Update(u)) = message.message {
                if let Some(s) = u.state {
                    self.state = s;
                }
                return Ok(());
            }
        }
    }

    /// One NTP-style exchange.
    pub async fn sync(&mut self) -> Result<(), DeviceError> {
        let t0 = self.clock.now_ms();
        self.out
            .send(msg(v1::device_message::Message::Sync(v1::SyncRequest {
                device_ms: t0,
            })))
            .await?;
        let reply = loop {
            if let Message::Sync(r) = self.next_reply().await? {
                break r;
            }
        };
        let report = v1::SyncReport {
            t0,
            t1: reply.server_receive_ms,
            t2: reply.server_send_ms,
            t3: self.clock.now_ms(),
        };
        self.out
            .send(msg(v1::device_message::Message::Report(report)))
            .await?;
        Ok(())
    }

    async fn ack(&mut self, seq: u64) -> Result<v1::Ack, DeviceError> {
        loop {
            if let Message::Ack(ack) = self.next_reply().await?
                && ack.seq == seq
            {
                self.unacked.retain(|i| i.seq != seq);
                return Ok(ack);
            }
        }
    }

    /// Sends an action stamped now without waiting for its ack (it stays in the replay
    /// buffer until acknowledged). Returns its seq.
    pub async fn send(&mut self, action: Action) -> Result<u64, DeviceError> {
        let input = v1::Input {
            seq: self.next_seq,
            device_ms: self.clock.now_ms(),
            command: Some(v1::Command {
                action: Some(action),
            }),
        };
        self.next_seq += 1;
        self.unacked.push_back(input.clone());
        self.out
            .send(msg(v1::device_message::Message::Input(input.clone())))
            .await?;
        Ok(input.seq)
    }

    /// Inputs sent and not yet acknowledged.
    pub fn unacknowledged(&self) -> usize {
        self.unacked.len()
    }

    /// Sends an action stamped now and waits for its ack; then for the state it caused.
    pub async fn act(&mut self, action: Action) -> Result<v1::Ack, DeviceError> {
        let before = self.state.seq;
        let seq = self.send(action).await?;
        let ack = self.ack(seq).await?;
        if ack.applied {
            // Wait for the state the input caused (it may already be here).
            while self.state.seq == before {
                tokio::time::timeout(Duration::from_secs(5), self.wait_update())
                    .await
                    .map_err(|_| "no state after an applied input")??;
            }
        }
        Ok(ack)
    }
}
