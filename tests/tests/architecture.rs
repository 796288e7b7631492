//! The shape of the workspace, checked from its source: no import circle between files,
//! no import that points up a layer (the layers are written in ARCHITECTURE.md,
//! "Layers", and read from there), and no `tonic::Status` built outside the server's
//! wire layer (`server/src/wire`): every other file answers in `error::Error`, which
//! `wire::status` turns into a status; no log parsed outside the one reader of stored
//! logs (`core::audit::Reader`, in `core/src/audit/reader.rs`); and the core does no I/O
//! and reads no clock: its code names no file, socket, async runtime, system clock or
//! sleep, and its Cargo.toml depends on neither tokio nor tonic.
//!
//! There is no allowance list: a violation is mended in the code (move the shared item
//! to the file both sides can import), or the layers in ARCHITECTURE.md are changed, in
//! the open, in the same commit.

#[path = "architecture/modules.rs"]
mod modules;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use modules::{Edge, Tree};

/// The crates whose files are checked (the tests and benchmarks may reach anything).
const CRATES: &[&str] = &["core", "proto", "i18n", "server", "client", "firmware-sim"];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

fn tree() -> Tree {
    let mut tree = Tree::default();
    for krate in CRATES {
        tree.read_crate(&workspace(), krate);
    }
    tree
}

#[test]
fn no_import_circle_between_files() {
    let tree = tree();
    let edges = tree.edges();
    let mut graph: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
    for e in &edges {
        graph.entry(e.from).or_default().insert(e.to);
    }
    let mut report = String::new();
    for circle in circles(tree.files.len(), &graph) {
        let names: Vec<&str> = circle
            .iter()
            .map(|&f| tree.files[f].path.as_str())
            .collect();
        report.push_str(&format!(
            "\nThese {} files import each other in a circle: {}\n",
            names.len(),
            names.join(", ")
        ));
        for (from, to, taken) in grouped(&edges, &circle) {
            report.push_str(&format!(
                "  {} takes from {}: {}\n",
                tree.files[from].path, tree.files[to].path, taken
            ));
        }
    }
    assert!(
        report.is_empty(),
        "{report}\nA circle means neither file can be read, tested or moved without the other. \
         Break it by moving the item(s) both sides share into the file where they belong \
         (often a small file of their own that both import), so imports run one way."
    );
}

#[test]
fn no_import_points_up_a_layer() {
    let layers = Layers::from_architecture();
    let tree = tree();
    let mut report = String::new();
    for (dir, ranks) in &layers.modules {
        let krate = dir.trim_end_matches("/src");
        for file in tree.files.iter().filter(|f| f.krate == krate) {
            if !ranks.contains_key(&file.top) {
                report.push_str(&format!(
                    "\n{} belongs to `{}`, which is in no layer of {dir} in ARCHITECTURE.md (\"Layers\"): add it where it belongs.\n",
                    file.path, file.top
                ));
            }
        }
    }
    for e in tree.edges() {
        let (from, to) = (&tree.files[e.from], &tree.files[e.to]);
        let Some(ranks) = layers.modules.get(&format!("{}/src", from.krate)) else {
            continue;
        };
        if let (Some(a), Some(b)) = (ranks.get(&from.top), ranks.get(&to.top))
            && b > a
        {
            report.push_str(&format!(
                "\n{}:{} (layer `{}`) takes `{}` from {} (layer `{}`, above it).\n",
                from.path, e.line, from.top, e.name, to.path, to.top
            ));
        }
    }
    for (krate, deps) in crate_dependencies() {
        for dep in deps {
            match (layers.crates.get(&krate), layers.crates.get(&dep)) {
                (Some(a), Some(b)) if b > a => report.push_str(&format!(
                    "\n{krate}/Cargo.toml depends on {dep}, a crate of a higher layer.\n"
                )),
                (Some(_), Some(_)) => {}
                _ => report.push_str(&format!(
                    "\n{krate} or {dep} is in no layer of the crates in ARCHITECTURE.md (\"Layers\").\n"
                )),
            }
        }
    }
    assert!(
        report.is_empty(),
        "{report}\nLayers import downwards only (ARCHITECTURE.md, \"Layers\", lists them from the \
         bottom up). Move the item taken into the lower layer, or pass it down as an argument."
    );
}

#[test]
fn only_the_wire_layer_builds_a_grpc_status() {
    let tree = tree();
    let mut report = String::new();
    for (index, file) in tree.files.iter().enumerate() {
        if file.krate != "server" || file.top == "wire" {
            continue;
        }
        for (line, path) in tree.status_constructions(index) {
            report.push_str(&format!("\n{}:{line} builds a status: `{path}`", file.path));
        }
    }
    assert!(
        report.is_empty(),
        "{report}\n\nOnly server/src/wire knows how a failure becomes a gRPC status (docs/server.md, \
         Statuses). Answer with an `error::Error` (or a refusal) and let `wire::status` map it."
    );
}

/// The file that owns the line parser of stored and exported logs.
const READER: &str = "core/src/audit/reader.rs";

#[test]
fn a_log_is_parsed_only_by_the_reader() {
    let tree = tree();
    let mut report = String::new();
    // Inside core: a file other than the reader taking its low-level parser.
    for e in tree.edges() {
        let (from, to) = (&tree.files[e.from], &tree.files[e.to]);
        if to.path == READER && e.name.rsplit("::").next() == Some("parse_line") {
            report.push_str(&format!(
                "\n{}:{} calls the line parser `{}`",
                from.path, e.line, e.name
            ));
        }
    }
    // In the crates above core: any path to it (`baffle_core::audit::export::parse_line`,
    // where it is re-exported for the tests, or `…::reader::parse_line`).
    for (index, file) in tree.files.iter().enumerate() {
        for (line, path) in tree.external_paths(index) {
            let parser = matches!(
                path.iter().map(String::as_str).collect::<Vec<_>>()[..],
                ["baffle_core", "audit", "export" | "reader", "parse_line"]
            );
            if parser {
                report.push_str(&format!(
                    "\n{}:{line} calls the line parser `{}`",
                    file.path,
                    path.join("::")
                ));
            }
        }
    }
    assert!(
        report.is_empty(),
        "{report}\n\nA stored log's lines, and an export's, are read only through \
         `baffle_core::audit::Reader` ({READER}; ARCHITECTURE.md, Invariants): it checks each \
         line's form and place the same way for every reader. Read with `Reader::at(from)\
         .records(&lines)` or `Reader::export_line`."
    );
}

/// What the rules may not touch: the file system, the network, standard input and
/// output, the environment, processes and threads, an async runtime, a clock or a
/// sleep. Each is a path prefix (`std::fs` forbids `std::fs::read`).
const NOT_IN_CORE: &[&str] = &[
    "std::time::SystemTime",
    "std::time::Instant",
    "std::fs",
    "std::net",
    "std::io",
    "std::env",
    "std::process",
    "std::thread",
    "tokio",
    "async_std",
    "smol",
];

/// Crates the core may not depend on (async runtimes, gRPC, HTTP).
const NOT_CORE_DEPENDENCIES: &[&str] = &["tokio", "tonic", "async-std", "smol", "hyper"];

#[test]
fn core_does_no_io_and_reads_no_clock() {
    let mut tree = Tree::default();
    tree.read_crate(&workspace(), "core");
    let mut report = String::new();
    for (index, file) in tree.files.iter().enumerate() {
        for (line, path) in tree.external_paths(index) {
            let path = path.join("::");
            let forbidden = NOT_IN_CORE
                .iter()
                .find(|p| path == **p || path.starts_with(&format!("{p}::")));
            if let Some(p) = forbidden {
                report.push_str(&format!("\n{}:{line} names `{path}` ({p})", file.path));
            }
        }
    }
    let toml = std::fs::read_to_string(workspace().join("core/Cargo.toml")).expect("Cargo.toml");
    for dep in dependency_names(&toml) {
        if NOT_CORE_DEPENDENCIES
            .iter()
            .any(|d| dep == *d || dep.starts_with(&format!("{d}-")))
        {
            report.push_str(&format!("\ncore/Cargo.toml depends on {dep}"));
        }
    }
    assert!(
        report.is_empty(),
        "{report}\n\nThe core is the rules, pure and synchronous: every operation takes the time \
         (`Timestamp`) as an argument and returns what to do, and the server does the I/O. Pass \
         the time or the bytes in from the caller instead."
    );
}

/// The names in a Cargo.toml's `[dependencies]` table.
fn dependency_names(toml: &str) -> Vec<String> {
    let deps = toml.split("\n[dependencies]").nth(1).unwrap_or("");
    let deps = deps.split("\n[").next().unwrap_or("");
    deps.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .map(str::to_string)
        .collect()
}

/// The layers of ARCHITECTURE.md's "Layers" section: for the crates and for each
/// crate's top modules, the rank of each name (0 at the bottom).
struct Layers {
    crates: BTreeMap<String, usize>,
    modules: BTreeMap<String, BTreeMap<String, usize>>,
}

impl Layers {
    /// Reads the first fenced block under "## Layers": lines `where: a b < c < d e`,
    /// lowest layer first; a line starting with `<` continues the one above.
    fn from_architecture() -> Layers {
        let text =
            std::fs::read_to_string(workspace().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
        let section = text
            .split("\n## Layers")
            .nth(1)
            .expect("ARCHITECTURE.md has a \"## Layers\" section");
        let block = section
            .split("```")
            .nth(1)
            .expect("a fenced block in \"Layers\"");
        let mut lines: Vec<String> = Vec::new();
        for line in block.lines().skip(1) {
            let line = line.trim();
            if line.starts_with('<') {
                lines
                    .last_mut()
                    .expect("a continued line follows another")
                    .push_str(&format!(" {line}"));
            } else if !line.is_empty() {
                lines.push(line.to_string());
            }
        }
        let mut layers = Layers {
            crates: BTreeMap::new(),
            modules: BTreeMap::new(),
        };
        for line in lines {
            let (place, order) = line
                .split_once(':')
                .expect("a layers line is `where: a < b`");
            let mut ranks = BTreeMap::new();
            for (rank, group) in order.split('<').enumerate() {
                for name in group.split_whitespace() {
                    ranks.insert(name.to_string(), rank);
                }
            }
            if place.trim() == "crates" {
                layers.crates = ranks;
            } else {
                layers.modules.insert(place.trim().to_string(), ranks);
            }
        }
        assert!(
            !layers.crates.is_empty(),
            "ARCHITECTURE.md's layers name the crates"
        );
        layers
    }
}

/// Each workspace crate's `[dependencies]` on other workspace crates, by folder.
fn crate_dependencies() -> Vec<(String, Vec<String>)> {
    let folders = [
        "core",
        "proto",
        "i18n",
        "server",
        "client",
        "firmware-sim",
        "tests",
        "benches",
    ];
    let mut out = Vec::new();
    for folder in folders {
        let toml = std::fs::read_to_string(workspace().join(folder).join("Cargo.toml"))
            .expect("Cargo.toml");
        let names = dependency_names(&toml)
            .into_iter()
            .filter_map(|d| d.strip_prefix("baffle-").map(str::to_string))
            .collect();
        out.push((folder.to_string(), names));
    }
    out
}

/// Strongly connected groups of more than one file (Tarjan), each sorted.
fn circles(n: usize, graph: &BTreeMap<usize, BTreeSet<usize>>) -> Vec<Vec<usize>> {
    struct State<'a> {
        graph: &'a BTreeMap<usize, BTreeSet<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        let nexts: Vec<usize> = s.graph.get(&v).into_iter().flatten().copied().collect();
        for w in nexts {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                group.push(w);
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let mut s = State {
        graph,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The edges inside one circle, one line per pair of files, with the names and lines.
fn grouped(edges: &[Edge], circle: &[usize]) -> Vec<(usize, usize, String)> {
    let mut pairs: BTreeMap<(usize, usize), BTreeSet<String>> = BTreeMap::new();
    for e in edges {
        if circle.contains(&e.from) && circle.contains(&e.to) {
            pairs
                .entry((e.from, e.to))
                .or_default()
                .insert(format!("{} (line {})", e.name, e.line));
        }
    }
    pairs
        .into_iter()
        .map(|((a, b), names)| (a, b, names.into_iter().collect::<Vec<_>>().join(", ")))
        .collect()
}
