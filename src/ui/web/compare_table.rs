//! The comparison table: every fault schedule against every design, each cell a link to its
//! diagram.

use crate::scenario::compare::{Cell, Outcome, SCHEDULES};
use crate::ui::route::Target;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct Props {
    pub rows: Rc<Vec<Vec<Cell>>>,
    pub on_select: Callback<Target>,
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.rows, &other.rows) && self.on_select == other.on_select
    }
}

fn glyph(o: Outcome) -> &'static str {
    match o {
        Outcome::Safe => "✓",
        Outcome::Unsafe => "✗",
        Outcome::Stalls => "‖",
    }
}

#[component]
pub fn CompareTable(props: &Props) -> Html {
    let cell = |c: &Cell| {
        let target = Target::Compare { schedule: c.schedule.id.into(), design: c.row.id.into() };
        let on_select = props.on_select.clone();
        let outcome = c.outcome.label();
        html! {
            <td>
                <button class={classes!("cell", format!("cell--{outcome}"))} title={c.detail.clone()}
                    aria-label={format!("{} under “{}”: {outcome}. {} Open the diagram.", c.row.title, c.schedule.title, c.detail)}
                    data-testid={format!("cell-{}", c.id())}
                    onclick={Callback::from(move |_| on_select.emit(target.clone()))}>
                    <span aria-hidden="true">{glyph(c.outcome)}</span>{outcome}
                    if c.unaffected { <sup aria-hidden="true">{"†"}</sup> }
                </button>
            </td>
        }
    };
    html! {
        <section class="compare" data-testid="compare">
            <p class="eyebrow">{"Compare designs"}</p>
            <h1 id="lesson-title">{"One schedule, every design"}</h1>
            <p class="lede">
                {"The same two clients every time: A takes the lock and works, B wants it from 20 ms on, and every lease lasts 1,000 ms. \
                  Each column applies one fault to A or to the lock service. Choose a cell to watch that run step by step."}
            </p>
            <div class="compare-scroll">
                <table class="compare-table">
                    <thead>
                        <tr>
                            <th scope="col">{"Design"}</th>
                            <th scope="col">{"Fencing token from"}</th>
                            { for SCHEDULES.iter().map(|s| html! { <th scope="col" title={s.about}>{s.title}</th> }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for props.rows.iter().filter_map(|row| row.first().map(|first| html! {
                            <tr>
                                <th scope="row">{first.row.title}</th>
                                <td class="token">{first.row.token}</td>
                                { for row.iter().map(cell) }
                            </tr>
                        })) }
                    </tbody>
                </table>
            </div>
            <dl class="schedule-notes">
                { for SCHEDULES.iter().map(|s| html! { <><dt>{s.title}</dt><dd>{s.about}</dd></> }) }
            </dl>
            <p class="compare-key">
                <span class="cell cell--safe">{"✓ safe"}</span>{" no stale write reached the data "}
                <span class="cell cell--unsafe">{"✗ unsafe"}</span>{" a stale write was accepted "}
                <span class="cell cell--stalls">{"‖ stalls"}</span>{" safe, but B waited for A to come back"}
                <span class="compare-dagger">{"† the fault does not touch this design: its session timers measure elapsed time, not the wall clock"}</span>
            </p>
        </section>
    }
}
