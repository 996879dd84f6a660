//! The runtime of a shipped link unit (`no_std`): the global allocator over
//! the C library's `malloc`/`realloc`/`free`, and a panic handler that aborts.
//!
//! The units are built with `panic = "abort"` and the core reports failures as
//! values, so a panic means a bug; `abort()` ends the process as a failed
//! assertion of the C original would.

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::c_void;

extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn calloc(count: usize, size: usize) -> *mut c_void;
    fn realloc(ptr: *mut c_void, size: usize) -> *mut c_void;
    fn free(ptr: *mut c_void);
    fn abort() -> !;
}

/// The alignment every `malloc` block has on all the targets: two pointers
/// (16 bytes on 64-bit, 8 on 32-bit, the least of 32-bit Windows' `malloc`).
const MALLOC_ALIGN: usize = 2 * core::mem::size_of::<usize>();

/// `malloc`/`free`; a block aligned beyond [`MALLOC_ALIGN`] is carved out of a
/// larger one, whose address is kept in the word before it.
struct CAllocator;

unsafe impl GlobalAlloc for CAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN && layout.align() <= layout.size().max(1) {
            // SAFETY: malloc accepts any size; a NULL result is passed on
            unsafe { malloc(layout.size().max(1)) as *mut u8 }
        } else {
            // SAFETY: as above; the aligned block and its header word lie
            // inside the malloc block
            unsafe { over_aligned(layout, false) }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN && layout.align() <= layout.size().max(1) {
            // SAFETY: calloc accepts any size
            unsafe { calloc(1, layout.size().max(1)) as *mut u8 }
        } else {
            // SAFETY: as in alloc
            unsafe { over_aligned(layout, true) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.align() <= MALLOC_ALIGN && layout.align() <= layout.size().max(1) {
            // SAFETY: ptr came from malloc/calloc/realloc with this layout
            unsafe { free(ptr as *mut c_void) }
        } else {
            // SAFETY: over_aligned stored the malloc block's address just
            // before ptr
            unsafe { free(*(ptr as *mut *mut c_void).sub(1)) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN && layout.align() <= new_size.max(1) && layout.align() <= layout.size().max(1) {
            // SAFETY: ptr came from malloc with this layout's alignment class
            unsafe { realloc(ptr as *mut c_void, new_size.max(1)) as *mut u8 }
        } else {
            // SAFETY: the new layout is valid (GlobalAlloc::realloc's contract);
            // both blocks hold at least min(old, new) bytes
            unsafe {
                let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
                let new = self.alloc(new_layout);
                if !new.is_null() {
                    core::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                    self.dealloc(ptr, layout);
                }
                new
            }
        }
    }
}

/// A block of `layout` inside a larger malloc block, the larger block's
/// address in the word just before it.
unsafe fn over_aligned(layout: Layout, zeroed: bool) -> *mut u8 {
    let align = layout.align().max(MALLOC_ALIGN);
    let Some(total) = layout.size().checked_add(align + core::mem::size_of::<usize>()) else {
        return core::ptr::null_mut();
    };
    // SAFETY: malloc/calloc accept any size
    let base = unsafe { if zeroed { calloc(1, total) } else { malloc(total) } } as *mut u8;
    if base.is_null() {
        return base;
    }
    let start = base as usize + core::mem::size_of::<usize>();
    let aligned = (start + align - 1) & !(align - 1);
    let ptr = base.wrapping_add(aligned - base as usize);
    // SAFETY: ptr - one word >= base, and ptr + size <= base + total
    unsafe { *(ptr as *mut *mut u8).sub(1) = base };
    ptr
}

#[global_allocator]
static ALLOCATOR: CAllocator = CAllocator;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    // SAFETY: abort() takes no arguments and does not return
    unsafe { abort() }
}

/// The personality routine the unwind tables of the precompiled `core` name
/// (`core` is built for unwinding; the units never unwind, `panic = "abort"`).
/// Nothing calls it; it only resolves that reference. `package-unit.sh` keeps
/// it out of the unit's exports.
#[no_mangle]
extern "C" fn rust_eh_personality() -> ! {
    // SAFETY: abort() takes no arguments and does not return
    unsafe { abort() }
}
