//! # baffle-server: the gRPC server behind `baffled`
//!
//! Assembles the services of `baffle.v1` with the standard `grpc.health.v1` health
//! service and server reflection, so `grpcurl` and any generated client work without the
//! proto files at hand. The rules live in `baffle-core`; this crate is the I/O around
//! them.
//!
//! - [`time_controls`]: the `TimeControls` service (preset time controls).
//! - [`config`]: command line and environment settings of `baffled`.
//! - [`seeds`]: secret per-match server seeds from the OS RNG.
//! - [`store`]: the event store trait and its sled implementation with group commit.

pub mod config;
pub mod seeds;
pub mod store;
pub mod time_controls;

use std::future::Future;

use baffle_proto::v1::time_controls_server::TimeControlsServer;
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::transport::Server;

/// Why the server could not start or stopped with an error.
pub type ServeError = Box<dyn std::error::Error + Send + Sync>;

/// Serves every baffled service on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_serving::<TimeControlsServer<time_controls::TimeControlsService>>()
        .await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(baffle_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    Server::builder()
        .add_service(health_service)
        .add_service(reflection)
        .add_service(TimeControlsServer::new(time_controls::TimeControlsService))
        .serve_with_incoming_shutdown(TcpListenerStream::new(listener), shutdown)
        .await?;
    Ok(())
}
