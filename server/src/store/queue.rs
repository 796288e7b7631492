//! How both engines take a write: an [`Append`] sent to the engine's committer task,
//! answered once its records are durable (sled: flushed and fsynced; PostgreSQL:
//! committed). The committers differ; the way in is one.

use tokio::sync::{mpsc, oneshot};

use super::{Receipt, StoreError};

/// One append on its way to a committer.
pub(super) struct Append {
    pub stream: String,
    pub expected: u64,
    pub records: Vec<Vec<u8>>,
    pub receipt: Option<Receipt>,
    pub done: oneshot::Sender<Result<u64, StoreError>>,
}

/// Hands an append to the committer behind `queue` and waits for its answer: the new
/// length once durable, or why not.
pub(super) async fn submit(
    queue: &mpsc::UnboundedSender<Append>,
    stream: &str,
    expected: u64,
    records: Vec<Vec<u8>>,
    receipt: Option<Receipt>,
) -> Result<u64, StoreError> {
    let (done, answered) = oneshot::channel();
    queue
        .send(Append {
            stream: stream.to_string(),
            expected,
            records,
            receipt,
            done,
        })
        .map_err(|_| io("the committer has stopped"))?;
    answered
        .await
        .map_err(|_| io("the committer has stopped"))?
}

/// A failure of the engine or the disk, in words.
pub(super) fn io(e: impl std::fmt::Display) -> StoreError {
    StoreError::Io(e.to_string())
}
