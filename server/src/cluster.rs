//! A node of a cluster: several `baffled` on one PostgreSQL database (`docs/cluster.md`).
//!
//! Two tasks beside the server:
//!
//! - **Leases**, every quarter of the lease: one statement renews every lease the node
//!   holds (and says the node is alive, with its address); a lease not renewed is lost,
//!   and its match's actor becomes a replica. Then one statement claims expired leases,
//!   and every lease of a node whose process is gone (its listening session ended on the
//!   database: `pg_lease.rs`, `dead_and_live!`) without waiting for their end — at most
//!   a fair share per node per tick so that they spread over the live nodes — each with
//!   a new epoch, and each claimed match is taken over by its actor (log read to its
//!   end, takeover record, then commands). A lease of another node that ends before the
//!   next tick (a node fallen silent, or frozen) is claimed at its end ([`claim_at`]).
//! - **The change feed**: each notification that a stream grew is passed to the hub
//!   (the registry folded, a replica told to read); each gap (the listening connection
//!   (re)connected) makes the whole node read again.
//!
//! Before it takes part, a node shows that it holds the cluster's director token, seal key
//! and signing key ([`join_checks`]): one that does not is refused at start, since it
//! could neither open its matches' seeds nor sign their heads as their logs say.
//!
//! - **Rebalancing**, beside the leases: a node holding two or more matches more than
//!   the live node holding fewest hands its surplus over, one match at a time
//!   ([`rebalance_target`]). A hand-over is clean: the match's actor stops writing (the
//!   command in flight is answered first), the lease ends at once, marked for the node
//!   it goes to, which the change feed tells (`Change::Handed`): it claims at once (or
//!   at its next tick) and takes the match over — no lease runs out, and no outage is
//!   credited.
//!
//! A node shutting down (SIGTERM) lets its leases go, so the others take its matches over
//! at their next tick. Times of leases are the database's. The node stops writing at its own deadline (the
//! renewal's send time + ¾ of the lease), before any other node may claim.

use std::sync::Arc;
use std::time::{Duration, Instant};

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
        // The feed first: nothing appended after this is missed. Its connection records
        // this process's listening session, the node's sign of life (`pg_lease.rs`,
        // `dead_and_live!`), before the first claim: the other nodes, still reading the
        // record of this node's last process, would take a match claimed earlier back
        // at once.
        let mut changes = hub.store.changes();
        let connected = matches!(
            tokio::time::timeout(lease, changes.recv()).await,
            Ok(Some(Change::Gap))
        );
        if !connected {
            tracing::warn!("the change feed did not connect within a lease: going on without it");
        }
        let feed = tokio::spawn({
            let (hub, node) = (hub.clone(), node.clone());
            async move {
                if connected {
                    hub.catch_up_all().await;
                }
                follow_changes(hub, changes, node).await
            }
        });
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
    node: String,
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
            // A match handed to this node: claimed now, beside the feed (a claim beside
            // the tick's is safe: a lease is claimed once, the other skips it).
            Some(Change::Handed { to }) if to == node => {
                tokio::spawn(claim(hub.clone(), node.clone()));
            }
            Some(Change::Handed { .. }) => {}
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
    let rebalance = hub.store.fence().is_some_and(|f| f.rebalance);
    // The hand-overs run beside the ticks, one batch at a time: a match's actor busy
    // with a slow command must never hold up the renewal of every lease.
    let mut handing: Option<tokio::task::JoinHandle<()>> = None;
    let mut early = claim_before_tick(&hub, lease / 4).await;
    loop {
        tokio::select! {
            _ = every.tick() => {
                tick(&hub, &node).await;
                early = claim_before_tick(&hub, lease / 4).await;
                if rebalance && handing.as_ref().is_none_or(|h| h.is_finished()) {
                    handing = Some(tokio::spawn(hand_over_surplus(hub.clone())));
                }
            }
            () = sleep_until(early), if early.is_some() => {
                claim(hub.clone(), node.clone()).await;
                early = claim_before_tick(&hub, lease / 4).await;
            }
            () = &mut closed => break,
        }
    }
    if let Some(handing) = handing {
        handing.abort();
    }
    // Shutting down: the other nodes take the matches over at their next tick.
    match hub.store.release_leases().await {
        Ok(()) => tracing::info!("let every lease go: the other nodes take the matches over"),
        Err(e) => tracing::warn!(error = %e, "the leases could not be let go: they run out"),
    }
}

/// The node to hand one match over to, if this node, `me`, holds at least two more than
/// the live node holding fewest (`loads`: each live node's count, as
/// `PgStore::lease_loads` gives them). Handing over while the gap is two or more ends with
/// every live node's count within one of every other's: each hand-over narrows the gap,
/// and none is made across a gap of one (which would only move it).
pub fn rebalance_target(me: &str, loads: &[(String, u64)]) -> Option<String> {
    let mine = loads
        .iter()
        .find(|(node, _)| node == me)
        .map_or(0, |(_, n)| *n);
    let (least, fewest) = loads
        .iter()
        .filter(|(node, _)| node != me)
        .min_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)))?;
    (mine >= fewest.saturating_add(2)).then(|| least.clone())
}

/// Rebalancing (`docs/cluster.md`): while this node holds at least two matches more than
/// the live node holding fewest, it hands one over to that node — its actor stops writing
/// after the command in flight (answered first), then its lease ends now, marked for that
/// node alone, which is notified, claims it at once and takes the match over as after
/// any claim — and weighs the loads again. Stops at the first hand-over that does not happen.
async fn hand_over_surplus<T: TimeSource>(hub: Arc<Hub<PgStore, T>>) {
    let Some(fence) = hub.store.fence() else {
        return;
    };
    let me = fence.node.clone();
    loop {
        let loads = match hub.store.lease_loads().await {
            Ok(loads) => loads,
            Err(e) => {
                tracing::warn!(error = %e, "the nodes' loads could not be read: no hand-over");
                return;
            }
        };
        let Some(to) = rebalance_target(&me, &loads) else {
            return;
        };
        // The last match in name order this node holds and writes.
        let mut handed = false;
        for stream in fence.streams().into_iter().rev() {
            let Some(id) = stream.strip_prefix("m/") else {
                continue;
            };
            let Ok(handle) = hub.match_handle(id).await else {
                continue;
            };
            let Some(epoch) = handle.stop_writing().await else {
                continue; // not written here yet (a takeover to record): another one
            };
            match hub.store.hand_over(&stream, &to).await {
                Ok(true) => {
                    tracing::info!(%stream, %to, epoch, "handed the match over (rebalancing)");
                    handed = true;
                }
                Ok(false) => {
                    tracing::warn!(%stream, "the lease ran out before the hand-over: lost")
                }
                Err(e) => {
                    tracing::warn!(%stream, error = %e, "the match could not be handed over: writing it again");
                    handle.resume(epoch).await;
                }
            }
            break;
        }
        if !handed {
            return;
        }
    }
}

/// Sleeps until `at`, or for ever (a `select!` branch disabled when there is none).
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// When to claim before the next tick, a `tick` away: at the end of the first lease
/// another node holds, if it comes sooner (`None` if not, or if that cannot be read).
async fn claim_before_tick<T: TimeSource>(
    hub: &Arc<Hub<PgStore, T>>,
    tick: Duration,
) -> Option<Instant> {
    match hub.store.next_lease_end().await {
        Ok(end) => claim_at(Instant::now(), end, tick),
        Err(e) => {
            tracing::warn!(error = %e, "the next end of a lease could not be read");
            None
        }
    }
}

/// The instant to claim at, told at `answered` that the first lease another node holds
/// ends in `end` (the database's clock, read when the question arrived there, before
/// `answered`): that end as this node's clock places it — never before it — if it comes
/// within `tick`, the time to the next claim anyway. Every live node renews a quarter
/// lease before its leases could end, so only a node that has fallen silent ends a lease
/// before the next tick: claiming at that end instead of the tick after it takes its
/// matches over up to a quarter lease sooner (`docs/cluster.md`).
pub fn claim_at(answered: Instant, end: Option<Duration>, tick: Duration) -> Option<Instant> {
    let end = end?;
    // A millisecond past it: the end was rounded up to one, and a claim a moment early
    // finds nothing and is made again.
    (end < tick).then(|| answered + end + Duration::from_millis(1))
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
    claim(hub.clone(), node.to_string()).await;
}

/// One claim: every lease handed to this node and its fair share of expired ones, each
/// match taken over by its actor.
async fn claim<T: TimeSource>(hub: Arc<Hub<PgStore, T>>, node: String) {
    let node = node.as_str();
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

#[cfg(test)]
mod tests {
    use super::{claim_at, rebalance_target};
    use std::time::{Duration, Instant};

    #[test]
    fn a_lease_ending_before_the_next_tick_is_claimed_at_its_end() {
        let now = Instant::now();
        let tick = Duration::from_millis(250);
        let ms = Duration::from_millis;
        assert_eq!(claim_at(now, Some(ms(40)), tick), Some(now + ms(41)));
        assert_eq!(claim_at(now, Some(ms(0)), tick), Some(now + ms(1)));
        // Renewed by a live node: its leases end a lease after, past the next tick.
        assert_eq!(claim_at(now, Some(ms(750)), tick), None);
        assert_eq!(claim_at(now, Some(ms(250)), tick), None);
        assert_eq!(
            claim_at(now, None, tick),
            None,
            "no other node holds a lease"
        );
    }

    fn loads(of: &[(&str, u64)]) -> Vec<(String, u64)> {
        of.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    }

    #[test]
    fn a_node_hands_over_only_across_a_gap_of_two_or_more() {
        let l = loads(&[("n2", 0), ("n1", 12)]);
        assert_eq!(rebalance_target("n1", &l).as_deref(), Some("n2"));
        assert_eq!(
            rebalance_target("n2", &l),
            None,
            "the one holding fewer gives nothing"
        );
        assert_eq!(
            rebalance_target("n1", &loads(&[("n2", 5), ("n1", 6)])),
            None
        );
        assert_eq!(rebalance_target("n1", &loads(&[("n1", 1)])), None, "alone");
        assert_eq!(rebalance_target("n1", &[]), None);
        // Not in the list (its renewal not seen yet): it holds nothing to give.
        assert_eq!(rebalance_target("n9", &loads(&[("n2", 0)])), None);
    }

    #[test]
    fn the_node_holding_fewest_is_chosen_ties_by_name() {
        let l = loads(&[("n3", 2), ("n2", 2), ("n1", 9), ("n4", 7)]);
        assert_eq!(rebalance_target("n1", &l).as_deref(), Some("n2"));
        assert_eq!(rebalance_target("n4", &l).as_deref(), Some("n2"));
    }

    #[test]
    fn handing_over_until_no_target_ends_balanced() {
        // Three nodes, one holding 10: hand over one at a time, as the loop does.
        let mut l = loads(&[("n1", 10), ("n2", 0), ("n3", 0)]);
        let mut moves = 0;
        while let Some(to) = rebalance_target("n1", &l) {
            l.iter_mut().find(|(n, _)| *n == "n1").unwrap().1 -= 1;
            l.iter_mut().find(|(n, _)| *n == to).unwrap().1 += 1;
            moves += 1;
            assert!(moves <= 10, "it ends");
        }
        let counts: Vec<u64> = l.iter().map(|(_, c)| *c).collect();
        assert_eq!(counts, vec![4, 3, 3]);
    }
}
