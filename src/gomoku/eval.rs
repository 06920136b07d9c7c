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
//!
//! A cell is worth its four lines' shapes plus a bonus for what they make together: a kill
//! shape ([`Threat`]), or a [`Combo`] one move short of one. The combos cut the fit's
//! cross-entropy from 0.453 to 0.432 and gained +127 +/- 74 Elo in self-play.

use std::sync::OnceLock;

use super::pattern::{SHAPE_KINDS, Shape};
use super::threat::{THREAT_KINDS, Threat};
use crate::params::{self, Id};
use crate::score::{MAX_EVAL, Score};

/// The evaluation's weights, from the tuner's parameter table ([`crate::params`], where
/// `scripts/fit_eval.py`'s fits go), per role (`[MOVER]` the side to move, `[WAITER]` the side
/// waiting): a stone's worth on a cell per direction by the shape it would make there, the extra
/// worth of a cell where one stone makes a kill shape across several lines, and of one where it
/// builds in two lines at once short of a kill shape ([`Combo`]: such cells become kill shapes
/// one move later).
struct Weights {
    shape: [[Score; SHAPE_KINDS]; 2],
    threat: [[Score; THREAT_KINDS]; 2],
    combo: [[Score; COMBO_KINDS]; 2],
}

impl Weights {
    fn from_params() -> Weights {
        // A dead line, a forbidden or no threat and no combo are worth nothing by definition.
        fn row<const N: usize>(worthless: usize, first: Id) -> [Score; N] {
            std::array::from_fn(|k| if k < worthless { 0 } else { params::get_after(first, k - worthless) })
        }
        Weights {
            shape: [row(1, Id::gomoku_shape_mover_sleeping_one), row(1, Id::gomoku_shape_waiter_sleeping_one)],
            threat: [row(2, Id::gomoku_threat_mover_three), row(2, Id::gomoku_threat_waiter_three)],
            combo: [row(1, Id::gomoku_combo_mover_two_twos), row(1, Id::gomoku_combo_waiter_two_twos)],
        }
    }
}

/// What one stone on a cell builds across its lines besides its [`Threat`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Combo {
    None,
    /// Two live twos.
    TwoTwos,
    /// A sleeping three and a live two or another sleeping three.
    SleepingThreePlus,
    /// One live three and a live two or sleeping three in another line.
    ThreePlus,
    /// One four and a live two or sleeping three in another line.
    FourPlus,
}

const COMBO_KINDS: usize = 5;

impl Combo {
    fn of(shapes: [Shape; 4], threat: Threat) -> Combo {
        let count = |shape: Shape| shapes.iter().filter(|&&s| s == shape).count();
        let (twos, sleeping_threes) = (count(Shape::LiveTwo), count(Shape::SleepingThree));
        match threat {
            Threat::Four if twos + sleeping_threes > 0 => Combo::FourPlus,
            Threat::Three if twos + sleeping_threes > 0 => Combo::ThreePlus,
            Threat::None if sleeping_threes > 0 && twos + sleeping_threes > 1 => Combo::SleepingThreePlus,
            Threat::None if twos > 1 => Combo::TwoTwos,
            _ => Combo::None,
        }
    }
}

/// Worth of having the move, all else equal.
fn tempo() -> Score {
    params::get(Id::gomoku_tempo)
}

/// Index of a role in [`CellValue`] and in the board's totals.
pub const MOVER: usize = 0;
pub const WAITER: usize = 1;

/// A cell's worth to one colour: as the side to move, and as the side waiting.
pub type CellValue = [i16; 2];

/// Worth of an empty cell to one side in each role; nothing where that side may not play.
fn cell_value(weights: &Weights, shapes: [Shape; 4], threat: Threat) -> CellValue {
    if threat == Threat::Forbidden {
        return [0; 2];
    }
    std::array::from_fn(|role| {
        let value = shapes.iter().map(|&s| weights.shape[role][s as usize]).sum::<Score>()
            + weights.threat[role][threat as usize]
            + weights.combo[role][Combo::of(shapes, threat) as usize];
        value.clamp(0, VALUE_MAX) as i16
    })
}

/// Largest worth of a cell, so that a [`CellEntry`] holds it and a board's [`Totals`] stay
/// below 2^28 in each role.
const VALUE_MAX: Score = (1 << 14) - 1;

/// A cell's threat and worth to one colour, packed as the [`CellTable`] holds them: the worth
/// as the side to move in bits 0-13, as the side waiting in bits 14-27, the threat in bits
/// 28-30. Four bytes rather than eight (with the worth laid out as a [`Totals`] term): the
/// smaller table missed the first-level cache less, which paid for the unpacking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellEntry(u32);

const WAITER_SHIFT: u32 = 14;
const THREAT_SHIFT: u32 = 28;

impl CellEntry {
    /// A cell that threatens nothing and is worth nothing: what every shape dead makes.
    pub const NOTHING: CellEntry = CellEntry((Threat::None as u32) << THREAT_SHIFT);

    fn new(threat: Threat, [mover, waiter]: CellValue) -> CellEntry {
        CellEntry((threat as u32) << THREAT_SHIFT | mover as u32 | (waiter as u32) << WAITER_SHIFT)
    }

    #[inline]
    pub fn threat(self) -> Threat {
        Threat::from_u8(self.threat_slot() as u8)
    }

    /// The threat's index in a count array: [`Threat`]'s discriminant, masked so that the
    /// index needs no bounds check in arrays of its eight kinds.
    #[inline]
    pub fn threat_slot(self) -> usize {
        (self.0 >> THREAT_SHIFT & 7) as usize
    }

    #[inline]
    pub fn value(self) -> CellValue {
        [(self.0 & VALUE_MAX as u32) as i16, (self.0 >> WAITER_SHIFT & VALUE_MAX as u32) as i16]
    }

    /// The worth in both roles as one [`Totals`] term.
    #[inline]
    pub fn worth(self) -> Totals {
        Totals::from(self.0 & VALUE_MAX as u32)
            | Totals::from(self.0 & (VALUE_MAX as u32) << WAITER_SHIFT) << (32 - WAITER_SHIFT)
    }
}

/// One colour's summed cell worth in both roles: the mover's in the low 32 bits, the waiter's in
/// the high ones, so a re-scored cell updates both with one addition. Cell worths are not
/// negative and a board's sum stays far below 2^28, so neither half reaches the other.
pub type Totals = u64;

/// The per-role sums packed in `totals`, indexed by [`MOVER`] and [`WAITER`].
pub fn roles(totals: Totals) -> [Score; 2] {
    [(totals & 0xffff_ffff) as Score, (totals >> 32) as Score]
}

/// A cell's four shapes packed into the [`CellTable`]'s index, four bits a direction
/// (direction `d` in bits `4d..4d+4`), so that the board can keep the index itself and change
/// one direction's shape with a mask.
pub type PackedShapes = u16;

const _: () = assert!(SHAPE_KINDS <= 16, "a shape fits in four bits");

#[cfg(test)]
pub fn pack_shapes(shapes: [Shape; 4]) -> PackedShapes {
    shapes.iter().rev().fold(0, |acc, &s| acc << 4 | s as PackedShapes)
}

/// `packed` with direction `d`'s shape replaced by `shape` (a [`Shape`]'s discriminant).
#[inline]
pub fn with_shape(packed: PackedShapes, d: usize, shape: u8) -> PackedShapes {
    packed & !(0xf << (4 * d)) | PackedShapes::from(shape) << (4 * d)
}

pub fn unpack_shapes(packed: PackedShapes) -> [Shape; 4] {
    std::array::from_fn(|d| Shape::from_u8((packed >> (4 * d) & 0xf) as u8))
}

const _: () = assert!(THREAT_KINDS == 8, "CellEntry::threat_slot masks with 7");

/// Threat and worth of a cell for every combination of its four shapes, indexed by
/// [`PackedShapes`] (2^16 entries, 4 bytes each, those with a nibble past the last shape
/// unused), because the board re-scores dozens of cells per move and the packed index costs
/// it nothing to compute.
pub struct CellTable {
    /// Boxed as an array so that a [`PackedShapes`] index needs no bounds check.
    entries: Box<[CellEntry; 1 << PackedShapes::BITS]>,
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
        let weights = Weights::from_params();
        let entries = (0..=PackedShapes::MAX)
            .map(|packed| {
                if (0..4).any(|d| usize::from(packed >> (4 * d) & 0xf) >= SHAPE_KINDS) {
                    return CellEntry::NOTHING;
                }
                let shapes = unpack_shapes(packed);
                let threat = threat_of(shapes);
                CellEntry::new(threat, cell_value(&weights, shapes, threat))
            })
            .collect::<Vec<_>>();
        CellTable { entries: entries.into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!()) }
    }

    #[inline]
    pub fn entry(&self, shapes: PackedShapes) -> CellEntry {
        self.entries[usize::from(shapes)]
    }

    #[cfg(test)]
    pub fn lookup(&self, shapes: [Shape; 4]) -> (Threat, CellValue) {
        let entry = self.entry(pack_shapes(shapes));
        (entry.threat(), entry.value())
    }
}

/// Evaluation from the side to move, from both sides' summed cell values per role.
pub fn evaluate(own_totals: [Score; 2], opponent_totals: [Score; 2]) -> Score {
    (own_totals[MOVER] - opponent_totals[WAITER] + tempo()).clamp(-MAX_EVAL + 1, MAX_EVAL - 1)
}

/// Features of one side in [`features`]: shapes, threats, combos.
pub const FEATURES_PER_SIDE: usize = SHAPE_KINDS + THREAT_KINDS + COMBO_KINDS;

/// What the evaluation is linear in, for fitting its weights to game results: for the side to
/// move, then for the side waiting, how many (empty cell, direction) pairs make each [`Shape`]
/// and how many empty cells make each [`Threat`] and each [`Combo`]. `None` for positions the
/// search never evaluates statically (someone can make five, or the side to move a live four).
pub fn features(board: &super::Board) -> Option<Vec<u32>> {
    let me = board.side_to_move();
    let decided = board.threat_count(me, Threat::Five) > 0
        || board.threat_count(me.opponent(), Threat::Five) > 0
        || board.threat_count(me, Threat::LiveFour) > 0;
    if decided || board.is_over() {
        return None;
    }
    let mut out = Vec::with_capacity(2 * FEATURES_PER_SIDE);
    for color in [me, me.opponent()] {
        let mut shapes = [0u32; SHAPE_KINDS];
        let mut combos = [0u32; COMBO_KINDS];
        for mv in board.playable_moves().filter(|&m| board.is_empty(m)) {
            let lines = board.shapes(mv, color);
            for shape in lines {
                shapes[shape as usize] += 1;
            }
            let threat = board.threat(mv, color);
            if threat != Threat::Forbidden {
                combos[Combo::of(lines, threat) as usize] += 1;
            }
        }
        out.extend(shapes);
        out.extend((0..THREAT_KINDS).map(|t| board.threat_count(color, Threat::from_u8(t as u8))));
        out.extend(combos);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Shape::*;

    #[test]
    fn stronger_shapes_are_worth_more() {
        let w = Weights::from_params();
        let ladder = [SleepingOne, LiveOne, SleepingTwo, LiveTwo, JumpLiveThree, LiveThree, LiveFour, Five];
        for role in [MOVER, WAITER] {
            for pair in ladder.windows(2) {
                assert!(w.shape[role][pair[0] as usize] < w.shape[role][pair[1] as usize], "{role} {pair:?}");
            }
        }
        let kill = cell_value(&w, [RushFour, LiveThree, Dead, Dead], Threat::FourThree);
        let plain = cell_value(&w, [RushFour, Dead, Dead, Dead], Threat::Four);
        assert!(kill[MOVER] > plain[MOVER] + 200 && kill[WAITER] > plain[WAITER] + 200);
    }

    #[test]
    fn combos_name_what_two_lines_build_together() {
        let w = Weights::from_params();
        let combo = |shapes: [Shape; 4]| Combo::of(shapes, Threat::from_shapes(shapes));
        assert_eq!(combo([LiveTwo, LiveTwo, Dead, SleepingTwo]), Combo::TwoTwos);
        assert_eq!(combo([LiveTwo, Dead, Dead, SleepingTwo]), Combo::None);
        assert_eq!(combo([SleepingThree, LiveTwo, Dead, Dead]), Combo::SleepingThreePlus);
        assert_eq!(combo([SleepingThree, SleepingThree, Dead, Dead]), Combo::SleepingThreePlus);
        assert_eq!(combo([SleepingThree, SleepingTwo, Dead, Dead]), Combo::None);
        assert_eq!(combo([JumpLiveThree, Dead, LiveTwo, Dead]), Combo::ThreePlus);
        assert_eq!(combo([RushFour, SleepingThree, Dead, Dead]), Combo::FourPlus);
        // A kill shape is a threat, not a combo.
        assert_eq!(combo([RushFour, LiveThree, LiveTwo, Dead]), Combo::None);
        assert_eq!(combo([LiveThree, LiveThree, LiveTwo, Dead]), Combo::None);
        let two_twos = Score::from(cell_value(&w, [LiveTwo, LiveTwo, Dead, Dead], Threat::None)[MOVER]);
        assert_eq!(two_twos, 2 * w.shape[MOVER][LiveTwo as usize] + w.combo[MOVER][Combo::TwoTwos as usize]);
    }

    #[test]
    fn the_table_agrees_with_the_rules() {
        let w = Weights::from_params();
        let shapes = [JumpFour, Dead, LiveThree, SleepingTwo];
        let threat = Threat::from_shapes(shapes);
        assert_eq!(CellTable::get(false).lookup(shapes), (threat, cell_value(&w, shapes, threat)));
        assert_eq!(CellTable::get(false).lookup([Dead; 4]), (Threat::None, [0; 2]));
        assert_eq!(CellTable::get(true).lookup([DoubleFour, LiveThree, Dead, Dead]), (Threat::Forbidden, [0; 2]));
    }

    #[test]
    fn the_evaluation_weighs_each_side_in_its_role() {
        assert_eq!(evaluate([0; 2], [0; 2]), tempo());
        assert_eq!(evaluate([300, 100], [50, 20]), 300 - 20 + tempo());
        assert!(evaluate([i32::MAX / 8; 2], [0; 2]) < MAX_EVAL);
    }

    #[test]
    fn the_evaluation_is_the_features_times_the_weights() {
        let w = Weights::from_params();
        use crate::gomoku::Rule;
        use crate::gomoku::notation::board_from_notation;
        for moves in ["h8i9", "h8i9h9h10g8f7i7", "h8h9i9g7j10k11i10i8j8k7", "f8c10g11c12f14g9f9h12b7"] {
            let board = board_from_notation(15, Rule::Freestyle, moves).unwrap();
            let f = features(&board).expect("undecided");
            let side = |offset: usize, role: usize| -> Score {
                let shapes: Score = (0..SHAPE_KINDS).map(|s| f[offset + s] as Score * w.shape[role][s]).sum();
                let threats: Score =
                    (0..THREAT_KINDS).map(|t| f[offset + SHAPE_KINDS + t] as Score * w.threat[role][t]).sum();
                let combos: Score = (0..COMBO_KINDS)
                    .map(|c| f[offset + SHAPE_KINDS + THREAT_KINDS + c] as Score * w.combo[role][c])
                    .sum();
                shapes + threats + combos
            };
            let linear = side(0, MOVER) - side(FEATURES_PER_SIDE, WAITER) + tempo();
            assert_eq!(board.evaluate(), linear, "{moves}");
        }
    }
}
