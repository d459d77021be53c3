//! Every command of the page bound in one table: its name on buttons (`data-action`), the keys that
//! give it, and the action it is. A click and a key press both become an [`Action`] here, and
//! nowhere else.

#[cfg(editing)]
use super::action::EditAction;
use super::action::{Action, CourseMove, DraftEdit, DraftUse, Export};
use crate::ui::player::Playback;

/// One command's binding: a name ending in `:` takes what follows it on the button (`add-step:2`).
pub struct Binding {
    pub name: &'static str,
    /// The keys that give it, as `KeyboardEvent.key` names them.
    pub keys: &'static [&'static str],
    /// What it does, for the list of keys (`?`); empty for a command no key gives.
    pub help: &'static str,
    /// The action, from what follows the name (empty for a key).
    pub action: fn(&str) -> Option<Action>,
}

/// Every command.
pub const BINDINGS: &[Binding] = &[
    Binding { name: "to-start", keys: &["Home"], help: "Back to the setup", action: |_| Some(Action::Play(Playback::ToStart)) },
    Binding { name: "step-back", keys: &["ArrowLeft"], help: "One event back", action: |_| Some(Action::Play(Playback::Back)) },
    Binding {
        name: "play",
        keys: &[" "],
        help: "Play or pause; at a question, show its answer",
        action: |_| Some(Action::Play(Playback::TogglePlay)),
    },
    Binding {
        name: "step-forward",
        keys: &["ArrowRight"],
        help: "One event on; at a question, show its answer",
        action: |_| Some(Action::Play(Playback::Forward)),
    },
    Binding {
        name: "to-end",
        keys: &["End"],
        help: "To the end, stopping at the next question",
        action: |_| Some(Action::Play(Playback::ToEnd)),
    },
    // PageDown and PageUp are a presentation clicker's keys.
    Binding {
        name: "next-beat",
        keys: &["PageDown", "n"],
        help: "The next key moment; at a question, its answer; past the end, the next lesson or step of the course",
        action: |_| Some(Action::Beat(true)),
    },
    Binding {
        name: "previous-beat",
        keys: &["PageUp", "p"],
        help: "The key moment before; from a setup, the step of the course before",
        action: |_| Some(Action::Beat(false)),
    },
    // A question's choices, by their number from 1.
    Binding {
        name: "answer:",
        keys: &["1", "2", "3", "4", "5", "6"],
        help: "Answer a question with that choice",
        action: |n| Some(Action::Answer(n.parse::<usize>().ok()?.checked_sub(1)?)),
    },
    Binding { name: "predict", keys: &[], help: "", action: |_| Some(Action::Predict) },
    Binding { name: "zoom-in", keys: &["+", "="], help: "Zoom in", action: |_| Some(Action::Zoom(1)) },
    Binding { name: "zoom-out", keys: &["-"], help: "Zoom out", action: |_| Some(Action::Zoom(-1)) },
    Binding { name: "zoom-fit", keys: &["0"], help: "Fit the diagram to the width", action: |_| Some(Action::Zoom(0)) },
    Binding {
        name: "present",
        keys: &["f"],
        help: "Presenter mode on or off (Escape leaves it too)",
        action: |_| Some(Action::Present(None)),
    },
    Binding { name: "keys", keys: &["?"], help: "This list of keys", action: |_| Some(Action::Keys) },
    Binding { name: "theme", keys: &[], help: "", action: |_| Some(Action::Theme) },
    Binding { name: "menu", keys: &[], help: "", action: |_| Some(Action::Menu(None)) },
    Binding {
        name: "close-menu",
        keys: &["Escape"],
        help: "Close the lesson menu or this list",
        action: |_| Some(Action::Menu(Some(false))),
    },
    Binding { name: "skip", keys: &[], help: "", action: |_| Some(Action::Skip) },
    Binding { name: "dismiss", keys: &[], help: "", action: |_| Some(Action::Dismiss) },
    Binding { name: "drill-start", keys: &[], help: "", action: |_| Some(Action::DrillStart) },
    Binding { name: "drill-next", keys: &[], help: "", action: |_| Some(Action::DrillNext) },
    Binding { name: "drill-leave", keys: &[], help: "", action: |_| Some(Action::DrillLeave) },
    Binding { name: "home", keys: &[], help: "", action: |_| Some(Action::Open(crate::ui::route::Target::Home, 0)) },
    Binding { name: "drill-continue", keys: &[], help: "", action: |_| Some(Action::DrillContinue) },
    Binding { name: "course:", keys: &[], help: "", action: |course| Some(Action::Course(CourseMove::Start(course.into()))) },
    Binding { name: "course-present:", keys: &[], help: "", action: |course| Some(Action::Course(CourseMove::Present(course.into()))) },
    Binding { name: "course-next", keys: &[], help: "", action: |_| Some(Action::Course(CourseMove::Next)) },
    Binding { name: "course-previous", keys: &[], help: "", action: |_| Some(Action::Course(CourseMove::Previous)) },
    Binding { name: "course-leave", keys: &[], help: "", action: |_| Some(Action::Course(CourseMove::Leave)) },
    Binding { name: "course-notes", keys: &[], help: "", action: |_| Some(Action::NotesWindow) },
    Binding { name: "export-progress", keys: &[], help: "", action: |_| Some(Action::ExportProgress) },
    Binding { name: "add-to-course", keys: &[], help: "", action: |_| Some(Action::Draft(DraftEdit::AddShown)) },
    Binding { name: "draft-up:", keys: &[], help: "", action: |i| Some(Action::Draft(DraftEdit::Move(i.parse().ok()?, true))) },
    Binding { name: "draft-down:", keys: &[], help: "", action: |i| Some(Action::Draft(DraftEdit::Move(i.parse().ok()?, false))) },
    Binding { name: "draft-remove:", keys: &[], help: "", action: |i| Some(Action::Draft(DraftEdit::Remove(i.parse().ok()?))) },
    Binding { name: "draft-clear", keys: &[], help: "", action: |_| Some(Action::Draft(DraftEdit::Clear)) },
    Binding { name: "draft-take", keys: &[], help: "", action: |_| Some(Action::UseDraft(DraftUse::Take { present: false })) },
    Binding { name: "draft-present", keys: &[], help: "", action: |_| Some(Action::UseDraft(DraftUse::Take { present: true })) },
    Binding { name: "draft-link", keys: &[], help: "", action: |_| Some(Action::UseDraft(DraftUse::CopyLink)) },
    Binding { name: "draft-download", keys: &[], help: "", action: |_| Some(Action::UseDraft(DraftUse::Download)) },
    Binding { name: "clear-progress", keys: &[], help: "", action: |_| Some(Action::ClearProgress) },
    Binding { name: "find", keys: &[], help: "", action: |_| Some(Action::Find) },
    Binding { name: "prove", keys: &[], help: "", action: |_| Some(Action::Prove) },
    Binding { name: "verify-table", keys: &[], help: "", action: |_| Some(Action::VerifyTable) },
    Binding { name: "prove-lesson:", keys: &[], help: "", action: |what| Some(Action::ProveLesson(what.to_string())) },
    Binding { name: "find-cancel", keys: &[], help: "", action: |_| Some(Action::FindClose) },
    Binding { name: "embed", keys: &[], help: "", action: |_| Some(Action::Embed) },
    Binding { name: "open-full", keys: &[], help: "", action: |_| Some(Action::OpenFull) },
    Binding { name: "export-svg", keys: &[], help: "", action: |_| Some(Action::Export(Export::Svg)) },
    Binding { name: "export-mermaid", keys: &[], help: "", action: |_| Some(Action::Export(Export::Mermaid)) },
    Binding { name: "export-json", keys: &[], help: "", action: |_| Some(Action::Export(Export::Json)) },
    Binding { name: "edit", keys: &[], help: "", action: |_| Some(Action::WhatIf) },
    #[cfg(editing)]
    Binding { name: "undo", keys: &[], help: "", action: |_| Some(Action::Edit(EditAction::Undo)) },
    #[cfg(editing)]
    Binding { name: "redo", keys: &[], help: "", action: |_| Some(Action::Edit(EditAction::Redo)) },
    #[cfg(editing)]
    Binding { name: "reset", keys: &[], help: "", action: |_| Some(Action::Edit(EditAction::Reset)) },
    #[cfg(editing)]
    Binding { name: "copy-link", keys: &[], help: "", action: |_| Some(Action::Edit(EditAction::CopyLink)) },
    #[cfg(editing)]
    Binding { name: "add-client", keys: &[], help: "", action: |_| Some(Action::Edit(EditAction::AddClient)) },
    #[cfg(editing)]
    Binding { name: "add-fault:", keys: &[], help: "", action: |kind| Some(Action::Edit(EditAction::AddFault(kind.into()))) },
    #[cfg(editing)]
    Binding { name: "beside:", keys: &[], help: "", action: |which| Some(Action::Edit(EditAction::Beside(which.into()))) },
    #[cfg(editing)]
    Binding {
        name: "remove:",
        keys: &[],
        help: "",
        action: |path| Some(Action::Edit(EditAction::Apply(crate::edit::Edit::Remove { path: path.into() }))),
    },
    #[cfg(editing)]
    Binding {
        name: "remove-participant:",
        keys: &[],
        help: "",
        action: |i| Some(Action::Edit(EditAction::RemoveParticipant(i.parse().ok()?))),
    },
    #[cfg(editing)]
    Binding { name: "add-step:", keys: &[], help: "", action: |i| Some(Action::Edit(EditAction::AddStep(i.parse().ok()?))) },
    #[cfg(editing)]
    Binding {
        name: "drop-message:",
        keys: &[],
        help: "",
        action: |send| Some(Action::Edit(EditAction::Message(send.parse().ok()?, false))),
    },
    #[cfg(editing)]
    Binding {
        name: "delay-message:",
        keys: &[],
        help: "",
        action: |send| Some(Action::Edit(EditAction::Message(send.parse().ok()?, true))),
    },
];

/// Returns the action of the button named `name` (its `data-action`).
pub fn clicked(name: &str) -> Option<Action> {
    BINDINGS.iter().find_map(|c| match c.name.strip_suffix(':') {
        Some(prefix) => (c.action)(name.strip_prefix(prefix)?.strip_prefix(':')?),
        None if c.name == name => (c.action)(""),
        None => None,
    })
}

/// Returns the action of a key (as `KeyboardEvent.key` names it), pressed outside a field and
/// without Ctrl, Alt or Meta. A command whose name takes what follows it takes the key.
pub fn pressed(key: &str) -> Option<Action> {
    BINDINGS.iter().find(|c| c.keys.contains(&key)).and_then(|c| (c.action)(if c.name.ends_with(':') { key } else { "" }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_and_keys_name_the_same_actions() {
        assert_eq!(clicked("play"), pressed(" "));
        assert_eq!(clicked("answer:2"), Some(Action::Answer(1)));
        assert_eq!(pressed("2"), Some(Action::Answer(1)));
        assert_eq!(pressed("6"), Some(Action::Answer(5)));
        assert_eq!(clicked("answer:0"), None, "choices count from 1");
        assert_eq!(clicked("zoom-in"), pressed("="));
        assert_eq!(pressed("Escape"), Some(Action::Menu(Some(false))));
        assert_eq!(clicked("no-such-button"), None);
        assert_eq!(pressed("x"), None);
        let mut names: Vec<&str> = BINDINGS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), BINDINGS.len(), "every name is one command's");
        let mut keys: Vec<&str> = BINDINGS.iter().flat_map(|c| c.keys.iter().copied()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), BINDINGS.iter().map(|c| c.keys.len()).sum::<usize>(), "every key is one command's");
        for c in BINDINGS {
            assert_eq!(c.keys.is_empty(), c.help.is_empty(), "{}: a command has help exactly when a key gives it", c.name);
        }
    }

    #[cfg(editing)]
    #[test]
    fn a_name_with_a_colon_takes_what_follows() {
        assert_eq!(clicked("add-step:2"), Some(Action::Edit(EditAction::AddStep(2))));
        assert_eq!(clicked("add-step:x"), None, "not a number");
        assert_eq!(clicked("add-step"), None, "nothing follows");
        assert_eq!(clicked("delay-message:7"), Some(Action::Edit(EditAction::Message(7, true))));
        let remove = Action::Edit(EditAction::Apply(crate::edit::Edit::Remove { path: "faults[1]".into() }));
        assert_eq!(clicked("remove:faults[1]"), Some(remove));
    }
}
