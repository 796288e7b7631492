//! An event store in memory: the same contract as [`super::SledStore`] except durability.
//!
//! For simulations and tests that run on virtual time (a paused tokio runtime), where a
//! real flush on another thread would let the virtual clock race ahead while the
//! runtime waits, and as the "no storage at all" baseline in benchmarks. Never for a
//! server that keeps matches: a restart forgets everything.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::{EventStore, Receipt, StoreError};

/// An [`EventStore`] in memory. Cheap to clone; clones share the streams.
#[derive(Clone, Default)]
pub struct MemoryStore {
    streams: Arc<Mutex<Streams>>,
}

/// Every stream's records and receipts.
#[derive(Default)]
struct Streams {
    records: BTreeMap<String, Vec<Vec<u8>>>,
    receipts: BTreeMap<(String, String), Vec<u8>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, Streams> {
        // A panic elsewhere cannot leave a half-made append: each is one push of a batch.
        self.streams.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl EventStore for MemoryStore {
    async fn append_with_receipt(
        &self,
        stream: &str,
        expected: u64,
        records: Vec<Vec<u8>>,
        receipt: Option<Receipt>,
    ) -> Result<u64, StoreError> {
        let mut streams = self.lock();
        let s = streams.records.entry(stream.to_string()).or_default();
        let actual = s.len() as u64;
        if actual != expected {
            return Err(StoreError::Conflict { expected, actual });
        }
        s.extend(records);
        let len = s.len() as u64;
        if let Some(Receipt { key, value }) = receipt {
            streams.receipts.insert((stream.to_string(), key), value);
        }
        Ok(len)
    }

    fn receipt(&self, stream: &str, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self
            .lock()
            .receipts
            .get(&(stream.to_string(), key.to_string()))
            .cloned())
    }

    fn read(&self, stream: &str, from: u64, limit: usize) -> Result<Vec<Vec<u8>>, StoreError> {
        Ok(self.lock().records.get(stream).map_or_else(Vec::new, |s| {
            s.iter().skip(from as usize).take(limit).cloned().collect()
        }))
    }

    fn len(&self, stream: &str) -> Result<u64, StoreError> {
        Ok(self
            .lock()
            .records
            .get(stream)
            .map_or(0, |s| s.len() as u64))
    }

    fn streams(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .lock()
            .records
            .iter()
            .filter(|(_, s)| !s.is_empty())
            .map(|(k, _)| k.clone())
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn appends_at_the_expected_position_only() {
        let store = MemoryStore::new();
        assert_eq!(store.append("m", 0, vec![b"a".to_vec()]).await.unwrap(), 1);
        assert!(matches!(
            store.append("m", 0, vec![b"b".to_vec()]).await,
            Err(StoreError::Conflict {
                expected: 0,
                actual: 1
            })
        ));
        store
            .append("m", 1, vec![b"b".to_vec(), b"c".to_vec()])
            .await
            .unwrap();
        assert_eq!(
            store.read("m", 1, 10).unwrap(),
            vec![b"b".to_vec(), b"c".to_vec()]
        );
        assert_eq!(store.len("m").unwrap(), 3);
        assert_eq!(store.streams().unwrap(), vec!["m".to_string()]);
    }

    #[tokio::test]
    async fn keeps_the_store_contract() {
        crate::store::contract::all(&MemoryStore::new()).await;
    }
}
