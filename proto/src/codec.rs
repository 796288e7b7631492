//! The codec of every generated service and client: prost's, with a smaller encoding
//! buffer.
//!
//! tonic gives each response stream an encoding buffer of 8 KiB by default, kept for as
//! long as the stream is open. A follower's stream (`Matches.Watch`) is open for a whole
//! match, and most of that buffer stays empty: baffle's messages are a few hundred bytes
//! (a `MatchState` is about 300). 1 KiB holds a few; a larger message grows the buffer
//! as it needs. Measured in `benches/benches/followers.rs` (docs/benchmarks.md).

use std::marker::PhantomData;

use prost::Message;
use tonic::codec::{BufferSettings, Codec};
use tonic_prost::ProstCodec;

/// The buffer a stream starts with, and how much it gathers before yielding.
pub fn buffers() -> BufferSettings {
    BufferSettings::new(1024, 32 * 1024)
}

/// prost's codec with [`buffers`] for encoding.
#[derive(Debug, Clone, Copy)]
pub struct SmallBuffers<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for SmallBuffers<T, U> {
    fn default() -> Self {
        SmallBuffers(PhantomData)
    }
}

impl<T, U> Codec for SmallBuffers<T, U>
where
    T: Message + Send + 'static,
    U: Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = <ProstCodec<T, U> as Codec>::Encoder;
    type Decoder = <ProstCodec<T, U> as Codec>::Decoder;

    fn encoder(&mut self) -> Self::Encoder {
        ProstCodec::<T, U>::raw_encoder(buffers())
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProstCodec::<T, U>::raw_decoder(BufferSettings::default())
    }
}
