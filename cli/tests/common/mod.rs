//! Helpers shared by the command-line tests: example paths and running the
//! `symplay` binary.

use std::path::PathBuf;
use std::process::Command;

pub fn example(name: &str) -> String {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "static",
        "examples",
        "c",
        name,
    ]
    .iter()
    .collect();
    path.to_string_lossy().into_owned()
}

pub fn symplay(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_symplay"))
        .args(args)
        .output()
        .expect("symplay runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        out.status.code().expect("exits normally"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}
