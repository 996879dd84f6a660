//! `playeranim`: the C harness `uoanim_fuzz_playeranim` (harness/), which drives the
//! library's C ABI with one input and keeps calling it after engine errors.
#![no_main]

#[cfg(not(any(feature = "game", feature = "cgame")))]
compile_error!("the playeranim target needs the feature game or cgame");

// The library: its C exports are what the harness calls.
use uoanim as _;

extern "C" {
    fn uoanim_fuzz_playeranim(data: *const u8, size: usize) -> i32;
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    // SAFETY: the harness reads `size` bytes at `data`; nothing else.
    unsafe {
        uoanim_fuzz_playeranim(data.as_ptr(), data.len());
    }
});
