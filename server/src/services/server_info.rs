//! `baffle.v1.Server`: what the server says about itself — its name, its version and the
//! public key that signs every head it sends (`crate::signing`). No token needed.

use std::sync::Arc;

use baffle_proto::v1;
use baffle_proto::v1::server_server::Server;
use tonic::{Request, Response, Status};

use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;

/// The server's name, as `ServerInfo.name` gives it.
pub const SERVER_NAME: &str = "baffled";

/// Serves `Server`.
pub struct ServerInfoService<S: EventStore, T: TimeSource> {
    /// The shared state.
    pub hub: Arc<Hub<S, T>>,
}

#[tonic::async_trait]
impl<S: EventStore + Clone, T: TimeSource> Server for ServerInfoService<S, T> {
    async fn get_server_info(
        &self,
        _request: Request<v1::GetServerInfoRequest>,
    ) -> Result<Response<v1::ServerInfo>, Status> {
        Ok(Response::new(v1::ServerInfo {
            name: SERVER_NAME.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            signing_key: self.hub.signer().public_hex().to_string(),
        }))
    }
}
