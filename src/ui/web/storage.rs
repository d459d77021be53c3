//! What the browser keeps for the site between visits (its local storage): the preferences, and
//! the theme the page sets before its first paint.

use crate::ui::shell::Preferences;

fn storage() -> Option<web_sys::Storage> {
    gloo::utils::window().local_storage().ok().flatten()
}

/// Reads a setting the browser keeps for this site.
fn setting(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Keeps a setting for later visits (where the browser lets the site keep anything).
pub fn keep_setting(key: &str, value: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(key, value);
    }
}

/// Returns the preferences kept for this site: predictions are on unless switched off.
pub fn preferences() -> Preferences {
    let pair = |key: &str| {
        let v = setting(key)?;
        let (a, b) = v.split_once('/')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    let count = |key: &str| setting(key).and_then(|v| v.parse().ok()).unwrap_or(0u32);
    Preferences {
        predicting: setting("lockstep-predict").as_deref() != Some("off"),
        score: (count("lockstep-right"), count("lockstep-answered")),
        drill_best: pair("lockstep-drill-best"),
    }
}

/// Keeps the preferences for later visits.
pub fn keep(s: Preferences) {
    keep_setting("lockstep-predict", if s.predicting { "on" } else { "off" });
    keep_setting("lockstep-right", &s.score.0.to_string());
    keep_setting("lockstep-answered", &s.score.1.to_string());
    if let Some((right, answered)) = s.drill_best {
        keep_setting("lockstep-drill-best", &format!("{right}/{answered}"));
    }
}
