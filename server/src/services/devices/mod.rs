//! `baffle.v1.Devices`: registration, binding, and the live connection — hello, time
//! sync, numbered inputs with their acks and replay, and the state pushed back
//! (docs/device-protocol.md).

use std::sync::Arc;

use baffle_proto::v1;
use baffle_proto::v1::devices_server::Devices;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

use super::{Stream, follow};

mod display;
mod session;

pub use display::display;
pub use session::HELLO_TIMEOUT;

use crate::error::Error;
use crate::followers::FollowerSlot;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;

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
        tracing::info!(device = %hello.device_id, firmware = %hello.firmware, lang = session::language(&hello).tag(), %match_id, "device connected");
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
        let session = session::Session::new(self.hub.clone(), handle, hello, tx);
        tokio::spawn(session.run(inbound, updates));
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}
