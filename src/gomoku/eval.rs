//! Static evaluation: every empty cell is worth, to each side, what a stone there would make.
//!
//! The source evaluator scores the shapes already on the board (live three 200, rush four 200,
//! jump four 120, live two 20, ...). We score the same knowledge from the cells instead: a side
//! that has a live three owns two cells that would make a live four, so a live three's value is
//! spread over the cells that complete it. This keeps the evaluation incremental: only cells
//! whose lines change are re-scored after a move. The numbers started from the source weights,
//! halved per cell and rescaled so a won position stays far inside `MAX_EVAL`; the kill-shape
//! bonuses play the source's `10,000 x (1 + fours)` term.

use std::sync::OnceLock;

use super::pattern::{SHAPE_KINDS, Shape};
use super::threat::{THREAT_KINDS, Threat};
use crate::search::score::{MAX_EVAL, Score};

/// Worth of a stone on a cell, per direction, by the shape it would make there.
const SHAPE_VALUE: [Score; SHAPE_KINDS] = [
    0,   // Dead
    1,   // SleepingOne
    3,   // LiveOne
    4,   // SleepingTwo
    12,  // LiveTwo
    10,  // SleepingThree
    24,  // JumpLiveThree
    30,  // LiveThree
    20,  // JumpFour
    24,  // RushFour
    100, // LiveFour
    300, // Five
    0,   // Overline
    100, // DoubleFour
];

/// Extra worth of a cell where one stone makes a kill shape across several lines.
const THREAT_BONUS: [Score; THREAT_KINDS] = [
    0,    // Forbidden
    0,    // None
    0,    // Three
    0,    // Four
    150,  // DoubleThree
    300,  // FourThree
    400,  // LiveFour
    1000, // Five
];

/// The side to move cashes its threats first, so its cells count for more than the
/// opponent's: evaluation = (ATTACK * own - DEFENCE * opponent's) / SCALE.
const ATTACK: Score = 5;
const DEFENCE: Score = 4;
const SCALE: Score = 4;

/// Worth of an empty cell to one side; nothing where that side may not play.
fn cell_value(shapes: [Shape; 4], threat: Threat) -> Score {
    if threat == Threat::Forbidden {
        return 0;
    }
    shapes.iter().map(|&s| SHAPE_VALUE[s as usize]).sum::<Score>() + THREAT_BONUS[threat as usize]
}

/// Threat and worth of a cell for every combination of its four shapes (14^4 entries, 4 bytes
/// each), because the board re-scores dozens of cells per move.
pub struct CellTable {
    /// `value << 8 | threat`.
    entries: Vec<u32>,
}

impl CellTable {
    /// The table for a side that may play anywhere, or (`forbidding`) for renju's black, who
    /// may not make an overline or two fours.
    pub fn get(forbidding: bool) -> &'static CellTable {
        static FREE: OnceLock<CellTable> = OnceLock::new();
        static FORBIDDING: OnceLock<CellTable> = OnceLock::new();
        if forbidding {
            FORBIDDING.get_or_init(|| CellTable::build(Threat::from_shapes_forbidding))
        } else {
            FREE.get_or_init(|| CellTable::build(Threat::from_shapes))
        }
    }

    fn build(threat_of: fn([Shape; 4]) -> Threat) -> CellTable {
        let entries = (0..SHAPE_KINDS.pow(4))
            .map(|index| {
                let shapes: [Shape; 4] =
                    std::array::from_fn(|d| Shape::from_u8((index / SHAPE_KINDS.pow(d as u32) % SHAPE_KINDS) as u8));
                let threat = threat_of(shapes);
                (cell_value(shapes, threat) as u32) << 8 | threat as u32
            })
            .collect();
        CellTable { entries }
    }

    #[inline]
    pub fn lookup(&self, shapes: [Shape; 4]) -> (Threat, Score) {
        let index = shapes.iter().rev().fold(0, |acc, &s| acc * SHAPE_KINDS + s as usize);
        let entry = self.entries[index];
        (Threat::from_u8(entry as u8), (entry >> 8) as Score)
    }
}

/// Evaluation from the side to move, from both sides' summed cell values.
pub fn evaluate(own_total: Score, opponent_total: Score) -> Score {
    ((ATTACK * own_total - DEFENCE * opponent_total) / SCALE).clamp(-MAX_EVAL + 1, MAX_EVAL - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Shape::*;

    #[test]
    fn stronger_shapes_are_worth_more() {
        let ladder = [SleepingOne, LiveOne, SleepingTwo, LiveTwo, JumpLiveThree, LiveThree, LiveFour, Five];
        for pair in ladder.windows(2) {
            assert!(SHAPE_VALUE[pair[0] as usize] < SHAPE_VALUE[pair[1] as usize], "{pair:?}");
        }
        let kill = cell_value([RushFour, LiveThree, Dead, Dead], Threat::FourThree);
        let plain = cell_value([RushFour, Dead, Dead, Dead], Threat::Four);
        assert!(kill > plain + 200);
    }

    #[test]
    fn the_table_agrees_with_the_rules() {
        let shapes = [JumpFour, Dead, LiveThree, SleepingTwo];
        let threat = Threat::from_shapes(shapes);
        assert_eq!(CellTable::get(false).lookup(shapes), (threat, cell_value(shapes, threat)));
        assert_eq!(CellTable::get(false).lookup([Dead; 4]), (Threat::None, 0));
        assert_eq!(CellTable::get(true).lookup([DoubleFour, LiveThree, Dead, Dead]), (Threat::Forbidden, 0));
    }

    #[test]
    fn equal_material_favours_the_side_to_move() {
        assert!(evaluate(100, 100) > 0);
        assert_eq!(evaluate(0, 0), 0);
        assert!(evaluate(i32::MAX / 8, 0) < MAX_EVAL);
    }
}
