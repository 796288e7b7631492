//! Finding and dialling the server.
//!
//! `http://` URLs are dialled in the clear; `https://` URLs with TLS, trusting the
//! system's certificate authorities and, when one is given (`--ca-cert`,
//! `BAFFLE_CA_CERT`), a private one — a club's own CA, or the self-signed certificate of
//! a server on the venue's network.
//!
//! Several servers — the nodes of a cluster (`docs/cluster.md`) — are given as a list,
//! `--server a,b,c`: each is tried in turn until one answers. A node that does not write
//! a match answers a command for it UNAVAILABLE with the writing node's URL in the
//! metadata key `baffle-owner`; [`following_owner`] sends the same request there.

use std::sync::OnceLock;

use std::future::Future;

use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint};
use tonic::{Code, Status};

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

/// The servers of a list as typed (`a,b,c`), each read as [`url`] reads it.
pub fn servers(list: &str) -> Vec<String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(url)
        .collect()
}

/// Dials `server` (an `http://host:port` or `https://host:port` URL, or `host:port`), or
/// the first of a list (`a,b,c`) that answers.
pub async fn connect(server: &str) -> Result<Channel, tonic::transport::Error> {
    let list = servers(server);
    let mut failed = None;
    for one in &list {
        match connect_one(one).await {
            Ok(channel) => return Ok(channel),
            Err(e) => failed = Some(e),
        }
    }
    match failed {
        Some(e) => Err(e),
        None => connect_one(&url(server)).await,
    }
}

/// The URL of the node that writes the match, if `status` names one (`baffle-owner`).
pub fn owner(status: &Status) -> Option<String> {
    if status.code() != Code::Unavailable {
        return None;
    }
    let url = status.metadata().get(OWNER_KEY)?.to_str().ok()?;
    Some(url.to_string())
}

/// The metadata key that names the node writing a match.
pub const OWNER_KEY: &str = "baffle-owner";

/// Most times a request follows `baffle-owner` before its answer is taken as it is.
const MAX_HOPS: usize = 3;

/// Sends `request` by `call` over `channel`; when the answer is UNAVAILABLE naming the
/// node that writes the match, dials that node and sends the same request (the same
/// request id: a retry gets the first reply) there.
pub async fn following_owner<M, R, F, Fut>(
    channel: Channel,
    request: tonic::Request<M>,
    mut call: F,
) -> Result<R, Status>
where
    M: Clone,
    F: FnMut(Channel, tonic::Request<M>) -> Fut,
    Fut: Future<Output = Result<R, Status>>,
{
    let (metadata, _, message) = request.into_parts();
    let mut channel = channel;
    for _ in 0..MAX_HOPS {
        let again =
            tonic::Request::from_parts(metadata.clone(), Default::default(), message.clone());
        let status = match call(channel.clone(), again).await {
            Err(status) => status,
            answer => return answer,
        };
        let Some(url) = owner(&status) else {
            return Err(status);
        };
        channel = connect_one(&url).await.map_err(|e| {
            Status::unavailable(format!(
                "{} (and {url} does not answer: {e})",
                status.message()
            ))
        })?;
    }
    call(
        channel,
        tonic::Request::from_parts(metadata, Default::default(), message),
    )
    .await
}

async fn connect_one(server: &str) -> Result<Channel, tonic::transport::Error> {
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
    fn a_list_is_every_server_in_order() {
        assert_eq!(
            super::servers("127.0.0.1:1, https://b:2,,c:3"),
            ["http://127.0.0.1:1", "https://b:2", "http://c:3"]
        );
        assert_eq!(super::servers("a:1"), ["http://a:1"]);
    }

    #[test]
    fn the_owner_is_read_from_an_unavailable_status_only() {
        let mut s = tonic::Status::unavailable("elsewhere");
        s.metadata_mut()
            .insert(super::OWNER_KEY, "http://n2:1".parse().unwrap());
        assert_eq!(super::owner(&s).as_deref(), Some("http://n2:1"));
        let mut other = tonic::Status::not_found("no");
        other
            .metadata_mut()
            .insert(super::OWNER_KEY, "http://n2:1".parse().unwrap());
        assert_eq!(super::owner(&other), None);
    }

    #[test]
    fn an_address_without_a_scheme_is_http() {
        assert_eq!(super::url("127.0.0.1:50051"), "http://127.0.0.1:50051");
        assert_eq!(
            super::url("https://clock.example:443"),
            "https://clock.example:443"
        );
    }
}
