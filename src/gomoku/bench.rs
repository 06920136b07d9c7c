//! Fixed positions for `arbor bench`: openings and middle games on both board sizes, so the
//! node count signature covers quiet play, threats and forced sequences.

use super::board::Board;
use super::notation::board_from_notation;
use super::types::Rule;

/// (board size, compact position).
const POSITIONS: [(usize, &str); 12] = [
    (15, "h8"),
    (15, "h8i9"),
    (15, "g2g7c2f3c6a9g5"),
    (15, "b8e9a12a14d8"),
    (15, "f8c10g11c12f14g9f9h12b7"),
    (15, "h8i8h9h10i10g8j11j9i7g9"),
    (15, "h8i9h9h10g8f7i7j6g10g9f9e9"),
    (15, "h8h9i9g7j10k11i10i8j8k7j9j7"),
    (20, "i12j12j15i11i15"),
    (20, "j3g6f2g2h4i4i2j4i5"),
    (20, "i11i9j9i8k8g12d11"),
    (20, "j10k11j11j12k10l9i10h10"),
];

/// The benchmark positions, freestyle rule.
pub fn positions() -> Vec<Board> {
    POSITIONS
        .iter()
        .map(|&(size, moves)| board_from_notation(size, Rule::Freestyle, moves).expect("bench positions are legal"))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bench_position_is_playable() {
        for board in super::positions() {
            assert!(!board.is_over());
        }
    }
}
