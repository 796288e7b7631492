//! The locales baffle speaks, at the bottom of the crate: every part of it (the page's
//! catalogue, the words of events, the console's) names one.

use unic_langid::LanguageIdentifier;

/// A locale baffle speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Locale {
    /// Greek: the regulations' own language, and the default.
    El,
    /// English.
    En,
}

impl Locale {
    /// Every locale, the default first.
    pub const ALL: [Locale; 2] = [Locale::El, Locale::En];

    /// Its BCP 47 tag: "el", "en".
    pub const fn tag(self) -> &'static str {
        match self {
            Locale::El => "el",
            Locale::En => "en",
        }
    }

    /// The locale of a tag ("el-GR" → Greek), if baffle speaks its language.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let id: LanguageIdentifier = tag.trim().parse().ok()?;
        Locale::ALL
            .into_iter()
            .find(|l| id.language.as_str().eq_ignore_ascii_case(l.tag()))
    }

    /// Its Fluent source.
    pub const fn source(self) -> &'static str {
        match self {
            Locale::El => include_str!("../locales/el.ftl"),
            Locale::En => include_str!("../locales/en.ftl"),
        }
    }
}
