//! The repository's files, for the tests that read sources and docs.

use std::path::{Path, PathBuf};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file under `dir` whose name ends with one of `endings`, but for
/// build products and installed packages.
pub fn files(dir: &Path, endings: &[&str], found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | "node_modules" | "dist" | ".git") {
                files(&path, endings, found);
            }
        } else if endings.iter().any(|e| name.ends_with(e)) {
            found.push(path);
        }
    }
}
