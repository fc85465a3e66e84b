// The playground's profile strips symbol names (`strip = true` in the
// workspace's `profile.web`); the linker still keeps the target-features
// section, from which wasm-bindgen learns the Wasm features the code uses.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bins=--keep-section=target_features");
    }
}
