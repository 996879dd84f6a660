//! Animation-tree exports (engine and client units).
use super::guard;

/// `void SetAnimCheck(int32_t enabled)`
#[no_mangle]
pub unsafe extern "C" fn SetAnimCheck(enabled: i32) {
    guard(|| {
        let _ = enabled;
        Ok(())
    })
}
