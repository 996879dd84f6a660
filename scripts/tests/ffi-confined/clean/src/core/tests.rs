#[no_mangle]
pub extern "C" fn test_probe() {}
