#[no_mangle]
pub unsafe extern "C" fn Export(value: i32) -> i32 {
    crate::core::run(value)
}
core::arch::global_asm!(".globl Entry", "Entry:", "    ret");
macro_rules! statics {
    ($name:ident) => {
        #[no_mangle]
        pub static $name: i32 = 0;
    };
}
