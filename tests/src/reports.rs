//! Explorations as the memory tests make them, what they read off their
//! reports, and the table of bytes their modules hold.

use symplay_engine::exec::{explore, Options};
use symplay_engine::memory::Split;
use symplay_engine::report::{Number, PathReport, Report, Status};
use symplay_engine::search::SearchKind;

/// `entry` of `module` explored depth first to the end, splitting objects
/// as `split` says, with a path per place an access forks over, not per
/// value of a result.
pub fn explored_per_place(
    module: &symplay_wasm::Module,
    entry: &str,
    split: Option<Split>,
) -> Report {
    let mut options = Options {
        search: SearchKind::Dfs,
        ..Options::default()
    };
    options.heap.split = split;
    options.outcomes.result_values = 0;
    let r = explore(module, entry, &options).unwrap();
    assert_eq!(r.stop_reason, "completed", "{entry}");
    r
}

/// The one integer result of a path that returned, as unsigned 32 bits.
pub fn returned_u32(p: &PathReport) -> u32 {
    assert_eq!(p.status, Status::Returned, "{:?}", p.outcome());
    match p.returns[..] {
        [Number::Int(v)] => v as u32,
        _ => panic!("one integer result: {:?}", p.returns),
    }
}

/// Byte `k` of the memory tests' data table: no two 4-byte words of its
/// first 512 bytes are equal.
pub fn table_byte(k: u64) -> u8 {
    ((k * 37 + 11) % 251) as u8
}

/// The first `len` bytes of the table as a WAT data string.
fn table_data(len: u64) -> String {
    (0..len)
        .map(|k| format!("\\{:02x}", table_byte(k)))
        .collect()
}

/// A module of one exported page holding the first `len` bytes of the
/// table at `at`, with the WAT functions `funcs`.
pub fn table_module(at: u64, len: u64, funcs: &str) -> symplay_wasm::Module {
    let wat = format!(
        r#"(module
          (memory (export "memory") 1)
          (data (i32.const {at}) "{}")
          {funcs})"#,
        table_data(len)
    );
    symplay_wasm::load(&wat::parse_str(wat).unwrap()).unwrap()
}
