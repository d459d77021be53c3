//! Writes the lesson index from the lesson files: `$OUT_DIR/lessons.rs` holds each lesson's id,
//! topic and title in teaching order (`src/scenario/lesson_order.txt`) and, for builds that
//! embed them, the files' text. The web app embeds only the index and fetches a lesson's file
//! when it is opened.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scenario");
    println!("cargo:rerun-if-changed={}", dir.join("lesson_order.txt").display());
    println!("cargo:rerun-if-changed={}", dir.join("lessons").display());
    let order = std::fs::read_to_string(dir.join("lesson_order.txt")).expect("src/scenario/lesson_order.txt is readable");
    let (mut index, mut sources) = (String::new(), String::new());
    for id in order.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let path = dir.join("lessons").join(format!("{id}.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let field = |name: &str| v[name].as_str().unwrap_or_else(|| panic!("{}: no {name}", path.display())).to_string();
        assert_eq!(field("id"), id, "{}: the id must match the file name", path.display());
        let _ = writeln!(index, "    Entry {{ id: {:?}, topic: {:?}, title: {:?} }},", id, field("topic"), field("title"));
        let _ = writeln!(sources, "    include_str!({:?}),", path.display().to_string());
    }
    let out = format!(
        "/// Every lesson's id, topic and title, in teaching order.\npub const INDEX: &[Entry] = &[\n{index}];\n\n/// The lessons' files, in the order of [`INDEX`].\n#[cfg(feature = \"embedded-lessons\")]\nconst SOURCES: &[&str] = &[\n{sources}];\n"
    );
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lessons.rs");
    std::fs::write(target, out).expect("the lesson index can be written");
}
