//! Offline verification of an exported match log.
//!
//! [`verify_jsonl`] reads an export line by line and replays its records through the same
//! code the server recovers a match with ([`crate::table::Replay`], the seed sealed until
//! the reveal), so it checks everything the server checks: the chain (sequence numbers,
//! `prev`, every hash), each body's canonical form, every game event against the rules,
//! the dice (commitment first, player seeds only before the first draw, every die played
//! equal to the die drawn, every reported roll and the anomalies it raised, no draw after
//! the reveal), then, once the seed is revealed, every draw recomputed. The end line must
//! count the records and name the head; a witnessed head, if given, must be the log's.
//! The report names the first bad line and why.

use std::fmt;

use super::Hash;
use super::export::{Line, parse_line};
use crate::table::Replay;

/// What was wrong, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line of the file.
    pub line: usize,
    /// The record's sequence number, when the line is a record.
    pub seq: Option<u64>,
    /// Why the line is bad.
    pub reason: String,
}

/// The verdict on one export.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Records read and found sound before any problem.
    pub records: usize,
    /// The head of the sound records.
    pub head: Option<Hash>,
    /// The match id from the first record.
    pub match_id: Option<String>,
    /// Server draws (rolls, opening rolls, Chess960 positions) recomputed and matched.
    pub dice_verified: usize,
    /// Whether the server seed was revealed (without it the dice cannot be recomputed).
    pub revealed: bool,
    /// The first problem found; `None` means the log verifies.
    pub problem: Option<Problem>,
}

impl Report {
    /// True when nothing is wrong.
    pub fn is_ok(&self) -> bool {
        self.problem.is_none()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.problem {
            let at = p.seq.map_or(String::new(), |s| format!(" (record {s})"));
            return write!(f, "BAD: line {}{at}: {}", p.line, p.reason);
        }
        let head = self.head.map_or("none".into(), |h| h.to_string());
        write!(f, "OK: {} records, head {head}; ", self.records)?;
        if self.revealed {
            write!(
                f,
                "{} server draws recomputed from the revealed seed",
                self.dice_verified
            )
        } else {
            write!(
                f,
                "server seed not revealed yet, so the dice cannot be recomputed"
            )
        }
    }
}

/// Verifies an export. `witnessed_head`, if given, is a head hash a follower saw: the
/// log must end there.
pub fn verify_jsonl(text: &str, witnessed_head: Option<Hash>) -> Report {
    let mut report = Report::default();
    report.problem = check(text, witnessed_head, &mut report).err();
    report
}

fn problem(line: usize, seq: Option<u64>, reason: impl Into<String>) -> Problem {
    Problem {
        line,
        seq,
        reason: reason.into(),
    }
}

fn check(text: &str, witnessed_head: Option<Hash>, report: &mut Report) -> Result<(), Problem> {
    let mut replay = Replay::new(None);
    let mut ended = false;
    let mut lines = 0;
    for (i, text_line) in text.lines().enumerate() {
        let n = i + 1;
        lines = n;
        if ended {
            return Err(problem(n, None, "a line after the end line"));
        }
        match parse_line(text_line).map_err(|e| problem(n, None, e))? {
            Line::End { records, head } => {
                if records != replay.len() {
                    let reason = format!(
                        "the end line claims {records} records; the file has {}",
                        replay.len()
                    );
                    return Err(problem(n, None, reason));
                }
                if head != replay.head() {
                    return Err(problem(
                        n,
                        None,
                        "the end line's head is not the hash of the last record",
                    ));
                }
                ended = true;
            }
            Line::Record(r) => {
                replay
                    .push(&r)
                    .map_err(|e| problem(n, Some(r.seq), e.reason))?;
                report.records += 1;
                report.head = Some(r.hash);
                report.match_id = replay.match_id().map(str::to_string);
                if let Some(table) = replay.table() {
                    report.revealed = table.dice().revealed();
                    report.dice_verified = table.dice().verified();
                }
            }
        }
    }
    if !ended {
        return Err(problem(
            lines + 1,
            None,
            "no end line: the file was cut short",
        ));
    }
    if let Some(w) = witnessed_head.filter(|w| replay.head() != *w) {
        return Err(problem(
            lines,
            None,
            format!("the log does not end at the witnessed head {w}"),
        ));
    }
    replay
        .finish()
        .map_err(|e| problem(lines, e.seq, e.reason))?;
    Ok(())
}
