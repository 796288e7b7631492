//! The change feed of a cluster (`docs/cluster.md`): every commit transaction notifies
//! the channel `baffle` with the streams it wrote and their new lengths (NOTIFY is
//! transactional: it is sent at COMMIT, never for a transaction that failed), and each
//! node keeps one connection that LISTENs to it.
//!
//! A notification is only a hint — the node reads the stream from where it is — so a
//! notification repeated or merged loses nothing. Notifications sent while the listening
//! connection was down are lost, so every (re)connection is announced as a
//! [`Change::Gap`], after which every stream is read again from where each reader is.
//!
//! On a node this connection is also the node's **sign of life**: on each connection it
//! records itself as the node's listening session ([`record_session`]), and a node whose
//! recorded session is gone from the server is dead — its leases are claimed at once.

use std::time::Duration;

use futures_util::future::poll_fn;
use tokio::sync::mpsc;
use tokio_postgres::tls::{MakeTlsConnect, TlsConnect};
use tokio_postgres::{AsyncMessage, Socket};

/// The channel every commit notifies.
pub(super) const CHANNEL: &str = "baffle";

/// The longest payload sent in one notification (PostgreSQL's limit is 8,000 bytes).
pub(super) const MAX_PAYLOAD: usize = 7_000;

/// How a hand-over's notification begins (`handed NODE`): no stream is named `handed`
/// (match streams begin `m/`), and a node of an older version reads it as no change.
pub(super) const HANDED: &str = "handed ";

/// What the feed says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The listening connection (re)connected: anything may have been missed before.
    Gap,
    /// `stream` was appended to (it holds `len` records, or more by now).
    Grew {
        /// The stream.
        stream: String,
        /// Its length at that commit.
        len: u64,
    },
    /// A node handed a match's lease over to node `to` (rebalancing): `to` claims it at
    /// once rather than at its next tick.
    Handed {
        /// The node it was handed to.
        to: String,
    },
}

/// The payloads announcing `lens` (stream and new length, a line each), each within
/// [`MAX_PAYLOAD`].
pub(super) fn payloads<'a>(lens: impl IntoIterator<Item = (&'a str, i64)>) -> Vec<String> {
    let mut out = vec![String::new()];
    for (stream, len) in lens {
        let line = format!("{stream} {len}\n");
        if out
            .last()
            .is_some_and(|p| p.len() + line.len() > MAX_PAYLOAD)
        {
            out.push(String::new());
        }
        out.last_mut().expect("never empty").push_str(&line);
    }
    out.retain(|p| !p.is_empty());
    out
}

fn parse(payload: &str) -> impl Iterator<Item = Change> + '_ {
    payload.lines().filter_map(|line| {
        if let Some(to) = line.strip_prefix(HANDED) {
            return Some(Change::Handed { to: to.to_string() });
        }
        let (stream, len) = line.rsplit_once(' ')?;
        Some(Change::Grew {
            stream: stream.to_string(),
            len: len.parse().ok()?,
        })
    })
}

/// Who a node's feed session stands for ([`record_session`]): the node, where it is
/// reached, and its lease in milliseconds.
pub(super) struct Node {
    /// The node's id.
    pub node: String,
    /// Where clients reach it.
    pub advertise: String,
    /// Its lease, in milliseconds.
    pub lease_ms: f64,
}

/// Records the listening session `client` as node `who`'s, with the server it runs on:
/// while it is open there, the node is alive; once it is gone — with every session named
/// `sessions` (the node's others; the feed's is that and ` listen`) — the node is dead
/// and its leases are claimed at once (`pg_lease.rs`, `dead_and_live!`). Made on every
/// (re)connection of the feed, after the node has joined (a process refused at the join
/// never records its session). A node not yet renewed is recorded as not seen
/// (`-infinity`): not live.
async fn record_session(
    client: &tokio_postgres::Client,
    who: &Node,
    sessions: &str,
) -> Result<(), tokio_postgres::Error> {
    client
        .execute(
            "INSERT INTO baffle_nodes (node, advertise, seen_at, lease_ms, listen_pid,
                 listen_since, server_since, session_name)
             SELECT $1, $2, '-infinity', $3, pid, backend_start, pg_postmaster_start_time(), $4
             FROM pg_stat_activity WHERE pid = pg_backend_pid()
             ON CONFLICT (node) DO UPDATE SET listen_pid = excluded.listen_pid,
                 listen_since = excluded.listen_since, server_since = excluded.server_since,
                 session_name = excluded.session_name",
            &[&who.node, &who.advertise, &who.lease_ms, &sessions],
        )
        .await
        .map(|_| ())
}

/// Until `changes` is dropped: listen, and after any loss of the connection connect
/// again (after a short pause) and announce the gap. On a node (`node`), each connection
/// is recorded as the node's listening session before the gap is announced; a connection
/// that cannot be recorded is dropped and made again (a record naming an older, ended
/// session would have the node judged dead).
/// `tls` makes the connection (plain, or TLS checked as the store's URL says).
pub(super) async fn run<T>(
    config: tokio_postgres::Config,
    tls: T,
    node: Option<Node>,
    changes: mpsc::UnboundedSender<Change>,
) where
    T: MakeTlsConnect<Socket> + Clone + Send + 'static,
    T::Stream: Send + 'static,
    T::TlsConnect: Send,
    <T::TlsConnect as TlsConnect<Socket>>::Future: Send,
{
    let mut config = config;
    // The store's name for its sessions (`baffled NODE`), marked as the feed's.
    let sessions = config
        .get_application_name()
        .unwrap_or("baffled")
        .to_string();
    config.application_name(format!("{sessions} listen"));
    loop {
        if changes.is_closed() {
            return;
        }
        match config.connect(tls.clone()).await {
            Ok((client, mut connection)) => {
                let (messages, mut received) = mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    while let Some(message) = poll_fn(|cx| connection.poll_message(cx)).await {
                        match message {
                            Ok(m) => {
                                if messages.send(m).is_err() {
                                    return;
                                }
                            }
                            Err(e) => {
                                tracing::warn!(error = %e, "the change feed's connection failed");
                                return;
                            }
                        }
                    }
                });
                let listening = async {
                    client.batch_execute(&format!("LISTEN {CHANNEL}")).await?;
                    match &node {
                        Some(node) => record_session(&client, node, &sessions).await,
                        None => Ok(()),
                    }
                };
                match listening.await {
                    Ok(()) => {
                        if changes.send(Change::Gap).is_err() {
                            return;
                        }
                        while let Some(message) = received.recv().await {
                            if let AsyncMessage::Notification(n) = message {
                                for change in parse(n.payload()) {
                                    if changes.send(change).is_err() {
                                        return;
                                    }
                                }
                            }
                        }
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "LISTEN (or recording the session) failed")
                    }
                }
                driver.abort();
            }
            Err(e) => tracing::warn!(error = %e, "the change feed cannot connect"),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_split_and_read_back() {
        let names: Vec<String> = (0..1000).map(|i| format!("m/match-{i}")).collect();
        let sent = payloads(names.iter().map(|n| (n.as_str(), 7)));
        assert!(sent.len() > 1);
        assert!(sent.iter().all(|p| p.len() <= MAX_PAYLOAD));
        let read: Vec<Change> = sent
            .iter()
            .flat_map(|p| parse(p).collect::<Vec<_>>())
            .collect();
        assert_eq!(read.len(), 1000);
        assert_eq!(
            parse("handed n2\nm/a 3\n").collect::<Vec<_>>(),
            vec![
                Change::Handed { to: "n2".into() },
                Change::Grew {
                    stream: "m/a".into(),
                    len: 3
                }
            ]
        );
        assert_eq!(
            read[999],
            Change::Grew {
                stream: "m/match-999".into(),
                len: 7
            }
        );
    }
}
