//! The trace as JSON for other tools, each event with its sentence for a learner, serialized as
//! it is written: a run of any size the limits accept is never held whole as JSON.

use super::Words;
use crate::engine::event::Event;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

/// Writes the trace as indented JSON to `w`.
pub fn write(words: &Words, w: impl std::io::Write) -> serde_json::Result<()> {
    serde_json::to_writer_pretty(w, &Narrated(words))
}

/// The trace, with every event told.
struct Narrated<'a>(&'a Words<'a>);

impl Serialize for Narrated<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0.trace();
        let mut m = s.serialize_struct("Trace", 6)?;
        m.serialize_field("seed", &t.seed)?;
        m.serialize_field("participants", &t.participants)?;
        m.serialize_field("quorum", &t.quorum)?;
        m.serialize_field("events", &Events(self.0))?;
        m.serialize_field("verdict", &t.verdict)?;
        m.serialize_field("metrics", &t.metrics)?;
        m.end()
    }
}

/// Every event, each told as it is serialized.
struct Events<'a>(&'a Words<'a>);

/// One event and its sentence.
#[derive(Serialize)]
struct Told<'a> {
    #[serde(flatten)]
    event: &'a Event,
    text: String,
}

impl Serialize for Events<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let events = &self.0.trace().events;
        let mut seq = s.serialize_seq(Some(events.len()))?;
        for (i, event) in events.iter().enumerate() {
            seq.serialize_element(&Told { event, text: self.0.narrate(i) })?;
        }
        seq.end()
    }
}
