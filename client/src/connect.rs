//! Finding and dialling the server.

use tonic::transport::{Channel, Endpoint};

/// Where `baffle` looks for the server unless told otherwise (`--server`, `BAFFLE_SERVER`).
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";

/// The server's URL as typed: `127.0.0.1:50051` and `localhost:50051` are read as
/// `http://…` (what `baffled` prints is an address, and people type that).
pub fn url(server: &str) -> String {
    if server.contains("://") {
        server.to_string()
    } else {
        format!("http://{server}")
    }
}

/// Dials `server` (an `http://host:port` URL, or `host:port`).
pub async fn connect(server: &str) -> Result<Channel, tonic::transport::Error> {
    Endpoint::from_shared(url(server))?.connect().await
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_address_without_a_scheme_is_http() {
        assert_eq!(super::url("127.0.0.1:50051"), "http://127.0.0.1:50051");
        assert_eq!(
            super::url("https://clock.example:443"),
            "https://clock.example:443"
        );
    }
}
