//! `symplay explore --shard I/N` and `symplay merge`: the shards of a run,
//! run at once as processes of their own (one as a Slurm job array's
//! script runs it, its index from `SLURM_ARRAY_TASK_ID`), merged into the
//! report of one run: its summary, paths, coverage and exit status. What
//! does not fit is refused with what is wrong.

mod common;

use common::symplay;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use symplay_engine::report::Report;

/// Eight branches on the low bits of `x`, then `acc / (x >> 8)`: 256
/// paths, each of which traps where `x >> 8` is 0.
const BITS_THEN_DIVIDE: &str = r#"(module
  (func (export "f") (param i32) (result i32) (local i32) (local i32)
    (loop
      (if (i32.and (local.get 0) (i32.shl (i32.const 1) (local.get 2)))
        (then (local.set 1 (i32.add (local.get 1) (local.get 2)))))
      (br_if 0 (i32.lt_u (local.tee 2 (i32.add (local.get 2) (i32.const 1))) (i32.const 8))))
    (i32.div_u (local.get 1) (i32.shr_u (local.get 0) (i32.const 8)))))"#;

/// A directory of this test's own under the system's temporary one.
fn scratch(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("symplay-{what}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read(path: &PathBuf) -> Report {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn shards_run_as_processes_merge_into_one_runs_report() {
    let dir = scratch("shards");
    let wat = dir.join("bits.wat");
    std::fs::write(&wat, BITS_THEN_DIVIDE).unwrap();
    let wat = wat.to_string_lossy().into_owned();
    let shard_json = |i: u32| dir.join(format!("shard{i}.json"));
    let explore = |i: u32| {
        let json = shard_json(i).to_string_lossy().into_owned();
        let mut command = Command::new(env!("CARGO_BIN_EXE_symplay"));
        command.args(["explore", &wat, "--entry", "f", "--json", &json]);
        command.arg("--shard").arg(format!("{i}/3"));
        command
    };
    // Shard 1 as a Slurm job array's task runs it: the index from its
    // environment, through the shell.
    let mut slurm = Command::new("sh");
    slurm.arg("-c").arg(format!(
        "exec '{}' explore '{wat}' --entry f --json '{}' --shard \"$SLURM_ARRAY_TASK_ID/3\"",
        env!("CARGO_BIN_EXE_symplay"),
        shard_json(1).display()
    ));
    slurm.env("SLURM_ARRAY_TASK_ID", "1");
    let running: Vec<Child> = [explore(0), slurm, explore(2)]
        .into_iter()
        .map(|mut c| c.stdout(Stdio::piped()).spawn().unwrap())
        .collect();
    for (i, child) in running.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(13), "shard {i}: {stdout}");
        assert!(
            stdout.contains(&format!("shard {i}/3: of the 24 waiting states")),
            "{stdout}"
        );
    }
    let shard_paths: Vec<usize> = (0..3).map(|i| read(&shard_json(i)).paths.len()).collect();
    assert!(
        shard_paths.iter().all(|&n| n < 512 / 2),
        "each shard explores a share: {shard_paths:?}"
    );

    let whole_json = dir.join("whole.json").to_string_lossy().into_owned();
    let (code, whole_out, _) = symplay(&["explore", &wat, "--entry", "f", "--json", &whole_json]);
    assert_eq!(code, 13);
    let merged_json = dir.join("merged.json").to_string_lossy().into_owned();
    let files: Vec<String> = [2, 0, 1]
        .iter()
        .map(|&i| shard_json(i).to_string_lossy().into_owned())
        .collect();
    let mut args = vec!["merge", "--json", &merged_json];
    args.extend(files.iter().map(String::as_str));
    let (code, merged_out, stderr) = symplay(&args);
    assert_eq!(code, 13, "{stderr}");
    assert_eq!(
        merged_out.lines().next(),
        whole_out.lines().next(),
        "the merged summary counts the paths one run does"
    );
    assert!(merged_out.contains("512 paths"), "{merged_out}");
    let (merged, whole) = (read(&merged_json.into()), read(&whole_json.into()));
    assert_eq!(merged.paths.len(), whole.paths.len());
    assert_eq!(merged.coverage, whole.coverage);
    assert_eq!(merged.stop_reason, "completed");
    assert!(merged.shard.is_none());

    // Without shard 1: its states pending, said, the bugs of the others.
    let (code, stdout, _) = symplay(&["merge", &files[0], &files[1]]);
    assert_eq!(code, 13);
    assert!(stdout.contains("warning: shard 1/3 missing"), "{stdout}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn shard_options_and_reports_that_do_not_fit_are_refused() {
    let dir = scratch("shard-errors");
    let divide = common::example("divide.wasm");
    let refused = |args: &[&str], status: i32, why: &str| {
        let (code, _, stderr) = symplay(args);
        assert_eq!(code, status, "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    };
    let explore = ["explore", &divide, "--entry", "divide"];
    refused(
        &[&explore[..], &["--shard", "3/3"]].concat(),
        2,
        "I is 3, and shards count from 0 to 2",
    );
    refused(&[&explore[..], &["--shard", "x"]].concat(), 2, "no `/`");
    refused(
        &[&explore[..], &["--shard", "0/2", "--jobs", "2"]].concat(),
        2,
        "--shard runs one job",
    );
    refused(
        &[&explore[..], &["--shard", "0/2", "--merge", "cfg"]].concat(),
        2,
        "does not merge states",
    );

    let shard0 = dir.join("0.json").to_string_lossy().into_owned();
    let (code, _, _) = symplay(&[&explore[..], &["--shard", "0/2", "--json", &shard0]].concat());
    assert_eq!(code, 13);
    refused(&["merge", &shard0, &shard0], 2, "are both shard 0/2");
    let whole = dir.join("whole.json").to_string_lossy().into_owned();
    symplay(&[&explore[..], &["--json", &whole]].concat());
    refused(&["merge", &whole], 2, "not of a shard");
    let text = dir.join("text.json").to_string_lossy().into_owned();
    std::fs::write(&text, "not a report").unwrap();
    refused(&["merge", &text], 2, "is not a Symplay report");
    refused(&["merge", "no-such-report.json"], 1, "cannot read");
    refused(&["merge"], 2, "REPORT");
    std::fs::remove_dir_all(&dir).ok();
}
