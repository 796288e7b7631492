//! A health check of the server over the standard `grpc.health.v1` service.

use tonic::transport::Endpoint;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// Asks `server` whether it is serving. `Ok(true)` means SERVING.
pub async fn ping(server: &str) -> Result<bool, Box<dyn std::error::Error + Send + Sync>> {
    let channel = Endpoint::from_shared(server.to_string())?.connect().await?;
    let reply = HealthClient::new(channel)
        .check(HealthCheckRequest {
            service: String::new(),
        })
        .await?;
    Ok(reply.into_inner().status() == ServingStatus::Serving)
}
