//! The C libraries' `atoi`, as the original's builds convert the numbers
//! of `duration` and `blendtime` (which one a build calls is the C units'
//! choice, by its flavour and target).
//!
//! ```
//! use uoanim_core::atoi::{glibc_atoi, msvc_atoi};
//!
//! assert_eq!(glibc_atoi(b"2147483648", 32), i32::MAX); // saturates at a 32-bit long
//! assert_eq!(glibc_atoi(b"2147483648", 64), i32::MIN); // a 64-bit long, truncated
//! assert_eq!(msvc_atoi(b"4294967297"), 1); // wraps
//! ```

/// Leading white space and one sign: whether it is `-`, and the rest.
fn skip_space_and_sign(text: &[u8]) -> (bool, &[u8]) {
    let mut i = 0;
    while i < text.len() && (text[i] == b' ' || (0x09..=0x0d).contains(&text[i])) {
        i += 1;
    }
    let mut negative = false;
    if i < text.len() && (text[i] == b'+' || text[i] == b'-') {
        negative = text[i] == b'-';
        i += 1;
    }
    (negative, &text[i..])
}

/// glibc `atoi` with a `long` of `long_bits` bits (64 or 32).
pub fn glibc_atoi(text: &[u8], long_bits: usize) -> i32 {
    let (negative, digits) = skip_space_and_sign(text);
    let max: i128 = (1i128 << (long_bits - 1)) - 1;
    let min: i128 = -(1i128 << (long_bits - 1));
    let mut value: i128 = 0;
    let mut saturated = false;
    for &d in digits.iter().take_while(|d| d.is_ascii_digit()) {
        if !saturated {
            value = value * 10 + i128::from(d - b'0');
            if value > max + 1 {
                saturated = true;
            }
        }
    }
    let result = if negative {
        if saturated || -value < min {
            min
        } else {
            -value
        }
    } else if saturated || value > max {
        max
    } else {
        value
    };
    result as i64 as i32
}

/// MSVC-style `atoi` of the client build: wrapping, no saturation.
pub fn msvc_atoi(text: &[u8]) -> i32 {
    let (negative, digits) = skip_space_and_sign(text);
    let mut value: u32 = 0;
    for &d in digits.iter().take_while(|d| d.is_ascii_digit()) {
        value = value.wrapping_mul(10).wrapping_add(u32::from(d - b'0'));
    }
    if negative {
        value = value.wrapping_neg();
    }
    value as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glibc_atoi_saturates_at_long_range() {
        assert_eq!(glibc_atoi(b"12", 64), 12);
        assert_eq!(glibc_atoi(b"  -7x", 64), -7);
        assert_eq!(glibc_atoi(b"2147483648", 64), i32::MIN);
        assert_eq!(glibc_atoi(b"2147483648", 32), i32::MAX);
        assert_eq!(glibc_atoi(b"18446744073709551617", 64), -1);
        assert_eq!(glibc_atoi(b"-99999999999999999999", 64), 0);
        assert_eq!(glibc_atoi(b"-99999999999999999999", 32), i32::MIN);
        assert_eq!(glibc_atoi(b"+5", 32), 5);
        assert_eq!(glibc_atoi(b"--5", 32), 0);
        assert_eq!(glibc_atoi(b"", 64), 0);
    }

    #[test]
    fn msvc_atoi_wraps() {
        assert_eq!(msvc_atoi(b"18446744073709551617"), 1);
        assert_eq!(msvc_atoi(b"4294967295"), -1);
        assert_eq!(msvc_atoi(b"-2147483648"), i32::MIN);
        assert_eq!(msvc_atoi(b"\t 42abc"), 42);
    }
}
