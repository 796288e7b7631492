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
//!
//! A node can be *frozen* — stopped (SIGSTOP), or its host hung — so that the kernel still
//! accepts TCP connections but nothing answers. With a list, a server is chosen only once
//! it has answered a cheap call (`TimeControls.ListPresets`: no credentials, no store) within [`ANSWER_WAIT`]; one that does
//! not is passed over for the next. Every request, on any channel dialled here, waits at
//! most [`REQUEST_DEADLINE`] for the head of its answer: a lone frozen server, or a frozen
//! node named by `baffle-owner`, ends a command with an error instead of hanging it. The
//! deadline bounds the answer's head only, not a stream's body: `follow` and the console
//! keep their streams open as long as they like.

use std::sync::OnceLock;
use std::time::Duration;

use std::future::Future;

use baffle_proto::v1::ListPresetsRequest;
use baffle_proto::v1::time_controls_client::TimeControlsClient;
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

/// How long a server of a list (`--server a,b,c`) has to connect and answer a cheap call
/// before the next is tried. A live node answers in milliseconds — the call touches
/// neither the store nor a match — even on a venue's Wi-Fi; a frozen node
/// (SIGSTOP: TCP still accepts, nothing answers) never does, and a cluster takes a dead
/// node's matches over within about a lease (1–2 s), so waiting longer for it gains
/// nothing while the next node could already be serving.
pub const ANSWER_WAIT: Duration = Duration::from_millis(1500);

/// How long any request waits for the head of its answer before it fails (the gRPC
/// status CANCELLED, "Timeout expired"; a command sent on to the node in `baffle-owner`
/// says which node did not answer). A frozen lone server, or a frozen owner, would
/// otherwise hang a command forever. Long, because a command that timed out may still
/// have been done (a slow database fail-over, a busy server): it bounds a hang, it does
/// not judge a server. Only the head: a stream's messages (`follow`, the console) may
/// come as late as they like.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(10);

/// Dials `server` (an `http://host:port` or `https://host:port` URL, or `host:port`), or
/// the first of a list (`a,b,c`) that answers a cheap call within [`ANSWER_WAIT`]. A
/// single server is dialled as it is, with no check (no extra round trip). When servers
/// of a list connect but none answers in time, the first of them is used (its requests
/// bounded by [`REQUEST_DEADLINE`]): a slow answer is better than none.
pub async fn connect(server: &str) -> Result<Channel, tonic::transport::Error> {
    let list = servers(server);
    if list.len() <= 1 {
        let one = list.into_iter().next().unwrap_or_else(|| url(server));
        return connect_one(&one, REQUEST_DEADLINE).await;
    }
    let mut failed = None;
    let mut silent = None;
    for one in &list {
        match connect_one(one, ANSWER_WAIT).await {
            Ok(channel) if answers(&channel).await => return Ok(channel),
            Ok(channel) => {
                silent.get_or_insert(channel);
            }
            Err(e) => failed = Some(e),
        }
    }
    match (silent, failed) {
        (Some(channel), _) => Ok(channel),
        (None, Some(e)) => Err(e),
        (None, None) => connect_one(&url(server), REQUEST_DEADLINE).await,
    }
}

/// Whether the server behind `channel` answers within [`ANSWER_WAIT`]: the list of time
/// controls, which needs no credentials and touches no store (the health service's
/// client is not a dependency of `baffle`). Any answer from the server counts, a refusal
/// too; a timeout or a broken connection does not.
async fn answers(channel: &Channel) -> bool {
    let mut client = TimeControlsClient::new(channel.clone());
    let check = client.list_presets(ListPresetsRequest { match_length: 0 });
    match tokio::time::timeout(ANSWER_WAIT, check).await {
        Ok(Ok(_)) => true,
        Ok(Err(status)) => !matches!(
            status.code(),
            Code::Unavailable | Code::Cancelled | Code::DeadlineExceeded | Code::Unknown
        ),
        Err(_) => false,
    }
}

/// What tonic says when a request's [`REQUEST_DEADLINE`] passes (status CANCELLED).
const TIMEOUT_EXPIRED: &str = "Timeout expired";

/// Why a connection could not be made, each reason in the chain said once: tonic says
/// only "transport error"; the reason is in its sources (an untrusted certificate, a
/// refused connection), where hyper repeats a link ("tcp connect error: tcp connect
/// error").
pub fn why_unreachable(e: &tonic::transport::Error) -> String {
    let mut said = vec![e.to_string()];
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let text = s.to_string();
        if said.last() != Some(&text) {
            said.push(text);
        }
        source = s.source();
    }
    said.join(": ")
}

/// Whether `status` is a request's [`REQUEST_DEADLINE`] having passed with no answer.
pub fn timed_out(status: &Status) -> bool {
    status.code() == Code::Cancelled && status.message().starts_with(TIMEOUT_EXPIRED)
}

/// In words, for a status that is a request's deadline having passed: which server did
/// not answer, and in how long. None for any other status.
pub fn no_answer(status: &Status) -> Option<String> {
    if !timed_out(status) {
        return None;
    }
    let who = status
        .message()
        .strip_prefix(TIMEOUT_EXPIRED)
        .and_then(|m| m.strip_prefix(": "))
        .unwrap_or("the server");
    Some(format!(
        "{who} did not answer within {} s (frozen, or overloaded?)",
        REQUEST_DEADLINE.as_secs()
    ))
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
    // The node the request was sent on to, if any.
    let mut hop: Option<String> = None;
    for _ in 0..MAX_HOPS {
        let again =
            tonic::Request::from_parts(metadata.clone(), Default::default(), message.clone());
        let status = match call(channel.clone(), again).await {
            Err(status) => status,
            answer => return answer,
        };
        let Some(url) = owner(&status) else {
            return Err(no_answer_from(status, hop.as_deref()));
        };
        channel = connect_one(&url, REQUEST_DEADLINE).await.map_err(|e| {
            Status::unavailable(format!(
                "{} (and {url} does not answer: {e})",
                status.message()
            ))
        })?;
        hop = Some(url);
    }
    call(
        channel,
        tonic::Request::from_parts(metadata, Default::default(), message),
    )
    .await
    .map_err(|status| no_answer_from(status, hop.as_deref()))
}

/// `status` as it is, or — the deadline having passed on a request sent on to the node
/// at `hop` — the same, naming that node (see [`no_answer`]).
fn no_answer_from(status: Status, hop: Option<&str>) -> Status {
    match hop {
        Some(url) if timed_out(&status) => Status::cancelled(format!(
            "{TIMEOUT_EXPIRED}: the node that writes the match, {url},"
        )),
        _ => status,
    }
}

/// Dials one server: at most `wait` to connect (TCP, and TLS for `https://`), and every
/// request on the channel at most [`REQUEST_DEADLINE`] for the head of its answer.
async fn connect_one(server: &str, wait: Duration) -> Result<Channel, tonic::transport::Error> {
    let server = url(server);
    let mut endpoint = Endpoint::from_shared(server.clone())?
        .connect_timeout(wait)
        .timeout(REQUEST_DEADLINE);
    if server.starts_with("https://") {
        let mut tls = ClientTlsConfig::new().with_native_roots().timeout(wait);
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

    #[tokio::test]
    async fn a_request_sent_on_to_a_frozen_owner_ends_after_the_deadline() {
        use baffle_proto::v1::ListPresetsRequest;
        use baffle_proto::v1::time_controls_client::TimeControlsClient;
        // The owner accepts connections and never answers (a stopped process).
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let frozen = format!("http://{}", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for stream in listener.incoming().flatten() {
                held.push(stream);
            }
        });
        let first = tonic::transport::Endpoint::from_static("http://127.0.0.1:1").connect_lazy();
        let mut calls = 0;
        let owner = frozen.clone();
        let request = tonic::Request::new(ListPresetsRequest { match_length: 0 });
        let sent = super::following_owner(first, request, |channel, request| {
            calls += 1;
            let first_call = calls == 1;
            let owner = owner.clone();
            async move {
                if first_call {
                    let mut s = tonic::Status::unavailable("elsewhere");
                    s.metadata_mut()
                        .insert(super::OWNER_KEY, owner.parse().unwrap());
                    return Err(s);
                }
                TimeControlsClient::new(channel).list_presets(request).await
            }
        });
        let limit = super::REQUEST_DEADLINE + std::time::Duration::from_secs(5);
        let status = tokio::time::timeout(limit, sent)
            .await
            .expect("no hang")
            .unwrap_err();
        let why = super::no_answer(&status).expect("a deadline");
        assert!(why.contains(&frozen), "{why}");
        assert!(why.contains("did not answer within 10 s"), "{why}");
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
