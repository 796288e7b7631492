//! The page's schema, generated from the protos: `server/web/schema.js`.
//!
//! The page reads and writes protobuf with its own small codec (`server/web/wire.js`),
//! which knows the wire format and nothing of baffle's messages. What a message is — its
//! fields' numbers, names, types and labels — the codec reads from `schema.js`, and that
//! file is written here from the descriptor set `proto/build.rs` compiles
//! ([`baffle_proto::FILE_DESCRIPTOR_SET`]), never by hand:
//!
//! ```text
//! cargo run -p baffle-server --bin page-schema
//! ```
//!
//! The file is committed (the page has no build step: what is served is what is in the
//! tree), and the test below fails when it differs from what the protos give, so a field
//! changed in `proto/baffle/v1` reaches the page in the same commit or not at all.
//!
//! Three tables, each sorted by name, names without the `baffle.v1.` package:
//!
//! - `messages`: a message's fields by number, `[name, type]` with `"repeated"` or
//!   `"optional"` after them when so (a field with presence, sent whenever it is set,
//!   zero included: proto3 `optional` and the members of a `oneof`). A type is
//!   `"string"`, `"bytes"`, `"bool"`, `"uint"` (uint32, uint64), `"int"` (int32, int64),
//!   `"enum"` or another message's name (`"ChessState.Flag"` for a nested one).
//! - `enums`: each enum's values by name (`enums.Side.SIDE_A` is 1).
//! - `methods`: each RPC's path and its request and response messages
//!   (`"/baffle.v1.Draws/GetDraw": ["GetDrawRequest", "DrawView"]`).
//!
//! A proto type the page's codec cannot read (a float, a fixed-width or zigzag integer)
//! is an error here rather than a field the page would misread.

use std::collections::BTreeMap;
use std::fmt;

use prost::Message;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorSet};

/// The package the page speaks.
const PACKAGE: &str = "baffle.v1";
/// Where the generated file lives, from the server crate's root.
pub const PATH: &str = "web/schema.js";
/// The command that writes it, as the test's failure and the file's header say.
pub const COMMAND: &str = "cargo run -p baffle-server --bin page-schema";
/// Lines of the generated file are wrapped at this many characters.
const WIDTH: usize = 100;

/// Why the schema could not be generated.
#[derive(Debug)]
pub struct SchemaError(String);

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the page's schema: {}", self.0)
    }
}

impl std::error::Error for SchemaError {}

/// The page's `schema.js` for baffle's own descriptor set.
pub fn page_schema() -> Result<String, SchemaError> {
    render(baffle_proto::FILE_DESCRIPTOR_SET)
}

/// The page's `schema.js` for the package `baffle.v1` in an encoded `FileDescriptorSet`.
pub fn render(descriptor_set: &[u8]) -> Result<String, SchemaError> {
    let set = FileDescriptorSet::decode(descriptor_set)
        .map_err(|e| SchemaError(format!("the descriptor set does not decode: {e}")))?;
    let mut messages = BTreeMap::new();
    let mut enums = BTreeMap::new();
    let mut methods = BTreeMap::new();
    for file in set.file.iter().filter(|f| f.package() == PACKAGE) {
        for message in &file.message_type {
            add_message(message, "", &mut messages, &mut enums)?;
        }
        for e in &file.enum_type {
            enums.insert(e.name().to_string(), enum_values(e));
        }
        for service in &file.service {
            for method in &service.method {
                let path = format!("/{PACKAGE}.{}/{}", service.name(), method.name());
                let types = [method.input_type(), method.output_type()]
                    .map(|t| local(t).map(|name| quoted(&name)));
                let [input, output] = types;
                methods.insert(path, format!("[{}, {}]", input?, output?));
            }
        }
    }
    if messages.is_empty() {
        return Err(SchemaError(format!("no message of package {PACKAGE}")));
    }
    let mut out = String::from(HEADER);
    table(&mut out, "messages", &messages);
    table(&mut out, "enums", &enums);
    table(&mut out, "methods", &methods);
    Ok(out)
}

/// What the file says of itself.
const HEADER: &str = "\
// baffle.v1 as the page reads it: every message's fields by number, every enum's values,
// every method's request and response. Generated from proto/baffle/v1 by
// `cargo run -p baffle-server --bin page-schema` (server/src/web/schema.rs says how);
// do not edit: a test fails when this file differs from the protos.
";

/// Adds `message` (named inside `scope`) and everything nested in it.
fn add_message(
    message: &DescriptorProto,
    scope: &str,
    messages: &mut BTreeMap<String, Vec<String>>,
    enums: &mut BTreeMap<String, Vec<String>>,
) -> Result<(), SchemaError> {
    let name = format!("{scope}{}", message.name());
    let mut in_order: Vec<&FieldDescriptorProto> = message.field.iter().collect();
    in_order.sort_by_key(|f| f.number());
    let fields = in_order
        .into_iter()
        .map(|f| field(&name, f))
        .collect::<Result<Vec<_>, _>>()?;
    for nested in &message.nested_type {
        add_message(nested, &format!("{name}."), messages, enums)?;
    }
    for e in &message.enum_type {
        enums.insert(format!("{name}.{}", e.name()), enum_values(e));
    }
    messages.insert(name, fields);
    Ok(())
}

/// One field as `number: ["name", "type", "label"?]`.
fn field(message: &str, f: &FieldDescriptorProto) -> Result<String, SchemaError> {
    let kind = match f.r#type() {
        Type::String => quoted("string"),
        Type::Bytes => quoted("bytes"),
        Type::Bool => quoted("bool"),
        Type::Uint32 | Type::Uint64 => quoted("uint"),
        Type::Int32 | Type::Int64 => quoted("int"),
        Type::Enum => quoted("enum"),
        Type::Message => quoted(&local(f.type_name())?),
        other => {
            return Err(SchemaError(format!(
                "{message}.{} is a {other:?}, which the page's decoder (server/web/wire.js) \
                 does not read",
                f.name()
            )));
        }
    };
    let label = if f.label() == Label::Repeated {
        ", \"repeated\""
    } else if f.proto3_optional() || f.oneof_index.is_some() {
        ", \"optional\""
    } else {
        ""
    };
    Ok(format!(
        "{}: [{}, {kind}{label}]",
        f.number(),
        quoted(f.name())
    ))
}

/// An enum's values as `NAME: number`.
fn enum_values(e: &EnumDescriptorProto) -> Vec<String> {
    e.value
        .iter()
        .map(|v| format!("{}: {}", v.name(), v.number()))
        .collect()
}

/// A type's name without its package: `.baffle.v1.ChessState.Flag` is `ChessState.Flag`.
fn local(type_name: &str) -> Result<String, SchemaError> {
    type_name
        .strip_prefix(&format!(".{PACKAGE}."))
        .map(str::to_string)
        .ok_or_else(|| {
            SchemaError(format!(
                "{type_name} is outside {PACKAGE}, which is all the page's schema holds"
            ))
        })
}

/// `s` as a JavaScript string literal. Proto names are identifiers and paths, so only
/// the quotes are needed; anything else would be a descriptor set this is not meant for.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `export const <name> = { "key": { items }, ... };`, each entry's items wrapped.
fn table(out: &mut String, name: &str, entries: &BTreeMap<String, impl Entry>) {
    out.push_str(&format!("\nexport const {name} = {{\n"));
    for (key, value) in entries {
        value.write(out, &quoted(key));
    }
    out.push_str("};\n");
}

/// A table's value: a list of items in braces, or a literal as it is.
trait Entry {
    /// Writes `  key: value,` into `out`, wrapped at [`WIDTH`].
    fn write(&self, out: &mut String, key: &str);
}

impl Entry for Vec<String> {
    fn write(&self, out: &mut String, key: &str) {
        let mut line = format!("  {key}: {{");
        for (i, item) in self.iter().enumerate() {
            let piece = if i + 1 < self.len() {
                format!(" {item},")
            } else {
                format!(" {item} }},")
            };
            if line.len() + piece.len() > WIDTH && !line.ends_with('{') {
                out.push_str(&line);
                out.push('\n');
                line = String::from("   ");
            }
            line.push_str(&piece);
        }
        if self.is_empty() {
            line.push_str("},");
        }
        out.push_str(&line);
        out.push('\n');
    }
}

impl Entry for String {
    fn write(&self, out: &mut String, key: &str) {
        out.push_str(&format!("  {key}: {self},\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed file is what the protos give: a proto changed without running the
    /// generator fails here, with the command that mends it.
    #[test]
    fn the_committed_page_schema_is_the_protos() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let generated = page_schema().unwrap();
        if committed != generated {
            let line = committed
                .lines()
                .zip(generated.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| committed.lines().count().min(generated.lines().count()));
            panic!(
                "server/{PATH} differs from proto/baffle/v1 (first at line {}): run `{COMMAND}` \
                 and commit the file",
                line + 1
            );
        }
    }

    /// A set of one message `name` in baffle.v1 with one field of `kind` (`type_name`
    /// for a message), and `nested` inside it.
    fn one_message(
        name: &str,
        kind: Type,
        type_name: &str,
        nested: Vec<DescriptorProto>,
    ) -> Vec<u8> {
        let set = FileDescriptorSet {
            file: vec![prost_types::FileDescriptorProto {
                package: Some(PACKAGE.into()),
                message_type: vec![DescriptorProto {
                    name: Some(name.into()),
                    field: vec![FieldDescriptorProto {
                        name: Some("it".into()),
                        number: Some(1),
                        r#type: Some(kind as i32),
                        type_name: (!type_name.is_empty()).then(|| type_name.into()),
                        ..Default::default()
                    }],
                    nested_type: nested,
                    ..Default::default()
                }],
                ..Default::default()
            }],
        };
        set.encode_to_vec()
    }

    /// A field the page's decoder cannot read is refused, named, rather than misread.
    #[test]
    fn a_type_the_page_cannot_read_is_refused() {
        let err = render(&one_message("Odd", Type::Double, "", vec![]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("Odd.it is a Double"), "{err}");
        let err = render(&one_message("Far", Type::Message, ".other.Thing", vec![]))
            .unwrap_err()
            .to_string();
        assert!(err.contains(".other.Thing is outside baffle.v1"), "{err}");
        assert!(render(b"\xff").is_err(), "not a descriptor set");
    }

    /// A nested message is named inside its parent, as the field that holds it says.
    #[test]
    fn a_nested_message_is_named_inside_its_parent() {
        let inner = DescriptorProto {
            name: Some("Inner".into()),
            ..Default::default()
        };
        let schema = render(&one_message(
            "Outer",
            Type::Message,
            ".baffle.v1.Outer.Inner",
            vec![inner],
        ))
        .unwrap();
        assert!(
            schema.contains("\"Outer\": { 1: [\"it\", \"Outer.Inner\"] },"),
            "{schema}"
        );
        assert!(schema.contains("\"Outer.Inner\": {},"), "{schema}");
    }

    /// Names, nesting, labels, enums and methods come out as the page's codec reads them.
    #[test]
    fn the_schema_says_what_the_protos_say() {
        let schema = page_schema().unwrap();
        assert!(
            schema.contains("33: [\"sent_at_ms\", \"int\"]"),
            "MatchState.sent_at_ms"
        );
        assert!(schema.contains("10: [\"flags\", \"ChessFlag\", \"repeated\"]"));
        assert!(
            schema.contains("4: [\"roll\", \"Roll\", \"optional\"]"),
            "a oneof's member"
        );
        assert!(schema.contains("5: [\"expected_seq\", \"uint\", \"optional\"]"));
        assert!(schema.contains("\"Side\": { SIDE_UNSPECIFIED: 0, SIDE_A: 1, SIDE_B: 2 },"));
        assert!(
            schema.contains("\"/baffle.v1.Matches/Watch\": [\"WatchRequest\", \"MatchUpdate\"],")
        );
        // Messages and enums are wrapped; a method's line is as long as its path.
        let wide = schema.lines().filter(|l| l.len() > WIDTH);
        assert!(
            wide.clone().all(|l| l.starts_with("  \"/")),
            "{:?}",
            wide.collect::<Vec<_>>()
        );
    }
}
