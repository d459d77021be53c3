//! Every declared kind of fault and script step, taken from the declarations themselves (nothing
//! listed by hand): each reads back from the document it is written as, with its starting values
//! and with every field changed; each field is in the editor; each kind the search claims is
//! the kind it adds; and the command line's help names them all.

use lockstep::edit::{self, start, Edit};
use lockstep::engine::msg::ReleaseMode;
use lockstep::scenario::encode::scenario as written;
use lockstep::scenario::faults::FAULTS;
use lockstep::scenario::field::{FieldKind, FieldValue};
use lockstep::scenario::json::Value;
use lockstep::scenario::steps::{self, STEPS};
use lockstep::scenario::{format::Fault, lessons, validate, Scenario};
use lockstep::search::{Added, Class, Cut};
use lockstep::ui::panels;
use std::process::Command;

/// A lesson with clients, a lock service and a resource, whose design releases safely.
const LESSON: &str = "lease-race-fenced";

/// Checks a scenario, then writes it and reads that again: both must give the same scenario.
fn round_trip(scenario: &Scenario) -> Scenario {
    validate::compile(scenario).unwrap_or_else(|e| panic!("{e}"));
    let again = written(scenario);
    let (reread, _) = validate::load_doc(&again).unwrap_or_else(|e| panic!("written back: {e}"));
    assert_eq!(written(&reread), again, "reading the written document gives the same scenario");
    reread
}

/// Another valid value for a field: a time 7 ms later (or sooner), a flag flipped, another text.
fn changed(kind: FieldKind, value: &FieldValue) -> Option<Value> {
    Some(match (kind, value) {
        (FieldKind::Ms { max, .. }, FieldValue::Ms(v)) => Value::Number((if *v + 7 <= max { v + 7 } else { v - 7 }).to_string()),
        (_, FieldValue::Flag(b)) => Value::Bool(!b),
        (_, FieldValue::Text(t)) => Value::String(format!("{t}2")),
        _ => return None,
    })
}

#[test]
fn every_fault_kind_reads_back_as_written_and_is_in_the_editor() {
    let lesson = lessons::find(LESSON).unwrap();
    for kind in FAULTS {
        let fault = start::fault(kind.tag, &lesson.scenario, 120, None).unwrap_or_else(|| panic!("{}: a new one fits", kind.tag));
        let with = edit::apply(&lesson.scenario, &Edit::AddFault(fault)).unwrap();
        let scenario = round_trip(&with);
        let i = scenario.faults.len() - 1;
        let read: &Fault<String> = &scenario.faults[i];
        assert_eq!(read.decl().tag, kind.tag);
        assert_eq!(read.values().len(), kind.fields.len(), "{}: a value for every declared field", kind.tag);
        // Every field changed at once still reads back, each to its new value.
        let mut edited = with.clone();
        for (f, v) in kind.fields.iter().zip(read.values()) {
            if let Some(new) = changed(f.kind, &v) {
                edited = edit::apply(&edited, &Edit::Set { path: format!("faults[{i}].{}", f.name), value: Some(new) }).unwrap();
            }
        }
        let after = round_trip(&edited);
        for ((f, before), now) in kind.fields.iter().zip(read.values()).zip(after.faults[i].values()) {
            if changed(f.kind, &before).is_some() {
                assert_ne!(before, now, "{}.{}: the changed value is read", kind.tag, f.name);
            }
        }
        // Every field is a field of the editor, and a listed kind has its button.
        let editor = panels::editor(&after, &editor_state()).concat();
        for f in kind.fields {
            let path = format!(r#"{}="faults[{i}].{}""#, panels::EDIT_ATTRIBUTE, f.name);
            assert!(editor.contains(&path), "{}: the editor shows {}", kind.tag, f.name);
        }
        assert!(editor.contains(kind.label), "{}: the editor names it", kind.tag);
        assert_eq!(editor.contains(&format!(r#"data-action="add-fault:{}""#, kind.tag)), kind.listed, "{}", kind.tag);
    }
}

#[test]
fn every_step_kind_reads_back_as_written_and_is_in_the_editor() {
    let lesson = lessons::find(LESSON).unwrap();
    let mut with = lesson.scenario.clone();
    let lockstep::scenario::format::Participant::Client { script, .. } = &mut with.participants[0] else { panic!("a client first") };
    *script = STEPS.iter().map(|k| start::step(k.tag, ReleaseMode::Safe).unwrap()).collect();
    // A compensation needs a resource that keeps rows.
    let with = edit::apply(&with, &Edit::Set { path: "participants[2].mode".into(), value: Some(Value::String("unique".into())) }).unwrap();
    let scenario = round_trip(&with);
    let lockstep::scenario::format::Participant::Client { script, .. } = &scenario.participants[0] else { panic!("a client first") };
    let editor = panels::editor(&scenario, &editor_state()).concat();
    for (j, (kind, step)) in STEPS.iter().zip(script).enumerate() {
        assert_eq!(steps::kind_of(step).tag, kind.tag);
        assert_eq!(steps::values_of(step).len(), kind.fields.len());
        assert!(editor.contains(&format!(r#"<option value="{}""#, kind.tag)), "{}: a choice of the step menu", kind.tag);
        for f in kind.fields {
            let path = format!(r#"{}="participants[0].script[{j}].{}""#, panels::EDIT_ATTRIBUTE, f.name);
            assert!(editor.contains(&path), "{}: the editor shows {}", kind.tag, f.name);
        }
    }
}

#[test]
fn the_search_adds_exactly_the_kinds_declared_as_searched() {
    let lesson = lessons::find(LESSON).unwrap();
    let mut added: Vec<&str> = Vec::new();
    for class in Class::ALL {
        let mut s = lesson.scenario.clone();
        s.faults.clear();
        let one = match class {
            Class::Pause => Added::Pause { at_ms: 10, node: "A".into(), ms: 100 },
            Class::DelayMessage => Added::DelayMessage { at_ms: 10, from: "A".into(), to: "L".into(), ms: 100 },
            Class::Partition => Added::Partition { at_ms: 10, node: "A".into(), cut: Cut::Both, ms: 100 },
            Class::Crash => Added::Crash { at_ms: 10, node: "L".into(), ms: 100 },
            Class::ClockJump => Added::ClockJump { at_ms: 10, node: "L".into(), ms: 100 },
            Class::Drift => Added::Drift { node: "L".into(), ppm: 1_000 },
        };
        assert_eq!(one.class(), class);
        one.apply(&mut s);
        assert_eq!(class.fault().is_some(), !s.faults.is_empty(), "{}: adds a fault, unless it is a clock's drift", class.tag());
        if let Some(kind) = class.fault() {
            assert_eq!(s.faults[0].decl().tag, kind.tag, "{}: adds the kind it names", class.tag());
            assert_eq!(class.tag(), kind.tag, "one spelling");
        }
        added.extend(s.faults.iter().map(|f| f.decl().tag));
        assert_eq!(serde_json::to_value(class).unwrap(), serde_json::json!(class.tag()), "a report names it by its tag");
    }
    added.sort_unstable();
    added.dedup();
    let mut declared: Vec<&str> = FAULTS.iter().filter(|k| k.searched).map(|k| k.tag).collect();
    declared.sort_unstable();
    assert_eq!(added, declared);
}

#[test]
fn the_command_line_names_every_kind_and_field() {
    let run = |arg: &str| String::from_utf8(Command::new(env!("CARGO_BIN_EXE_lockstep")).arg(arg).output().unwrap().stdout).unwrap();
    let help = run("--help");
    for class in Class::ALL {
        assert!(help.contains(class.tag()), "--help names {}", class.tag());
    }
    let listed = run("faults");
    for (tag, fields) in FAULTS.iter().map(|k| (k.tag, k.fields)).chain(STEPS.iter().map(|k| (k.tag, k.fields))) {
        assert!(listed.lines().any(|l| l.starts_with(tag)), "`lockstep faults` lists {tag}");
        for f in fields {
            assert!(listed.contains(&format!("    {:<12}", f.name)), "`lockstep faults` lists {tag}.{}", f.name);
        }
    }
}

/// The editor as it opens, with the first client's script unfolded.
fn editor_state() -> panels::EditorState<'static> {
    panels::EditorState { close: "../", touched: Some("participants[0].script"), ..Default::default() }
}
