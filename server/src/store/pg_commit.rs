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
//! On a node of a cluster the transaction also checks each match's **lease** (this
//! node's, with the epoch it holds, unexpired by the database's clock *now*,
//! `clock_timestamp()` — `now()` is the transaction's start — `pg_lease.rs`), refusing an
//! append that fails it with [`StoreError::Fenced`], and **notifies** the change feed
//! with every stream written and its new length (`pg_listen.rs`; sent at COMMIT).
//!
//! The lease is checked twice. First on its row, locked `FOR KEY SHARE`: a claim (`FOR
//! UPDATE … SKIP LOCKED`) passes over a lease whose match is being written, while a
//! renewal (an update of `expires_at` alone, which takes the weaker `FOR NO KEY UPDATE`
//! lock) never waits for a commit — so a commit and a renewal cannot deadlock, and a
//! commit that is slow or stuck never holds up the renewal of the node's other leases.
//! Then **at COMMIT**, by the database itself: each stream written records the epoch it
//! was written under (`baffle_streams.epoch`), and a deferred constraint trigger
//! ([`FENCE_SCHEMA`]) refuses the commit unless that epoch's lease is still unexpired at
//! that instant. A node frozen between its statements and its COMMIT (a paused process)
//! therefore never commits after its lease ran out; the database ends its session anyway
//! once it has been idle in the transaction for a quarter of the lease (`pg_store.rs`,
//! the session timeouts), which lets the rows go for the next owner. A refused commit
//! wrote nothing; it is tried once more, when the first check refuses the appends whose
//! lease ran out and commits the others.
//!
//! A commit that fails on a lock (a deadlock, the lock or statement timeout) fails its
//! appends alone (not acknowledged, nothing written): the connection and the store stay
//! as they were, and the node's leases are untouched.

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

/// The fence at COMMIT: each stream written by a node of a cluster carries the epoch of
/// the lease it was written under, and a deferred constraint trigger — run by the
/// database inside COMMIT, on its own clock — refuses the commit (SQLSTATE `BF001`)
/// unless that lease is still this epoch's and unexpired. A stream written without a
/// lease (the registry; a store that is not a node's) carries none and is not checked.
///
/// Each change is made only if missing: an `ALTER TABLE` locks the table outright, even
/// when it changes nothing, and would hold up the other nodes' commits at every start.
const FENCE_SCHEMA: &str = "
    DO $column$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'baffle_streams'::regclass
                       AND attname = 'epoch' AND NOT attisdropped) THEN
            ALTER TABLE baffle_streams ADD COLUMN epoch bigint;
        END IF;
    END $column$;
    CREATE OR REPLACE FUNCTION baffle_fence_at_commit() RETURNS trigger
    LANGUAGE plpgsql AS $fence$
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM baffle_leases l WHERE l.stream = NEW.stream
                       AND l.epoch = NEW.epoch AND l.expires_at > clock_timestamp()) THEN
            RAISE EXCEPTION USING ERRCODE = 'BF001', MESSAGE = format(
                'the lease of %s (epoch %s) ran out or passed on before the commit',
                NEW.stream, NEW.epoch);
        END IF;
        RETURN NULL;
    END $fence$;
    DO $create$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'baffle_fence'
                       AND tgrelid = 'baffle_streams'::regclass) THEN
            CREATE CONSTRAINT TRIGGER baffle_fence AFTER UPDATE ON baffle_streams
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.epoch IS NOT NULL)
                EXECUTE FUNCTION baffle_fence_at_commit();
        END IF;
    END $create$;";

/// The SQLSTATE of a commit the fence refused at COMMIT ([`FENCE_SCHEMA`]).
const FENCED_AT_COMMIT: &str = "BF001";

/// Creates the tables if they are missing. Under a transaction-scoped advisory lock:
/// `CREATE TABLE IF NOT EXISTS` from two sessions at once can still collide.
pub(super) async fn create_schema(pool: &Pool) -> Result<(), StoreError> {
    let client = pool.get().await.map_err(io)?;
    client
        .batch_execute(&format!(
            "BEGIN;
             SET LOCAL client_min_messages = warning;
             -- Waited for, not timed out as a node's statements are: a node starting
             -- while others write takes its locks between their commits.
             SET LOCAL lock_timeout = '30s';
             SET LOCAL statement_timeout = '60s';
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
             {}
             COMMIT;",
            pg_lease::SCHEMA,
            FENCE_SCHEMA
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
    freeze: Arc<Freeze>,
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
        let mut outcome = commit(&mut c, &batch, fence.as_deref(), &freeze).await;
        if outcome
            .as_ref()
            .is_err_and(|e| sqlstate(e) == Some(FENCED_AT_COMMIT))
        {
            // Nothing was written. Once more: the appends whose lease ran out are now
            // refused by the first check, and the others commit.
            outcome = commit(&mut c, &batch, fence.as_deref(), &freeze).await;
        }
        match outcome {
            Ok(results) => {
                writable.send_if_modified(|w| !std::mem::replace(w, true));
                for (append, result) in batch.into_iter().zip(results) {
                    let _ = append.done.send(result);
                }
                client = Some(c);
            }
            // This transaction lost a lock (or its lease at COMMIT, twice): its appends
            // fail, nothing of them written; the connection and the store are sound.
            Err(e) if !c.is_closed() && refused_alone(&e) => {
                tracing::warn!(error = %e, appends = batch.len(), "a store transaction was refused");
                for append in batch {
                    let _ = append.done.send(Err(StoreError::Io(e.to_string())));
                }
                client = Some(c);
            }
            // The connection is dropped: after a failover it points at a standby.
            Err(e) => fail(batch, &io(e), &writable, &pool),
        }
    }
}

/// The SQLSTATE of a database error.
fn sqlstate(e: &tokio_postgres::Error) -> Option<&str> {
    e.code().map(|c| c.code())
}

/// Whether `e` failed one transaction and says nothing of the database: a deadlock, a
/// lock or statement timeout, the fence at COMMIT.
fn refused_alone(e: &tokio_postgres::Error) -> bool {
    use tokio_postgres::error::SqlState;
    let Some(code) = e.code() else {
        return false;
    };
    code == &SqlState::T_R_DEADLOCK_DETECTED
        || code == &SqlState::LOCK_NOT_AVAILABLE
        || code == &SqlState::QUERY_CANCELED
        || code.code() == FENCED_AT_COMMIT
}

/// A test's hold on the committer: while frozen, a transaction stops just before its
/// COMMIT — every statement sent, its rows locked, its session idle in the transaction —
/// as in a node paused in the middle of a commit (`PgStore::commits`).
#[derive(Debug)]
pub struct Freeze {
    frozen: watch::Sender<bool>,
    waiting: watch::Sender<bool>,
}

impl Default for Freeze {
    fn default() -> Freeze {
        Freeze {
            frozen: watch::channel(false).0,
            waiting: watch::channel(false).0,
        }
    }
}

impl Freeze {
    /// Stops the next transactions before their COMMIT, until [`Freeze::thaw`].
    pub fn freeze(&self) {
        self.frozen.send_replace(true);
    }

    /// Lets the transactions go on.
    pub fn thaw(&self) {
        self.frozen.send_replace(false);
    }

    /// Waits until a transaction is stopped before its COMMIT.
    pub async fn stopped(&self) {
        let _ = self.waiting.subscribe().wait_for(|w| *w).await;
    }

    async fn hold(&self) {
        let mut frozen = self.frozen.subscribe();
        if !*frozen.borrow_and_update() {
            return;
        }
        self.waiting.send_replace(true);
        let _ = frozen.wait_for(|f| !*f).await;
        self.waiting.send_replace(false);
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
/// Its steps take their locks in one order (stream rows by name, then leases), so two
/// commits, or a commit and a renewal, never wait for each other in a circle.
async fn commit(
    c: &mut Object,
    batch: &[Append],
    fence: Option<&Fence>,
    freeze: &Freeze,
) -> Result<Vec<Result<u64, StoreError>>, tokio_postgres::Error> {
    let names: Vec<&str> = batch
        .iter()
        .map(|a| a.stream.as_str())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let tx = c.transaction().await?;
    let mut lens = lock_streams(&tx, &names).await?;
    let leases = match fence {
        Some(fence) => Some(lock_leases(&tx, fence, &names).await?),
        None => None,
    };
    let fenced = |stream: &str| fence_refusal(fence?, leases.as_ref()?, stream);
    let plan = Plan::of(batch, &mut lens, fenced);
    if !plan.positions.is_empty() {
        write_records(&tx, &plan, leases.as_ref()).await?;
    }
    if !plan.receipts.is_empty() {
        store_receipts(&tx, &plan.receipts).await?;
    }
    freeze.hold().await;
    tx.commit().await?;
    Ok(plan.results)
}

/// Each stream's length, its row locked for the transaction (a new stream gets its
/// length row first, so that it too can be locked), in name order.
async fn lock_streams(
    tx: &deadpool_postgres::Transaction<'_>,
    names: &[&str],
) -> Result<HashMap<String, i64>, tokio_postgres::Error> {
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
    Ok(tx
        .query(&lock, &[&names])
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
}

/// Why this node may not append to `stream` under the `leases` it locked, or `None` if
/// it may (a stream without a lease is the store's own, never fenced).
fn fence_refusal(fence: &Fence, leases: &HashMap<String, i64>, stream: &str) -> Option<String> {
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
}

/// The plan's records, each stream's new length and the epoch it is written under (for
/// the fence at COMMIT; none: a stream without a lease, or a store that is not a
/// node's), and a notification per stream for the other nodes.
async fn write_records(
    tx: &deadpool_postgres::Transaction<'_>,
    plan: &Plan<'_>,
    leases: Option<&HashMap<String, i64>>,
) -> Result<(), tokio_postgres::Error> {
    let insert = tx
        .prepare_cached(
            "INSERT INTO baffle_records (stream, position, body) \
             SELECT * FROM unnest($1::text[], $2::int8[], $3::bytea[])",
        )
        .await?;
    tx.execute(&insert, &[&plan.streams, &plan.positions, &plan.bodies])
        .await?;
    let (streams, lens): (Vec<&str>, Vec<i64>) = plan.lens.iter().map(|(s, l)| (*s, *l)).unzip();
    let epochs: Vec<Option<i64>> = streams
        .iter()
        .map(|s| leases.and_then(|l| l.get(*s).copied()))
        .collect();
    let update = tx
        .prepare_cached(
            "UPDATE baffle_streams AS s SET len = v.len, epoch = v.epoch \
             FROM unnest($1::text[], $2::int8[], $3::int8[]) AS v(stream, len, epoch) \
             WHERE s.stream = v.stream",
        )
        .await?;
    tx.execute(&update, &[&streams, &lens, &epochs]).await?;
    let notify = tx.prepare_cached("SELECT pg_notify($1, $2)").await?;
    for payload in pg_listen::payloads(streams.iter().copied().zip(lens.iter().copied())) {
        tx.execute(&notify, &[&pg_listen::CHANNEL, &payload])
            .await?;
    }
    Ok(())
}

/// The plan's receipts, the last under each key (one statement cannot write a row
/// twice), written in the same transaction as the records they answer for.
async fn store_receipts(
    tx: &deadpool_postgres::Transaction<'_>,
    receipts: &BTreeMap<(&str, &str), &[u8]>,
) -> Result<(), tokio_postgres::Error> {
    let mut streams = Vec::new();
    let mut keys = Vec::new();
    let mut values = Vec::new();
    for ((s, k), v) in receipts {
        streams.push(*s);
        keys.push(*k);
        values.push(*v);
    }
    let store = tx
        .prepare_cached(
            "INSERT INTO baffle_receipts (stream, request, reply) \
             SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[]) \
             ON CONFLICT (stream, request) DO UPDATE SET reply = excluded.reply",
        )
        .await?;
    tx.execute(&store, &[&streams, &keys, &values]).await?;
    Ok(())
}

/// The epochs of the leases this node holds, unexpired now (the database's clock at this
/// statement, not at the transaction's start), of the match streams in `names`, locked
/// against a claim until the transaction ends — `FOR KEY SHARE`, which a renewal's update
/// of `expires_at` does not wait for.
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
             AND expires_at > clock_timestamp() ORDER BY stream COLLATE \"C\" FOR KEY SHARE",
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
