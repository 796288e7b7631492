//! The server's INFO log of what a director or an IT person needs to find afterwards:
//! every ruling, flag, dice anomaly and match result, one structured line each (fields
//! `match_id`, `seq`, and what the record says), written once the records are durable.
//! Everything else a match records is logged at DEBUG (`--log debug`).

use baffle_proto::v1;
use serde_json::Value;

fn text(body: &Value, field: &str) -> String {
    match body.get(field) {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Logs the events of one durable append of match `match_id`.
pub(super) fn log_events(match_id: &str, events: &[v1::Event]) {
    for e in events {
        let body: Value = serde_json::from_str(&e.body).unwrap_or(Value::Null);
        match e.kind.as_str() {
            "bg.ruling" | "chess.ruling" => {
                let ruling = body.get("ruling").unwrap_or(&body);
                let action = body.get("action").map_or(String::new(), |a| a.to_string());
                tracing::info!(
                    match_id,
                    seq = e.seq,
                    article = %text(ruling, "article"),
                    reason = %text(ruling, "reason"),
                    %action,
                    "ruling"
                );
            }
            "bg.time_expired" | "chess.flag" => tracing::info!(
                match_id,
                seq = e.seq,
                side = %text(&body, "side"),
                color = %text(&body, "color"),
                "flag fell"
            ),
            "dice.anomaly" => tracing::warn!(
                match_id,
                seq = e.seq,
                anomaly = %text(&body, "message"),
                p_value = %text(&body, "p_value"),
                "dice anomaly"
            ),
            "bg.match_ended" | "chess.ended" | "bg.match_undecided" => tracing::info!(
                match_id,
                seq = e.seq,
                kind = %e.kind,
                winner = %text(&body, "winner"),
                how = %text(&body, "how"),
                "match result"
            ),
            "match.renamed" => tracing::info!(
                match_id,
                seq = e.seq,
                side = %text(&body, "side"),
                was = %text(&body, "was"),
                name = %text(&body, "name"),
                "player renamed"
            ),
            kind => tracing::debug!(match_id, seq = e.seq, kind, "recorded"),
        }
    }
}
