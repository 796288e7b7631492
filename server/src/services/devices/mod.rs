//! `baffle.v1.Devices`: registration, binding, and the live connection — hello, time
//! sync, numbered inputs with their acks and replay, and the state pushed back
//! (docs/device-protocol.md).

use std::sync::Arc;

use baffle_proto::chess_text::points;
use baffle_proto::v1;
use baffle_proto::v1::devices_server::Devices;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

use super::{Stream, follow};

mod session;
use baffle_proto::backgammon_text;

use crate::error::Error;
use crate::followers::FollowerSlot;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;

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
        self.hub
            .bind_device(&r.device_id, Some(&r.match_id))
            .await?;
        Ok(Response::new(v1::Device {
            device_id: r.device_id,
            match_id: r.match_id,
        }))
    }

    async fn unbind_device(
        &self,
        r: Request<v1::UnbindDeviceRequest>,
    ) -> Result<Response<v1::Device>, Status> {
        self.hub.director(r.metadata()).await?;
        let device_id = r.into_inner().device_id;
        self.hub.bind_device(&device_id, None).await?;
        Ok(Response::new(v1::Device {
            device_id,
            match_id: String::new(),
        }))
    }

    async fn revoke_device(
        &self,
        r: Request<v1::RevokeDeviceRequest>,
    ) -> Result<Response<v1::Device>, Status> {
        self.hub.director(r.metadata()).await?;
        let device_id = r.into_inner().device_id;
        self.hub.revoke_device(&device_id).await?;
        Ok(Response::new(v1::Device {
            device_id,
            match_id: String::new(),
        }))
    }

    type ConnectStream = Stream<v1::ServerMessage>;

    async fn connect(
        &self,
        r: Request<Streaming<v1::DeviceMessage>>,
    ) -> Result<Response<Self::ConnectStream>, Status> {
        let mut inbound = r.into_inner();
        let hello = session::hello(&self.hub, &mut inbound).await?;
        let match_id = self
            .hub
            .device_match(&hello.device_id)
            .await
            .ok_or_else(|| {
                Error::FailedPrecondition(format!(
                    "device {} is not bound to a match",
                    hello.device_id
                ))
            })?;
        tracing::info!(device = %hello.device_id, firmware = %hello.firmware, %match_id, "device connected");
        let handle = self.hub.match_handle(&match_id).await?;
        // On a node of a cluster, the device connects to the node that writes its match.
        self.hub.require_owner(&handle)?;
        handle.presence(&hello.device_id, true).await;
        let state = handle.state().await?;
        let updates = follow(
            self.hub.clone(),
            handle.clone(),
            state.seq,
            FollowerSlot::uncounted(),
            crate::metrics::Kind::Device,
        );
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        let session = session::Session::new(self.hub.clone(), handle, hello.device_id, tx);
        tokio::spawn(session.run(inbound, updates));
        Ok(Response::new(ReceiverStream::new(rx)))
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

/// A chess display: "Ann 1½ - ½ Bo  game 3/4 rapid FIDE 2014", then each clock as
/// colour, time, moves made and period — so the display shows when a period changes
/// (6.3 (b)) and which edition's rules the arbiter applies.
fn chess_display(s: &v1::MatchState, c: &v1::ChessState) -> Vec<String> {
    let first = format!(
        "{} {} - {} {}  game {}/{} {} {}",
        s.player_a,
        points(c.half_points_a),
        points(c.half_points_b),
        s.player_b,
        s.game_number,
        c.games,
        c.category,
        c.laws_name
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
