//! The committer of a [`PgStore`](super::PgStore): group commit on PostgreSQL, and the
//! schema.
//!
//! One task takes every append waiting at that moment, from any number of matches, and
//! makes them **one transaction**: it locks the length rows of the streams touched (in
//! name order, so that two nodes' transactions cannot deadlock), checks each append's
//! expected length against them — in the transaction, so it is the fencing token: a
//! writer that lost a match to another node, or any stale writer, gets a
//! [`StoreError::Conflict`] and writes nothing — then inserts all records, the new
//! lengths and the receipts with one statement each, and commits. Each append is
//! answered only after COMMIT returned. A refused append does not fail the others; a
//! failed transaction (lost connection, failover, a full disk on the database) fails
//! every append in it with [`StoreError::Io`], none of which was acknowledged — and a
//! COMMIT whose answer was lost may have committed, which the actor handles as after any
//! failed write: it reloads the match from the log.
//!
//! On a node of a cluster the transaction also checks each match's **lease** (row locked
//! `FOR SHARE`: this node's, with the epoch it holds, unexpired — `pg_lease.rs`), refusing
//! an append that fails it with [`StoreError::Fenced`], and **notifies** the change feed
//! with every stream written and its new length (`pg_listen.rs`; sent at COMMIT).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Object, Pool};
use tokio::sync::{mpsc, watch};

use super::StoreError;
use super::pg_lease::{self, Fence};
use super::pg_listen;
use super::queue::{Append, io};

/// The most appends in one transaction: bounds a transaction's size and its lock time.
const MAX_BATCH: usize = 2048;

/// Creates the tables if they are missing. Under a transaction-scoped advisory lock:
/// `CREATE TABLE IF NOT EXISTS` from two sessions at once can still collide.
pub(super) async fn create_schema(pool: &Pool) -> Result<(), StoreError> {
    let client = pool.get().await.map_err(io)?;
    client
        .batch_execute(&format!(
            "BEGIN;
             SET LOCAL client_min_messages = warning;
             SELECT pg_advisory_xact_lock(7305712260474019130);
             CREATE TABLE IF NOT EXISTS baffle_streams (
                 stream text PRIMARY KEY,
                 len bigint NOT NULL CHECK (len >= 0));
             CREATE TABLE IF NOT EXISTS baffle_records (
                 stream text NOT NULL,
                 position bigint NOT NULL,
                 body bytea NOT NULL,
                 PRIMARY KEY (stream, position));
             CREATE TABLE IF NOT EXISTS baffle_receipts (
                 stream text NOT NULL,
                 request text NOT NULL,
                 reply bytea NOT NULL,
                 PRIMARY KEY (stream, request));
             {}
             COMMIT;",
            pg_lease::SCHEMA
        ))
        .await
        .map_err(io)
}

/// Until the store is dropped: take every waiting append, commit them together, answer.
pub(super) async fn run(
    pool: Pool,
    mut waiting: mpsc::UnboundedReceiver<Append>,
    writable: watch::Sender<bool>,
    fence: Option<Arc<Fence>>,
) {
    let mut client: Option<Object> = None;
    while let Some(first) = waiting.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match waiting.try_recv() {
                Ok(more) => batch.push(more),
                Err(_) => break,
            }
        }
        let mut c = match client.take() {
            Some(c) if !c.is_closed() => c,
            _ => match pool.get().await {
                Ok(c) => c,
                Err(e) => {
                    fail(batch, &io(e), &writable, &pool);
                    continue;
                }
            },
        };
        match commit(&mut c, &batch, fence.as_deref()).await {
            Ok(results) => {
                writable.send_if_modified(|w| !std::mem::replace(w, true));
                for (append, result) in batch.into_iter().zip(results) {
                    let _ = append.done.send(result);
                }
                client = Some(c);
            }
            // The connection is dropped: after a failover it points at a standby.
            Err(e) => fail(batch, &io(e), &writable, &pool),
        }
    }
}

/// Answers every append of a failed transaction, and watches for the store to come back.
fn fail(batch: Vec<Append>, e: &StoreError, writable: &watch::Sender<bool>, pool: &Pool) {
    tracing::warn!(error = %e, appends = batch.len(), "a store transaction failed");
    // Said before the appends are answered, so that their callers see it.
    if writable.send_if_modified(|w| std::mem::replace(w, false)) {
        tokio::spawn(probe(pool.clone(), writable.clone()));
    }
    for append in batch {
        let _ = append.done.send(Err(StoreError::Io(e.to_string())));
    }
}

/// After a failure: asks every second for a primary (a session that is not in recovery)
/// until one answers or an append succeeds, so that health says SERVING again without
/// waiting for the next command.
async fn probe(pool: Pool, writable: watch::Sender<bool>) {
    while !*writable.borrow() {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if let Ok(c) = pool.get().await
            && let Ok(row) = c.query_one("SELECT NOT pg_is_in_recovery()", &[]).await
            && row.get::<_, bool>(0)
        {
            writable.send_if_modified(|w| !std::mem::replace(w, true));
        }
    }
}

/// One transaction for `batch`: the result of each append, or the error that failed all.
async fn commit(
    c: &mut Object,
    batch: &[Append],
    fence: Option<&Fence>,
) -> Result<Vec<Result<u64, StoreError>>, tokio_postgres::Error> {
    let names: Vec<&str> = batch
        .iter()
        .map(|a| a.stream.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let tx = c.transaction().await?;
    // A new stream gets its length row first, so that it too can be locked.
    let create = tx
        .prepare_cached(
            "INSERT INTO baffle_streams (stream, len) SELECT unnest($1::text[]), 0 \
             ON CONFLICT DO NOTHING",
        )
        .await?;
    tx.execute(&create, &[&names]).await?;
    let lock = tx
        .prepare_cached(
            "SELECT stream, len FROM baffle_streams WHERE stream = ANY($1) \
             ORDER BY stream COLLATE \"C\" FOR UPDATE",
        )
        .await?;
    let mut lens: HashMap<String, i64> = tx
        .query(&lock, &[&names])
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let leases = match fence {
        Some(fence) => Some(lock_leases(&tx, fence, &names).await?),
        None => None,
    };
    let fenced = |stream: &str| -> Option<String> {
        let (fence, leases) = (fence?, leases.as_ref()?);
        if !pg_lease::leased(stream) {
            return None;
        }
        match (fence.epoch(stream), leases.get(stream)) {
            (Some(mine), Some(theirs)) if mine == *theirs => None,
            (None, _) => Some(format!(
                "node {} does not hold the lease of {stream} (or could not renew it in time)",
                fence.node
            )),
            _ => Some(format!(
                "the lease of {stream} is no longer node {}'s with the epoch it holds",
                fence.node
            )),
        }
    };
    let plan = Plan::of(batch, &mut lens, fenced);
    if !plan.positions.is_empty() {
        let insert = tx
            .prepare_cached(
                "INSERT INTO baffle_records (stream, position, body) \
                 SELECT * FROM unnest($1::text[], $2::int8[], $3::bytea[])",
            )
            .await?;
        tx.execute(&insert, &[&plan.streams, &plan.positions, &plan.bodies])
            .await?;
        let (streams, lens): (Vec<&str>, Vec<i64>) = plan.lens.into_iter().unzip();
        let update = tx
            .prepare_cached(
                "UPDATE baffle_streams AS s SET len = v.len \
                 FROM unnest($1::text[], $2::int8[]) AS v(stream, len) WHERE s.stream = v.stream",
            )
            .await?;
        tx.execute(&update, &[&streams, &lens]).await?;
        let notify = tx.prepare_cached("SELECT pg_notify($1, $2)").await?;
        for payload in pg_listen::payloads(streams.iter().copied().zip(lens.iter().copied())) {
            tx.execute(&notify, &[&pg_listen::CHANNEL, &payload])
                .await?;
        }
    }
    if !plan.receipts.is_empty() {
        let mut streams = Vec::new();
        let mut keys = Vec::new();
        let mut values = Vec::new();
        for ((s, k), v) in plan.receipts {
            streams.push(s);
            keys.push(k);
            values.push(v);
        }
        let store = tx
            .prepare_cached(
                "INSERT INTO baffle_receipts (stream, request, reply) \
                 SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[]) \
                 ON CONFLICT (stream, request) DO UPDATE SET reply = excluded.reply",
            )
            .await?;
        tx.execute(&store, &[&streams, &keys, &values]).await?;
    }
    tx.commit().await?;
    Ok(plan.results)
}

/// The epochs of the leases this node holds, unexpired, of the match streams in `names`,
/// locked against a claim until the transaction ends.
async fn lock_leases(
    tx: &deadpool_postgres::Transaction<'_>,
    fence: &Fence,
    names: &[&str],
) -> Result<HashMap<String, i64>, tokio_postgres::Error> {
    let leased: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| pg_lease::leased(n))
        .collect();
    if leased.is_empty() {
        return Ok(HashMap::new());
    }
    let q = tx
        .prepare_cached(
            "SELECT stream, epoch FROM baffle_leases WHERE stream = ANY($1) AND node = $2 \
             AND expires_at > now() ORDER BY stream COLLATE \"C\" FOR SHARE",
        )
        .await?;
    Ok(tx
        .query(&q, &[&leased, &fence.node])
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
}

/// What a batch writes, the appends checked in order against the locked lengths.
struct Plan<'a> {
    streams: Vec<&'a str>,
    positions: Vec<i64>,
    bodies: Vec<&'a [u8]>,
    /// The new length of every stream written.
    lens: BTreeMap<&'a str, i64>,
    /// The last receipt under each key (one statement cannot write a row twice).
    receipts: BTreeMap<(&'a str, &'a str), &'a [u8]>,
    results: Vec<Result<u64, StoreError>>,
}

impl<'a> Plan<'a> {
    fn of(
        batch: &'a [Append],
        lens: &mut HashMap<String, i64>,
        fenced: impl Fn(&str) -> Option<String>,
    ) -> Plan<'a> {
        let mut plan = Plan {
            streams: Vec::new(),
            positions: Vec::new(),
            bodies: Vec::new(),
            lens: BTreeMap::new(),
            receipts: BTreeMap::new(),
            results: Vec::with_capacity(batch.len()),
        };
        for a in batch {
            if let Some(why) = fenced(&a.stream) {
                plan.results.push(Err(StoreError::Fenced(why)));
                continue;
            }
            let actual = lens.get(&a.stream).copied().unwrap_or(0);
            if i64::try_from(a.expected) != Ok(actual) {
                plan.results.push(Err(StoreError::Conflict {
                    expected: a.expected,
                    actual: actual as u64,
                }));
                continue;
            }
            for (i, body) in a.records.iter().enumerate() {
                plan.streams.push(&a.stream);
                plan.positions.push(actual + i as i64);
                plan.bodies.push(body);
            }
            let new_len = actual + a.records.len() as i64;
            lens.insert(a.stream.clone(), new_len);
            if !a.records.is_empty() {
                plan.lens.insert(&a.stream, new_len);
            }
            if let Some(r) = &a.receipt {
                plan.receipts.insert((&a.stream, &r.key), &r.value);
            }
            plan.results.push(Ok(new_len as u64));
        }
        plan
    }
}
