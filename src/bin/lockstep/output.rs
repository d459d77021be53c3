//! `lockstep run`'s output, written straight to standard output a piece at a time, so a run of
//! any size the limits accept is never held whole as text: the text trace, the diagram as SVG,
//! Mermaid, and the trace as JSON with each event's sentence.

use super::Failure;
use lockstep::diagram::{self, mermaid, svg};
use lockstep::present::{trace_json, Words};
use std::fmt::Write as _;
use std::io::{BufWriter, ErrorKind, Write};

/// What `run` writes.
pub enum Format {
    Text,
    Json,
    Svg,
    Mermaid,
}

/// Standard output as a `fmt::Write`, keeping the first I/O error.
struct Out<W: Write> {
    w: W,
    error: Option<std::io::Error>,
}

impl<W: Write> std::fmt::Write for Out<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.w.write_all(s.as_bytes()).map_err(|e| {
            self.error.get_or_insert(e);
            std::fmt::Error
        })
    }
}

/// Writes the run in `format` to standard output; a reader that stops early (`| head`) is not
/// an error.
pub fn write(format: Format, words: &Words, title: &str) -> Result<(), Failure> {
    let mut out = Out { w: BufWriter::with_capacity(1 << 16, std::io::stdout().lock()), error: None };
    let written = match format {
        Format::Text => words.write_text(&mut out),
        Format::Svg => svg::write_to(&mut out, &diagram::layout(words), title, true).and_then(|()| out.write_str("\n")),
        Format::Mermaid => mermaid::write_to(&mut out, words),
        Format::Json => {
            let json = trace_json::write(words, &mut out.w).map_err(std::io::Error::from);
            json.and_then(|()| out.w.write_all(b"\n")).map_err(|e| {
                out.error = Some(e);
                std::fmt::Error
            })
        }
    };
    let flushed = written.ok().map(|()| out.w.flush());
    match (out.error, flushed) {
        (Some(e), _) | (None, Some(Err(e))) if e.kind() != ErrorKind::BrokenPipe => {
            Err(Failure::Scenario(format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}
