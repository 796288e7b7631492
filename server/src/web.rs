//! The phone page: a live scoreboard served by `baffled` itself, so spectators need
//! nothing installed. `/` is the page, `/app.js` its script and [`MODULES`] the modules
//! it imports (all in `server/web/`, compiled into the binary; no build step). The script
//! talks to the same address over gRPC-Web (the tonic-web layer in `serve_incoming`),
//! decoding protobuf itself by a schema generated from the protos ([`schema`]; the
//! generated `schema.js` is committed): the tournament feed for the lists, the wall and
//! the results, and
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
/// Its script, `/app.js`: the router, which imports the views.
pub const APP_JS: &str = include_str!("../web/app.js");
/// The modules it imports, by path: the views (home, a tournament, its results and
/// wall, a match live, the draw's), a match as a card, the clock faces, the following of
/// feeds, protobuf and gRPC-Web with the schema generated from the protos ([`schema`]),
/// the words, the board, the dice checked in the browser, a player's side with live
/// dice, the heads' signatures, and a few DOM helpers.
pub const MODULES: [(&str, &str); 17] = [
    ("/app.js", APP_JS),
    ("/home.js", include_str!("../web/home.js")),
    ("/tournament.js", include_str!("../web/tournament.js")),
    ("/results.js", include_str!("../web/results.js")),
    ("/match.js", include_str!("../web/match.js")),
    ("/draw.js", include_str!("../web/draw.js")),
    ("/card.js", include_str!("../web/card.js")),
    ("/clock.js", include_str!("../web/clock.js")),
    ("/follow.js", include_str!("../web/follow.js")),
    ("/wire.js", include_str!("../web/wire.js")),
    ("/schema.js", include_str!("../web/schema.js")),
    ("/words.js", include_str!("../web/words.js")),
    ("/board.js", include_str!("../web/board.js")),
    ("/dice.js", include_str!("../web/dice.js")),
    ("/heads.js", include_str!("../web/heads.js")),
    ("/player.js", include_str!("../web/player.js")),
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

#[cfg(test)]
mod tests {
    use super::MODULES;

    /// Every module in `server/web/` is served, and no module but the generated schema
    /// holds a message's fields by number (`12: ["name", …]`) or encodes by hand
    /// (`encode([[1, …]])`): what a message is comes from the protos alone.
    #[test]
    fn the_page_knows_field_numbers_only_from_the_generated_schema() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".js"))
            .map(|n| format!("/{n}"))
            .collect();
        on_disk.sort();
        let mut served: Vec<String> = MODULES.iter().map(|(p, _)| p.to_string()).collect();
        served.sort();
        assert_eq!(served, on_disk, "every module is served");
        for (path, body) in MODULES.iter().filter(|(p, _)| *p != "/schema.js") {
            let by_number = body
                .match_indices(": [\"")
                .find(|(at, _)| field_entry(&body[..*at], &body[at + 4..]));
            assert!(
                by_number.is_none(),
                "{path} spells a field by number: {}",
                by_number.map_or("", |(at, _)| {
                    let from = body[..at].rfind('\n').map_or(0, |n| n + 1);
                    body[from..].lines().next().unwrap_or("")
                })
            );
            assert!(
                !body.contains("encode([["),
                "{path} encodes by field number"
            );
        }
    }

    /// Whether `before: ["after` is a schema's field entry: a number, then a field's
    /// name (snake_case) and a type (a quoted name, a message, or a table inline).
    fn field_entry(before: &str, after: &str) -> bool {
        let Some((name, rest)) = after.split_once('"') else {
            return false;
        };
        before.ends_with(|c: char| c.is_ascii_digit())
            && !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            && rest
                .strip_prefix(", ")
                .and_then(|r| r.chars().next())
                .is_some_and(|c| c == '"' || c == '{' || c.is_ascii_uppercase())
    }
}
