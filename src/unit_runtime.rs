//! What a link unit needs of a runtime, and nothing more: the heap is the C
//! library's `malloc`, and a panic (a broken invariant: the crate's code
//! paths are meant never to panic) aborts the process like a failed C
//! `assert`. Only a shipped unit has these; the tests and the tools that use
//! the crate as a Rust library bring `std`'s.

use core::alloc::{GlobalAlloc, Layout};
use core::ffi::c_void;

extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn calloc(count: usize, size: usize) -> *mut c_void;
    fn realloc(block: *mut c_void, size: usize) -> *mut c_void;
    fn free(block: *mut c_void);
    fn abort() -> !;
}

/// The alignment every `malloc` of the targets guarantees (msvcrt's on
/// i686 Windows is the smallest: 8).
const MALLOC_ALIGN: usize = 8;

/// The C heap. Blocks aligned beyond [`MALLOC_ALIGN`] are carved out of a
/// larger block whose address is kept in the word before them.
struct CHeap;

unsafe impl GlobalAlloc for CHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: plain C allocation.
            return unsafe { malloc(layout.size()) }.cast();
        }
        // SAFETY: plain C allocation; the returned block lies inside it.
        unsafe { over_aligned(malloc(layout.size() + layout.align()), layout.align()) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: plain C allocation.
            return unsafe { calloc(1, layout.size()) }.cast();
        }
        // SAFETY: plain C allocation; the returned block lies inside it.
        unsafe { over_aligned(calloc(1, layout.size() + layout.align()), layout.align()) }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: a block of `malloc` (caller's contract).
            unsafe { free(block.cast()) };
        } else {
            // SAFETY: a block of `over_aligned`, whose word before it holds
            // the C block.
            unsafe { free(*block.cast::<*mut c_void>().sub(1)) };
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= MALLOC_ALIGN {
            // SAFETY: a block of `malloc` (caller's contract).
            return unsafe { realloc(block.cast(), new_size) }.cast();
        }
        // SAFETY: the default move to a new block (caller's contract).
        unsafe {
            let new = self.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
            if !new.is_null() {
                core::ptr::copy_nonoverlapping(block, new, layout.size().min(new_size));
                self.dealloc(block, layout);
            }
            new
        }
    }
}

/// The first `align`-aligned address in `raw` past one word, with `raw`
/// stored in the word before it; NULL for NULL.
///
/// # Safety
/// `raw` is NULL or a C block of at least `align` bytes more than needed;
/// `align` is a power of two above [`MALLOC_ALIGN`].
unsafe fn over_aligned(raw: *mut c_void, align: usize) -> *mut u8 {
    if raw.is_null() {
        return core::ptr::null_mut();
    }
    let offset = align - (raw as usize & (align - 1));
    // SAFETY: offset is in 1..=align (at least a word, as align > 8 and
    // malloc's blocks are 8-aligned), inside the block.
    unsafe {
        let block = raw.cast::<u8>().add(offset);
        *block.cast::<*mut c_void>().sub(1) = raw;
        block
    }
}

#[global_allocator]
static HEAP: CHeap = CHeap;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    // SAFETY: the C library's abort.
    unsafe { abort() }
}
