//! The code's shape, held: no source file over 500 lines outside its tests, no function over
//! 80 lines, and no two public types with one name (a name has one home, which the README's map
//! gives).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

const MAX_FILE_LINES: usize = 500;
const MAX_FN_LINES: usize = 80;

/// Every Rust file under `dir`, sorted.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The source files the rules hold for: the crate and the conformance suite, less files that
/// hold only tests.
fn sources() -> Vec<(String, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "conformance/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    files
        .into_iter()
        .filter(|f| f.file_name().is_some_and(|n| n != "tests.rs"))
        .map(|f| {
            let text = fs::read_to_string(&f).unwrap();
            // A file's own tests come last, after `#[cfg(test)]` at the top level.
            let lines: Vec<String> = text.lines().take_while(|l| !l.starts_with("#[cfg(test)]")).map(str::to_string).collect();
            (f.strip_prefix(root).unwrap().display().to_string(), lines)
        })
        .collect()
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Each function with a body in `lines`: its name, first line and length in lines (from its
/// signature to the brace that closes it at the signature's indentation).
fn functions(lines: &[String]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        let code = ["pub(crate) ", "pub(super) ", "pub "].iter().fold(code, |c, p| c.strip_prefix(p).unwrap_or(c));
        let code = ["const ", "async ", "unsafe "].iter().fold(code, |c, p| c.strip_prefix(p).unwrap_or(c));
        let Some(rest) = code.strip_prefix("fn ") else { continue };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let Some(open) = lines[i..].iter().position(|l| l.contains('{') || l.trim_end().ends_with(';')) else { continue };
        if !lines[i + open].contains('{') || lines[i + open].trim_end().ends_with('}') {
            continue;
        }
        let close = lines[i + open + 1..].iter().position(|l| indent(l) == indent(line) && l.trim_start().starts_with('}'));
        if let Some(close) = close {
            out.push((name, i + 1, open + close + 2));
        }
    }
    out
}

#[test]
fn no_file_over_500_lines_outside_its_tests() {
    let files = sources();
    assert!(files.len() > 100, "read only {} files", files.len());
    let long: Vec<String> =
        files.iter().filter(|(_, lines)| lines.len() > MAX_FILE_LINES).map(|(f, lines)| format!("{f}: {} lines", lines.len())).collect();
    assert!(long.is_empty(), "files over {MAX_FILE_LINES} lines: {long:#?}");
}

#[test]
fn no_function_over_80_lines() {
    let mut long = Vec::new();
    let mut seen = 0;
    for (file, lines) in sources() {
        for (name, at, length) in functions(&lines) {
            seen += 1;
            if length > MAX_FN_LINES {
                long.push(format!("{file}:{at} {name}: {length} lines"));
            }
        }
    }
    assert!(seen > 1_000, "found only {seen} functions");
    assert!(long.is_empty(), "functions over {MAX_FN_LINES} lines: {long:#?}");
}

#[test]
fn the_measure_of_a_function_counts_its_lines() {
    let code: Vec<String> =
        "fn short() {}\n/// Doc.\npub fn two(\n    a: u8,\n) -> u8 {\n    a\n}\nfn decl();\n".lines().map(str::to_string).collect();
    assert_eq!(functions(&code), vec![("two".to_string(), 3, 5)]);
}

/// Every public type's name and the files that declare one by it.
fn homes() -> BTreeMap<String, Vec<String>> {
    let mut homes: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (file, lines) in sources() {
        for line in &lines {
            let code = line.trim_start();
            for kind in ["pub struct ", "pub enum ", "pub trait ", "pub type "] {
                if let Some(rest) = code.strip_prefix(kind) {
                    let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    homes.entry(name).or_default().push(file.clone());
                }
            }
        }
    }
    homes
}

#[test]
fn the_readme_names_each_public_types_home() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let table = readme
        .split("<!-- types: start -->")
        .nth(1)
        .and_then(|t| t.split("<!-- types: end -->").next())
        .expect("the README's map of types");
    let mut listed = Vec::new();
    for row in table.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let file = cells[1].trim_matches('`');
        listed.extend(cells[2].split(", ").map(|n| (n.trim_matches('`').to_string(), file.to_string())));
    }
    let mut declared: Vec<(String, String)> =
        homes().into_iter().flat_map(|(name, files)| files.into_iter().map(move |f| (name.clone(), f))).collect();
    declared.dedup();
    listed.sort();
    declared.sort();
    let missing: Vec<_> = declared.iter().filter(|d| !listed.contains(d)).collect();
    let stale: Vec<_> = listed.iter().filter(|l| !declared.contains(l)).collect();
    assert!(missing.is_empty() && stale.is_empty(), "the README's map of types: missing {missing:#?}, no longer there {stale:#?}");
}

#[test]
fn no_two_public_types_share_a_name() {
    let homes = homes();
    assert!(homes.len() > 150, "found only {} public types", homes.len());
    // One type may have two definitions in one file, one for each side of a build option (the
    // player's build has no editor).
    let shared: Vec<String> = homes
        .iter()
        .filter(|(_, files)| files.len() > 1 && files.iter().any(|f| f != &files[0]))
        .map(|(name, files)| format!("{name}: {}", files.join(", ")))
        .collect();
    assert!(shared.is_empty(), "public types that share a name: {shared:#?}");
}
