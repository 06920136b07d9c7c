//! Fixed Amazons positions for `arbor bench --game amazons`: the start, early and middle games
//! and a nearly separated ending, so the node count covers the whole range of widths.

use super::board::Position;

/// Moves from the start, space-separated.
const POSITIONS: [&str; 3] = [
    "",
    "d1-d7/g7 g10-e8/e2 a4-b5/c6",
    "d1-d7/g7 g10-e8/e2 a4-b5/c6 j7-h5/h2 g1-g6/f5 a7-b7/d9 j4-h4/j6 d10-c10/c8 b5-b3/e6 e8-f8/i8",
];

/// The benchmark positions.
pub fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|line| {
            let mut pos = Position::new();
            for text in line.split_whitespace() {
                let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("bench move {text}: {e}"));
                pos.play(mv).expect("checked above");
            }
            pos
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_bench_position_is_playable() {
        for pos in super::positions() {
            assert!(!pos.is_over());
        }
    }
}
