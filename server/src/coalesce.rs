//! Accepted sockets that let HTTP/2 gather many small frames into one write.
//!
//! Fanning one update out to the 250 followers on a connection used to cost 250 socket
//! writes, for two reasons, both fixed here:
//!
//! - h2 writes a DATA frame's payload straight from the caller's buffer, in a write of its
//!   own, when the payload is at least 256 bytes and the socket takes vectored writes — as
//!   a TCP socket does. A match's state is a few hundred bytes. Over a socket that does
//!   not advertise vectored writes, h2 copies payloads under 1 KiB into its 16 KiB write
//!   buffer instead.
//! - Each stream's task, once it has queued its frame, wakes the connection's task, and
//!   tokio runs a task woken that way next, before the other streams' tasks: so the
//!   connection wrote each frame as it came. Here a write first yields once — the
//!   connection's task goes to the back of the run queue — so the frames of every stream
//!   already woken are queued by the time it writes, and go in one system call. On an
//!   idle server the yield costs a trip through an empty queue.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// An accepted socket whose writes h2 gathers (see the module's documentation).
#[derive(Debug)]
pub struct Coalescing<T> {
    io: T,
    /// This write has yielded once already.
    yielded: bool,
}

impl<T> Coalescing<T> {
    /// Wraps an accepted socket.
    pub fn new(io: T) -> Self {
        Coalescing { io, yielded: false }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Coalescing<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Coalescing<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if !self.yielded {
            // Woken during its own poll, a tokio task is queued behind the others.
            self.yielded = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let written = Pin::new(&mut self.io).poll_write(cx, buf);
        if written.is_ready() {
            self.yielded = false;
        }
        written
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    // `is_write_vectored` keeps its default, `false`: that is the point of this type.
}

impl<T: tonic::transport::server::Connected> tonic::transport::server::Connected for Coalescing<T> {
    type ConnectInfo = T::ConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.io.connect_info()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::Wake;

    use tokio::io::AsyncReadExt;

    use super::*;

    struct CountWakes(AtomicUsize);

    impl Wake for CountWakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[tokio::test]
    async fn a_write_yields_once_then_goes_through_whole() {
        let (near, mut far) = tokio::io::duplex(1024);
        let mut socket = Coalescing::new(near);
        let wakes = Arc::new(CountWakes(AtomicUsize::new(0)));
        let waker = std::task::Waker::from(wakes.clone());
        let mut cx = Context::from_waker(&waker);
        let mut pinned = Pin::new(&mut socket);
        assert!(pinned.as_mut().poll_write(&mut cx, b"frames").is_pending());
        assert_eq!(
            wakes.0.load(Ordering::SeqCst),
            1,
            "the yield wakes its task"
        );
        assert!(matches!(
            pinned.as_mut().poll_write(&mut cx, b"frames"),
            Poll::Ready(Ok(6))
        ));
        // The next write yields again: each round of frames gets its chance to gather.
        assert!(pinned.as_mut().poll_write(&mut cx, b"more").is_pending());
        assert!(matches!(
            pinned.as_mut().poll_write(&mut cx, b"more"),
            Poll::Ready(Ok(4))
        ));
        let mut received = [0u8; 10];
        far.read_exact(&mut received).await.unwrap();
        assert_eq!(&received, b"framesmore");
        assert!(!socket.is_write_vectored(), "h2 must copy small frames");
    }
}
