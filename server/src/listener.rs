//! Accepting connections (issue 18): about 1,000 idle connections used to lock everyone
//! out — no idle timeout, the soft limit of open files left at 1,024, and at EMFILE an
//! accept loop spinning a core with nothing logged. Now:
//!
//! - the soft limit of open files is raised to the hard limit at start ([`raise_fd_limit`]);
//! - connections are capped ([`Limits::max_connections`]): one over the cap is answered
//!   `HTTP/1.1 503` with a line saying why, and closed;
//! - a connection that sends nothing within [`Limits::first_byte`] is closed;
//! - an accept that fails for want of resources (EMFILE, ENFILE, ENOBUFS, ENOMEM) is
//!   logged and retried after a pause doubling from 10 ms to 1 s, never spun on; other
//!   accept errors concern one connection and are skipped.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Sleep;

use crate::coalesce::Coalescing;

/// Connections at most, unless the open-files limit allows fewer.
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;

/// Files kept for everything but connections (the store, logs, the token...).
pub const FD_HEADROOM: u64 = 256;

/// How long a new connection may stay silent.
pub const DEFAULT_FIRST_BYTE: Duration = Duration::from_secs(10);

/// The pauses after a failed accept: from the first, doubling, to the last.
const BACKOFF: (Duration, Duration) = (Duration::from_millis(10), Duration::from_secs(1));

/// Limits on connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open connections at most; one more is refused.
    pub max_connections: usize,
    /// How long a new connection may stay silent before it is closed.
    pub first_byte: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            first_byte: DEFAULT_FIRST_BYTE,
        }
    }
}

impl Limits {
    /// The default limits within what `open_files` (the soft limit) allows.
    pub fn within(open_files: u64) -> Limits {
        let fit = open_files.saturating_sub(FD_HEADROOM).max(16);
        Limits {
            max_connections: DEFAULT_MAX_CONNECTIONS
                .min(usize::try_from(fit).unwrap_or(usize::MAX)),
            ..Limits::default()
        }
    }
}

/// Raises the soft limit of open files to the hard limit; returns the soft limit then
/// in force (None if unlimited).
pub fn raise_fd_limit() -> io::Result<Option<u64>> {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let now = getrlimit(Resource::Nofile);
    if now.current != now.maximum {
        setrlimit(
            Resource::Nofile,
            Rlimit {
                current: now.maximum,
                maximum: now.maximum,
            },
        )?;
    }
    Ok(getrlimit(Resource::Nofile).current)
}

/// Whether a failed accept means the process or system is out of a resource (so the
/// same accept would fail again at once) rather than one connection having failed.
fn out_of_resources(e: &io::Error) -> bool {
    // EMFILE, ENFILE, ENOBUFS, ENOMEM on Linux.
    matches!(e.raw_os_error(), Some(24 | 23 | 105 | 12))
}

/// What a connection over the cap reads before it is closed.
fn refusal(max: usize) -> String {
    let body = format!("baffled: too many connections (at most {max}); try again later\n");
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// The accepted connections of a listener, within [`Limits`].
pub struct Accept {
    listener: TcpListener,
    limits: Limits,
    open: Arc<Semaphore>,
    pause: Option<Pin<Box<Sleep>>>,
    next_pause: Duration,
    last_warning: Option<Instant>,
}

impl Accept {
    /// Accepts on `listener` within `limits`.
    pub fn new(listener: TcpListener, limits: Limits) -> Accept {
        Accept {
            listener,
            open: Arc::new(Semaphore::new(limits.max_connections)),
            limits,
            pause: None,
            next_pause: BACKOFF.0,
            last_warning: None,
        }
    }

    /// Whether a warning may be logged now: at most one every ten seconds.
    fn may_warn(&mut self) -> bool {
        let now = Instant::now();
        let quiet = self
            .last_warning
            .is_none_or(|at| now.duration_since(at) > Duration::from_secs(10));
        if quiet {
            self.last_warning = Some(now);
        }
        quiet
    }

    fn admit(&mut self, socket: TcpStream) -> Option<Connection> {
        let Ok(permit) = self.open.clone().try_acquire_owned() else {
            // Best effort: the refusal fits in the socket's buffer of a new connection.
            let _ = socket.try_write(refusal(self.limits.max_connections).as_bytes());
            if self.may_warn() {
                tracing::warn!(
                    max = self.limits.max_connections,
                    "a connection was refused: too many open"
                );
            }
            return None;
        };
        if let Err(e) = socket.set_nodelay(true) {
            // Small messages must leave at once (see `coalesce`).
            tracing::warn!("cannot set TCP_NODELAY: {e}");
        }
        Some(Connection {
            io: Coalescing::new(socket),
            silent: Some(Box::pin(tokio::time::sleep(self.limits.first_byte))),
            _open: permit,
        })
    }
}

impl tokio_stream::Stream for Accept {
    type Item = io::Result<Connection>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if let Some(pause) = self.pause.as_mut() {
                if pause.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                self.pause = None;
            }
            match self.listener.poll_accept(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Ok((socket, _))) => {
                    self.next_pause = BACKOFF.0;
                    if let Some(connection) = self.admit(socket) {
                        return Poll::Ready(Some(Ok(connection)));
                    }
                }
                Poll::Ready(Err(e)) if out_of_resources(&e) => {
                    let pause = self.next_pause;
                    if self.may_warn() {
                        tracing::error!(error = %e, pause_ms = pause.as_millis() as u64, "cannot accept connections: out of resources; pausing");
                    }
                    self.next_pause = (pause * 2).min(BACKOFF.1);
                    self.pause = Some(Box::pin(tokio::time::sleep(pause)));
                }
                Poll::Ready(Err(e)) => {
                    tracing::debug!(error = %e, "an accept failed");
                }
            }
        }
    }
}

/// An accepted connection: closed if it stays silent too long, and counted while open.
pub struct Connection {
    io: Coalescing<TcpStream>,
    /// Until the first byte: when the connection is closed if none came.
    silent: Option<Pin<Box<Sleep>>>,
    _open: OwnedSemaphorePermit,
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.io).poll_read(cx, buf);
        if self.silent.is_none() {
            return read;
        }
        match read {
            Poll::Ready(Ok(())) if buf.filled().len() > before => {
                self.silent = None;
                Poll::Ready(Ok(()))
            }
            Poll::Pending => match self.silent.as_mut().map(|s| s.as_mut().poll(cx)) {
                Some(Poll::Ready(())) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the connection sent nothing in time",
                ))),
                _ => Poll::Pending,
            },
            other => other,
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

impl tonic::transport::server::Connected for Connection {
    type ConnectInfo = <TcpStream as tonic::transport::server::Connected>::ConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.io.connect_info()
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_stream::StreamExt;

    use super::*;

    async fn listening(limits: Limits) -> (std::net::SocketAddr, Accept) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        (addr, Accept::new(listener, limits))
    }

    /// Issue 18 (6): one connection over the cap is refused with a line saying why, and
    /// a place is free again once a connection closes.
    #[tokio::test]
    async fn a_connection_over_the_cap_is_refused_clearly() {
        let limits = Limits {
            max_connections: 2,
            first_byte: Duration::from_secs(60),
        };
        let (addr, mut accept) = listening(limits).await;
        let _a = TcpStream::connect(addr).await.unwrap();
        let first = accept.next().await.unwrap().unwrap();
        let _b = TcpStream::connect(addr).await.unwrap();
        let _second = accept.next().await.unwrap().unwrap();
        let mut over = TcpStream::connect(addr).await.unwrap();
        // The third is refused (the stream yields nothing for it).
        let nothing = tokio::time::timeout(Duration::from_millis(200), accept.next()).await;
        assert!(nothing.is_err(), "the third is not admitted");
        let mut answer = String::new();
        over.read_to_string(&mut answer).await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
        assert!(
            answer.contains("too many connections (at most 2)"),
            "{answer}"
        );
        // Once a connection closes, its place is free.
        drop(first);
        let mut fourth = TcpStream::connect(addr).await.unwrap();
        let _admitted = tokio::time::timeout(Duration::from_secs(5), accept.next())
            .await
            .expect("admitted")
            .unwrap()
            .unwrap();
        fourth.write_all(b"x").await.unwrap();
    }

    /// Issue 18 (6): a connection that never speaks is closed after `first_byte`; one
    /// that speaks is not.
    #[tokio::test]
    async fn a_connection_that_never_speaks_is_closed() {
        let limits = Limits {
            max_connections: 10,
            first_byte: Duration::from_millis(100),
        };
        let (addr, mut accept) = listening(limits).await;
        let _silent = TcpStream::connect(addr).await.unwrap();
        let mut silent = accept.next().await.unwrap().unwrap();
        let mut speaking = TcpStream::connect(addr).await.unwrap();
        let mut heard = accept.next().await.unwrap().unwrap();
        speaking.write_all(b"hello").await.unwrap();
        let mut buf = [0u8; 5];
        heard.read_exact(&mut buf).await.unwrap();
        let started = Instant::now();
        let e = silent.read(&mut [0u8; 8]).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(5));
        // The one that spoke waits as long as it likes.
        let waited = tokio::time::timeout(Duration::from_millis(300), heard.read(&mut buf)).await;
        assert!(waited.is_err(), "still open and waiting: {waited:?}");
    }

    #[test]
    fn the_cap_fits_the_open_files_limit() {
        assert_eq!(Limits::within(1_024).max_connections, 1_024 - 256);
        assert_eq!(
            Limits::within(1 << 20).max_connections,
            DEFAULT_MAX_CONNECTIONS
        );
        assert_eq!(Limits::within(0).max_connections, 16);
    }
}
