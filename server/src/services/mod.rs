//! The gRPC services of `baffle.v1`, thin layers over the [`Hub`](crate::hub::Hub): they
//! check who is calling and what was sent, then ask the hub or a match actor.

pub mod audit;
pub mod devices;
pub mod draws;
pub mod export;
pub mod feed;
pub mod follow;
pub mod matches;
pub mod server_info;
pub mod tournaments;

use baffle_core::audit::Reader;
use baffle_proto::v1;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Status;

pub use self::follow::follow;
use crate::actor;
use crate::auth;
use crate::error::Error;
use crate::followers::{FollowerSlot, Opener};
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;
use crate::wire;

impl<S: EventStore + Clone, T: TimeSource> Hub<S, T> {
    /// Who is calling, from request metadata. A token that is wrong is UNAUTHENTICATED.
    pub async fn caller(
        &self,
        metadata: &tonic::metadata::MetadataMap,
    ) -> Result<auth::Caller, Error> {
        let token = self.director_token();
        let identified = self
            .with_registry(|registry| auth::identify(metadata, token, registry))
            .await;
        match identified {
            // A device or a player registered on another node of a cluster a moment ago
            // may not have reached this node's registry yet: it is read again, once.
            Err(e @ Error::Unauthenticated(_)) => {
                if self.catch_up_registry().await.is_err() {
                    return Err(e);
                }
                self.with_registry(|registry| auth::identify(metadata, token, registry))
                    .await
            }
            answer => answer,
        }
    }

    /// A place for one more anonymous stream (`followers`) for the caller of `request`:
    /// the director's streams are not counted; anyone else's count against their address
    /// and the total. A wrong token is not refused here: following needs none.
    pub async fn follower_slot<R>(
        &self,
        request: &tonic::Request<R>,
    ) -> Result<FollowerSlot, Status> {
        let opener = match self.caller(request.metadata()).await {
            Ok(auth::Caller::Director) => Opener::Director,
            _ => Opener::Anonymous(request.remote_addr().map(|a| a.ip())),
        };
        Ok(self.followers.admit(opener)?)
    }

    /// Refuses anyone but the director.
    pub async fn director(&self, metadata: &tonic::metadata::MetadataMap) -> Result<(), Error> {
        auth::require_director(self.caller(metadata).await?)
    }
}

/// The server-streaming response type of every streaming RPC here.
pub type Stream<T> = ReceiverStream<Result<T, Status>>;

/// The stored records of a match from `from` on, as wire events.
pub fn stored_events<S: EventStore>(
    store: &S,
    match_id: &str,
    from: u64,
    limit: usize,
) -> Result<Vec<v1::Event>, Status> {
    let lines = store
        .read(&actor::stream(match_id), from, limit)
        .map_err(|e| Error::Unavailable(format!("the log could not be read: {e}")))?;
    let records = Reader::at(from)
        .records(&lines)
        .map_err(|e| Error::DataLoss(format!("match {match_id}'s log: {e}")))?;
    Ok(records.iter().map(wire::event).collect())
}

#[cfg(test)]
mod tests {
    use baffle_core::audit::Record;
    use baffle_core::audit::export::record_line;

    use super::*;
    use crate::store::MemoryStore;

    /// A store whose log of `m` holds `records`, as lines.
    async fn store_with(records: &[Record]) -> MemoryStore {
        let store = MemoryStore::new();
        let lines = records
            .iter()
            .map(|r| record_line(r).into_bytes())
            .collect();
        store.append(&actor::stream("m"), 0, lines).await.unwrap();
        store
    }

    fn chain(n: usize) -> Vec<Record> {
        let mut out: Vec<Record> = Vec::new();
        for i in 0..n {
            out.push(Record::next(out.last(), format!(r#"{{"kind":"k{i}"}}"#)));
        }
        out
    }

    #[tokio::test]
    async fn a_backlog_is_the_stored_records_from_where_it_is_asked() {
        let records = chain(3);
        let store = store_with(&records).await;
        let events = stored_events(&store, "m", 1, 10).unwrap();
        let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, [1, 2]);
    }

    #[tokio::test]
    async fn a_stored_line_out_of_its_place_is_data_loss_not_an_event() {
        // Record 1 lost from the store: the line at place 1 holds record 2.
        let records = chain(3);
        let store = store_with(&[records[0].clone(), records[2].clone()]).await;
        let e = stored_events(&store, "m", 0, 10).unwrap_err();
        assert_eq!(e.code(), tonic::Code::DataLoss, "{e:?}");
        assert!(e.message().contains("stored record 1"), "{e:?}");
    }
}
