//! Keeps the engine, scenario and diagram code pure: no UI crates, no wall clocks, no hash maps.

use std::path::Path;

const FORBIDDEN: &[&str] = &["yew", "web_sys", "gloo", "js_sys", "Instant", "SystemTime", "HashMap", "HashSet"];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn pure_modules_name_no_forbidden_item() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["engine", "scenario", "diagram"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 15, "found only {} files", files.len());
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for word in FORBIDDEN {
            let named = text
                .match_indices(word)
                .any(|(i, _)| !text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                    && !text[i + word.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'));
            if named {
                offences.push(format!("{} names {word}", file.display()));
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}
