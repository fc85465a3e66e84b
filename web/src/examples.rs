//! The examples gallery: the C programs of `static/examples/c/`, compiled
//! `.wasm` included in the page, with the entry to explore.

pub struct Example {
    pub id: &'static str,
    pub title: &'static str,
    /// What exploring it shows.
    pub about: &'static str,
    pub entry: &'static str,
    /// The C file's name, as the module's line tables name it.
    pub c_file: &'static str,
    pub c_source: &'static str,
    pub wasm: &'static [u8],
}

macro_rules! example {
    ($id:literal, $file:literal, $entry:literal, $title:literal, $about:literal) => {
        Example {
            id: $id,
            title: $title,
            about: $about,
            entry: $entry,
            c_file: concat!($file, ".c"),
            c_source: include_str!(concat!("../../static/examples/c/", $file, ".c")),
            wasm: include_bytes!(concat!("../../static/examples/c/", $file, ".wasm")),
        }
    };
}

pub static EXAMPLES: &[Example] = &[
    example!(
        "sign",
        "get_sign",
        "get_sign",
        "Sign",
        "exactly three paths, one per sign"
    ),
    example!(
        "division",
        "divide",
        "divide",
        "Division by zero",
        "a division by zero and an overflow, each with its input"
    ),
    example!(
        "table",
        "table_lookup",
        "lookup",
        "Table lookup",
        "an out-of-bounds read of a constant table at a symbolic index"
    ),
    example!(
        "string",
        "string_scan",
        "string_length",
        "String scan",
        "strlen over a symbolic string: one path per length"
    ),
    example!(
        "parser",
        "parse_int",
        "parse_int",
        "A small parser",
        "a decimal parser whose assertion fails on -0"
    ),
    example!(
        "loop",
        "sum_to",
        "sum_to",
        "Loop with a symbolic bound",
        "one path per trip count, the bound assumed between 0 and 8"
    ),
    example!(
        "password",
        "password",
        "check_password",
        "Password check",
        "the password, found one character at a time"
    ),
    example!(
        "heap",
        "heap",
        "copy_record",
        "Heap allocation",
        "symbolic bytes through malloc'd memory (wasi-libc)"
    ),
    example!(
        "heap-overflow",
        "heap_overflow",
        "copy_name",
        "Heap overflow",
        "an off-by-one write past a malloc'd block, which Wasm allows and Symplay reports"
    ),
    example!(
        "use-after-free",
        "use_after_free",
        "open_conn",
        "Use after free",
        "a block read after the error path freed it, with its malloc and free sites"
    ),
    example!(
        "double-free",
        "double_free",
        "parse_pair",
        "Double free",
        "goto-style cleanup that frees a block twice, for input starting with '='"
    ),
    example!(
        "dangling-pointer",
        "dangling_pointer",
        "first_letter",
        "Use after return",
        "a pointer to a returned function's stack buffer, read back by its caller"
    ),
    example!(
        "length-read",
        "length_read",
        "first_header",
        "Read past a buffer of symbolic length",
        "a bug for one length only: found with symbolic sizes, missed with size mode base"
    ),
    example!(
        "pointer-array",
        "pointer_array",
        "store",
        "Pointer array",
        "a symbolic index into heap pointers: a path per block it may hit, one for the rest"
    ),
    example!(
        "strchr-chain",
        "strchr_chain",
        "field_gap",
        "String scans of symbolic length",
        "correct code whose path count depends on the size mode"
    ),
    example!(
        "checksum",
        "checksum",
        "check_packet",
        "Checksum",
        "the packet whose checksum is 0xcafe1234"
    ),
    example!(
        "printf",
        "wasi_classify",
        "classify",
        "printf through WASI",
        "standard output captured per path"
    ),
];

impl Example {
    /// The compiled module's file name, as `get_sign.wasm`.
    pub fn wasm_file(&self) -> String {
        format!("{}.wasm", self.c_file.trim_end_matches(".c"))
    }
}

pub fn find(id: &str) -> Option<&'static Example> {
    EXAMPLES.iter().find(|e| e.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use symplay_engine::exec::{explore, Options};
    use symplay_engine::report::Report;

    #[test]
    fn every_example_loads_and_explores_its_entry() {
        assert!(EXAMPLES.len() >= 8);
        for e in EXAMPLES {
            let module = symplay_wasm::load(e.wasm).unwrap_or_else(|err| panic!("{}: {err}", e.id));
            let report = explore(&module, e.entry, &Options::default())
                .unwrap_or_else(|err| panic!("{}: {err}", e.id));
            assert_eq!(report.stop_reason, "completed", "{}", e.id);
            assert!(!report.paths.is_empty(), "{}", e.id);
            assert!(e.c_source.contains(e.entry), "{}", e.id);
            assert!(find(e.id).is_some_and(|f| std::ptr::eq(f, e)));
        }
    }

    /// Byte offsets and C lines aside (`wat` lays code out unlike lld, so
    /// text has no line tables), the report as it compares across
    /// encodings.
    fn without_offsets(mut r: Report) -> Report {
        // (And without the figures: times differ from run to run.)
        r.stats = Default::default();
        let locations = r.paths.iter_mut().flat_map(|p| {
            let objects = p.objects.iter_mut();
            let sites =
                objects.flat_map(|o| std::iter::once(&mut o.site).chain(o.freed_at.as_mut()));
            std::iter::once(&mut p.location).chain(sites)
        });
        let drops = r.drops.iter_mut().map(|d| &mut d.location);
        let concretised = r.concretised.iter_mut().map(|c| &mut c.location);
        let forks = r.tree.iter_mut().filter_map(|n| n.fork.as_mut());
        for l in locations.chain(forks).chain(drops).chain(concretised) {
            l.offset = 0;
            l.source = None;
        }
        // Notes end with where they were made.
        for note in r.paths.iter_mut().flat_map(|p| p.notes.iter_mut()) {
            note.truncate(note.find(" at ").unwrap_or(note.len()));
        }
        r
    }

    /// The editor holds an example as WAT text; assembled again, it gives
    /// the same paths. Only the binary has C lines, which is why the page
    /// runs an example's binary until its text is edited.
    #[test]
    fn every_example_as_wat_text_explores_the_same() {
        for e in EXAMPLES {
            let text = crate::disassembly::to_wat(e.wasm).unwrap();
            let binary = symplay_wasm::load(e.wasm).unwrap();
            let again = symplay_wasm::load(text.as_bytes()).unwrap();
            assert!(binary.source_lines.is_some(), "{}", e.id);
            assert!(again.source_lines.is_none(), "{}", e.id);
            let a = explore(&binary, e.entry, &Options::default()).unwrap();
            let b = explore(&again, e.entry, &Options::default()).unwrap();
            let own_code = |p: &symplay_engine::report::PathReport| p.location.source.is_some();
            assert!(a.paths.iter().any(own_code), "{}", e.id);
            assert_eq!(without_offsets(a), without_offsets(b), "{}", e.id);
        }
    }
}
