//! `baffled`: runs the baffle server until Ctrl-C or SIGTERM.

use baffle_server::config::{Command, Config, LogFormat};
use baffle_server::hub::Hub;
use baffle_server::store::{EventStore, PgStore, SledStore};
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
    if config.command == Some(Command::Check) {
        std::process::exit(check(&config).await);
    }
    // A bad certificate stops the start before anything else (and before "listening").
    let tls = config.tls_identity()?;
    // Private before anything is written into it, and again once sled has made its files
    // (an older data directory was 0755 with 0644 files).
    baffle_server::data_dir::make_private(&config.data_dir)?;
    let token_path = config.token_path();
    let token = baffle_server::auth::director_token(&token_path)?;
    match &config.store {
        // Several nodes on one database (docs/cluster.md).
        Some(url) => {
            let store = PgStore::connect(url).await?;
            tracing::info!("the store is PostgreSQL");
            run(store, &config, token, tls, shutdown).await
        }
        None => {
            let store = SledStore::open(&config.data_dir.join("store"))?;
            baffle_server::data_dir::make_private(&config.data_dir)?;
            run(store, &config, token, tls, shutdown).await
        }
    }
}

/// Serves from `store` until `shutdown`.
async fn run<S: EventStore + Clone>(
    store: S,
    config: &Config,
    token: String,
    tls: Option<baffle_server::tls::Tls>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), baffle_server::ServeError> {
    let hub = Hub::open(store, SystemTime_, token).await?;
    hub.followers.set_limits(config.follower_limits());
    // About 1,000 idle connections exhausted the default soft limit of 1,024 files.
    let open_files = match baffle_server::listener::raise_fd_limit() {
        Ok(limit) => limit,
        Err(e) => {
            tracing::warn!(error = %e, "the open-files limit could not be raised");
            None
        }
    };
    let limits = config.limits(open_files);
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    tracing::info!(
        address = %listener.local_addr()?,
        data_dir = %config.data_dir.display(),
        director_token = %config.token_path().display(),
        tls = tls.is_some(),
        open_files = open_files.map_or("unlimited".to_string(), |n| n.to_string()),
        max_connections = limits.max_connections,
        "baffled listening (gRPC, health, reflection)"
    );
    baffle_server::serve_with_limits(hub, listener, tls, limits, shutdown).await?;
    tracing::info!("stopped");
    Ok(())
}

/// `baffled check`: scrubs the data directory (or the PostgreSQL store) and prints what
/// it found; the exit status.
async fn check(config: &Config) -> i32 {
    let token_path = config.token_path();
    let token = match std::fs::read_to_string(&token_path) {
        Ok(token) => token.trim().to_string(),
        Err(e) => {
            eprintln!(
                "the director token {} cannot be read ({e}): it is the key of the sealed server seeds",
                token_path.display()
            );
            return 1;
        }
    };
    let key = baffle_server::seal::SealKey::from_director_token(&token);
    if let Some(url) = &config.store {
        return match PgStore::connect(url).await {
            Ok(store) => report(baffle_server::check::scrub(&store, &key)),
            Err(e) => {
                eprintln!("the PostgreSQL store does not answer: {e}");
                1
            }
        };
    }
    let store_dir = config.data_dir.join("store");
    if !store_dir.is_dir() {
        eprintln!("there is no store at {}", store_dir.display());
        return 1;
    }
    let store = match SledStore::open(&store_dir) {
        Ok(store) => store,
        Err(e) => {
            eprintln!(
                "the store {} does not open: {e} (if baffled is running, stop it first)",
                store_dir.display()
            );
            return 1;
        }
    };
    report(baffle_server::check::scrub(&store, &key))
}

/// Prints a scrub's findings; the exit status.
fn report(scrubbed: Result<Vec<baffle_server::check::Finding>, String>) -> i32 {
    match scrubbed {
        Err(e) => {
            eprintln!("the store cannot be read: {e}");
            1
        }
        Ok(findings) => {
            for f in &findings {
                println!("{f}");
            }
            let bad = findings.iter().filter(|f| f.problem.is_some()).count();
            println!("{} streams checked, {bad} with a problem", findings.len());
            i32::from(bad > 0)
        }
    }
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
