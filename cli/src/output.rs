//! Where `--json OUT` goes: a file opened before the run (so that a path
//! that cannot be written is refused before the work is done), or standard
//! output for `-`, in which case the readable text goes to standard error.

use crate::status::Failure;
use std::fs::{File, OpenOptions};
use std::io::{Seek, Write};

pub struct Output {
    path: String,
    /// The file; `None` for standard output.
    file: Option<File>,
    /// Made by [`Output::open`], so removed again if nothing is written.
    created: bool,
    written: bool,
}

impl Output {
    /// Opens `path` for writing without changing it yet.
    pub fn open(path: &str) -> Result<Output, Failure> {
        if path == "-" {
            return Ok(Output {
                path: path.into(),
                file: None,
                created: false,
                written: false,
            });
        }
        let created = std::fs::metadata(path).is_err();
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| Failure::Error(format!("cannot write {path}: {e}")))?;
        Ok(Output {
            path: path.into(),
            file: Some(file),
            created,
            written: false,
        })
    }

    /// Opens `path` if one is given.
    pub fn open_optional(path: Option<&str>) -> Result<Option<Output>, Failure> {
        path.map(Output::open).transpose()
    }

    pub fn is_stdout(&self) -> bool {
        self.file.is_none()
    }

    /// Replaces what the file held with `text`.
    pub fn write(mut self, text: &str) -> Result<(), Failure> {
        self.written = true;
        let failed = |e: std::io::Error| Failure::Error(format!("cannot write {}: {e}", self.path));
        match &mut self.file {
            None => std::io::stdout().write_all(text.as_bytes()).map_err(failed),
            Some(file) => {
                file.set_len(0).map_err(failed)?;
                file.rewind().map_err(failed)?;
                file.write_all(text.as_bytes()).map_err(failed)
            }
        }
    }
}

impl Drop for Output {
    /// A run that failed leaves no empty file of its own behind.
    fn drop(&mut self) {
        if self.created && !self.written {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Prints readable text where it does not mix with JSON on standard
/// output.
pub fn say(json: Option<&Output>, text: &str) {
    if json.is_some_and(Output::is_stdout) {
        eprint!("{text}");
    } else {
        print!("{text}");
    }
}
