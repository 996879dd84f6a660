//! Unit tests of the compact tree (trees and assets built in Rust memory).

use std::prelude::rust_2021::*;

use super::*;
use crate::abi::xanim::{fileDataPayload, xanim_notetrack_t};
use std::ffi::CString;

/// An asset record with its loaded parts, at a stable address.
struct Asset {
    record: fileData_t,
    parts: XAnimParts,
    _name: Vec<u8>,
    _tracks: Vec<xanim_notetrack_t>,
}

fn asset(name: &str, frames: u16, looped: u8, rate: f32, tracks: &[u16]) -> Box<Asset> {
    // The name's bytes in a Vec, not a CString: moving a box asserts it is
    // unique, which would end the record's pointer into it (Miri).
    let name = CString::new(name).unwrap().into_bytes_with_nul();
    let mut tracks: Vec<xanim_notetrack_t> =
        tracks.iter().map(|&h| xanim_notetrack_t { nameHandle: h, padding02: [0; 2], time: 0.5 }).collect();
    let has_tracks = !tracks.is_empty();
    if has_tracks {
        tracks.push(xanim_notetrack_t::default());
    }
    let mut a = Box::new(Asset {
        record: fileData_t {
            name: name.as_ptr().cast(),
            data: fileDataPayload { raw: core::ptr::null_mut() },
            freeData: None,
        },
        parts: XAnimParts {
            frameCountMinusOne: frames,
            looped,
            hasDeltaMotion: 0,
            frameRate: rate,
            frequency: 0.0,
            partNameHandles: core::ptr::null_mut(),
            partStreamPairs: core::ptr::null_mut(),
            noteTracks: if has_tracks { tracks.as_mut_ptr() } else { core::ptr::null_mut() },
            deltaMotion: core::ptr::null_mut(),
            compressedRotationBits: core::ptr::null_mut(),
        },
        _name: name,
        _tracks: tracks,
    });
    a.record.data.xanimParts = core::ptr::null_mut(); // set where it stays (Mock::with)
    a
}

/// Mock engine: an asset table, a log of look-ups and allocations. (Boxed
/// assets: records point into themselves, so they must not move.)
#[derive(Default)]
#[allow(clippy::vec_box)]
struct Mock {
    /// Leaked boxes (freed on drop): raw, so that no later reference to an
    /// asset ends the pointers the trees hold into it.
    assets: Vec<*mut Asset>,
    lookups: Vec<Vec<u8>>,
    allocs: Vec<usize>,
    blocks: Vec<Vec<u64>>,
    fail_alloc: bool,
}

impl Drop for Mock {
    fn drop(&mut self) {
        for &a in &self.assets {
            // SAFETY: leaked by `Mock::with`, freed once.
            drop(unsafe { Box::from_raw(a) });
        }
    }
}

impl Mock {
    #[allow(clippy::vec_box)]
    fn with(assets: Vec<Box<Asset>>) -> Self {
        let assets = assets
            .into_iter()
            .map(|a| {
                let p = Box::into_raw(a);
                // SAFETY: a live allocation; its record points at its parts.
                unsafe { (*p).record.data.xanimParts = core::ptr::addr_of_mut!((*p).parts) };
                p
            })
            .collect();
        let mut m = Self::default();
        m.assets = assets;
        m
    }
    fn record(&mut self, i: usize) -> *mut fileData_t {
        // SAFETY: a live asset of the mock.
        unsafe { core::ptr::addr_of_mut!((*self.assets[i]).record) }
    }
}

// SAFETY: the records are the mock's boxed assets (they outlive every tree
// of a test) and the allocator is the test's (blocks of the size asked for).
unsafe impl XAnimEngine for Mock {
    fn get_xanim_data(&mut self, anim_name: &CStr) -> *mut fileData_t {
        self.lookups.push(anim_name.to_bytes().to_vec());
        for &a in &self.assets {
            // SAFETY: a live asset of the mock, with a valid name.
            unsafe {
                if CStr::from_ptr((*a).record.name) == anim_name {
                    return core::ptr::addr_of_mut!((*a).record);
                }
            }
        }
        core::ptr::null_mut()
    }

    fn call_tree_alloc(&mut self, _alloc: script_anim_tree_alloc_t, size: usize) -> *mut c_void {
        self.allocs.push(size);
        if self.fail_alloc {
            return core::ptr::null_mut();
        }
        // Poisoned (not zeroed) so that zeroing by the callee is visible.
        let mut block = vec![0xcdcd_cdcd_cdcd_cdcdu64; size.div_ceil(8) + 2];
        let p = block.as_mut_ptr() as *mut c_void;
        self.blocks.push(block);
        p
    }
}

/// A zero-filled tree of `n` nodes named `name` (as the engine allocator gives).
struct TreeMem {
    _buf: Vec<u64>,
    _name: Vec<u8>,
}

fn tree_mem(name: &str, n: u32) -> (TreeMem, XAnimMut<'static>) {
    let name = CString::new(name).unwrap().into_bytes_with_nul();
    let mut buf = vec![0u64; tree_alloc_size(n).div_ceil(8)];
    let p = buf.as_mut_ptr() as *mut XAnim;
    // SAFETY: the buffer holds the header and `n` entries.
    unsafe {
        (*p).name = name.as_ptr().cast();
        (*p).nodeCount = n;
    }
    // SAFETY: as above; the memory lives in the returned TreeMem.
    let h = unsafe { XAnimMut::from_raw(p) }.unwrap();
    (TreeMem { _buf: buf, _name: name }, h)
}

fn err_text(r: Result<(), Failure<'_>>) -> Vec<u8> {
    match r {
        Err(failure) => {
            assert_eq!(failure.report(), crate::error::Report::Error { level: crate::error::level::DROP });
            failure.text(None).as_bytes().to_vec()
        }
        other => std::panic!("expected Com_Error, got {other:?}"),
    }
}

fn flags(t: XAnimHandle<'_>, i: u32) -> u16 {
    parent_view(&t.entry(i).unwrap()).flags
}

/// root(0) -> a(1) b(2); a -> l3 l4; b -> l5
fn small_tree(m: &mut Mock) -> (TreeMem, XAnimMut<'static>) {
    let (mem, mut t) = tree_mem("small.atr", 6);
    set_parent_node(&mut t, 0, 1, 2, 0);
    set_parent_node(&mut t, 1, 3, 2, FLAG_SYNC_LOOPING | FLAG_COMPLETE);
    set_parent_node(&mut t, 2, 5, 1, 0);
    set_leaf_node(m, &mut t, 3, c"walk").unwrap();
    set_leaf_node(m, &mut t, 4, c"run").unwrap();
    set_leaf_node(m, &mut t, 5, c"idle").unwrap();
    (mem, t)
}

fn small_mock() -> Mock {
    Mock::with(vec![
        asset("walk", 29, 1, 30.0, &[7, 9]),
        asset("run", 19, 1, 20.0, &[]),
        asset("idle", 1, 0, 30.0, &[]),
        asset("twice", 5, 2, 30.0, &[]),
    ])
}

#[test]
fn alloc_tree_asks_header_plus_entries_and_writes_header_only() {
    let mut m = Mock::default();
    let name = c"x.atr";
    let t = alloc_tree(&mut m, name.as_ptr(), 3, None).unwrap();
    assert_eq!(m.allocs, vec![core::mem::size_of::<XAnim>() + 3 * core::mem::size_of::<XAnimEntry>()]);
    // SAFETY: the mock block holds the header and 3 entries.
    let t = unsafe { XAnimHandle::from_raw(t.as_ptr()) }.unwrap();
    assert_eq!(t.node_count(), 3);
    assert_eq!(t.name_ptr(), name.as_ptr());
    // entries untouched (the poisoned mock memory shows through)
    assert_eq!(t.entry(0).unwrap().parentIndex, 0xcdcd);
    assert!(t.entry(3).is_none());
}

#[test]
fn alloc_tree_without_memory_is_none() {
    let mut m = Mock::default();
    m.fail_alloc = true;
    assert!(alloc_tree(&mut m, c"x".as_ptr(), 1, None).is_none());
    assert_eq!(m.allocs.len(), 1);
}

#[test]
fn tree_alloc_size_wraps_like_size_t() {
    assert_eq!(tree_alloc_size(0), core::mem::size_of::<XAnim>());
    #[cfg(target_pointer_width = "32")]
    assert_eq!(tree_alloc_size(u32::MAX), 8usize.wrapping_add((u32::MAX as usize).wrapping_mul(8)));
}

#[test]
fn leaf_node_missing_asset_error_text() {
    let mut m = small_mock();
    let (_mem, mut t) = tree_mem("t", 2);
    let r = set_leaf_node(&mut m, &mut t, 1, c"Nope");
    assert_eq!(r, Err(MissingAsset));
    assert_eq!(err_text(r.map_err(|MissingAsset| missing_asset(CText::new(c"Nope")))), b"\x15Cannot find 'xanim/Nope'");
    assert_eq!(m.lookups, vec![b"Nope".to_vec()]);
    // not written
    assert_eq!(t.handle().entry(1).unwrap().childCount, 0);
    // SAFETY: zeroed union.
    assert!(unsafe { t.handle().entry(1).unwrap().payload.leafAsset }.is_null());
}

#[test]
fn leaf_node_sets_asset_and_clears_child_count() {
    let mut m = small_mock();
    let (_mem, mut t) = tree_mem("t", 2);
    set_parent_node(&mut t, 1, 0, 7, 3);
    set_leaf_node(&mut m, &mut t, 1, c"run").unwrap();
    let e = t.handle().entry(1).unwrap();
    assert_eq!(e.childCount, 0);
    // SAFETY: pointer member just written.
    assert_eq!(unsafe { e.payload.leafAsset }, m.record(1));
    // outside the tree: looked up, nothing written, no failure
    set_leaf_node(&mut m, &mut t, 9, c"run").unwrap();
    assert_eq!(m.lookups.len(), 2);
}

#[test]
fn parent_node_stamps_children_and_keeps_upper_payload() {
    let (_mem, mut t) = tree_mem("t", 4);
    let entries = t.entries_mut();
    entries[0].payload.leafAsset = usize::MAX as *mut fileData_t;
    set_parent_node(&mut t, 0, 1, 3, 0x0009);
    let e = t.handle().entry(0).unwrap();
    assert_eq!(e.childCount, 3);
    assert_eq!(parent_view(&e), XAnimParentPayload { flags: 9, firstChildIndex: 1 });
    // SAFETY: reading the pointer member's bits.
    let bits = unsafe { e.payload.leafAsset } as usize;
    #[cfg(target_pointer_width = "64")]
    assert_eq!(bits >> 32, 0xffff_ffff);
    #[cfg(target_pointer_width = "32")]
    assert_eq!(bits, 0x0001_0009);
    for i in 1..4 {
        assert_eq!(t.handle().entry(i).unwrap().parentIndex, 0);
    }
    set_parent_node(&mut t, 2, 3, 5, 0); // children 3..8: only 3 exists
    assert_eq!(t.handle().entry(3).unwrap().parentIndex, 2);
    set_parent_node(&mut t, 40, 1, 1, 0); // node outside: its child is still stamped
    assert_eq!(t.handle().entry(1).unwrap().parentIndex, 40);
}

#[test]
fn sync_setup_marks_source_and_descendants() {
    let mut m = small_mock();
    let (_mem, mut t) = small_tree(&mut m);
    setup_sync_nodes(&mut t).unwrap();
    assert_eq!(flags(t.handle(), 0), 0);
    assert_eq!(flags(t.handle(), 1), FLAG_SYNC_LOOPING | FLAG_COMPLETE | FLAG_NOTIFY_SOURCE);
    assert_eq!(flags(t.handle(), 2), 0);
}

#[test]
fn sync_fill_marks_nested_parents() {
    let mut m = small_mock();
    let (_mem, mut t) = tree_mem("nest", 5);
    set_parent_node(&mut t, 0, 1, 1, FLAG_SYNC_NON_LOOPING);
    set_parent_node(&mut t, 1, 2, 2, 0);
    set_leaf_node(&mut m, &mut t, 2, c"idle").unwrap();
    set_parent_node(&mut t, 3, 4, 1, 0);
    set_leaf_node(&mut m, &mut t, 4, c"idle").unwrap();
    setup_sync_nodes(&mut t).unwrap();
    assert_eq!(flags(t.handle(), 0), FLAG_SYNC_NON_LOOPING | FLAG_NOTIFY_SOURCE);
    assert_eq!(flags(t.handle(), 1), FLAG_SYNC_NON_LOOPING);
    assert_eq!(flags(t.handle(), 3), FLAG_SYNC_NON_LOOPING);
}

#[test]
fn sync_errors_name_asset_and_tree() {
    let mut m = small_mock();
    let (_mem, mut t) = small_tree(&mut m);
    set_leaf_node(&mut m, &mut t, 4, c"idle").unwrap();
    assert_eq!(err_text(setup_sync_nodes(&mut t)), b"\x15animation 'idle' in 'small.atr' cannot be sync looping and nonlooping");
    // the source flag and the earlier leaf's check happened before the error
    assert_ne!(flags(t.handle(), 1) & FLAG_NOTIFY_SOURCE, 0);

    let mut m = small_mock();
    let (_mem, mut t) = tree_mem("nl", 2);
    set_parent_node(&mut t, 0, 1, 1, FLAG_SYNC_NON_LOOPING);
    set_leaf_node(&mut m, &mut t, 1, c"walk").unwrap();
    assert_eq!(err_text(setup_sync_nodes(&mut t)), b"\x15animation 'walk' in 'nl' cannot be sync nonlooping and looping");
}

#[test]
fn quirk_looped_byte_two_fails_both_sync_kinds() {
    for (flag, msg) in [
        (FLAG_SYNC_LOOPING, &b"looping and nonlooping"[..]),
        (FLAG_SYNC_NON_LOOPING, &b"nonlooping and looping"[..]),
    ] {
        let mut m = small_mock();
        let (_mem, mut t) = tree_mem("q", 2);
        set_parent_node(&mut t, 0, 1, 1, flag);
        set_leaf_node(&mut m, &mut t, 1, c"twice").unwrap();
        let text = err_text(setup_sync_nodes(&mut t));
        assert!(text.ends_with(msg), "{:?}", String::from_utf8_lossy(&text));
    }
}

#[test]
fn both_sync_bits_error() {
    let mut m = small_mock();
    let (_mem, mut t) = small_tree(&mut m);
    set_parent_node(&mut t, 2, 5, 1, FLAG_SYNC_MASK);
    // node 1 (first child) is processed fully before node 2
    assert_eq!(err_text(setup_sync_nodes(&mut t)), b"\x15animation cannot be sync looping and sync nonlooping");
    assert_ne!(flags(t.handle(), 1) & FLAG_NOTIFY_SOURCE, 0);
}

#[test]
fn nested_sync_error_counts_first_child_chain() {
    let mut m = small_mock();
    let (_mem, mut t) = tree_mem("deep.atr", 6);
    set_parent_node(&mut t, 0, 1, 1, FLAG_SYNC_LOOPING);
    set_parent_node(&mut t, 1, 2, 1, 0);
    set_parent_node(&mut t, 2, 3, 1, FLAG_SYNC_LOOPING);
    set_parent_node(&mut t, 3, 4, 2, 0);
    set_leaf_node(&mut m, &mut t, 4, c"run").unwrap();
    set_leaf_node(&mut m, &mut t, 5, c"walk").unwrap();
    assert_eq!(
        err_text(setup_sync_nodes(&mut t)),
        b"\x15duplicate specification of animation sync in 'deep.atr', 2 nodes above 'run'"
    );
}

#[test]
fn fill_in_directly_with_odd_require_value() {
    let mut m = small_mock();
    let (_mem, mut t) = small_tree(&mut m);
    // requireLooping 5 is "looping" for the error choice and the flag, and no
    // looped byte equals it
    let text = err_text(fill_in_sync_nodes(&mut t, 2, 5));
    assert_eq!(text, b"\x15animation 'idle' in 'small.atr' cannot be sync looping and nonlooping");
    assert_eq!(flags(t.handle(), 2), FLAG_SYNC_LOOPING);
    // leaf directly: fine when equal
    fill_in_sync_nodes(&mut t, 3, 1).unwrap();
}

#[test]
fn sync_walk_survives_cycles_and_bad_indices() {
    let (_mem, mut t) = tree_mem("cyc", 3);
    // 0 -> 1 -> 2 -> 0, no sync bits: the original recurses forever
    set_parent_node(&mut t, 0, 1, 1, 0);
    set_parent_node(&mut t, 1, 2, 1, 0);
    set_parent_node(&mut t, 2, 0, 1, 0);
    setup_sync_nodes(&mut t).unwrap();
    // with a sync bit: the fill comes back to a marked node
    set_parent_node(&mut t, 1, 2, 1, FLAG_SYNC_LOOPING);
    let text = err_text(setup_sync_nodes(&mut t));
    assert_eq!(text, b"\x15duplicate specification of animation sync in 'cyc', 4 nodes above ''");
    // indices outside the tree are skipped
    let (_mem, mut t) = tree_mem("oob", 1);
    set_parent_node(&mut t, 0, 5, 3, FLAG_SYNC_LOOPING);
    setup_sync_nodes(&mut t).unwrap();
    setup_sync_nodes_r(&mut t, 77).unwrap();
    fill_in_sync_nodes(&mut t, 77, 1).unwrap();
}

#[test]
fn queries_on_parents_and_leaves() {
    let mut m = small_mock();
    let (_mem, mut t) = small_tree(&mut m);
    setup_sync_nodes(&mut t).unwrap();
    assert_eq!(t.handle().node_count(), 6);
    assert_eq!(t.handle().num_children(0), 2);
    assert_eq!(t.handle().num_children(3), 0);
    assert_eq!(t.handle().child_at(0, 0), 1);
    assert_eq!(t.handle().child_at(0, 1), 2);
    assert_eq!(t.handle().child_at(1, 5), 8); // no range check
    // SAFETY: names are C strings.
    let name = |i| unsafe { CStr::from_ptr(t.handle().anim_name(i)) }.to_bytes().to_vec();
    assert_eq!(name(0), b"<non-leaf anim>");
    assert_eq!(name(4), b"run");
    assert_eq!((t.handle().is_primitive(0), t.handle().is_primitive(5)), (0, 1));
    assert_eq!((t.handle().has_time(0), t.handle().has_time(1), t.handle().has_time(2), t.handle().has_time(5)), (0, 1, 0, 1));
    assert_eq!((t.handle().is_looped(0), t.handle().is_looped(1), t.handle().is_looped(3), t.handle().is_looped(5)), (0, 1, 1, 0));
    assert_eq!((t.handle().notetrack_exists(3, 9), t.handle().notetrack_exists(3, 8), t.handle().notetrack_exists(4, 9)), (1, 0, 0));
}

#[test]
fn quirk_is_looped_returns_the_raw_byte() {
    let mut m = small_mock();
    let (_mem, mut t) = tree_mem("t", 1);
    set_leaf_node(&mut m, &mut t, 0, c"twice").unwrap();
    assert_eq!(t.handle().is_looped(0), 2);
}

#[test]
fn child_at_on_a_leaf_reads_the_pointer_bits() {
    let mut m = small_mock();
    let (_mem, mut t) = tree_mem("t", 1);
    set_leaf_node(&mut m, &mut t, 0, c"run").unwrap();
    let bits = m.record(1) as usize;
    assert_eq!(t.handle().child_at(0, 3), ((bits >> 16) & 0xffff) as i32 + 3);
}

#[test]
fn defined_results_outside_the_tree() {
    let (_mem, t) = tree_mem("t", 2);
    for i in [-1, 2, i32::MAX, i32::MIN] {
        assert_eq!(t.handle().num_children(i), 0);
        assert_eq!(t.handle().child_at(i, 4), 4);
        assert_eq!(t.handle().is_primitive(i), 0);
        assert_eq!(t.handle().has_time(i), 0);
        assert_eq!(t.handle().is_looped(i), 0);
        assert_eq!(t.handle().notetrack_exists(i, 1), 0);
        assert_eq!(t.handle().anim_name(i), MISSING_NAME.as_ptr());
        assert_eq!(length_operands(Some(t.handle()), i), LengthOperands::NONE);
    }
    // leaf without asset
    assert_eq!(t.handle().anim_name(1), MISSING_NAME.as_ptr());
    assert_eq!(t.handle().is_looped(1), 0);
    assert_eq!(length_operands(None, 0), LengthOperands::NONE);
}

#[test]
fn child_at_wraps() {
    let (_mem, mut t) = tree_mem("t", 1);
    set_parent_node(&mut t, 0, 0xffff, 1, 0);
    assert_eq!(t.handle().child_at(0, i32::MAX), 0xffff_i32.wrapping_add(i32::MAX));
}

#[test]
fn runtime_tree_size_matches_the_original_formula() {
    #[cfg(target_pointer_width = "32")]
    assert_eq!(runtime_tree_size(10), 8 * 10 + 14);
    #[cfg(target_pointer_width = "64")]
    assert_eq!(runtime_tree_size(10), 8 * 10 + 18);
    assert_eq!(runtime_tree_size(0), core::mem::size_of::<XAnimTree>() + 2);
}

#[test]
fn runtime_tree_is_zeroed_and_points_at_its_source() {
    let mut m = Mock::default();
    let (_mem, t) = tree_mem("t", 5);
    let rt = alloc_runtime_tree(&mut m, Some(t.handle()), None);
    let size = runtime_tree_size(5);
    assert_eq!(m.allocs, vec![size]);
    // SAFETY: the mock block has size + 16 bytes.
    let bytes = unsafe { core::slice::from_raw_parts(rt as *const u8, size + 1) };
    let ptr_size = core::mem::size_of::<usize>();
    assert!(bytes[ptr_size..size].iter().all(|&b| b == 0));
    assert_eq!(bytes[size], 0xcd);
    // SAFETY: header written.
    assert_eq!(unsafe { (*rt).sourceTree }, t.as_ptr());
    assert!(alloc_runtime_tree(&mut m, None, None).is_null());
    assert_eq!(m.allocs.len(), 1);
    let mut m = Mock::default();
    m.fail_alloc = true;
    assert!(alloc_runtime_tree(&mut m, Some(t.handle()), None).is_null());
}

// ---------------------------------------------------------------- lengths

/// One-leaf tree for a length.
fn length_fixture(frames: u16, rate: f32) -> (Mock, TreeMem, XAnimMut<'static>) {
    let mut m = Mock::with(vec![asset("a", frames, 0, rate, &[])]);
    let (mem, mut t) = tree_mem("len", 2);
    set_leaf_node(&mut m, &mut t, 1, c"a").unwrap();
    set_parent_node(&mut t, 0, 1, 1, 0);
    (m, mem, t)
}

/// The engine flavour's length of node `i`, by the software x87 path.
fn extended(t: &XAnimMut<'_>, i: i32) -> (u64, u16) {
    let x = length_extended(length_operands(Some(t.handle()), i));
    (x.significand, x.sign_exponent)
}

/// The client flavour's length of node `i`.
fn binary64(t: &XAnimMut<'_>, i: i32) -> f64 {
    length_binary64(length_operands(Some(t.handle()), i))
}

/// frames / rate rounded to nearest-even with a 64-bit significand, as
/// (significand, biased exponent); positive finite nonzero operands.
fn exact_extended(frames: u32, rate: f32) -> (u64, u16) {
    let bits = rate.to_bits();
    let (mr, er) = {
        let e = ((bits >> 23) & 0xff) as i32;
        let f = u128::from(bits & 0x7f_ffff);
        if e == 0 { (f, -149) } else { (f | 0x80_0000, e - 150) }
    };
    let num = u128::from(frames) << 90;
    let (mut q, r) = (num / mr, num % mr);
    let top = 127 - q.leading_zeros() as i32;
    let shift = top - 63;
    assert!(shift > 1);
    let rest = q & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    q >>= shift;
    if rest > half || (rest == half && (r != 0 || q & 1 == 1)) {
        q += 1;
    }
    let mut exp = shift - 90 - er + 63;
    if q >> 64 != 0 {
        q >>= 1;
        exp += 1;
    }
    (q as u64, (exp + 16383) as u16)
}

#[test]
fn extended_length_is_the_64_bit_rounded_quotient() {
    // values of the protocol: 1/30 and 65535/30
    let (_m, _mem, t) = length_fixture(1, 30.0);
    assert_eq!(extended(&t, 1), (0x8888_8888_8888_8889, 0x3ffa));
    let (_m, _mem, t) = length_fixture(65535, 30.0);
    assert_eq!(extended(&t, 1), (0x8888_0000_0000_0000, 16383 + 11));
    let mut seed = 0x1234_5678_9abc_def0u64;
    for _ in 0..if cfg!(miri) { 300 } else { 3000 } {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let frames = (seed as u16).max(1);
        let rate = f32::from_bits(((seed >> 20) as u32 & 0x07ff_ffff) + 0x3800_0000);
        let (_m, _mem, t) = length_fixture(frames, rate);
        assert_eq!(extended(&t, 1), exact_extended(u32::from(frames), rate), "{frames}/{rate}");
    }
}

#[test]
fn extended_length_specials() {
    let (_m, _mem, t) = length_fixture(5, 0.0);
    assert_eq!(extended(&t, 1), (0x8000_0000_0000_0000, 0x7fff)); // +inf
    let (_m, _mem, t) = length_fixture(0, 0.0);
    assert_eq!(extended(&t, 1), (0xc000_0000_0000_0000, 0xffff)); // default NaN
    let (_m, _mem, t) = length_fixture(5, -f32::INFINITY);
    assert_eq!(extended(&t, 1), (0, 0x8000)); // -0
    // parents, NULL and outside: 0 / 1 = +0
    assert_eq!(extended(&t, 0), (0, 0));
    assert_eq!(extended(&t, 9), (0, 0));
    // a leaf without asset
    let (_mem, bare) = tree_mem("bare", 2);
    assert_eq!(extended(&bare, 1), (0, 0));
    assert_eq!(binary64(&bare, 1).to_bits(), 0);
    assert_eq!(binary64(&bare, -1).to_bits(), 0);
    let none = length_operands(None, 0);
    assert_eq!(length_extended(none).to_bytes(), [0u8; 10]);
}

#[test]
fn binary64_length_is_rounded_once() {
    // 1/30 in binary64 (the protocol's client value)
    let (_m, _mem, t) = length_fixture(1, 30.0);
    assert_eq!(binary64(&t, 1).to_bits(), 0x3fa1_1111_1111_1111);
    let (_m, _mem, t) = length_fixture(65535, 30.0);
    assert_eq!(binary64(&t, 1).to_bits(), (65535.0f64 / 30.0).to_bits());
}



/// A double-rounding pair: rounding the quotient to 64 bits and then to 53
/// differs from rounding once.
#[test]
fn binary64_length_avoids_double_rounding() {
    let mut found = 0;
    let mut seed = 0xdead_beef_cafe_f00du64;
    for _ in 0..if cfg!(miri) { 20_000 } else { 200_000 } {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let frames = (seed as u16).max(1);
        let rate = f32::from_bits(((seed >> 20) as u32 & 0x07ff_ffff) + 0x3c00_0000);
        let (sig, exp) = exact_extended(u32::from(frames), rate);
        // round the 64-bit significand to 53 bits (nearest-even)
        let mut s = sig >> 11;
        let rest = sig & 0x7ff;
        if rest > 0x400 || (rest == 0x400 && s & 1 == 1) {
            s += 1;
        }
        let twice = (s as f64) * 2f64.powi(i32::from(exp) - 16383 - 52);
        let once = f64::from(frames) / f64::from(rate);
        if twice.to_bits() != once.to_bits() {
            found += 1;
            let (_m, _mem, t) = length_fixture(frames, rate);
            assert_eq!(binary64(&t, 1).to_bits(), once.to_bits());
        }
    }
    assert!(found > 0);
}

#[test]
fn binary64_length_specials() {
    // the target's default NaN for 0/0: x86's is negative, ARM's positive
    let default_nan = if cfg!(any(target_arch = "x86", target_arch = "x86_64")) { 0xfff8_0000_0000_0000 } else { 0x7ff8_0000_0000_0000 };
    let cases: [(u16, f32, u64); 6] = [
        (5, 0.0, 0x7ff0_0000_0000_0000),
        (5, -0.0, 0xfff0_0000_0000_0000),
        (0, 0.0, default_nan),
        (5, f32::INFINITY, 0),
        (5, f32::NEG_INFINITY, 0x8000_0000_0000_0000),
        (0, -f32::NAN, 0xfff8_0000_0000_0000),
    ];
    for (frames, rate, bits) in cases {
        let (_m, _mem, t) = length_fixture(frames, rate);
        // (Miri gives an operation on a NaN, or 0/0, a NaN of any payload, as
        // the language allows: the NaNs' bits are compared on hardware)
        if cfg!(miri) && f64::from_bits(bits).is_nan() {
            assert!(binary64(&t, 1).is_nan(), "{frames}/{rate}");
            continue;
        }
        assert_eq!(binary64(&t, 1).to_bits(), bits, "{frames}/{rate}");
    }
    let (_m, _mem, t) = length_fixture(5, 1.0);
    assert_eq!(binary64(&t, 0).to_bits(), 0);
}

#[test]
fn entry_slices_never_claim_more_than_an_object_can_span() {
    let size = core::mem::size_of::<XAnimEntry>();
    // Any real count is taken as is.
    assert_eq!(entry_slice_len(3, 0x1000), 3);
    assert_eq!(entry_slice_len(0, 0x1000), 0);
    // A header claiming more than fits (possible with u32 counts where
    // usize is 32 bits) is cut to the largest slice allowed.
    let cut = entry_slice_len(u32::MAX, 0x1000);
    assert!(cut * size <= isize::MAX as usize);
    assert!(cut <= u32::MAX as usize);
    if usize::BITS == 32 {
        assert!(cut < u32::MAX as usize);
    } else {
        assert_eq!(cut, u32::MAX as usize);
    }
    // Near the top of the address space the slice stops before wrapping.
    let high = usize::MAX - 4 * size;
    assert_eq!(entry_slice_len(u32::MAX, high), 4);
}

#[test]
fn divergence_a_parent_of_zero_children_is_a_leaf_without_asset() {
    let mut m = small_mock();
    let (_mem, mut t) = tree_mem("hand", 2);
    // an earlier leaf: on x86_64 the upper half of its pointer was what the
    // original then read as part of an asset pointer
    set_leaf_node(&mut m, &mut t, 0, c"walk").unwrap();
    set_parent_node(&mut t, 0, 0x65, 0, 0x63);
    set_parent_node(&mut t, 1, 0x65, 0, 0x63);
    for i in [0, 1] {
        let e = t.handle().entry(i).unwrap();
        assert_eq!(e.childCount, 0);
        // SAFETY: reading the pointer member of the payload.
        assert!(unsafe { e.payload.leafAsset }.is_null());
        assert_eq!(t.handle().anim_name(i as i32), MISSING_NAME.as_ptr());
        assert_eq!(t.handle().is_looped(i as i32), 0);
        assert_eq!(t.handle().notetrack_exists(i as i32, 1), 0);
        assert_eq!(length_operands(Some(t.handle()), i as i32), LengthOperands::NONE);
        assert_eq!((t.handle().is_primitive(i as i32), t.handle().has_time(i as i32), t.handle().num_children(i as i32)), (1, 1, 0));
        assert_eq!(t.handle().child_at(i as i32, 3), 3);
    }
    setup_sync_nodes(&mut t).unwrap();
    fill_in_sync_nodes(&mut t, 0, 1).unwrap();
    // a parent with children is written as before: the low half only
    set_leaf_node(&mut m, &mut t, 1, c"run").unwrap();
    let before = t.handle().entry(1).unwrap();
    set_parent_node(&mut t, 1, 7, 2, 0x0009);
    let after = t.handle().entry(1).unwrap();
    assert_eq!(parent_view(&after), XAnimParentPayload { flags: 9, firstChildIndex: 7 });
    // SAFETY: reading the pointer member of the payload.
    let (b, a) = unsafe { (before.payload.leafAsset as usize, after.payload.leafAsset as usize) };
    assert_eq!(a >> 16 >> 16, b >> 16 >> 16);
}
