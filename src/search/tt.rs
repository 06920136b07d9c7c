//! Lock-free transposition table shared by all search threads.
//!
//! Each entry is two `AtomicU64`: the key XOR-ed with the data, and the data. A torn write (two
//! threads storing the same slot at once) makes the XOR check fail, so a reader sees either a
//! whole entry or none; no locks on the hot path. Four entries form a 64-byte bucket, one cache
//! line, and a new entry replaces the shallowest or oldest one in its bucket. A position stored
//! again keeps its deeper entry of the same move: a shallow re-search (a reduced or null-window
//! look, a helper thread one iteration behind) must not overwrite what a deeper one proved.

use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use crate::score::Score;

const ENTRIES_PER_BUCKET: usize = 4;
/// Bytes used per bucket, asserted below.
const BUCKET_BYTES: usize = 64;

/// Data word layout, low bits first:
/// `move: 24 | score: 16 (i16) | depth: 8 | bound: 2 | generation: 6`.
const MOVE_BITS: u32 = 24;
const SCORE_SHIFT: u32 = 24;
const DEPTH_SHIFT: u32 = 40;
const BOUND_SHIFT: u32 = 48;
const GEN_SHIFT: u32 = 50;
const GEN_MASK: u8 = 0x3f;
/// Stored move code for "no move".
const NO_MOVE: u32 = (1 << MOVE_BITS) - 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

/// One probed entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The game's move code, see [`crate::game::Game::encode_move`].
    pub mv: Option<u32>,
    /// Node-relative score (see [`crate::score::to_tt`]).
    pub score: Score,
    pub depth: u32,
    pub bound: Bound,
}

#[repr(C, align(64))]
struct Bucket {
    slots: [[AtomicU64; 2]; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

/// The buckets, in memory the allocator hands out zeroed. A large request comes straight from
/// the operating system's zero pages, which stay unresident until a search writes them: a new
/// table costs no time when it is made (a manager's `max_memory` just before a move is charged
/// to that move) and no memory until it is used. The allocation is asked with the alignment of
/// a `u64`, which the Unix allocator serves with `calloc` (a larger one it would serve by
/// writing zeros; Windows asks the heap for zeroed memory either way), and the buckets start
/// at its first 64-byte boundary.
struct Buckets {
    first: NonNull<Bucket>,
    len: usize,
    allocation: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the buckets are atomics, shared as `&[Bucket]` is; the allocation is owned alone.
unsafe impl Send for Buckets {}
// SAFETY: as above: every access goes through `&[Bucket]`.
unsafe impl Sync for Buckets {}

impl Buckets {
    fn zeroed(len: usize) -> Buckets {
        let bytes = len.checked_mul(BUCKET_BYTES).and_then(|b| b.checked_add(BUCKET_BYTES));
        debug_assert!(len > 0, "a table has a bucket to probe");
        let layout = bytes
            .and_then(|b| Layout::from_size_align(b, std::mem::align_of::<u64>()).ok())
            .expect("a table size that fits memory");
        // SAFETY: the layout's size is not zero.
        let allocation =
            NonNull::new(unsafe { alloc::alloc_zeroed(layout) }).unwrap_or_else(|| alloc::handle_alloc_error(layout));
        let offset = allocation.as_ptr().align_offset(BUCKET_BYTES);
        debug_assert!(offset < BUCKET_BYTES);
        // SAFETY: the offset is below 64 and the allocation has 64 bytes more than the buckets.
        let first = unsafe { allocation.add(offset) }.cast::<Bucket>();
        advise_huge_pages(first.as_ptr().cast(), len * BUCKET_BYTES);
        Buckets { first, len, allocation, layout }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` buckets from `first` lie inside the allocation, aligned to 64; all zero
        // bytes is a valid `Bucket` (its atomics are plain integers), and the memory is only
        // ever changed through the atomics.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout, and freed once.
        unsafe { alloc::dealloc(self.allocation.as_ptr(), self.layout) };
    }
}

pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU8,
    /// A search may have stored entries since the table was made or cleared. A new table's
    /// zeroed pages are not resident until written, and clearing one that was never searched
    /// would make them so: a brain would hold its whole table before a manager's `max_memory`
    /// (sent after `START`) could shrink it, and piskvork forfeits on the peak.
    written: AtomicBool,
}

impl TranspositionTable {
    /// A table using at most `mebibytes` MiB (at least one bucket).
    pub fn new(mebibytes: usize) -> Self {
        TranspositionTable::with_buckets((mebibytes.saturating_mul(1 << 20) / BUCKET_BYTES).max(1))
    }

    fn with_buckets(count: usize) -> Self {
        TranspositionTable {
            buckets: Buckets::zeroed(count),
            generation: AtomicU8::new(0),
            written: AtomicBool::new(false),
        }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        self.generation.store(0, Ordering::Relaxed);
        if !self.written.swap(false, Ordering::Relaxed) {
            return;
        }
        for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                slot[0].store(0, Ordering::Relaxed);
                slot[1].store(0, Ordering::Relaxed);
            }
        }
    }

    /// Marks entries stored from now on as newer than the ones before: call once per move, not
    /// per search, so the searches of one move (balance runs dozens) keep each other's entries.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & GEN_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-high maps the key uniformly onto the bucket range without a division.
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Asks the memory for `key`'s bucket ahead of its probe, so that the miss overlaps the
    /// work before it (a no-op where the target has no prefetch instruction).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint: it never faults and changes nothing the program
            // can observe, and SSE is part of every x86_64 target.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        self.bucket(key).slots.iter().find_map(|slot| {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            (data != 0 && check ^ data == key).then(|| unpack(data))
        })
    }

    pub fn store(&self, key: u64, mv: Option<u32>, score: Score, depth: u32, bound: Bound) {
        // Read first: once set, the flag's line stays shared between the threads, never written.
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot[1].load(Ordering::Relaxed);
            if data == 0 || slot[0].load(Ordering::Relaxed) ^ data == key {
                victim = slot;
                let old = unpack(data);
                if data != 0 && old.depth > depth && stored_generation(data) == generation {
                    return;
                }
                // Keep the old best move when the new result has none.
                if data != 0 && mv.is_none() && old.mv.is_some() {
                    let data = pack(old.mv, score, depth, bound, generation);
                    slot[0].store(key ^ data, Ordering::Relaxed);
                    slot[1].store(data, Ordering::Relaxed);
                    return;
                }
                break;
            }
            let age = i32::from(generation.wrapping_sub(stored_generation(data)) & GEN_MASK);
            let worth = unpack(data).depth as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(mv, score, depth, bound, generation);
        victim[0].store(key ^ data, Ordering::Relaxed);
        victim[1].store(data, Ordering::Relaxed);
    }
}

/// Asks Linux to back the (not yet touched) `bytes` from `start` with 2 MiB pages. A probe
/// lands on a random bucket, so with 4 KiB pages nearly every probe of a large table also
/// misses the address translation cache, and the prefetch ahead of it waits for a page walk.
/// A hint: where the kernel declines, the table keeps normal pages.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, bytes: usize) {
    const PAGE: usize = 4096;
    let (start, end) = (start as usize, start as usize + bytes);
    let (first, last) = (start.next_multiple_of(PAGE), end / PAGE * PAGE);
    if last > first {
        // SAFETY: the range lies inside the table's own allocation, and MADV_HUGEPAGE changes
        // only how the kernel backs those pages, never their contents.
        unsafe { libc::madvise(first as *mut libc::c_void, last - first, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

fn stored_generation(data: u64) -> u8 {
    (data >> GEN_SHIFT) as u8 & GEN_MASK
}

fn pack(mv: Option<u32>, score: Score, depth: u32, bound: Bound, generation: u8) -> u64 {
    let code = mv.map_or(NO_MOVE, |m| m & NO_MOVE);
    let score = i16::try_from(score).expect("scores fit in 16 bits") as u16;
    let bound = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(code)
        | u64::from(score) << SCORE_SHIFT
        | u64::from(depth.min(255) as u8) << DEPTH_SHIFT
        | bound << BOUND_SHIFT
        | u64::from(generation & GEN_MASK) << GEN_SHIFT
}

fn unpack(data: u64) -> TtEntry {
    let code = (data as u32) & NO_MOVE;
    TtEntry {
        mv: (code != NO_MOVE).then_some(code),
        score: Score::from((data >> SCORE_SHIFT) as u16 as i16),
        depth: u32::from((data >> DEPTH_SHIFT) as u8),
        bound: match (data >> BOUND_SHIFT) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_every_field() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF, Some(1234), -29_990, 17, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(e, TtEntry { mv: Some(1234), score: -29_990, depth: 17, bound: Bound::Lower });
        assert!(tt.probe(0xDEAD_BEEE).is_none());
    }

    #[test]
    fn keeps_old_move_when_new_result_has_none() {
        let tt = TranspositionTable::new(1);
        tt.store(42, Some(7), 10, 3, Bound::Exact);
        tt.store(42, None, -5, 4, Bound::Upper);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (Some(7), -5, 4, Bound::Upper));
    }

    #[test]
    fn a_shallower_result_keeps_the_deeper_entry_of_the_same_move_only() {
        let tt = TranspositionTable::new(1);
        tt.store(42, Some(7), 10, 6, Bound::Exact);
        tt.store(42, Some(8), -5, 2, Bound::Upper);
        assert_eq!(tt.probe(42).map(|e| (e.mv, e.depth)), Some((Some(7), 6)));
        tt.new_search();
        tt.store(42, Some(8), -5, 2, Bound::Upper);
        assert_eq!(tt.probe(42).map(|e| (e.mv, e.depth)), Some((Some(8), 2)));
    }

    #[test]
    fn clear_forgets_entries() {
        let tt = TranspositionTable::new(1);
        tt.store(99, Some(1), 0, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(99).is_none());
        tt.store(99, Some(1), 0, 1, Bound::Exact);
        tt.clear();
        assert!(tt.probe(99).is_none(), "a table cleared once is cleared again after new entries");
    }

    #[test]
    fn only_a_written_table_is_wiped() {
        let tt = TranspositionTable::new(1);
        assert!(!tt.written.load(Ordering::Relaxed), "a new table has nothing to wipe");
        tt.new_search();
        tt.clear();
        assert_eq!(tt.generation.load(Ordering::Relaxed), 0, "the age is reset all the same");
        tt.store(7, None, 0, 1, Bound::Exact);
        assert!(tt.written.load(Ordering::Relaxed));
        tt.clear();
        assert!(!tt.written.load(Ordering::Relaxed) && tt.probe(7).is_none());
    }

    #[test]
    fn full_bucket_replaces_the_shallowest() {
        let tt = TranspositionTable::with_buckets(1);
        for (key, depth) in [(1u64, 5), (2, 1), (3, 9), (4, 7)] {
            tt.store(key, None, 0, depth, Bound::Exact);
        }
        tt.store(5, None, 0, 2, Bound::Exact);
        assert!(tt.probe(2).is_none());
        assert!([1, 3, 4, 5].iter().all(|&k| tt.probe(k).is_some()));
    }
}
