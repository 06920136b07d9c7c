//! Fixed Amazons positions for `arbor bench --game amazons`: the start, two early positions, and
//! the middle game and the start of the ending of an engine self-play game (0.2 s a move), so
//! the node count covers wide and narrow positions.

use super::board::Position;

/// Moves from the start, space-separated.
const POSITIONS: [&str; 5] = [
    "",
    "d1-d7/g7 g10-e8/e2 a4-b5/c6",
    "d1-d7/g7 g10-e8/e2 a4-b5/c6 j7-h5/h2 g1-g6/f5 a7-b7/d9 j4-h4/j6 d10-c10/c8 b5-b3/e6 e8-f8/i8",
    "d1-d8/b6 g10-g3/i5 j4-g4/f3 a7-d7/e8 d8-c9/j9 d7-b5/g5 a4-c4/f4 g3-h3/f1 g4-i6/i7 j7-h9/h7 \
     i6-f6/d8 h9-f7/g7 f6-e6/e7 d10-d9/d10 g1-j4/h4 h3-g2/j5 j4-h2/g3 b5-b3/c3 e6-g6/c2 d9-c8/d9",
    "d1-d8/b6 g10-g3/i5 j4-g4/f3 a7-d7/e8 d8-c9/j9 d7-b5/g5 a4-c4/f4 g3-h3/f1 g4-i6/i7 j7-h9/h7 \
     i6-f6/d8 h9-f7/g7 f6-e6/e7 d10-d9/d10 g1-j4/h4 h3-g2/j5 j4-h2/g3 b5-b3/c3 e6-g6/c2 d9-c8/d9 \
     c9-b8/b7 b3-a4/b3 c4-d4/d7 c8-b9/a9 d4-c4/c10 g2-d2/g2 c4-b4/a5 a4-b5/f5 b4-c4/e2 b5-c5/b4 \
     h2-g1/e3 c5-d5/b5 g6-i6/c6 f7-h9/f7 i6-j7/j8 h9-i8/i10 c4-d4/f6 d2-d3/e4 d4-e5/e6 d3-d1/d4",
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
