//! Words of the rule in comments, strings and tests are no finding:
//! #[no_mangle], extern "C" fn f(), global_asm!, asm!
/* #[no_mangle] pub extern "C" fn g() {} */
pub fn run(value: i32) -> i32 {
    let _ = "asm!(\"nop\") #[no_mangle]";
    value
}
/// A callback type is no definition.
pub type Callback = Option<unsafe extern "C" fn(value: i32) -> i32>;
extern "C" {
    pub fn Import(value: i32) -> i32;
}
#[cfg(test)]
mod tests {
    core::arch::global_asm!(".globl probe", "probe:", "    ret");
}
