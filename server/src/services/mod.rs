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
