//! A counter button: the least a Yew app can be.

use yew::prelude::*;

#[component]
fn App() -> Html {
    let n = use_state(|| 0);
    let onclick = {
        let n = n.clone();
        Callback::from(move |_| n.set(*n + 1))
    };
    html! { <button {onclick}>{ format!("clicked {}", *n) }</button> }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
