//! The phone page: a live scoreboard served by `baffled` itself, so spectators need
//! nothing installed. `/` is the page, `/app.js` its script and `/board.js` the board
//! (all in `server/web/`, compiled into the binary; no build step). The script talks to
//! the same address over gRPC-Web (the tonic-web layer in `serve_incoming`), decoding
//! protobuf itself: the tournament feed for the lists, the wall and the results, and
//! `Watch` from the last seq seen for a match's live view, so a reconnect misses nothing.
//!
//! Its words come from the `baffle-i18n` catalogue, the console's too: `/i18n/el.json`
//! and `/i18n/en.json` are the messages compiled for the page's few-line interpreter,
//! with the proto's enum tables (`baffle_i18n::page`); `/i18n/el.ftl` and `/i18n/en.ftl`
//! are the Fluent sources, for anyone else. The page's `<html lang>` is set here from
//! `Accept-Language`, so its first paint is in the reader's language; the script then
//! follows `navigator.languages` or the reader's own choice. `docs/web.md` describes it.
//!
//! These answers, and only these, are compressed (brotli or gzip, as `Accept-Encoding`
//! asks: tower-http's `CompressionLayer` on the page's own router). The gRPC-Web services
//! beside them are not: a stream's frames must reach the page as they are written.

pub mod schema;

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use baffle_i18n::Locale;
use tower_http::compression::{CompressionLayer, CompressionLevel};

/// The page.
pub const INDEX_HTML: &str = include_str!("../web/index.html");
/// Its script, `/app.js`: the views and the router.
pub const APP_JS: &str = include_str!("../web/app.js");
/// The modules it imports, by path: the board of a match that records moves, protobuf
/// and gRPC-Web, the words, the dice checked in the browser, a player's side with live
/// dice, a tournament's draw (on the phone, the wall and paper), and a few DOM helpers.
pub const MODULES: [(&str, &str); 9] = [
    ("/app.js", APP_JS),
    ("/board.js", include_str!("../web/board.js")),
    ("/wire.js", include_str!("../web/wire.js")),
    ("/words.js", include_str!("../web/words.js")),
    ("/dice.js", include_str!("../web/dice.js")),
    ("/heads.js", include_str!("../web/heads.js")),
    ("/player.js", include_str!("../web/player.js")),
    ("/draw.js", include_str!("../web/draw.js")),
    ("/ui.js", include_str!("../web/ui.js")),
];

/// The page in the language `Accept-Language` prefers among baffle's (Greek if none).
pub fn index_for(accept_language: &str) -> String {
    let tags = baffle_i18n::accept_language(accept_language);
    let tags: Vec<&str> = tags.iter().map(String::as_str).collect();
    let locale = baffle_i18n::negotiate(&tags);
    INDEX_HTML.replacen(
        r#"<html lang="el">"#,
        &format!(r#"<html lang="{}">"#, locale.tag()),
        1,
    )
}

/// The page's JSON catalogue of `locale`, compiled once.
fn catalogue_json(locale: Locale) -> &'static str {
    static JSON: OnceLock<Vec<(Locale, String)>> = OnceLock::new();
    let all = JSON.get_or_init(|| {
        Locale::ALL
            .into_iter()
            .map(|l| {
                // The catalogue is part of the binary and its tests compile every locale.
                let json = baffle_i18n::page::json(l).expect("the catalogue compiles");
                (l, json)
            })
            .collect()
    });
    all.iter()
        .find(|(l, _)| *l == locale)
        .map_or("{}", |(_, j)| j.as_str())
}

/// `/i18n/<tag>.json` or `/i18n/<tag>.ftl`; 404 for anything else.
async fn catalogue(Path(file): Path<String>) -> Response {
    let found = file.rsplit_once('.').and_then(|(tag, ext)| {
        let locale = Locale::ALL.into_iter().find(|l| l.tag() == tag)?;
        match ext {
            "json" => Some(("application/json", catalogue_json(locale))),
            "ftl" => Some(("text/plain; charset=utf-8", locale.source())),
            _ => None,
        }
    });
    match found {
        Some((kind, body)) => (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            "no such catalogue: /i18n/el.json, en.json, el.ftl or en.ftl",
        )
            .into_response(),
    }
}

fn script(body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `router` with the page's routes added, compressed as the browser accepts (brotli,
/// gzip); `router`'s own routes (the gRPC-Web services) are left as they are.
pub fn routes(router: axum::Router) -> axum::Router {
    // Level 9 for both: brotli beats gzip there (at its default, 4, it does not), and
    // these few files take a millisecond or two each.
    router.merge(page().layer(CompressionLayer::new().quality(CompressionLevel::Precise(9))))
}

/// The page's routes alone.
fn page() -> axum::Router {
    let mut router = axum::Router::new();
    for (path, body) in MODULES {
        router = router.route(path, get(move || async move { script(body) }));
    }
    router
        .route(
            "/",
            get(|headers: HeaderMap| async move {
                let accept = headers
                    .get(header::ACCEPT_LANGUAGE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("");
                (
                    [
                        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                        (header::CACHE_CONTROL, "no-cache"),
                        (header::VARY, "Accept-Language"),
                    ],
                    index_for(accept),
                )
            }),
        )
        .route("/i18n/{file}", get(catalogue))
        // The page names its own icon (inline, in `index.html`); a browser or a bookmark
        // that asks for the old default anyway gets nothing rather than a 404 to log.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
}
