//! The shapes of `tests/data/memory/shapes.wat` the benchmark explores,
//! and the names their rows go by, which the goals look them up with.

use crate::measure::Case;

const FILE: &str = "tests/data/memory/shapes.wat";
/// The shapes that write into an input object.
const OBJECT_WRITES: &str = "tests/data/memory/object_writes.wat";
const PAGE: u32 = 65536;

/// The memories the same table reads are made in: a name, the pages the
/// 16-page memory grows by, and the bytes filled with non-zero bytes from
/// its second page on.
pub const READ_MEMORIES: [(&str, u32, u32); 3] = [
    ("16 pages", 0, 0),
    ("16 pages, 15 filled", 0, 15 * PAGE),
    ("256 pages, 255 filled", 240, 255 * PAGE),
];

/// The symbolic reads of a table-reads shape.
pub const TABLE_READS: f64 = 4.0;

pub fn reads_name(memory: &str) -> String {
    format!("{TABLE_READS} table reads, {memory}")
}

/// The input bytes of the 2^n shapes explored depth first.
pub fn branch_sizes(short: bool) -> Vec<u32> {
    if short {
        vec![8, 12]
    } else {
        (8..=16).collect()
    }
}

pub fn paths_name(n: u32) -> String {
    format!("2^{n} paths")
}

/// The input bytes of the 2^n shape explored breadth first.
pub fn breadth_first_size(short: bool) -> u32 {
    if short {
        13
    } else {
        16
    }
}

pub fn breadth_first_name(n: u32) -> String {
    format!("2^{n} paths, breadth first")
}

/// The pending states at which a breadth-first run over 16 written pages
/// stops splitting states: its widest frontier.
pub const PENDING_STATES: u32 = 10_000;

pub fn pending_name() -> String {
    format!("16 pages written, {PENDING_STATES} pending")
}

fn shape(name: String, entry: &str, more: &[String]) -> Case {
    let mut args = vec!["--entry".to_string(), entry.to_string()];
    args.extend(more.iter().cloned());
    Case {
        name,
        module: FILE.into(),
        args,
    }
}

/// `--concrete INDEX=VALUE` for each pair.
fn concrete(values: &[(u32, u32)]) -> Vec<String> {
    values
        .iter()
        .flat_map(|(index, value)| ["--concrete".to_string(), format!("{index}={value}")])
        .collect()
}

fn with_search(mut args: Vec<String>, search: &str) -> Vec<String> {
    args.extend(["--search".to_string(), search.to_string()]);
    args
}

pub fn all(short: bool) -> Vec<Case> {
    let mut all = vec![
        shape("table 256 B".into(), "table_lookup", &[]),
        shape(
            "table 256 B, 512 KiB filled".into(),
            "table_after_fill",
            &[],
        ),
        shape("table 4 KiB".into(), "table_4k", &[]),
    ];
    for (memory, grow, fill) in READ_MEMORIES {
        let args = concrete(&[(4, grow), (5, fill)]);
        all.push(shape(reads_name(memory), "table_reads", &args));
    }
    for writes in [4, 16] {
        let name = format!("{writes} writes into 1 KiB, 512 KiB filled");
        let mut case = shape(name, "object_writes", &concrete(&[(1, writes)]));
        case.module = OBJECT_WRITES.into();
        all.push(case);
    }
    let sizes: &[u32] = if short {
        &[64, 256, 1024]
    } else {
        &[64, 256, 1024, 4096]
    };
    for &n in sizes {
        let args = concrete(&[(1, n)]);
        all.push(shape(format!("index read, {n} B"), "index_read", &args));
    }
    let copied: &[u32] = if short { &[64, 256] } else { &[64, 256, 1024] };
    for &n in copied {
        let args = with_search(concrete(&[(0, n)]), "dfs");
        all.push(shape(format!("string copy, {n} B"), "string_copy", &args));
    }
    for n in branch_sizes(short) {
        let args = with_search(concrete(&[(0, n)]), "dfs");
        all.push(shape(paths_name(n), "branches", &args));
    }
    let n = breadth_first_size(short);
    let args = with_search(concrete(&[(0, n)]), "bfs");
    all.push(shape(breadth_first_name(n), "branches", &args));
    let mut args = with_search(concrete(&[(0, 16)]), "bfs");
    args.extend(["--max-paths".to_string(), PENDING_STATES.to_string()]);
    all.push(shape(pending_name(), "page_writes", &args));
    all
}
