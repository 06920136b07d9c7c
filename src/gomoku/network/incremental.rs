//! The network kept up to date inside the board. For every cell on the board: the sum of its
//! four lines' codebook rows (and, with the cell layer, its activations), and the activations'
//! totals over the cells of each of the value head's pools: the board, the cells of each
//! content (empty, black, white), or those of each threat or four class, which depends on the cell's
//! own four shapes only. A stone changes the centre of its own cell and one line of each of the
//! 32 cells within four steps of it along its lines, so a move re-sums and re-activates 33
//! cells. Taking it back copies those cells' saved sums back (with the cell layer, activating
//! them again) and the totals (a frame per move, as the board keeps for its own scores), which
//! reads no codebook row; without a frame it re-sums them in reverse, which the exact
//! arithmetic also makes exact.

use super::isa::Isa;
use super::{
    ACTIVATION_ONE, CONTENTS, DIM, FOUR_POOLS, MAX_POOLS, Mean, Network, Row, THREAT_POOLS, WALL, pool, pools_around,
};
use crate::gomoku::types::{CELLS, Color};
use crate::params::{self, Id};
use crate::score::Score;

/// A cell's sums before a move changed them. Its activations are not saved: where they are
/// kept (the cell layer), taking the move back recomputes them from the sums, which costs less
/// than copying them both ways.
#[derive(Clone, Copy)]
struct Saved {
    sums: [i16; DIM],
    index: u16,
    shapes: [u16; 4],
}

/// The cell whose code a stone changed: cell `cell`'s code `was` became `code`, its line keys
/// `keys` unchanged.
#[derive(Clone, Copy)]
pub(crate) struct Recoded<'a> {
    pub(crate) cell: usize,
    pub(crate) was: u8,
    pub(crate) code: u8,
    pub(crate) keys: &'a [u32; 4],
}

/// A line through a changed cell that a stone changed: cell `cell` (code `centre`, not a
/// wall) now has the line key `key` in direction `direction`.
#[derive(Clone, Copy)]
pub(crate) struct Relined {
    pub(crate) cell: u16,
    pub(crate) direction: u8,
    pub(crate) centre: u8,
    pub(crate) key: u32,
}

/// Calls the build of a method for this processor and network: `$avx2::<LAYER, POOLS>` with
/// the proof where the processor has AVX2, else the portable `$with::<false, LAYER, POOLS>`,
/// with LAYER whether
/// the network has its cell layer and POOLS the number of its value head's pools, which says
/// how it pools ([`pool`]).
macro_rules! in_its_build {
    ($self:ident, $avx2:ident, $with:ident($($arg:expr),*)) => {{
        let (layer, pools) = ($self.network.cell_layer, $self.network.pools());
        #[cfg(target_arch = "x86_64")]
        if let Some(isa) = $self.avx2 {
            // SAFETY: an `Isa<true>` exists only where the processor has AVX2.
            return unsafe {
                match (layer, pools) {
                    (false, 1) => $self.$avx2::<false, 1>(isa, $($arg),*),
                    (false, CONTENTS) => $self.$avx2::<false, CONTENTS>(isa, $($arg),*),
                    (false, FOUR_POOLS) => $self.$avx2::<false, FOUR_POOLS>(isa, $($arg),*),
                    (false, _) => $self.$avx2::<false, THREAT_POOLS>(isa, $($arg),*),
                    (true, 1) => $self.$avx2::<true, 1>(isa, $($arg),*),
                    (true, CONTENTS) => $self.$avx2::<true, CONTENTS>(isa, $($arg),*),
                    (true, FOUR_POOLS) => $self.$avx2::<true, FOUR_POOLS>(isa, $($arg),*),
                    (true, _) => $self.$avx2::<true, THREAT_POOLS>(isa, $($arg),*),
                }
            };
        }
        let isa = Isa::PORTABLE;
        match (layer, pools) {
            (false, 1) => $self.$with::<false, false, 1>(isa, $($arg),*),
            (false, CONTENTS) => $self.$with::<false, false, CONTENTS>(isa, $($arg),*),
            (false, FOUR_POOLS) => $self.$with::<false, false, FOUR_POOLS>(isa, $($arg),*),
            (false, _) => $self.$with::<false, false, THREAT_POOLS>(isa, $($arg),*),
            (true, 1) => $self.$with::<false, true, 1>(isa, $($arg),*),
            (true, CONTENTS) => $self.$with::<false, true, CONTENTS>(isa, $($arg),*),
            (true, FOUR_POOLS) => $self.$with::<false, true, FOUR_POOLS>(isa, $($arg),*),
            (true, _) => $self.$with::<false, true, THREAT_POOLS>(isa, $($arg),*),
        }
    }};
}

#[derive(Clone)]
pub(crate) struct Accumulator {
    network: &'static Network,
    /// The value head's mean over the board's cells, walled ones included.
    mean: Mean,
    /// Each cell's sum of its codebook rows, by the board's padded cell index; cells off the
    /// board or walled stay zero.
    sums: Box<[Row]>,
    /// Each cell's activations from its sums, indexed as `sums`, for a network with its cell
    /// layer. Without the layer they are the sums clipped, cheaper to clip where they are read
    /// than to store with every move and recompute at every take-back, and this is empty.
    acts: Box<[Row]>,
    /// By cell and direction: the shape whose row the cell's sum holds, so that a change looks
    /// up only the new one.
    shapes: Box<[[u16; 4]]>,
    /// The sum of the activations of the cells of each of the value head's pools ([`pool`]),
    /// in the first [`Network::pools`].
    pooled: [[i32; DIM]; MAX_POOLS],
    /// The proof that this processor runs the AVX2 build of the update, where it does; asked
    /// once.
    avx2: Option<Isa<true>>,
    /// One frame per move made since the board last dropped its frames: where its cells start
    /// in [`Accumulator::saved`].
    frames: Vec<usize>,
    /// The pools in use (`pooled`) as they were before each move in `frames`, in order.
    saved_pools: Vec<[i32; DIM]>,
    /// The cells the moves in `frames` changed, as they were, in order.
    saved: Vec<Saved>,
    /// The score of these features by side to move, once [`Accumulator::remembered_score`]
    /// has read it: the horizon holds the same position's score for each forcing move it
    /// tries there. Any change of the features forgets it.
    scores: [Option<Score>; 2],
}

/// A cell's line in the network's key form (MODEL.md). The board's line key holds the offsets
/// -5..=5 in two bits each, coded as the network codes them (0 empty, 1 black, 2 white, 3
/// wall); the network reads -4..=4.
#[inline(always)]
fn network_key(centre: u8, line_key: u32) -> u32 {
    u32::from(centre) << 16 | (line_key >> 2) & 0xFFFF
}

/// `sums += plus - minus`, wrapping: the result is an exact cell sum, which fits.
#[inline(always)]
fn shift(sums: &mut Row, plus: &Row, minus: &Row) {
    for j in 0..DIM {
        sums.0[j] = sums.0[j].wrapping_add(plus.0[j]).wrapping_sub(minus.0[j]);
    }
}

impl Accumulator {
    /// An accumulator of a board of `board_cells` cells, none added yet.
    pub(crate) fn new(network: &'static Network, board_cells: usize) -> Accumulator {
        Accumulator {
            network,
            mean: Mean::of_cells(board_cells),
            sums: vec![Row::ZERO; CELLS].into_boxed_slice(),
            acts: vec![Row::ZERO; if network.cell_layer { CELLS } else { 0 }].into_boxed_slice(),
            shapes: vec![[0; 4]; CELLS].into_boxed_slice(),
            pooled: [[0; DIM]; MAX_POOLS],
            avx2: Isa::avx2(),
            frames: Vec::new(),
            saved_pools: Vec::new(),
            saved: Vec::new(),
            scores: [None; 2],
        }
    }

    /// Adds cell `i` (code `centre`, not a wall, with line keys `keys`), read from scratch,
    /// while the board builds its accumulator.
    pub(crate) fn add(&mut self, i: usize, centre: u8, keys: &[u32; 4]) {
        let mut sums = self.network.bias0;
        for (d, &key) in keys.iter().enumerate() {
            let shape = self.network.shape(network_key(centre, key));
            self.shapes[i][d] = shape;
            shift(&mut sums, &self.network.codebook[usize::from(shape)], &Row::ZERO);
        }
        let acts = self.network.activation(&sums);
        for (p, &h) in self.pooled[self.network.pool(centre, &self.shapes[i])].iter_mut().zip(&acts.0) {
            *p += i32::from(h);
        }
        self.sums[i] = sums;
        if self.network.cell_layer {
            self.acts[i] = acts;
        }
    }

    /// Runs the portable update even where the processor has AVX2, so that tests there cover it.
    #[cfg(test)]
    pub(crate) fn portable(&mut self) {
        self.avx2 = None;
    }

    /// Whether every shape, sum and activation and the pools' totals equal `other`'s.
    #[cfg(test)]
    pub(crate) fn same_features(&self, other: &Accumulator) -> bool {
        self.sums == other.sums && self.acts == other.acts && self.shapes == other.shapes && self.pooled == other.pooled
    }

    /// Whether every remembered score is the score of the features as they are now.
    #[cfg(test)]
    pub(crate) fn remembered_scores_are_current(&self) -> bool {
        [Color::Black, Color::White]
            .into_iter()
            .all(|side| self.scores[side.index()].is_none_or(|s| s == self.score(side)))
    }

    /// Opens the frame of a move about to be made: its update saves the cells it changes.
    pub(crate) fn open_frame(&mut self) {
        self.frames.push(self.saved.len());
        self.saved_pools.extend_from_slice(&self.pooled[..self.network.pools()]);
    }

    /// Restores the cells and totals of the last move's frame and closes it; `false` when no
    /// frame is open.
    pub(crate) fn restore_frame(&mut self) -> bool {
        in_its_build!(self, restore_frame_avx2, restore_frame_with())
    }

    /// [`Accumulator::restore_frame`] compiled for AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2, as `isa` proves.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn restore_frame_avx2<const LAYER: bool, const POOLS: usize>(&mut self, isa: Isa<true>) -> bool {
        self.restore_frame_with::<true, LAYER, POOLS>(isa)
    }

    /// The take-back, with AVX2's kernels where `isa` proves the processor has them, for a
    /// network with its cell layer where `LAYER` and `POOLS` pools.
    #[inline(always)]
    fn restore_frame_with<const AVX2: bool, const LAYER: bool, const POOLS: usize>(&mut self, isa: Isa<AVX2>) -> bool {
        let Some(first) = self.frames.pop() else { return false };
        self.scores = [None; 2];
        let network = self.network;
        for old in self.saved[first..].iter().rev() {
            let i = usize::from(old.index);
            let sums = Row(old.sums);
            if LAYER {
                self.acts[i] = network.activate::<AVX2, LAYER>(&sums, isa);
            }
            self.sums[i] = sums;
            self.shapes[i] = old.shapes;
        }
        self.saved.truncate(first);
        let pools_from = self.saved_pools.len() - POOLS;
        self.pooled[..POOLS].copy_from_slice(&self.saved_pools[pools_from..]);
        self.saved_pools.truncate(pools_from);
        true
    }

    /// Forgets every frame, as the board does at a wall.
    pub(crate) fn drop_frames(&mut self) {
        self.frames.clear();
        self.saved_pools.clear();
        self.saved.clear();
    }

    /// A cell changed its code (`recoded`), and with it the lines `relined` of the cells around
    /// it; inside a move's frame, their numbers before are saved first. One call a stone, so
    /// that the choice of code for this processor is made once for the 33 cells.
    #[inline]
    pub(crate) fn update(&mut self, recoded: Recoded, relined: &[Relined]) {
        in_its_build!(self, update_avx2, update_with(recoded, relined))
    }

    /// [`Accumulator::update`] compiled for AVX2: the same code, which the compiler vectorises
    /// 16 numbers at a time, but for the relined cells of a network without its cell layer,
    /// which have a kernel of their own ([`Accumulator::reline_all_avx2`]).
    ///
    /// # Safety
    /// The processor must have AVX2, as `isa` proves.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2<const LAYER: bool, const POOLS: usize>(
        &mut self,
        isa: Isa<true>,
        recoded: Recoded,
        relined: &[Relined],
    ) {
        self.update_with::<true, LAYER, POOLS>(isa, recoded, relined);
    }

    /// The update, with AVX2's kernels where `isa` proves the processor has them (inlined
    /// into [`Accumulator::update_avx2`], built for AVX2), for a network with its cell layer
    /// where `LAYER` and `POOLS` pools.
    #[inline(always)]
    fn update_with<const AVX2: bool, const LAYER: bool, const POOLS: usize>(
        &mut self,
        isa: Isa<AVX2>,
        recoded: Recoded,
        relined: &[Relined],
    ) {
        let Recoded { cell: i, was, code: centre, keys } = recoded;
        self.scores = [None; 2];
        let framed = !self.frames.is_empty();
        if framed {
            self.saved.push(Saved { sums: self.sums[i].0, index: i as u16, shapes: self.shapes[i] });
        }
        let network = self.network;
        let mut total = [[0; DIM]; POOLS];
        // The cell leaves the pool of what it held (none, if it was walled).
        if was != WALL as u8 {
            let before = self.activations::<LAYER>(i);
            for (t, &h) in total[pool::<POOLS>(network, was, &self.shapes[i])].iter_mut().zip(&before.0) {
                *t -= i32::from(h);
            }
        }
        if centre == WALL as u8 {
            self.remove::<LAYER>(i);
        } else {
            for (d, &key) in keys.iter().enumerate() {
                self.reshape(i, d, centre, key);
            }
            let acts = self.activate::<AVX2, LAYER>(i, isa);
            for (t, &h) in total[pool::<POOLS>(network, centre, &self.shapes[i])].iter_mut().zip(&acts.0) {
                *t += i32::from(h);
            }
        }
        self.reline_all::<AVX2, LAYER, POOLS>(isa, relined, framed, &mut total);
        for (pool, change) in self.pooled.iter_mut().zip(&total) {
            for (p, t) in pool.iter_mut().zip(change) {
                *p += t;
            }
        }
    }

    /// Cell `i`'s shape in direction `d` becomes that of line key `key` around `centre`.
    #[inline(always)]
    fn reshape(&mut self, i: usize, d: usize, centre: u8, key: u32) {
        let network = self.network;
        let (old, new) = (self.shapes[i][d], network.shape(network_key(centre, key)));
        self.shapes[i][d] = new;
        // Copies, so that the compiler need not fear the rows overlap the sums.
        let (plus, minus) = (network.codebook[usize::from(new)], network.codebook[usize::from(old)]);
        shift(&mut self.sums[i], &plus, &minus);
    }

    /// Each cell of `relined` takes its line's new shape ([`Accumulator::reline`]); the change
    /// of their activations goes into `total`, by the cells' pool. Where `framed`, the cells
    /// as they were are saved first.
    #[inline(always)]
    fn reline_all<const AVX2: bool, const LAYER: bool, const POOLS: usize>(
        &mut self,
        isa: Isa<AVX2>,
        relined: &[Relined],
        framed: bool,
        total: &mut [[i32; DIM]; POOLS],
    ) {
        #[cfg(target_arch = "x86_64")]
        if AVX2 && !LAYER {
            // SAFETY: an `Isa<true>` exists only where the processor has AVX2.
            return unsafe { self.reline_all_avx2::<POOLS>(relined, framed, total) };
        }
        if framed {
            let (sums, shapes) = (&self.sums, &self.shapes);
            self.saved.extend(relined.iter().map(|line| {
                let i = usize::from(line.cell);
                Saved { sums: sums[i].0, index: line.cell, shapes: shapes[i] }
            }));
        }
        for lines in relined.chunks(Change::CELLS) {
            let mut changes = [Change::ZERO; POOLS];
            for line in lines {
                self.reline::<AVX2, LAYER, POOLS>(isa, line, &mut changes);
            }
            for (change, pool) in changes.iter().zip(total.iter_mut()) {
                change.add_to(pool);
            }
        }
    }

    /// [`Accumulator::reline_all`] for a network without its cell layer, written in AVX2's
    /// instructions: left to itself, the compiler split the rows into pieces or guarded them
    /// against overlapping.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn reline_all_avx2<const POOLS: usize>(
        &mut self,
        relined: &[Relined],
        framed: bool,
        total: &mut [[i32; DIM]; POOLS],
    ) {
        use std::arch::x86_64::*;
        debug_assert!(!self.network.cell_layer);
        let network = self.network;
        let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi16(ACTIVATION_ONE));
        if framed {
            self.saved.reserve(relined.len());
        }
        let first_saved = self.saved.len();
        let mut saving: *mut Saved = self.saved.spare_capacity_mut().as_mut_ptr().cast();
        for lines in relined.chunks(Change::CELLS) {
            // By pool, the low and high halves of the activations' change.
            let mut changes = [[zero; 2]; POOLS];
            for line in lines {
                let cell = usize::from(line.cell);
                let new = network.shape(network_key(line.centre, line.key));
                let shapes = &mut self.shapes[cell];
                let shapes_before = *shapes;
                // Directions are 0 to 3: masked, they need no bounds check.
                let direction = usize::from(line.direction) % 4;
                let old = std::mem::replace(&mut shapes[direction], new);
                let (pool_before, pool_after) =
                    pools_around::<POOLS>(network, line.centre, &shapes_before, direction, new);
                let plus: *const __m256i = network.codebook[usize::from(new)].0.as_ptr().cast();
                let minus: *const __m256i = network.codebook[usize::from(old)].0.as_ptr().cast();
                let sums: *mut __m256i = self.sums[cell].0.as_mut_ptr().cast();
                // SAFETY: each row pointer is to 64 bytes aligned to 64: two aligned halves.
                // Where `framed`, `saving` points into the room reserved above, one `Saved` a
                // relined cell, which `set_len` below takes in once all are written.
                unsafe {
                    let (was_low, was_high) = (_mm256_load_si256(sums), _mm256_load_si256(sums.add(1)));
                    if framed {
                        let slot: *mut __m256i = (&raw mut (*saving).sums).cast();
                        _mm256_storeu_si256(slot, was_low);
                        _mm256_storeu_si256(slot.add(1), was_high);
                        (&raw mut (*saving).index).write(line.cell);
                        (&raw mut (*saving).shapes).write(shapes_before);
                        saving = saving.add(1);
                    }
                    let sum_low =
                        _mm256_sub_epi16(_mm256_add_epi16(was_low, _mm256_load_si256(plus)), _mm256_load_si256(minus));
                    let sum_high = _mm256_sub_epi16(
                        _mm256_add_epi16(was_high, _mm256_load_si256(plus.add(1))),
                        _mm256_load_si256(minus.add(1)),
                    );
                    let clip = |half| _mm256_min_epi16(_mm256_max_epi16(half, zero), one);
                    if pool_before == pool_after {
                        let [low, high] = &mut changes[pool_after];
                        *low = _mm256_add_epi16(*low, _mm256_sub_epi16(clip(sum_low), clip(was_low)));
                        *high = _mm256_add_epi16(*high, _mm256_sub_epi16(clip(sum_high), clip(was_high)));
                    } else {
                        let [low, high] = &mut changes[pool_before];
                        *low = _mm256_sub_epi16(*low, clip(was_low));
                        *high = _mm256_sub_epi16(*high, clip(was_high));
                        let [low, high] = &mut changes[pool_after];
                        *low = _mm256_add_epi16(*low, clip(sum_low));
                        *high = _mm256_add_epi16(*high, clip(sum_high));
                    }
                    _mm256_store_si256(sums, sum_low);
                    _mm256_store_si256(sums.add(1), sum_high);
                }
            }
            for ([low, high], pool) in changes.iter().zip(total.iter_mut()) {
                let mut change = Change::ZERO;
                // SAFETY: the change is 64 bytes: two unaligned halves.
                unsafe {
                    _mm256_storeu_si256(change.0.as_mut_ptr().cast(), *low);
                    _mm256_storeu_si256(change.0.as_mut_ptr().add(16).cast(), *high);
                }
                change.add_to(pool);
            }
        }
        if framed {
            // SAFETY: the loop wrote a `Saved` into each of the next `relined.len()` slots.
            unsafe { self.saved.set_len(first_saved + relined.len()) };
        }
    }

    /// Cell `line.cell`'s shape in direction `line.direction` becomes that of `line.key`: its
    /// sums move by the two rows' difference and its activations follow, their change going
    /// into `changes` by the cell's pool, or, where its class changed, leaving the old
    /// pool and joining the new.
    #[inline(always)]
    fn reline<const AVX2: bool, const LAYER: bool, const POOLS: usize>(
        &mut self,
        isa: Isa<AVX2>,
        line: &Relined,
        changes: &mut [Change; POOLS],
    ) {
        let network = self.network;
        let cell = usize::from(line.cell);
        let new = network.shape(network_key(line.centre, line.key));
        let direction = usize::from(line.direction) % 4;
        let (pool_before, pool_after) = pools_around::<POOLS>(network, line.centre, &self.shapes[cell], direction, new);
        let old = std::mem::replace(&mut self.shapes[cell][direction], new);
        // Copies in and out, so that the compiler need not fear the rows overlap.
        let (plus, minus) = (network.codebook[usize::from(new)], network.codebook[usize::from(old)]);
        let before = self.activations::<LAYER>(cell);
        let mut sums = self.sums[cell];
        shift(&mut sums, &plus, &minus);
        let after = network.activate::<AVX2, LAYER>(&sums, isa);
        if LAYER {
            self.acts[cell] = after;
        }
        self.sums[cell] = sums;
        if pool_before == pool_after {
            for j in 0..DIM {
                changes[pool_after].0[j] += after.0[j] - before.0[j];
            }
        } else {
            for j in 0..DIM {
                changes[pool_before].0[j] -= before.0[j];
                changes[pool_after].0[j] += after.0[j];
            }
        }
    }

    /// Clears a cell that has been walled, which its update has taken out of its pool, for a
    /// network with its cell layer where `LAYER`.
    fn remove<const LAYER: bool>(&mut self, i: usize) {
        self.sums[i] = Row::ZERO;
        if LAYER {
            self.acts[i] = Row::ZERO;
        }
        self.shapes[i] = [0; 4];
    }

    /// Cell `i`'s activations: stored with the cell layer (`LAYER`), else its sums clipped.
    #[inline(always)]
    fn activations<const LAYER: bool>(&self, i: usize) -> Row {
        if LAYER { self.acts[i] } else { self.network.activate::<false, false>(&self.sums[i], Isa::PORTABLE) }
    }

    /// Re-activates cell `i` from its sums (kept where the network has its cell layer) and
    /// returns its activations.
    #[inline(always)]
    fn activate<const AVX2: bool, const LAYER: bool>(&mut self, i: usize, isa: Isa<AVX2>) -> Row {
        let acts = self.network.activate::<AVX2, LAYER>(&self.sums[i], isa);
        if LAYER {
            self.acts[i] = acts;
        }
        acts
    }

    /// The value logit for `side` to move, at the scale of MODEL.md.
    pub(crate) fn value(&self, side: Color) -> i64 {
        self.network.value(&self.pooled[..self.network.pools()], self.mean, side, self.avx2)
    }

    /// The value for `side` to move in engine score units.
    pub(crate) fn score(&self, side: Color) -> Score {
        self.network.score(self.value(side))
    }

    /// [`Accumulator::score`], read once until the features change.
    pub(crate) fn remembered_score(&mut self, side: Color) -> Score {
        if let Some(score) = self.scores[side.index()] {
            return score;
        }
        let score = self.score(side);
        self.scores[side.index()] = Some(score);
        score
    }

    /// Empty cell `i`'s policy logit for `side` to move.
    #[inline]
    pub(crate) fn policy(&self, i: usize, side: Color) -> i64 {
        if self.network.cell_layer {
            self.network.policy(&self.acts[i], side)
        } else {
            self.network.policy_of_sums(&self.sums[i], side)
        }
    }

    /// Empty cell `i`'s policy in move ordering's units (`gomoku_policy_order` a logit).
    #[inline]
    pub(crate) fn policy_order(&self, i: usize, side: Color) -> i32 {
        super::in_logits(self.policy(i, side), params::get(Id::gomoku_policy_order))
    }
}

/// The change of the activations of up to [`Change::CELLS`] cells, summed in 16 bits: each
/// cell's change to a pool lies within plus or minus the activation 1.0, so 32 of them still
/// fit.
struct Change([i16; DIM]);

impl Change {
    const ZERO: Change = Change([0; DIM]);
    const CELLS: usize = (i16::MAX / ACTIVATION_ONE) as usize;

    #[inline(always)]
    fn add_to(&self, total: &mut [i32; DIM]) {
        for (t, &c) in total.iter_mut().zip(&self.0) {
            *t += i32::from(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::network_key;

    #[test]
    fn the_network_reads_four_cells_each_way_of_the_board_s_five() {
        // Offsets -5..=5 but 0 in slots 0..=9: -5 white, -4 black, -1 white, +1 wall, +5 black.
        let line = 2 | 1 << 2 | 2 << 8 | 3 << 10 | 1 << 18;
        assert_eq!(network_key(0, line), 1 | 2 << 6 | 3 << 8);
        assert_eq!(network_key(2, line), 2 << 16 | 1 | 2 << 6 | 3 << 8);
    }
}
