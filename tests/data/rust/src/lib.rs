//! A Rust library as rustc compiles it for the web (stable, default
//! features): a table of closures called through a trait object, a `Vec`,
//! and an index that can be out of bounds, which panics.

/// Applies operation `op` (add, subtract, multiply by `a`) to 0, 1, 2
/// and 3, keeps the four results in a `Vec`, and returns the one at
/// `index`: an `index` past 3 panics with "index out of bounds".
#[no_mangle]
pub extern "C" fn pick(op: u32, a: i32, index: u32) -> i32 {
    let ops: Vec<Box<dyn Fn(i32) -> i32>> = vec![
        Box::new(move |k| a.wrapping_add(k)),
        Box::new(move |k| a.wrapping_sub(k)),
        Box::new(move |k| a.wrapping_mul(k)),
    ];
    let f = &ops[op as usize % ops.len()];
    let results: Vec<i32> = (0..4).map(f).collect();
    results[index as usize]
}
