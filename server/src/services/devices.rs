//! `baffle.v1.Devices`: registration, binding, and the live connection (its first part:
//! the device protocol issue adds inputs, time sync and replay).

use std::sync::Arc;

use baffle_proto::v1;
use baffle_proto::v1::devices_server::Devices;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status, Streaming};

use super::{Stream, follow};
use crate::auth;
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

    type ConnectStream = Stream<v1::ServerMessage>;

    async fn connect(
        &self,
        r: Request<Streaming<v1::DeviceMessage>>,
    ) -> Result<Response<Self::ConnectStream>, Status> {
        let mut inbound = r.into_inner();
        let first = inbound
            .next()
            .await
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
        let mut updates = follow(self.hub.clone(), handle.clone(), state.seq, |u| {
            v1::ServerMessage {
                message: Some(v1::server_message::Message::Update(u)),
            }
        });
        // Forward the updates, and tell the match when the device goes away.
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        let device = hello.device_id;
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    update = updates.recv() => match update {
                        Some(u) => if tx.send(u).await.is_err() { break },
                        None => break,
                    },
                    () = tx.closed() => break,
                }
            }
            tracing::info!(%device, "device disconnected");
            handle.presence(&device, false).await;
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}
