//! What each stream is known to hold, kept outside sled (issue 18): a flipped byte in
//! sled's files could make it open a *prefix* of the data — shorter logs that still
//! verify, being valid prefixes — and say nothing. The manifest is a file beside sled's,
//! `<store-dir>/manifest`: one line per durable append, `stream  length  head`, where
//! `head` is the SHA-256 of the stream's last record, each line ending in a checksum of
//! itself. It is appended after sled's flush and `fsync` and made durable before the
//! append is acknowledged, so the store can only be *ahead* of it, never behind, unless
//! something was lost. On open every stream is compared with it; a stream shorter than
//! the manifest says, or whose record at that length is not the one recorded, is *lost*:
//! it refuses appends and reads of it report the loss, loudly.
//!
//! On each open the manifest is rewritten as one line per stream (a new file, `fsync`,
//! rename, `fsync` of the directory), keeping the expected line of every lost stream so
//! that the loss stays visible on every later start until the data is restored.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The manifest's file name in the store directory.
pub const FILE: &str = "manifest";

/// What one stream is known to hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    /// Its length.
    pub len: u64,
    /// SHA-256 of its last record, hex.
    pub head: String,
}

/// SHA-256 of a record, hex: a stream's head in the manifest.
pub fn head_of(record: &[u8]) -> String {
    hex::encode(Sha256::digest(record))
}

fn checksum(body: &str) -> String {
    hex::encode(&Sha256::digest(body.as_bytes())[..8])
}

fn line(stream: &str, known: &Known) -> String {
    let body = format!("{stream}\t{}\t{}", known.len, known.head);
    format!("{body}\t{}\n", checksum(&body))
}

/// Parses the manifest: the last line of each stream wins. A last line cut short (no
/// newline: a crash while it was written, before its append was acknowledged) is
/// ignored; any other line that does not check out is an error.
pub fn parse(text: &str) -> Result<BTreeMap<String, Known>, String> {
    let mut known = BTreeMap::new();
    let complete = match text.rfind('\n') {
        Some(end) => &text[..end],
        None => "",
    };
    for (i, l) in complete.lines().enumerate() {
        let parts: Vec<&str> = l.split('\t').collect();
        let ok = parts.len() == 4
            && checksum(&parts[..3].join("\t")) == parts[3]
            && parts[2].len() == 64;
        let len = parts.get(1).and_then(|n| n.parse::<u64>().ok());
        match (ok, len) {
            (true, Some(len)) => {
                known.insert(
                    parts[0].to_string(),
                    Known {
                        len,
                        head: parts[2].to_string(),
                    },
                );
            }
            _ => return Err(format!("manifest line {} does not check out", i + 1)),
        }
    }
    Ok(known)
}

/// The manifest file, open for appending.
pub struct Manifest {
    path: PathBuf,
    file: File,
}

impl Manifest {
    /// Reads the manifest in `dir`: None if there is none.
    pub fn read(dir: &Path) -> Result<Option<BTreeMap<String, Known>>, String> {
        match std::fs::read(dir.join(FILE)) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|_| "the manifest is not text")?;
                parse(&text).map(Some)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("the manifest cannot be read: {e}")),
        }
    }

    /// Replaces the manifest in `dir` with `known`, durably, and opens it for appending.
    pub fn rewrite(dir: &Path, known: &BTreeMap<String, Known>) -> std::io::Result<Manifest> {
        let path = dir.join(FILE);
        let fresh = dir.join(format!("{FILE}.new"));
        {
            let mut file = File::create(&fresh)?;
            let text: String = known.iter().map(|(s, k)| line(s, k)).collect();
            file.write_all(text.as_bytes())?;
            file.sync_all()?;
        }
        std::fs::rename(&fresh, &path)?;
        File::open(dir)?.sync_all()?;
        let file = OpenOptions::new().append(true).open(&path)?;
        Ok(Manifest { path, file })
    }

    /// Appends what `streams` now hold and makes it durable.
    pub fn record<'a>(
        &mut self,
        streams: impl IntoIterator<Item = (&'a str, &'a Known)>,
    ) -> std::io::Result<()> {
        let text: String = streams.into_iter().map(|(s, k)| line(s, k)).collect();
        if text.is_empty() {
            return Ok(());
        }
        self.file.write_all(text.as_bytes())?;
        self.file.sync_data()
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The streams that hold less than `known` says, each with why: shorter than recorded,
/// or not the record recorded at that length. `now` reads a stream's length and the
/// head at a given length (None if the stream is shorter).
pub fn lost_streams<E>(
    known: &BTreeMap<String, Known>,
    mut now: impl FnMut(&str, u64) -> Result<(u64, Option<String>), E>,
) -> Result<BTreeMap<String, String>, E> {
    let mut lost = BTreeMap::new();
    for (stream, k) in known {
        let (len, head) = now(stream, k.len)?;
        if len < k.len {
            lost.insert(
                stream.clone(),
                format!(
                    "the store holds {len} records of stream {stream}, but {} were acknowledged \
                     (the manifest): records were lost",
                    k.len
                ),
            );
        } else if head.as_deref() != Some(k.head.as_str()) {
            lost.insert(
                stream.clone(),
                format!(
                    "record {} of stream {stream} is not the one acknowledged (the manifest): \
                     the store was damaged",
                    k.len - 1
                ),
            );
        }
    }
    Ok(lost)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(len: u64) -> Known {
        Known {
            len,
            head: head_of(&len.to_be_bytes()),
        }
    }

    #[test]
    fn the_last_line_of_a_stream_wins_and_a_torn_last_line_is_ignored() {
        let text = format!(
            "{}{}{}",
            line("a", &known(1)),
            line("b", &known(2)),
            line("a", &known(3))
        );
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed["a"], known(3));
        assert_eq!(parsed["b"], known(2));
        let torn = format!("{text}a\t9\t");
        assert_eq!(parse(&torn).unwrap(), parsed);
    }

    #[test]
    fn a_damaged_line_is_an_error() {
        let text = format!("{}{}", line("a", &known(1)), line("b", &known(2)));
        let damaged = text.replacen("\t1\t", "\t7\t", 1);
        assert!(parse(&damaged).unwrap_err().contains("line 1"));
    }

    #[test]
    fn rewritten_then_appended_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(Manifest::read(dir.path()).unwrap(), None);
        let mut all = BTreeMap::from([("a".to_string(), known(1))]);
        let mut m = Manifest::rewrite(dir.path(), &all).unwrap();
        m.record([("b", &known(5))]).unwrap();
        all.insert("b".into(), known(5));
        assert_eq!(Manifest::read(dir.path()).unwrap(), Some(all));
    }
}
