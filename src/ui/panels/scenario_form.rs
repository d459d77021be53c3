//! The "What if…" editor as HTML text: the scenario's numbers as labelled fields, generated from
//! the scenario and its design's declared parameters. Each field names its field path in
//! [`EDIT_ATTRIBUTE`] and how to read it in `data-kind`; each button names its action in
//! `data-action`. One handler on the page turns either into an edit (see [`crate::edit`]).

use super::{Escaped, KEYS_HELP};
use crate::design::registry::REGISTRY;
use crate::design::{ParamKind, ParamValue};
use crate::edit::input::Input;
use crate::edit::variant::Variant;
use crate::engine::msg::ReleaseMode;
use crate::engine::spec::ResourceMode;
use crate::engine::spec::Step;
use crate::error::ScenarioError;
use crate::limits::{MAX_PARTICIPANTS, MAX_STEPS};
use crate::scenario::faults::{DELAY_MESSAGE, FAULTS};
use crate::scenario::field::{Field, FieldKind, FieldValue};
use crate::scenario::format::{Fault, Participant, Scenario};
use crate::scenario::steps::{self, STEPS};
use crate::scenario::tags::Tagged;
use std::fmt::Write;

/// The attribute of a field that holds its path in the scenario document.
pub const EDIT_ATTRIBUTE: &str = "data-edit";

/// What the editor shows besides the scenario (by default: nothing edited yet).
#[derive(Default)]
pub struct EditorState<'a> {
    /// How the run's outcome differs from the original's.
    pub outcome: &'a str,
    /// The last edit that could not be made.
    pub problem: Option<&'a ScenarioError>,
    /// The field whose change was refused, if the problem came from a field's edit: marked
    /// when the problem names no field of its own (a whole script, the participants).
    pub refused: Option<&'a str>,
    /// Why the scenario has no link, if it has none.
    pub link_problem: Option<&'a ScenarioError>,
    /// How many edits undo and redo can step over.
    pub depth: (usize, usize),
    pub edited: bool,
    /// Where the Close link goes: the player's page for this run.
    pub close: &'a str,
    /// What the last change of design had to change besides.
    pub notes: &'a [String],
    /// The field path of the last edit, whose client's script stays open.
    pub touched: Option<&'a str>,
    /// The fault picked on the diagram.
    pub selected: Option<usize>,
    /// The kind of fault a click on a lifeline adds.
    pub tool: Option<&'a str>,
    /// The message at the cursor that a fault could drop or delay: its sending event and words.
    pub message: Option<(usize, String)>,
    /// The variant drawn beside the run.
    pub beside: Option<Variant>,
}

/// A number field: `label`, its unit, and an optional range.
fn number(s: &mut String, path: &str, value: &str, label: &str, unit: &str, range: Option<(i64, i64)>) {
    let range = range.map_or(String::new(), |(min, max)| format!(r#" min="{min}" max="{max}""#));
    let _ = write!(
        s,
        r#"<label class="field"><span>{}{}</span><input type="number" {EDIT_ATTRIBUTE}="{}" data-kind="{}" value="{}"{range} step="1"/></label>"#,
        Escaped(label),
        if unit.is_empty() { String::new() } else { format!(" <small>{}</small>", Escaped(unit)) },
        Escaped(path),
        Input::Number.attr(),
        Escaped(value)
    );
}

/// A choice among `options` (name, label). (The design's choice is read as a switch of design.)
fn choice(s: &mut String, (path, input): (&str, Input), value: &str, label: &str, options: impl Iterator<Item = (String, String)>) {
    let _ = write!(
        s,
        r#"<label class="field"><span>{}</span><select {EDIT_ATTRIBUTE}="{}" data-kind="{}">"#,
        Escaped(label),
        Escaped(path),
        input.attr()
    );
    for (name, text) in options {
        let selected = if name == value { " selected=\"\"" } else { "" };
        let _ = write!(s, r#"<option value="{}"{selected}>{}</option>"#, Escaped(&name), Escaped(&text));
    }
    s.push_str("</select></label>");
}

/// A yes/no field.
fn flag(s: &mut String, path: &str, on: bool, label: &str) {
    let _ = write!(
        s,
        r#"<label class="field field--flag"><input type="checkbox" {EDIT_ATTRIBUTE}="{}" data-kind="{}"{}/><span>{}</span></label>"#,
        Escaped(path),
        Input::Flag.attr(),
        if on { " checked=\"\"" } else { "" },
        Escaped(label)
    );
}

/// A text field; `input` is text, or a list for comma-separated ids.
fn text(s: &mut String, path: &str, value: &str, label: &str, input: Input) {
    let _ = write!(
        s,
        r#"<label class="field"><span>{}</span><input type="text" {EDIT_ATTRIBUTE}="{}" data-kind="{}" value="{}" maxlength="200"/></label>"#,
        Escaped(label),
        Escaped(path),
        input.attr(),
        Escaped(value)
    );
}

fn button(s: &mut String, action: &str, label: &str, enabled: bool) {
    let _ = write!(
        s,
        r#"<button class="btn btn--small" data-action="{}" data-testid="{}"{}>{}</button>"#,
        Escaped(action),
        Escaped(action),
        if enabled { "" } else { " disabled=\"\"" },
        Escaped(label)
    );
}

/// The editor for `scenario`, in parts, each whole HTML: its head, then the lock, the
/// participants, the network and the faults. The page keeps a part that has not changed, so an
/// edit redraws only its own part (a long script's fields are not parsed again for a fault's).
pub fn editor(scenario: &Scenario, state: &EditorState) -> [String; 5] {
    let mut parts: [String; 5] = Default::default();
    parts[0].push_str(r#"<div class="edit-head"><h2>What if…</h2>"#);
    head(&mut parts[0], scenario, state);
    lock_fields(&mut parts[1], scenario);
    participant_fields(&mut parts[2], scenario, state);
    network_fields(&mut parts[3], scenario);
    fault_fields(&mut parts[4], scenario, state);
    if let Some(e) = state.problem {
        // A problem that names no field marks the field whose change it refused.
        if !mark_invalid(&mut parts, &e.path) {
            if let Some(field) = state.refused {
                mark_invalid(&mut parts, field);
            }
        }
    }
    parts
}

/// Marks the field at `path` as invalid and described by the problem; says whether there is one.
fn mark_invalid(parts: &mut [String], path: &str) -> bool {
    let field = format!(r#"{EDIT_ATTRIBUTE}="{}""#, Escaped(path));
    let found = parts.iter().enumerate().find_map(|(i, p)| p.find(&field).map(|at| (i, at + field.len())));
    if let Some((part, at)) = found {
        parts[part].insert_str(at, r#" aria-invalid="true" aria-describedby="edit-problem""#);
    }
    found.is_some()
}

/// The scenario's own words, for a teacher to present it with: its title, its setup (said
/// before the run, what happens before the fault) and its takeaway (said at the end).
fn words_fields(s: &mut String, scenario: &Scenario) {
    s.push_str(r#"<details class="edit-words" data-testid="edit-words"><summary>Your words: title, setup, takeaway</summary>"#);
    text(s, "title", &scenario.title, "title", Input::Text);
    for (path, label, value, hint) in [
        ("intro", "setup", &scenario.intro, "What happens before the fault, not what it causes"),
        ("takeaway", "takeaway", &scenario.takeaway, "What the run shows, said at its end"),
    ] {
        let _ = write!(
            s,
            r#"<label class="field field--wide"><span>{label}</span><textarea {EDIT_ATTRIBUTE}="{path}" data-kind="{}" rows="3" maxlength="4000" placeholder="{hint}">{}</textarea></label>"#,
            Input::Text.attr(),
            Escaped(value)
        );
    }
    s.push_str("</details>");
}

/// The editor's head: Close, the outcome, notes and problems, the actions, your words, and what
/// to draw beside the run.
fn head(s: &mut String, scenario: &Scenario, state: &EditorState) {
    let _ = write!(s, r#"<a class="btn btn--small" href="{}" data-testid="stop-edit">Close</a>"#, Escaped(state.close));
    // The outcome, and a refused change's problem, stay in view while the editor scrolls.
    let _ =
        write!(s, r#"</div><div class="edit-status"><p class="edit-outcome" data-testid="edit-outcome">{}</p>"#, Escaped(state.outcome));
    if let Some(e) = state.problem {
        let _ = write!(
            s,
            r#"<p class="edit-problem" id="edit-problem" role="alert" data-testid="edit-problem">Not changed: {}</p>"#,
            Escaped(&e.to_string())
        );
    }
    s.push_str("</div>");
    if !state.notes.is_empty() {
        s.push_str(r#"<ul class="edit-notes" data-testid="edit-notes">"#);
        for note in state.notes {
            let _ = write!(s, "<li>{}</li>", Escaped(note));
        }
        s.push_str("</ul>");
    }
    s.push_str(r#"<div class="edit-actions">"#);
    button(s, "undo", "↶ Undo", state.depth.0 > 0);
    button(s, "redo", "↷ Redo", state.depth.1 > 0);
    button(s, "reset", "Reset", state.edited);
    button(s, "copy-link", "Copy link", state.link_problem.is_none());
    let _ = write!(
        s,
        r#"<select class="btn btn--small" {EDIT_ATTRIBUTE}="new" data-kind="{}" data-testid="new" aria-label="Start a blank scenario for a design"><option value="">New…</option>"#,
        Input::New.attr()
    );
    for k in REGISTRY {
        let _ = write!(s, r#"<option value="{}">{}</option>"#, Escaped(k.tag()), Escaped(k.title()));
    }
    s.push_str("</select>");
    s.push_str(r#"<label class="btn btn--small" title="Open a scenario JSON file; you can also drop one on the page or paste its text">Open a file…<input type="file" accept=".json,application/json" data-open-file="" data-testid="open-file" hidden=""/></label></div>"#);
    let with_modes = scenario.participants.iter().any(|p| matches!(p, Participant::Resource { .. }));
    let variants = Variant::all(with_modes).map(|v| match v {
        Variant::Original => (v.name().to_string(), "the original".to_string()),
        Variant::Mode(_) => (v.name().to_string(), format!("this, with the resource {}", v.name())),
    });
    words_fields(s, scenario);
    s.push_str(r#"<div class="edit-beside">"#);
    let options = [(String::new(), "nothing".to_string())].into_iter().chain(variants);
    choice(s, ("beside", Input::Beside), state.beside.map_or("", Variant::name), "side by side with", options);
    s.push_str("</div>");
    if let Some(e) = state.link_problem {
        let _ = write!(s, r#"<p class="edit-note">{}</p>"#, Escaped(&e.problem));
    }
}

/// The lock's design and its declared parameters.
fn lock_fields(s: &mut String, scenario: &Scenario) {
    let kind = scenario.lock.kind;
    s.push_str("<fieldset><legend>Lock</legend>");
    let designs = REGISTRY.iter().map(|k| (k.tag().to_string(), k.title().to_string()));
    choice(s, ("lock.design", Input::Design), kind.tag(), "design", designs);
    let _ = write!(s, r#"<p class="help">{}</p>"#, Escaped(kind.about()));
    for (p, (_, value)) in kind.params().iter().zip(scenario.lock.values.iter()) {
        let path = format!("lock.{}", p.name);
        let label = p.name.trim_end_matches("_ms").replace('_', " ");
        match (p.kind, value) {
            (ParamKind::Number { unit, min, max, .. } | ParamKind::Optional { unit, min, max }, v) => {
                let text = if let ParamValue::Number(n) = v { n.to_string() } else { String::new() };
                number(s, &path, &text, &label, unit, Some((min as i64, max as i64)));
            }
            (ParamKind::Flag { .. }, v) => flag(s, &path, v == ParamValue::Flag(true), &label),
            (ParamKind::Choice { options, .. }, v) => {
                let now = if let ParamValue::Choice(c) = v { c } else { "" };
                choice(s, (&path, Input::Text), now, &label, options.iter().map(|(o, _)| (o.to_string(), o.replace('_', " "))));
            }
        }
        let _ = write!(s, r#"<p class="help">{}</p>"#, Escaped(p.help));
    }
    s.push_str("</fieldset>");
}

/// Each participant's name, clock and, by role, start and script or what the resource checks.
fn participant_fields(s: &mut String, scenario: &Scenario, state: &EditorState) {
    s.push_str("<fieldset><legend>Participants</legend>");
    let clients = scenario.participants.iter().filter(|p| matches!(p, Participant::Client { .. })).count();
    let modes: Vec<&str> = scenario.lock.design.release_modes().iter().map(|m| m.tag()).collect();
    for (i, p) in scenario.participants.iter().enumerate() {
        let at = |field: &str| format!("participants[{i}].{field}");
        let _ = write!(s, r#"<div class="edit-group"><h3>{}</h3>"#, Escaped(p.name()));
        text(s, &at("name"), p.name(), "name", Input::Text);
        number(s, &at("clock.offset_ms"), &p.clock().offset_ms.to_string(), "clock offset", "ms", None);
        number(s, &at("clock.drift_ppm"), &p.clock().drift_ppm.to_string(), "clock drift", "ppm", None);
        match p {
            Participant::Client { start_ms, script, .. } => {
                number(s, &at("start_ms"), &start_ms.to_string(), "starts at", "ms", None);
                let touched = state.touched.is_some_and(|t| t.starts_with(&at("script")));
                steps(s, i, script, &modes, touched);
                if clients > 1 {
                    button(s, &format!("remove-participant:{i}"), &format!("Remove {}", p.name()), true);
                }
            }
            Participant::Resource { mode, .. } => {
                choice(
                    s,
                    (&at("mode"), Input::Text),
                    mode.tag(),
                    "checks",
                    ResourceMode::TAGS.iter().map(|(n, _)| (n.to_string(), n.to_string())),
                );
            }
            Participant::LockService { .. } => {}
        }
        s.push_str("</div>");
    }
    button(s, "add-client", "+ client", scenario.participants.len() < MAX_PARTICIPANTS);
    s.push_str("</fieldset>");
}

/// The network's latency and loss, and the seed.
fn network_fields(s: &mut String, scenario: &Scenario) {
    s.push_str("<fieldset><legend>Network</legend>");
    let latency = &scenario.network.latency_ms;
    number(s, "network.latency_ms.min_ms", &latency.min_ms.to_string(), "latency from", "ms", None);
    number(s, "network.latency_ms.max_ms", &latency.max_ms.to_string(), "latency to", "ms", None);
    let loss = scenario.network.loss.text();
    let _ = write!(
        s,
        r#"<label class="field"><span>loss <small>0 to 1</small></span><input type="number" {EDIT_ATTRIBUTE}="network.loss" data-kind="{}" value="{}" min="0" max="1" step="0.01"/></label>"#,
        Input::Number.attr(),
        Escaped(&loss)
    );
    number(s, "seed", &scenario.seed.to_string(), "seed", "", None);
    s.push_str("</fieldset>");
}

/// The faults, and the ways to add one: at this step, on a lifeline, or to the message at the
/// cursor.
fn fault_fields(s: &mut String, scenario: &Scenario, state: &EditorState) {
    s.push_str("<fieldset><legend>Faults</legend>");
    let _ = write!(
        s,
        r#"<p class="help">Drag a fault on the diagram to move it, or its ends to resize it; Tab to it for the keys ({}).</p>"#,
        Escaped(KEYS_HELP)
    );
    for (i, f) in scenario.faults.iter().enumerate() {
        fault(s, i, f, state.selected == Some(i));
    }
    s.push_str(r#"<div class="edit-add" title="A new fault starts at the step on screen"><span>Add at this step:</span>"#);
    for kind in FAULTS.iter().filter(|k| k.listed) {
        button(s, &format!("add-fault:{}", kind.tag), &format!("+ {}", kind.label), true);
    }
    s.push_str("</div>");
    let tool = FAULTS.iter().filter(|k| k.listed).map(|k| (k.tag.to_string(), format!("a {}", k.label)));
    choice(
        s,
        ("tool", Input::Tool),
        state.tool.unwrap_or(""),
        "or click a lifeline to add",
        [(String::new(), "nothing".to_string())].into_iter().chain(tool),
    );
    if let Some((send, words)) = &state.message {
        let _ = write!(s, r#"<div class="edit-add" data-testid="edit-message"><span>This message ({}):</span>"#, Escaped(words));
        button(s, &format!("drop-message:{send}"), "Drop it", true);
        let label = format!("Delay it {} ms", DELAY_MESSAGE.start_ms("extra_ms"));
        button(s, &format!("delay-message:{send}"), &label, true);
        s.push_str("</div>");
    }
    s.push_str("</fieldset>");
}

/// A script longer than this starts folded, so a long scenario's editor stays quick to draw;
/// the script of the last edit stays open.
const OPEN_STEPS: usize = 8;

/// A client's script: each step's kind and field, a button to remove it, and one to add a step.
fn steps(s: &mut String, client: usize, script: &[Step], modes: &[&str], touched: bool) {
    let open = if script.len() <= OPEN_STEPS || touched { r#" open="""# } else { "" };
    let _ = write!(s, r#"<details class="edit-steps"{open}><summary>script: {} steps</summary><ol class="edit-script">"#, script.len());
    let first_mode = modes.first().copied().unwrap_or("safe");
    for (j, step) in script.iter().enumerate() {
        let at = format!("participants[{client}].script[{j}]");
        let kind = steps::kind_of(step);
        s.push_str("<li>");
        let _ = write!(
            s,
            r#"<select {EDIT_ATTRIBUTE}="{}" data-kind="{}" aria-label="step {}">"#,
            Escaped(&at),
            Input::Step(ReleaseMode::from_tag(first_mode).unwrap_or(ReleaseMode::Safe)).attr(),
            j + 1
        );
        for k in STEPS {
            let selected = if k.tag == kind.tag { r#" selected="""# } else { "" };
            let _ = write!(s, r#"<option value="{}" title="{}"{selected}>{}</option>"#, k.tag, Escaped(k.label), k.tag);
        }
        s.push_str("</select>");
        fields(s, &at, kind.fields, steps::values_of(step), modes);
        button(s, &format!("remove:{at}"), "✕ step", true);
        s.push_str("</li>");
    }
    s.push_str("</ol>");
    button(s, &format!("add-step:{client}"), "+ step", script.len() < MAX_STEPS);
    s.push_str("</details>");
}

/// One fault's fields and its remove button.
fn fault(s: &mut String, i: usize, f: &Fault<String>, selected: bool) {
    let kind = f.decl();
    let class = if selected { " edit-fault--selected" } else { "" };
    let _ =
        write!(s, r#"<div class="edit-group edit-fault{class}" id="fault-{i}" data-testid="fault-{i}"><h3>{}</h3>"#, Escaped(kind.label));
    fields(s, &format!("faults[{i}]"), kind.fields, f.values(), &[]);
    button(s, &format!("remove:faults[{i}]"), "Remove", true);
    s.push_str("</div>");
}

/// The fields a fault's or step's kind declares, at `path`, with their values; a release is one
/// of `modes`.
fn fields(s: &mut String, path: &str, fields: &[Field], values: Vec<FieldValue>, modes: &[&str]) {
    for (f, value) in fields.iter().zip(values) {
        let at = format!("{path}.{}", f.name);
        match (f.kind, value) {
            (FieldKind::Ms { min, max, .. }, FieldValue::Ms(v)) => number(s, &at, &v.to_string(), f.label, f.unit(), Some((min, max))),
            (_, FieldValue::Id(id) | FieldValue::Text(id)) => text(s, &at, &id, f.label, Input::Text),
            (_, FieldValue::Ids(ids)) => text(s, &at, &ids.join(", "), f.label, Input::List),
            (_, FieldValue::Flag(on)) => flag(s, &at, on, f.label),
            (_, FieldValue::Release(mode)) => {
                choice(s, (&at, Input::Text), mode.tag(), f.label, modes.iter().map(|m| (m.to_string(), m.to_string())))
            }
            (_, FieldValue::Ms(v)) => number(s, &at, &v.to_string(), f.label, f.unit(), None),
        }
    }
}
