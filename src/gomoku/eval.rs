//! Static evaluation: every empty cell is worth, to each side, what a stone there would make.
//!
//! The source evaluator scores the shapes already on the board (live three, rush four, ...). We
//! score the same knowledge from the cells instead: a side that has a live three owns two cells
//! that would make a live four, so a live three's value is spread over the cells that complete
//! it. This keeps the evaluation incremental: only cells whose lines change are re-scored.
//!
//! Each side's cells are weighed in its role: the side to move cashes its shapes first, while
//! the waiting side's shapes can still be answered (an open three to move is nearly a win; an
//! open three of the side waiting is only a tempo). The weights are fitted to game results by
//! `scripts/fit_eval.py` (a logistic regression on [`features`], Texel's method) from 1,000
//! fast games between strong engines from random openings; one logit of win probability is 628
//! units. Against the hand-made table they replace (the source's weights, one table for both
//! roles) the fit is +74 +/- 69 Elo in self-play.

use std::sync::OnceLock;

use super::pattern::{SHAPE_KINDS, Shape};
use super::threat::{THREAT_KINDS, Threat};
use crate::search::score::{MAX_EVAL, Score};

/// Worth of a stone on a cell, per direction, by the shape it would make there: `[MOVER]` to the
/// side to move, `[WAITER]` to the side waiting, as `scripts/fit_eval.py` prints them.
#[rustfmt::skip]
const SHAPE_VALUE: [[Score; SHAPE_KINDS]; 2] = [
    [0, 0, 1, 7, 15, 73, 76, 125, 23, 394, 1181, 2362, 0, 1181],
    [0, 0, 1, 5, 12, 69, 46, 81, 79, 312, 424, 848, 0, 424],
];

/// Extra worth of a cell where one stone makes a kill shape across several lines, per role.
#[rustfmt::skip]
const THREAT_BONUS: [[Score; THREAT_KINDS]; 2] = [
    [0, 0, 52, 89, 79, 2005, 4011, 8021],
    [0, 0, 52, 82, 0, 846, 386, 1691],
];

/// Worth of having the move, all else equal.
const TEMPO: Score = 11;

/// Index of a role in [`CellValue`] and in the board's totals.
pub const MOVER: usize = 0;
pub const WAITER: usize = 1;

/// A cell's worth to one colour: as the side to move, and as the side waiting.
pub type CellValue = [i16; 2];

/// Worth of an empty cell to one side in each role; nothing where that side may not play.
fn cell_value(shapes: [Shape; 4], threat: Threat) -> CellValue {
    if threat == Threat::Forbidden {
        return [0; 2];
    }
    std::array::from_fn(|role| {
        let value =
            shapes.iter().map(|&s| SHAPE_VALUE[role][s as usize]).sum::<Score>() + THREAT_BONUS[role][threat as usize];
        value.clamp(0, VALUE_MAX) as i16
    })
}

/// Largest worth of a cell, so the packed table entry holds it.
const VALUE_MAX: Score = (1 << 14) - 1;

/// Threat and worth of a cell for every combination of its four shapes (14^4 entries, 4 bytes
/// each), because the board re-scores dozens of cells per move.
pub struct CellTable {
    /// `waiter value << 18 | mover value << 4 | threat`.
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
                let [mover, waiter] = cell_value(shapes, threat).map(|v| v as u32);
                waiter << 18 | mover << 4 | threat as u32
            })
            .collect();
        CellTable { entries }
    }

    #[inline]
    pub fn lookup(&self, shapes: [Shape; 4]) -> (Threat, CellValue) {
        let index = shapes.iter().rev().fold(0, |acc, &s| acc * SHAPE_KINDS + s as usize);
        let entry = self.entries[index];
        (Threat::from_u8((entry & 0xf) as u8), [(entry >> 4 & VALUE_MAX as u32) as i16, (entry >> 18) as i16])
    }
}

/// Evaluation from the side to move, from both sides' summed cell values per role.
pub fn evaluate(own_totals: [Score; 2], opponent_totals: [Score; 2]) -> Score {
    (own_totals[MOVER] - opponent_totals[WAITER] + TEMPO).clamp(-MAX_EVAL + 1, MAX_EVAL - 1)
}

/// What the evaluation is linear in, for fitting its weights to game results: for the side to
/// move, then for the side waiting, how many (empty cell, direction) pairs make each [`Shape`]
/// and how many empty cells make each [`Threat`]. `None` for positions the search never
/// evaluates statically (someone can make five, or the side to move a live four).
pub fn features(board: &super::Board) -> Option<Vec<u32>> {
    let me = board.side_to_move();
    let decided = board.threat_count(me, Threat::Five) > 0
        || board.threat_count(me.opponent(), Threat::Five) > 0
        || board.threat_count(me, Threat::LiveFour) > 0;
    if decided || board.is_over() {
        return None;
    }
    let mut out = Vec::with_capacity(2 * (SHAPE_KINDS + THREAT_KINDS));
    for color in [me, me.opponent()] {
        let mut shapes = [0u32; SHAPE_KINDS];
        for mv in board.playable_moves().filter(|&m| board.is_empty(m)) {
            for shape in board.shapes(mv, color) {
                shapes[shape as usize] += 1;
            }
        }
        out.extend(shapes);
        out.extend((0..THREAT_KINDS).map(|t| board.threat_count(color, Threat::from_u8(t as u8))));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Shape::*;

    #[test]
    fn stronger_shapes_are_worth_more() {
        let ladder = [SleepingOne, LiveOne, SleepingTwo, LiveTwo, JumpLiveThree, LiveThree, LiveFour, Five];
        for role in [MOVER, WAITER] {
            for pair in ladder.windows(2) {
                assert!(SHAPE_VALUE[role][pair[0] as usize] < SHAPE_VALUE[role][pair[1] as usize], "{role} {pair:?}");
            }
        }
        let kill = cell_value([RushFour, LiveThree, Dead, Dead], Threat::FourThree);
        let plain = cell_value([RushFour, Dead, Dead, Dead], Threat::Four);
        assert!(kill[MOVER] > plain[MOVER] + 200 && kill[WAITER] > plain[WAITER] + 200);
    }

    #[test]
    fn the_table_agrees_with_the_rules() {
        let shapes = [JumpFour, Dead, LiveThree, SleepingTwo];
        let threat = Threat::from_shapes(shapes);
        assert_eq!(CellTable::get(false).lookup(shapes), (threat, cell_value(shapes, threat)));
        assert_eq!(CellTable::get(false).lookup([Dead; 4]), (Threat::None, [0; 2]));
        assert_eq!(CellTable::get(true).lookup([DoubleFour, LiveThree, Dead, Dead]), (Threat::Forbidden, [0; 2]));
    }

    #[test]
    fn the_evaluation_weighs_each_side_in_its_role() {
        assert_eq!(evaluate([0; 2], [0; 2]), TEMPO);
        assert_eq!(evaluate([300, 100], [50, 20]), 300 - 20 + TEMPO);
        assert!(evaluate([i32::MAX / 8; 2], [0; 2]) < MAX_EVAL);
    }

    #[test]
    fn the_evaluation_is_the_features_times_the_weights() {
        use crate::gomoku::Rule;
        use crate::gomoku::notation::board_from_notation;
        for moves in ["h8i9", "h8i9h9h10g8f7i7", "h8h9i9g7j10k11i10i8j8k7", "f8c10g11c12f14g9f9h12b7"] {
            let board = board_from_notation(15, Rule::Freestyle, moves).unwrap();
            let f = features(&board).expect("undecided");
            let side = |offset: usize, role: usize| -> Score {
                let shapes: Score = (0..SHAPE_KINDS).map(|s| f[offset + s] as Score * SHAPE_VALUE[role][s]).sum();
                let threats: Score =
                    (0..THREAT_KINDS).map(|t| f[offset + SHAPE_KINDS + t] as Score * THREAT_BONUS[role][t]).sum();
                shapes + threats
            };
            let linear = side(0, MOVER) - side(SHAPE_KINDS + THREAT_KINDS, WAITER) + TEMPO;
            assert_eq!(board.evaluate(), linear, "{moves}");
        }
    }
}
