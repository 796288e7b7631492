//! One backgammon match played through a [`Room`] as fast as answers come, every
//! acknowledgement kept with its instant, and the checker of the match's exported log
//! against them: what the TLS and Patroni tests use to show a match played end to end
//! and nothing acknowledged lost or applied twice across a fault.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use baffle_core::audit::verify::verify_jsonl;
use baffle_proto::v1;

use crate::room::{Room, command, next_move};

/// One acknowledged command.
#[derive(Clone, Debug)]
pub struct Played {
    /// The dice of a roll; `None` for a press.
    pub dice: Option<[u32; 2]>,
    /// When its answer came.
    pub at: Instant,
}

/// Plays match `id` from `state` (after its opening roll) until `stop` is set or
/// `limit` commands were acknowledged: rolls `dice(n)` when on roll, presses when
/// moving, each command retried with its request id until answered; `answered` counts
/// the acknowledgements as they come. Panics (the test fails) on a command the room does
/// not answer within its patience.
pub async fn play(
    room: Arc<Room>,
    id: String,
    mut state: v1::MatchState,
    stop: Arc<AtomicBool>,
    limit: usize,
    answered: Arc<AtomicU64>,
) -> Vec<Played> {
    let mut played: Vec<Played> = Vec::new();
    let mut rolls = 0;
    while !stop.load(Ordering::Relaxed) && played.len() < limit {
        let (action, rolled) = next_move(&state, rolls);
        let request = command(&id, format!("{id}-{}", played.len()), action);
        let answer = room
            .execute(request)
            .await
            .unwrap_or_else(|e| panic!("{id}: command {} never answered: {e}", played.len()));
        state = answer.reply.state.expect("a state");
        played.push(Played {
            dice: rolled,
            at: Instant::now(),
        });
        rolls += usize::from(rolled.is_some());
        answered.fetch_add(1, Ordering::Relaxed);
    }
    played
}

/// The checker: match `id`'s exported log (`baffle audit export`'s JSON lines) verifies,
/// and its reported dice and its presses are exactly the acknowledged ones, in order —
/// a lost command leaves a gap, one applied twice a repeat.
pub fn check_export(id: &str, export: &str, played: &[Played]) {
    let report = verify_jsonl(export, None);
    assert!(report.is_ok(), "{id}: {report}");
    let (mut rolled, mut presses) = (Vec::new(), 0);
    for line in export.lines() {
        let line: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let Some(body) = line.get("body").and_then(|b| b.as_str()) else {
            continue;
        };
        let body: serde_json::Value = serde_json::from_str(body).expect("a JSON body");
        match body["kind"].as_str() {
            Some("dice.reported") => {
                let dice: Vec<u32> = serde_json::from_value(body["dice"].clone()).expect("dice");
                rolled.push(dice);
            }
            Some("bg.pressed") => presses += 1,
            _ => {}
        }
    }
    let told: Vec<Vec<u32>> = played
        .iter()
        .filter_map(|p| p.dice)
        .map(|d| d.to_vec())
        .collect();
    assert_eq!(
        rolled, told,
        "{id}: the log's rolls are not the acknowledged ones"
    );
    let acked_presses = played.iter().filter(|p| p.dice.is_none()).count();
    assert_eq!(
        presses, acked_presses,
        "{id}: presses in the log, acknowledged"
    );
}
