//! Finding and dialling the server.

use tonic::transport::{Channel, Endpoint};

/// Where `baffle` looks for the server unless told otherwise (`--server`, `BAFFLE_SERVER`).
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";

/// Dials `server` (an `http://host:port` URL).
pub async fn connect(server: &str) -> Result<Channel, tonic::transport::Error> {
    Endpoint::from_shared(server.to_string())?.connect().await
}
