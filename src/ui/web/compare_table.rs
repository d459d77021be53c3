//! The comparison table (its text comes from [`crate::ui::panels::compare_table`]; the page's
//! route handler opens whichever cell is chosen).

use crate::scenario::compare::Cell;
use crate::ui::panels;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct Props {
    pub rows: Rc<Vec<Vec<Cell>>>,
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.rows, &other.rows)
    }
}

#[component]
pub fn CompareTable(props: &Props) -> Html {
    html! { <section class="compare" data-testid="compare">{ Html::from_html_unchecked(panels::compare_table(&props.rows).into()) }</section> }
}
