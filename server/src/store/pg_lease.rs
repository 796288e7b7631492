//! Leases: which node of a cluster writes which match (`docs/cluster.md`).
//!
//! Every match stream has a row in `baffle_leases (stream, node, epoch, expires_at)`.
//! Times are the **database's** (`now()`), never a node's: nodes' clocks may disagree,
//! the database's is one. A node renews all its leases with one statement per tick (a
//! quarter of the lease), claims expired ones — and those of a node whose process is
//! gone, its sessions ended on the server ([`dead_and_live!`]; recorded by the change
//! feed, `pg_listen.rs`) — with another (epoch + 1), and creates the lease of a match it
//! creates (epoch 1) before the match's first record.
//!
//! The node also keeps what it holds here ([`Fence`]): the committer refuses an append
//! to a match it does not hold, or whose lease it could not renew in time — it knows its
//! own deadline (the renewal's send time + the lease − a margin), so a node cut off from
//! the database stops writing before anyone may claim — and then checks, on the lease
//! row locked in the commit transaction, that the lease is still this node's with this
//! epoch and unexpired, and again at COMMIT, on the database's clock at that instant
//! (`pg_commit.rs`). A node that lost a match can never append to it, and a node frozen
//! in the middle of a commit cannot commit once it resumes past its lease.
//!
//! Locks: a commit locks the lease rows of its matches `FOR KEY SHARE`; a renewal only
//! updates `expires_at` (`FOR NO KEY UPDATE`, which does not conflict with it), so the
//! two never wait for each other and cannot deadlock; a claim skips the rows of a commit
//! under way (`SKIP LOCKED`). Each session of a node is limited to a quarter lease idle
//! in a transaction or waiting for a lock, and to a lease running a statement
//! ([`super::session_options`]).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use deadpool_postgres::Pool;

use super::StoreError;
use super::queue::io;

/// Streams that have leases: match logs. The registry is shared by every node (fenced by
/// its expected length alone).
pub(super) fn leased(stream: &str) -> bool {
    stream.starts_with("m/")
}

/// Who this node is, and what it holds.
pub struct Fence {
    /// The node's id.
    pub node: String,
    /// Where clients reach it (`--advertise`).
    pub advertise: String,
    /// How long a lease lasts without renewal.
    pub lease: Duration,
    /// Whether this node hands its surplus matches over to a node that holds fewer
    /// (`docs/cluster.md`, "Rebalancing"); on by default. A node that does not still
    /// takes what is handed to it.
    pub rebalance: bool,
    held: Mutex<HashMap<String, Held>>,
}

#[derive(Clone, Copy)]
struct Held {
    epoch: i64,
    /// Past this instant the node no longer appends under this lease.
    until: Instant,
    /// When the node was told it has it (a creation or a claim answered): a renewal
    /// sent before that may not have seen it, and says nothing of it.
    since: Instant,
}

impl Fence {
    /// A node named `node`, reached at `advertise`, with leases of `lease`.
    pub fn new(node: String, advertise: String, lease: Duration) -> Fence {
        Fence {
            node,
            advertise,
            lease,
            rebalance: true,
            held: Mutex::new(HashMap::new()),
        }
    }

    /// The same node, handing matches over to balance the cluster (`true`, the default)
    /// or never (`false`: `baffled --rebalance false`).
    pub fn rebalancing(self, rebalance: bool) -> Fence {
        Fence { rebalance, ..self }
    }

    /// The margin kept before the lease's end: a quarter of it.
    fn deadline(&self, sent: Instant) -> Instant {
        sent + self.lease - self.lease / 4
    }

    /// The epoch this node may append to `stream` under now, if any.
    pub(super) fn epoch(&self, stream: &str) -> Option<i64> {
        let held = self.held.lock().expect("leases lock");
        held.get(stream)
            .filter(|h| h.until > Instant::now())
            .map(|h| h.epoch)
    }

    /// The epoch this node was last given `stream`'s lease with, lapsed or not.
    pub(super) fn held_epoch(&self, stream: &str) -> Option<i64> {
        let held = self.held.lock().expect("leases lock");
        held.get(stream).map(|h| h.epoch)
    }

    /// Whether this node holds `stream`'s lease now.
    pub fn holds(&self, stream: &str) -> bool {
        self.epoch(stream).is_some()
    }

    fn hold(&self, stream: String, epoch: i64, sent: Instant) {
        let until = self.deadline(sent);
        self.held.lock().expect("leases lock").insert(
            stream,
            Held {
                epoch,
                until,
                // Its answer is in: a renewal sent from now on sees it.
                since: Instant::now(),
            },
        );
    }

    /// Takes in a renewal sent at `sent` that returned `rows`; returns the streams held
    /// before and not renewed: lost.
    fn renewed(&self, rows: &[(String, i64)], sent: Instant) -> Vec<String> {
        let until = self.deadline(sent);
        let mut held = self.held.lock().expect("leases lock");
        let mut next = HashMap::with_capacity(rows.len());
        for (stream, epoch) in rows {
            // Every row was held when the renewal was sent: one held no more was handed
            // over (or let go) while it was on its way, and is not taken back.
            let Some(h) = held.get(stream) else {
                continue;
            };
            let since = if h.epoch == *epoch { h.since } else { sent };
            next.insert(
                stream.clone(),
                Held {
                    epoch: *epoch,
                    until,
                    since,
                },
            );
        }
        let mut lost = Vec::new();
        for (stream, h) in held.iter() {
            if next.get(stream).is_some_and(|n| n.epoch == h.epoch) {
                continue;
            }
            if h.since > sent {
                // Created or claimed while this renewal was on its way (a match created
                // by a command): kept, and renewed by the next one.
                next.insert(stream.clone(), *h);
            } else {
                lost.push(stream.clone());
            }
        }
        *held = next;
        lost
    }

    /// How many leases the node holds.
    pub fn count(&self) -> usize {
        self.held.lock().expect("leases lock").len()
    }

    /// The streams this node holds now, in name order.
    pub fn streams(&self) -> Vec<String> {
        let now = Instant::now();
        let held = self.held.lock().expect("leases lock");
        let mut streams: Vec<String> = held
            .iter()
            .filter(|(_, h)| h.until > now)
            .map(|(s, _)| s.clone())
            .collect();
        streams.sort();
        streams
    }
}

/// The lease tables (created with the others, `pg_commit::create_schema`).
pub(super) const SCHEMA: &str = "
    CREATE TABLE IF NOT EXISTS baffle_leases (
        stream text PRIMARY KEY,
        node text NOT NULL,
        epoch bigint NOT NULL,
        expires_at timestamptz NOT NULL);
    CREATE TABLE IF NOT EXISTS baffle_nodes (
        node text PRIMARY KEY,
        advertise text NOT NULL,
        seen_at timestamptz NOT NULL);
    -- Each column added only if missing: an ALTER TABLE locks its table outright even
    -- when it changes nothing, and a node starting would queue every commit (which
    -- locks lease rows) and renewal behind the slowest transaction under way — a
    -- commit frozen with its process, say.
    DO $columns$ BEGIN
        -- A lease handed over by its holder to this node (rebalancing): only it claims it.
        IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'baffle_leases'::regclass
                       AND attname = 'handed_to' AND NOT attisdropped) THEN
            ALTER TABLE baffle_leases ADD COLUMN handed_to text;
        END IF;
        -- Each node's own lease: a node is live while its last renewal is younger than it.
        IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'baffle_nodes'::regclass
                       AND attname = 'lease_ms' AND NOT attisdropped) THEN
            ALTER TABLE baffle_nodes ADD COLUMN lease_ms float8 NOT NULL DEFAULT 2000;
        END IF;
        -- Each node's listening session, on the server that ran it (`pg_listen.rs`): while
        -- the process lives it stays open there; once it is gone from that server, the
        -- node is dead, and its leases are claimed without waiting for their end.
        IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'baffle_nodes'::regclass
                       AND attname = 'session_name' AND NOT attisdropped) THEN
            ALTER TABLE baffle_nodes ADD COLUMN IF NOT EXISTS listen_pid int,
                ADD COLUMN IF NOT EXISTS listen_since timestamptz,
                ADD COLUMN IF NOT EXISTS server_since timestamptz,
                ADD COLUMN session_name text;
        END IF;
    END $columns$;
    CREATE TABLE IF NOT EXISTS baffle_cluster (
        name text PRIMARY KEY,
        value text NOT NULL);";

/// Whether node `n`'s listening session, as recorded on this very server (`pg_listen.rs`,
/// `record_session`: its backend's pid and start, and the server's start), is gone from
/// it: its process is gone, or at least that connection. A record made on another server (before a failover or a
/// restart of the database) says nothing, since every session was ended there: false.
/// (`backend_start` is hidden from a role that may not see another's sessions: then the
/// pid alone is compared, erring towards "not gone".)
macro_rules! recorded_session_gone {
    () => {
        "(n.server_since = pg_postmaster_start_time()
             AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = n.listen_pid
                 AND (a.backend_start IS NULL OR a.backend_start = n.listen_since)))"
    };
}

/// The CTEs `dead` and `live`, for a statement whose `$1` is this node's id.
///
/// **Dead**: another node none of whose sessions is left on this very server: its
/// recorded listening session is gone ([`recorded_session_gone!`]), and so is every
/// session by the name its sessions carry (`baffle_nodes.session_name`, recorded with
/// it: `baffled NODE`, or the URL's `application_name`) on this database (another
/// cluster's node of the same name, on another database of the server, says nothing of
/// this one). A node's process keeps its sessions open for as long as it lives; a
/// process that dies (killed, crashed, out of memory) has its sockets closed by its
/// operating system, and the server ends the sessions at once — so its leases need not
/// be waited for. A node that is only frozen
/// keeps its sessions, and is not dead: its leases run out; nor is one that lost one
/// connection (its feed's, cut) while another is open. Any session carrying a node's
/// name keeps it alive (a namesake process, a client naming itself so, nodes sharing one
/// `application_name`): such a node is judged by its lease, as before. A node wrongly
/// judged dead (every one of its sessions cut at once) loses nothing: its matches are
/// taken over with new epochs, and the fence refuses its appends.
///
/// **Live**: this node, and every node renewed within its own lease that is not dead.
macro_rules! dead_and_live {
    () => {
        concat!(
            "dead AS (
             SELECT n.node FROM baffle_nodes n
             WHERE n.node <> $1 AND ",
            recorded_session_gone!(),
            "
                 AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                     WHERE a.datname = current_database()
                         AND a.application_name IN (left(n.session_name, 63),
                             left(n.session_name || ' listen', 63)))),
         live AS (
             SELECT node FROM baffle_nodes
             WHERE (seen_at > now() - lease_ms * interval '1 millisecond'
                     AND node NOT IN (SELECT node FROM dead))
                 OR node = $1)"
        )
    };
}

/// A duration in milliseconds, as the lease tables keep it.
pub(super) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Says the node is alive (and where it is reached), renews every lease it holds, and
/// returns the streams it lost. One statement. A lease that expired is lost even if no
/// one claimed it yet: the node stopped writing at its deadline, and takes it back, if
/// it does, by a claim — a new epoch and a takeover record.
///
/// Only the leases this process was given (by a creation or a claim) are renewed, each
/// at the epoch it was given: a lease is held by a (node, epoch) that one process
/// obtained, never by a name. Two processes started with one `--node-id` (refused at
/// start while the other is alive, but a process paused past its lease and then resumed
/// meets its replacement) renew and write only their own: renewing by name alone let one
/// of them keep the other's matches alive and unwritten for good.
pub(super) async fn renew(pool: &Pool, fence: &Fence) -> Result<Vec<String>, StoreError> {
    let c = pool.get().await.map_err(io)?;
    let sent = Instant::now();
    let (streams, epochs): (Vec<String>, Vec<i64>) = fence
        .held
        .lock()
        .expect("leases lock")
        .iter()
        .map(|(stream, h)| (stream.clone(), h.epoch))
        .unzip();
    let rows = c
        .query(
            "WITH alive AS (
                 INSERT INTO baffle_nodes (node, advertise, seen_at, lease_ms)
                 VALUES ($1, $2, now(), $3)
                 ON CONFLICT (node) DO UPDATE SET advertise = excluded.advertise,
                     seen_at = now(), lease_ms = excluded.lease_ms)
             UPDATE baffle_leases l SET expires_at = now() + $3::float8 * interval '1 millisecond'
             FROM unnest($4::text[], $5::int8[]) AS held(stream, epoch)
             WHERE l.stream = held.stream AND l.epoch = held.epoch AND l.node = $1
                 AND l.expires_at > now()
             RETURNING l.stream, l.epoch",
            &[
                &fence.node,
                &fence.advertise,
                &ms(fence.lease),
                &streams,
                &epochs,
            ],
        )
        .await
        .map_err(io)?;
    let rows: Vec<(String, i64)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    Ok(fence.renewed(&rows, sent))
}

/// What a node must share with the cluster it joins, each as a value that tells whether
/// two nodes hold the same secret without giving it away. The first node to join sets
/// each (in `baffle_cluster`); a cluster that ran before a check existed takes the value
/// of the first node started after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinChecks {
    /// The director token's ([`crate::seal::SealKey::check_value`] of the token's key).
    pub token: String,
    /// The seal key's check value ([`crate::seal::SealKey::check_value`]).
    pub seal: String,
    /// The signing key's public half (public already).
    pub signer: String,
}

impl JoinChecks {
    /// Each check's row name, value and the refusal when this node's differs.
    fn rows(&self) -> [(&'static str, &str, &'static str); 3] {
        [
            (
                "token-check",
                &self.token,
                "this node's director token is not the cluster's: its matches' older server \
                 seeds would not unseal here, and the director's token would differ between \
                 nodes. Give every node the same token file (--token-file; docs/cluster.md)",
            ),
            (
                "seal-check",
                &self.seal,
                "this node's seal key is not the cluster's: its matches' server seeds would \
                 not unseal here. Give every node the same seal key file (--seal-key-file; \
                 docs/cluster.md)",
            ),
            (
                "signing-key",
                &self.signer,
                "this node's signing key is not the cluster's: it would sign heads with \
                 another key than the one its matches' logs name. Give every node the same \
                 signing key file (--signing-key-file; docs/cluster.md)",
            ),
        ]
    }
}

/// Joins the cluster: refused if this node's director token, seal key or signing key is
/// not the cluster's ([`JoinChecks`]: the first node to join sets them), or if another
/// node with this node's id is alive — it renewed within the last lease, and again while
/// this one waits a lease and a quarter to see (a node that died, or stopped and let go,
/// is not waited for twice: its last renewal gets old).
pub(super) async fn join(
    pool: &Pool,
    fence: &Fence,
    checks: &JoinChecks,
) -> Result<(), StoreError> {
    let c = pool.get().await.map_err(io)?;
    for (name, ours, refusal) in checks.rows() {
        c.execute(
            "INSERT INTO baffle_cluster (name, value) VALUES ($1, $2)
             ON CONFLICT (name) DO NOTHING",
            &[&name, &ours],
        )
        .await
        .map_err(io)?;
        let theirs: String = c
            .query_one("SELECT value FROM baffle_cluster WHERE name = $1", &[&name])
            .await
            .map_err(io)?
            .get(0);
        if theirs != ours {
            return Err(StoreError::Refused(refusal.into()));
        }
    }
    // Alive by the other node's own lease, not this one's: a namesake started with a
    // shorter lease judged a live node dead and took its matches (a stranger's run).
    // A namesake whose recorded listening session is gone from this server is dead (a
    // process restarted at once by its supervisor after a crash): not waited for, so
    // that its matches are let go and claimed at once rather than at their leases' end.
    let seen = concat!(
        "SELECT advertise, seen_at::text,
             seen_at > now() - lease_ms * interval '1 millisecond', lease_ms,
             coalesce(",
        recorded_session_gone!(),
        ", false)
         FROM baffle_nodes n WHERE node = $1"
    );
    let row = c.query_opt(seen, &[&fence.node]).await.map_err(io)?;
    let Some(first) = row.filter(|r| r.get::<_, bool>(2) && !r.get::<_, bool>(4)) else {
        return Ok(());
    };
    let theirs = Duration::from_secs_f64(first.get::<_, f64>(3).clamp(0.0, 3_600_000.0) / 1000.0);
    let wait = fence.lease.max(theirs);
    tokio::time::sleep(wait + wait / 4).await;
    let again = c.query_opt(seen, &[&fence.node]).await.map_err(io)?;
    match again {
        Some(r) if r.get::<_, String>(1) != first.get::<_, String>(1) => {
            let advertise: String = r.get(0);
            Err(StoreError::Refused(format!(
                "another node with the id {} is alive (reached at {advertise}): give each \
                 node its own --node-id",
                fence.node
            )))
        }
        _ => Ok(()),
    }
}

/// On start: leases for registered matches that have none (logs written before there
/// were leases) are created expired, for the claims to share out; the leases this node
/// held before a restart are dropped to expired, so that they are claimed — and their
/// takeover recorded — like any other.
pub(super) async fn start(
    pool: &Pool,
    fence: &Fence,
    streams: &[String],
) -> Result<(), StoreError> {
    let c = pool.get().await.map_err(io)?;
    c.execute(
        "INSERT INTO baffle_leases (stream, node, epoch, expires_at)
         SELECT unnest($1::text[]), '', 0, '-infinity' ON CONFLICT DO NOTHING",
        &[&streams],
    )
    .await
    .map_err(io)?;
    c.execute(
        "UPDATE baffle_leases SET expires_at = '-infinity' WHERE node = $1",
        &[&fence.node],
    )
    .await
    .map_err(io)?;
    Ok(())
}

/// A lease this node claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimed {
    /// The match stream.
    pub stream: String,
    /// The lease's new epoch.
    pub epoch: u64,
    /// How long the node that held it had been silent at the claim: the database's
    /// `now()` minus that node's last renewal (`baffle_nodes.seen_at`), in ms — one
    /// clock, the database's. `None` when that says nothing of an outage: a lease let go
    /// by a node that stopped cleanly (its `seen_at` is `-infinity`; its matches are
    /// claimed at the next tick, a quarter lease at most, and get no credit), a lease
    /// created expired at start (no node, no row), or this node's own lease (a restart,
    /// or a lease it let lapse: its renewals do not measure the match's silence).
    pub silent_ms: Option<u64>,
}

/// Claims expired leases — every lease handed over to this node, and else at most this
/// node's fair share of all leases among the live nodes, and at least one — with a new
/// epoch each. Returns them, each with how long its previous holder had been silent
/// ([`Claimed::silent_ms`]). Rows another node is claiming or writing under are skipped,
/// not waited for; so is a lease handed over to another live node (only it claims it).
///
/// A node is live while its last renewal is younger than its own lease. Its leases run out
/// exactly a lease after that renewal (one statement sets both, at one `now()`), so a
/// dead node's leases become claimable at the instant it stops counting: the live nodes'
/// shares then add up to all of its matches, taken over in one claim of each. (Counting
/// it for two leases, as at first, gave each live node a share too small by a third and
/// then one match a tick: the last of 24 waited 3.9 s with 2 s leases.)
///
/// A lease handed over ([`hand_over`]) was let go by a live holder that had stopped
/// writing and wrote nothing after: its match was not silent, and no outage is credited
/// (`silent_ms` is `None`). A lease handed to a node that died before claiming it is
/// claimed like any expired lease, once that node no longer counts as live.
pub(super) async fn claim(pool: &Pool, fence: &Fence) -> Result<Vec<Claimed>, StoreError> {
    let c = pool.get().await.map_err(io)?;
    let sent = Instant::now();
    let rows = c
        .query(
            concat!(
                "WITH ",
                dead_and_live!(),
                ",
             share AS (
                 SELECT greatest(1, ceil((SELECT count(*) FROM baffle_leases)
                            / greatest((SELECT count(*) FROM live), 1)::float8)
                        - (SELECT count(*) FROM baffle_leases WHERE node = $1 AND expires_at > now()))::bigint AS n),
             handed AS (
                 SELECT count(*) AS n FROM baffle_leases WHERE handed_to = $1 AND expires_at < now()),
             expired AS (
                 SELECT l.stream, l.node AS was, l.handed_to IS NOT NULL AS handed
                 FROM baffle_leases l
                 WHERE (l.expires_at < now() OR l.node IN (SELECT node FROM dead))
                     AND (l.handed_to IS NULL OR l.handed_to = $1
                     OR l.handed_to NOT IN (SELECT node FROM live))
                 ORDER BY l.handed_to IS NOT DISTINCT FROM $1 DESC, l.expires_at, l.stream
                 LIMIT greatest((SELECT n FROM share), (SELECT n FROM handed))
                 FOR UPDATE OF l SKIP LOCKED),
             silent AS (
                 SELECT e.stream,
                     CASE WHEN NOT e.handed AND isfinite(n.seen_at) AND n.node <> $1
                         THEN greatest(0, floor(extract(epoch FROM now() - n.seen_at) * 1000))::int8
                     END AS ms
                 FROM expired e LEFT JOIN baffle_nodes n ON n.node = e.was)
             UPDATE baffle_leases l SET node = $1, epoch = l.epoch + 1, handed_to = NULL,
                 expires_at = now() + $2::float8 * interval '1 millisecond'
             FROM silent WHERE l.stream = silent.stream
             RETURNING l.stream, l.epoch, silent.ms"
            ),
            &[&fence.node, &ms(fence.lease)],
        )
        .await
        .map_err(io)?;
    let mut claimed = Vec::with_capacity(rows.len());
    for r in rows {
        let (stream, epoch, silent): (String, i64, Option<i64>) = (r.get(0), r.get(1), r.get(2));
        fence.hold(stream.clone(), epoch, sent);
        claimed.push(Claimed {
            stream,
            epoch: u64::try_from(epoch).unwrap_or_default(),
            silent_ms: silent.and_then(|ms| u64::try_from(ms).ok()),
        });
    }
    Ok(claimed)
}

/// How long, by the database's clock, until the first lease held by another node runs
/// out, if one is held: a claim made at that instant rather than at the next tick takes
/// a silent node's matches over up to a quarter lease sooner (`cluster.rs`).
pub(super) async fn next_end(pool: &Pool, fence: &Fence) -> Result<Option<Duration>, StoreError> {
    let c = pool.get().await.map_err(io)?;
    let row = c
        .query_one(
            "SELECT ceil(extract(epoch FROM min(expires_at) - now()) * 1000)::int8
             FROM baffle_leases WHERE node <> $1 AND expires_at > now()",
            &[&fence.node],
        )
        .await
        .map_err(io)?;
    let ms: Option<i64> = row.get(0);
    Ok(ms.map(|ms| Duration::from_millis(u64::try_from(ms).unwrap_or_default())))
}

/// How many matches each live node holds, this one included (a lease handed over and
/// not yet claimed counts for the node it was handed to), fewest first: what a node
/// weighs its own load against to rebalance (`cluster.rs`).
pub(super) async fn loads(pool: &Pool, fence: &Fence) -> Result<Vec<(String, u64)>, StoreError> {
    let c = pool.get().await.map_err(io)?;
    let rows = c
        .query(
            concat!(
                "WITH ",
                dead_and_live!(),
                "
             SELECT live.node, count(l.stream) FROM live
             LEFT JOIN baffle_leases l ON coalesce(l.handed_to, l.node) = live.node
                 AND (l.expires_at > now() OR l.handed_to IS NOT NULL)
             GROUP BY live.node ORDER BY 2, 1"
            ),
            &[&fence.node],
        )
        .await
        .map_err(io)?;
    Ok(rows
        .iter()
        .map(|r| {
            let n: i64 = r.get(1);
            (r.get(0), u64::try_from(n).unwrap_or_default())
        })
        .collect())
}

/// Hands the lease of `stream` (held with `epoch`, its match's actor no longer writing
/// it) over to the node `to`: it ends now (`-infinity`) and only `to` may claim it, while
/// it is live; the change feed tells `to` (`handed NODE`), which claims it at once. The node holds it no more from before the statement is sent, so no
/// renewal keeps it. `Ok(false)`: the lease was no longer this node's to give (it ran
/// out); an error: the outcome is unknown, and the node holds it again — a renewal then
/// tells (a lease handed over is not renewed: it is lost), and the database's fence
/// refuses any append under a lease that ended.
pub(super) async fn hand_over(
    pool: &Pool,
    fence: &Fence,
    stream: &str,
    to: &str,
) -> Result<bool, StoreError> {
    let Some(held) = fence.held.lock().expect("leases lock").remove(stream) else {
        return Ok(false);
    };
    let put_back = |e| {
        fence
            .held
            .lock()
            .expect("leases lock")
            .entry(stream.to_string())
            .or_insert(held);
        e
    };
    let c = pool.get().await.map_err(io).map_err(put_back)?;
    // With a notification to the change feed, sent at the commit: `to` claims at once.
    let given: i64 = c
        .query_one(
            "WITH given AS (
                 UPDATE baffle_leases SET expires_at = '-infinity', handed_to = $4
                 WHERE stream = $1 AND epoch = $2 AND node = $3 AND expires_at > now()
                 RETURNING stream)
             SELECT count(*) FROM given, LATERAL (SELECT pg_notify($5, $6 || $4)) AS told",
            &[
                &stream,
                &held.epoch,
                &fence.node,
                &to,
                &super::pg_listen::CHANNEL,
                &super::pg_listen::HANDED,
            ],
        )
        .await
        .map_err(io)
        .map_err(put_back)?
        .get(0);
    Ok(given == 1)
}

/// Lets every lease of this node go at once (a node shutting down): the other nodes claim
/// them at their next tick rather than after the lease.
pub(super) async fn release(pool: &Pool, fence: &Fence) -> Result<(), StoreError> {
    let (streams, epochs): (Vec<String>, Vec<i64>) =
        std::mem::take(&mut *fence.held.lock().expect("leases lock"))
            .into_iter()
            .map(|(stream, h)| (stream, h.epoch))
            .unzip();
    let c = pool.get().await.map_err(io)?;
    // Its own leases only (a namesake's are not its to give), and no longer alive: a
    // restart under the same id does not wait to see whether it still is.
    c.execute(
        "WITH gone AS (
             UPDATE baffle_nodes SET seen_at = '-infinity' WHERE node = $1)
         UPDATE baffle_leases l SET expires_at = '-infinity'
         FROM unnest($2::text[], $3::int8[]) AS held(stream, epoch)
         WHERE l.stream = held.stream AND l.epoch = held.epoch AND l.node = $1",
        &[&fence.node, &streams, &epochs],
    )
    .await
    .map_err(io)?;
    Ok(())
}

/// The lease of a new stream, for this node: epoch 1, or the next epoch of a lease whose
/// stream holds no record yet (a creation that failed before its first append, here or
/// on another node: the id is free again, and a creation still under way elsewhere is
/// fenced by the new epoch). `Conflict` if the stream has records: another node created
/// it.
pub(super) async fn create(pool: &Pool, fence: &Fence, stream: &str) -> Result<(), StoreError> {
    let c = pool.get().await.map_err(io)?;
    let sent = Instant::now();
    let made = c
        .query(
            "INSERT INTO baffle_leases AS l (stream, node, epoch, expires_at)
             VALUES ($1, $2, 1, now() + $3::float8 * interval '1 millisecond')
             ON CONFLICT (stream) DO UPDATE SET node = excluded.node, epoch = l.epoch + 1,
                 expires_at = excluded.expires_at, handed_to = NULL
             WHERE NOT EXISTS (SELECT 1 FROM baffle_streams s WHERE s.stream = $1 AND s.len > 0)
             RETURNING epoch",
            &[&stream, &fence.node, &ms(fence.lease)],
        )
        .await
        .map_err(io)?;
    let Some(row) = made.first() else {
        return Err(StoreError::Conflict {
            expected: 0,
            actual: 1,
        });
    };
    fence.hold(stream.to_string(), row.get(0), sent);
    Ok(())
}

/// The node holding `stream`'s unexpired lease and where it is reached, if it has
/// finished taking the match over: it wrote the stream under that lease's epoch (its
/// takeover record, or a new match's first record; `baffle_streams.epoch`). Between a
/// claim and the takeover record no node is named: the claimer does not serve yet.
pub(super) const OWNER: &str = "SELECT l.node, n.advertise FROM baffle_leases l
     JOIN baffle_nodes n ON n.node = l.node
     JOIN baffle_streams s ON s.stream = l.stream AND s.epoch = l.epoch
     WHERE l.stream = $1 AND l.expires_at > now()";
