//! Runs the reducer's effects in the browser: the app's only side effects. What a browser answers
//! (a fetched file, a search's report, whether a copy worked) comes back as an action.

use super::browser;
use super::search_worker::SearchWorker;
use crate::search::wire::Report;
use crate::ui::shell::{Action, Copied, Effect};
use std::cell::RefCell;
use yew::Callback;

/// Runs one effect; `dispatch` takes the actions the browser's answers become, and `search`
/// keeps the failure search's worker while it runs.
pub fn run(effect: Effect, dispatch: &Callback<Action>, search: &RefCell<Option<SearchWorker>>) {
    match effect {
        Effect::Fetch(id) => {
            let dispatch = dispatch.clone();
            browser::fetch_text(&format!("lessons/{id}.json"), move |file| dispatch.emit(Action::Fetched(id, file)));
        }
        Effect::StartSearch(request) => {
            let reports = dispatch.reform(Action::Report);
            match SearchWorker::start(&request, cfg!(feature = "editor"), reports) {
                Ok(worker) => *search.borrow_mut() = Some(worker),
                Err(message) => dispatch.emit(Action::Report(Report::Failed { message })),
            }
        }
        // Dropping the worker ends it.
        Effect::StopSearch => drop(search.borrow_mut().take()),
        Effect::Keep(preferences) => super::storage::keep(preferences),
        Effect::ClearStorage => super::storage::clear(),
        Effect::KeepDraft(draft) => super::storage::keep_draft(&draft),
        Effect::CopyCourseLink(hash) => {
            let link = browser::presenting(&hash);
            let ok = browser::copy(&link);
            dispatch.emit(Action::Copied(Copied::CourseLink(link), ok));
        }
        Effect::NotesWindow => browser::open_notes(),
        Effect::KeepProgress(progress) => {
            // An embedded page (a frame whose storage the host may block) keeps what it can, quietly.
            if !super::storage::keep_progress(&progress) && !browser::query_has("embed") {
                dispatch.emit(Action::Notice(
                    "This browser could not keep your progress on this device (its storage is full or switched off).".into(),
                ));
            }
        }
        Effect::Menu(open) => browser::menu(open),
        Effect::Theme => browser::toggle_theme(),
        Effect::Present(on) => super::screen::present(on),
        Effect::Keys => super::screen::toggle_popover("keys"),
        Effect::ToTop => browser::to_top(),
        Effect::Focus(selector) => {
            browser::focus_on(selector);
        }
        Effect::CopyEmbed { title } => {
            let code = browser::embed_code(&title);
            let ok = browser::copy(&code);
            dispatch.emit(Action::Copied(Copied::Embed(code), ok));
        }
        Effect::CopyLink => dispatch.emit(Action::Copied(Copied::Link, browser::copy(&browser::address()))),
        Effect::OpenFull => browser::open_tab(&browser::full_page()),
        Effect::OpenEditor => browser::open_editor(),
        Effect::OpenPlayer => browser::open_player(),
        Effect::Download { name, mime, content } => browser::download(&name, mime, &content),
    }
}
