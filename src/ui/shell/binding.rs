//! Every command of the page bound in one table: its name on buttons (`data-action`), the keys that
//! give it, and the action it is. A click and a key press both become an [`Action`] here, and
//! nowhere else.

#[cfg(editing)]
use super::action::EditAction;
use super::action::{Action, Export};
use crate::ui::player::Playback;

/// One command's binding: a name ending in `:` takes what follows it on the button (`add-step:2`).
pub struct Binding {
    pub name: &'static str,
    /// The keys that give it, as `KeyboardEvent.key` names them.
    pub keys: &'static [&'static str],
    /// The action, from what follows the name (empty for a key).
    pub action: fn(&str) -> Option<Action>,
}

/// Every command.
pub const BINDINGS: &[Binding] = &[
    Binding { name: "to-start", keys: &["Home"], action: |_| Some(Action::Play(Playback::ToStart)) },
    Binding { name: "step-back", keys: &["ArrowLeft"], action: |_| Some(Action::Play(Playback::Back)) },
    Binding { name: "play", keys: &[" "], action: |_| Some(Action::Play(Playback::TogglePlay)) },
    Binding { name: "step-forward", keys: &["ArrowRight"], action: |_| Some(Action::Play(Playback::Forward)) },
    Binding { name: "to-end", keys: &["End"], action: |_| Some(Action::Play(Playback::ToEnd)) },
    // PageDown and PageUp are a presentation clicker's keys.
    Binding { name: "next-beat", keys: &["PageDown", "n"], action: |_| Some(Action::Beat(true)) },
    Binding { name: "previous-beat", keys: &["PageUp", "p"], action: |_| Some(Action::Beat(false)) },
    Binding { name: "answer:0", keys: &["1"], action: |_| Some(Action::Answer(0)) },
    Binding { name: "answer:1", keys: &["2"], action: |_| Some(Action::Answer(1)) },
    Binding { name: "predict", keys: &[], action: |_| Some(Action::Predict) },
    Binding { name: "zoom-in", keys: &["+", "="], action: |_| Some(Action::Zoom(1)) },
    Binding { name: "zoom-out", keys: &["-"], action: |_| Some(Action::Zoom(-1)) },
    Binding { name: "zoom-fit", keys: &["0"], action: |_| Some(Action::Zoom(0)) },
    Binding { name: "present", keys: &["f"], action: |_| Some(Action::Present) },
    Binding { name: "theme", keys: &[], action: |_| Some(Action::Theme) },
    Binding { name: "menu", keys: &[], action: |_| Some(Action::Menu(None)) },
    Binding { name: "close-menu", keys: &["Escape"], action: |_| Some(Action::Menu(Some(false))) },
    Binding { name: "skip", keys: &[], action: |_| Some(Action::Skip) },
    Binding { name: "dismiss", keys: &[], action: |_| Some(Action::Dismiss) },
    Binding { name: "drill-start", keys: &[], action: |_| Some(Action::DrillStart) },
    Binding { name: "drill-next", keys: &[], action: |_| Some(Action::DrillNext) },
    Binding { name: "drill-leave", keys: &[], action: |_| Some(Action::DrillLeave) },
    Binding { name: "find", keys: &[], action: |_| Some(Action::Find) },
    Binding { name: "prove", keys: &[], action: |_| Some(Action::Prove) },
    Binding { name: "verify-table", keys: &[], action: |_| Some(Action::VerifyTable) },
    Binding { name: "prove-lesson:", keys: &[], action: |what| Some(Action::ProveLesson(what.to_string())) },
    Binding { name: "find-cancel", keys: &[], action: |_| Some(Action::FindClose) },
    Binding { name: "embed", keys: &[], action: |_| Some(Action::Embed) },
    Binding { name: "open-full", keys: &[], action: |_| Some(Action::OpenFull) },
    Binding { name: "export-svg", keys: &[], action: |_| Some(Action::Export(Export::Svg)) },
    Binding { name: "export-mermaid", keys: &[], action: |_| Some(Action::Export(Export::Mermaid)) },
    Binding { name: "export-json", keys: &[], action: |_| Some(Action::Export(Export::Json)) },
    Binding { name: "edit", keys: &[], action: |_| Some(Action::WhatIf) },
    #[cfg(editing)]
    Binding { name: "undo", keys: &[], action: |_| Some(Action::Edit(EditAction::Undo)) },
    #[cfg(editing)]
    Binding { name: "redo", keys: &[], action: |_| Some(Action::Edit(EditAction::Redo)) },
    #[cfg(editing)]
    Binding { name: "reset", keys: &[], action: |_| Some(Action::Edit(EditAction::Reset)) },
    #[cfg(editing)]
    Binding { name: "copy-link", keys: &[], action: |_| Some(Action::Edit(EditAction::CopyLink)) },
    #[cfg(editing)]
    Binding { name: "add-client", keys: &[], action: |_| Some(Action::Edit(EditAction::AddClient)) },
    #[cfg(editing)]
    Binding { name: "add-fault:", keys: &[], action: |kind| Some(Action::Edit(EditAction::AddFault(kind.into()))) },
    #[cfg(editing)]
    Binding { name: "beside:", keys: &[], action: |which| Some(Action::Edit(EditAction::Beside(which.into()))) },
    #[cfg(editing)]
    Binding {
        name: "remove:",
        keys: &[],
        action: |path| Some(Action::Edit(EditAction::Apply(crate::edit::Edit::Remove { path: path.into() }))),
    },
    #[cfg(editing)]
    Binding { name: "remove-participant:", keys: &[], action: |i| Some(Action::Edit(EditAction::RemoveParticipant(i.parse().ok()?))) },
    #[cfg(editing)]
    Binding { name: "add-step:", keys: &[], action: |i| Some(Action::Edit(EditAction::AddStep(i.parse().ok()?))) },
    #[cfg(editing)]
    Binding { name: "drop-message:", keys: &[], action: |send| Some(Action::Edit(EditAction::Message(send.parse().ok()?, false))) },
    #[cfg(editing)]
    Binding { name: "delay-message:", keys: &[], action: |send| Some(Action::Edit(EditAction::Message(send.parse().ok()?, true))) },
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
/// without Ctrl, Alt or Meta.
pub fn pressed(key: &str) -> Option<Action> {
    BINDINGS.iter().find(|c| c.keys.contains(&key)).and_then(|c| (c.action)(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_and_keys_name_the_same_actions() {
        assert_eq!(clicked("play"), pressed(" "));
        assert_eq!(clicked("answer:1"), Some(Action::Answer(1)));
        assert_eq!(pressed("2"), Some(Action::Answer(1)));
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
