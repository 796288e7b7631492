//! Malformed requests are the caller's fault: INVALID_ARGUMENT, not INTERNAL.
//!
//! tonic answers a request whose protobuf cannot be decoded with INTERNAL ("failed to
//! decode Protobuf message: …") before any handler runs. INTERNAL tells a client the server
//! is broken and invites retries of the same bad bytes; the gRPC status guide gives
//! INVALID_ARGUMENT for a request that is malformed. This layer rewrites exactly those
//! answers (trailers-only responses whose status is 13 and whose message is tonic's decode
//! error) and leaves every other response alone.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tonic::codegen::Service;
use tonic::codegen::http::{HeaderValue, Request, Response};

/// The tonic message that marks a decoding failure.
const DECODE_FAILURE: &str = "failed to decode Protobuf message";

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
                    .is_some_and(|m| {
                        m.starts_with(DECODE_FAILURE)
                            || m.starts_with("failed%20to%20decode%20Protobuf%20message")
                    });
            if decode_failure {
                headers.insert("grpc-status", HeaderValue::from_static("3"));
            }
            Ok(response)
        })
    }
}
