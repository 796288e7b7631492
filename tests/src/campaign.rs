//! The checker of a kill campaign against a room of `baffled` processes (issues 22 and
//! 33), shared by `tests/tests/cluster_failover.rs` (nodes killed, the primary killed and
//! promoted by hand) and `tests/tests/patroni_campaign.rs` (nodes killed and paused, the
//! primary failed over by Patroni); `patroni_failover.rs` and `pg_tls.rs` play and check
//! their matches with the same [`drive`] and [`check_export`]. A driver ([`drive`]) plays one match through the
//! independent [`Room`] client and keeps every acknowledgement; the checker
//! ([`check_match`]) reads the match's exported log afterwards and trusts neither side:
//!
//! - **every chain verifies** (`baffle_core::audit::verify`);
//! - **no acknowledged command lost, none applied twice, nothing unacknowledged**: each
//!   driver plays physical dice it chose by a rule of the command's number, so the log's
//!   reported dice, in order, must be exactly the acknowledged rolls, and its presses
//!   exactly the acknowledged presses — a lost command leaves a gap, a twice-applied one
//!   a repeat, an unacknowledged one an extra;
//! - **one writer at a time**: a match's owner is the node that created it until a
//!   `table.takeover` record names the next one; every command answered at its first
//!   attempt must have been answered by the node that owned the match at the records it
//!   added (a retried one may be answered from its stored reply by any node).
//!
//! [`every_match_answers`] and [`quantile`] are the campaign's clock: from a fault to
//! every match answering a command again.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use baffle_core::audit::verify::verify_jsonl;
use baffle_proto::v1;

use crate::process_cluster::ProcessCluster;
use crate::room::{Room, command, next_move};

/// The record kind a takeover writes, and its field naming the new owner
/// (docs/audit-log.md).
pub const TAKEOVER: &str = "table.takeover";

/// One acknowledged command of a driver.
#[derive(Clone, Debug)]
pub struct Acked {
    /// The node that answered.
    pub node: usize,
    /// The match's number of records after it.
    pub seq: u64,
    /// The dice rolled, for a roll; `None` for a press.
    pub dice: Option<[u32; 2]>,
    /// Whether an earlier attempt may have been applied, so that the answer may be its
    /// reply, kept with the request id, from another node than the one that wrote it.
    pub retried: bool,
    /// When its answer came.
    pub at: Instant,
}

/// Plays match `id` from `state` (after its opening roll) until `stop` is set or `limit`
/// commands were acknowledged: rolls `dice(n)` when on roll, presses when moving; each
/// acknowledgement is counted on `answered` as it comes. Every command is retried with
/// its request id until answered; a command the room does not answer within its
/// patience fails the run.
pub async fn drive(
    room: Arc<Room>,
    id: String,
    mut state: v1::MatchState,
    stop: Arc<AtomicBool>,
    limit: usize,
    answered: Arc<AtomicU64>,
) -> Vec<Acked> {
    let mut acked = Vec::new();
    let mut rolls = 0;
    while !stop.load(Ordering::Relaxed) && acked.len() < limit {
        let (action, rolled) = next_move(&state, rolls);
        let request = command(&id, format!("{id}-{}", acked.len()), action);
        let answer = room
            .execute(request)
            .await
            .unwrap_or_else(|e| panic!("{id}: command {} never answered: {e}", acked.len()));
        state = answer.reply.state.expect("a state");
        acked.push(Acked {
            node: answer.node,
            seq: state.seq,
            dice: rolled,
            retried: answer.retried,
            at: Instant::now(),
        });
        rolls += usize::from(rolled.is_some());
        answered.fetch_add(1, Ordering::Relaxed);
    }
    acked
}

/// A record of an exported log: its kind and body.
pub struct Record {
    /// Its `kind`.
    pub kind: String,
    /// Its body, parsed.
    pub body: serde_json::Value,
}

/// The records of an exported log (`baffle audit export`'s JSON lines), in order.
pub fn records(export: &str) -> Vec<Record> {
    export
        .lines()
        .filter_map(|line| {
            let line: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let body: serde_json::Value = serde_json::from_str(line.get("body")?.as_str()?).ok()?;
            let kind = body["kind"].as_str().unwrap_or_default().to_string();
            Some(Record { kind, body })
        })
        .collect()
}

/// The checker, for one match: its exported log against what its driver was told —
/// [`check_export`], and one writer at a time (`creator` made the match).
pub fn check_match<D>(
    cluster: &ProcessCluster<D>,
    id: &str,
    creator: usize,
    export: &str,
    acked: &[Acked],
) {
    check_export(id, export, acked);
    let records = records(export);
    // One writer at a time: the owner of each record, by the takeover records.
    let mut owner = vec![cluster.name(creator).to_string(); records.len()];
    for (seq, r) in records.iter().enumerate() {
        if r.kind == TAKEOVER {
            let node = r.body["node"].as_str().expect("a takeover names its node");
            owner[seq..].fill(node.to_string());
        }
    }
    for a in acked.iter().filter(|a| !a.retried) {
        let last = usize::try_from(a.seq).unwrap() - 1;
        assert_eq!(
            owner[last],
            cluster.name(a.node),
            "{id}: record {last} acknowledged by {} but owned by {}",
            cluster.name(a.node),
            owner[last]
        );
    }
}

/// The checker of match `id`'s exported log (`baffle audit export`'s JSON lines) alone:
/// it verifies, and its reported dice and its presses are exactly the acknowledged ones,
/// in order — a lost command leaves a gap, one applied twice a repeat, an unacknowledged
/// one an extra.
pub fn check_export(id: &str, export: &str, acked: &[Acked]) {
    let report = verify_jsonl(export, None);
    assert!(report.is_ok(), "{id}: {report}");
    let records = records(export);
    let rolled: Vec<Vec<u64>> = records
        .iter()
        .filter(|r| r.kind == "dice.reported")
        .map(|r| serde_json::from_value(r.body["dice"].clone()).expect("dice"))
        .collect();
    let told: Vec<Vec<u64>> = acked
        .iter()
        .filter_map(|a| a.dice)
        .map(|d| d.map(u64::from).to_vec())
        .collect();
    assert_eq!(
        rolled, told,
        "{id}: the log's rolls are not the acknowledged ones"
    );
    let presses = records.iter().filter(|r| r.kind == "bg.pressed").count();
    let acked_presses = acked.iter().filter(|a| a.dice.is_none()).count();
    assert_eq!(
        presses, acked_presses,
        "{id}: presses in the log, acknowledged"
    );
}

/// p-quantile of `samples` (sorted in place).
pub fn quantile(samples: &mut [Duration], q: f64) -> Duration {
    samples.sort();
    let i = ((samples.len() as f64 - 1.0) * q).round() as usize;
    samples.get(i).copied().unwrap_or_default()
}

/// Waits until every match has answered a command since `then` (its count of answered
/// commands then, by match, against `answered` now); an error naming the silent matches
/// after `within`.
pub async fn every_match_answers(
    answered: &[Arc<AtomicU64>],
    then: &[u64],
    within: Duration,
) -> Result<(), String> {
    let started = Instant::now();
    loop {
        let silent: Vec<usize> = (0..then.len())
            .filter(|m| answered[*m].load(Ordering::Relaxed) <= then[*m])
            .collect();
        if silent.is_empty() {
            return Ok(());
        }
        if started.elapsed() > within {
            return Err(format!(
                "matches {silent:?} answered nothing for {within:?}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}
