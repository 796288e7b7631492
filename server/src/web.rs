//! The phone page: a live scoreboard served by `baffled` itself, so spectators need
//! nothing installed. `/` is the page and `/app.js` its script (both in `server/web/`,
//! compiled into the binary; no build step). The script talks to the same address over
//! gRPC-Web (the tonic-web layer in `serve_incoming`), decoding protobuf itself: the
//! tournament feed for the list of matches, and `Watch` from the last seq seen for a
//! match's live view, so a reconnect misses nothing. `docs/web.md` describes it.

use axum::http::header;
use axum::routing::get;

/// The page.
pub const INDEX_HTML: &str = include_str!("../web/index.html");
/// Its script.
pub const APP_JS: &str = include_str!("../web/app.js");
/// The board of a match that records moves, a module the script imports.
pub const BOARD_JS: &str = include_str!("../web/board.js");

/// `router` with the page's routes added.
pub fn routes(router: axum::Router) -> axum::Router {
    router
        .route(
            "/",
            get(|| async {
                (
                    [
                        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    INDEX_HTML,
                )
            }),
        )
        .route(
            "/app.js",
            get(|| async {
                (
                    [
                        (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    APP_JS,
                )
            }),
        )
        .route(
            "/board.js",
            get(|| async {
                (
                    [
                        (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
                        (header::CACHE_CONTROL, "no-cache"),
                    ],
                    BOARD_JS,
                )
            }),
        )
}
