//! Settings of `baffled`: flags with environment fallbacks, and defaults that run out of
//! the box.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::followers::FollowerLimits;

/// Default address: loopback only, so a fresh server is not exposed to the network.
pub const DEFAULT_ADDR: &str = "127.0.0.1:50051";

/// Default data directory.
pub const DEFAULT_DATA_DIR: &str = "./baffle-data";

/// What `baffled` does instead of serving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Subcommand)]
pub enum Command {
    /// Scrubs the data directory of a stopped server: the store against its manifest,
    /// the registry, and every match log replayed as a restart would (chain, dice, rules).
    /// Prints one line per stream; exit status 1 if anything is wrong.
    Check,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

/// baffled: the baffle tournament clock and fair-dice server.
///
/// Serves the baffle.v1 gRPC API with grpc.health.v1 health checks and server reflection.
/// With no flags it listens on 127.0.0.1:50051 and keeps its data in ./baffle-data.
#[derive(Debug, Parser)]
#[command(
    name = "baffled",
    version,
    after_help = "Example:\n  baffled --addr 0.0.0.0:50051 --data-dir /var/lib/baffle\n  grpcurl -plaintext 127.0.0.1:50051 list\n  baffled check --data-dir /var/lib/baffle"
)]
pub struct Config {
    /// What to do instead of serving.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Address to listen on.
    #[arg(long, visible_alias = "listen", env = "BAFFLE_ADDR", default_value = DEFAULT_ADDR)]
    pub addr: SocketAddr,

    /// Where matches, the registry and the director token are kept.
    #[arg(long, global = true, env = "BAFFLE_DATA_DIR", default_value = DEFAULT_DATA_DIR)]
    pub data_dir: PathBuf,

    /// Keep the matches in PostgreSQL rather than in <data-dir>/store: a `postgres://`
    /// URL, with several hosts and `target_session_attrs=read-write` for a replicated
    /// database (docs/cluster.md); `sslmode=verify-full&sslrootcert=CA.pem` for TLS with
    /// the server checked. Give a password through BAFFLE_STORE, not the command line.
    /// Default: the embedded store in the data directory.
    #[arg(long, global = true, env = "BAFFLE_STORE", value_parser = postgres_url, hide_env_values = true)]
    pub store: Option<String>,

    /// With --store: this node's id among the nodes sharing the database (docs/cluster.md).
    /// Default: the host name and the port of --addr.
    #[arg(long, env = "BAFFLE_NODE_ID", value_parser = node_id)]
    pub node_id: Option<String>,

    /// With --store: the URL clients reach this node at, given to clients of the other
    /// nodes (status metadata `baffle-owner`) for the matches this node writes.
    /// Default: http(s)://<--addr> (the host name if --addr is 0.0.0.0 or ::).
    #[arg(long, env = "BAFFLE_ADVERTISE")]
    pub advertise: Option<String>,

    /// With --store: how long a node's lease on its matches lasts without renewal, in
    /// ms (renewed every quarter of it). A dead node's matches are taken over after about
    /// this much.
    #[arg(long, env = "BAFFLE_LEASE_MS", default_value_t = 2_000,
          value_parser = clap::value_parser!(u64).range(200..=60_000))]
    pub lease_ms: u64,

    /// With --store: whether this node hands matches over to a node holding fewer, so
    /// that a node that joins or comes back takes its fair share (docs/cluster.md,
    /// "Rebalancing"). `--rebalance false`: it never gives a match away (it still takes
    /// what it is handed, and claims a dead node's).
    #[arg(long, env = "BAFFLE_REBALANCE", default_value_t = true,
          action = clap::ArgAction::Set)]
    pub rebalance: bool,

    /// The director token file (created with mode 0600 on first start).
    /// Default: <data-dir>/director.token.
    /// Server seeds sealed before there was a seal key (`v1.`) open with it: keep it, and
    /// back it up apart from the store.
    #[arg(long, global = true, env = "BAFFLE_TOKEN_FILE")]
    pub token_file: Option<PathBuf>,

    /// The seal key file: 32 random bytes (hex) that seal the server seeds in the store,
    /// created with mode 0600 on first start. Default: <data-dir>/seal.key.
    /// The director token does not open what it seals. Back it up apart from the store:
    /// losing it loses every unrevealed seed (docs/server.md). The nodes of a cluster
    /// share one.
    #[arg(long, global = true, env = "BAFFLE_SEAL_KEY_FILE")]
    pub seal_key_file: Option<PathBuf>,

    /// The signing key file: the Ed25519 secret key (hex) that signs every head sent to
    /// followers, created with mode 0600 on first start. Default: <data-dir>/signing.key.
    /// Its public key is published; the nodes of a cluster share one.
    #[arg(long, global = true, env = "BAFFLE_SIGNING_KEY_FILE")]
    pub signing_key_file: Option<PathBuf>,

    /// TLS certificate chain (PEM). With --tls-key, the server speaks TLS only.
    #[arg(long, env = "BAFFLE_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,

    /// TLS private key (PEM), for --tls-cert.
    #[arg(long, env = "BAFFLE_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,

    /// Open connections at most; one more is answered 503 and closed. Default: 10,000,
    /// or fewer if the open-files limit (raised to its hard limit at start) allows fewer.
    #[arg(long, env = "BAFFLE_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,

    /// Streams that follow without a credential (Watch, WatchTournament, ExportLog) open
    /// at once in all; one more is refused RESOURCE_EXHAUSTED. The director's are not
    /// counted.
    #[arg(long, env = "BAFFLE_MAX_FOLLOWERS", default_value_t = FollowerLimits::DEFAULT_TOTAL)]
    pub max_followers: usize,

    /// Such streams open at once from one IP address. Raise it behind a reverse proxy
    /// or a venue's NAT, where many phones share one address.
    #[arg(long, env = "BAFFLE_MAX_FOLLOWERS_PER_ADDRESS", default_value_t = FollowerLimits::DEFAULT_PER_ADDRESS)]
    pub max_followers_per_address: usize,

    /// Log filter in tracing-subscriber's EnvFilter syntax (e.g. `info`, `baffle_server=debug`).
    #[arg(long, global = true, env = "BAFFLE_LOG", default_value = "info")]
    pub log: String,

    /// Log format.
    #[arg(long, global = true, env = "BAFFLE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// A `--store` value: a PostgreSQL connection URL that parses.
fn postgres_url(url: &str) -> Result<String, String> {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return Err("a store is a postgres:// URL (the embedded store needs no flag)".into());
    }
    let (rest, _tls) = crate::store::split_store_url(url)?;
    rest.parse::<tokio_postgres::Config>()
        .map_err(|e| format!("the URL does not parse: {e}"))?;
    Ok(url.to_string())
}

/// A `--node-id`: plain, as ids are.
fn node_id(id: &str) -> Result<String, String> {
    if (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
    {
        Ok(id.to_string())
    } else {
        Err("1 to 64 letters, digits, '-', '_', '.' or ':'".into())
    }
}

/// This machine's host name (or `localhost` if it cannot be read).
fn host_name() -> String {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|f| std::fs::read_to_string(f).ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

impl Config {
    /// The node's id (`--node-id`, or host name and port).
    pub fn node(&self) -> String {
        self.node_id
            .clone()
            .unwrap_or_else(|| format!("{}:{}", host_name(), self.addr.port()))
    }

    /// The node's advertised URL (`--advertise`, or from `--addr`).
    pub fn advertised(&self) -> String {
        if let Some(url) = &self.advertise {
            return url.clone();
        }
        let scheme = if self.tls_cert.is_some() {
            "https"
        } else {
            "http"
        };
        match self.addr.ip().is_unspecified() {
            true => format!("{scheme}://{}:{}", host_name(), self.addr.port()),
            false => format!("{scheme}://{}", self.addr),
        }
    }

    /// The TLS settings (certificate chain and key, PEM) if TLS is configured, checked
    /// as the server will use them: a bad certificate or key is an error here, before the
    /// server says it listens.
    pub fn tls_identity(&self) -> std::io::Result<Option<crate::tls::Tls>> {
        let (Some(cert), Some(key)) = (&self.tls_cert, &self.tls_key) else {
            return Ok(None);
        };
        crate::tls::Tls::from_files(cert, key).map(Some)
    }

    /// The limits on connections, within the open-files limit `open_files` (None:
    /// unlimited).
    pub fn limits(&self, open_files: Option<u64>) -> crate::listener::Limits {
        let fit = crate::listener::Limits::within(open_files.unwrap_or(u64::MAX));
        crate::listener::Limits {
            max_connections: self.max_connections.unwrap_or(fit.max_connections),
            ..fit
        }
    }

    /// The bounds on anonymous streams.
    pub fn follower_limits(&self) -> FollowerLimits {
        FollowerLimits {
            total: self.max_followers,
            per_address: self.max_followers_per_address,
        }
    }

    /// The director token file in force.
    pub fn token_path(&self) -> PathBuf {
        self.token_file
            .clone()
            .unwrap_or_else(|| self.data_dir.join("director.token"))
    }

    /// The files of the server's secrets in force: the token, the seal key and the
    /// signing key (`keys`).
    pub fn key_paths(&self) -> crate::keys::KeyPaths {
        let defaults = crate::keys::KeyPaths::in_dir(&self.data_dir);
        crate::keys::KeyPaths {
            token: self.token_path(),
            seal: self.seal_key_file.clone().unwrap_or(defaults.seal),
            signing: self.signing_key_file.clone().unwrap_or(defaults.signing),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Config::command().debug_assert();
        let c = Config::try_parse_from(["baffled"]).unwrap();
        assert_eq!(c.addr.to_string(), DEFAULT_ADDR);
        assert_eq!(
            c.token_path(),
            PathBuf::from("./baffle-data/director.token")
        );
        let keys = c.key_paths();
        assert_eq!(keys.seal, PathBuf::from("./baffle-data/seal.key"));
        assert_eq!(keys.signing, PathBuf::from("./baffle-data/signing.key"));
        let c = Config::try_parse_from([
            "baffled",
            "--seal-key-file",
            "/k/seal",
            "--signing-key-file",
            "/k/sign",
        ])
        .unwrap();
        let keys = c.key_paths();
        assert_eq!(
            (keys.seal, keys.signing),
            ("/k/seal".into(), "/k/sign".into())
        );
        assert!(Config::try_parse_from(["baffled", "--addr", "not-an-address"]).is_err());
        let c =
            Config::try_parse_from(["baffled", "--listen", "127.0.0.1:1", "--log-format", "json"])
                .unwrap();
        assert_eq!((c.addr.port(), c.log_format), (1, LogFormat::Json));
        assert!(
            Config::try_parse_from(["baffled", "--tls-cert", "c.pem"]).is_err(),
            "a certificate needs its key"
        );
        let c = Config::try_parse_from(["baffled", "check", "--data-dir", "/d"]).unwrap();
        assert_eq!(c.command, Some(Command::Check));
        assert_eq!(c.data_dir, PathBuf::from("/d"));
        assert_eq!(c.store, None, "the embedded store by default");
        let url = "postgres://baffle@db1:5432,db2:5432/baffle?target_session_attrs=read-write";
        let c = Config::try_parse_from(["baffled", "--store", url]).unwrap();
        assert_eq!(c.store.as_deref(), Some(url));
        assert!(Config::try_parse_from(["baffled", "--store", "sled:/x"]).is_err());
        assert!(Config::try_parse_from(["baffled", "--store", "postgres://h/db?bad=1"]).is_err());
        let tls = "postgres://baffle@db1,db2/baffle?sslmode=verify-full&sslrootcert=/etc/ca.pem";
        assert!(Config::try_parse_from(["baffled", "--store", tls]).is_ok());
        let weak = "postgres://baffle@db1/baffle?sslmode=require";
        assert!(Config::try_parse_from(["baffled", "--store", weak]).is_err());
        let c = Config::try_parse_from(["baffled", "--addr", "127.0.0.1:7001"]).unwrap();
        assert!(c.node().ends_with(":7001"), "{}", c.node());
        assert_eq!(c.advertised(), "http://127.0.0.1:7001");
        assert_eq!(c.lease_ms, 2_000);
        assert!(c.rebalance, "rebalancing is on by default");
        let c = Config::try_parse_from([
            "baffled",
            "--node-id",
            "n1",
            "--advertise",
            "http://n1:50051",
            "--lease-ms",
            "500",
        ])
        .unwrap();
        assert_eq!(
            (c.node().as_str(), c.advertised().as_str()),
            ("n1", "http://n1:50051")
        );
        assert_eq!(c.lease_ms, 500);
        let off = Config::try_parse_from(["baffled", "--rebalance", "false"]).unwrap();
        assert!(!off.rebalance);
        assert!(Config::try_parse_from(["baffled", "--node-id", "a b"]).is_err());
        assert!(Config::try_parse_from(["baffled", "--lease-ms", "10"]).is_err());
    }
}
