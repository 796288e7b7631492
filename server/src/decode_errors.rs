//! Malformed requests are the caller's fault: INVALID_ARGUMENT, not INTERNAL.
//!
//! tonic answers a request whose protobuf cannot be decoded with INTERNAL ("failed to
//! decode Protobuf message: …") before any handler runs, and so it answers malformed
//! framing (issue 18): a compressed-flag byte that is neither 0 nor 1, the flag set
//! without `grpc-encoding`, a frame cut short, a payload that does not decompress, bad
//! base64 in gRPC-Web text. INTERNAL tells a client the server is broken and invites
//! retries of the same bad bytes; the gRPC status guide gives INVALID_ARGUMENT for a
//! request that is malformed. (The gRPC spec calls a compressed flag without an encoding
//! a protocol error; we side with the status guide, as for every malformed request.)
//! This layer rewrites exactly those answers (trailers-only responses whose status is 13
//! and whose message is one of tonic's and tonic-web's decoding errors of a *request*)
//! and leaves every other response alone.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tonic::codegen::Service;
use tonic::codegen::http::{HeaderValue, Request, Response};

/// The beginnings of tonic's (and tonic-web's) messages for a request it could not
/// decode: the caller's bytes, not the server, are at fault.
const MALFORMED: [&str; 6] = [
    "failed to decode Protobuf message",
    "protocol error: received message with compressed-flag but no grpc-encoding",
    "protocol error: received message with invalid compression flag",
    "Unexpected EOF decoding stream",
    "Error decompressing:",
    // tonic-web's errors reading a gRPC-Web request (bad base64, a malformed frame);
    // its errors writing a response come later, never as a trailers-only answer.
    "tonic-web: ",
];

/// Whether a `grpc-message` (percent-encoded) is one of [`MALFORMED`].
fn is_malformed(message: &str) -> bool {
    let message = percent_encoding::percent_decode_str(message).decode_utf8_lossy();
    MALFORMED.iter().any(|m| message.starts_with(m))
}

/// Rewrites decode failures to INVALID_ARGUMENT.
#[derive(Clone, Copy, Debug, Default)]
pub struct DecodeErrorsLayer;

impl<S> tower_layer::Layer<S> for DecodeErrorsLayer {
    type Service = DecodeErrors<S>;
    fn layer(&self, inner: S) -> DecodeErrors<S> {
        DecodeErrors { inner }
    }
}

/// See [`DecodeErrorsLayer`].
#[derive(Clone, Debug)]
pub struct DecodeErrors<S> {
    inner: S,
}

impl<S, B, R> Service<Request<B>> for DecodeErrors<S>
where
    S: Service<Request<B>, Response = Response<R>>,
    S::Future: Send + 'static,
{
    type Response = Response<R>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<R>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let response = self.inner.call(request);
        Box::pin(async move {
            let mut response = response.await?;
            let headers = response.headers_mut();
            let decode_failure = headers.get("grpc-status").is_some_and(|s| s == "13")
                && headers
                    .get("grpc-message")
                    .and_then(|m| m.to_str().ok())
                    .is_some_and(is_malformed);
            if decode_failure {
                headers.insert("grpc-status", HeaderValue::from_static("3"));
            }
            Ok(response)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tonic_request_decoding_errors_are_malformed_requests() {
        assert!(is_malformed("failed%20to%20decode%20Protobuf%20message: x"));
        assert!(is_malformed(
            "protocol error: received message with invalid compression flag: 2 (valid flags are 0 and 1), while sending request"
        ));
        assert!(is_malformed("Unexpected%20EOF%20decoding%20stream."));
        assert!(is_malformed("tonic-web: malformed base64 request"));
        assert!(is_malformed(
            "tonic-web:%20Invalid%20symbol%2033,%20offset%200."
        ));
        assert!(!is_malformed("the event could not be stored"));
    }
}
