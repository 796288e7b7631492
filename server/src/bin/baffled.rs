//! `baffled`: runs the baffle server until Ctrl-C or SIGTERM.

use baffle_server::config::{Config, LogFormat};
use baffle_server::hub::Hub;
use baffle_server::store::SledStore;
use baffle_server::time::SystemTime_;
use clap::Parser;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> Result<(), baffle_server::ServeError> {
    let config = Config::parse();
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
    baffle_server::serve_with_tls(hub, listener, tls, shutdown_signal()).await?;
    tracing::info!("stopped");
    Ok(())
}

/// Completes on Ctrl-C or, on Unix, SIGTERM (what service managers send).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).expect("install SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
    tracing::info!("shutting down");
}
