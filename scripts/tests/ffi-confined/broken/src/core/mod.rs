pub fn run(value: i32) -> i32 {
    value
}
#[no_mangle]
pub static CORE_DATA: i32 = 0;
pub unsafe extern "C" fn core_callback(value: i32) -> i32 {
    value
}
pub fn fence() {
    unsafe { core::arch::asm!("nop") };
}
core::arch::global_asm!(".globl core_entry", "core_entry:", "    ret");
macro_rules! core_statics {
    ($name:ident) => {
        #[unsafe(no_mangle)]
        pub static $name: i32 = 0;
    };
}
#[export_name = "Renamed"]
pub extern "C" fn renamed() {}
