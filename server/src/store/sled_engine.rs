//! The open sled database of a [`SledStore`](super::SledStore): the tree, the manifest
//! it was compared with, and the streams found lost. Opened on start, and opened again
//! when sled has failed (its errors are sticky: after a full disk every later write fails
//! until the database is opened anew).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

use super::StoreError;
use super::manifest::{self, Known, Manifest};
use super::queue::io;
use super::sled_keys::{MARKER_TAG, key, stored_len};

/// One opening of the database.
pub(super) struct Engine {
    /// The database (flushed by the flusher).
    pub db: sled::Db,
    /// Records, markers and receipts (see the store's documentation).
    pub records: sled::Tree,
    /// The manifest, appended after each durable flush.
    pub manifest: Mutex<Manifest>,
    /// Streams found holding less than the manifest says, with why.
    pub lost: BTreeMap<String, String>,
}

impl Engine {
    /// Opens sled in `dir`, moves an older layout, and compares it with the manifest.
    pub fn open(dir: &Path) -> Result<Engine, StoreError> {
        let db = sled::Config::new().path(dir).open().map_err(io)?;
        let records = db.open_tree("records").map_err(io)?;
        move_old_lengths(&db, &records)?;
        let (manifest, lost) = check_manifest(dir, &records)?;
        Ok(Engine {
            db,
            records,
            manifest: Mutex::new(manifest),
            lost,
        })
    }
}

/// The key that says this store has a manifest (so a missing one is a loss, not an
/// older store): `0xFD`, apart from records, markers and receipts.
const MANIFEST_KEY: &[u8] = &[0xFD];

/// Compares the store with its manifest (`manifest`): returns the manifest rewritten,
/// open for appending, and every lost stream with why (each logged as an ERROR).
fn check_manifest(
    dir: &Path,
    records: &sled::Tree,
) -> Result<(Manifest, BTreeMap<String, String>), StoreError> {
    let had_one = records.contains_key(MANIFEST_KEY).map_err(io)?;
    let known = match Manifest::read(dir) {
        Err(e) => return Err(StoreError::Lost(format!("{e}: run `baffled check`"))),
        Ok(None) if had_one => {
            return Err(StoreError::Lost(format!(
                "the manifest ({}) is missing: restore it with the store from a backup",
                dir.join(manifest::FILE).display()
            )));
        }
        Ok(known) => known.unwrap_or_default(),
    };
    let head = |stream: &str, len: u64| -> Result<(u64, Option<String>), StoreError> {
        let now = stored_len(records, stream)?;
        let head = match len.checked_sub(1) {
            Some(last) if last < now => records
                .get(key(stream, last))
                .map_err(io)?
                .map(|r| manifest::head_of(&r)),
            _ => None,
        };
        Ok((now, head))
    };
    let lost = manifest::lost_streams(&known, head)?;
    for (stream, why) in &lost {
        tracing::error!(stream = %stream, error = %why, "the store lost acknowledged records");
    }
    // The new manifest: every stream as it is, and every lost one as it should be.
    let mut now = BTreeMap::new();
    for entry in records.scan_prefix([MARKER_TAG]).keys() {
        let k = entry.map_err(io)?;
        let stream = String::from_utf8_lossy(&k[1..]).into_owned();
        let len = stored_len(records, &stream)?;
        if let Some(last) = len.checked_sub(1)
            && let Some(record) = records.get(key(&stream, last)).map_err(io)?
        {
            let head = manifest::head_of(&record);
            now.insert(stream, Known { len, head });
        }
    }
    for stream in lost.keys() {
        now.insert(stream.clone(), known[stream].clone());
    }
    let manifest = Manifest::rewrite(dir, &now).map_err(io)?;
    if !had_one {
        records.insert(MANIFEST_KEY, &[]).map_err(io)?;
        records.flush().map_err(io)?;
    }
    Ok((manifest, lost))
}

/// Stores of the earlier layout kept lengths in a tree of their own: move them beside
/// the records, in one batch, and flush before the old tree goes.
fn move_old_lengths(db: &sled::Db, records: &sled::Tree) -> Result<(), StoreError> {
    if !db.tree_names().iter().any(|n| n.as_ref() == b"lengths") {
        return Ok(());
    }
    let old = db.open_tree("lengths").map_err(io)?;
    let mut batch = sled::Batch::default();
    for entry in old.iter() {
        let (name, len) = entry.map_err(io)?;
        let mut k = vec![MARKER_TAG];
        k.extend_from_slice(&name);
        batch.insert(k, len);
    }
    records.apply_batch(batch).map_err(io)?;
    db.flush().map_err(io)?;
    db.drop_tree("lengths").map_err(io)?;
    db.flush().map_err(io)?;
    Ok(())
}
