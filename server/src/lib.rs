//! # baffle-server: the gRPC server behind `baffled`
//!
//! The I/O around `baffle-core`: gRPC services, one actor per live match, the durable
//! event store, timers and roles. The rules live in the core only.
//!
//! - [`config`]: the settings of `baffled` (flags with environment fallbacks).
//! - [`hub`]: tournaments, matches and devices; recovery on start.
//! - [`cluster`]: a node of several on one PostgreSQL database: leases, the change feed.
//! - [`actor`]: one task per match: commands in order, durable before acknowledged.
//! - [`services`]: `Tournaments`, `Matches`, `Devices`, `Audit`, `Server`; [`time_controls`].
//! - [`store`]: the event store trait and its sled implementation with group commit.
//! - [`wire`]: between the wire types and the engine.
//! - [`auth`]: director token, device credentials, spectators.
//! - [`keys`]: the server's secrets in their files: the token, the [`seal`] key of the
//!   server seeds at rest, and the [`signing`] key of the heads sent to followers.
//! - [`time`]: the system clock, or a hand-turned one for tests.
//! - [`seeds`]: secret per-match server seeds from the OS RNG.

pub mod actor;
pub mod auth;
pub mod check;
pub mod cluster;
pub mod coalesce;
pub mod config;
pub mod data_dir;
pub mod decode_errors;
pub mod draws;
pub mod error;
pub mod feed;
pub mod followers;
pub mod hub;
pub mod keys;
pub mod listener;
pub mod metrics;
pub mod reflection;
pub mod registry;
pub mod seal;
pub mod seeds;
pub mod services;
pub mod signing;
pub mod store;
pub mod time;
pub mod time_controls;
pub mod tls;
pub mod web;
pub mod wire;

use std::future::Future;
use std::sync::Arc;

use baffle_proto::v1::audit_server::AuditServer;
use baffle_proto::v1::devices_server::DevicesServer;
use baffle_proto::v1::draws_server::DrawsServer;
use baffle_proto::v1::matches_server::MatchesServer;
use baffle_proto::v1::server_server::ServerServer;
use baffle_proto::v1::time_controls_server::TimeControlsServer;
use baffle_proto::v1::tournaments_server::TournamentsServer;
use tokio::net::TcpListener;
use tonic::codegen::http;
use tonic::service::Routes;
use tonic::transport::Server;
use tower::ServiceExt;
use tower_layer::Layer;

use crate::hub::Hub;
use crate::services::audit::AuditService;
use crate::services::devices::DevicesService;
use crate::services::feed::FeedService;
use crate::services::matches::MatchesService;
use crate::services::server_info::ServerInfoService;
use crate::services::tournaments::TournamentsService;
use crate::store::EventStore;
use crate::time::TimeSource;

/// Why the server could not start or stopped with an error.
pub type ServeError = Box<dyn std::error::Error + Send + Sync>;

pub use wire::MAX_MESSAGE_BYTES;

/// How long open connections may take to close after a shutdown signal before the server
/// stops anyway. Every acknowledged event is already durable, so nothing is lost.
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// How often an HTTP/2 connection is pinged, and how long its answer may take before
/// the connection is closed.
pub const KEEPALIVE_INTERVAL: std::time::Duration = std::time::Duration::from_secs(30);
/// See [`KEEPALIVE_INTERVAL`].
pub const KEEPALIVE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// Most concurrent streams per HTTP/2 connection.
pub const MAX_STREAMS_PER_CONNECTION: u32 = 256;

/// Serves every baffled service for `hub` on `listener` until `shutdown` completes; then
/// stops accepting, ends open streams, lets requests in flight finish (each already durable
/// when answered) and returns — after at most [`SHUTDOWN_GRACE`] if clients keep idle
/// connections open.
pub async fn serve<S: EventStore + Clone, T: TimeSource>(
    hub: Arc<Hub<S, T>>,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    serve_with_tls(hub, listener, None, shutdown).await
}

/// [`serve`], speaking TLS with `tls` (certificate chain and key) when it is given.
pub async fn serve_with_tls<S: EventStore + Clone, T: TimeSource>(
    hub: Arc<Hub<S, T>>,
    listener: TcpListener,
    tls: Option<tls::Tls>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let limits = listener::Limits::default();
    serve_with_limits(hub, listener, tls, limits, shutdown).await
}

/// [`serve_with_tls`] within `limits` on connections (`listener`: a cap, a time for the
/// first byte, and accept errors backed off). With TLS, the handshake is ours
/// ([`tls`]): it offers `http/1.1` beside `h2`, for browsers' gRPC-Web and the page.
pub async fn serve_with_limits<S: EventStore + Clone, T: TimeSource>(
    hub: Arc<Hub<S, T>>,
    listener: TcpListener,
    tls: Option<tls::Tls>,
    limits: listener::Limits,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let incoming = listener::Accept::new(listener, limits);
    match tls {
        None => serve_incoming(hub, incoming, shutdown).await,
        Some(tls) => {
            let incoming = tls::TlsIncoming::new(incoming, tls, limits.first_byte);
            serve_incoming(hub, incoming, shutdown).await
        }
    }
}

/// Keeps the health service true to the store: NOT_SERVING (the server as a whole, and
/// `Matches`) while the store cannot write — a full disk — and SERVING again once it can.
async fn report_store_health<S: EventStore + Clone, T: TimeSource>(
    health: tonic_health::server::HealthReporter,
    mut writable: tokio::sync::watch::Receiver<bool>,
) {
    use tonic::server::NamedService;
    use tonic_health::ServingStatus;
    loop {
        let status = if *writable.borrow_and_update() {
            ServingStatus::Serving
        } else {
            tracing::error!("the store cannot write: health answers NOT_SERVING until it can");
            ServingStatus::NotServing
        };
        for service in [
            "",
            <MatchesServer<MatchesService<S, T>> as NamedService>::NAME,
        ] {
            health.set_service_status(service, status).await;
        }
        if writable.changed().await.is_err() {
            return;
        }
    }
}

/// [`serve`] on connections from `incoming` instead of a TCP listener: connections
/// after their TLS handshake, or in-memory pipes in simulations on virtual time, where a
/// kernel's TCP handshake would happen outside the runtime's sight.
pub async fn serve_incoming<S, T, IO, E>(
    hub: Arc<Hub<S, T>>,
    incoming: impl tokio_stream::Stream<Item = Result<IO, E>> + Send + 'static,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError>
where
    S: EventStore + Clone,
    T: TimeSource,
    IO: tokio::io::AsyncRead
        + tokio::io::AsyncWrite
        + tonic::transport::server::Connected
        + Unpin
        + Send
        + 'static,
    E: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    // The drawn tournaments' logs, replayed before the first request (`draws`).
    let draws = draws::Draws::open(hub.clone()).await?;
    let routes = routes(&hub, draws).await?;
    let (signalled, on_signal) = tokio::sync::oneshot::channel::<()>();
    let server = Server::builder()
        .max_concurrent_streams(Some(MAX_STREAMS_PER_CONNECTION))
        // A follower's client sends nothing while it follows: pings find the ones that
        // vanished without a word (a phone leaving the Wi-Fi), so their connections and
        // places among the followers are given back.
        .http2_keepalive_interval(Some(KEEPALIVE_INTERVAL))
        .http2_keepalive_timeout(Some(KEEPALIVE_TIMEOUT))
        .accept_http1(true)
        .layer(decode_errors::DecodeErrorsLayer)
        .add_routes(routes)
        .serve_with_incoming_shutdown(incoming, {
            let hub = hub.clone();
            async move {
                shutdown.await;
                // End the open streams so that their connections close and shutdown completes.
                hub.close();
                let _ = signalled.send(());
            }
        });
    tokio::select! {
        result = server => result?,
        () = async {
            if on_signal.await.is_ok() {
                tokio::time::sleep(SHUTDOWN_GRACE).await;
            } else {
                std::future::pending::<()>().await;
            }
        } => tracing::warn!("connections still open {SHUTDOWN_GRACE:?} after the shutdown signal: stopping anyway"),
    }
    // The last heartbeat, at the stop itself: the next start credits its outage from here.
    hub.mark_alive().await;
    Ok(())
}

/// Every path the server answers: the gRPC services (each also over gRPC-Web), health
/// and reflection, the tournament feed, the phone page and /metrics.
async fn routes<S: EventStore + Clone, T: TimeSource>(
    hub: &Arc<Hub<S, T>>,
    draws: Arc<draws::Draws<S, T>>,
) -> Result<Routes, ServeError> {
    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_serving::<MatchesServer<MatchesService<S, T>>>()
        .await;
    health
        .set_serving::<TimeControlsServer<time_controls::TimeControlsService>>()
        .await;
    tokio::spawn(report_store_health::<S, T>(
        health.clone(),
        hub.store.writable(),
    ));
    let reflection = reflection::Reflection::new(reflection::Index::new(&[
        baffle_proto::FILE_DESCRIPTOR_SET,
        tonic_health::pb::FILE_DESCRIPTOR_SET,
        tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
        tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
    ])?);
    // Each service also answers gRPC-Web (browsers, on HTTP/1.1); the layer goes on the
    // services, not the server, because it refuses plain HTTP/1.1 requests such as the
    // page's own.
    let web = tonic_web::GrpcWebLayer::new();
    let mut grpc = Routes::builder();
    grpc.add_service(web.layer(health_service))
        .add_service(web.layer(reflection.v1()))
        .add_service(web.layer(reflection.v1alpha()))
        .add_service(
            web.layer(
                TimeControlsServer::new(time_controls::TimeControlsService)
                    .max_decoding_message_size(MAX_MESSAGE_BYTES),
            ),
        )
        .add_service(
            web.layer(
                TournamentsServer::new(TournamentsService { hub: hub.clone() })
                    .max_decoding_message_size(MAX_MESSAGE_BYTES),
            ),
        )
        .add_service(
            web.layer(
                DrawsServer::new(services::draws::DrawsService { draws })
                    .max_decoding_message_size(MAX_MESSAGE_BYTES),
            ),
        )
        .add_service(
            web.layer(
                MatchesServer::new(MatchesService { hub: hub.clone() })
                    .max_decoding_message_size(MAX_MESSAGE_BYTES),
            ),
        )
        .add_service(
            web.layer(
                DevicesServer::new(DevicesService { hub: hub.clone() })
                    .max_decoding_message_size(MAX_MESSAGE_BYTES),
            ),
        )
        .add_service(
            web.layer(
                AuditServer::new(AuditService { hub: hub.clone() })
                    .max_decoding_message_size(MAX_MESSAGE_BYTES),
            ),
        )
        .add_service(
            web.layer(
                ServerServer::new(ServerInfoService { hub: hub.clone() })
                    .max_decoding_message_size(MAX_MESSAGE_BYTES),
            ),
        );
    // WatchTournament is answered ahead of the generated Matches service, by one that
    // encodes each update once for all followers (`services::feed`).
    let feed = web.layer(FeedService::new(hub.clone()));
    let router = grpc.routes().into_axum_router().route_service(
        services::feed::PATH,
        feed.map_request(|r: http::Request<axum::body::Body>| r.map(tonic::body::Body::new)),
    );
    // The phone page beside the services; browsers reach them over gRPC-Web on HTTP/1.1.
    // And /metrics, and a 404 for any other path (`metrics::routes`).
    Ok(Routes::from(metrics::routes(web::routes(router))))
}
