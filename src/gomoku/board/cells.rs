//! The cell cache: for every cell of the padded array, the line keys of its neighbours and, while
//! it is empty, the shapes, threats and worth a stone there would make, kept up to date move by
//! move along the 40 cells that share a line with it, with the totals and counts they sum to
//! and the bit set of candidate cells.

use super::Board;
use crate::gomoku::eval::CellValue;
use crate::gomoku::pattern::{Shape, WALL, slot_shift};
use crate::gomoku::threat::Threat;
use crate::gomoku::types::{DIRECTIONS, Move, REACH};
use crate::score::Score;

/// Candidate moves are empty cells at most this far from a stone along a line.
const NEAR_DISTANCE: isize = 2;

pub(super) const EMPTY_CELL: u8 = 0;
pub(super) const WALL_CELL: u8 = WALL as u8;

/// State of one cell of the padded array.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Cell {
    /// Line keys of the neighbours, one per direction, kept for every cell.
    pub(super) keys: [u32; 4],
    /// Per colour, per direction: the shape a stone of that colour would make here. Read only
    /// while the cell is empty; `threats` and `values` always agree with it.
    pub(super) shapes: [[Shape; 4]; 2],
    /// Per colour: the cell's worth to that colour as the side to move and as the side waiting.
    pub(super) values: [CellValue; 2],
    pub(super) threats: [Threat; 2],
    /// Empty, black, white or wall.
    pub(super) code: u8,
    /// How many stones are within [`NEAR_DISTANCE`] of the cell along a line.
    pub(super) near: u8,
}

pub(super) const WALL_STATE: Cell = Cell {
    keys: [0; 4],
    shapes: [[Shape::Dead; 4]; 2],
    values: [[0; 2]; 2],
    threats: [Threat::None; 2],
    code: WALL_CELL,
    near: 0,
};

impl Board {
    /// Writes a cell code and updates the keys and near counts of its lines, and with `rescore`
    /// the shapes and scores of the empty cells on them.
    pub(super) fn set_cell(&mut self, i: usize, code: u8, rescore: bool) {
        self.cells[i].code = code;
        self.update_candidate(i);
        let near_delta: i16 = if code == EMPTY_CELL { -1 } else { 1 };
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            for offset in (-(REACH as isize)..=REACH as isize).filter(|&o| o != 0) {
                let q = (i as isize + offset * step) as usize;
                let cell = &mut self.cells[q];
                if cell.code == WALL_CELL {
                    continue;
                }
                let shift = slot_shift(-offset);
                cell.keys[d] = (cell.keys[d] & !(3 << shift)) | (u32::from(code) << shift);
                if offset.abs() <= NEAR_DISTANCE {
                    cell.near = (i16::from(cell.near) + near_delta) as u8;
                    self.update_candidate(q);
                }
                if rescore && self.cells[q].code == EMPTY_CELL {
                    self.refresh(q, d);
                }
            }
        }
    }

    fn update_candidate(&mut self, i: usize) {
        let bit = 1u64 << (i % 64);
        if self.cells[i].code == EMPTY_CELL && self.cells[i].near > 0 {
            self.candidate_bits[i / 64] |= bit;
        } else {
            self.candidate_bits[i / 64] &= !bit;
        }
    }

    /// Re-reads the shapes of empty cell `i` in direction `d` and re-scores the cell, noting
    /// its old scores in the open move's frame.
    pub(super) fn refresh(&mut self, i: usize, d: usize) {
        let [black, white] = self.table.shapes(self.cells[i].keys[d]);
        if self.cells[i].shapes[0][d] == black && self.cells[i].shapes[1][d] == white {
            return;
        }
        self.note_rescore(i);
        let cell = &mut self.cells[i];
        // Built by selects, not by storing into the array and reading it back whole: a wide
        // load right after narrow stores to the same bytes stalls until the stores retire.
        let old = cell.shapes;
        let shapes: [[Shape; 4]; 2] =
            std::array::from_fn(|c| std::array::from_fn(|k| if k == d { [black, white][c] } else { old[c][k] }));
        cell.shapes = shapes;
        for (c, &lines) in shapes.iter().enumerate() {
            let (threat, value) = self.cell_tables[c].lookup(lines);
            self.threat_counts[c][cell.threats[c] as usize] -= 1;
            self.threat_counts[c][threat as usize] += 1;
            add_value(&mut self.totals[c], cell.values[c], -1);
            add_value(&mut self.totals[c], value, 1);
            cell.threats[c] = threat;
            cell.values[c] = value;
        }
    }

    /// Removes a cell that is being filled from the totals.
    pub(super) fn exclude(&mut self, i: usize) {
        for c in 0..2 {
            self.threat_counts[c][self.cells[i].threats[c] as usize] -= 1;
            add_value(&mut self.totals[c], self.cells[i].values[c], -1);
        }
    }

    /// Adds a cell that has just been emptied back to the totals, with fresh shapes.
    pub(super) fn include(&mut self, i: usize) {
        for c in 0..2 {
            self.threat_counts[c][self.cells[i].threats[c] as usize] += 1;
            add_value(&mut self.totals[c], self.cells[i].values[c], 1);
        }
        for d in 0..4 {
            self.refresh(i, d);
        }
    }

    /// Empty cells near a stone, in index order.
    pub(crate) fn candidates(&self) -> impl Iterator<Item = Move> + '_ {
        self.candidate_bits.iter().enumerate().flat_map(|(word_index, &word)| {
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
}

/// Adds (`sign` 1) or removes (`sign` -1) a cell's worth in both roles to a colour's totals.
fn add_value(totals: &mut [Score; 2], value: CellValue, sign: Score) {
    for (total, v) in totals.iter_mut().zip(value) {
        *total += sign * Score::from(v);
    }
}
