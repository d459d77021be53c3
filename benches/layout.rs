//! Prints how long laying out a trace and writing its SVG take, natively, for stress traces of
//! about 1,000, 10,000 and 100,000 events (and the Mermaid text, for comparison): laid out at its
//! natural width, as files and the command line draw it, and fitted to a page's room, as the
//! browser does (names and labels wrapped to the room between the lanes).

use lockstep::diagram::layout::{layout_on, Room, TimeAxis};
use lockstep::diagram::{layout, mermaid, svg};
use lockstep::engine;
use lockstep::present::Words;
use lockstep::scenario::stress::stress;
use std::time::Instant;

fn main() {
    for n in [1_000, 2_700, 10_000, 100_000] {
        let (scenario, spec) = stress(n).expect("stress scenario is valid");
        let trace = engine::run(&spec).expect("stress run stays within limits");
        let words = Words::new(&trace, &*scenario.lock.design);
        let start = Instant::now();
        let l = layout(&words);
        let laid = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let fitted = layout_on(&words, &TimeAxis::of(&trace), Room::Fit(800.0));
        let fit = start.elapsed().as_secs_f64() * 1e3;
        assert_eq!(fitted.rows.len(), trace.events.len());
        let start = Instant::now();
        let text = svg::render(&l, &scenario.title, true);
        let drawn = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let mmd = mermaid::render(&words);
        let exported = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "layout: {} events: layout {:.1} ms (fitted to 800 units: {:.1} ms), SVG {:.1} ms ({} KB), together {:.1} ms; Mermaid text {:.1} ms ({} KB)",
            trace.events.len(),
            laid,
            fit,
            drawn,
            text.len() / 1024,
            laid + drawn,
            exported,
            mmd.len() / 1024
        );
    }
}
