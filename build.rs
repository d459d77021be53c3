//! Writes the lesson index from the lesson files: `$OUT_DIR/lessons.rs` holds each lesson's id,
//! topic and title in teaching order (`src/scenario/lesson_order.txt`) and, for builds that
//! embed them, the files' text. The web app embeds only the index and fetches a lesson's file
//! when it is opened. Also writes `$OUT_DIR/diagram.css`: the diagram's style sheet without
//! comments and spare whitespace, as the page and exported SVG files embed it. Sets `cfg(editing)`
//! where the scenario editor is built.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // `editing`: the scenario editor's code is built for the editor's page and natively (where
    // it is tested), never into the player's page.
    println!("cargo::rustc-check-cfg=cfg(editing)");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if std::env::var_os("CARGO_FEATURE_EDITOR").is_some() || !wasm {
        println!("cargo::rustc-cfg=editing");
    }
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
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("lessons.rs"), out).expect("the lesson index can be written");

    let css = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/diagram.css");
    println!("cargo:rerun-if-changed={}", css.display());
    let text = std::fs::read_to_string(&css).expect("static/diagram.css is readable");
    std::fs::write(Path::new(&out_dir).join("diagram.css"), minify_css(&text)).expect("the style sheet can be written");
}

/// Drops comments and whitespace that CSS does not need: runs of whitespace become one space,
/// and none is kept next to `{`, `}`, `;`, `,` or after a declaration's `:`. Quoted strings
/// stay as written.
fn minify_css(css: &str) -> String {
    let (mut out, mut depth, mut quote, mut space) = (String::new(), 0usize, None, false);
    let mut chars = css.chars().peekable();
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            out.push(c);
            if c == q {
                quote = None;
            }
            continue;
        }
        if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            let mut last = ' ';
            for c in chars.by_ref() {
                if last == '*' && c == '/' {
                    break;
                }
                last = c;
            }
            space = true;
            continue;
        }
        if c.is_whitespace() {
            space = true;
            continue;
        }
        let tight = |c: char| matches!(c, '{' | '}' | ';' | ',') || (c == ':' && depth > 0);
        if space && !out.is_empty() && !tight(c) && !out.ends_with(tight) {
            out.push(' ');
        }
        space = false;
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            '"' | '\'' => quote = Some(c),
            _ => {}
        }
        out.push(c);
    }
    out.replace(";}", "}")
}
