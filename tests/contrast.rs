//! Every text colour in the stylesheets has at least 4.5:1 contrast (WCAG AA) against what it is
//! drawn on, in the light theme and the dark: computed from the stylesheets' own variables and
//! rules, so a new rule or a changed colour is checked too.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;

const APP: &str = include_str!("../static/app.css");
const EDITOR: &str = include_str!("../static/editor.css");
const DIAGRAM: &str = include_str!("../static/diagram.css");

/// The least contrast for text.
const AA: f64 = 4.5;

/// A rule: its selector and its declarations.
struct Rule {
    selector: String,
    decls: Vec<(String, String)>,
}

/// Returns the innermost rules of a stylesheet (those inside `@media` blocks too), without comments.
fn rules(css: &str) -> Vec<Rule> {
    let mut text = String::new();
    let mut rest = css;
    while let Some(i) = rest.find("/*") {
        text.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    text.push_str(rest);
    let (mut out, mut prelude) = (Vec::new(), String::new());
    for c in text.chars() {
        match c {
            '{' => prelude.push('\u{1}'),
            '}' => {
                if let Some(open) = prelude.rfind('\u{1}') {
                    let body = prelude[open + 1..].to_string();
                    let head = prelude[..open].rsplit(['\u{1}', '}', ';']).next().unwrap_or("").trim().to_string();
                    if !body.contains('\u{1}') && !head.starts_with('@') {
                        let decls = body
                            .split(';')
                            .filter_map(|d| d.split_once(':'))
                            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                            .collect();
                        out.push(Rule { selector: head, decls });
                    }
                    prelude.truncate(open);
                    // What was inside is done with: keep only what came before the block's head.
                    let keep = prelude.rfind(['\u{1}', '}', ';']).map_or(0, |k| k + 1);
                    prelude.truncate(keep);
                }
            }
            c => prelude.push(c),
        }
    }
    out
}

/// Returns the custom properties the rule with exactly this selector sets.
fn variables(rules: &[Rule], selector: &str) -> HashMap<String, String> {
    rules.iter().filter(|r| r.selector == selector).flat_map(|r| r.decls.iter().filter(|d| d.0.starts_with("--")).cloned()).collect()
}

/// Returns a colour's relative luminance, if it is a `#rgb` or `#rrggbb` colour.
fn luminance(hex: &str) -> Option<f64> {
    let h = hex.strip_prefix('#')?;
    let full: String = if h.len() == 3 { h.chars().flat_map(|c| [c, c]).collect() } else { h.to_string() };
    if full.len() != 6 {
        return None;
    }
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&full[i..i + 2], 16).ok()?) / 255.0;
        Some(if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) })
    };
    Some(0.2126 * channel(0)? + 0.7152 * channel(2)? + 0.0722 * channel(4)?)
}

fn contrast(a: f64, b: f64) -> f64 {
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

/// Resolves `var(--x)` (again and again) in a theme; returns a hex colour or nothing.
fn resolve(value: &str, theme: &HashMap<String, String>) -> Option<String> {
    let mut v = value.trim().trim_end_matches("!important").trim().to_string();
    for _ in 0..8 {
        match v.strip_prefix("var(").and_then(|r| r.strip_suffix(')')) {
            Some(name) => v = theme.get(name.split(',').next()?.trim())?.clone(),
            None => break,
        }
    }
    v.starts_with('#').then_some(v)
}

/// The themes: the light variables, and the light overridden by the dark.
fn themes(rules: &[Rule], light: &str, dark: &str) -> [(&'static str, HashMap<String, String>); 2] {
    let light = variables(rules, light);
    let mut dark_vars = light.clone();
    dark_vars.extend(variables(rules, dark));
    [("light", light), ("dark", dark_vars)]
}

fn declared<'a>(rule: &'a Rule, name: &str) -> Option<&'a str> {
    rule.decls.iter().rev().find(|d| d.0 == name).map(|d| d.1.as_str())
}

fn check(problems: &mut Vec<String>, theme: &str, vars: &HashMap<String, String>, what: &str, fg: &str, bg: &str) {
    let (Some(f), Some(b)) = (resolve(fg, vars), resolve(bg, vars)) else { return };
    let (Some(lf), Some(lb)) = (luminance(&f), luminance(&b)) else { return };
    let c = contrast(lf, lb);
    if c < AA {
        problems.push(format!("{theme}: {what}: {fg} ({f}) on {bg} ({b}) is {c:.2}:1"));
    }
}

#[test]
fn page_text_has_enough_contrast_in_both_themes() {
    let all: Vec<Rule> = [APP, EDITOR].iter().flat_map(|css| rules(css)).collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (theme, vars) in themes(&all, ":root", "[data-theme=\"dark\"]") {
        for rule in &all {
            let Some(fg) = declared(rule, "color") else { continue };
            // Text on its own background, or on any of the page's surfaces.
            let own = declared(rule, "background").or(declared(rule, "background-color")).filter(|b| resolve(b, &vars).is_some());
            let grounds: Vec<&str> = own.map_or_else(|| vec!["var(--bg)", "var(--surface)", "var(--surface-2)"], |b| vec![b]);
            for bg in grounds {
                checked += 1;
                check(&mut problems, theme, &vars, &rule.selector, fg, bg);
            }
        }
        // Buttons and fields that take the page's ink.
        for bg in ["var(--bg)", "var(--surface)", "var(--surface-2)"] {
            check(&mut problems, theme, &vars, "body text", "var(--ink)", bg);
        }
    }
    assert!(checked > 60, "only {checked} pairs found: the stylesheet was not read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn diagram_text_has_enough_contrast_in_both_themes() {
    let all = rules(DIAGRAM);
    let mut problems = Vec::new();
    let mut checked = 0;
    for (theme, vars) in themes(&all, ".lockstep-diagram", "[data-theme=\"dark\"] .lockstep-diagram") {
        for rule in &all {
            let texty = ["text", ".label", ".tick", ".lane-name", ".gap-label", ".glyph"];
            let Some(fg) = declared(rule, "fill") else { continue };
            for selector in rule.selector.split(',').map(str::trim).filter(|s| texty.iter().any(|t| s.ends_with(t))) {
                // A glyph sits on its mark's dot, a name on its name box, the rest on the paper.
                let bg = if selector.ends_with(".glyph") {
                    let dot = selector.replace(".glyph", ".dot");
                    all.iter()
                        .filter(|r| r.selector.split(',').any(|s| s.trim() == dot))
                        .find_map(|r| declared(r, "fill"))
                        .unwrap_or("var(--paper)")
                } else if selector.ends_with(".lane-name") {
                    "var(--head)"
                } else {
                    "var(--paper)"
                };
                checked += 1;
                check(&mut problems, theme, &vars, selector, fg, bg);
            }
        }
    }
    assert!(checked > 20, "only {checked} pairs found: the stylesheet was not read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_contrast_arithmetic_matches_known_values() {
    let (white, black) = (luminance("#fff").unwrap(), luminance("#000000").unwrap());
    assert!((contrast(white, black) - 21.0).abs() < 1e-9);
    // #767676 on white is the classic 4.54:1.
    assert!((contrast(luminance("#767676").unwrap(), white) - 4.54).abs() < 0.01);
    let parsed = rules("@media (max-width: 9px) { .a { color: #111; } } /* x { } */ .b, .c { fill: var(--ink); }");
    assert_eq!(parsed.iter().map(|r| r.selector.as_str()).collect::<Vec<_>>(), [".a", ".b, .c"]);
}
