//! The memory view of a path: its heap blocks and input buffers, one row
//! each (base, size, concrete or symbolic with its range, capacity and the
//! pieces a split object was cut into, live, freed or leaked, allocation
//! site), the segments blocks were moved into (`--resolve segment`), and
//! for a memory error its object
//! drawn byte by byte with the failing access on it. And the memory of an
//! inner node of the tree: the objects when it forked.

use symplay_engine::report::{segments_of, MemoryError, NodeMemory, ObjectReport, PathReport};
use yew::prelude::*;

/// Cells of the drawing of one object: a byte each up to this many.
const CELLS: u64 = 64;

#[derive(Properties, PartialEq)]
pub struct MemoryProps {
    pub path: PathReport,
}

#[function_component]
pub fn MemoryView(props: &MemoryProps) -> Html {
    let p = &props.path;
    if p.objects.is_empty() {
        return Html::default();
    }
    let error = p.memory_error.as_ref();
    let rows = p.objects.iter().map(|o| Row {
        object: o,
        size: o.size_text(),
        state: o.state_text(p),
        failing: error.and_then(|e| e.object) == Some(o.id),
    });
    html! {
        <div class="memory">
            { table(rows) }
            { for segments_of(&p.objects).into_iter().map(|s| html! {
                <p class="segment" title="--resolve segment: the blocks an access through a symbolic pointer could land in, moved next to each other so that the access reads one array of their bytes">
                    { s.describe() }</p>
            }) }
            { error.and_then(|e| {
                let o = p.objects.iter().find(|o| Some(o.id) == e.object)?;
                Some(bar(o, e))
            }).unwrap_or_default() }
        </div>
    }
}

/// One object of the table, with its size and state as the view says them.
struct Row<'a> {
    object: &'a ObjectReport,
    size: String,
    state: String,
    /// The object of the memory error.
    failing: bool,
}

fn table<'a>(rows: impl Iterator<Item = Row<'a>>) -> Html {
    html! {
        <table class="objects">
            <thead><tr>
                <th>{ "object" }</th><th>{ "base" }</th><th>{ "size" }</th>
                <th>{ "capacity" }</th><th>{ "state" }</th><th>{ "origin" }</th>
            </tr></thead>
            <tbody>
            { for rows.map(|r| html! {
                <tr class={classes!(r.failing.then_some("failing"))}>
                    <td>{ object_name(r.object) }</td>
                    <td>
                        if let Some(beta) = &r.object.base_symbol {
                            <code class="base-symbol" title="symbolic bases (--bases symbolic): pointers to this block are terms over its base symbol, and the address after it is the symbol's hidden address on this path">
                                { format!("{beta} = ") }</code>
                        }
                        <code>{ format!("0x{:x}", r.object.base) }</code></td>
                    <td>{ r.size }</td>
                    <td>{ r.object.capacity }
                        if let Some(n) = r.object.pieces {
                            <span class="pieces" title="split (--split): an access at a symbolic offset forked over these pieces, each read as an array of its own bytes">
                                { format!(" in {n} pieces") }</span>
                        }
                    </td>
                    <td>{ r.state }</td>
                    <td class="location">{ r.object.origin_text() }</td>
                </tr>
            }) }
            </tbody>
        </table>
    }
}

#[derive(Properties, PartialEq)]
pub struct NodeMemoryProps {
    /// The objects when the node forked, as a path below reports them.
    pub objects: Vec<ObjectReport>,
    pub memory: NodeMemory,
}

/// The objects of an inner node when it forked: made by then, live or
/// freed then; a symbolic size is shown as its term, which the paths
/// below may bound further.
#[function_component]
pub fn NodeMemoryView(props: &NodeMemoryProps) -> Html {
    let freed = &props.memory.freed;
    let rows = props.objects.iter().map(|o| Row {
        object: o,
        size: match &o.symbolic_size {
            Some(term) => format!("{term} (symbolic)"),
            None => o.size.to_string(),
        },
        state: match (&o.freed_at, freed.contains(&o.id)) {
            (Some(at), true) => format!("freed at {}", at.text()),
            _ => "live".to_string(),
        },
        failing: false,
    });
    html! { <div class="memory">{ table(rows) }</div> }
}

#[derive(Properties, PartialEq)]
pub struct StateMemoryProps {
    /// A state's objects as they are now.
    pub objects: Vec<ObjectReport>,
}

/// The objects of a state as they are now (step mode): live or freed, a
/// symbolic size as its term (no input is chosen yet).
#[function_component]
pub fn StateMemoryView(props: &StateMemoryProps) -> Html {
    let rows = props.objects.iter().map(|o| Row {
        object: o,
        size: match &o.symbolic_size {
            Some(term) => format!("{term} (symbolic)"),
            None => o.size.to_string(),
        },
        state: match &o.freed_at {
            Some(at) => format!("freed at {}", at.text()),
            None => "live".to_string(),
        },
        failing: false,
    });
    html! { <div class="memory">{ table(rows) }</div> }
}

fn object_name(o: &ObjectReport) -> String {
    match (&o.name, o.is_variable()) {
        (Some(name), true) => format!("#{} {} {name}", o.id, o.kind),
        (Some(name), false) => format!("#{} input {name}", o.id),
        (None, _) => format!("#{} heap block", o.id),
    }
}

/// The object as a row of cells (its size, then its spare capacity), with
/// a cell of its guard gap on each side, and the cells the access touches
/// marked.
fn bar(o: &ObjectReport, e: &MemoryError) -> Html {
    let span = o.capacity.max(1);
    let per_cell = span.div_ceil(CELLS).max(1);
    let cells = span.div_ceil(per_cell) as i64;
    let valid = o.size.div_ceil(per_cell) as i64;
    let offset = e.offset.unwrap_or(0);
    let width = i64::from(e.width.max(1));
    // Cells from -1 (the gap before) to `cells` (the gap after).
    let cell_of = |byte: i64| (byte.div_euclid(per_cell as i64)).clamp(-1, cells);
    let (first, last) = (cell_of(offset), cell_of(offset + width - 1));
    let access = e.access_at_offset();
    let scale = if per_cell > 1 {
        format!(" (a cell is {per_cell} bytes)")
    } else {
        String::new()
    };
    html! {
        <figure class="object-bar">
            <div class="cells">
            { for (-1..=cells).map(|c| {
                let kind = if c < 0 || c == cells {
                    "gap"
                } else if c < valid {
                    "byte"
                } else {
                    "spare"
                };
                let hit = (first..=last).contains(&c);
                html! { <span class={classes!("cell", kind, hit.then_some("hit"))}></span> }
            }) }
            </div>
            <figcaption>{ format!(
                "{}: {access} of {}{scale}",
                e.kind.name(),
                object_name(o)
            ) }</figcaption>
        </figure>
    }
}
