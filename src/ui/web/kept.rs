//! A part of the page written as HTML text and kept in place when its text changes: the nodes
//! already in the page are brought in line with the new text, so an edited field keeps its focus
//! (and is not blurred, re-made and focused again) and what did not change is left alone.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, Node};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct KeptProps {
    pub html: AttrValue,
}

/// `html` in a box of its own that takes no room in the layout (`display: contents`).
#[component]
pub fn Kept(props: &KeptProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(props.html.clone(), move |html| {
            if let Some(el) = node.cast::<Element>() {
                if el.has_child_nodes() {
                    morph(&el, html);
                } else {
                    el.set_inner_html(html);
                }
            }
        });
    }
    html! { <div class="kept" ref={node}></div> }
}

/// Brings `live`'s children in line with `html`.
fn morph(live: &Element, html: &str) {
    let Some(fresh) = live.owner_document().and_then(|d| d.create_element("div").ok()) else { return live.set_inner_html(html) };
    fresh.set_inner_html(html);
    children(live, &fresh);
}

/// The child nodes of `node`, as they are now.
fn child_list(node: &Node) -> Vec<Node> {
    let list = node.child_nodes();
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// Brings `live`'s children in line with `fresh`'s: pairs that are equal (the browser compares
/// whole subtrees) are left alone; an element of the same name is brought in line in place; any
/// other pair, or children of a different count, are replaced by `fresh`'s.
fn children(live: &Node, fresh: &Node) {
    let (old, new) = (child_list(live), child_list(fresh));
    if old.len() != new.len() {
        live.set_text_content(None);
        for n in &new {
            let _ = live.append_child(n);
        }
        return;
    }
    for (a, b) in old.iter().zip(&new) {
        if a.is_equal_node(Some(b)) {
            continue;
        }
        match (a.dyn_ref::<Element>(), b.dyn_ref::<Element>()) {
            (Some(x), Some(y)) if x.tag_name() == y.tag_name() => element(x, y),
            _ => {
                let _ = live.replace_child(b, a);
            }
        }
    }
}

/// Brings element `live` in line with `fresh`: its attributes, its children, and what a form
/// field shows (a field's value attribute does not change what it shows once it was edited),
/// unless the field is marked invalid.
fn element(live: &Element, fresh: &Element) {
    let names = |el: &Element| -> Vec<String> { el.get_attribute_names().iter().filter_map(|n| n.as_string()).collect() };
    let wanted = names(fresh);
    for name in names(live).iter().filter(|n| !wanted.contains(n)) {
        let _ = live.remove_attribute(name);
    }
    for name in &wanted {
        let value = fresh.get_attribute(name).unwrap_or_default();
        if live.get_attribute(name).as_deref() != Some(value.as_str()) {
            let _ = live.set_attribute(name, &value);
        }
    }
    children(live, fresh);
    // A field whose change was refused keeps what the person typed, to be put right.
    let refused = fresh.has_attribute("aria-invalid");
    if let Some(input) = live.dyn_ref::<HtmlInputElement>().filter(|_| !refused) {
        let value = fresh.get_attribute("value").unwrap_or_default();
        if input.value() != value {
            input.set_value(&value);
        }
        input.set_checked(fresh.has_attribute("checked"));
    } else if let (Some(select), Some(chosen)) = (live.dyn_ref::<HtmlSelectElement>(), fresh.dyn_ref::<HtmlSelectElement>()) {
        select.set_selected_index(chosen.selected_index());
    }
}
