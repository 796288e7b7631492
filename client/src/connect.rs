//! Finding and dialling the server.
//!
//! `http://` URLs are dialled in the clear; `https://` URLs with TLS, trusting the
//! system's certificate authorities and, when one is given (`--ca-cert`,
//! `BAFFLE_CA_CERT`), a private one — a club's own CA, or the self-signed certificate of
//! a server on the venue's network.

use std::sync::OnceLock;

use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};

/// Where `baffle` looks for the server unless told otherwise (`--server`, `BAFFLE_SERVER`).
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:50051";

/// The private CA to trust (PEM), set once from the command line.
static PRIVATE_CA: OnceLock<Vec<u8>> = OnceLock::new();

/// Trusts `pem` (a CA certificate) for every `https://` server dialled from now on, as
/// well as the system's authorities. Set once; a later call changes nothing.
pub fn trust(pem: Vec<u8>) {
    let _ = PRIVATE_CA.set(pem);
}

/// The server's URL as typed: `127.0.0.1:50051` and `localhost:50051` are read as
/// `http://…` (what `baffled` prints is an address, and people type that).
pub fn url(server: &str) -> String {
    if server.contains("://") {
        server.to_string()
    } else {
        format!("http://{server}")
    }
}

/// Dials `server` (an `http://host:port` or `https://host:port` URL, or `host:port`).
pub async fn connect(server: &str) -> Result<Channel, tonic::transport::Error> {
    let server = url(server);
    let mut endpoint = Endpoint::from_shared(server.clone())?;
    if server.starts_with("https://") {
        let mut tls = ClientTlsConfig::new().with_native_roots();
        if let Some(pem) = PRIVATE_CA.get() {
            tls = tls.ca_certificate(Certificate::from_pem(pem));
        }
        endpoint = endpoint.tls_config(tls)?;
    }
    endpoint.connect().await
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
