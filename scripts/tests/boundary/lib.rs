//! A miniature of the crate's boundary for the tests of check-boundary.py:
//! compiled as the crate `uoanim`, it passes as it is, and each `broken`
//! cfg plants one breach of a rule the check must report.
#![no_std]
#![allow(dead_code, clippy::missing_safety_doc)]

pub mod ffi {
    #[derive(Clone, Copy)]
    pub struct Failure(pub i32);

    #[inline(always)]
    pub fn guard<T>(body: impl FnOnce() -> Result<T, Failure>) -> T {
        match body() {
            Ok(value) => value,
            Err(failure) => raise_cold(failure),
        }
    }

    #[cold]
    #[inline(never)]
    fn raise_cold(failure: Failure) -> ! {
        unsafe { raise::raise(failure) }
    }

    pub(crate) mod raise {
        extern "C" {
            pub fn Com_Error(code: i32, format: *const u8, ...) -> !;
        }
        pub(crate) unsafe fn raise(failure: super::Failure) -> ! {
            unsafe { Com_Error(failure.0, b"%s\0".as_ptr()) }
        }
    }

    #[no_mangle]
    pub extern "C" fn Fixture_Parse(value: i32) -> i32 {
        guard(|| crate::core::parse(value))
    }

    #[no_mangle]
    pub extern "C" fn Fixture_Count(value: i32) -> i32 {
        #[cfg(broken = "export_calls_export")]
        return Fixture_Parse(value);
        #[cfg(not(broken = "export_calls_export"))]
        crate::core::count(value)
    }

    #[no_mangle]
    pub extern "C" fn uoanim_internal_fixture_va(value: i32) -> i32 {
        guard(|| crate::core::parse(value))
    }

    // the assembly entry point of the body above (x86_64 System V)
    core::arch::global_asm!(
        ".pushsection .text.Fixture_Entry,\"ax\",@progbits",
        ".globl Fixture_Entry",
        ".type Fixture_Entry,@function",
        "Fixture_Entry:",
        #[cfg(not(broken = "asm_calls_export"))]
        "    jmp uoanim_internal_fixture_va",
        #[cfg(broken = "asm_calls_export")]
        "    jmp Fixture_Count",
        ".size Fixture_Entry, .-Fixture_Entry",
        ".popsection",
    );
    // the definition the check reads the routine's name from:
    // asm_function!("Fixture_Entry")
}

pub mod core {
    pub fn parse(value: i32) -> Result<i32, crate::ffi::Failure> {
        if value < 0 {
            return Err(crate::ffi::Failure(1));
        }
        Ok(deep(value))
    }

    pub fn count(value: i32) -> i32 {
        value.wrapping_add(1)
    }

    #[inline(never)]
    fn deep(value: i32) -> i32 {
        #[cfg(broken = "core_guard")]
        return crate::ffi::guard(|| if value > 9 { Err(crate::ffi::Failure(2)) } else { Ok(value) });
        #[cfg(broken = "core_error")]
        if value > 9 {
            unsafe { crate::ffi::raise::Com_Error(1, b"%s\0".as_ptr()) }
        }
        #[allow(unreachable_code)]
        value
    }
}
