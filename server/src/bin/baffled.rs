//! `baffled`: runs the baffle server until Ctrl-C or SIGTERM.

use baffle_server::cluster::Node;
use baffle_server::config::{Command, Config, LogFormat};
use baffle_server::hub::Hub;
use baffle_server::keys::ServerKeys;
use baffle_server::store::{EventStore, Fence, PgStore, SledStore};
use baffle_server::time::SystemTime_;
use std::io::IsTerminal;
use std::sync::Arc;

use clap::Parser;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than glibc's malloc, whose `_int_malloc` was the largest single cost
/// of a command under load (docs/benchmarks.md, "Sustained durable presses").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    match run(&config).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(why) => {
            // Said to a person, naming the address or directory, not as a Rust error.
            eprintln!("baffled: {why}");
            tracing::error!(error = %why, "baffled stopped");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(config: &Config) -> Result<(), String> {
    // Installed first: a signal that arrives while the server starts must still stop it
    // gracefully rather than kill it.
    let shutdown = shutdown_signal().map_err(|e| format!("the signal handlers: {e}"))?;
    let filter = EnvFilter::try_new(log_filter(&config.log))
        .map_err(|e| format!("--log {:?} is not a log filter: {e}", config.log))?;
    // Colour only for a person at a terminal: a log file or journald gets plain text.
    let ansi = std::io::stdout().is_terminal();
    match config.log_format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(ansi)
            .init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init(),
    }
    if config.command == Some(Command::Check) {
        std::process::exit(check(config).await);
    }
    let data_dir = config.data_dir.display().to_string();
    // A bad certificate stops the start before anything else (and before "listening").
    let tls = config.tls_identity().map_err(|e| e.to_string())?;
    // Private before anything is written into it, and again once sled has made its files
    // (an older data directory was 0755 with 0644 files).
    let private = |e: std::io::Error| {
        format!("the data directory {data_dir} cannot be created or made private: {e}")
    };
    baffle_server::data_dir::make_private(&config.data_dir).map_err(private)?;
    // The token, the seal key and the signing key, each made on first start; a key file
    // that is there but damaged stops the start, naming it.
    let keys = ServerKeys::load_or_create(&config.key_paths())?;
    match &config.store {
        // A node of several on one database (docs/cluster.md).
        Some(url) => {
            let (node, advertise) = (config.node(), config.advertised());
            let lease = std::time::Duration::from_millis(config.lease_ms);
            let fence =
                Fence::new(node.clone(), advertise.clone(), lease).rebalancing(config.rebalance);
            let store = PgStore::connect_node(url, fence)
                .await
                .map_err(|e| format!("the PostgreSQL store does not answer: {e}"))?;
            tracing::info!(%node, %advertise, lease_ms = config.lease_ms, rebalance = config.rebalance, "the store is PostgreSQL: a node of a cluster");
            let hub = open(store, config, keys).await?;
            let node = Node::start(hub.clone()).await.map_err(|why| {
                let files = config.key_paths();
                format!(
                    "{why}\n         this node's files: director token {}, seal key {}, \
                     signing key {}",
                    files.token.display(),
                    files.seal.display(),
                    files.signing.display()
                )
            })?;
            let served = serve(hub, config, tls, shutdown).await;
            node.leave().await;
            served
        }
        None => {
            let store_dir = config.data_dir.join("store");
            let store = SledStore::open(&store_dir).map_err(|e| {
                format!(
                    "the store {} cannot be opened: {e}\n         if another baffled runs on \
                     this data directory it holds the store's lock: stop it first, or pass \
                     another --data-dir",
                    store_dir.display()
                )
            })?;
            baffle_server::data_dir::make_private(&config.data_dir).map_err(private)?;
            let hub = open(store, config, keys).await?;
            serve(hub, config, tls, shutdown).await
        }
    }
}

/// The hub on `store`, recovered.
async fn open<S: EventStore + Clone>(
    store: S,
    config: &Config,
    keys: ServerKeys,
) -> Result<Arc<Hub<S, SystemTime_>>, String> {
    let data_dir = config.data_dir.display().to_string();
    let hub = Hub::open(store, SystemTime_, keys)
        .await
        .map_err(|e| format!("the data directory {data_dir} cannot be recovered: {e}"))?;
    hub.followers.set_limits(config.follower_limits());
    Ok(hub)
}

/// Serves `hub` until `shutdown`.
async fn serve<S: EventStore + Clone>(
    hub: Arc<Hub<S, SystemTime_>>,
    config: &Config,
    tls: Option<baffle_server::tls::Tls>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let token_path = config.token_path();
    // About 1,000 idle connections exhausted the default soft limit of 1,024 files.
    let open_files = match baffle_server::listener::raise_fd_limit() {
        Ok(limit) => limit,
        Err(e) => {
            tracing::warn!(error = %e, "the open-files limit could not be raised");
            None
        }
    };
    let limits = config.limits(open_files);
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| bind_error(config.addr, &e))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!(
        %address,
        data_dir = %config.data_dir.display(),
        director_token = %token_path.display(),
        signing_key = %hub.signer().public_hex(),
        tls = tls.is_some(),
        open_files = open_files.map_or("unlimited".to_string(), |n| n.to_string()),
        max_connections = limits.max_connections,
        "baffled listening (gRPC, health, reflection, the page, /metrics)"
    );
    println!("{}", banner(address, tls.is_some(), &token_path));
    baffle_server::serve_with_limits(hub, listener, tls, limits, shutdown)
        .await
        .map_err(|e| format!("the server stopped: {e}"))?;
    tracing::info!("stopped");
    Ok(())
}

/// `--log`: a bare level (`debug`, `trace`) is baffle's own at that level and every
/// library's at `info`, so `--log debug` shows the server's decisions rather than h2's
/// frames and sled's pages; anything else is taken as an EnvFilter as written.
fn log_filter(log: &str) -> String {
    match log.trim() {
        level @ ("debug" | "trace") => {
            format!("info,baffle_server={level},baffled={level},baffle_core={level}")
        }
        other => other.to_string(),
    }
}

/// A bind failure in words, naming the address and what to do.
fn bind_error(addr: std::net::SocketAddr, e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::AddrInUse => format!(
            "the address {addr} is in use: another baffled (or another program) listens \
             there; stop it, or pass --addr with another port"
        ),
        std::io::ErrorKind::PermissionDenied => format!(
            "not allowed to listen on {addr}: ports below 1024 need privileges; pass --addr \
             with a port above 1024"
        ),
        std::io::ErrorKind::AddrNotAvailable => format!(
            "{addr} is not an address of this machine: pass --addr 0.0.0.0:PORT to listen on \
             all of them"
        ),
        _ => format!("cannot listen on {addr}: {e}"),
    }
}

/// What a person starting the server needs to read: where the page is, how phones reach
/// it, where the token and the metrics are.
fn banner(address: std::net::SocketAddr, tls: bool, token: &std::path::Path) -> String {
    let scheme = if tls { "https" } else { "http" };
    let port = address.port();
    let mut text = format!("baffled is listening on {address}\n");
    if address.ip().is_loopback() {
        text.push_str(&format!(
            "  the room's page: {scheme}://{address}/ (this machine only)\n  phones and other \
             machines cannot reach {}: start with --addr 0.0.0.0:{port} to serve the room's \
             network\n",
            address.ip()
        ));
    } else {
        let shown = if address.ip().is_unspecified() {
            lan_address().map_or("THIS-MACHINE".to_string(), |ip| ip.to_string())
        } else {
            address.ip().to_string()
        };
        text.push_str(&format!(
            "  the room's page, for phones on this network: {scheme}://{shown}:{port}/\n"
        ));
    }
    text.push_str(&format!(
        "  metrics: {scheme}://{address}/metrics\n  director token: {}",
        token.display()
    ));
    text
}

/// This machine's address on its default route (no packet is sent: a UDP socket is only
/// pointed at a documentation address, which picks the interface).
fn lan_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    Some(socket.local_addr().ok()?.ip())
}

/// `baffled check`: scrubs the data directory (or the PostgreSQL store) and prints what
/// it found; the exit status.
async fn check(config: &Config) -> i32 {
    let token_path = config.token_path();
    let token = match std::fs::read_to_string(&token_path) {
        Ok(token) => token.trim().to_string(),
        Err(e) => {
            eprintln!(
                "the director token {} cannot be read ({e}): it is the key of seeds sealed before the seal key",
                token_path.display()
            );
            return 1;
        }
    };
    // Read, never made: a check changes nothing. Without the seal key only seeds sealed
    // under the token (v1.) open, and each match sealed under it says what is missing.
    let paths = config.key_paths();
    let seal_key = match baffle_server::keys::read_key(&paths.seal, "seal key") {
        Ok(key) => key.map(|bytes| baffle_server::seal::SealKey::from_key_file(bytes, &paths.seal)),
        Err(why) => {
            eprintln!("{why}");
            return 1;
        }
    };
    let key = baffle_server::seal::SealKeys::new(&token, seal_key);
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
