//! `explore --show-merges`: each merge of states at a loop's exit, its
//! merged condition beside the disjunction of the states' own, with their
//! sizes, as the page's merged-formula view shows them.

use symplay_engine::report::{FormulaSize, MergeReport, Report};

/// The merges of `r`, a paragraph each.
pub fn show_merges(r: &Report) -> String {
    let mut text = String::new();
    for (k, m) in r.merges.iter().enumerate() {
        let leaves: Vec<String> = (r.tree.get(m.node))
            .map(|n| n.merged_from.iter().map(|l| l.to_string()).collect())
            .unwrap_or_default();
        text.push_str(&format!(
            "merge {} at node {}: {} states (leaves {}) at an exit of the loop at {}, {}{}\n",
            k + 1,
            m.node,
            m.states,
            leaves.join(", "),
            m.loop_at.text(),
            m.mode,
            if m.validated {
                ", proved right by the solver"
            } else {
                ""
            },
        ));
        let formula = |index: u32| {
            (r.formulas.terms.get(index as usize)).map_or_else(String::new, |f| f.readable.clone())
        };
        text.push_str(&format!(
            "  merged condition past the loop's start: {}\n    {}\n",
            formula(m.condition),
            size_text(&m.condition_size)
        ));
        text.push_str(&format!(
            "  the states' disjunction: {}\n    {}\n",
            formula(m.disjunction),
            size_text(&m.disjunction_size)
        ));
        text.push_str(&values_text(m));
    }
    text
}

fn size_text(s: &FormulaSize) -> String {
    let cnf = match (s.cnf_variables, s.cnf_clauses) {
        (Some(v), Some(c)) => format!(", CNF {v} variables and {c} clauses"),
        _ => ", CNF not counted (too large)".into(),
    };
    format!("{} DAG nodes, {} or, {} ite{cnf}", s.nodes, s.ors, s.ites)
}

fn values_text(m: &MergeReport) -> String {
    match m.values {
        0 => "  values: the states held the same\n".into(),
        n => format!(
            "  values: {n} differed, now {} DAG nodes with {} ite\n",
            m.values_size.nodes, m.values_size.ites
        ),
    }
}
