//! `baffle.v1.Devices`: registration, binding, and the live connection — hello, time
//! sync, numbered inputs with their acks and replay, and the state pushed back
//! (docs/device-protocol.md).

use std::sync::Arc;

use baffle_proto::chess_text::points;
use baffle_proto::v1;
use baffle_proto::v1::devices_server::Devices;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

use super::{Stream, follow};
use baffle_proto::backgammon_text;

use crate::actor::DeviceInput;
use crate::auth;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire::{decode, director_only};
use baffle_core::device_time::TimeSync;

/// How long a new device stream may take to say hello before the server ends it.
pub const HELLO_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Serves `Devices`.
pub struct DevicesService<S: EventStore, T: TimeSource> {
    /// The shared state.
    pub hub: Arc<Hub<S, T>>,
}

#[tonic::async_trait]
impl<S: EventStore + Clone, T: TimeSource> Devices for DevicesService<S, T> {
    async fn register_device(
        &self,
        r: Request<v1::RegisterDeviceRequest>,
    ) -> Result<Response<v1::RegisterDeviceResponse>, Status> {
        self.hub.director(r.metadata()).await?;
        let id = r.into_inner().device_id;
        let credential = self.hub.register_device(&id).await?;
        Ok(Response::new(v1::RegisterDeviceResponse {
            device: Some(v1::Device {
                device_id: id,
                match_id: String::new(),
            }),
            credential,
        }))
    }

    async fn bind_device(
        &self,
        r: Request<v1::BindDeviceRequest>,
    ) -> Result<Response<v1::Device>, Status> {
        self.hub.director(r.metadata()).await?;
        let r = r.into_inner();
        Ok(Response::new(
            self.hub
                .bind_device(&r.device_id, Some(&r.match_id))
                .await?,
        ))
    }

    async fn unbind_device(
        &self,
        r: Request<v1::UnbindDeviceRequest>,
    ) -> Result<Response<v1::Device>, Status> {
        self.hub.director(r.metadata()).await?;
        Ok(Response::new(
            self.hub
                .bind_device(&r.into_inner().device_id, None)
                .await?,
        ))
    }

    async fn revoke_device(
        &self,
        r: Request<v1::RevokeDeviceRequest>,
    ) -> Result<Response<v1::Device>, Status> {
        self.hub.director(r.metadata()).await?;
        Ok(Response::new(
            self.hub.revoke_device(&r.into_inner().device_id).await?,
        ))
    }

    type ConnectStream = Stream<v1::ServerMessage>;

    async fn connect(
        &self,
        r: Request<Streaming<v1::DeviceMessage>>,
    ) -> Result<Response<Self::ConnectStream>, Status> {
        let mut inbound = r.into_inner();
        // A stream that never says hello would hold a task for ever: give it a deadline.
        let first = tokio::time::timeout(HELLO_TIMEOUT, inbound.next())
            .await
            .map_err(|_| {
                Status::deadline_exceeded(format!(
                    "no hello within {} s of connecting",
                    HELLO_TIMEOUT.as_secs()
                ))
            })?
            .ok_or_else(|| Status::invalid_argument("the connection closed before a hello"))??;
        let Some(v1::device_message::Message::Hello(hello)) = first.message else {
            return Err(Status::invalid_argument(
                "the first message must be a hello",
            ));
        };
        let token = format!("Bearer {}", hello.credential);
        let mut metadata = tonic::metadata::MetadataMap::new();
        metadata.insert(
            "authorization",
            token
                .parse()
                .map_err(|_| Status::unauthenticated("the credential is not valid"))?,
        );
        match self.hub.caller(&metadata).await? {
            auth::Caller::Device(id) if id == hello.device_id => {}
            _ => {
                return Err(Status::unauthenticated(
                    "the credential does not belong to this device",
                ));
            }
        }
        let match_id = self
            .hub
            .device_match(&hello.device_id)
            .await
            .ok_or_else(|| {
                Status::failed_precondition(format!(
                    "device {} is not bound to a match",
                    hello.device_id
                ))
            })?;
        tracing::info!(device = %hello.device_id, firmware = %hello.firmware, %match_id, "device connected");
        let handle = self.hub.match_handle(&match_id).await?;
        handle.presence(&hello.device_id, true).await;
        let state = handle.state().await?;
        let mut updates = follow(self.hub.clone(), handle.clone(), state.seq, |u| u);
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        let device = hello.device_id;
        let time = self.hub.time.clone();
        let hub = self.hub.clone();
        tokio::spawn(async move {
            let mut sync = TimeSync::new();
            loop {
                tokio::select! {
                    update = updates.recv() => match update {
                        Some(Ok(u)) => {
                            let lines = u.state.as_ref().map(display).unwrap_or_default();
                            let messages = [
                                v1::server_message::Message::Update(u),
                                v1::server_message::Message::Display(v1::Display { lines }),
                            ];
                            for m in messages {
                                if tx.send(Ok(v1::ServerMessage { message: Some(m) })).await.is_err() {
                                    break;
                                }
                            }
                        }
                        Some(Err(e)) => {
                            let _ = tx.send(Err(e)).await;
                            break;
                        }
                        None => break,
                    },
                    message = inbound.next() => {
                        let Some(Ok(message)) = message else { break };
                        let receipt = time.now();
                        let reply = match message.message {
                            Some(v1::device_message::Message::Sync(r)) => {
                                let reply = v1::SyncReply {
                                    device_ms: r.device_ms,
                                    server_receive_ms: receipt.as_ms(),
                                    server_send_ms: time.now().as_ms(),
                                };
                                if let Some(previous) = r.previous {
                                    add_report(&mut sync, &device, previous);
                                }
                                Some(v1::server_message::Message::Sync(reply))
                            }
                            Some(v1::device_message::Message::Report(r)) => {
                                add_report(&mut sync, &device, r);
                                None
                            }
                            Some(v1::device_message::Message::Input(_)) if hub.device_match(&device).await.as_deref() != Some(handle.info.id.as_str()) => {
                                // Revoked or rebound since the hello: this connection is over.
                                let _ = tx.send(Err(Status::permission_denied("this device is no longer registered for this match"))).await;
                                break;
                            }
                            Some(v1::device_message::Message::Input(input)) => {
                                let request = match input.command.as_ref().and_then(|c| c.action.as_ref()) {
                                    Some(a) if director_only(a) => Err("only the director may take this action".to_string()),
                                    _ => decode(input.command, None, handle.rules).map_err(|s| s.message().to_string()),
                                };
                                let input = DeviceInput {
                                    device: device.clone(),
                                    seq: input.seq,
                                    device_ms: input.device_ms,
                                    claimed: sync.to_server(input.device_ms),
                                    receipt,
                                    request,
                                };
                                match handle.device_input(input).await {
                                    Ok(ack) => Some(v1::server_message::Message::Ack(ack)),
                                    Err(e) => {
                                        let _ = tx.send(Err(e)).await;
                                        break;
                                    }
                                }
                            }
                            Some(v1::device_message::Message::Hello(_)) | None => None,
                        };
                        if let Some(m) = reply
                            && tx.send(Ok(v1::ServerMessage { message: Some(m) })).await.is_err()
                        {
                            break;
                        }
                    }
                    () = tx.closed() => break,
                }
            }
            tracing::info!(%device, "device disconnected");
            handle.presence(&device, false).await;
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}

/// Adds one exchange's report to a device's clock estimate.
fn add_report(sync: &mut TimeSync, device: &str, r: v1::SyncReport) {
    if sync.add(r.t0, r.t1, r.t2, r.t3).is_err() {
        tracing::warn!(%device, "a time sync report with a negative round trip was ignored");
    }
}

/// Two short lines for a device's display: score and cube; whose turn and both clocks.
/// A chess match shows the game, colours, move counters and periods instead.
pub fn display(s: &v1::MatchState) -> Vec<String> {
    if let Some(chess) = &s.chess {
        return chess_display(s, chess);
    }
    let first = format!(
        "{} {} - {} {}  {}",
        s.player_a,
        s.score_a,
        s.score_b,
        s.player_b,
        backgammon_text::cube(s)
    );
    let turn = backgammon_text::turn(s);
    let clocks = s
        .clock
        .as_ref()
        .map(|c| {
            let t = |c: Option<v1::SideClock>| {
                baffle_core::Millis(c.unwrap_or_default().main_ms).to_string()
            };
            format!("  {} | {}", t(c.a), t(c.b))
        })
        .unwrap_or_default();
    vec![first, format!("{turn}{clocks}")]
}

/// A chess display: "Ann 1½ - ½ Bo  game 3/4 rapid", then each clock as colour, time,
/// moves made and period — so the display shows when a period changes (6.3 (b)).
fn chess_display(s: &v1::MatchState, c: &v1::ChessState) -> Vec<String> {
    let first = format!(
        "{} {} - {} {}  game {}/{} {}",
        s.player_a,
        points(c.half_points_a),
        points(c.half_points_b),
        s.player_b,
        s.game_number,
        c.games,
        c.category
    );
    let clock = s.clock.clone().unwrap_or_default();
    let face = |name: &str, side: Option<v1::SideClock>| {
        let side = side.unwrap_or_default();
        format!(
            "{name} {} {}",
            baffle_core::Millis(side.main_ms),
            baffle_proto::chess_text::moves_and_period(&side)
        )
    };
    let state = match v1::MatchPhase::try_from(s.phase) {
        Ok(v1::MatchPhase::Over) => "match over  ",
        Ok(v1::MatchPhase::BetweenGames) => "game over  ",
        Ok(v1::MatchPhase::Waiting) => "waiting  ",
        _ if clock.paused != 0 => "paused  ",
        _ => "",
    };
    let second = format!("{state}{} | {}", face("W", clock.a), face("B", clock.b));
    vec![first, second]
}
