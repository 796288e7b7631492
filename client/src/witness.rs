//! `baffle audit witness` and `baffle audit check-proof`: keeping what the server signed,
//! and showing anyone that it signed two histories.
//!
//! A witness follows a match and appends every head the server signs to a file, one
//! JSON line each (`baffle_core::audit::signed_head`), checking each signature before it
//! keeps it: the file is then something its keeper can show anyone, not just his word.
//! `baffle audit verify --witness FILE` rejects a log that does not pass through every
//! head in it. Two heads signed for one length that differ — kept by one witness, or by
//! two whose files are put together — are a proof that the server signed two histories,
//! which `check-proof` checks with no server and no trust in whoever hands it over.
//!
//! The witness only reads: Ctrl-C (or the match's end) stops it, and nothing is ever sent
//! to the match.

use std::collections::BTreeMap;
use std::future::Future;
use std::io::Write;
use std::path::Path;

use baffle_core::audit::signed_head::{Equivocation, SignedHead, check_proof, read_witness};
use baffle_proto::v1;

use crate::exit;
use crate::feed::{Feed, match_updates};

/// What a witness has kept so far, by length, for one match and one key.
struct Kept {
    match_id: String,
    signer: Option<[u8; 32]>,
    heads: BTreeMap<u64, SignedHead>,
    /// Whether anything the server sent failed a check (exit status 1 at the end).
    troubled: bool,
}

/// What to do with one head the server sent.
enum Verdict {
    /// Keep it: a new head, validly signed.
    Keep(SignedHead),
    /// Seen already.
    Known,
    /// Not kept, and why.
    Refuse(String),
    /// Validly signed, and another head was signed for its length: kept (the proof's
    /// second head), with the proof.
    TwoHistories(Box<Equivocation>),
}

impl Kept {
    fn judge(&self, wire: &v1::SignedHead) -> Verdict {
        let signed = match SignedHead::from_hex(
            &wire.match_id,
            wire.length,
            &wire.head,
            &wire.signature,
            &wire.signer,
        ) {
            Ok(signed) => signed,
            Err(why) => return Verdict::Refuse(format!("a signed head that does not read: {why}")),
        };
        if signed.match_id != self.match_id {
            return Verdict::Refuse(format!("a head of match {}, not this one", signed.match_id));
        }
        if let Some(key) = self.signer.filter(|key| *key != signed.signer) {
            return Verdict::Refuse(format!(
                "a head signed by {}, where this match's heads were signed by {}",
                signed.signer_hex(),
                hex::encode(key)
            ));
        }
        if let Err(why) = signed.check() {
            return Verdict::Refuse(why);
        }
        match self.heads.get(&signed.length) {
            Some(known) if known.head == signed.head => Verdict::Known,
            Some(known) => Verdict::TwoHistories(Box::new(Equivocation {
                first: known.clone(),
                second: signed,
            })),
            None => Verdict::Keep(signed),
        }
    }

    fn keep(&mut self, signed: SignedHead) {
        self.signer.get_or_insert(signed.signer);
        self.heads.entry(signed.length).or_insert(signed);
    }
}

/// Follows `match_id` on `server` and appends every newly signed head to `file` until the
/// match's result is confirmed or `stop` completes (Ctrl-C). Lines for people go to `out`
/// and `err`. The exit status: 0; 1 when the server sent a head that failed its check or
/// signed two histories; 2 when the file cannot be written; 4 when there is no such match.
pub async fn witness(
    server: String,
    match_id: String,
    file: &Path,
    stop: impl Future<Output = ()>,
    out: &mut (dyn Write + Send),
    err: &mut (dyn Write + Send),
) -> std::io::Result<i32> {
    let mut kept = match earlier_heads(&match_id, file) {
        Ok(kept) => kept,
        Err(why) => {
            writeln!(err, "baffle: {why}")?;
            return Ok(exit::USAGE);
        }
    };
    let mut feed = match_updates(server, match_id);
    tokio::pin!(stop);
    loop {
        let state = tokio::select! {
            () = &mut stop => {
                writeln!(out, "stopped: {} signed heads kept in {}", kept.heads.len(), file.display())?;
                break;
            }
            next = feed.recv() => match next {
                Some(Feed::State(state)) => state,
                Some(Feed::Problem(p)) => {
                    writeln!(err, "baffle: {p}")?;
                    continue;
                }
                Some(Feed::Gone(why)) => {
                    writeln!(err, "baffle: {why}")?;
                    return Ok(exit::REFUSED);
                }
                Some(Feed::Events(_) | Feed::Offline(_)) => continue,
                None => break,
            },
        };
        match &state.signed_head {
            Some(wire) => {
                if let Err(why) = witness_one(&mut kept, wire, file, out, err) {
                    writeln!(err, "baffle: cannot write {}: {why}", file.display())?;
                    return Ok(exit::USAGE);
                }
            }
            None => {
                writeln!(
                    err,
                    "baffle: the server sent a head it did not sign (a server older than \
                     signed heads): nothing to keep"
                )?;
                kept.troubled = true;
            }
        }
        if state.result.as_ref().is_some_and(|r| r.confirmed) {
            writeln!(
                out,
                "the match is over: {} signed heads kept in {}",
                kept.heads.len(),
                file.display()
            )?;
            break;
        }
    }
    Ok(if kept.troubled {
        exit::INVALID
    } else {
        exit::OK
    })
}

/// Judges one head, keeps it (appended to `file`) if it is new and sound, and says so.
fn witness_one(
    kept: &mut Kept,
    wire: &v1::SignedHead,
    file: &Path,
    out: &mut (dyn Write + Send),
    err: &mut (dyn Write + Send),
) -> std::io::Result<()> {
    match kept.judge(wire) {
        Verdict::Known => Ok(()),
        Verdict::Refuse(why) => {
            kept.troubled = true;
            writeln!(err, "baffle: not kept: {why}")
        }
        Verdict::Keep(signed) => {
            append(file, &signed)?;
            writeln!(
                out,
                "kept the head at length {}: {}, signed by {}",
                signed.length,
                signed.head,
                &signed.signer_hex()[..8]
            )?;
            kept.keep(signed);
            Ok(())
        }
        Verdict::TwoHistories(proof) => {
            append(file, &proof.second)?;
            kept.troubled = true;
            writeln!(
                err,
                "baffle: {proof}. Both are in {}; the proof, for anyone to check with \
                 `baffle audit check-proof`:\n{}",
                file.display(),
                proof.to_text().trim_end()
            )
        }
    }
}

/// The heads of `match_id` a witness kept in `file` before (a witness started again):
/// a head signed now for a length kept then must be the same head.
fn earlier_heads(match_id: &str, file: &Path) -> Result<Kept, String> {
    let mut kept = Kept {
        match_id: match_id.to_string(),
        signer: None,
        heads: BTreeMap::new(),
        troubled: false,
    };
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(kept),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    let heads = read_witness(&text).map_err(|e| {
        format!(
            "{} is not a witness file ({e}): give another --out",
            file.display()
        )
    })?;
    for signed in heads.into_iter().filter(|h| h.match_id == match_id) {
        kept.keep(signed);
    }
    Ok(kept)
}

fn append(file: &Path, signed: &SignedHead) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)?;
    f.write_all(format!("{}\n", signed.to_line()).as_bytes())?;
    f.flush()
}

/// `baffle audit check-proof FILE`: the exit status (0: the proof holds; 1: it does not;
/// 2: the file cannot be read) and the words.
pub fn check_proof_file(file: &Path, signer: Option<&str>) -> (i32, String) {
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(file)
    };
    match text {
        Err(e) => (
            exit::USAGE,
            format!("cannot read {}: {e}\n", file.display()),
        ),
        Ok(text) => match check_proof(&text) {
            // A proof is worth something only under the server's key: with `--signer`
            // the key it names must be that one (a stranger made a "proof" with his own).
            Ok(proof) if signer.is_some_and(|k| k != proof.first.signer_hex()) => (
                exit::INVALID,
                format!(
                    "BAD: not a proof against this server: its heads are signed by {}, not {}\n",
                    proof.first.signer_hex(),
                    signer.unwrap_or_default()
                ),
            ),
            Ok(proof) => (
                exit::OK,
                format!("OK: {proof}: both signatures check with that key\n"),
            ),
            Err(why) => (exit::INVALID, format!("BAD: not a proof: {why}\n")),
        },
    }
}

/// Reads the witness files given to `audit verify --witness`: every signed head in them.
pub fn read_witness_files(files: &[std::path::PathBuf]) -> Result<Vec<SignedHead>, String> {
    let mut heads = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let more = read_witness(&text)
            .map_err(|e| format!("{} is not a witness file: {e}", file.display()))?;
        heads.extend(more);
    }
    Ok(heads)
}
