//! Explorations as the memory tests make them, and what they read off
//! their reports.

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
