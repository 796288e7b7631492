//! Offline verification of an exported match log.
//!
//! [`verify_jsonl`] reads an export line by line and replays its records through the same
//! code the server recovers a match with ([`crate::table::Replay`], the seed sealed until
//! the reveal), so it checks everything the server checks: the chain (sequence numbers,
//! `prev`, every hash), each body's canonical form, every game event against the rules,
//! the dice (commitment first, player seeds only before the first draw, every die played
//! equal to the die drawn, every reported roll and the anomalies it raised, no draw after
//! the reveal), then, once the seed is revealed, every draw recomputed. The end line must
//! count the records and name the head. [`verify_expecting`] also checks what a
//! verifier asks for ([`Expect`]): a witnessed head, the reveal, a player's own seed.
//! The report names the first bad line and why.

use std::fmt;

use super::Hash;
use super::reader::{Line, Reader};
use super::signed_head::{Equivocation, SignedHead, find_equivocation};
use crate::side::Side;
use crate::table::{Replay, Table};

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
    /// Heads the server signed that a witness kept, each checked and on the log's chain.
    pub signed_heads: usize,
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
        if self.signed_heads > 0 {
            write!(
                f,
                "through all {} heads the server signed for the witness; ",
                self.signed_heads
            )?;
        }
        if self.revealed {
            write!(
                f,
                "{} server draw{} recomputed from the revealed seed",
                self.dice_verified,
                if self.dice_verified == 1 { "" } else { "s" }
            )
        } else {
            write!(
                f,
                "server seed not revealed yet, so the dice cannot be recomputed"
            )
        }
    }
}

/// What a verifier asks of a log beyond its soundness.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expect {
    /// A head hash a follower witnessed: the log must pass through it (the record it
    /// names is in the log as it was seen; records may follow, such as the reveal).
    pub head: Option<Hash>,
    /// The log must hold the reveal, so that every draw was recomputed: a log without
    /// it is sound so far but its dice are not yet checked.
    pub reveal: bool,
    /// Seeds players know they gave: the log's seed for each side must be the one given
    /// (a player checks his own went in).
    pub player_seeds: Vec<(Side, Vec<u8>)>,
    /// Commitments players know they made: the log's commitment for each side must be
    /// the one given — with live dice, his chain's first anchor. In construction 2 a
    /// commitment (and a chain's every step) binds the server's commitment, so a twin log
    /// opened with another server seed cannot hold it.
    pub player_commits: Vec<(Side, Vec<u8>)>,
    /// Heads the server signed, kept by a witness ([`super::signed_head`]): each must
    /// be signed by the key the log's `match.opened` names, and the log must pass
    /// through it (record `length − 1` has hash `head`). Two of them for one length
    /// that differ prove that the server signed two histories.
    pub signed_heads: Vec<SignedHead>,
}

/// Verifies an export. `witnessed_head`, if given, is a head hash a follower saw: the
/// log must pass through it.
pub fn verify_jsonl(text: &str, witnessed_head: Option<Hash>) -> Report {
    verify_expecting(
        text,
        &Expect {
            head: witnessed_head,
            ..Expect::default()
        },
    )
}

/// Verifies an export and what `expect` asks of it.
pub fn verify_expecting(text: &str, expect: &Expect) -> Report {
    let mut report = Report::default();
    report.problem = check(text, expect, &mut report).err();
    report
}

fn problem(line: usize, seq: Option<u64>, reason: impl Into<String>) -> Problem {
    Problem {
        line,
        seq,
        reason: reason.into(),
    }
}

/// What reading an export's lines left: the replay, every record's hash in order, the
/// number of lines, and whether the witnessed head (if any) was passed.
struct Read {
    replay: Replay,
    hashes: Vec<Hash>,
    lines: usize,
    witnessed: bool,
}

fn check(text: &str, expect: &Expect, report: &mut Report) -> Result<(), Problem> {
    let Read {
        replay,
        hashes,
        lines,
        witnessed,
    } = read(text, expect.head, report)?;
    if let Some(w) = expect.head.filter(|_| !witnessed) {
        return Err(problem(
            lines,
            None,
            format!(
                "the log does not pass through the witnessed head {w}: what was seen was \
                 rewritten, or the log is cut short of it"
            ),
        ));
    }
    if !expect.signed_heads.is_empty() {
        let signer = replay.table().and_then(|t| t.signer());
        let match_id = replay.match_id().unwrap_or_default();
        check_signed_heads(&expect.signed_heads, &hashes, match_id, signer)
            .map_err(|why| problem(lines, None, why))?;
        report.signed_heads = expect.signed_heads.len();
    }
    let table = replay
        .finish()
        .map_err(|e| problem(lines, e.seq, e.reason))?;
    if expect.reveal && !table.dice().revealed() {
        return Err(problem(
            lines,
            None,
            "the server seed is not revealed in this log, so its dice are not checked yet \
             (a complete log holds the reveal)",
        ));
    }
    check_players(&table, expect).map_err(|why| problem(lines, None, why))
}

/// Reads an export line by line through the replay, up to its end line (which must
/// count the records and name the last hash), filling in `report` as it goes.
fn read(text: &str, head: Option<Hash>, report: &mut Report) -> Result<Read, Problem> {
    let mut replay = Replay::new(None);
    let mut ended = false;
    let mut witnessed = head.is_none();
    let mut hashes = Vec::new();
    let mut lines = 0;
    for (i, text_line) in text.lines().enumerate() {
        let n = i + 1;
        lines = n;
        if ended {
            // An editor's trailing newline is not a line of the log.
            if text_line.trim().is_empty() {
                continue;
            }
            return Err(problem(n, None, "a line after the end line"));
        }
        match Reader::export_line(text_line).map_err(|e| problem(n, None, e))? {
            Line::End { records, head } => {
                check_end(&replay, records, head).map_err(|why| problem(n, None, why))?;
                ended = true;
            }
            Line::Record(r) => {
                replay
                    .push(&r)
                    .map_err(|e| problem(n, Some(r.seq), e.reason))?;
                report.records += 1;
                report.head = Some(r.hash);
                hashes.push(r.hash);
                witnessed |= head == Some(r.hash);
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
    Ok(Read {
        replay,
        hashes,
        lines,
        witnessed,
    })
}

/// The end line must count the records read and name the last one's hash.
fn check_end(replay: &Replay, records: u64, head: Hash) -> Result<(), String> {
    if records != replay.len() {
        return Err(format!(
            "the end line claims {records} records; the file has {}",
            replay.len()
        ));
    }
    if head != replay.head() {
        return Err("the end line's head is not the hash of the last record".into());
    }
    Ok(())
}

/// The seeds and commitments the players know they gave must be the log's.
fn check_players(table: &Table, expect: &Expect) -> Result<(), String> {
    for (side, seed) in &expect.player_seeds {
        if table.dice().player_seed(*side) != seed.as_slice() {
            let recorded = hex::encode(table.dice().player_seed(*side));
            let recorded = if recorded.is_empty() {
                "none".to_string()
            } else {
                recorded
            };
            return Err(format!(
                "the seed recorded for {side} is {recorded}, not the one given"
            ));
        }
    }
    for (side, commitment) in &expect.player_commits {
        // With live dice the player's commitment is his chain's anchor.
        let recorded = table
            .dice()
            .player_commitment(*side)
            .or_else(|| table.dice().live().and_then(|live| live.anchor(*side)));
        if recorded.as_ref().map(|c| c.as_slice()) != Some(commitment.as_slice()) {
            let recorded = recorded.map_or("none".to_string(), hex::encode);
            return Err(format!(
                "the commitment recorded for {side} is {recorded}, not the one given: \
                 this is not the log the player committed in"
            ));
        }
    }
    Ok(())
}

/// Checks a witness's signed heads against the log whose record hashes are `hashes`:
/// each signed by the log's `signer` for its match, and on its chain. A signed head off
/// the chain is reported with the signed statement, and as a proof of two histories when
/// the witness also holds a signed head of this log's history at the same length.
fn check_signed_heads(
    heads: &[SignedHead],
    hashes: &[Hash],
    match_id: &str,
    signer: Option<&str>,
) -> Result<(), String> {
    if let Some(proof) = find_equivocation(heads) {
        return Err(proof_text(&proof));
    }
    let Some(signer) = signer else {
        return Err(
            "the log names no key that signs its heads (its match.opened has no \
                    signer: written before heads were signed), so the witnessed heads \
                    cannot be checked against it"
                .into(),
        );
    };
    for signed in heads {
        if signed.match_id != match_id {
            return Err(format!(
                "a witnessed head is of match {}, the log of match {match_id}",
                signed.match_id
            ));
        }
        if signed.signer_hex() != signer {
            return Err(format!(
                "a witnessed head was signed by {}, and this log's heads are signed by \
                 {signer}: this log is not the one that server showed the witness",
                signed.signer_hex()
            ));
        }
        signed.check()?;
        let at = usize::try_from(signed.length)
            .ok()
            .and_then(|n| n.checked_sub(1));
        let Some(ours) = at.and_then(|i| hashes.get(i)) else {
            return Err(format!(
                "the log is shorter than a head the server signed: the server signed a log \
                 of {} records, this log has {}",
                signed.length,
                hashes.len()
            ));
        };
        if *ours != signed.head {
            return Err(off_chain(signed, ours));
        }
    }
    Ok(())
}

/// The words for a signed head that the log does not pass through. (Had the witness
/// also kept a signed head of this log's history at that length, the pair would already
/// have been reported as a proof.)
fn off_chain(signed: &SignedHead, ours: &Hash) -> String {
    format!(
        "the log is not the history the server signed: at length {} it signed head {}, \
         and this log's record {} has hash {ours}. The signed statement:\n{}",
        signed.length,
        signed.head,
        signed.length.saturating_sub(1),
        signed.to_line()
    )
}

/// An equivocation in words, with the two signed statements to pass on.
fn proof_text(proof: &Equivocation) -> String {
    format!(
        "{proof}. The proof, for anyone to check (save these two lines to a file and run \
         `baffle audit check-proof FILE`):\n{}",
        proof.to_text().trim_end()
    )
}
