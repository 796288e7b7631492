//! The module trees of the workspace's crates, read from their source with `syn`, and
//! every name a file takes from another file of its crate.
//!
//! A crate's tree starts at `src/lib.rs` (and at each `src/bin/*.rs`, a crate of its
//! own) and follows `mod` lines as rustc does (`foo.rs` or `foo/mod.rs` beside the
//! declaring module). Test code (`#[cfg(test)]`) is left out: it may reach anything.
//!
//! A name is followed to the file that defines it: through `use` lines, `pub use`
//! re-exports and paths written in code (`crate::wire::status(e)`, `super::Side::A`),
//! so an import counts against the file where the item lives, not against a `mod.rs`
//! that only passes it on.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

/// One module: a file, or a `mod x { … }` inside one.
pub struct Module {
    /// Index of its file in [`Tree::files`].
    pub file: usize,
    parent: Option<usize>,
    /// The crate root this module belongs to (its own index for a root).
    root: usize,
    children: BTreeMap<String, usize>,
    items: BTreeSet<String>,
    /// `use` bindings: the name bound (`None` for a glob) and the path it names.
    imports: Vec<Import>,
}

struct Import {
    name: Option<String>,
    path: Vec<String>,
    public: bool,
    line: usize,
}

/// A source file of a crate.
pub struct File {
    /// Path from the workspace root, with `/`.
    pub path: String,
    /// The first module under the crate root it belongs to: `wire` for
    /// `server/src/wire/draw.rs`; `lib` for `lib.rs` itself, `bin` for a binary's files.
    pub top: String,
    /// The crate folder: `server`.
    pub krate: String,
    /// Identifiers the file's code (not its `use` lines) starts a path with.
    used: BTreeSet<String>,
    /// Paths of two segments or more written in its code, with their module and line.
    paths: Vec<(usize, Vec<String>, usize)>,
}

/// Every module and file of the crates read.
#[derive(Default)]
pub struct Tree {
    pub modules: Vec<Module>,
    pub files: Vec<File>,
}

/// One name a file takes from another file of the same crate.
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub name: String,
    pub line: usize,
}

/// What a path names.
enum Target {
    Module(usize),
    Item(usize, String),
    /// Outside the crate (another crate, the standard library): its whole path.
    External(Vec<String>),
}

impl Tree {
    /// Reads the crate in `workspace/krate`: `src/lib.rs` and every `src/bin/*.rs`.
    pub fn read_crate(&mut self, workspace: &Path, krate: &str) {
        let src = workspace.join(krate).join("src");
        let mut roots = vec![(src.join("lib.rs"), "lib".to_string())];
        if let Ok(dir) = std::fs::read_dir(src.join("bin")) {
            let mut bins: Vec<PathBuf> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
            bins.sort();
            roots.extend(bins.into_iter().map(|b| (b, "bin".to_string())));
        }
        if src.join("main.rs").exists() {
            roots.push((src.join("main.rs"), "bin".to_string()));
        }
        for (file, top) in roots {
            if file.exists() {
                let dir = file
                    .parent()
                    .expect("a root file has a folder")
                    .to_path_buf();
                self.load(workspace, krate, &file, dir, None, &top);
            }
        }
    }

    fn load(
        &mut self,
        workspace: &Path,
        krate: &str,
        file: &Path,
        child_dir: PathBuf,
        parent: Option<usize>,
        top: &str,
    ) -> usize {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let ast =
            syn::parse_file(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", file.display()));
        let path = file
            .strip_prefix(workspace)
            .expect("files of the workspace")
            .to_string_lossy()
            .replace('\\', "/");
        self.files.push(File {
            path,
            top: top.to_string(),
            krate: krate.to_string(),
            used: BTreeSet::new(),
            paths: Vec::new(),
        });
        let file_index = self.files.len() - 1;
        let module = self.new_module(file_index, parent);
        self.add_items(workspace, krate, &ast.items, module, &child_dir, top);
        module
    }

    fn new_module(&mut self, file: usize, parent: Option<usize>) -> usize {
        let index = self.modules.len();
        let root = parent.map_or(index, |p| self.modules[p].root);
        self.modules.push(Module {
            file,
            parent,
            root,
            children: BTreeMap::new(),
            items: BTreeSet::new(),
            imports: Vec::new(),
        });
        index
    }

    fn add_items(
        &mut self,
        workspace: &Path,
        krate: &str,
        items: &[syn::Item],
        module: usize,
        dir: &Path,
        top: &str,
    ) {
        let is_root = self.modules[module].parent.is_none();
        for item in items {
            if is_test_only(item_attrs(item)) {
                continue;
            }
            match item {
                syn::Item::Mod(m) => {
                    let name = m.ident.to_string();
                    let child_top = if is_root && top == "lib" {
                        name.clone()
                    } else {
                        top.to_string()
                    };
                    let child = if let Some((_, inner)) = &m.content {
                        let file = self.modules[module].file;
                        let child = self.new_module(file, Some(module));
                        self.add_items(
                            workspace,
                            krate,
                            inner,
                            child,
                            &dir.join(&name),
                            &child_top,
                        );
                        child
                    } else {
                        let flat = dir.join(format!("{name}.rs"));
                        let nested = dir.join(&name).join("mod.rs");
                        let file = if flat.exists() { flat } else { nested };
                        self.load(
                            workspace,
                            krate,
                            &file,
                            dir.join(&name),
                            Some(module),
                            &child_top,
                        )
                    };
                    self.modules[module].children.insert(name, child);
                }
                syn::Item::Use(u) => {
                    let public = !matches!(u.vis, syn::Visibility::Inherited);
                    let line = u.span().start().line;
                    let mut flat = Vec::new();
                    if u.leading_colon.is_none() {
                        flatten(&u.tree, &mut Vec::new(), &mut flat);
                    }
                    for (path, name) in flat {
                        self.modules[module].imports.push(Import {
                            name,
                            path,
                            public,
                            line,
                        });
                    }
                }
                other => {
                    if let Some(name) = item_name(other) {
                        self.modules[module].items.insert(name);
                    }
                    let file = self.modules[module].file;
                    let mut paths = PathCollector::default();
                    paths.visit_item(other);
                    for (path, name, line) in paths.uses {
                        // A `use` inside a function: bound in its block, counted as the
                        // module's own (the file takes the name all the same).
                        let import = Import {
                            name,
                            path,
                            public: false,
                            line,
                        };
                        self.modules[module].imports.push(import);
                    }
                    let f = &mut self.files[file];
                    f.used.extend(paths.firsts);
                    f.paths
                        .extend(paths.paths.into_iter().map(|(p, l)| (module, p, l)));
                }
            }
        }
    }

    /// The file `module`'s path `segs` leads to, following `use` bindings and
    /// re-exports; `None` where it cannot be told (a macro's name, a prelude's).
    fn resolve(&self, module: usize, segs: &[String], depth: usize) -> Option<Target> {
        if depth > 32 || segs.is_empty() {
            return None;
        }
        let mut current = module;
        let mut rest = segs;
        match segs[0].as_str() {
            "crate" => {
                current = self.modules[module].root;
                rest = &segs[1..];
            }
            "self" => rest = &segs[1..],
            "super" => {
                while rest.first().map(String::as_str) == Some("super") {
                    current = self.modules[current].parent?;
                    rest = &rest[1..];
                }
            }
            first => match self.lookup(module, first, depth + 1) {
                Some(Target::Module(m)) => {
                    current = m;
                    rest = &segs[1..];
                }
                Some(Target::Item(m, name)) => return Some(Target::Item(m, name)),
                Some(Target::External(mut path)) => {
                    path.extend(segs[1..].iter().cloned());
                    return Some(Target::External(path));
                }
                None => return Some(Target::External(segs.to_vec())),
            },
        }
        for (i, seg) in rest.iter().enumerate() {
            match self.lookup(current, seg, depth + 1)? {
                Target::Module(m) => current = m,
                Target::External(mut path) => {
                    path.extend(rest[i + 1..].iter().cloned());
                    return Some(Target::External(path));
                }
                item => return Some(item),
            }
        }
        Some(Target::Module(current))
    }

    /// What `name` means inside `module`: a child module, an item defined there, or a
    /// name it imports (private imports count: child modules may use them).
    fn lookup(&self, module: usize, name: &str, depth: usize) -> Option<Target> {
        let m = &self.modules[module];
        if let Some(&child) = m.children.get(name) {
            return Some(Target::Module(child));
        }
        if m.items.contains(name) {
            return Some(Target::Item(module, name.to_string()));
        }
        if let Some(import) = m.imports.iter().find(|i| i.name.as_deref() == Some(name)) {
            // `use foo::bar` where `foo` is this module's own `bar`'s prefix must not
            // look itself up again: resolve from the module, skipping this binding.
            return self.resolve(module, &import.path, depth + 1);
        }
        for glob in m.imports.iter().filter(|i| i.name.is_none()) {
            if let Some(Target::Module(g)) = self.resolve(module, &glob.path, depth + 1)
                && g != module
                && let Some(found) = self.lookup(g, name, depth + 1)
            {
                return Some(found);
            }
        }
        None
    }

    /// Every name a file takes from another file of its crate.
    pub fn edges(&self) -> Vec<Edge> {
        let mut edges = Vec::new();
        let mut add = |from: usize, target: Option<Target>, name: &str, line: usize| {
            if let Some(Target::Item(m, _)) = target {
                let to = self.modules[m].file;
                if to != from {
                    edges.push(Edge {
                        from,
                        to,
                        name: name.to_string(),
                        line,
                    });
                }
            }
        };
        for (index, module) in self.modules.iter().enumerate() {
            let file = &self.files[module.file];
            for import in &module.imports {
                match &import.name {
                    Some(name) => {
                        // A `pub use` the file's own code never names only passes a name
                        // on: its users are counted against the item's own file.
                        if import.public && !file.used.contains(name) {
                            continue;
                        }
                        add(
                            module.file,
                            self.resolve(index, &import.path, 0),
                            name,
                            import.line,
                        );
                    }
                    None => {
                        if let Some(Target::Module(g)) = self.resolve(index, &import.path, 0) {
                            let target = Some(Target::Item(g, "*".to_string()));
                            add(module.file, target, "*", import.line);
                        }
                    }
                }
            }
        }
        for (from, file) in self.files.iter().enumerate() {
            for (module, path, line) in &file.paths {
                add(
                    from,
                    self.resolve(*module, path, 0),
                    &path.join("::"),
                    *line,
                );
            }
        }
        edges
    }

    /// Every path `file` names outside its crate, through its `use` lines or in its
    /// code, in full (`baffle_core::audit::export::parse_line`), with its line.
    pub fn external_paths(&self, file: usize) -> Vec<(usize, Vec<String>)> {
        let imports = self
            .modules
            .iter()
            .enumerate()
            .filter(|(_, m)| m.file == file)
            .flat_map(|(index, m)| m.imports.iter().map(move |i| (index, &i.path, i.line)));
        let code = self.files[file]
            .paths
            .iter()
            .map(|(module, path, line)| (*module, path, *line));
        imports
            .chain(code)
            .filter_map(|(module, path, line)| match self.resolve(module, path, 0) {
                Some(Target::External(p)) => Some((line, p)),
                _ => None,
            })
            .collect()
    }

    /// Paths in `file`'s code that name an associated item of `tonic::Status`
    /// (`Status::internal(…)`, `tonic::Status::new(…)`): a status built by hand.
    pub fn status_constructions(&self, file: usize) -> Vec<(usize, String)> {
        self.files[file]
            .paths
            .iter()
            .filter(|(module, path, _)| {
                matches!(self.resolve(*module, path, 0),
                    Some(Target::External(p)) if p.len() > 2 && p[0] == "tonic" && p[1] == "Status")
            })
            .map(|(_, path, line)| (*line, path.join("::")))
            .collect()
    }
}

/// `use a::{b, c::d as e, f::*}` as (path, bound name) pairs.
fn flatten(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            if name == "self" {
                out.push((prefix.clone(), prefix.last().cloned()));
            } else {
                let mut path = prefix.clone();
                path.push(name.clone());
                out.push((path, Some(name)));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((path, Some(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix.clone(), None)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten(t, prefix, out);
            }
        }
    }
}

/// Paths written in code: the first identifier of each, and every path of two
/// segments or more (what may name another file's item).
#[derive(Default)]
struct PathCollector {
    firsts: BTreeSet<String>,
    paths: Vec<(Vec<String>, usize)>,
    /// `use` lines inside functions: path, bound name, line.
    uses: Vec<(Vec<String>, Option<String>, usize)>,
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            if let Some(first) = segs.first() {
                self.firsts.insert(first.clone());
            }
            if segs.len() > 1 {
                self.paths.push((segs, path.span().start().line));
            }
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if u.leading_colon.is_none() && !is_test_only(&u.attrs) {
            let mut flat = Vec::new();
            flatten(&u.tree, &mut Vec::new(), &mut flat);
            let line = u.span().start().line;
            self.uses
                .extend(flat.into_iter().map(|(path, name)| (path, name, line)));
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test_only(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test_only(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::TraitAlias(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// `#[cfg(test)]`: code only the tests build.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta
                .require_list()
                .is_ok_and(|l| l.tokens.to_string().trim() == "test")
    })
}
