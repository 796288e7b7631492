//! A player's live dice chain as his own file keeps it: made from a secret tip and
//! written (mode 0600) before its anchor is sent, read back for his match and side, and
//! counted against the chain the server holds (its head and the links left). `join`
//! (`live.rs`) makes and commits it; `play` (`live/play.rs`) gives its links.

use std::path::{Path, PathBuf};

use baffle_core::Side;
use baffle_core::dice::{Commitment, DEFAULT_CHAIN_LENGTH, Link, LiveChain};
use baffle_proto::v1;
use serde::{Deserialize, Serialize};

use crate::run::outcome::{Outcome, usage};
use crate::run::seeds::{code_side, random_bytes};
use crate::words;

/// A player's chain as his file keeps it.
#[derive(Debug, Serialize, Deserialize)]
struct ChainFile {
    match_id: String,
    side: String,
    length: u32,
    /// The secret tip, hex.
    tip: String,
    /// The server's commitment the chain is bound to, hex.
    server_commitment: String,
}

/// A player's chain, read back from its file.
pub(super) struct Kept {
    pub chain: LiveChain,
    pub side: Side,
    pub path: PathBuf,
    /// The server's commitment the chain is bound to.
    pub server: Commitment,
}

impl Kept {
    /// The value the server should hold as his chain's head with `left` links left: the
    /// anchor, or the last link given.
    pub fn head(&self, left: u32) -> Link {
        let given = self.chain.length().saturating_sub(left);
        self.chain
            .link(given)
            .unwrap_or_else(|| self.chain.anchor())
    }

    /// The next link to give with `left` links left (number `length − left + 1`).
    pub fn next(&self, left: u32) -> Option<(u32, Link)> {
        let i = self.chain.length().checked_sub(left)? + 1;
        self.chain.link(i).map(|l| (i, l))
    }
}

/// The side a player's code names, and the file his chain is kept in: `join` and
/// `play` find it the same way.
pub(super) fn player_chain(
    code: &str,
    match_id: &str,
    chain_file: Option<&Path>,
) -> Result<(Side, PathBuf), Outcome> {
    let side = code_side(code, match_id)?;
    Ok((side, chain_path(chain_file, match_id, side)))
}

/// `--chain-file`, or `./baffle-live-MATCH-SIDE.json`.
fn chain_path(given: Option<&Path>, match_id: &str, side: Side) -> PathBuf {
    given.map(Path::to_path_buf).unwrap_or_else(|| {
        let letter = side.to_string().to_lowercase();
        PathBuf::from(format!("baffle-live-{match_id}-{letter}.json"))
    })
}

/// Reads the chain kept at `path` for `match_id` and `side`; `None` when there is no file.
pub(super) fn load(path: &Path, match_id: &str, side: Side) -> Result<Option<Kept>, Outcome> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(usage(format!("cannot read {}: {e}", path.display()))),
    };
    let bad = || usage(format!("{} is not a live dice chain file", path.display()));
    let f: ChainFile = serde_json::from_str(&text).map_err(|_| bad())?;
    if f.match_id != match_id || f.side != side.to_string() {
        let args = [
            ("file", path.display().to_string().into()),
            ("match", f.match_id.into()),
            ("side", f.side.into()),
        ];
        return Err(usage(words::say_with("live-file-other-match", &args)));
    }
    let tip: Link = hex32(&f.tip).ok_or_else(bad)?;
    let server = Commitment(hex32(&f.server_commitment).ok_or_else(bad)?);
    Ok(Some(Kept {
        chain: LiveChain::new(tip, f.length, server, match_id, side),
        side,
        path: path.to_path_buf(),
        server,
    }))
}

fn hex32(text: &str) -> Option<[u8; 32]> {
    hex::decode(text).ok()?.try_into().ok()
}

/// Writes a new chain's file, readable by its owner only, before its anchor is sent: a
/// client that stops after committing still has its chain.
fn save(path: &Path, f: &ChainFile) -> Result<(), Outcome> {
    use std::io::Write;
    let fail = |e: std::io::Error| usage(format!("cannot write {}: {e}", path.display()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(fail)?;
    let text = serde_json::to_string_pretty(f).expect("a chain file serializes");
    file.write_all(text.as_bytes()).map_err(fail)?;
    file.sync_all().map_err(fail)
}

/// `side`'s chain as the server holds it: its head and the links left.
pub(super) fn held(live: &v1::LiveDice, side: Side) -> Option<&v1::LiveChain> {
    match side {
        Side::A => live.chain_a.as_ref(),
        Side::B => live.chain_b.as_ref(),
    }
}

/// A chain from a fresh secret tip, kept in `path`.
pub(super) fn new_chain(
    path: &Path,
    match_id: &str,
    side: Side,
    server: Commitment,
) -> Result<Kept, Outcome> {
    let tip: Link = random_bytes(32)?.try_into().expect("32 bytes");
    save(
        path,
        &ChainFile {
            match_id: match_id.to_string(),
            side: side.to_string(),
            length: DEFAULT_CHAIN_LENGTH,
            tip: hex::encode(tip),
            server_commitment: hex::encode(server.0),
        },
    )?;
    Ok(Kept {
        chain: LiveChain::new(tip, DEFAULT_CHAIN_LENGTH, server, match_id, side),
        side,
        path: path.to_path_buf(),
        server,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_chain_reads_back_and_counts_its_links_as_the_server_does() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        let server = Commitment([5; 32]);
        let made = new_chain(&path, "m", Side::A, server).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let kept = load(&path, "m", Side::A).unwrap().unwrap();
        assert_eq!(kept.chain.anchor(), made.chain.anchor(), "the same chain");
        let n = DEFAULT_CHAIN_LENGTH;
        // Nothing given: the head is the anchor and the next link is link 1.
        assert_eq!(kept.head(n), kept.chain.anchor());
        assert_eq!(kept.next(n), Some((1, kept.chain.link(1).unwrap())));
        // Two given: the head is link 2, the next is link 3; spent: none.
        assert_eq!(kept.head(n - 2), kept.chain.link(2).unwrap());
        assert_eq!(kept.next(n - 2).map(|(i, _)| i), Some(3));
        assert_eq!(kept.next(0), None);
        // Another match's or side's file is refused, not used.
        assert!(load(&path, "m", Side::B).is_err());
        assert!(load(&path, "other", Side::A).is_err());
        assert!(
            load(&dir.path().join("none.json"), "m", Side::A)
                .unwrap()
                .is_none()
        );
    }
}
