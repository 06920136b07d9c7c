//! Undo frames: taking a move back restores the cells it re-scored instead of re-reading their
//! lines, which was half the cost of a move. Each move made since the last wall has a frame:
//! the totals and threat counts before it, and where its cells' old scores start in
//! [`Board::rescored`].

use super::Board;
use super::cells::{CANDIDATE_WINDOW, candidate_window};
use crate::gomoku::eval::{CellEntry, PackedShapes, Totals};
use crate::gomoku::threat::THREAT_KINDS;

/// What a move's taking back restores besides the cells in [`Board::rescored`].
#[derive(Clone)]
pub(super) struct Frame {
    /// Where this move's entries start in [`Board::rescored`].
    pub(super) first: usize,
    pub(super) totals: [Totals; 2],
    pub(super) threat_counts: [[u32; THREAT_KINDS]; 2],
    /// The words of the candidate bits the move can change, from its [`candidate_window`].
    pub(super) candidates: [u64; CANDIDATE_WINDOW],
}

/// An empty cell's scores before a move changed them.
#[derive(Clone, Copy)]
pub(super) struct Rescored {
    pub(super) cell: u16,
    pub(super) shapes: [PackedShapes; 2],
    pub(super) entries: [CellEntry; 2],
}

impl Rescored {
    pub(super) const NONE: Rescored = Rescored { cell: 0, shapes: [0; 2], entries: [CellEntry::NOTHING; 2] };
}

impl Board {
    /// Opens the frame of a move about to be made at cell `i`.
    pub(super) fn open_frame(&mut self, i: usize) {
        if let Some(learned) = self.learned_kept() {
            learned.open_frame();
        }
        let window = candidate_window(i);
        self.frames.push(Frame {
            first: self.rescored.len(),
            totals: self.totals,
            threat_counts: self.threat_counts,
            candidates: std::array::from_fn(|w| self.candidate_bits[window + w]),
        });
    }

    /// Restores the cells, totals, counts, candidates and learned features of the last move's
    /// frame, the move at cell `i`, and closes it; `false` when that move has none (it was made
    /// before a wall).
    pub(super) fn restore_frame(&mut self, i: usize) -> bool {
        let Some(frame) = self.frames.pop() else { return false };
        if let Some(learned) = self.learned_kept() {
            let restored = learned.restore_frame();
            debug_assert!(restored, "the learned features keep a frame per board frame");
        }
        for old in self.rescored.drain(frame.first..).rev() {
            let cell = &mut self.cells[usize::from(old.cell)];
            cell.shapes = old.shapes;
            cell.entries = old.entries;
        }
        self.totals = frame.totals;
        self.threat_counts = frame.threat_counts;
        let window = candidate_window(i);
        self.candidate_bits[window..window + CANDIDATE_WINDOW].copy_from_slice(&frame.candidates);
        true
    }

    /// Forgets every frame: a wall changes lines that moves before it cannot restore.
    pub(super) fn drop_frames(&mut self) {
        if let Some(learned) = &mut self.learned {
            learned.drop_frames();
        }
        self.frames.clear();
        self.rescored.clear();
    }
}
