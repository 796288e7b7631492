//! Words for people are written in the catalogue (i18n/locales/*.ftl), not in the code:
//! a view that spells English itself shows English to a Greek room. This reads a view's
//! source (`syn`, its tests left out) and fails on any string in it that holds letters
//! and is neither a message id of the catalogue nor the name of a message's argument —
//! in function calls and in macros (`format!`) alike. Doc comments are not read.
//!
//! The views checked: `baffle follow`'s screen (issue 34: it wrote "'s flag fell",
//! "illegal moves: White …" and "game 2 (Anna White)" in English), a simulated
//! device's display (it wrote "match over", "paused" and "[offline]" in English) and the
//! lines the server sends a real clock device (they were English whatever the device:
//! "game 3/4", "cube 2 B", "A to roll").

use std::collections::BTreeSet;
use std::path::Path;

use proc_macro2::TokenTree;
use syn::visit::Visit;

/// The sources whose strings must all come from the catalogue.
const VIEWS: &[&str] = &[
    "client/src/tui/follow.rs",
    "firmware-sim/src/display.rs",
    "server/src/services/devices/display.rs",
];

/// Every string literal of a file, outside attributes (doc comments) and `#[cfg(test)]`
/// items, with those inside macros' tokens.
#[derive(Default)]
struct Strings(Vec<String>);

impl Strings {
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for token in tokens {
            match token {
                TokenTree::Literal(l) => {
                    if let Ok(s) = syn::parse_str::<syn::LitStr>(&l.to_string()) {
                        self.0.push(s.value());
                    }
                }
                TokenTree::Group(g) => self.tokens(g.stream()),
                _ => {}
            }
        }
    }
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

impl<'ast> Visit<'ast> for Strings {
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }
    fn visit_lit_str(&mut self, s: &'ast syn::LitStr) {
        self.0.push(s.value());
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
    }
}

/// The strings of `source` that say something in a language: letters left once the
/// `{…}` placeholders of a format string and terminal control sequences (`ESC [ 2 J`:
/// a command to the terminal, not words) are taken out.
fn worded(source: &str) -> Vec<String> {
    let file = syn::parse_file(source).expect("the view parses");
    let mut strings = Strings::default();
    strings.visit_file(&file);
    strings
        .0
        .into_iter()
        .filter(|s| {
            let mut bare = String::new();
            let mut depth = 0u32;
            let mut chars = s.chars();
            while let Some(c) = chars.next() {
                match c {
                    '{' => depth = depth.saturating_add(1),
                    '}' => depth = depth.saturating_sub(1),
                    // A control sequence runs to its final byte, a letter or `@`–`~`.
                    '\x1b' => {
                        let _ = chars.find(|c| ('@'..='~').contains(c) && *c != '[');
                    }
                    c if depth == 0 => bare.push(c),
                    _ => {}
                }
            }
            bare.chars().any(char::is_alphabetic)
        })
        .collect()
}

/// The catalogue's message ids and argument names (`$name`), in every locale, and the
/// proto enums it has words for (`words::enum_words("ChessReason", …)`).
fn catalogue_words() -> BTreeSet<String> {
    let mut known: BTreeSet<String> = baffle_i18n::enums::TABLES
        .iter()
        .map(|(name, _)| name.to_string())
        .collect();
    for locale in baffle_i18n::Locale::ALL {
        for line in locale.source().lines() {
            if let Some((id, _)) = line.split_once(" = ")
                && !id.starts_with([' ', '#'])
            {
                known.insert(id.trim().to_string());
            }
            for (i, _) in line.match_indices('$') {
                let name: String = line[i + 1..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                    .collect();
                known.insert(name);
            }
        }
    }
    known
}

fn source(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_follow_view_and_the_device_displays_say_nothing_outside_the_catalogue() {
    let known = catalogue_words();
    let mut report = String::new();
    for view in VIEWS {
        for s in worded(&source(view)) {
            if !known.contains(&s) {
                report.push_str(&format!("\n{view}: {s:?}"));
            }
        }
    }
    assert!(
        report.is_empty(),
        "words written outside the catalogue (put them in i18n/locales/*.ftl and say \
         them with words::say):{report}"
    );
}

#[test]
fn the_check_finds_english_in_calls_and_macros_but_not_ids_placeholders_or_docs() {
    let source = r#"
        /// A doc comment in English is fine.
        fn f(s: &str) -> String {
            let a = words::say("follow-footer");
            let b = format!("{} · {a}", s);
            let c = format!("{}'s flag fell", s);
            push("illegal moves");
            clear("\x1b[H\x1b[2J");
            c
        }
        #[cfg(test)]
        mod tests { fn t() { assert_eq!(x, "Anna took"); } }
    "#;
    assert_eq!(
        worded(source),
        ["follow-footer", "{}'s flag fell", "illegal moves"]
    );
    let known = catalogue_words();
    assert!(known.contains("follow-footer") && known.contains("name"));
    assert!(!known.contains("illegal moves"));
}
