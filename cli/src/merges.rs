//! `explore --show-merges`: each merge of states at a loop's exit, its
//! merged condition beside the disjunction of the states' own, with their
//! sizes, as the page's merged-formula view shows them; and the regular
//! patterns of the states' words.

use symplay_engine::report::{FormulaSize, MergeReport, RegularPatterns, Report, Synthesis};
use symplay_engine::solver::{CellOrigin, QuantifiedQuery};

/// The merges of `r`, a paragraph each.
pub fn show_merges(r: &Report) -> String {
    let mut text = String::new();
    for (k, m) in r.merges.iter().enumerate() {
        let leaves: Vec<String> = (r.tree.get(m.node))
            .map(|n| n.merged_from.iter().map(|l| l.to_string()).collect())
            .unwrap_or_default();
        let place = match m.incremental {
            true => format!(
                "nodes {}) at {} in the loop at {}, incrementally below node {}",
                leaves.join(", "),
                m.point.as_ref().map_or_else(String::new, |p| p.text()),
                m.loop_at.text(),
                m.root
            ),
            false => format!(
                "leaves {}) at an exit of the loop at {}",
                leaves.join(", "),
                m.loop_at.text()
            ),
        };
        text.push_str(&format!(
            "merge {} at node {}: {} states ({place}, {}{}\n",
            k + 1,
            m.node,
            m.states,
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
        text.push_str(&over_k_text(r, m));
        text.push_str(&patterns_text(&m.patterns, &formula));
    }
    text
}

/// Under PAT, where the states merged over a k: each state's k and leaf,
/// and the quantified queries over k, the first few with their models.
fn over_k_text(r: &Report, m: &MergeReport) -> String {
    const SHOWN: usize = 3;
    let Some(k) = &m.k else {
        return String::new();
    };
    let merged_from = r.tree.get(m.node).map_or(&[][..], |n| &n.merged_from);
    let leaves: Vec<String> = (m.states_by_k(merged_from).iter())
        .map(|(kj, leaf, _)| format!("{k} = {kj}: leaf {leaf}"))
        .collect();
    let mut text = format!("  over {k}: {}\n", leaves.join(", "));
    let queries: Vec<&QuantifiedQuery> = m.queries(&r.quantified_queries).collect();
    text.push_str(&format!(
        "  quantified queries over {k}: {}\n",
        queries.len()
    ));
    for q in queries.iter().take(SHOWN) {
        let stage = q
            .stage
            .map_or(String::new(), |s| format!(" at {}", s.name()));
        text.push_str(&format!("    {}{stage}, {} us", q.answer, q.micros));
        if !q.model.is_empty() {
            text.push_str(&format!(": {}", q.model.join("; ")));
        }
        for origin in [CellOrigin::Duplicated, CellOrigin::Protected] {
            let cells: Vec<String> = (q.cells.iter())
                .filter(|c| c.origin == origin)
                .map(|c| format!("{}[{}]", c.array, c.index))
                .collect();
            if !cells.is_empty() {
                text.push_str(&format!(" ({} {})", origin.name(), cells.join(", ")));
            }
        }
        text.push('\n');
    }
    text
}

fn patterns_text(p: &RegularPatterns, formula: &dyn Fn(u32) -> String) -> String {
    if let Some(why) = &p.none_because {
        return format!("  regular patterns: none ({why})\n");
    }
    let mut text = format!(
        "  regular patterns: {} words, {} letters, {} partitions\n",
        p.words.len(),
        p.letters.len(),
        p.partitions.len()
    );
    for part in &p.partitions {
        text.push_str(&format!(
            "    {}: {} states, k = {}\n",
            part.pattern_text(),
            part.members.len(),
            part.ks_text()
        ));
        text.push_str(&synthesis_text(&part.synthesis, formula));
    }
    if !p.alone.is_empty() {
        text.push_str(&format!("    in no partition: {}\n", p.alone_text()));
    }
    for (l, &f) in p.letters.iter().enumerate() {
        let name = RegularPatterns::letter(l as u32);
        text.push_str(&format!("    {name}: {}\n", formula(f)));
    }
    text
}

/// A partition's formula pattern: φ1, φ2(x) and φ3(x), each varying
/// constant's fit, and the values as terms of x; or why it has none.
fn synthesis_text(s: &Synthesis, formula: &dyn Fn(u32) -> String) -> String {
    let p = match s {
        Synthesis::NotTried => return String::new(),
        Synthesis::Fallback(why) => {
            return format!(
                "      no formula pattern: {why}
"
            )
        }
        Synthesis::Pattern(p) => p,
    };
    let x = &p.variable;
    let mut text = format!(
        "      φ1 = {}
      φ2({x}) = {}
      φ3({x}) = {}
",
        formula(p.first),
        formula(p.repeated),
        formula(p.last)
    );
    let fits = [("φ2", &p.repeated_holes), ("φ3", &p.last_holes)];
    for (part, holes) in fits {
        for h in holes {
            text.push_str(&format!(
                "      {part}'s constants {}: {}
",
                h.instances_text(x),
                h.formula(x)
            ));
        }
    }
    for v in &p.values {
        match (v.term, &v.reason) {
            (Some(t), _) => text.push_str(&format!(
                "      {} = {}
",
                v.place,
                formula(t)
            )),
            (None, why) => text.push_str(&format!(
                "      {}: ite ({})
",
                v.place,
                why.as_deref().unwrap_or("no term of k")
            )),
        }
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
