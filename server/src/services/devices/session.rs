//! One device's live connection: the hello that opens it, then a loop that pushes the
//! match's updates (with the display's two lines) and answers the device — time syncs,
//! sync reports, and numbered inputs applied through the match's table.

use std::sync::Arc;

use baffle_core::device_time::TimeSync;
use baffle_i18n::{Catalogue, Locale};
use baffle_proto::v1;
use baffle_proto::v1::device_message::Message as FromDevice;
use baffle_proto::v1::server_message::Message as ToDevice;
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tonic::{Status, Streaming};

use super::display::display;
use crate::actor::{DeviceInput, MatchHandle};
use crate::auth;
use crate::error::Error;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::{decode, director_only};

/// How long a new device stream may take to say hello before the server ends it.
pub const HELLO_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The language a device's display speaks: its hello's `lang` (a BCP 47 tag), or the
/// server's default, Greek, for an empty tag or a language baffle does not speak — as
/// the phone page chooses for a browser (`baffle_i18n::negotiate`).
pub fn language(hello: &v1::Hello) -> Locale {
    baffle_i18n::negotiate(&[hello.lang.as_str()])
}

/// Waits for the hello (within [`HELLO_TIMEOUT`]) and checks its credential belongs to
/// the device it names.
pub async fn hello<S: EventStore + Clone, T: TimeSource>(
    hub: &Hub<S, T>,
    inbound: &mut Streaming<v1::DeviceMessage>,
) -> Result<v1::Hello, Status> {
    // A stream that never says hello would hold a task for ever: give it a deadline.
    let first = tokio::time::timeout(HELLO_TIMEOUT, inbound.next())
        .await
        .map_err(|_| {
            Error::DeadlineExceeded(format!(
                "no hello within {} s of connecting",
                HELLO_TIMEOUT.as_secs()
            ))
        })?
        .ok_or_else(|| Error::Invalid("the connection closed before a hello".into()))??;
    let Some(FromDevice::Hello(hello)) = first.message else {
        return Err(Error::Invalid("the first message must be a hello".into()).into());
    };
    let token = format!("Bearer {}", hello.credential);
    let mut metadata = tonic::metadata::MetadataMap::new();
    metadata.insert(
        "authorization",
        token
            .parse()
            .map_err(|_| Error::Unauthenticated("the credential is not valid".into()))?,
    );
    match hub.caller(&metadata).await? {
        auth::Caller::Device(id) if id == hello.device_id => Ok(hello),
        _ => Err(
            Error::Unauthenticated("the credential does not belong to this device".into()).into(),
        ),
    }
}

/// What the loop does next.
enum Flow {
    /// Go on.
    Go,
    /// The connection is over.
    Stop,
}

/// A device's connection after its hello.
pub struct Session<S: EventStore, T: TimeSource> {
    hub: Arc<Hub<S, T>>,
    handle: MatchHandle,
    device: String,
    sync: TimeSync,
    /// The catalogue of the language the device asked for in its hello.
    words: Catalogue,
    tx: mpsc::Sender<Result<v1::ServerMessage, Status>>,
}

impl<S: EventStore + Clone, T: TimeSource> Session<S, T> {
    /// A session of the device of `hello` on the match of `handle`, answering on `tx`,
    /// its display's lines in the language of the hello ([`language`]).
    pub fn new(
        hub: Arc<Hub<S, T>>,
        handle: MatchHandle,
        hello: v1::Hello,
        tx: mpsc::Sender<Result<v1::ServerMessage, Status>>,
    ) -> Self {
        Session {
            hub,
            handle,
            words: Catalogue::new(language(&hello)),
            device: hello.device_id,
            sync: TimeSync::new(),
            tx,
        }
    }

    /// Runs until the device, the follower of its match or the server goes away.
    pub async fn run(
        mut self,
        mut inbound: Streaming<v1::DeviceMessage>,
        mut updates: crate::services::follow::Updates,
    ) {
        loop {
            tokio::select! {
                update = updates.next() => match update {
                    Some(Ok(u)) => {
                        if !self.push(u).await {
                            break;
                        }
                    }
                    Some(Err(e)) => {
                        let _ = self.tx.send(Err(e)).await;
                        break;
                    }
                    None => break,
                },
                message = inbound.next() => {
                    let Some(Ok(message)) = message else { break };
                    if let Flow::Stop = self.answer(message).await {
                        break;
                    }
                }
                () = self.tx.closed() => break,
            }
        }
        tracing::info!(device = %self.device, "device disconnected");
        self.handle.presence(&self.device, false).await;
    }

    async fn send(&self, m: ToDevice) -> Result<(), ()> {
        self.tx
            .send(Ok(v1::ServerMessage { message: Some(m) }))
            .await
            .map_err(|_| ())
    }

    /// Sends `m`; stops if the device is gone.
    async fn reply(&self, m: ToDevice) -> Flow {
        match self.send(m).await {
            Ok(()) => Flow::Go,
            Err(()) => Flow::Stop,
        }
    }

    /// An update and the display's lines after it; false once the device is gone.
    async fn push(&self, u: v1::MatchUpdate) -> bool {
        let lines = u
            .state
            .as_ref()
            .map(|s| display(s, &self.words))
            .unwrap_or_default();
        let messages = [
            ToDevice::Update(u),
            ToDevice::Display(v1::Display { lines }),
        ];
        for m in messages {
            if self.send(m).await.is_err() {
                return false;
            }
        }
        true
    }

    /// The answer to one message from the device.
    async fn answer(&mut self, message: v1::DeviceMessage) -> Flow {
        let receipt = self.hub.time.now();
        match message.message {
            Some(FromDevice::Sync(r)) => {
                let reply = v1::SyncReply {
                    device_ms: r.device_ms,
                    server_receive_ms: receipt.as_ms(),
                    server_send_ms: self.hub.time.now().as_ms(),
                };
                if let Some(previous) = r.previous {
                    self.add_report(previous);
                }
                self.reply(ToDevice::Sync(reply)).await
            }
            Some(FromDevice::Report(r)) => {
                self.add_report(r);
                Flow::Go
            }
            Some(FromDevice::Input(input)) => self.input(input, receipt).await,
            Some(FromDevice::Hello(_)) | None => Flow::Go,
        }
    }

    /// A numbered input, timed by the device's clock where it is known.
    async fn input(&mut self, input: v1::Input, receipt: baffle_core::Timestamp) -> Flow {
        let bound = self.hub.device_match(&self.device).await;
        if bound.as_deref() != Some(self.handle.info.id.as_str()) {
            // Revoked or rebound since the hello: this connection is over.
            let refusal = Error::PermissionDenied(
                "this device is no longer registered for this match".into(),
            );
            let _ = self.tx.send(Err(refusal.into())).await;
            return Flow::Stop;
        }
        let replaced = self.hub.check_not_replaced(&self.handle.info.id).await;
        let request = match (
            replaced,
            input.command.as_ref().and_then(|c| c.action.as_ref()),
        ) {
            (Err(refused), _) => Err(refused.to_string()),
            (_, Some(a)) if director_only(a) => {
                Err("only the director may take this action".to_string())
            }
            _ => decode(input.command, None, self.handle.game).map_err(|s| s.message().to_string()),
        };
        let input = DeviceInput {
            device: self.device.clone(),
            seq: input.seq,
            device_ms: input.device_ms,
            claimed: self.sync.to_server(input.device_ms),
            receipt,
            request,
        };
        match self.handle.device_input(input).await {
            Ok(ack) => self.reply(ToDevice::Ack(ack)).await,
            Err(e) => {
                let _ = self.tx.send(Err(e.into())).await;
                Flow::Stop
            }
        }
    }

    /// Adds one exchange's report to the device's clock estimate.
    fn add_report(&mut self, r: v1::SyncReport) {
        if self.sync.add(r.t0, r.t1, r.t2, r.t3).is_err() {
            tracing::warn!(device = %self.device, "a time sync report with a negative round trip was ignored");
        }
    }
}
