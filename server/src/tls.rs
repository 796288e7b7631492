//! TLS on baffled's one port, for gRPC clients and browsers alike.
//!
//! tonic's own TLS acceptor offers only `h2` in ALPN, so a browser's gRPC-Web client or
//! the phone page, which offer `http/1.1`, failed the handshake (issue 18, item 10).
//! Here the listener does the handshake itself with rustls, offering `h2` first and
//! `http/1.1` beside it; the server behind then sees plain connections and tells the two
//! protocols apart by their first bytes, as it does without TLS.
//!
//! Handshakes run beside one another, each bounded by the listener's time for a first
//! byte: a client that opens a connection and stalls mid-handshake holds nothing but its
//! own place under the connection cap, and for no longer than that.

use std::io;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::stream::FuturesUnordered;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;
use tokio_stream::Stream;

use crate::listener::Connection;

/// The protocols offered in ALPN, in order of preference.
pub const ALPN: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// A server's TLS settings: its certificate chain and key, ready to accept with.
#[derive(Clone)]
pub struct Tls {
    acceptor: TlsAcceptor,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tls { .. }")
    }
}

impl Tls {
    /// From a PEM certificate chain and a PEM private key; an error says which is wrong.
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<Tls, String> {
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(cert_pem)
            .collect::<Result<_, _>>()
            .map_err(|e| format!("the certificate is not PEM: {e}"))?;
        if chain.is_empty() {
            return Err("the certificate file holds no certificate".into());
        }
        let key = PrivateKeyDer::from_pem_slice(key_pem)
            .map_err(|e| format!("the key is not a PEM private key: {e}"))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .map_err(|e| format!("the certificate and key do not go together: {e}"))?;
        config.alpn_protocols = ALPN.iter().map(|p| p.to_vec()).collect();
        Ok(Tls {
            acceptor: TlsAcceptor::from(Arc::new(config)),
        })
    }

    /// From the files `cert` and `key`; the error names the file at fault.
    pub fn from_files(cert: &Path, key: &Path) -> io::Result<Tls> {
        let read = |p: &Path| {
            std::fs::read(p).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))
        };
        Tls::from_pem(&read(cert)?, &read(key)?).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the TLS certificate {} or key {} cannot be used: {e}",
                    cert.display(),
                    key.display()
                ),
            )
        })
    }
}

type Handshake =
    Pin<Box<dyn Future<Output = Option<io::Result<TlsStream<Connection>>>> + Send + 'static>>;

/// The connections of `inner` once their TLS handshake is done; a handshake that fails
/// or does not finish within `timeout` drops its connection (logged at debug: it is the
/// client's affair).
pub struct TlsIncoming<I> {
    inner: Option<I>,
    tls: Tls,
    timeout: Duration,
    handshakes: FuturesUnordered<Handshake>,
}

impl<I> TlsIncoming<I> {
    /// Accepts TLS on the connections of `inner`.
    pub fn new(inner: I, tls: Tls, timeout: Duration) -> Self {
        TlsIncoming {
            inner: Some(inner),
            tls,
            timeout,
            handshakes: FuturesUnordered::new(),
        }
    }
}

impl<I> Stream for TlsIncoming<I>
where
    I: Stream<Item = io::Result<Connection>> + Unpin,
{
    type Item = io::Result<TlsStream<Connection>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        // Take every connection waiting, starting its handshake.
        while let Some(inner) = self.inner.as_mut() {
            match Pin::new(inner).poll_next(cx) {
                Poll::Ready(Some(Ok(connection))) => {
                    let accept = self.tls.acceptor.accept(connection);
                    let timeout = self.timeout;
                    self.handshakes.push(Box::pin(async move {
                        match tokio::time::timeout(timeout, accept).await {
                            Ok(Ok(stream)) => Some(Ok(stream)),
                            Ok(Err(e)) => {
                                tracing::debug!(error = %e, "a TLS handshake failed");
                                None
                            }
                            Err(_) => {
                                tracing::debug!("a TLS handshake did not finish in time");
                                None
                            }
                        }
                    }));
                }
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(None) => self.inner = None,
                Poll::Pending => break,
            }
        }
        loop {
            match Pin::new(&mut self.handshakes).poll_next(cx) {
                Poll::Ready(Some(Some(done))) => return Poll::Ready(Some(done)),
                // A failed handshake: look at the next.
                Poll::Ready(Some(None)) => continue,
                Poll::Ready(None) if self.inner.is_none() => return Poll::Ready(None),
                Poll::Ready(None) | Poll::Pending => return Poll::Pending,
            }
        }
    }
}
