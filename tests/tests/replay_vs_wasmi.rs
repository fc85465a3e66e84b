//! Replay differential against wasmi: every test input Symplay generates for
//! the example corpus (the C examples, the pointer programs, the worked
//! examples of relocatable addressing, the heap corpus, and WAT modules that
//! trap in every way Wasm can) runs again in wasmi, an independent interpreter, and must end the
//! same way: the same return values (floats bitwise), trap class, failed
//! assertion or `proc_exit` code, and the same stdout and stderr. Symplay's
//! own concrete replay of the test must agree as well.
//!
//! wasmi gets the `symplay` API and the WASI subset the engine models as host
//! functions that take each input from the test, under the name Symplay gave
//! it (`x`, then `x#2`, ...). Paths stopped by a limit have no outcome, and
//! wasmi does not check heap blocks: those paths and the ones that end in a
//! memory error are skipped. `cargo test -p symplay-tests --test replay_vs_wasmi --
//! --nocapture` prints the summaries.

use std::collections::BTreeMap;
use std::fmt;
use symplay_engine::exec::{explore, name_params, replay, Options, MAX_FRAMES};
use symplay_engine::memory::{AaCacheMode, BaseMode, Segments, Split};
use symplay_engine::report::{InputValue, Number, PathReport, Status, TestInput, Trap};
use symplay_engine::state::State;
use symplay_tests::corpus::{
    c_examples, files_in, heap_cases, heap_dir, heap_options, integer_entries, pointer_programs,
};
use symplay_tests::parts::explored_in_parts;
use wasmi::errors::HostError;
use wasmi::{Caller, Config, Engine, Extern, Linker, Store, TrapCode, Val};

/// How a run ended, in terms both interpreters share.
#[derive(Clone, Debug, PartialEq)]
enum Ending {
    Returned(Vec<Value>),
    Exited(i32),
    Trapped(Trap),
    AssertFailed,
    /// Only in wasmi: `assume(0)`, which no reported path may reach.
    AssumeFailed,
    /// Only in wasmi: an error that is none of the above.
    Error(String),
}

/// A return value: integers signed; floats as the bits of an f64, because
/// Symplay reports f32 results widened to f64.
#[derive(Clone, Copy, PartialEq)]
enum Value {
    Int(i64),
    Float(u64),
    /// A pointer into a heap block, as Symplay said of a result: its
    /// number is where an allocator put the block, and wasmi runs the
    /// module's own allocator, which Symplay's heap model replaces.
    HeapPointer,
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(bits) => write!(f, "{} ({bits:#018x})", f64::from_bits(bits)),
            Value::HeapPointer => write!(f, "a heap pointer"),
        }
    }
}

#[derive(Debug, PartialEq)]
struct Outcome {
    ending: Ending,
    stdout: String,
    stderr: String,
}

/// The outcome Symplay reported for a path; `None` for a path stopped by a
/// limit, or by a memory error (wasmi does not check heap objects: the
/// replay tests check those paths).
fn symplay_outcome(p: &PathReport) -> Option<Outcome> {
    let ending = match p.status {
        Status::Limit | Status::MemoryError => return None,
        Status::Returned => match p.exit_code {
            Some(code) => Ending::Exited(code as i32),
            None => Ending::Returned(
                p.returns
                    .iter()
                    .map(|n| match *n {
                        Number::Int(i) => Value::Int(i),
                        Number::Float(x) => Value::Float(x.to_bits()),
                        other => panic!("the corpus returns no reference: {other}"),
                    })
                    .collect(),
            ),
        },
        Status::Trapped => Ending::Trapped(p.trap.expect("a trapped path names its trap")),
        Status::AssertFailed => Ending::AssertFailed,
        // Rust's panic functions end in `unreachable` (panic = abort).
        Status::Panicked => Ending::Trapped(Trap::Unreachable),
    };
    Some(Outcome {
        ending,
        stdout: p.stdout.clone(),
        stderr: p.stderr.clone(),
    })
}

/// `outcome` with the results of `p` that point into its heap blocks
/// (as its run said, or by their numbers where pointers are numbers)
/// compared as such: Symplay's replay compares them by block and offset
/// ([`PathReport::same_results`]), and wasmi's allocator puts blocks
/// elsewhere. Of wasmi's results (`theirs`), only a non-null one is taken
/// as a pointer.
fn pointers_as_places(p: &PathReport, mut outcome: Outcome, theirs: bool) -> Outcome {
    if let Ending::Returned(values) = &mut outcome.ending {
        for (i, value) in values.iter_mut().enumerate() {
            let null = *value == Value::Int(0);
            if p.place_of(i).is_some() && !(theirs && null) {
                *value = Value::HeapPointer;
            }
        }
    }
    outcome
}

/// Longest input name the engine reads (host.rs).
const MAX_NAME: u64 = 256;
const ERRNO_BADF: i32 = 8;
const ERRNO_SPIPE: i32 = 70;

/// The state of wasmi's host functions during one run.
struct Host {
    test: TestInput,
    /// Uses of each input name so far, counted as the engine counts them.
    name_uses: BTreeMap<String, u32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Host {
    /// A run of `test` after the entry's parameters took their names,
    /// whose uses are `name_uses`.
    fn new(test: &TestInput, name_uses: BTreeMap<String, u32>) -> Host {
        Host {
            test: test.clone(),
            name_uses,
            stdout: Vec::new(),
            stderr: Vec::new(),
        }
    }

    /// `name`, then `name#2`, `name#3`... as `State::unique_name`.
    fn unique_name(&mut self, name: &str) -> String {
        let name_now = self.peek_name(name);
        *self.name_uses.entry(name.to_string()).or_insert(0) += 1;
        name_now
    }

    /// The name the next input called `name` gets.
    fn peek_name(&self, name: &str) -> String {
        match self.name_uses.get(name).copied().unwrap_or(0) + 1 {
            1 => name.to_string(),
            uses => format!("{name}#{uses}"),
        }
    }
}

/// Host calls that end the run without a trap code of their own.
#[derive(Debug)]
enum Stop {
    AssertFailed,
    AssumeFailed,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::AssertFailed => "symplay.assert failed",
            Stop::AssumeFailed => "symplay.assume(0) on a reported path",
        })
    }
}

impl HostError for Stop {}

type HostResult<T> = Result<T, wasmi::Error>;

fn memory(c: &Caller<'_, Host>) -> HostResult<wasmi::Memory> {
    c.get_export("memory")
        .and_then(Extern::into_memory)
        .ok_or_else(|| wasmi::Error::new("the module does not export its memory"))
}

/// The range `addr..addr + len` of memory, or an out-of-bounds trap.
fn range(size: usize, addr: u64, len: u64) -> HostResult<std::ops::Range<usize>> {
    let end = addr + len;
    if end > size as u64 {
        return Err(TrapCode::MemoryOutOfBounds.into());
    }
    Ok(addr as usize..end as usize)
}

fn read(c: &Caller<'_, Host>, addr: u64, len: u64) -> HostResult<Vec<u8>> {
    let data = memory(c)?.data(c);
    Ok(data[range(data.len(), addr, len)?].to_vec())
}

fn read_u32(c: &Caller<'_, Host>, addr: u64) -> HostResult<u32> {
    let b = read(c, addr, 4)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

fn write(c: &mut Caller<'_, Host>, addr: u64, bytes: &[u8]) -> HostResult<()> {
    let data = memory(c)?.data_mut(c);
    let r = range(data.len(), addr, bytes.len() as u64)?;
    data[r].copy_from_slice(bytes);
    Ok(())
}

/// A NUL-terminated name of at most `MAX_NAME` bytes, read as the engine does.
fn read_name(c: &Caller<'_, Host>, ptr: i32) -> HostResult<String> {
    let mut bytes = Vec::new();
    for k in 0..MAX_NAME {
        match read(c, u64::from(ptr as u32) + k, 1)?[0] {
            0 => break,
            b => bytes.push(b),
        }
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// `symbolic_i32`/`symbolic_i64`: the named integer of the test, else 0.
fn named_int(c: &mut Caller<'_, Host>, name_ptr: i32) -> HostResult<i64> {
    let name = read_name(c, name_ptr)?;
    let host = c.data_mut();
    let name = host.unique_name(&name);
    Ok(match host.test.get(&name) {
        Some(InputValue::Int(v)) => *v,
        _ => 0,
    })
}

/// `symbolic_sized_buffer`: the named bytes of the test, padded with zeros
/// to `capacity`, written at `ptr`; their length (at most `capacity`) is
/// the result.
fn sized_bytes(c: &mut Caller<'_, Host>, ptr: i32, capacity: i32, name: &str) -> HostResult<i32> {
    let unique = c.data().peek_name(name);
    let given = match c.data().test.get(&unique) {
        Some(InputValue::Bytes(b)) => b.len(),
        _ => 0,
    };
    named_bytes(c, ptr, capacity, name)?;
    Ok(given.min(capacity as u32 as usize) as i32)
}

/// `symbolic_buffer` and `random_get`: the named bytes of the test, padded
/// with zeros, written at `ptr`.
fn named_bytes(c: &mut Caller<'_, Host>, ptr: i32, len: i32, name: &str) -> HostResult<()> {
    let (ptr, len) = (u64::from(ptr as u32), u64::from(len as u32));
    let size = memory(c)?.data(&*c).len();
    range(size, ptr, len)?;
    let host = c.data_mut();
    let name = host.unique_name(name);
    let given = match host.test.get(&name) {
        Some(InputValue::Bytes(b)) => b.clone(),
        _ => Vec::new(),
    };
    let bytes: Vec<u8> = (0..len as usize)
        .map(|k| given.get(k).copied().unwrap_or(0))
        .collect();
    write(c, ptr, &bytes)
}

fn fd_write(
    mut c: Caller<'_, Host>,
    fd: i32,
    iovs: i32,
    count: i32,
    nwritten: i32,
) -> HostResult<i32> {
    if fd != 1 && fd != 2 {
        return Ok(ERRNO_BADF);
    }
    let mut out = Vec::new();
    for i in 0..u64::from(count as u32) {
        let iov = u64::from(iovs as u32) + 8 * i;
        let base = read_u32(&c, iov)?;
        let len = read_u32(&c, iov + 4)?;
        out.extend(read(&c, u64::from(base), u64::from(len))?);
    }
    write(
        &mut c,
        u64::from(nwritten as u32),
        &(out.len() as u32).to_le_bytes(),
    )?;
    let host = c.data_mut();
    if fd == 1 {
        &mut host.stdout
    } else {
        &mut host.stderr
    }
    .extend(out);
    Ok(0)
}

/// The `symplay` API and the engine's WASI model, for wasmi.
fn linker(engine: &Engine) -> Linker<Host> {
    const WASI: &str = "wasi_snapshot_preview1";
    let mut l = Linker::new(engine);
    l.func_wrap(
        "symplay",
        "symbolic_i32",
        |mut c: Caller<'_, Host>, name: i32| named_int(&mut c, name).map(|v| v as i32),
    )
    .unwrap();
    l.func_wrap(
        "symplay",
        "symbolic_i64",
        |mut c: Caller<'_, Host>, name: i32| named_int(&mut c, name),
    )
    .unwrap();
    l.func_wrap(
        "symplay",
        "symbolic_buffer",
        |mut c: Caller<'_, Host>, ptr: i32, len: i32, name: i32| {
            let name = read_name(&c, name)?;
            named_bytes(&mut c, ptr, len, &name)
        },
    )
    .unwrap();
    l.func_wrap(
        "symplay",
        "symbolic_sized_buffer",
        |mut c: Caller<'_, Host>, ptr: i32, capacity: i32, name: i32| {
            let name = read_name(&c, name)?;
            sized_bytes(&mut c, ptr, capacity, &name)
        },
    )
    .unwrap();
    l.func_wrap("symplay", "assume", |cond: i32| -> HostResult<()> {
        match cond {
            0 => Err(wasmi::Error::host(Stop::AssumeFailed)),
            _ => Ok(()),
        }
    })
    .unwrap();
    l.func_wrap("symplay", "assert", |cond: i32| -> HostResult<()> {
        match cond {
            0 => Err(wasmi::Error::host(Stop::AssertFailed)),
            _ => Ok(()),
        }
    })
    .unwrap();
    l.func_wrap(WASI, "fd_write", fd_write).unwrap();
    l.func_wrap(WASI, "proc_exit", |code: i32| -> HostResult<()> {
        Err(wasmi::Error::i32_exit(code))
    })
    .unwrap();
    for name in ["args_sizes_get", "environ_sizes_get"] {
        l.func_wrap(
            WASI,
            name,
            |mut c: Caller<'_, Host>, count: i32, size: i32| {
                write(&mut c, u64::from(count as u32), &[0; 4])?;
                write(&mut c, u64::from(size as u32), &[0; 4])?;
                HostResult::Ok(0)
            },
        )
        .unwrap();
    }
    for name in ["args_get", "environ_get"] {
        l.func_wrap(WASI, name, |_: i32, _: i32| 0).unwrap();
    }
    l.func_wrap(
        WASI,
        "random_get",
        |mut c: Caller<'_, Host>, ptr: i32, len: i32| {
            named_bytes(&mut c, ptr, len, "random").map(|()| 0)
        },
    )
    .unwrap();
    l.func_wrap(WASI, "fd_close", |_: i32| 0).unwrap();
    l.func_wrap(WASI, "fd_seek", |_: i32, _: i64, _: i32, _: i32| {
        ERRNO_SPIPE
    })
    .unwrap();
    l.func_wrap(
        WASI,
        "fd_fdstat_get",
        |mut c: Caller<'_, Host>, fd: i32, ptr: i32| {
            if fd as u32 > 2 {
                return Ok(ERRNO_BADF);
            }
            // A character device, as the engine models stdin, stdout and stderr.
            let mut stat = [0u8; 24];
            stat[0] = 2;
            write(&mut c, u64::from(ptr as u32), &stat).map(|()| 0)
        },
    )
    .unwrap();
    l.func_wrap(
        WASI,
        "clock_time_get",
        |mut c: Caller<'_, Host>, _: i32, _: i64, ptr: i32| {
            write(&mut c, u64::from(ptr as u32), &[0; 8]).map(|()| 0)
        },
    )
    .unwrap();
    l
}

/// wasmi's trap codes in Symplay's trap classes.
fn trap_class(code: TrapCode) -> Option<Trap> {
    Some(match code {
        TrapCode::UnreachableCodeReached => Trap::Unreachable,
        TrapCode::MemoryOutOfBounds => Trap::OutOfBounds,
        TrapCode::TableOutOfBounds | TrapCode::IndirectCallToNull | TrapCode::BadSignature => {
            Trap::IndirectCall
        }
        TrapCode::IntegerDivisionByZero => Trap::DivByZero,
        TrapCode::IntegerOverflow => Trap::IntOverflow,
        TrapCode::BadConversionToInteger => Trap::InvalidConversion,
        TrapCode::StackOverflow => Trap::StackExhausted,
        TrapCode::OutOfFuel | TrapCode::GrowthOperationLimited | TrapCode::OutOfSystemMemory => {
            return None
        }
    })
}

fn ending_of(e: &wasmi::Error) -> Ending {
    if let Some(code) = e.i32_exit_status() {
        return Ending::Exited(code);
    }
    match e.downcast_ref::<Stop>() {
        Some(Stop::AssertFailed) => return Ending::AssertFailed,
        Some(Stop::AssumeFailed) => return Ending::AssumeFailed,
        None => {}
    }
    match e.as_trap_code().and_then(trap_class) {
        Some(trap) => Ending::Trapped(trap),
        None => Ending::Error(e.to_string()),
    }
}

fn value_of(v: &Val) -> Value {
    match v {
        Val::I32(i) => Value::Int(i64::from(*i)),
        Val::I64(i) => Value::Int(*i),
        Val::F32(x) => Value::Float(f64::from(f32::from_bits(x.to_bits())).to_bits()),
        Val::F64(x) => Value::Float(x.to_bits()),
        other => panic!("the corpus returns no {:?}", other.ty()),
    }
}

/// A module in wasmi, with the host functions to run its exports.
struct Wasmi<'a> {
    engine: &'a Engine,
    linker: &'a Linker<Host>,
    module: &'a wasmi::Module,
}

impl Wasmi<'_> {
    /// Instantiates the module afresh (the start function included) and
    /// calls `entry` with the test's inputs.
    fn run(&self, entry: &str, test: &TestInput, name_uses: &BTreeMap<String, u32>) -> Outcome {
        let mut store = Store::new(self.engine, Host::new(test, name_uses.clone()));
        let ending = match self.call(&mut store, entry, test) {
            Ok(values) => Ending::Returned(values),
            Err(e) => ending_of(&e),
        };
        let host = store.data();
        Outcome {
            ending,
            stdout: String::from_utf8_lossy(&host.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&host.stderr).into_owned(),
        }
    }

    fn call(
        &self,
        store: &mut Store<Host>,
        entry: &str,
        test: &TestInput,
    ) -> Result<Vec<Value>, wasmi::Error> {
        let instance = self
            .linker
            .instantiate_and_start(&mut *store, self.module)?;
        let func = instance
            .get_func(&*store, entry)
            .ok_or_else(|| wasmi::Error::new(format!("no exported function {entry}")))?;
        let ty = func.ty(&*store);
        let args: Vec<Val> = ty
            .params()
            .iter()
            .zip(&test.args)
            .map(|(ty, &a)| match ty {
                wasmi::ValType::I32 => Val::I32(a as i32),
                _ => Val::I64(a),
            })
            .collect();
        let mut results: Vec<Val> = ty
            .results()
            .iter()
            .map(|&t| Val::default_for_ty(t))
            .collect();
        func.call(&mut *store, &args, &mut results)?;
        Ok(results.iter().map(value_of).collect())
    }
}

#[derive(Default)]
struct Summary {
    modules: usize,
    functions: usize,
    replayed: usize,
    /// Paths stopped by a limit (no outcome to compare) or ended by a
    /// memory error (which wasmi does not see).
    skipped: usize,
    mismatches: Vec<String>,
    /// Objects and regions split into pieces in every exploration.
    split: Option<Split>,
    /// What a pointer to a heap block is in every exploration.
    bases: BaseMode,
    /// Blocks a pointer may point into merged into segments (over
    /// symbolic bases) in every exploration.
    segments: Option<Segments>,
    /// Whether branches' queries go through the address-aware cache.
    aa_cache: AaCacheMode,
    /// Explored in parts, as a parallel run's jobs split a run (a state
    /// handed to a new part after every slice), the parts' reports joined.
    in_parts: bool,
}

impl Summary {
    /// Explores every exported function of `wasm` with only integer
    /// parameters (with `limits` where given, else default options) and
    /// replays every test in wasmi.
    fn check_module(&mut self, name: &str, wasm: &[u8], limits: &[(&str, Options)]) {
        let module = symplay_wasm::load(wasm).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut config = Config::default();
        // Symplay's call-depth limit, so deep recursion traps at the same depth.
        config.set_max_recursion_depth(MAX_FRAMES);
        let engine = Engine::new(&config);
        let wasmi_module = wasmi::Module::new(&engine, wasm).unwrap();
        let linker = linker(&engine);
        let wasmi = Wasmi {
            engine: &engine,
            linker: &linker,
            module: &wasmi_module,
        };
        self.modules += 1;
        for entry in integer_entries(&module) {
            let entry = entry.as_str();
            self.functions += 1;
            let mut options = limits
                .iter()
                .find(|(f, _)| *f == entry)
                .map_or_else(Options::default, |(_, o)| o.clone());
            options.heap.split = self.split;
            options.heap.bases = self.bases;
            options.heap.segments = self.segments;
            options.heap.aa_cache = self.aa_cache;
            // The engine names the entry's parameters first: a later input
            // of a parameter's name is renamed (`x#2`).
            let mut named = State::default();
            if let Ok(func) = module.export_func(entry) {
                name_params(&module, func, &mut named);
            }
            let explored = if self.in_parts {
                explored_in_parts(&module, entry, &options, 1).map(|(r, _)| r)
            } else {
                explore(&module, entry, &options)
            };
            let report = match explored {
                Ok(report) => report,
                Err(e) => {
                    self.mismatches
                        .push(format!("{name} {entry}: exploration failed: {e}"));
                    continue;
                }
            };
            for path in &report.paths {
                let Some(ours) = symplay_outcome(path) else {
                    self.skipped += 1;
                    continue;
                };
                self.replayed += 1;
                let ours = pointers_as_places(path, ours, false);
                let theirs = pointers_as_places(
                    path,
                    wasmi.run(entry, &path.inputs, &named.name_uses),
                    true,
                );
                // Symplay's own concrete replay too: it runs the concrete fast
                // path that exploration mostly leaves out.
                let again = match replay(&module, entry, &path.inputs) {
                    Ok(p) if !p.same_results(path) => Some(Outcome {
                        ending: Ending::Error(format!("other results: {}", p.results_text())),
                        stdout: p.stdout.clone(),
                        stderr: p.stderr.clone(),
                    }),
                    Ok(p) => symplay_outcome(&p).map(|o| pointers_as_places(path, o, false)),
                    Err(e) => Some(Outcome {
                        ending: Ending::Error(e.to_string()),
                        stdout: String::new(),
                        stderr: String::new(),
                    }),
                };
                if ours != theirs || again.as_ref() != Some(&theirs) {
                    self.mismatches.push(format!(
                        "{name} {entry} path {} inputs {:?}\n  Symplay: {ours:?}\n  replay:  {again:?}\n  wasmi:   {theirs:?}",
                        path.id, path.inputs
                    ));
                }
            }
        }
    }

    /// Checks the C examples, the pointer programs, the worked examples of
    /// relocatable addressing and the WAT modules.
    fn check_examples_and_wat(&mut self) {
        for example in &c_examples().unwrap() {
            self.check_module(&example.name, &example.wasm, &[]);
        }
        let relocatable = files_in("tests/data/relocatable", "wasm").unwrap();
        for path in pointer_programs().unwrap().into_iter().chain(relocatable) {
            let wasm = std::fs::read(&path).unwrap();
            self.check_module(&path.display().to_string(), &wasm, &[]);
        }
        for (name, text, limits) in wat_corpus() {
            let wasm = wat::parse_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            self.check_module(name, &wasm, &limits);
        }
    }

    fn finish(&self, what: &str, min_replayed: usize) {
        println!(
            "{what}: {} modules, {} functions, {} tests replayed in wasmi, {} skipped (a limit or a memory error), {} mismatches",
            self.modules,
            self.functions,
            self.replayed,
            self.skipped,
            self.mismatches.len()
        );
        for m in &self.mismatches {
            println!("mismatch: {m}");
        }
        assert!(
            self.mismatches.is_empty(),
            "{} mismatches between Symplay and wasmi:\n{}",
            self.mismatches.len(),
            self.mismatches.join("\n")
        );
        assert!(
            self.replayed >= min_replayed,
            "only {} tests replayed, expected at least {min_replayed}",
            self.replayed
        );
    }
}

#[test]
fn c_examples_replay_identically_in_wasmi() {
    let examples = c_examples().unwrap();
    let mut summary = Summary::default();
    for example in &examples {
        summary.check_module(&example.name, &example.wasm, &[]);
    }
    assert!(summary.modules >= 6, "the committed C examples");
    for path in pointer_programs().unwrap() {
        let wasm = std::fs::read(&path).unwrap();
        summary.check_module(&path.display().to_string(), &wasm, &[]);
    }
    summary.finish("C examples and pointer programs", 30);
}

/// The tests of the heap corpus's explorations (depth first, within its
/// limits) replay in wasmi as the others do, but for the paths that end
/// in a memory error, which wasmi does not see (the heap tests check
/// those), and a module whose allocator is an import of the host's
/// (the heap model is its only definition).
#[test]
fn heap_corpus_tests_replay_identically_in_wasmi() {
    let mut summary = Summary::default();
    let mut files: Vec<String> = heap_cases().unwrap().into_iter().map(|c| c.file).collect();
    files.dedup();
    for file in files {
        let wasm = std::fs::read(heap_dir().join(&file)).unwrap();
        let module = symplay_wasm::load(&wasm).unwrap();
        let imports_allocator =
            (module.func_imports()).any(|(_, i)| i.name.module == "env" && i.name.name == "malloc");
        if imports_allocator {
            continue;
        }
        let entries = integer_entries(&module);
        let limits: Vec<(&str, Options)> = (entries.iter())
            .map(|e| (e.as_str(), heap_options()))
            .collect();
        summary.check_module(&file, &wasm, &limits);
    }
    summary.finish("heap corpus", 100);
}

/// The tests of explorations run in parts, as the jobs of a parallel run
/// split them (each part follows a route to the state it was handed, then
/// explores its subtree), replay as one run's do.
#[test]
fn explored_in_parts_every_test_replays_identically_in_wasmi() {
    let mut summary = Summary {
        in_parts: true,
        ..Summary::default()
    };
    summary.check_examples_and_wat();
    summary.finish(
        "C examples, pointer programs, relocatable examples and WAT modules, in parts",
        130,
    );
}

/// The tests of explorations that split every object and region over 16
/// bytes into 8-byte pieces replay as the others do: splitting changes
/// which array an access reads, never what a path does.
#[test]
fn under_splitting_every_test_replays_identically_in_wasmi() {
    let mut summary = Summary {
        split: Some(Split {
            threshold: 16,
            piece: 8,
        }),
        ..Summary::default()
    };
    summary.check_examples_and_wat();
    summary.finish(
        "C examples, pointer programs, relocatable examples and WAT modules, split",
        130,
    );
}

/// The tests of explorations whose heap pointers are terms over the
/// blocks' base symbols replay as the others do: a decision, an address and
/// a result see the hidden address, which is the block's address.
#[test]
fn under_symbolic_bases_every_test_replays_identically_in_wasmi() {
    let mut summary = Summary {
        bases: BaseMode::Symbolic,
        ..Summary::default()
    };
    summary.check_examples_and_wat();
    summary.finish(
        "C examples, pointer programs, relocatable examples and WAT modules, symbolic bases",
        130,
    );
}

/// The tests of explorations that merge the blocks a pointer may point
/// into replay as the others do: a merge moves blocks, never what a path
/// does (a result that points into a block is compared by block and
/// offset, as a merge changes its number).
#[test]
fn under_segments_every_test_replays_identically_in_wasmi() {
    let mut summary = Summary {
        bases: BaseMode::Symbolic,
        segments: Some(Segments::default()),
        ..Summary::default()
    };
    summary.check_examples_and_wat();
    summary.finish(
        "C examples, pointer programs, relocatable examples and WAT modules, segments",
        130,
    );
}

/// The tests of explorations whose branches' queries go through the
/// address-aware cache replay as the others do: a model the cache gives
/// again was checked against the query it answers, so its inputs take the
/// path they were made for (the inputs may differ from the solver's own).
#[test]
fn under_address_aware_caching_every_test_replays_identically_in_wasmi() {
    let mut summary = Summary {
        bases: BaseMode::Symbolic,
        aa_cache: AaCacheMode::On,
        ..Summary::default()
    };
    summary.check_examples_and_wat();
    summary.finish(
        "C examples, pointer programs, relocatable examples and WAT modules, address-aware cache",
        130,
    );
}

/// Exploration options of the functions that need other than the default.
type Limits = Vec<(&'static str, Options)>;

/// WAT modules for the traps, the symbolic-input API and the WASI model, with
/// limits for the functions whose exploration does not end by itself.
fn wat_corpus() -> Vec<(&'static str, &'static str, Limits)> {
    let depth = |n| Options {
        max_depth: Some(n),
        ..Options::default()
    };
    vec![
        ("arith", ARITH, vec![]),
        ("memory", MEMORY, vec![]),
        ("control", CONTROL, vec![]),
        ("recursion", RECURSION, vec![]),
        ("floats", FLOATS, vec![]),
        ("grow", GROW, vec![]),
        ("api", API, vec![]),
        ("wasi", WASI, vec![]),
        ("start", START, vec![]),
        ("count", COUNT, vec![("count", depth(8))]),
    ]
}

#[test]
fn wat_modules_replay_identically_in_wasmi() {
    let mut summary = Summary::default();
    for (name, text, limits) in wat_corpus() {
        let wasm = wat::parse_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        summary.check_module(name, &wasm, &limits);
    }
    assert!(summary.skipped > 0, "the depth limit stops some paths");
    summary.finish("WAT modules", 100);
}

/// Division traps, and integer operators whose results come from the model.
const ARITH: &str = include_str!("../data/wat/arith.wat");

/// Loads and stores at symbolic addresses, in and out of bounds.
const MEMORY: &str = include_str!("../data/wat/memory.wat");

/// br_table, call_indirect through null, mistyped and out-of-range entries,
/// unreachable.
const CONTROL: &str = include_str!("../data/wat/control.wat");

/// Recursion up to the call-depth limit and past it.
const RECURSION: &str = include_str!("../data/wat/recursion.wat");

/// Float-to-int conversions that trap, saturate or succeed; float results.
const FLOATS: &str = include_str!("../data/wat/floats.wat");

/// memory.grow within and beyond the maximum, and accesses that need it.
const GROW: &str = include_str!("../data/wat/grow.wat");

/// The symbolic-input API: repeated names, a name that meets a parameter's,
/// buffers, assume and assert.
const API: &str = include_str!("../data/wat/symplay_api.wat");

/// The WASI model: random bytes, output, exit codes, the stubs.
const WASI: &str = include_str!("../data/wat/wasi.wat");

/// A start function runs before the entry.
const START: &str = include_str!("../data/wat/start.wat");

/// A loop over a symbolic count: depth first never ends it without a limit.
const COUNT: &str = include_str!("../data/wat/count.wat");
