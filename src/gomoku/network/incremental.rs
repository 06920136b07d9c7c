//! The network kept up to date inside the board. For every cell on the board: the sum of its
//! four lines' codebook rows and its activations, and over all cells the activations' total,
//! which the value head of the side to move reads. A stone changes the centre of its own cell
//! and one line of each of the 32 cells within four steps of it along its lines, so a move
//! re-sums and re-activates 33 cells. Taking it back copies those cells' saved numbers back
//! (a frame per move, as the board keeps for its own scores), which reads no codebook row;
//! without a frame it re-sums them in reverse, which the exact arithmetic also makes exact.

use super::{DIM, Network, Row, WALL};
use crate::gomoku::types::{CELLS, Color};
use crate::params::{self, Id};
use crate::score::Score;

#[derive(Clone, Copy)]
struct Cell {
    sums: Row,
    acts: Row,
}

const NO_CELL: Cell = Cell { sums: Row::ZERO, acts: Row::ZERO };

/// A cell's numbers before a move changed them.
#[derive(Clone, Copy)]
struct Saved {
    index: u16,
    cell: Cell,
    shapes: [u16; 4],
}

/// What taking a move back restores besides its cells in [`Accumulator::saved`].
#[derive(Clone)]
struct Frame {
    /// Where the move's cells start in [`Accumulator::saved`].
    first: usize,
    pooled: [i32; DIM],
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

#[derive(Clone)]
pub(crate) struct Accumulator {
    network: &'static Network,
    /// Cells of the board, walled ones included: the value head's mean divides by it.
    board_cells: i32,
    /// By the board's padded cell index; cells off the board or walled stay zero.
    cells: Box<[Cell]>,
    /// By cell and direction: the shape whose row the cell's sum holds, so that a change looks
    /// up only the new one.
    shapes: Box<[[u16; 4]]>,
    /// The sum of every cell's activations.
    pooled: [i32; DIM],
    /// Whether this processor runs the AVX2 build of the update, chosen once.
    avx2: bool,
    /// One frame per move made since the board last dropped its frames.
    frames: Vec<Frame>,
    /// The cells the moves in `frames` changed, as they were, in order.
    saved: Vec<Saved>,
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
            board_cells: board_cells as i32,
            cells: vec![NO_CELL; CELLS].into_boxed_slice(),
            shapes: vec![[0; 4]; CELLS].into_boxed_slice(),
            pooled: [0; DIM],
            avx2: avx2(),
            frames: Vec::new(),
            saved: Vec::new(),
        }
    }

    /// Adds cell `i` (code `centre`, not a wall, with line keys `keys`), read from scratch.
    pub(crate) fn add(&mut self, i: usize, centre: u8, keys: &[u32; 4]) {
        let mut sums = self.network.bias0;
        for (d, &key) in keys.iter().enumerate() {
            let shape = self.network.shape(network_key(centre, key));
            self.shapes[i][d] = shape;
            shift(&mut sums, &self.network.codebook[usize::from(shape)], &Row::ZERO);
        }
        self.cells[i].sums = sums;
        self.activate::<false>(i);
    }

    /// Runs the portable update even where the processor has AVX2, so that tests there cover it.
    #[cfg(test)]
    pub(crate) fn portable(&mut self) {
        self.avx2 = false;
    }

    /// Whether every shape, sum and activation and both totals equal `other`'s.
    #[cfg(test)]
    pub(crate) fn same_features(&self, other: &Accumulator) -> bool {
        let cells_equal = self.cells.iter().zip(other.cells.iter()).all(|(a, b)| a.sums == b.sums && a.acts == b.acts);
        cells_equal && self.shapes == other.shapes && self.pooled == other.pooled
    }

    /// Opens the frame of a move about to be made: its update saves the cells it changes.
    pub(crate) fn open_frame(&mut self) {
        self.frames.push(Frame { first: self.saved.len(), pooled: self.pooled });
    }

    /// Restores the cells and total of the last move's frame and closes it; `false` when no
    /// frame is open.
    pub(crate) fn restore_frame(&mut self) -> bool {
        let Some(frame) = self.frames.pop() else { return false };
        for old in self.saved.drain(frame.first..).rev() {
            let i = usize::from(old.index);
            self.cells[i] = old.cell;
            self.shapes[i] = old.shapes;
        }
        self.pooled = frame.pooled;
        true
    }

    /// Forgets every frame, as the board does at a wall.
    pub(crate) fn drop_frames(&mut self) {
        self.frames.clear();
        self.saved.clear();
    }

    /// Cell `i`'s code became `centre` (with its line keys `keys` unchanged), and with it the
    /// lines `relined` of the cells around it; inside a move's frame, their numbers before are
    /// saved first. One call a stone, so that the choice of code for this processor is made
    /// once for the 33 cells.
    #[inline]
    pub(crate) fn update(&mut self, i: usize, centre: u8, keys: &[u32; 4], relined: &[Relined]) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only where the processor has AVX2.
            unsafe { self.update_avx2(i, centre, keys, relined) };
            return;
        }
        self.update_with::<false>(i, centre, keys, relined);
    }

    /// [`Accumulator::update`] compiled for AVX2: the same code, which the compiler vectorises
    /// 16 numbers at a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn update_avx2(&mut self, i: usize, centre: u8, keys: &[u32; 4], relined: &[Relined]) {
        self.update_with::<true>(i, centre, keys, relined);
    }

    /// The update, with AVX2's kernels where `AVX2`, which only [`Accumulator::update_avx2`] sets.
    #[inline(always)]
    fn update_with<const AVX2: bool>(&mut self, i: usize, centre: u8, keys: &[u32; 4], relined: &[Relined]) {
        if !self.frames.is_empty() {
            self.save(i);
            for line in relined {
                self.save(usize::from(line.cell));
            }
        }
        if centre == WALL as u8 {
            self.remove(i);
        } else {
            for (d, &key) in keys.iter().enumerate() {
                self.reshape(i, d, centre, key);
            }
            self.activate::<AVX2>(i);
        }
        for line in relined {
            let cell = usize::from(line.cell);
            self.reshape(cell, usize::from(line.direction), line.centre, line.key);
            self.activate::<AVX2>(cell);
        }
    }

    #[inline(always)]
    fn save(&mut self, i: usize) {
        self.saved.push(Saved { index: i as u16, cell: self.cells[i], shapes: self.shapes[i] });
    }

    /// Cell `i`'s shape in direction `d` becomes that of line key `key` around `centre`.
    #[inline(always)]
    fn reshape(&mut self, i: usize, d: usize, centre: u8, key: u32) {
        let network = self.network;
        let (old, new) = (self.shapes[i][d], network.shape(network_key(centre, key)));
        self.shapes[i][d] = new;
        // Copies, so that the compiler need not fear the rows overlap the sums.
        let (plus, minus) = (network.codebook[usize::from(new)], network.codebook[usize::from(old)]);
        shift(&mut self.cells[i].sums, &plus, &minus);
    }

    /// Takes a cell that has been walled out of the total.
    fn remove(&mut self, i: usize) {
        for (p, &h) in self.pooled.iter_mut().zip(&self.cells[i].acts.0) {
            *p -= i32::from(h);
        }
        self.cells[i] = NO_CELL;
        self.shapes[i] = [0; 4];
    }

    /// Re-activates cell `i` from its sums and moves the total by the change.
    #[inline(always)]
    fn activate<const AVX2: bool>(&mut self, i: usize) {
        let cell = &mut self.cells[i];
        // `AVX2` is set only inside `update_avx2`, called where the processor has it.
        let acts = self.network.activate::<AVX2>(&cell.sums);
        let old = cell.acts;
        let change: [i32; DIM] = std::array::from_fn(|j| i32::from(acts.0[j]) - i32::from(old.0[j]));
        for (p, change) in self.pooled.iter_mut().zip(change) {
            *p += change;
        }
        cell.acts = acts;
    }

    /// The value logit for `side` to move, at the scale of MODEL.md.
    pub(crate) fn value(&self, side: Color) -> i64 {
        self.network.value(&self.pooled, self.board_cells, side, self.avx2)
    }

    /// The value for `side` to move in engine score units.
    pub(crate) fn score(&self, side: Color) -> Score {
        self.network.score(self.value(side))
    }

    /// Empty cell `i`'s policy logit for `side` to move.
    pub(crate) fn policy(&self, i: usize, side: Color) -> i64 {
        self.network.policy(&self.cells[i].acts, side)
    }

    /// Empty cell `i`'s policy in move ordering's units (`gomoku_policy_order` a logit).
    #[inline]
    pub(crate) fn policy_order(&self, i: usize, side: Color) -> i32 {
        super::in_logits(self.policy(i, side), params::get(Id::gomoku_policy_order))
    }
}

/// Whether the processor has AVX2 (never, off x86-64).
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
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
