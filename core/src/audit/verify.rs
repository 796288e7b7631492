//! Offline verification of an exported match log.
//!
//! [`verify_jsonl`] reads an export and checks, in order: every line parses; sequence
//! numbers run 0, 1, 2, … with no gap; each `prev` is the hash of the record before;
//! each `hash` matches its record; the end line counts the records and names the head;
//! the head matches one a follower witnessed (if given); the dice entries make sense
//! (commitment first, player seeds only before the first draw, no draw after the
//! reveal, the revealed seed hashes to the commitment); and, once the seed is revealed,
//! every server draw is recomputed. The report names the first bad line and why.

use std::fmt;

use serde_json::Value;

use super::export::{Line, parse_line};
use super::{Entry, Hash, Record, record_hash};
use crate::dice::{DiceStream, MAX_PLAYER_SEED, ServerSeed, dice_key};

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

/// A server draw waiting for the reveal.
struct Draw {
    line: usize,
    seq: u64,
    entry: Entry,
}

/// What the dice entries said so far.
#[derive(Default)]
struct DiceLedger {
    match_id: Option<String>,
    commitment: Option<[u8; 32]>,
    seeds: [Option<Vec<u8>>; 2],
    draws: Vec<Draw>,
    server_seed: Option<ServerSeed>,
}

fn side_index(side: &str) -> Result<usize, String> {
    match side {
        "A" => Ok(0),
        "B" => Ok(1),
        other => Err(format!("side must be \"A\" or \"B\", not {other:?}")),
    }
}

fn decode_hex(s: &str, what: &str) -> Result<Vec<u8>, String> {
    hex::decode(s).map_err(|_| format!("{what} is not hex"))
}

const KNOWN_KINDS: [&str; 7] = [
    "match.opened",
    "dice.player_seed",
    "dice.roll",
    "dice.opening",
    "dice.chess960",
    "dice.reported",
    "dice.reveal",
];

impl DiceLedger {
    fn apply(&mut self, line: usize, r: &Record) -> Result<(), String> {
        let value: Value =
            serde_json::from_str(&r.body).map_err(|_| "the body is not JSON".to_string())?;
        let kind = value
            .get("kind")
            .and_then(Value::as_str)
            .ok_or("the body is not a JSON object with a string \"kind\"")?
            .to_string();
        let kind = kind.as_str();
        if r.seq == 0 && kind != "match.opened" {
            return Err(format!("the first record must be match.opened, not {kind}"));
        }
        if !KNOWN_KINDS.contains(&kind) {
            return Ok(()); // a game event: hashed and chained, nothing more to check here
        }
        let entry: Entry =
            serde_json::from_value(value).map_err(|e| format!("malformed {kind} entry: {e}"))?;
        match entry {
            Entry::MatchOpened {
                match_id,
                commitment,
            } => {
                if r.seq != 0 {
                    return Err("match.opened may only be the first record".into());
                }
                let c = decode_hex(&commitment, "the commitment")?;
                self.commitment = Some(c.try_into().map_err(|_| "the commitment is not 32 bytes")?);
                self.match_id = Some(match_id);
            }
            Entry::PlayerSeed { side, seed } => {
                let i = side_index(&side)?;
                if !self.draws.is_empty() {
                    return Err(
                        "a player seed after the first server draw (seeds close at the first roll)"
                            .into(),
                    );
                }
                if self.seeds[i].is_some() {
                    return Err(format!("player {side} added a second seed"));
                }
                let bytes = decode_hex(&seed, "the seed")?;
                if bytes.is_empty() || bytes.len() > MAX_PLAYER_SEED {
                    return Err(format!(
                        "a player seed has 1 to {MAX_PLAYER_SEED} bytes, not {}",
                        bytes.len()
                    ));
                }
                self.seeds[i] = Some(bytes);
            }
            Entry::Roll { .. } | Entry::Opening { .. } | Entry::Chess960 { .. } => {
                if self.server_seed.is_some() {
                    return Err("a server draw after the seed was revealed".into());
                }
                if let Entry::Roll { side, .. } = &entry {
                    side_index(side)?;
                }
                self.draws.push(Draw {
                    line,
                    seq: r.seq,
                    entry,
                });
            }
            Entry::Reported { side, dice } => {
                side_index(&side)?;
                if dice.iter().any(|d| !(1..=6).contains(d)) {
                    return Err(format!(
                        "reported dice {dice:?} are not 1 to 6 (backgammon 4.1 (i))"
                    ));
                }
            }
            Entry::Reveal { server_seed } => {
                if self.server_seed.is_some() {
                    return Err("the server seed was revealed twice".into());
                }
                let bytes: [u8; 32] = decode_hex(&server_seed, "the server seed")?
                    .try_into()
                    .map_err(|_| "the server seed is not 32 bytes")?;
                let seed = ServerSeed::from_bytes(bytes);
                if Some(seed.commitment().0) != self.commitment {
                    return Err("the revealed server seed does not hash to the commitment".into());
                }
                self.server_seed = Some(seed);
            }
        }
        Ok(())
    }

    /// Recomputes every draw; the first that differs is the problem.
    fn replay(&self) -> Result<usize, Problem> {
        let (Some(seed), Some(match_id)) = (&self.server_seed, &self.match_id) else {
            return Ok(0);
        };
        let seed_of = |i: usize| self.seeds[i].as_deref().unwrap_or_default();
        let mut stream = DiceStream::new(dice_key(match_id, seed, seed_of(0), seed_of(1)));
        for draw in &self.draws {
            let (claimed, expected) = match &draw.entry {
                Entry::Roll { dice, .. } => (format!("{dice:?}"), format!("{:?}", stream.roll())),
                Entry::Opening { throws } => (
                    format!("{throws:?}"),
                    format!("{:?}", stream.opening().throws),
                ),
                Entry::Chess960 { sp } => (sp.to_string(), stream.chess960().to_string()),
                _ => unreachable!("only draws are kept"),
            };
            if claimed != expected {
                return Err(Problem {
                    line: draw.line,
                    seq: Some(draw.seq),
                    reason: format!(
                        "the draw {claimed} is not what the revealed seed gives ({expected})"
                    ),
                });
            }
        }
        Ok(self.draws.len())
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
    let mut last: Option<Record> = None;
    let mut ledger = DiceLedger::default();
    let mut ended = false;
    let mut lines = 0;
    for (i, text_line) in text.lines().enumerate() {
        let n = i + 1;
        lines = n;
        if ended {
            return Err(problem(n, None, "a line after the end line"));
        }
        let record = match parse_line(text_line).map_err(|e| problem(n, None, e))? {
            Line::End { records, head } => {
                if records != report.records as u64 {
                    let reason = format!(
                        "the end line claims {records} records; the file has {}",
                        report.records
                    );
                    return Err(problem(n, None, reason));
                }
                if head != last.as_ref().map_or(Hash::GENESIS, |r| r.hash) {
                    return Err(problem(
                        n,
                        None,
                        "the end line's head is not the hash of the last record",
                    ));
                }
                ended = true;
                continue;
            }
            Line::Record(r) => r,
        };
        let seq = Some(record.seq);
        let expected_seq = last.as_ref().map_or(0, |r| r.seq + 1);
        if record.seq != expected_seq {
            let reason = format!(
                "sequence number {} where {expected_seq} was expected: a record was dropped, inserted or moved",
                record.seq
            );
            return Err(problem(n, seq, reason));
        }
        if record.prev != last.as_ref().map_or(Hash::GENESIS, |r| r.hash) {
            return Err(problem(
                n,
                seq,
                "prev is not the hash of the record before it",
            ));
        }
        if record_hash(record.seq, &record.prev, record.body.as_bytes()) != record.hash {
            return Err(problem(
                n,
                seq,
                "the hash does not match the record: it was altered",
            ));
        }
        ledger
            .apply(n, &record)
            .map_err(|reason| problem(n, seq, reason))?;
        report.records += 1;
        report.head = Some(record.hash);
        last = Some(record);
    }
    report.match_id = ledger.match_id.clone();
    if !ended {
        return Err(problem(
            lines + 1,
            None,
            "no end line: the file was cut short",
        ));
    }
    if let Some(w) = witnessed_head.filter(|w| report.head.unwrap_or(Hash::GENESIS) != *w) {
        return Err(problem(
            lines,
            None,
            format!("the log does not end at the witnessed head {w}"),
        ));
    }
    report.revealed = ledger.server_seed.is_some();
    report.dice_verified = ledger.replay()?;
    Ok(())
}
