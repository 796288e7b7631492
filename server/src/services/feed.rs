//! `Matches.WatchTournament`, encoded once for every follower.
//!
//! A tournament may have thousands of followers, and each change of a match goes to all
//! of them. Through the generated service, every follower would clone the new state out of
//! the broadcast channel and encode it again. Here the match's actor encodes its state
//! once ([`Summary`]) and each follower's copy is those shared bytes plus the one field
//! that differs per copy, `sent_at_ms` (appended: protobuf readers take fields in any
//! order, and a field appears once, since the shared bytes leave it out).
//!
//! [`FeedService`] answers the method's path itself, ahead of the generated
//! `MatchesServer`, with tonic's own gRPC machinery and a codec for these frames; on the
//! wire nothing changes — followers receive `MatchState` messages as the proto says.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use baffle_proto::v1;
use bytes::BufMut;
use prost::Message;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tonic::body::Body;
use tonic::codec::{BufferSettings, Codec, EncodeBuf, Encoder};
use tonic::codegen::{Service, http};
use tonic::server::{Grpc, NamedService, ServerStreamingService};
use tonic::{Request, Response, Status};

use crate::error::Error;
pub use crate::feed::{FeedItem, Summary};
use crate::followers::FollowerSlot;
use crate::hub::Hub;
use crate::store::EventStore;
use crate::time::TimeSource;

/// The path `FeedService` answers.
pub const PATH: &str = "/baffle.v1.Matches/WatchTournament";

/// One follower's copy: the shared bytes and when it leaves.
#[derive(Clone, Debug)]
pub struct Frame {
    summary: Summary,
    sent_at_ms: i64,
}

impl Frame {
    /// The copy as a decoded `MatchState` (for callers of the generated service).
    pub fn decode(&self) -> Result<v1::MatchState, Status> {
        Ok(self.summary.decode(self.sent_at_ms)?)
    }
}

/// The feed of one tournament as a response stream: the current state of every match,
/// then each match's state after every change, each stamped as it leaves; it ends when the
/// server shuts down. No task or channel of its own: with thousands of followers, each
/// update costs one wake-up per follower.
pub struct FeedStream {
    snapshot: std::vec::IntoIter<Summary>,
    live: BroadcastStream<FeedItem>,
    now_ms: Box<dyn Fn() -> i64 + Send + Sync>,
    /// This follower's place among the open streams, given back when it goes.
    _slot: FollowerSlot,
    /// Counted in `baffle_followers` while the stream lives.
    _follower: crate::metrics::Gauge,
}

impl FeedStream {
    /// Subscribes to tournament `id`'s feed and reads the current state of its matches
    /// (matches whose log did not check out are left out, as in listings).
    pub async fn open<S: EventStore + Clone, T: TimeSource>(
        hub: &Arc<Hub<S, T>>,
        id: &str,
        slot: FollowerSlot,
    ) -> Result<FeedStream, Status> {
        hub.tournament(id).await?;
        // Subscribe first: a change between the two is then sent twice, never missed.
        let Some(live) = hub.subscribe_feed(id) else {
            return Err(Error::Unavailable("the server is shutting down".into()).into());
        };
        let mut current = Vec::new();
        for h in hub
            .match_handles()
            .await
            .into_iter()
            .filter(|h| h.info.tournament == id)
        {
            current.extend(h.listed_state().await?.as_ref().map(Summary::encode));
        }
        let time = hub.time.clone();
        Ok(FeedStream {
            snapshot: current.into_iter(),
            live: BroadcastStream::new(live),
            now_ms: Box::new(move || time.now().as_ms()),
            _slot: slot,
            _follower: crate::metrics::Gauge::new(crate::metrics::Kind::Follower),
        })
    }
}

impl tokio_stream::Stream for FeedStream {
    type Item = Result<Frame, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let summary = match self.snapshot.next() {
            Some(summary) => summary,
            None => loop {
                match std::task::ready!(Pin::new(&mut self.live).poll_next(cx)) {
                    Some(Ok(FeedItem::State(summary))) => break summary,
                    Some(Ok(FeedItem::Closing)) | None => return Poll::Ready(None),
                    // Summaries are whole states: a follower that fell behind just gets
                    // the next. (The closing message is the last sent, so it is kept.)
                    Some(Err(BroadcastStreamRecvError::Lagged(_))) => continue,
                }
            },
        };
        let sent_at_ms = (self.now_ms)();
        Poll::Ready(Some(Ok(Frame {
            summary,
            sent_at_ms,
        })))
    }
}

/// Answers [`PATH`]: a tower service in front of the generated `MatchesServer`.
pub struct FeedService<S: EventStore, T: TimeSource> {
    hub: Arc<Hub<S, T>>,
}

impl<S: EventStore, T: TimeSource> FeedService<S, T> {
    /// The feed of `hub`'s tournaments.
    pub fn new(hub: Arc<Hub<S, T>>) -> Self {
        FeedService { hub }
    }
}

impl<S: EventStore, T: TimeSource> Clone for FeedService<S, T> {
    fn clone(&self) -> Self {
        FeedService {
            hub: self.hub.clone(),
        }
    }
}

impl<S: EventStore, T: TimeSource> NamedService for FeedService<S, T> {
    const NAME: &'static str = "baffle.v1.Matches";
}

impl<S: EventStore + Clone, T: TimeSource> Service<http::Request<Body>> for FeedService<S, T> {
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        let subscribe = Subscribe {
            hub: self.hub.clone(),
        };
        Box::pin(async move {
            let mut grpc = Grpc::new(FeedCodec)
                .apply_max_message_size_config(Some(crate::wire::MAX_MESSAGE_BYTES), None);
            Ok(grpc.server_streaming(subscribe, request).await)
        })
    }
}

/// The method's handler, for tonic's [`Grpc::server_streaming`].
struct Subscribe<S: EventStore, T: TimeSource> {
    hub: Arc<Hub<S, T>>,
}

impl<S: EventStore + Clone, T: TimeSource> ServerStreamingService<v1::WatchTournamentRequest>
    for Subscribe<S, T>
{
    type Response = Frame;
    type ResponseStream = FeedStream;
    type Future = Pin<Box<dyn Future<Output = Result<Response<FeedStream>, Status>> + Send>>;

    fn call(&mut self, request: Request<v1::WatchTournamentRequest>) -> Self::Future {
        let hub = self.hub.clone();
        Box::pin(async move {
            let slot = hub.follower_slot(&request).await?;
            let id = request.into_inner().tournament_id;
            Ok(Response::new(FeedStream::open(&hub, &id, slot).await?))
        })
    }
}

/// Decodes the request as prost does; encodes a [`Frame`] as its shared bytes followed by
/// `sent_at_ms`.
#[derive(Clone, Copy, Debug, Default)]
pub struct FeedCodec;

impl Codec for FeedCodec {
    type Encode = Frame;
    type Decode = v1::WatchTournamentRequest;
    type Encoder = FrameEncoder;
    type Decoder =
        <tonic_prost::ProstCodec<v1::MatchState, v1::WatchTournamentRequest> as Codec>::Decoder;

    fn encoder(&mut self) -> FrameEncoder {
        FrameEncoder
    }

    fn decoder(&mut self) -> Self::Decoder {
        tonic_prost::ProstCodec::<v1::MatchState, v1::WatchTournamentRequest>::raw_decoder(
            BufferSettings::default(),
        )
    }
}

/// Writes a [`Frame`] (see [`FeedCodec`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameEncoder;

impl Encoder for FrameEncoder {
    type Item = Frame;
    type Error = Status;

    /// A follower's stream keeps its encoding buffer for as long as it is open: the
    /// small one every service's codec has (`baffle_proto::codec`).
    fn buffer_settings(&self) -> BufferSettings {
        baffle_proto::codec::buffers()
    }

    fn encode(&mut self, frame: Frame, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        frame.write(dst);
        Ok(())
    }
}

impl Frame {
    /// The copy's protobuf encoding, into `dst`. The stamp is a `MatchState` of that one
    /// field, encoded by prost: its number is the proto's, written nowhere here, and a
    /// zero stamp is left out as prost leaves out any zero.
    fn write(&self, dst: &mut impl BufMut) {
        dst.put_slice(self.summary.bytes());
        v1::MatchState {
            sent_at_ms: self.sent_at_ms,
            ..Default::default()
        }
        .encode_raw(dst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    fn state() -> v1::MatchState {
        v1::MatchState {
            match_id: "m".into(),
            tournament_id: "t".into(),
            player_a: "Ann".into(),
            score_a: 3,
            seq: 42,
            head_hash: "ab".repeat(32),
            sent_at_ms: 999,
            chess: Some(v1::ChessState::default()),
            ..Default::default()
        }
    }

    #[test]
    fn a_frame_is_the_state_with_its_own_sent_at() {
        let summary = Summary::encode(&state());
        let frame = Frame {
            summary,
            sent_at_ms: 1_700_000_000_123,
        };
        let mut bytes = Vec::new();
        frame.write(&mut bytes);
        let decoded = v1::MatchState::decode(bytes.as_slice()).unwrap();
        assert_eq!(
            decoded,
            v1::MatchState {
                sent_at_ms: 1_700_000_000_123,
                ..state()
            }
        );
        assert_eq!(frame.decode().unwrap(), decoded);
    }

    #[test]
    fn the_shared_bytes_leave_sent_at_out() {
        let summary = Summary::encode(&state());
        assert_eq!(summary.decode(0).unwrap().sent_at_ms, 0);
        let mut expected = state();
        expected.sent_at_ms = 0;
        assert_eq!(summary.bytes()[..], expected.encode_to_vec()[..]);
        // An actor's state, not stamped, encodes to the same bytes.
        assert_eq!(Summary::encode(&expected).bytes(), summary.bytes());
    }
}
