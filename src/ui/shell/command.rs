//! Every command of the page in one table: its name on buttons (`data-action`), the keys that
//! give it, and the action it is. A click and a key press both become an [`Action`] here, and
//! nowhere else.

#[cfg(editing)]
use super::action::EditAction;
use super::action::{Action, Export};
use crate::ui::player::Playback;

/// One command: a name ending in `:` takes what follows it on the button (`add-step:2`).
pub struct Command {
    pub name: &'static str,
    /// The keys that give it, as `KeyboardEvent.key` names them.
    pub keys: &'static [&'static str],
    /// The action, from what follows the name (empty for a key).
    pub action: fn(&str) -> Option<Action>,
}

/// Every command.
pub const COMMANDS: &[Command] = &[
    Command { name: "to-start", keys: &["Home"], action: |_| Some(Action::Play(Playback::ToStart)) },
    Command { name: "step-back", keys: &["ArrowLeft"], action: |_| Some(Action::Play(Playback::Back)) },
    Command { name: "play", keys: &[" "], action: |_| Some(Action::Play(Playback::TogglePlay)) },
    Command { name: "step-forward", keys: &["ArrowRight"], action: |_| Some(Action::Play(Playback::Forward)) },
    Command { name: "to-end", keys: &["End"], action: |_| Some(Action::Play(Playback::ToEnd)) },
    // PageDown and PageUp are a presentation clicker's keys.
    Command { name: "next-beat", keys: &["PageDown", "n"], action: |_| Some(Action::Beat(true)) },
    Command { name: "previous-beat", keys: &["PageUp", "p"], action: |_| Some(Action::Beat(false)) },
    Command { name: "answer:0", keys: &["1"], action: |_| Some(Action::Answer(0)) },
    Command { name: "answer:1", keys: &["2"], action: |_| Some(Action::Answer(1)) },
    Command { name: "predict", keys: &[], action: |_| Some(Action::Predict) },
    Command { name: "zoom-in", keys: &["+", "="], action: |_| Some(Action::Zoom(1)) },
    Command { name: "zoom-out", keys: &["-"], action: |_| Some(Action::Zoom(-1)) },
    Command { name: "zoom-fit", keys: &["0"], action: |_| Some(Action::Zoom(0)) },
    Command { name: "present", keys: &["f"], action: |_| Some(Action::Present) },
    Command { name: "theme", keys: &[], action: |_| Some(Action::Theme) },
    Command { name: "menu", keys: &[], action: |_| Some(Action::Menu(None)) },
    Command { name: "close-menu", keys: &["Escape"], action: |_| Some(Action::Menu(Some(false))) },
    Command { name: "skip", keys: &[], action: |_| Some(Action::Skip) },
    Command { name: "dismiss", keys: &[], action: |_| Some(Action::Dismiss) },
    Command { name: "drill-start", keys: &[], action: |_| Some(Action::DrillStart) },
    Command { name: "drill-next", keys: &[], action: |_| Some(Action::DrillNext) },
    Command { name: "drill-leave", keys: &[], action: |_| Some(Action::DrillLeave) },
    Command { name: "find", keys: &[], action: |_| Some(Action::Find) },
    Command { name: "find-cancel", keys: &[], action: |_| Some(Action::FindClose) },
    Command { name: "embed", keys: &[], action: |_| Some(Action::Embed) },
    Command { name: "open-full", keys: &[], action: |_| Some(Action::OpenFull) },
    Command { name: "export-svg", keys: &[], action: |_| Some(Action::Export(Export::Svg)) },
    Command { name: "export-mermaid", keys: &[], action: |_| Some(Action::Export(Export::Mermaid)) },
    Command { name: "export-json", keys: &[], action: |_| Some(Action::Export(Export::Json)) },
    Command { name: "edit", keys: &[], action: |_| Some(Action::WhatIf) },
    #[cfg(editing)]
    Command { name: "undo", keys: &[], action: |_| Some(Action::Edit(EditAction::Undo)) },
    #[cfg(editing)]
    Command { name: "redo", keys: &[], action: |_| Some(Action::Edit(EditAction::Redo)) },
    #[cfg(editing)]
    Command { name: "reset", keys: &[], action: |_| Some(Action::Edit(EditAction::Reset)) },
    #[cfg(editing)]
    Command { name: "copy-link", keys: &[], action: |_| Some(Action::Edit(EditAction::CopyLink)) },
    #[cfg(editing)]
    Command { name: "add-client", keys: &[], action: |_| Some(Action::Edit(EditAction::AddClient)) },
    #[cfg(editing)]
    Command { name: "add-fault:", keys: &[], action: |kind| Some(Action::Edit(EditAction::AddFault(kind.into()))) },
    #[cfg(editing)]
    Command { name: "beside:", keys: &[], action: |which| Some(Action::Edit(EditAction::Beside(which.into()))) },
    #[cfg(editing)]
    Command {
        name: "remove:",
        keys: &[],
        action: |path| Some(Action::Edit(EditAction::Apply(crate::edit::Edit::Remove { path: path.into() }))),
    },
    #[cfg(editing)]
    Command { name: "remove-participant:", keys: &[], action: |i| Some(Action::Edit(EditAction::RemoveParticipant(i.parse().ok()?))) },
    #[cfg(editing)]
    Command { name: "add-step:", keys: &[], action: |i| Some(Action::Edit(EditAction::AddStep(i.parse().ok()?))) },
    #[cfg(editing)]
    Command { name: "drop-message:", keys: &[], action: |send| Some(Action::Edit(EditAction::Message(send.parse().ok()?, false))) },
    #[cfg(editing)]
    Command { name: "delay-message:", keys: &[], action: |send| Some(Action::Edit(EditAction::Message(send.parse().ok()?, true))) },
];

/// Returns the action of the button named `name` (its `data-action`).
pub fn clicked(name: &str) -> Option<Action> {
    COMMANDS.iter().find_map(|c| match c.name.strip_suffix(':') {
        Some(prefix) => (c.action)(name.strip_prefix(prefix)?.strip_prefix(':')?),
        None if c.name == name => (c.action)(""),
        None => None,
    })
}

/// Returns the action of a key (as `KeyboardEvent.key` names it), pressed outside a field and
/// without Ctrl, Alt or Meta.
pub fn pressed(key: &str) -> Option<Action> {
    COMMANDS.iter().find(|c| c.keys.contains(&key)).and_then(|c| (c.action)(""))
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
        let mut names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COMMANDS.len(), "every name is one command's");
        let mut keys: Vec<&str> = COMMANDS.iter().flat_map(|c| c.keys.iter().copied()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), COMMANDS.iter().map(|c| c.keys.len()).sum::<usize>(), "every key is one command's");
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
