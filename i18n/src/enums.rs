//! Words for proto enum values, found from the proto itself so they cannot drift.
//!
//! A value's message id is its enum's name in kebab case followed by the value's own
//! name without the enum's prefix: `PauseReason` `PAUSE_REASON_DIRECTOR_CALLED` (3) →
//! `pause-reason-director-called`. The names come from the generated code
//! (`as_str_name`), so a value added to the proto has no words until a message is
//! added for it, and the tests say so. `UNSPECIFIED` (0) has no words.

use baffle_proto::v1;

/// The proto name of `value` in an enum, if the enum has it.
type Namer = fn(i32) -> Option<&'static str>;

macro_rules! namer {
    ($e:ty) => {
        (|v| <$e>::try_from(v).ok().map(|e| e.as_str_name())) as Namer
    };
}

/// The enums whose values the page and the console show as words, by proto name.
pub const TABLES: [(&str, Namer); 8] = [
    ("PauseReason", namer!(v1::PauseReason)),
    ("MatchPhase", namer!(v1::MatchPhase)),
    ("MatchStatus", namer!(v1::MatchStatus)),
    ("TurnPhase", namer!(v1::TurnPhase)),
    ("MatchEndKind", namer!(v1::MatchEndKind)),
    ("WinKind", namer!(v1::WinKind)),
    ("ChessOutcome", namer!(v1::ChessOutcome)),
    ("ChessReason", namer!(v1::ChessReason)),
];

/// The highest value looked for: the proto's enums here are far smaller.
const MAX_VALUE: i32 = 255;

/// "PauseReason" → "pause-reason".
pub fn kebab(enum_name: &str) -> String {
    let mut out = String::new();
    for (i, c) in enum_name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The message id of `value` of `enum_name`, or `None` for an enum not in [`TABLES`],
/// a value it does not have, or 0 (unspecified).
pub fn enum_message_id(enum_name: &str, value: i32) -> Option<String> {
    let (_, namer) = TABLES.iter().find(|(name, _)| *name == enum_name)?;
    let proto_name = namer(value).filter(|_| value != 0)?;
    let prefix = kebab(enum_name).to_uppercase().replace('-', "_") + "_";
    let own = proto_name.strip_prefix(&prefix).unwrap_or(proto_name);
    Some(format!(
        "{}-{}",
        kebab(enum_name),
        own.to_lowercase().replace('_', "-")
    ))
}

/// Every value of `enum_name` but 0, with its message id, by value.
pub fn values(enum_name: &str) -> Vec<(i32, String)> {
    (1..=MAX_VALUE)
        .filter_map(|v| enum_message_id(enum_name, v).map(|id| (v, id)))
        .collect()
}
