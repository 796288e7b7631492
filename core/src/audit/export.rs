//! The JSON Lines export of a match log (`docs/audit-log.md`).
//!
//! One line per record — `{"seq":0,"prev":"…","hash":"…","body":"…"}`, where `body` is
//! the exact hashed text as a JSON string — then one closing line
//! `{"end":{"records":N,"head":"…"}}` so that a file cut short is detected. This module
//! writes; [`super::reader`] is the one place such lines, stored or exported, are read.

use super::{Hash, Record};

use super::reader::{End, EndLine, RecordLine};
/// An export file's lines are read by [`super::Reader`]; these names stay here for the
/// tests that read an export line by line.
pub use super::reader::{Line, parse_line};

/// One record as an export line (no newline).
pub fn record_line(r: &Record) -> String {
    serde_json::to_string(&RecordLine {
        seq: r.seq,
        prev: r.prev.to_string(),
        hash: r.hash.to_string(),
        body: r.body.clone(),
    })
    .expect("records always serialize")
}

/// The closing line for `records` records ending at `head` (no newline).
pub fn end_line(records: u64, head: Hash) -> String {
    serde_json::to_string(&EndLine {
        end: End {
            records,
            head: head.to_string(),
        },
    })
    .expect("end line always serializes")
}

/// The whole export of `records`, each line ending in `\n`.
pub fn to_jsonl(records: &[Record]) -> String {
    let mut out = String::new();
    for r in records {
        out.push_str(&record_line(r));
        out.push('\n');
    }
    let head = records.last().map_or(Hash::GENESIS, |r| r.hash);
    out.push_str(&end_line(records.len() as u64, head));
    out.push('\n');
    out
}
