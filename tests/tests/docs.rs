//! The docs are maps that match the code. The README claims only what
//! tests show: every row of its status table that says a capability works,
//! or works in part, names the tests that show it, and each of them exists
//! (a Rust test function, or a browser journey by its title); every path
//! the table points to is in the repository. `docs/architecture.md` names
//! every source folder and file of the crates, and every path it names
//! exists.

use std::path::Path;
use symplay_tests::sources::{files, root};

/// The rows of the README's status table, each as its cells.
fn status_rows(readme: &str) -> Vec<Vec<String>> {
    let table = readme
        .split("\n## Status")
        .nth(1)
        .expect("the README has a Status section");
    table
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        // The header and the line under it.
        .skip(2)
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The spans of `cell` in backticks.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

#[test]
fn every_status_row_that_claims_something_names_tests_that_exist() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let rows = status_rows(&readme);
    assert!(rows.len() >= 10, "{} rows", rows.len());
    let mut rust = Vec::new();
    files(&root, &[".rs"], &mut rust);
    let rust: Vec<String> = rust
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let mut journeys = Vec::new();
    files(&root.join("tests/browser"), &[".mjs"], &mut journeys);
    let journeys: Vec<String> = journeys
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let mut claims = 0;
    for row in &rows {
        let [capability, status, place, _try_it, tested] = &row[..] else {
            panic!("a status row has five cells: {row:?}");
        };
        for path in code_spans(place) {
            assert!(
                root.join(path).exists(),
                "{capability}: {path} is not in the repository"
            );
        }
        if status.starts_with("not yet") {
            continue;
        }
        assert!(
            status.starts_with("works") || status.starts_with("partial"),
            "{capability}: status {status}"
        );
        claims += 1;
        let tests = code_spans(tested);
        assert!(!tests.is_empty(), "{capability} names no test");
        for test in tests {
            let found = match test.strip_prefix("journey: ") {
                Some(title) => journeys.iter().any(|j| j.contains(title)),
                None => rust.iter().any(|r| r.contains(&format!("fn {test}("))),
            };
            assert!(found, "{capability}: no test {test}");
        }
    }
    assert!(claims >= 8, "{claims} rows claim something");
}

/// The crates' source folders, as `docs/architecture.md` heads their tables.
const SOURCE_ROOTS: [&str; 5] = [
    "wasm-frontend/src",
    "engine/src",
    "cli/src",
    "web/src",
    "tests/src",
];

/// A row of a table in `docs/architecture.md`: the section's source root
/// (none for the sections about the repository), the paths of its first
/// cell and the spans of its job.
struct MapRow {
    root: Option<&'static str>,
    paths: Vec<String>,
    job: Vec<String>,
}

fn map_rows(map: &str) -> Vec<MapRow> {
    let mut root = None;
    let mut rows = Vec::new();
    for line in map.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            root = SOURCE_ROOTS.iter().copied().find(|r| *r == heading.trim());
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').collect();
        if !line.starts_with('|') || cells.len() < 2 || cells[0].contains("---") {
            continue;
        }
        rows.push(MapRow {
            root,
            paths: code_spans(cells[0]).into_iter().map(String::from).collect(),
            job: code_spans(cells[1]).into_iter().map(String::from).collect(),
        });
    }
    rows
}

/// Unit tests beside their module (`tests.rs`, a `tests/` folder) are part
/// of it, not modules of their own.
fn is_unit_test(relative: &str) -> bool {
    relative.ends_with("tests.rs") || relative.split('/').any(|part| part == "tests")
}

/// Whether the map names `relative` (a path under `root`, a folder ending
/// in `/`): as a path of a row's first cell, or by its first part below a
/// folder a row names (`exec/api/` names `exploration` for
/// `exec/api/exploration.rs`, and `mod.rs` is its folder's).
fn named(rows: &[MapRow], root: &str, relative: &str) -> bool {
    rows.iter().filter(|row| row.root == Some(root)).any(|row| {
        row.paths.iter().any(|path| {
            if path == relative {
                return true;
            }
            let Some(below) = path
                .strip_suffix('/')
                .and_then(|folder| relative.strip_prefix(folder))
                .and_then(|rest| rest.strip_prefix('/'))
            else {
                return false;
            };
            let first = match below.split_once('/') {
                Some((folder, _)) => format!("{folder}/"),
                None => below.trim_end_matches(".rs").to_string(),
            };
            first == "mod" || row.job.contains(&first)
        })
    })
}

/// The source files and folders under `dir`, relative to it.
fn source_tree(dir: &Path, prefix: &str, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let relative = format!("{prefix}{name}");
        if entry.path().is_dir() {
            found.push(format!("{relative}/"));
            source_tree(&entry.path(), &format!("{relative}/"), found);
        } else if name.ends_with(".rs") {
            found.push(relative);
        }
    }
}

#[test]
fn the_architecture_map_names_every_source_folder_and_file() {
    let root = root();
    let map = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let rows = map_rows(&map);
    let mut unnamed = Vec::new();
    let mut checked = 0;
    for source in SOURCE_ROOTS {
        let mut tree = Vec::new();
        source_tree(&root.join(source), "", &mut tree);
        for relative in tree.iter().filter(|r| !is_unit_test(r)) {
            checked += 1;
            // A folder is named by a row of its own, or by all its files.
            let folder_by_files = relative.ends_with('/')
                && tree
                    .iter()
                    .filter(|f| f.starts_with(relative.as_str()) && !f.ends_with('/'))
                    .filter(|f| !is_unit_test(f))
                    .all(|f| named(&rows, source, f));
            if !named(&rows, source, relative) && !folder_by_files {
                unnamed.push(format!("{source}/{relative}"));
            }
        }
    }
    assert!(checked > 150, "{checked} source paths");
    assert!(
        unnamed.is_empty(),
        "not in docs/architecture.md: {unnamed:#?}"
    );
}

#[test]
fn every_path_the_architecture_map_names_exists() {
    let root = root();
    let map = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let rows = map_rows(&map);
    let mut missing = Vec::new();
    for row in &rows {
        for path in &row.paths {
            let full = match row.root {
                Some(source) => root.join(source).join(path),
                None => root.join(path),
            };
            if !full.exists() {
                missing.push(full.display().to_string());
            }
        }
    }
    // The design's prose names files from the repository's root, or from
    // the engine's source folder.
    let design = map.split("\n## ").nth(1).expect("a design section");
    let mut prose = 0;
    for span in code_spans(design) {
        if span.contains('/') && (span.ends_with(".rs") || span.ends_with('/')) {
            prose += 1;
            if !root.join(span).exists() && !root.join("engine/src").join(span).exists() {
                missing.push(span.to_string());
            }
        }
    }
    assert!(
        rows.len() > 80 && prose > 10,
        "{} rows, {prose} paths in prose",
        rows.len()
    );
    assert!(
        missing.is_empty(),
        "named in docs/architecture.md, not in the repository: {missing:?}"
    );
}
