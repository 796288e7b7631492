//! `baffled`: runs the baffle server until Ctrl-C or SIGTERM.

use baffle_server::config::{Config, LogFormat};
use baffle_server::hub::Hub;
use baffle_server::store::SledStore;
use baffle_server::time::SystemTime_;
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than glibc's malloc, whose `_int_malloc` was the largest single cost
/// of a command under load (docs/benchmarks.md, "Sustained durable presses").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> Result<(), baffle_server::ServeError> {
    let config = Config::parse();
    // Installed first: a signal that arrives while the server starts must still stop it
    // gracefully rather than kill it.
    let shutdown = shutdown_signal()?;
    let filter = EnvFilter::try_new(&config.log)?;
    match config.log_format {
        LogFormat::Text => tracing_subscriber::fmt().with_env_filter(filter).init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init(),
    }
    std::fs::create_dir_all(&config.data_dir)?;
    let token_path = config.token_path();
    let token = baffle_server::auth::director_token(&token_path)?;
    let store = SledStore::open(&config.data_dir.join("store"))?;
    let hub = Hub::open(store, SystemTime_, token).await?;
    let tls = config.tls_identity()?;
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    tracing::info!(
        address = %listener.local_addr()?,
        data_dir = %config.data_dir.display(),
        director_token = %token_path.display(),
        tls = tls.is_some(),
        "baffled listening (gRPC, health, reflection)"
    );
    baffle_server::serve_with_tls(hub, listener, tls, shutdown).await?;
    tracing::info!("stopped");
    Ok(())
}

/// Installs the handlers now and returns a future that completes on SIGINT (Ctrl-C) or,
/// on Unix, SIGTERM (what service managers send).
#[cfg(unix)]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = term.recv() => {}
        }
        tracing::info!("shutting down");
    })
}

/// Returns a future that completes on Ctrl-C.
#[cfg(not(unix))]
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down");
    })
}
