//! Settings of `baffled`, from flags or environment, with defaults that run out of the box.

use std::net::SocketAddr;

use clap::Parser;

/// Default address: loopback only, so a fresh server is not exposed to the network.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:50051";

/// baffled: the baffle tournament clock and fair-dice server.
///
/// Serves the baffle.v1 gRPC API with grpc.health.v1 health checks and server reflection.
/// With no flags it listens on 127.0.0.1:50051.
#[derive(Debug, Parser)]
#[command(
    name = "baffled",
    version,
    after_help = "Example:\n  baffled --listen 0.0.0.0:50051\n  grpcurl -plaintext 127.0.0.1:50051 list"
)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "BAFFLE_LISTEN", default_value = DEFAULT_LISTEN)]
    pub listen: SocketAddr,

    /// Log filter in tracing-subscriber's EnvFilter syntax (e.g. `info`, `baffle_server=debug`).
    #[arg(long, env = "BAFFLE_LOG", default_value = "info")]
    pub log: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Config::command().debug_assert();
        let c = Config::try_parse_from(["baffled"]).unwrap();
        assert_eq!(c.listen.to_string(), DEFAULT_LISTEN);
        assert!(Config::try_parse_from(["baffled", "--listen", "not-an-address"]).is_err());
    }
}
