//! The examples gallery: the C programs of `static/examples/c/`, compiled
//! `.wasm` included in the page, with the entry to explore.

pub struct Example {
    pub id: &'static str,
    pub title: &'static str,
    /// What exploring it teaches, in two sentences.
    pub lesson: &'static str,
    pub entry: &'static str,
    /// The C file's name, as the module's line tables name it.
    pub c_file: &'static str,
    pub c_source: &'static str,
    pub wasm: &'static [u8],
    /// The options that show its point, set when it is chosen: option
    /// fields by id, and their values (the rest stay as they were).
    pub options: &'static [(&'static str, &'static str)],
}

macro_rules! example {
    ($id:literal, $file:literal, $entry:literal, $title:literal, $lesson:literal) => {
        example!($id, $file, $entry, $title, $lesson, [])
    };
    ($id:literal, $file:literal, $entry:literal, $title:literal, $lesson:literal, [$(($field:literal, $value:literal)),*]) => {
        Example {
            id: $id,
            title: $title,
            lesson: $lesson,
            entry: $entry,
            c_file: concat!($file, ".c"),
            c_source: include_str!(concat!("../../static/examples/c/", $file, ".c")),
            wasm: include_bytes!(concat!("../../static/examples/c/", $file, ".wasm")),
            options: &[$(($field, $value)),*],
        }
    };
}

/// In the order of a course: branches and paths first, then what the
/// solver finds, then programs with a C library, then heap bugs, then the
/// memory models compared.
pub static EXAMPLES: &[Example] = &[
    example!(
        "sign",
        "get_sign",
        "get_sign",
        "A first branch",
        "Each if on the symbolic x splits the execution tree in two, and a path that cannot happen is never taken. Three paths come out, x < 0, x = 0 and x > 0, each with an input that takes it."
    ),
    example!(
        "loop",
        "sum_to",
        "sum_to",
        "A loop with a symbolic bound",
        "Every trip count of a loop over a symbolic bound is a path of its own, so loops are where paths multiply. The assumption 0 <= n <= 8 bounds them: one leaf per count."
    ),
    example!(
        "division",
        "divide",
        "divide",
        "Division by zero",
        "Before each division the engine asks the solver whether the divisor can be zero or the quotient overflow. Each trap comes with the input that causes it, which Replay runs concretely."
    ),
    example!(
        "table",
        "table_lookup",
        "lookup",
        "An index out of bounds",
        "A symbolic index into a constant table may land outside it, and the solver finds where. The out-of-bounds read is reported with the index that makes it."
    ),
    example!(
        "string",
        "string_scan",
        "string_length",
        "Scanning a symbolic string",
        "strlen reads a symbolic string byte by byte, and each byte may or may not end it. The tree is a chain with one path per length, and the path condition grows by a byte at each step."
    ),
    example!(
        "parser",
        "parse_int",
        "parse_int",
        "An assertion in a parser",
        "A failed assertion is a bug like a trap: exploration looks for an input that breaks it. The decimal parser's assertion fails on -0, an input random testing seldom tries."
    ),
    example!(
        "password",
        "password",
        "check_password",
        "Finding a password",
        "Comparing a symbolic guess with a secret makes one branch per character. The one path that passes them all spells the password, found by the solver."
    ),
    example!(
        "checksum",
        "checksum",
        "check_packet",
        "A checksum",
        "A checksum defeats random inputs but is one equation for a solver. The path that reaches the bug gives the packet whose checksum is 0xcafe1234."
    ),
    example!(
        "printf",
        "wasi_classify",
        "classify",
        "printf through WASI",
        "A program built with a C library prints through WASI, which the engine provides. Each path's standard output is kept and shown with its input."
    ),
    example!(
        "heap",
        "heap",
        "copy_record",
        "Symbolic bytes on the heap",
        "Symbolic bytes copied into malloc'd memory keep their constraints, as the heap is modelled block by block. The assertion on the copy fails for a record starting with 'X', found for every length."
    ),
    example!(
        "heap-overflow",
        "heap_overflow",
        "copy_name",
        "A heap overflow",
        "Wasm lets a write run past a malloc'd block into its neighbour without a trap. Symplay's memory objects catch the off-by-one write and name the block and where it was allocated."
    ),
    example!(
        "use-after-free",
        "use_after_free",
        "open_conn",
        "Use after free",
        "The error path frees a connection and the code goes on to read it. The read is reported only for the ports that take that path, with the block's malloc and free sites."
    ),
    example!(
        "double-free",
        "double_free",
        "parse_pair",
        "Double free",
        "Goto-style cleanup frees a block that an early exit already freed. The second free is reported only for inputs that start with '='."
    ),
    example!(
        "dangling-pointer",
        "dangling_pointer",
        "first_letter",
        "Use after return",
        "A pointer to a function's stack buffer outlives the function. Reading it back is a bug inside the C stack that Wasm cannot see, and Symplay names the buffer and where its function returned."
    ),
    example!(
        "pointer-array",
        "pointer_array",
        "store",
        "A symbolic pointer",
        "A symbolic index into an array of heap pointers may reach any of the blocks. The engine forks a path for each block the pointer may hit and one for the rest, where the overflow is."
    ),
    example!(
        "hash-tables",
        "hash_tables",
        "find_key",
        "Blocks merged into a segment",
        "A node read from a bucket at a symbolic key may be any of five blocks, and reading its key forks a path per node. Under segments the five move into one array read once: Compare shows 3 paths where forking makes 11."
    ),
    example!(
        "length-read",
        "length_read",
        "first_header",
        "A buffer of symbolic length",
        "A buffer whose length is symbolic hides a bug that only one length shows. The fork-lazy size mode finds it and the base mode (one concrete size) misses it: Compare runs both."
    ),
    example!(
        "strchr-chain",
        "strchr_chain",
        "field_gap",
        "What symbolic sizes cost",
        "Correct code whose path count depends on how sizes of objects are modelled. Compare the size modes side by side to see what each costs in paths and time."
    ),
    example!(
        "size-loop",
        "size_loop",
        "fill_prefix",
        "The loop of the seed's first example",
        "Under fork-lazy each way out of the loop over a block of n <= 3 bytes is a path: n = 0, a stop at once, 1 to 3 bytes filled. SMOpt merges the five where they leave it, under the condition true, and the count splits into its 4 values.",
        [("size-mode", "fork-lazy"), ("merge", "smopt")]
    ),
    example!(
        "memspn",
        "memspn",
        "blank_run",
        "States merged at a loop's exit",
        "Each way through a loop over a line of symbolic length is a path until its states merge where they leave it: SMOpt makes 383 paths 17. Click a merged node for its formula beside the disjunction it replaces, and their sizes.",
        [("size-mode", "fork-lazy"), ("merge", "smopt")]
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

/// The dangling-pointer example's WAT text with one constant of `spell`
/// changed (the letters start at 'b'): an edit of one of its functions.
#[cfg(test)]
pub(crate) fn edited_dangling_pointer() -> String {
    let example = find("dangling-pointer").unwrap();
    let text = crate::disassembly::to_wat(example.wasm).unwrap();
    let spell = text.find("(func $spell ").unwrap();
    let a = "i32.const 97";
    let at = spell + text[spell..].find(a).unwrap();
    format!("{}i32.const 98{}", &text[..at], &text[at + a.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use symplay_engine::exec::{explore, Options};
    use symplay_engine::report::Report;

    #[test]
    fn the_gallery_runs_from_a_first_branch_to_heap_bugs_and_says_what_each_teaches() {
        let order: Vec<&str> = EXAMPLES.iter().map(|e| e.id).collect();
        let at = |id| order.iter().position(|e| *e == id).unwrap();
        assert_eq!(order[0], "sign");
        assert!(at("loop") < at("division") && at("checksum") < at("heap"));
        assert!(at("heap") < at("heap-overflow") && at("double-free") < at("length-read"));
        for e in EXAMPLES {
            // Two sentences: two full stops, each closing one.
            let sentences: Vec<&str> = e.lesson.split_inclusive(". ").collect();
            assert_eq!(sentences.len(), 2, "{}: {}", e.id, e.lesson);
            assert!(e.lesson.ends_with('.'), "{}", e.id);
            assert!(
                e.lesson.len() < 240,
                "{}: {} characters",
                e.id,
                e.lesson.len()
            );
        }
    }

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

    /// Byte offsets aside (`wat` lays code out unlike lld), the report as
    /// it compares across encodings.
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
        }
        // Notes end with where they were made.
        for note in r.paths.iter_mut().flat_map(|p| p.notes.iter_mut()) {
            note.truncate(note.find(" at ").unwrap_or(note.len()));
        }
        r
    }

    /// The editor holds an example as WAT text; assembled again, it gives
    /// the same paths, and with the binary's C lines carried over (the
    /// text has none of its own: its code is laid out anew), the same
    /// lines, which is how the page runs an edited example.
    #[test]
    fn every_example_as_wat_text_explores_the_same() {
        for e in EXAMPLES {
            let text = crate::disassembly::to_wat(e.wasm).unwrap();
            let binary = symplay_wasm::load(e.wasm).unwrap();
            let mut again = symplay_wasm::load(text.as_bytes()).unwrap();
            assert!(binary.source_lines.is_some(), "{}", e.id);
            assert!(again.source_lines.is_none(), "{}", e.id);
            let carried = symplay_wasm::carry_source_lines(&mut again, &binary);
            assert_eq!(carried.lost, Vec::<String>::new(), "{}", e.id);
            let a = explore(&binary, e.entry, &Options::default()).unwrap();
            let b = explore(&again, e.entry, &Options::default()).unwrap();
            let own_code = |p: &symplay_engine::report::PathReport| p.location.source.is_some();
            assert!(a.paths.iter().any(own_code), "{}", e.id);
            assert_eq!(without_offsets(a), without_offsets(b), "{}", e.id);
        }
    }

    /// Where the paths of `report` end and fork in `function`, with their
    /// C lines.
    fn lines_in(report: &Report, function: &str) -> Vec<Option<String>> {
        let ends = report.paths.iter().map(|p| &p.location);
        let forks = report.tree.iter().filter_map(|n| n.fork.as_ref());
        ends.chain(forks)
            .filter(|l| l.function == function)
            .map(|l| l.source.as_ref().map(|s| format!("{}:{}", s.file, s.line)))
            .collect()
    }

    #[test]
    fn an_edited_example_explores_with_the_c_lines_of_its_unchanged_functions() {
        let e = find("dangling-pointer").unwrap();
        let binary = symplay_wasm::load(e.wasm).unwrap();
        let mut edited = symplay_wasm::load(edited_dangling_pointer().as_bytes()).unwrap();
        let carried = symplay_wasm::carry_source_lines(&mut edited, &binary);
        assert_eq!(carried.lost, ["spell"]);
        let a = explore(&binary, e.entry, &Options::default()).unwrap();
        let b = explore(&edited, e.entry, &Options::default()).unwrap();
        // The entry's code is unchanged: its paths end and fork on the
        // binary's lines.
        let lines = lines_in(&b, e.entry);
        assert!(lines.len() >= 2, "{lines:?}");
        assert!(lines.iter().all(|l| l
            .as_deref()
            .is_some_and(|l| l.starts_with("dangling_pointer.c:"))));
        assert_eq!(lines, lines_in(&a, e.entry));
    }
}
