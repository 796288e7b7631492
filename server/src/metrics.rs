//! What `GET /metrics` answers: the server's counters in Prometheus' text format
//! (prometheus-client's encoder), for the room's IT person to scrape and alert on.
//!
//! | metric | kind | what |
//! |---|---|---|
//! | `baffle_commands_total{result}` | counter | commands (Execute and device inputs), `accepted` or `refused` |
//! | `baffle_store_appends_total` | counter | appends made durable (each a match's records, with its receipt) |
//! | `baffle_store_flush_seconds` | histogram | one group flush: sled's flush and the data file's fsync |
//! | `baffle_live_matches` | gauge | match actors running (matches loaded in memory) |
//! | `baffle_followers` | gauge | open Watch and WatchTournament streams |
//! | `baffle_device_connections` | gauge | open device Connect streams |
//!
//! The metrics are the process's (one registry, as `baffled` runs one server): a test
//! with several servers in one process sees their sum. Instrumenting a place is one call
//! here (`metrics::command(true)`, a [`Gauge`] guard), so the wire layer, the actor and
//! the store need no handle passed down.

use std::sync::LazyLock;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge as PromGauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// The label of `baffle_commands_total`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CommandLabels {
    result: &'static str,
}

struct Metrics {
    registry: Registry,
    commands: Family<CommandLabels, Counter>,
    appends: Counter,
    flush_seconds: Histogram,
    live_matches: PromGauge,
    followers: PromGauge,
    devices: PromGauge,
}

static METRICS: LazyLock<Metrics> = LazyLock::new(|| {
    let mut registry = Registry::with_prefix("baffle");
    let commands = Family::<CommandLabels, Counter>::default();
    registry.register(
        "commands",
        "Commands executed, by result (accepted or refused)",
        commands.clone(),
    );
    let appends = Counter::default();
    registry.register(
        "store_appends",
        "Appends made durable in the store",
        appends.clone(),
    );
    // 50 µs to about 3 s.
    let flush_seconds = Histogram::new(exponential_buckets(0.000_05, 2.0, 16));
    registry.register(
        "store_flush_seconds",
        "Duration of one group flush (flush and fsync)",
        flush_seconds.clone(),
    );
    let live_matches = PromGauge::default();
    registry.register("live_matches", "Match actors running", live_matches.clone());
    let followers = PromGauge::default();
    registry.register(
        "followers",
        "Open Watch and WatchTournament streams",
        followers.clone(),
    );
    let devices = PromGauge::default();
    registry.register(
        "device_connections",
        "Open device Connect streams",
        devices.clone(),
    );
    Metrics {
        registry,
        commands,
        appends,
        flush_seconds,
        live_matches,
        followers,
        devices,
    }
});

/// A command executed: accepted, or refused.
pub fn command(accepted: bool) {
    let result = if accepted { "accepted" } else { "refused" };
    METRICS
        .commands
        .get_or_create(&CommandLabels { result })
        .inc();
}

/// `n` appends made durable by one flush of `seconds`.
pub fn flushed(n: usize, seconds: f64) {
    METRICS.appends.inc_by(n as u64);
    METRICS.flush_seconds.observe(seconds);
}

/// Which gauge a [`Gauge`] guard counts in.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A match actor.
    LiveMatch,
    /// A Watch or WatchTournament stream.
    Follower,
    /// A device's Connect stream.
    Device,
}

/// One unit of a gauge for as long as it lives: made when the thing opens, dropped
/// when it closes, however it closes.
#[derive(Debug)]
pub struct Gauge(Kind);

impl Gauge {
    /// Counts one `kind` until dropped.
    pub fn new(kind: Kind) -> Gauge {
        gauge(kind).inc();
        Gauge(kind)
    }
}

impl Drop for Gauge {
    fn drop(&mut self) {
        gauge(self.0).dec();
    }
}

fn gauge(kind: Kind) -> &'static PromGauge {
    match kind {
        Kind::LiveMatch => &METRICS.live_matches,
        Kind::Follower => &METRICS.followers,
        Kind::Device => &METRICS.devices,
    }
}

/// The text `GET /metrics` answers (Prometheus text format, OpenMetrics flavour).
pub fn render() -> String {
    let mut text = String::new();
    prometheus_client::encoding::text::encode(&mut text, &METRICS.registry)
        .expect("writing to a String cannot fail");
    text
}

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The HTTP side: `GET /metrics`, and a 404 for every path nothing else answers (a
/// request in gRPC keeps gRPC's own answer, UNIMPLEMENTED, so gRPC clients read it).
pub fn routes(router: axum::Router) -> axum::Router {
    use axum::http::{HeaderMap, StatusCode, header};
    use axum::response::IntoResponse;
    router
        .route(
            "/metrics",
            axum::routing::get(|| async { ([(header::CONTENT_TYPE, CONTENT_TYPE)], render()) }),
        )
        .fallback(|headers: HeaderMap| async move {
            let grpc = headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("application/grpc"));
            if grpc {
                (
                    StatusCode::OK,
                    [
                        (header::CONTENT_TYPE, "application/grpc"),
                        (header::HeaderName::from_static("grpc-status"), "12"),
                        (
                            header::HeaderName::from_static("grpc-message"),
                            "unknown%20service%20or%20method",
                        ),
                    ],
                )
                    .into_response()
            } else {
                (
                    StatusCode::NOT_FOUND,
                    [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                    "not found: baffled serves gRPC, the page at /, and /metrics\n",
                )
                    .into_response()
            }
        })
}
