//! What the reducer asks the browser to do: the app's only side effects, run by one component
//! (`ui::web::effects`).

use crate::course::Course;
use crate::diagram::{mermaid, svg};
use crate::ui::progress::Record;
use crate::ui::shell::preferences::Preferences;
use crate::ui::shell::run::RunRef;
use std::rc::Rc;

/// What an action did: the state after it (`None` when nothing on screen changed) and the
/// effects to run, in order.
pub type Reduced = (Option<super::AppState>, Vec<Effect>);

/// One side effect.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Fetches the file of the lesson with this id; it arrives as [`super::Action::Fetched`].
    Fetch(&'static str),
    /// Starts the failure search with this request, ending one that runs; its reports arrive as
    /// [`super::Action::Report`].
    StartSearch(String),
    /// Ends the failure search's worker.
    StopSearch,
    /// Keeps the preferences for later visits.
    Keep(Preferences),
    /// Keeps what the learner has done for later visits.
    KeepProgress(Rc<Record>),
    /// Forgets everything kept on this device (but the theme).
    ClearStorage,
    /// Keeps the course being made for later visits.
    KeepDraft(Rc<Course>),
    /// Copies the page's address for this course link (`#/course/…`), opening in presenter mode.
    CopyCourseLink(String),
    /// Opens (`Some(true)`), closes or toggles the lesson menu.
    Menu(Option<bool>),
    Theme,
    /// Starts or ends presenter mode in the page: full screen, the style sheet's large type.
    Present(bool),
    /// Shows or hides the list of keys.
    Keys,
    /// Opens the course's notes in a window of their own.
    NotesWindow,
    /// Moves the focus to the element this selector finds.
    Focus(&'static str),
    /// Scrolls the page to its top: another page was opened (a lesson, the table, a cell).
    ToTop,
    /// Copies the code that embeds the page as it is shown (titled `title`); says so with
    /// [`super::Action::Copied`].
    CopyEmbed {
        title: String,
    },
    /// Copies the page's address, the edited scenario's link.
    CopyLink,
    /// Opens the page as it is shown in a new tab, outside the frame it is embedded in.
    OpenFull,
    /// Opens the editor's page at the same link.
    OpenEditor,
    /// Opens the player's page at the same link (from the editor's page).
    OpenPlayer,
    /// Offers a file to download.
    Download {
        name: String,
        mime: &'static str,
        content: Content,
    },
}

/// What a download holds: text at hand, or a run's diagram or Mermaid text, which is written a
/// piece at a time as the file is made, so a run of any size is never held whole as text.
#[derive(Clone, Debug, PartialEq)]
pub enum Content {
    Text(String),
    Svg(RunRef),
    Mermaid(RunRef),
}

impl Content {
    /// Writes the file's text to `out`.
    pub fn write_to(&self, out: &mut dyn std::fmt::Write) -> std::fmt::Result {
        match self {
            Content::Text(text) => out.write_str(text),
            Content::Svg(run) => svg::write_to(out, &run.layout, &run.scenario.title, true),
            Content::Mermaid(run) => mermaid::write_to(out, &run.words()),
        }
    }
}
