//! The one reader of stored logs: where the lines a store holds, or an export file's
//! lines, become typed [`Record`]s.
//!
//! A log is stored one record a line, in the spelling of its export
//! (`{"seq":0,"prev":"…","hash":"…","body":"…"}`, see [`super::export`]); an export file
//! adds a closing line `{"end":{"records":N,"head":"…"}}`. Every site that reads a log —
//! the server's recovery, a replica's catch-up, a follower's backlog, the audit and game
//! exports, a tournament's log, the offline verifier and the console — reads it here, so
//! the format is parsed in one place and a stored line that is not the record expected at
//! its place is refused the same way everywhere. The architecture test
//! (`tests/tests/architecture.rs`, `a_log_is_parsed_only_by_the_reader`) fails on a file
//! that calls the line parser from anywhere else.
//!
//! The reader checks the form of each line and its place (a stored log's lines are
//! records `from`, `from + 1`, …); what the records *mean* — the chain, the bodies, the
//! rules — is [`crate::table::Replay`]'s to check.
//!
//! ```
//! use baffle_core::audit::{Reader, Record, export};
//!
//! let first = Record::next(None, r#"{"kind":"a"}"#.to_string());
//! let second = Record::next(Some(&first), r#"{"kind":"b"}"#.to_string());
//! let stored: Vec<Vec<u8>> = [&first, &second]
//!     .iter()
//!     .map(|r| export::record_line(r).into_bytes())
//!     .collect();
//! assert_eq!(Reader::new().records(&stored).unwrap(), vec![first.clone(), second.clone()]);
//! // Read on from record 1, as a follower's backlog is:
//! assert_eq!(Reader::at(1).records(&stored[1..]).unwrap(), vec![second]);
//! // A line out of its place is refused, naming the place:
//! let error = Reader::at(5).records(&stored[1..]).unwrap_err();
//! assert_eq!(error.seq, 5);
//! ```

use serde::{Deserialize, Serialize};

use super::{Hash, Record};

/// A record's line, as written ([`super::export::record_line`]) and read.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RecordLine {
    pub(super) seq: u64,
    pub(super) prev: String,
    pub(super) hash: String,
    pub(super) body: String,
}

/// An export's closing line.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EndLine {
    pub(super) end: End,
}

/// What the closing line claims.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct End {
    pub(super) records: u64,
    pub(super) head: String,
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

/// Parses one line, the low-level parser under [`Reader`]; the error says what is wrong
/// with it. Outside this module only tests call it: the crates read through [`Reader`].
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

/// Why a stored line is not the record expected at its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// The place in the log (the sequence number the line should have held).
    pub seq: u64,
    /// Why.
    pub reason: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stored record {}: {}", self.seq, self.reason)
    }
}

impl std::error::Error for ReadError {}

/// Reads a stored log's lines in order, from a known place. See the
/// [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reader {
    next: u64,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::new()
    }
}

impl Reader {
    /// A reader of a whole log, from its first record.
    pub fn new() -> Reader {
        Reader::at(0)
    }

    /// A reader of a log read on from record `seq` (a store read from there).
    pub fn at(seq: u64) -> Reader {
        Reader { next: seq }
    }

    /// The sequence number the next line must hold.
    pub fn next_seq(&self) -> u64 {
        self.next
    }

    /// The next stored line as its record: UTF-8, a record line (a log stores no end
    /// line), holding the sequence number of its place.
    pub fn record(&mut self, line: impl AsRef<[u8]>) -> Result<Record, ReadError> {
        let seq = self.next;
        let at = |reason: String| ReadError { seq, reason };
        let text = std::str::from_utf8(line.as_ref())
            .map_err(|e| at(format!("the line is not UTF-8: {e}")))?;
        let record = match parse_line(text).map_err(at)? {
            Line::Record(r) => r,
            Line::End { .. } => return Err(at("an end line inside a stored log".into())),
        };
        if record.seq != seq {
            return Err(at(format!(
                "the line holds record {}: the store gave a line out of its place",
                record.seq
            )));
        }
        self.next = seq.saturating_add(1);
        Ok(record)
    }

    /// Every line of `lines` as its record, in order; the first that fails stops it.
    pub fn records<L: AsRef<[u8]>>(mut self, lines: &[L]) -> Result<Vec<Record>, ReadError> {
        lines.iter().map(|l| self.record(l)).collect()
    }

    /// One line of an export file (a record as written, or the end line). An export is
    /// checked by replaying it, which says which record is out of place: this reads the
    /// line's form only.
    pub fn export_line(line: &str) -> Result<Line, String> {
        parse_line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::export::{end_line, record_line};

    fn log(n: usize) -> Vec<Record> {
        let mut out: Vec<Record> = Vec::new();
        for i in 0..n {
            let r = Record::next(out.last(), format!(r#"{{"kind":"k{i}"}}"#));
            out.push(r);
        }
        out
    }

    fn stored(records: &[Record]) -> Vec<Vec<u8>> {
        records
            .iter()
            .map(|r| record_line(r).into_bytes())
            .collect()
    }

    #[test]
    fn a_stored_log_reads_back_as_written() {
        let records = log(4);
        assert_eq!(
            Reader::new().records(&stored(&records)),
            Ok(records.clone())
        );
        assert_eq!(
            Reader::at(2).records(&stored(&records)[2..]),
            Ok(records[2..].to_vec())
        );
    }

    #[test]
    fn a_line_out_of_its_place_is_refused_at_its_place() {
        let records = log(3);
        let mut lines = stored(&records);
        lines.swap(1, 2);
        let e = Reader::new().records(&lines).unwrap_err();
        assert_eq!(e.seq, 1);
        assert!(e.reason.contains("holds record 2"), "{e}");
        // Read from the wrong place: the first line already fails.
        assert_eq!(Reader::at(1).records(&stored(&records)).unwrap_err().seq, 1);
    }

    #[test]
    fn an_end_line_bad_text_or_bad_bytes_is_not_a_stored_record() {
        let records = log(1);
        let end = end_line(1, records[0].hash).into_bytes();
        let e = Reader::at(1).record(&end).unwrap_err();
        assert_eq!(
            (e.seq, e.reason.as_str()),
            (1, "an end line inside a stored log")
        );
        assert!(Reader::new().record(b"{\"seq\":0}").is_err());
        let e = Reader::new().record([0xff, 0xfe]).unwrap_err();
        assert!(e.reason.contains("not UTF-8"), "{e}");
        // A failed line moves the reader on by nothing.
        let mut reader = Reader::new();
        assert!(reader.record(b"not json").is_err());
        assert_eq!(reader.next_seq(), 0);
        assert_eq!(reader.record(&stored(&records)[0]), Ok(records[0].clone()));
        assert_eq!(reader.next_seq(), 1);
    }

    #[test]
    fn an_export_line_is_a_record_or_the_end() {
        let records = log(2);
        let line = record_line(&records[1]);
        assert_eq!(
            Reader::export_line(&line),
            Ok(Line::Record(records[1].clone()))
        );
        let end = end_line(2, records[1].hash);
        assert_eq!(
            Reader::export_line(&end),
            Ok(Line::End {
                records: 2,
                head: records[1].hash
            })
        );
        assert!(Reader::export_line("{}").is_err());
    }
}
