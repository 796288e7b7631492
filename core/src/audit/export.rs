//! The JSON Lines export of a match log (`docs/audit-log.md`).
//!
//! One line per record — `{"seq":0,"prev":"…","hash":"…","body":"…"}`, where `body` is
//! the exact hashed text as a JSON string — then one closing line
//! `{"end":{"records":N,"head":"…"}}` so that a file cut short is detected.

use serde::{Deserialize, Serialize};

use super::{Hash, Record};

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordLine {
    seq: u64,
    prev: String,
    hash: String,
    body: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EndLine {
    end: End,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct End {
    records: u64,
    head: String,
}

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

/// A line of an export file, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A record as written: the hashes as claimed, not yet checked.
    Record(Record),
    /// The closing line.
    End {
        /// Records the file claims to hold.
        records: u64,
        /// The head it claims.
        head: Hash,
    },
}

/// Parses one line; the error says what is wrong with it.
pub fn parse_line(line: &str) -> Result<Line, String> {
    // Record lines are nearly all of a log (and recovery reads every one): try them first.
    let r: RecordLine = match serde_json::from_str(line) {
        Ok(r) => r,
        Err(not_a_record) => {
            let Ok(end) = serde_json::from_str::<EndLine>(line) else {
                return Err(format!("not a record line: {not_a_record}"));
            };
            let head =
                Hash::from_hex(&end.end.head).ok_or("the end line's head is not 64 hex digits")?;
            return Ok(Line::End {
                records: end.end.records,
                head,
            });
        }
    };
    let prev = Hash::from_hex(&r.prev).ok_or("prev is not 64 hex digits")?;
    let hash = Hash::from_hex(&r.hash).ok_or("hash is not 64 hex digits")?;
    Ok(Line::Record(Record {
        seq: r.seq,
        prev,
        body: r.body,
        hash,
    }))
}

/// The records of a stored log, one line each (no end line inside a log): what a server
/// reads back of a stream before replaying it.
pub fn parse_records<L: AsRef<[u8]>>(lines: &[L]) -> Result<Vec<Record>, String> {
    lines
        .iter()
        .map(|l| match parse_line(&String::from_utf8_lossy(l.as_ref())) {
            Ok(Line::Record(r)) => Ok(r),
            Ok(Line::End { .. }) => Err("an end line inside the log".to_string()),
            Err(e) => Err(e),
        })
        .collect()
}
