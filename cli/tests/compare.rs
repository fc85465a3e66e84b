//! `symplay compare`: two configurations of one module side by side, and
//! the bugs one found and the other did not.

mod common;

use common::{example, symplay};

#[test]
fn base_misses_the_length_dependent_bug_that_fork_lazy_finds() {
    let file = example("length_read.wasm");
    let json = std::env::temp_dir().join(format!("symplay-compare-{}.json", std::process::id()));
    let json = json.to_string_lossy();
    let (code, stdout, stderr) = symplay(&[
        "compare",
        &file,
        "--left",
        "--size-mode base --search dfs",
        "--right",
        "--size-mode fork-lazy --search dfs",
        "--json",
        &json,
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("compared first_header under two configurations\nleft:  --size-mode base --search dfs\nright: --size-mode fork-lazy --search dfs\n"), "{stdout}");
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}: {stdout}"))
            .split_whitespace()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("paths"), ["1.15", "15", "13"]);
    assert_eq!(row("memory errors"), ["-", "1", "0"]);
    assert!(stdout.contains("bugs only left: none\n"), "{stdout}");
    assert!(
        stdout.contains("bugs only right:\n  buffer_overflow at first_header+0x"),
        "{stdout}"
    );
    let both: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&*json).unwrap()).unwrap();
    assert_eq!(both["left"]["heap"]["size_mode"], "base");
    assert_eq!(both["right"]["heap"]["size_mode"], "fork-lazy");
    assert_eq!(both["right"]["paths"].as_array().unwrap().len(), 15);
}

#[test]
fn a_bad_side_is_named() {
    let file = example("length_read.wasm");
    for (left, error) in [
        (
            "--sise-mode base",
            "--left \"--sise-mode base\": unexpected argument '--sise-mode'",
        ),
        ("--size-mode bse", "--left: unknown size mode `bse`"),
        (
            "--json x.json",
            "--left: --json and --entry are options of compare itself",
        ),
    ] {
        let (code, stdout, stderr) = symplay(&["compare", &file, "--left", left, "--right", ""]);
        assert_eq!(code, 2, "{left}");
        assert!(stdout.is_empty(), "{left}: {stdout}");
        assert!(stderr.contains(error), "{left}: {stderr}");
    }
}
