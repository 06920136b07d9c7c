//! The cell cache: for every cell of the padded array, the line keys of its neighbours and, while
//! it is empty, the shapes a stone there would make (which index its threat and worth), kept up
//! to date move by move along the 40 cells that share a line with it, with the totals and counts
//! they sum to and the bit set of candidate cells.

use super::Board;
use super::frames::Rescored;
use crate::gomoku::eval::{CellEntry, PackedShapes, with_shape};
use crate::gomoku::network::{Recoded, Relined};
use crate::gomoku::pattern::{WALL, pair_shape, slot_shift};
use crate::gomoku::types::{CELLS, DIRECTIONS, MAX_SIZE, Move, PAD, REACH, STRIDE};

/// Candidate moves are empty cells at most this far from a stone along a line.
const NEAR_DISTANCE: isize = 2;

pub(super) const EMPTY_CELL: u8 = 0;
pub(super) const WALL_CELL: u8 = WALL as u8;

/// State of one cell of the padded array, 32 bytes so that no cell straddles a cache line.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(align(32))]
pub(super) struct Cell {
    /// Line keys of the neighbours, one per direction. Updated for every cell, walls and the
    /// padding included, so that a move needs no test; only empty cells' keys are read (the
    /// padding's start at zero and mean nothing).
    pub(super) keys: [u32; 4],
    /// Per colour: the shape a stone of that colour would make here in each direction, which
    /// is also the index of the cell's threat and worth in that colour's [`CellTable`]. Read
    /// only while the cell is empty.
    pub(super) shapes: [PackedShapes; 2],
    /// Per colour: the table's entry for `shapes`, kept so that neither a re-scoring nor move
    /// generation has to look it up.
    pub(super) entries: [CellEntry; 2],
    /// Empty, black, white or wall.
    pub(super) code: u8,
}

pub(super) const WALL_STATE: Cell =
    Cell { keys: [0; 4], shapes: [0; 2], entries: [CellEntry::NOTHING; 2], code: WALL_CELL };

/// The padded array's cells, in an array whose length is a power of two: an index is masked
/// to it instead of checked against it, which keeps every access in bounds and takes the
/// checks out of a move's 40-cell update. Indices past [`CELLS`] hold walls and are never used.
#[derive(Clone)]
pub(super) struct Cells(Box<[Cell; CELL_SLOTS]>);

const CELL_SLOTS: usize = CELLS.next_power_of_two();

impl Cells {
    pub(super) fn walls() -> Cells {
        Cells(vec![WALL_STATE; CELL_SLOTS].into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!()))
    }
}

impl std::ops::Index<usize> for Cells {
    type Output = Cell;

    #[inline(always)]
    fn index(&self, i: usize) -> &Cell {
        debug_assert!(i < CELLS);
        &self.0[i & (CELL_SLOTS - 1)]
    }
}

impl std::ops::IndexMut<usize> for Cells {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut Cell {
        debug_assert!(i < CELLS);
        &mut self.0[i & (CELL_SLOTS - 1)]
    }
}

/// Offsets along a line of the cells a stone can make candidates, and of all whose keys see
/// it, nearest first.
const NEAR_OFFSETS: [isize; 4] = [-1, 1, -2, 2];
const LINE_OFFSETS: [isize; 10] = [-1, 1, -2, 2, -3, 3, -4, 4, -5, 5];
/// Words of the candidate bits: one bit per cell of the padded array.
pub(super) const CANDIDATE_WORDS: usize = CELLS.div_ceil(64);
/// The cells within [`NEAR_DISTANCE`] of a stone along a line, whose candidate bits it can
/// change, lie at most this many bits before or after its own.
const NEAR_SPAN: usize = NEAR_DISTANCE as usize * (STRIDE + 1);
/// Words of candidate bits, from [`candidate_window`]'s, that hold all of those: what a move's
/// frame saves.
pub(super) const CANDIDATE_WINDOW: usize = 4;

/// The first word of the candidate bits a stone at `i` can change.
pub(super) const fn candidate_window(i: usize) -> usize {
    (i - NEAR_SPAN) / 64
}

/// Offsets along a line of the cells whose shapes in the learned evaluation a stone changes.
const LEARNED_OFFSETS: [isize; 8] = [-4, -3, -2, -1, 1, 2, 3, 4];

const _: () = assert!(NEAR_DISTANCE == 2 && REACH == 5, "the offset lists spell these out");
const _: () = {
    let last = (PAD + MAX_SIZE - 1) * (STRIDE + 1);
    assert!(PAD * (STRIDE + 1) >= NEAR_SPAN, "a window starts inside the array");
    assert!(candidate_window(last) + CANDIDATE_WINDOW <= CANDIDATE_WORDS, "and ends inside it");
    assert!(2 * NEAR_SPAN + 63 < 64 * CANDIDATE_WINDOW, "and holds every cell near its stone");
};

impl Board {
    /// Writes a cell code and updates the keys of its lines, and with `rescore` the shapes and
    /// scores of the empty cells on them, the learned features and the candidates (without, the
    /// move's frame restores those).
    pub(super) fn set_cell(&mut self, i: usize, code: u8, rescore: bool) {
        // Codes are 2-bit fields and, in every key that is read, the slot held the old code:
        // XOR writes the new one.
        let was = self.cells[i].code;
        let flip = u32::from(was ^ code);
        self.cells[i].code = code;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            for offset in LINE_OFFSETS {
                let q = (i as isize + offset * step) as usize;
                self.cells[q].keys[d] ^= flip << slot_shift(-offset);
            }
        }
        if !rescore {
            return;
        }
        if code == EMPTY_CELL {
            self.recount_candidates(i);
        } else {
            self.mark_candidates(i);
        }
        if self.held == 0
            && let Some(learned) = &mut self.learned
        {
            let mut relined = [Relined { cell: 0, direction: 0, centre: 0, key: 0 }; 4 * LEARNED_OFFSETS.len()];
            let mut count = 0;
            for (d, &step) in DIRECTIONS.iter().enumerate() {
                for offset in LEARNED_OFFSETS {
                    let q = (i as isize + offset * step) as usize;
                    let cell = &self.cells[q];
                    relined[count] =
                        Relined { cell: q as u16, direction: d as u8, centre: cell.code, key: cell.keys[d] };
                    count += usize::from(cell.code != WALL_CELL);
                }
            }
            learned.update(Recoded { cell: i, was, code, keys: &self.cells[i].keys }, &relined[..count]);
        }
        let outermost = self.table.reads_outermost();
        // The old scores gather here and join the frame at once: pushing each onto the frame's
        // vector cost a capacity check and a length written back to memory per cell.
        let mut noted = [Rescored::NONE; 4 * LINE_OFFSETS.len()];
        let mut count = 0;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            let step = step as usize;
            // Spelled out: the compiler kept a loop over a list of these offsets rolled.
            self.refresh_if_empty(i - step, d, &mut noted, &mut count);
            self.refresh_if_empty(i + step, d, &mut noted, &mut count);
            self.refresh_if_empty(i - 2 * step, d, &mut noted, &mut count);
            self.refresh_if_empty(i + 2 * step, d, &mut noted, &mut count);
            self.refresh_if_empty(i - 3 * step, d, &mut noted, &mut count);
            self.refresh_if_empty(i + 3 * step, d, &mut noted, &mut count);
            self.refresh_if_empty(i - 4 * step, d, &mut noted, &mut count);
            self.refresh_if_empty(i + 4 * step, d, &mut noted, &mut count);
            if outermost {
                self.refresh_if_empty(i - 5 * step, d, &mut noted, &mut count);
                self.refresh_if_empty(i + 5 * step, d, &mut noted, &mut count);
            }
        }
        if !self.frames.is_empty() {
            self.rescored.extend_from_slice(&noted[..count]);
        }
    }

    #[inline(always)]
    fn refresh_if_empty(&mut self, i: usize, d: usize, noted: &mut [Rescored], count: &mut usize) {
        if self.cells[i].code == EMPTY_CELL {
            noted[*count] = self.refresh(i, d);
            *count += 1;
        }
    }

    /// A stone or wall at `i`: the empty cells near it are candidates, `i` no longer.
    fn mark_candidates(&mut self, i: usize) {
        self.candidate_bits[i / 64] &= !(1 << (i % 64));
        for step in DIRECTIONS {
            for offset in NEAR_OFFSETS {
                let q = (i as isize + offset * step) as usize;
                self.candidate_bits[q / 64] |= u64::from(self.cells[q].code == EMPTY_CELL) << (q % 64);
            }
        }
    }

    /// `i` emptied with no frame to restore: it and the cells near it are candidates when empty
    /// and near a stone or wall of the board (the padding does not count).
    fn recount_candidates(&mut self, i: usize) {
        let near = |i: usize| {
            DIRECTIONS
                .into_iter()
                .flat_map(move |step| NEAR_OFFSETS.map(|offset| (i as isize + offset * step) as usize))
        };
        for q in std::iter::once(i).chain(near(i)) {
            let candidate = self.cells[q].code == EMPTY_CELL
                && near(q).any(|r| self.on_board(r) && self.cells[r].code != EMPTY_CELL);
            let word = &mut self.candidate_bits[q / 64];
            *word = *word & !(1 << (q % 64)) | u64::from(candidate) << (q % 64);
        }
    }

    /// Re-reads the shapes of empty cell `i` in direction `d` and re-scores the cell; returns
    /// its old scores, for a move's frame. Nearly every call changes a shape, so it re-scores
    /// without first testing whether the shapes changed.
    #[inline(always)]
    pub(super) fn refresh(&mut self, i: usize, d: usize) -> Rescored {
        let pair = self.table.pair(self.cells[i].keys[d]);
        let old = self.cells[i].shapes;
        let noted = Rescored { cell: i as u16, shapes: old, entries: self.cells[i].entries };
        let new = [with_shape(old[0], d, pair_shape(pair, 0)), with_shape(old[1], d, pair_shape(pair, 1))];
        self.cells[i].shapes = new;
        // Both colours, changed or not (then the updates cancel): which colour's shape a
        // stone changes is a coin toss to the branch predictor.
        for (c, &shapes) in new.iter().enumerate() {
            let (before, after) = (self.cells[i].entries[c], self.cell_tables[c].entry(shapes));
            self.cells[i].entries[c] = after;
            self.threat_counts[c][before.threat_slot()] -= 1;
            self.threat_counts[c][after.threat_slot()] += 1;
            self.totals[c] = self.totals[c] - before.worth() + after.worth();
        }
        noted
    }

    /// Removes a cell that is being filled from the totals.
    pub(super) fn exclude(&mut self, i: usize) {
        for c in 0..2 {
            let entry = self.cells[i].entries[c];
            self.threat_counts[c][entry.threat_slot()] -= 1;
            self.totals[c] -= entry.worth();
        }
    }

    /// Adds a cell that has just been emptied back to the totals, with fresh shapes.
    pub(super) fn include(&mut self, i: usize) {
        for c in 0..2 {
            let entry = self.cells[i].entries[c];
            self.threat_counts[c][entry.threat_slot()] += 1;
            self.totals[c] += entry.worth();
        }
        for d in 0..4 {
            self.refresh(i, d);
        }
    }

    /// Empty cells near a stone, in index order.
    pub(crate) fn candidates(&self) -> impl Iterator<Item = Move> + '_ {
        words_cells(self.candidate_bits)
    }

    /// The candidates in `cells`, in index order.
    pub(crate) fn candidates_among(&self, cells: &CellSet) -> impl Iterator<Item = Move> + use<> {
        words_cells(std::array::from_fn(|w| self.candidate_bits[w] & cells.0[w]))
    }
}

/// A set of cells of the padded array, laid out as the candidate bits so that the two
/// intersect a word at a time.
#[derive(Clone, Default)]
pub(crate) struct CellSet([u64; CANDIDATE_WORDS]);

impl CellSet {
    pub(crate) fn insert(&mut self, cell: Move) {
        let i = cell.index();
        self.0[i / 64] |= 1 << (i % 64);
    }

    pub(crate) fn contains(&self, cell: Move) -> bool {
        let i = cell.index();
        self.0[i / 64] >> (i % 64) & 1 != 0
    }
}

/// The cells whose bits are set, in index order.
fn words_cells(words: [u64; CANDIDATE_WORDS]) -> impl Iterator<Item = Move> {
    words.into_iter().enumerate().flat_map(|(word_index, word)| {
        let mut rest = word;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Move::from_index(word_index * 64 + bit)
            })
        })
    })
}
