//! A node of a cluster: several `baffled` on one PostgreSQL database (`docs/cluster.md`).
//!
//! Two tasks beside the server:
//!
//! - **Leases**, every quarter of the lease: one statement renews every lease the node
//!   holds (and says the node is alive, with its address); a lease not renewed is lost,
//!   and its match's actor becomes a replica. Then one statement claims expired leases —
//!   a dead node's matches, at most a fair share per node per tick so that they spread
//!   over the live nodes — each with a new epoch, and each claimed match is taken over
//!   by its actor (log read to its end, takeover record, then commands).
//! - **The change feed**: each notification that a stream grew is passed to the hub
//!   (the registry folded, a replica told to read); each gap (the listening connection
//!   (re)connected) makes the whole node read again.
//!
//! Before it takes part, a node shows that it holds the cluster's director token, seal key
//! and signing key ([`join_checks`]): one that does not is refused at start, since it
//! could neither open its matches' seeds nor sign their heads as their logs say.
//!
//! A node shutting down (SIGTERM) lets its leases go, so the others take its matches over
//! at their next tick. Times of leases are the database's. The node stops writing at its own deadline (the
//! renewal's send time + ¾ of the lease), before any other node may claim.

use std::sync::Arc;
use std::time::Duration;

use crate::hub::Hub;
use crate::seal::SealKeys;
use crate::signing::HeadSigner;
use crate::store::{Change, JoinChecks, PgStore, StoreError};
use crate::time::TimeSource;

/// The default lease: a dead node's matches are served again within about this plus a
/// quarter of it.
pub const DEFAULT_LEASE: Duration = Duration::from_millis(2_000);

/// The running tasks of a node; they stop when this is dropped (or [`Node::stop`]).
pub struct Node {
    tasks: Vec<tokio::task::JoinHandle<()>>,
    store: PgStore,
}

impl Node {
    /// Starts the node's leases and change feed for `hub`, whose store was opened with
    /// [`PgStore::connect_node`]: the registered matches get leases if they had none (logs
    /// written before leases), the node's leases from before a restart are let go to be
    /// claimed anew, and the first renewal and claim run before this returns.
    pub async fn start<T: TimeSource>(hub: Arc<Hub<PgStore, T>>) -> Result<Node, String> {
        let fence = hub
            .store
            .fence()
            .ok_or("the store was not opened for a node (--node-id)")?;
        let (node, lease) = (fence.node.clone(), fence.lease);
        let streams = hub
            .match_handles()
            .await
            .iter()
            .map(|h| crate::actor::stream(&h.info.id))
            .collect();
        hub.store
            .start_leases(streams, join_checks(hub.seal_keys(), hub.signer())?)
            .await
            .map_err(|e| match e {
                StoreError::Refused(why) => format!("this node may not join the cluster: {why}"),
                e => format!("the leases could not be set up: {e}"),
            })?;
        // The feed first: nothing appended after this is missed.
        let changes = hub.store.changes();
        let feed = tokio::spawn(follow_changes(hub.clone(), changes));
        tick(&hub, &node).await;
        let store = hub.store.clone();
        let leases = tokio::spawn(keep_leases(hub, node, lease));
        Ok(Node {
            tasks: vec![feed, leases],
            store,
        })
    }

    /// Leaves the cluster (a node shutting down, once it serves no more): stops its
    /// tasks, then lets every lease go and marks the node gone, so the others take its
    /// matches over at their next tick and a restart under its id does not wait. Awaited
    /// by `baffled` before it exits: the leases task lets them go too when the hub
    /// closes, but the process could end before it ran (a stranger's run saw a restart
    /// after SIGTERM wait a lease, 3 times in 4).
    pub async fn leave(self) {
        self.stop();
        match self.store.release_leases().await {
            Ok(()) => tracing::info!("let every lease go: the other nodes take the matches over"),
            Err(e) => tracing::warn!(error = %e, "the leases could not be let go: they run out"),
        }
    }

    /// Stops renewing, claiming and listening (as if the node died, for its leases; its
    /// matches are claimed by the other nodes once the leases run out).
    pub fn stop(&self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.stop();
    }
}

/// What this node must share with the cluster: its token's, seal key's and signing
/// key's check values. A node has a seal key from its start (`keys`).
pub fn join_checks(seal: &SealKeys, signer: &HeadSigner) -> Result<JoinChecks, String> {
    let key_file = seal
        .key_file()
        .ok_or("this node has no seal key: it cannot seal the server seeds of new matches")?;
    Ok(JoinChecks {
        token: seal.token().check_value(),
        seal: key_file.check_value(),
        signer: signer.public_hex().to_string(),
    })
}

async fn follow_changes<T: TimeSource>(
    hub: Arc<Hub<PgStore, T>>,
    mut changes: tokio::sync::mpsc::UnboundedReceiver<Change>,
) {
    let closed = hub.closed();
    tokio::pin!(closed);
    loop {
        let change = tokio::select! {
            change = changes.recv() => change,
            () = &mut closed => return,
        };
        match change {
            Some(Change::Gap) => hub.catch_up_all().await,
            Some(Change::Grew { stream, .. }) => hub.stream_grew(&stream).await,
            None => return,
        }
    }
}

async fn keep_leases<T: TimeSource>(hub: Arc<Hub<PgStore, T>>, node: String, lease: Duration) {
    let closed = hub.closed();
    tokio::pin!(closed);
    let mut every = tokio::time::interval(lease / 4);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    every.tick().await;
    loop {
        tokio::select! {
            _ = every.tick() => tick(&hub, &node).await,
            () = &mut closed => break,
        }
    }
    // Shutting down: the other nodes take the matches over at their next tick.
    match hub.store.release_leases().await {
        Ok(()) => tracing::info!("let every lease go: the other nodes take the matches over"),
        Err(e) => tracing::warn!(error = %e, "the leases could not be let go: they run out"),
    }
}

/// One renewal, then one claim.
async fn tick<T: TimeSource>(hub: &Arc<Hub<PgStore, T>>, node: &str) {
    match hub.store.renew_leases().await {
        Ok(lost) => {
            for stream in lost {
                tracing::warn!(%stream, "lost the lease: the match is served by another node");
                // Its actor sees it no longer writes, and reads what the owner appends.
                hub.stream_grew(&stream).await;
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "the leases could not be renewed (the node stops writing at their end)");
            return;
        }
    }
    match hub.store.claim_leases().await {
        Ok(claimed) => {
            for claim in claimed {
                let (stream, epoch, silent_ms) = (claim.stream, claim.epoch, claim.silent_ms);
                tracing::info!(%stream, epoch, ?silent_ms, "claimed an expired lease: taking the match over");
                // How long its previous holder had been silent, measured by the
                // database: a match played without devices is credited that much of the
                // outage, within a bound (`docs/cluster.md`).
                hub.take_over(&stream, node, epoch, silent_ms).await;
            }
        }
        Err(e) => tracing::warn!(error = %e, "expired leases could not be claimed"),
    }
}
