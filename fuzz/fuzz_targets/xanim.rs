//! `xanim`: the C harness `uoanim_fuzz_xanim` (harness/), which drives the
//! library's C ABI with one input and keeps calling it after engine errors.
#![no_main]

#[cfg(not(any(feature = "engine", feature = "client")))]
compile_error!("the xanim target needs the feature engine or client");

// The library: its C exports are what the harness calls.
use uoanim as _;

extern "C" {
    fn uoanim_fuzz_xanim(data: *const u8, size: usize) -> i32;
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // SAFETY: the harness reads `size` bytes at `data`; nothing else.
    unsafe {
        uoanim_fuzz_xanim(data.as_ptr(), data.len());
    }
});
