//! Heap bugs in Rust compiled for wasm32-unknown-unknown: unsafe code
//! reads past a Vec's buffer, and reads a Box after it was dropped.

#[no_mangle]
pub extern "C" fn read_past_vec(k: u32) -> u8 {
    let v = vec![1u8; 8];
    // BUG: no bounds check; past the buffer for k >= 8.
    let b = unsafe { *v.as_ptr().add(k as usize % 16) };
    std::hint::black_box(&v);
    b
}

#[no_mangle]
pub extern "C" fn use_after_drop(flag: u32) -> u32 {
    let b = Box::new([flag; 4]);
    let p = b.as_ptr();
    if flag == 7 {
        drop(b);
        // BUG: the box is freed.
        return unsafe { std::ptr::read_volatile(p.add(1)) };
    }
    b[1]
}
