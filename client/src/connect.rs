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

/// Dials `server` (an `http://host:port` or `https://host:port` URL).
pub async fn connect(server: &str) -> Result<Channel, tonic::transport::Error> {
    let mut endpoint = Endpoint::from_shared(server.to_string())?;
    if server.starts_with("https://") {
        let mut tls = ClientTlsConfig::new().with_native_roots();
        if let Some(pem) = PRIVATE_CA.get() {
            tls = tls.ca_certificate(Certificate::from_pem(pem));
        }
        endpoint = endpoint.tls_config(tls)?;
    }
    endpoint.connect().await
}
