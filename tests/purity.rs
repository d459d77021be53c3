//! Keeps the architecture visible: the pure modules name no UI crate, wall clock or hash map and
//! never reach up into the UI; the modules form layers, and no two files import each other in a
//! circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const FORBIDDEN: &[&str] = &["yew", "web_sys", "gloo", "js_sys", "Instant", "SystemTime", "HashMap", "HashSet"];

/// The layers, bottom up: a module may use only its own layer's files and those below.
const LAYERS: &[&[&str]] = &[
    &["limits", "sort"],
    &["engine"],
    &["present"],
    &["error"],
    &["design"],
    &["scenario", "diagram"],
    &["edit", "search", "course"],
    &["ui"],
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Returns the pure files: everything but the browser components, the binaries and the crate root.
fn pure_files() -> Vec<PathBuf> {
    let root = src();
    let mut files = Vec::new();
    for dir in ["engine", "present", "design", "scenario", "diagram", "edit", "search", "course", "ui/panels", "ui/shell"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.extend(
        ["error.rs", "limits.rs", "sort.rs", "ui/player.rs", "ui/route.rs", "ui/drill.rs", "ui/course.rs", "ui/progress.rs"]
            .map(|f| root.join(f)),
    );
    files
}

/// Returns every module's file: the pure ones, and the browser's components and services.
fn all_files() -> Vec<PathBuf> {
    let mut files = pure_files();
    rust_files(&src().join("ui/web"), &mut files);
    files.push(src().join("ui/mod.rs"));
    files
}

fn names(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        !text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            && !text[i + word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn pure_modules_name_no_forbidden_item_and_never_the_ui() {
    let files = pure_files();
    assert!(files.len() > 30, "found only {} files", files.len());
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for word in FORBIDDEN {
            if names(&text, word) {
                offences.push(format!("{} names {word}", file.display()));
            }
        }
        let in_ui = file.starts_with(src().join("ui"));
        if !in_ui && (text.contains("crate::ui") || text.contains("lockstep::ui")) {
            offences.push(format!("{} reaches into the UI", file.display()));
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}

/// A source file as a module path: `engine::msg`, or `engine` for `engine/mod.rs`.
fn module_of(file: &Path) -> String {
    let rel = file.strip_prefix(src()).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// Returns the code of a file without comments and without its unit tests (which sit at the
/// end, after `#[cfg(test)]`).
fn code(file: &Path) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// A module graph over the pure files: which module every `crate::…` and `super::…` path in a
/// file reaches. `mod.rs` files are facades (declarations and re-exports); a path through one
/// reaches the file its name is re-exported from.
struct Graph {
    modules: BTreeSet<String>,
    /// For each facade, re-exported name → module.
    reexports: BTreeMap<String, BTreeMap<String, String>>,
}

impl Graph {
    fn new(files: &[PathBuf]) -> Graph {
        let modules: BTreeSet<String> = files.iter().map(|f| module_of(f)).collect();
        let mut reexports = BTreeMap::new();
        for f in files.iter().filter(|f| f.ends_with("mod.rs")) {
            let module = module_of(f);
            let mut map = BTreeMap::new();
            for line in code(f).lines().filter_map(|l| l.trim().strip_prefix("pub use ")) {
                let line = line.trim_end_matches(';');
                let (path, items) = match line.split_once("::{") {
                    Some((p, rest)) => (p.to_string(), rest.trim_end_matches('}').split(',').map(|s| s.trim().to_string()).collect()),
                    None => {
                        let (p, item) = line.rsplit_once("::").unwrap();
                        (p.to_string(), vec![item.to_string()])
                    }
                };
                for item in items.into_iter().filter(|i| !i.is_empty()) {
                    map.insert(item, format!("{module}::{path}"));
                }
            }
            reexports.insert(module, map);
        }
        Graph { modules, reexports }
    }

    /// Resolves path segments (from the crate root) to the module file they reach.
    fn resolve(&self, segments: &[String]) -> Option<String> {
        let mut at = String::new();
        for seg in segments {
            let next = if at.is_empty() { seg.clone() } else { format!("{at}::{seg}") };
            if self.modules.contains(&next) {
                at = next;
                continue;
            }
            if let Some(target) = self.reexports.get(&at).and_then(|m| m.get(seg)) {
                return self.resolve(&target.split("::").map(String::from).collect::<Vec<_>>());
            }
            break;
        }
        (!at.is_empty()).then_some(at)
    }

    /// Returns every module a file's code reaches.
    fn uses(&self, file: &Path) -> BTreeSet<String> {
        let me = module_of(file);
        let base: Vec<String> = me.split("::").map(String::from).collect();
        // A `mod.rs` file's `super` is its parent; any other file's is its own directory.
        let dir_depth = if file.ends_with("mod.rs") { base.len() } else { base.len() - 1 };
        let text = code(file);
        let mut out = BTreeSet::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            let rest = &text[i..];
            let start = if rest.starts_with("crate::") && !text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                Some((Vec::new(), 7))
            } else if rest.starts_with("super::") && !text[..i].ends_with(|c: char| c.is_alphanumeric() || c == ':') {
                let mut supers = 0;
                let mut j = 0;
                while text[i + j..].starts_with("super::") {
                    supers += 1;
                    j += 7;
                }
                Some((base[..(dir_depth + 1).saturating_sub(supers)].to_vec(), j))
            } else {
                None
            };
            let Some((mut path, skip)) = start else {
                i += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            };
            let mut j = i + skip;
            // Read `a::b::c`, then an optional `::{x, y::z}` group.
            loop {
                let end = text[j..].find(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(text.len(), |e| j + e);
                if end > j {
                    path.push(text[j..end].to_string());
                }
                j = end;
                if text[j..].starts_with("::{") {
                    let close = text[j..].find('}').map_or(text.len(), |c| j + c);
                    for item in text[j + 3..close].split(',') {
                        let item: Vec<String> =
                            item.trim().split("::").map(|s| s.trim().to_string()).filter(|s| !s.is_empty() && s != "self").collect();
                        out.extend(self.resolve(&[path.clone(), item].concat()));
                    }
                    j = close;
                    break;
                }
                if text[j..].starts_with("::") && bytes.get(j + 2).is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_') {
                    j += 2;
                    continue;
                }
                break;
            }
            out.extend(self.resolve(&path));
            i = j.max(i + 1);
        }
        out.remove(&me);
        out.retain(|m| !self.reexports.contains_key(m));
        out
    }
}

fn layer(module: &str) -> usize {
    let top = module.split("::").next().unwrap();
    LAYERS.iter().position(|l| l.contains(&top)).unwrap_or_else(|| panic!("{module} is in no layer"))
}

#[test]
fn modules_form_layers_without_import_circles() {
    let (files, pure) = (all_files(), pure_files());
    let graph = Graph::new(&files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut offences = Vec::new();
    for f in &files {
        let me = module_of(f);
        if f.ends_with("mod.rs") && pure.contains(f) {
            // A facade declares and re-exports; code lives in files named for what they hold.
            for word in ["fn ", "struct ", "enum ", "trait ", "impl ", "const ", "static "] {
                if code(f).lines().any(|l| !l.trim_start().starts_with("//") && l.contains(word)) {
                    offences.push(format!("{me}/mod.rs holds code (`{}`)", word.trim()));
                }
            }
            continue;
        }
        for used in graph.uses(f) {
            if layer(&used) > layer(&me) {
                offences.push(format!("{me} reaches up into {used}"));
            }
            edges.entry(me.clone()).or_default().insert(used);
        }
    }
    assert!(edges.len() > 30, "the graph has only {} files with imports: {edges:#?}", edges.len());
    assert!(edges["design::lease"].contains("engine::protocol") && edges["engine::trace"].contains("engine::checker"));
    assert!(edges["ui::web::app"].contains("ui::shell::binding"), "the browser's components are in the graph");
    // Depth-first search for a circle.
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<String>,
    ) {
        if let Some(start) = path.iter().position(|p| p == n) {
            out.push(format!("circle: {} → {n}", path[start..].join(" → ")));
            return;
        }
        if !done.insert(n.to_string()) {
            return;
        }
        path.push(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            visit(m, edges, path, done, out);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    for n in edges.keys() {
        visit(n, &edges, &mut Vec::new(), &mut done, &mut offences);
    }
    assert!(offences.is_empty(), "{offences:#?}");
}

/// Words of Mermaid's syntax, which the Mermaid writer may spell out.
const MERMAID_SYNTAX: &[&str] = &["Note", "over", "participant", "as", "sequenceDiagram"];

/// Marks of a statement that builds an error: its problem is worded where the field is checked.
const ERROR_MARKS: &[&str] = &["err(", "Err(", "ScenarioError", "unknown(", "invalid(", "error(", "problem", "expect(", "panic!("];

/// Returns the string literals of a piece of code (plain and raw) with where each ends, in order;
/// character literals and lifetimes are passed over.
fn literals(code: &str) -> Vec<(String, usize)> {
    let (mut out, bytes, mut i) = (Vec::new(), code.as_bytes(), 0);
    while i < bytes.len() {
        let raw = bytes[i..].starts_with(b"r#\"");
        if bytes[i] == b'\'' {
            // A character literal ('x', '\n', '\u{1}', '…') ends at the next quote; a lifetime has none.
            let close = code[i + 1..].char_indices().take(12).find(|&(_, c)| c == '\'').map(|(k, _)| i + 1 + k);
            i = match close {
                Some(end) if bytes[i + 1] == b'\\' || code[i + 1..end].chars().count() == 1 => end + 1,
                _ => i + 1,
            };
        } else if raw || bytes[i] == b'"' {
            let start = i + if raw { 3 } else { 1 };
            let mut end = start;
            while end < bytes.len() && !(if raw { bytes[end..].starts_with(b"\"#") } else { bytes[end] == b'"' }) {
                end += if !raw && bytes[end] == b'\\' { 2 } else { 1 };
            }
            let end = end.min(bytes.len());
            out.push((String::from_utf8_lossy(&bytes[start..end]).into_owned(), end));
            i = end + if raw { 2 } else { 1 };
        } else {
            i += 1;
        }
    }
    out
}

/// Says whether a literal is text for people: after its placeholders, tags and attributes are
/// taken out (keeping an `aria-label` or `title`, which people read), it has a word of three
/// letters or more, is not a field path or an id, and is not Mermaid's syntax.
fn is_text(literal: &str) -> bool {
    let mut read = String::new();
    for attr in ["aria-label=\"", "title=\""] {
        for (at, _) in literal.match_indices(attr) {
            let rest = &literal[at + attr.len()..];
            read.push_str(&rest[..rest.find('"').unwrap_or(rest.len())]);
            read.push(' ');
        }
    }
    let mut depth = 0;
    for c in literal.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            c if depth == 0 => read.push(c),
            _ => {}
        }
    }
    let mut text = String::new();
    let mut braces = 0;
    for c in read.replace("{{", "(").replace("}}", ")").chars() {
        match c {
            '{' => braces += 1,
            '}' if braces > 0 => {
                braces -= 1;
                text.push('_');
            }
            c if braces == 0 => text.push(c),
            _ => {}
        }
    }
    // A field path, an id, an entity, a constant's name or a type's.
    let camel = text.chars().skip(1).any(|c| c.is_ascii_uppercase()) && text.chars().all(|c| c.is_ascii_alphanumeric());
    let upper = text.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    let id_like = camel || upper || text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_-[].:/#&;".contains(c));
    let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| w.len() >= 3).collect();
    !id_like && !words.is_empty() && !words.iter().all(|w| MERMAID_SYNTAX.contains(w))
}

/// Splits code into items: each function, constant, static, impl header or macro invocation at
/// the top level (a table of declarations) starts a new one.
fn items(code: &str) -> Vec<String> {
    let starts = ["fn ", "pub fn ", "pub(crate) fn ", "pub(super) fn ", "const ", "pub const ", "static ", "pub static ", "impl "];
    let mut out = vec![String::new()];
    for line in code.lines() {
        let invocation = line.ends_with("! {") && !line.starts_with(' ');
        if invocation || starts.iter().any(|s| line.trim_start().starts_with(s)) {
            out.push(String::new());
        }
        let item = out.last_mut().unwrap();
        item.push_str(line);
        item.push('\n');
    }
    out
}

#[test]
fn diagram_and_scenario_write_no_text_for_people() {
    // Text for people comes from `present/` or a design's vocabulary. What is left here: the
    // problems of errors, worded where a field is checked; declarations (constants, statics,
    // tables declared by a macro, and functions that return a `&'static str`, such as a
    // schedule's title); and markup.
    let mut files = Vec::new();
    for dir in ["diagram", "scenario"] {
        rust_files(&src().join(dir), &mut files);
    }
    let mut offences = Vec::new();
    for file in &files {
        for item in items(&code(file)) {
            let head = item.lines().next().unwrap_or_default().trim_start();
            let declaration =
                head.starts_with("const ") || head.starts_with("pub const ") || head.contains("static ") || head.ends_with("! {");
            let words_an_error = ["fn error(", "fn in_error(", "fn err", "fn invalid", "fn problem("].iter().any(|m| head.contains(m));
            if declaration || words_an_error || head.contains("-> &'static str") {
                continue;
            }
            // A statement ends at a semicolon outside its literals.
            let found = literals(&item);
            // The signature is not part of the first statement (it may name an error type).
            let mut from = if head.contains("fn ") { item.find('{').unwrap_or(0) } else { 0 };
            let ends = item.match_indices(';').map(|(at, _)| at).filter(|at| !found.iter().any(|(l, e)| e - l.len() <= *at && at < e));
            for end in ends.chain([item.len()]) {
                let statement = &item[from..end];
                from = end;
                if !ERROR_MARKS.iter().any(|m| statement.contains(m)) {
                    let text = literals(statement).into_iter().map(|(l, _)| l).filter(|l| is_text(l));
                    offences.extend(text.map(|l| format!("{}: {l:?}", module_of(file))));
                }
            }
        }
    }
    assert!(files.len() > 10, "read only {} files", files.len());
    assert!(is_text("paused {}") && is_text(r#"<text class="x">≈ {} idle</text>"#) && is_text(r#"aria-label="Sequence diagram: {}""#));
    assert!(!is_text("faults[{i}].at_ms") && !is_text(r#"<g class="lane lane--client">"#) && !is_text("    Note over {me}: {}"));
    assert!(offences.is_empty(), "{offences:#?}");
}
