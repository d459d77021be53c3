//! What can happen to the app, as typed actions: a button or key ([`super::command`]), a link,
//! the playback timer, a fetched file, a search report, the diagram's box changing width, or a
//! change in the editor.

use crate::diagram::layout::Room;
#[cfg(editing)]
use crate::edit::{handles::Gesture, input::Input, Edit};
use crate::search::wire::Report;
use crate::ui::player::Playback;
use crate::ui::route::Target;

/// One thing that happens to the app.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Moves playback (a button, a key, the scrubber or the timer).
    Play(Playback),
    /// Opens a target at a step (a link on the page).
    Open(Target, u64),
    /// Follows the address's hash (at the start, a pasted link, the back button).
    Hash(String),
    /// A lesson's file arrived, or could not be fetched.
    Fetched(&'static str, Result<String, String>),
    /// Goes to the next story beat, or (false) the one before.
    Beat(bool),
    /// Answers the question asked, with the choice at this index.
    Answer(usize),
    /// Shows or hides the list of keys.
    Keys,
    /// Switches predictions on or off.
    Predict,
    /// Moves through a course.
    Course(CourseMove),
    /// A file was picked, and read (or could not be).
    Picked(Picked, Result<String, String>),
    /// Downloads the progress kept on this device as a file.
    ExportProgress,
    /// Forgets everything kept on this device: progress, score and settings.
    ClearProgress,
    /// Changes the course being made.
    Draft(DraftEdit),
    /// Uses the course being made.
    UseDraft(DraftUse),
    /// Starts the interview drill at its first question.
    DrillStart,
    /// Goes on to the drill's next lesson.
    DrillNext,
    /// Goes back to where the drill left unfinished on this device stood.
    DrillContinue,
    DrillLeave,
    /// Zooms the diagram in (1), out (-1), or back to fit the width (0).
    Zoom(i8),
    /// The diagram's box changed width: lay the run out again in this room.
    Refit(Room),
    /// Closes the notice.
    Dismiss,
    /// Shows a notice (the browser could not do something asked of it).
    Notice(String),
    /// Another window of the site changed the progress kept on this device.
    Kept(std::rc::Rc<crate::ui::progress::Record>),
    /// Looks for a failure of the run on screen, in the background.
    Find,
    /// Verify the run on screen: every fault schedule on a grid.
    Prove,
    /// Verify every cell of the comparison table, one after another.
    VerifyTable,
    /// Open a lesson and verify it for some kinds of fault: `lesson-id:kind,kind`.
    ProveLesson(String),
    /// A report from the failure search.
    Report(Report),
    /// Cancels the failure search, or closes its card.
    FindClose,
    /// Switches between the light and dark theme.
    Theme,
    /// Starts (`Some(true)`) or ends presenter mode, or (`None`) switches it.
    Present(Option<bool>),
    /// Opens the course's notes in a window of their own, for a second screen.
    NotesWindow,
    /// Opens or closes the lesson menu (`None`: the other way).
    Menu(Option<bool>),
    /// A click on the page outside the lesson menu.
    Elsewhere,
    /// Moves the focus to playback (the skip link).
    Skip,
    /// Copies the code that embeds the run on screen.
    Embed,
    /// Opens the run on screen in a full page of its own (from an embedded one).
    OpenFull,
    /// Downloads the run.
    Export(Export),
    /// The browser copied text to the clipboard, or could not.
    Copied(Copied, bool),
    /// Opens the run on screen in the editor ("What if…").
    WhatIf,
    /// A change to the scenario being edited.
    #[cfg(editing)]
    Edit(EditAction),
}

/// What a file picked on the player's page is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picked {
    /// A progress file, exported before.
    Progress,
    /// A course's file, to take.
    Course,
    /// A course's file, to go on making.
    Draft,
}

impl Picked {
    /// Reads the name a file field gives (`data-pick`).
    pub fn named(name: &str) -> Option<Picked> {
        match name {
            "progress" => Some(Picked::Progress),
            "course" => Some(Picked::Course),
            "draft" => Some(Picked::Draft),
            _ => None,
        }
    }
}

/// A change to the course being made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DraftEdit {
    /// Adds the run on screen, at its step, as the last stop.
    AddShown,
    /// Adds a lesson, by id, at its setup.
    AddLesson(String),
    /// A field of the builder changed: its path and its text.
    Field {
        path: String,
        text: String,
    },
    /// Moves a stop up (true) or down.
    Move(usize, bool),
    Remove(usize),
    /// Starts again from a copy of a shipped course.
    Copy(String),
    /// Starts again from nothing.
    Clear,
}

/// What to do with the course being made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DraftUse {
    /// Takes it from its first stop, in presenter mode or not.
    Take { present: bool },
    /// Copies the link that opens it in presenter mode.
    CopyLink,
    /// Downloads its file.
    Download,
}

/// A move through a course.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CourseMove {
    /// Starts the course a link names (a shipped course's id, or a packed course) at its first stop.
    Start(String),
    /// Starts it in presenter mode.
    Present(String),
    Next,
    Previous,
    Leave,
}

/// What a run is downloaded as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    Svg,
    Mermaid,
    /// The scenario's file.
    Json,
}

/// What was copied to the clipboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Copied {
    /// The code that embeds the run.
    Embed(String),
    /// The edited scenario's link.
    Link,
    /// The link that presents a course.
    CourseLink(String),
}

/// A change to the scenario being edited.
#[cfg(editing)]
#[derive(Clone, Debug, PartialEq)]
pub enum EditAction {
    Apply(Edit),
    /// A field of the editor changed: its path, how its text reads (`data-kind`), and the text.
    Field {
        path: String,
        kind: Input,
        text: String,
    },
    /// Adds a fault of the kind with this tag.
    AddFault(String),
    AddClient,
    /// Removes a participant, by its place.
    RemoveParticipant(usize),
    /// Adds a step to a client's script, by the client's place.
    AddStep(usize),
    /// A scenario file's text, opened, dropped or pasted, or why it could not be read.
    Open(Result<String, String>),
    /// Something done to a fault, a message or a lifeline on the diagram.
    Gesture(Gesture),
    /// Drops the message sent at this event, or (true) delays it.
    Message(usize, bool),
    /// Draws a variant beside the edited run: `original`, a resource mode, or none.
    Beside(String),
    /// Copies the edited scenario's link.
    CopyLink,
    Undo,
    Redo,
    Reset,
}
