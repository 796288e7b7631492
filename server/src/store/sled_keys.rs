//! Where the sled store keeps what, in its one tree (the layout is described in
//! `sled_store.rs`): the keys of a stream's records, its marker and a request's receipt,
//! and a stream's length read from its records. Shared by the store, its committer
//! (`sled_commit.rs`) and its opened database (`sled_engine.rs`).

use super::StoreError;
use super::queue::io;

/// Record keys: the stream name length-prefixed, then the position big-endian, so one
/// stream's records are contiguous and in order. (A name is at most a few dozen bytes, so
/// a record key never starts with the length keys' 0xFF.)
pub(super) fn key(stream: &str, position: u64) -> Vec<u8> {
    let mut k = stream_prefix(stream);
    k.extend_from_slice(&position.to_be_bytes());
    k
}

fn stream_prefix(stream: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(4 + stream.len() + 8);
    k.extend_from_slice(&(stream.len() as u32).to_be_bytes());
    k.extend_from_slice(stream.as_bytes());
    k
}

/// The first byte of every stream marker.
pub(super) const MARKER_TAG: u8 = 0xFF;

pub(super) fn marker_key(stream: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(1 + stream.len());
    k.push(MARKER_TAG);
    k.extend_from_slice(stream.as_bytes());
    k
}

/// The first byte of every receipt key: `0xFE ‖ len(name) ‖ name ‖ request id`.
const RECEIPT_TAG: u8 = 0xFE;

pub(super) fn receipt_key(stream: &str, request: &str) -> Vec<u8> {
    let mut k = vec![RECEIPT_TAG];
    k.extend_from_slice(&stream_prefix(stream));
    k.extend_from_slice(request.as_bytes());
    k
}

/// A stream's length: its last record's position plus one, 0 if it has none.
pub(super) fn stored_len(records: &sled::Tree, stream: &str) -> Result<u64, StoreError> {
    let end = key(stream, u64::MAX);
    match records.range(key(stream, 0)..end).next_back() {
        None => Ok(0),
        Some(entry) => {
            let (k, _) = entry.map_err(io)?;
            let position = k[k.len() - 8..].try_into().map_err(io)?;
            Ok(u64::from_be_bytes(position) + 1)
        }
    }
}
