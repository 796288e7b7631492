//! baffle's words for people, in Greek and English: one catalogue of messages for the
//! phone page (served to it, see [`page`]) and the director's console (called here).
//!
//! The messages are [Fluent](https://projectfluent.org) files, one per locale, in
//! `i18n/locales/*.ftl`, compiled into the binary. Greek comes first because the room
//! reads Greek first: the regulations the product enforces are the Greek Backgammon
//! Federation's. A message is asked for by its id with named arguments:
//!
//! ```
//! use baffle_i18n::{Catalogue, Value};
//! let words = Catalogue::negotiate(&["el-GR", "en"]);
//! assert_eq!(words.format("event-doubled", &[("name", "Άννα".into()), ("value", 4.into())]),
//!            "Άννα διπλασίασε στα 4");
//! ```
//!
//! Words that name a proto enum value are found by the value ([`enum_message_id`]), so
//! the page and the console cannot drift from the proto: `tests` check that every value
//! of every enum in [`enums::TABLES`] has a message in every locale, and that no message
//! names a value that does not exist.

pub mod describe;
pub mod enums;
pub mod locale;
pub mod page;
pub mod turn;

use baffle_proto::v1;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

pub use enums::enum_message_id;

pub use locale::Locale;

/// The first of `requested` (most wanted first, as `navigator.languages` lists them)
/// that baffle speaks; Greek when none is.
pub fn negotiate(requested: &[&str]) -> Locale {
    requested
        .iter()
        .find_map(|tag| Locale::from_tag(tag))
        .unwrap_or(Locale::El)
}

/// The language a terminal program speaks (`baffle`, `baffle-device`): `flag` (`--lang`
/// or `BAFFLE_LANG`), else the first set of `LC_ALL`, `LC_MESSAGES`, `LANG` (POSIX
/// order: `el_GR.UTF-8` → Greek), else English. `var` reads the environment (a
/// parameter, so the tests need not change it).
pub fn choose(flag: Option<&str>, var: impl Fn(&str) -> Option<String>) -> Locale {
    if let Some(locale) = flag.and_then(posix) {
        return locale;
    }
    ["LC_ALL", "LC_MESSAGES", "LANG"]
        .iter()
        .filter_map(|name| var(name).filter(|v| !v.is_empty()))
        .next()
        .and_then(|v| posix(&v))
        .unwrap_or(Locale::En)
}

/// The language of a POSIX locale name or a tag: "el_GR.UTF-8@euro" → Greek; "C",
/// "POSIX" and languages baffle does not speak → none.
fn posix(name: &str) -> Option<Locale> {
    let tag = name
        .split(['.', '@'])
        .next()
        .unwrap_or("")
        .replace('_', "-");
    Locale::from_tag(&tag)
}

/// The tags of an `Accept-Language` header, by falling quality: `"en-US,el;q=0.8"` →
/// `["en-US", "el"]`. Tags with `q=0` and `*` are dropped; a malformed part is skipped.
pub fn accept_language(header: &str) -> Vec<String> {
    let mut tags: Vec<(f32, usize, String)> = header
        .split(',')
        .enumerate()
        .filter_map(|(i, part)| {
            let mut pieces = part.split(';');
            let tag = pieces.next()?.trim();
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
            (!tag.is_empty() && tag != "*" && q > 0.0).then(|| (q, i, tag.to_string()))
        })
        .collect();
    // By quality, then in the header's order.
    tags.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    tags.into_iter().map(|(_, _, tag)| tag).collect()
}

/// An argument of a message: words or a number.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Words, shown as they are (a name, dice "6-4", an article "4.3 (ii)(c)").
    Text(String),
    /// A number: it chooses plural forms.
    Number(f64),
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Text(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Text(s)
    }
}
impl From<u32> for Value {
    fn from(n: u32) -> Value {
        Value::Number(f64::from(n))
    }
}
impl From<u64> for Value {
    fn from(n: u64) -> Value {
        // Counts and sequence numbers: far below 2^53, exact as f64.
        Value::Number(n as f64)
    }
}
impl From<f64> for Value {
    fn from(n: f64) -> Value {
        Value::Number(n)
    }
}
impl From<i32> for Value {
    fn from(n: i32) -> Value {
        Value::Number(f64::from(n))
    }
}

/// The messages of one locale, with English behind them for any id a locale lacks
/// (none today: a test keeps the files in step).
pub struct Catalogue {
    locale: Locale,
    bundles: Vec<FluentBundle<FluentResource>>,
}

impl Catalogue {
    /// The catalogue of `locale`.
    pub fn new(locale: Locale) -> Catalogue {
        let mut bundles = vec![bundle(locale)];
        if locale != Locale::En {
            bundles.push(bundle(Locale::En));
        }
        Catalogue { locale, bundles }
    }

    /// The catalogue of the first of `requested` that baffle speaks ([`negotiate`]).
    pub fn negotiate(requested: &[&str]) -> Catalogue {
        Catalogue::new(negotiate(requested))
    }

    /// Its locale.
    pub fn locale(&self) -> Locale {
        self.locale
    }

    /// Whether the locale's own file has `id`.
    pub fn has(&self, id: &str) -> bool {
        self.bundles[0].has_message(id)
    }

    /// The message `id` with `args`. An unknown id comes back as itself, so a gap
    /// shows rather than breaks; a missing argument shows as its name in braces.
    pub fn format(&self, id: &str, args: &[(&str, Value)]) -> String {
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            match value {
                Value::Text(s) => fluent_args.set(*name, FluentValue::from(s.clone())),
                Value::Number(n) => fluent_args.set(*name, FluentValue::from(*n)),
            }
        }
        for bundle in &self.bundles {
            if let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                return bundle
                    .format_pattern(pattern, Some(&fluent_args), &mut errors)
                    .into_owned();
            }
        }
        id.to_string()
    }

    /// The words for value `value` of the proto enum `enum_name` (e.g. "PauseReason", 3
    /// → "director called"), or `None` for a value the proto does not have.
    pub fn enum_value(&self, enum_name: &str, value: i32) -> Option<String> {
        enum_message_id(enum_name, value).map(|id| self.format(&id, &[]))
    }

    /// `words` ([`describe::describe`]'s, or the server's `v1::Event.words`) in this
    /// locale: nested messages first, a side as its player's name in `names` ([A, B]),
    /// an instant as a time of day in UTC ([`time_of_day`]).
    pub fn words(&self, words: &v1::Words, names: [&str; 2]) -> String {
        use v1::word_arg::Value as Arg;
        let args: Vec<(&str, Value)> = words
            .args
            .iter()
            .map(|a| {
                let value = match &a.value {
                    Some(Arg::Text(s)) => Value::Text(s.clone()),
                    // Counts and points: far below 2^53, exact as f64.
                    Some(Arg::Number(n)) => Value::Number(*n as f64),
                    Some(Arg::Side(s)) if *s == v1::Side::B as i32 => names[1].into(),
                    Some(Arg::Side(_)) => names[0].into(),
                    Some(Arg::TimeMs(ms)) => time_of_day(*ms).into(),
                    Some(Arg::Words(inner)) => self.words(inner, names).into(),
                    None => Value::Text(String::new()),
                };
                (a.name.as_str(), value)
            })
            .collect();
        self.format(&words.id, &args)
    }

    /// A rule cited in the regulations' own numbering: `rule("backgammon", "4.3 (ii)(c)")`
    /// → "άρθρο 4.3 (ii)(c) του Κανονισμού". `body` is "backgammon" or "chess".
    pub fn rule(&self, body: &str, article: &str) -> String {
        let id = if body == "chess" {
            "rule-chess"
        } else {
            "rule-backgammon"
        };
        self.format(id, &[("article", article.into())])
    }

    /// Which game of how many, its category, the edition of the Laws and the Chess960
    /// position (White's back rank, then Black's), as the page's chips say them:
    /// "game 2 of 4 · rapid · FIDE 2014 · 960 #518 RNBQKBNR/rnbqkbnr" — for `follow`
    /// and a device's display alike.
    pub fn chess_game(&self, s: &v1::MatchState, c: &v1::ChessState) -> String {
        let category = self.format(
            "chess-category",
            &[("category", c.category.as_str().into())],
        );
        let args = [
            ("game", s.game_number.into()),
            ("games", c.games.into()),
            ("category", category.into()),
        ];
        let mut line = self.format("chess-game-of", &args);
        if !c.laws_name.is_empty() {
            line = format!("{line} · {}", c.laws_name);
        }
        if let Some(p) = &c.position {
            let rank = match p.black_back_rank.as_str() {
                "" => p.back_rank.clone(),
                black => format!("{}/{black}", p.back_rank),
            };
            let args = [("sp", p.sp.into()), ("rank", rank.into())];
            line = format!("{line} · {}", self.format("chess-960", &args));
        }
        line
    }

    /// A chess clock's side as a device shows it: the colour's letter and the moves made
    /// and the period it is in, periods counted from 1 ("W", "m12 P1"; "Λ", "κ12 Π1"),
    /// so a period change shows as it happens (6.3 (b)) — the server's display lines and
    /// `baffle-device`'s faces alike.
    pub fn chess_side(&self, color: v1::Color, side: &v1::SideClock) -> [String; 2] {
        let letter = match color {
            v1::Color::Black => "device-black",
            _ => "device-white",
        };
        let args = [
            ("moves", side.moves.into()),
            ("period", side.period.saturating_add(1).into()),
        ];
        [
            self.format(letter, &[]),
            self.format("device-moves-period", &args),
        ]
    }
}

/// An instant (ms since the epoch, as the server's times are) as the time of day in
/// UTC, as the terminal says it: "14:32 UTC".
pub fn time_of_day(ms: i64) -> String {
    let minutes = ms.div_euclid(60_000).rem_euclid(24 * 60);
    format!("{:02}:{:02} UTC", minutes / 60, minutes % 60)
}

/// A locale's bundle. The files are part of the binary and tested, so a parse error is
/// a bug caught by the tests, not a runtime condition.
fn bundle(locale: Locale) -> FluentBundle<FluentResource> {
    let lang: LanguageIdentifier = locale.tag().parse().expect("a valid tag");
    let mut bundle = FluentBundle::new_concurrent(vec![lang]);
    // No Unicode isolation marks: names and numbers here are all left to right, and the
    // marks would reach terminals and tests as stray characters.
    bundle.set_use_isolating(false);
    let resource = FluentResource::try_new(locale.source().to_string())
        .unwrap_or_else(|(resource, _)| resource);
    bundle
        .add_resource(resource)
        .expect("one resource, no duplicate ids");
    bundle
}

#[cfg(test)]
mod tests;
