//! The catalogue as the phone page reads it: JSON, served by `baffled` at
//! `/i18n/<locale>.json`, so the page needs no Fluent library and no build step.
//!
//! Each message is compiled from the Fluent syntax tree into a small pattern the page's
//! script interprets in a few lines (`server/web/app.js`, `format`):
//!
//! - a pattern is a string, or a list of parts;
//! - a part is a string, `{"var": name}` (an argument), or
//!   `{"sel": name, "variants": [[key, pattern], …], "def": index}` (a choice on an
//!   argument: a number key matches exactly, else the key is the number's plural
//!   category in the locale, `Intl.PluralRules`, or a string argument itself; else the
//!   default variant).
//!
//! That is the subset of Fluent the catalogue uses; anything else (terms, functions,
//! message references, attributes) is refused by [`compile`], and the tests compile
//! every locale. With the messages go the proto enum tables ([`crate::enums`]): value →
//! message id, so the page's words for a `PauseReason` come from the proto's numbering.

use fluent_syntax::ast::{
    Entry, Expression, InlineExpression, Pattern, PatternElement, VariantKey,
};
use serde_json::{Map, Value, json};

use crate::Locale;
use crate::enums;

/// Prefixes of the ids only the terminal says (`baffle`'s console and command line).
pub const TERMINAL_ONLY: [&str; 4] = ["console-", "cli-", "follow-", "match-status-"];

/// The page's JSON for `locale`: `{"locale", "messages", "enums"}`.
pub fn json(locale: Locale) -> Result<String, String> {
    let mut messages = compile(locale.source())?;
    // The console's and the CLI's own words stay out of the page's download.
    messages.retain(|id, _| !TERMINAL_ONLY.iter().any(|p| id.starts_with(p)));
    let mut tables = Map::new();
    for (name, _) in enums::TABLES {
        let values: Map<String, Value> = enums::values(name)
            .into_iter()
            .map(|(v, id)| (v.to_string(), Value::String(id)))
            .collect();
        tables.insert(name.to_string(), Value::Object(values));
    }
    Ok(json!({ "locale": locale.tag(), "messages": messages, "enums": tables }).to_string())
}

/// Every message of a Fluent source as page patterns, by id.
pub fn compile(source: &str) -> Result<Map<String, Value>, String> {
    let resource = fluent_syntax::parser::parse(source)
        .map_err(|(_, errors)| format!("the catalogue does not parse: {errors:?}"))?;
    let mut out = Map::new();
    for entry in resource.body {
        match entry {
            Entry::Message(m) => {
                let id = m.id.name;
                if !m.attributes.is_empty() {
                    return Err(format!("{id}: attributes are not used on the page"));
                }
                let value = m.value.ok_or_else(|| format!("{id}: no value"))?;
                let pattern = pattern(&value).map_err(|why| format!("{id}: {why}"))?;
                out.insert(id.to_string(), pattern);
            }
            Entry::Comment(_) | Entry::GroupComment(_) | Entry::ResourceComment(_) => {}
            Entry::Term(t) => return Err(format!("-{}: terms are not used", t.id.name)),
            Entry::Junk { content } => return Err(format!("unreadable: {content}")),
        }
    }
    Ok(out)
}

/// A pattern: one string when it is all text, else its parts.
fn pattern(p: &Pattern<&str>) -> Result<Value, String> {
    let mut parts: Vec<Value> = Vec::new();
    for element in &p.elements {
        let part = match element {
            PatternElement::TextElement { value } => Value::String(value.to_string()),
            PatternElement::Placeable { expression } => placeable(expression)?,
        };
        // Neighbouring texts join, so a text-only pattern is one string.
        match (parts.last_mut(), &part) {
            (Some(Value::String(last)), Value::String(s)) => last.push_str(s),
            _ => parts.push(part),
        }
    }
    Ok(match parts.as_slice() {
        [] => Value::String(String::new()),
        [Value::String(s)] => Value::String(s.clone()),
        _ => Value::Array(parts),
    })
}

fn placeable(e: &Expression<&str>) -> Result<Value, String> {
    match e {
        Expression::Inline(inline) => inline_part(inline),
        Expression::Select { selector, variants } => {
            let InlineExpression::VariableReference { id } = selector else {
                return Err("a choice must be on an argument".into());
            };
            let mut list = Vec::new();
            let mut default = 0;
            for (i, v) in variants.iter().enumerate() {
                let key = match &v.key {
                    VariantKey::Identifier { name } => name.to_string(),
                    VariantKey::NumberLiteral { value } => value.to_string(),
                };
                if v.default {
                    default = i;
                }
                list.push(json!([key, pattern(&v.value)?]));
            }
            Ok(json!({ "sel": id.name, "variants": list, "def": default }))
        }
    }
}

fn inline_part(e: &InlineExpression<&str>) -> Result<Value, String> {
    match e {
        InlineExpression::StringLiteral { value } => Ok(Value::String(value.to_string())),
        InlineExpression::NumberLiteral { value } => Ok(Value::String(value.to_string())),
        InlineExpression::VariableReference { id } => Ok(json!({ "var": id.name })),
        InlineExpression::Placeable { expression } => placeable(expression),
        _ => Err("only arguments, literals and choices are used on the page".into()),
    }
}
