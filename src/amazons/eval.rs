//! Territory evaluation after the classic Amazons evaluator: both sides' distances to every
//! empty square, by queen moves and by king moves, decide who owns it.
//!
//! For each empty square and each side, `q` is the number of queen moves and `k` the number of
//! king moves its nearest queen needs to get there through empty squares. Then, from the side
//! to move's view:
//! - `t1`: +1 per square reached first by queen moves, -1 per square the opponent reaches
//!   first, a small tie credit ([`Weights::tie`]) when both need the same number, 0 when
//!   neither gets there;
//! - `t2`: the same with king moves (matters once the regions get narrow);
//! - `c1`: `sum(2^-q_me - 2^-q_opp)`, how much nearer each side is, in queen moves;
//! - `c2`: `sum(clamp((k_opp - k_me) / 6, -1, 1))`, the same in king moves;
//! - mobility: per queen, the free neighbours of the squares it reaches in one move, capped, so
//!   that a queen about to be shut in counts against its side.
//!
//! The weights ([`WEIGHTS`]) move from the opening values to the late ones as arrows fill the
//! board: early, influence (`c1`, `c2`) and mobility decide; late, counted territory does.
//! [`PATENT_WEIGHTS`], staged by move number, is the baseline they were tuned against.
//! Once no empty square is reachable by both sides the game is a filling race and the
//! evaluation counts it instead (see [`race_score`]).

#[cfg(target_arch = "x86_64")]
use super::attacks::has_popcnt;
use super::attacks::{Bits, GRID, SQUARES, neighbours, queen_attacks, queen_fill};
use super::board::Position;
pub use super::weights::{NAMED_WEIGHTS, PATENT_WEIGHTS, TermWeights, WEIGHTS, Weights};
use crate::score::{MAX_EVAL, Score};

/// Distance of a square no queen of the side can reach.
pub const UNREACHED: u8 = u8::MAX;

/// A queen's mobility counts up to this many free neighbours in total.
pub const MOBILITY_CAP: u32 = 40;
/// Mobility points of a queen at the cap, so the term is on the scale of counted squares.
pub const MOBILITY_UNITS: f32 = 10.0;
/// Centipawn-like units per unit of weighted evaluation (about one square of territory).
pub const SCALE: f32 = 100.0;
/// A separated position is worth this much to the side that wins the race, before adding
/// [`RACE_SQUARE`] per square of difference: above any ordinary evaluation, far below mate.
pub const RACE_BASE: Score = 10_000;
pub const RACE_SQUARE: Score = 100;

/// `2^-d` by distance; 0 for [`UNREACHED`].
static INFLUENCE: [f32; 256] = {
    let mut table = [0.0; 256];
    let mut d = 1;
    let mut value = 0.5;
    while d < 64 {
        table[d] = value;
        value /= 2.0;
        d += 1;
    }
    table
};

/// Distances from one side's queens to the empty squares, and the set of squares reached.
#[derive(Clone)]
pub struct DistanceMap {
    pub dist: [u8; SQUARES],
    pub reached: u128,
}

impl DistanceMap {
    /// By queen moves through empty squares, breadth-first from all of `queens` at once.
    pub fn queen(queens: u128, occupied: u128) -> DistanceMap {
        let mut map = DistanceMap { dist: [UNREACHED; SQUARES], reached: 0 };
        let empty = !occupied & GRID;
        let mut frontier = queens;
        let mut d = 0;
        while frontier != 0 {
            d += 1;
            let next = queen_fill(frontier, empty) & !map.reached;
            map.mark(next, d);
            frontier = next;
        }
        map
    }

    /// By king moves through empty squares; the whole frontier steps at once.
    pub fn king(queens: u128, empty: u128) -> DistanceMap {
        let mut map = DistanceMap { dist: [UNREACHED; SQUARES], reached: 0 };
        let mut frontier = queens;
        let mut d = 0;
        while frontier != 0 {
            d += 1;
            let next = neighbours(frontier) & empty & !map.reached;
            map.mark(next, d);
            frontier = next;
        }
        map
    }

    fn mark(&mut self, set: u128, d: u8) {
        for sq in Bits(set) {
            self.dist[sq] = d;
        }
        self.reached |= set;
    }
}

/// +1 when `mine` is nearer, -1 when `theirs` is, `tie` on equal reachable distances.
fn ownership(mine: u8, theirs: u8, tie: f32) -> f32 {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Greater => -1.0,
        std::cmp::Ordering::Equal if mine == UNREACHED => 0.0,
        std::cmp::Ordering::Equal => tie,
    }
}

/// The evaluation terms, side-to-move relative, before weighting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Terms {
    pub t1: f32,
    pub t2: f32,
    pub c1: f32,
    pub c2: f32,
    pub mobility: f32,
}

impl Terms {
    fn weighted(self, w: TermWeights) -> f32 {
        w.t1 * self.t1 + w.t2 * self.t2 + w.c1 * self.c1 + w.c2 * self.c2 + w.mobility * self.mobility
    }
}

/// Sum over one side's queens of their capped mobility, in [`MOBILITY_UNITS`].
fn mobility(pos: &Position, queens: u128) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if has_popcnt() {
        // SAFETY: the processor has the one feature `mobility_popcnt` is built for.
        return unsafe { mobility_popcnt(pos, queens) };
    }
    mobility_inline(pos, queens)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn mobility_popcnt(pos: &Position, queens: u128) -> f32 {
    mobility_inline(pos, queens)
}

#[inline(always)]
fn mobility_inline(pos: &Position, queens: u128) -> f32 {
    let occupied = pos.occupied_bits();
    let total: u32 = Bits(queens)
        .map(|q| Bits(queen_attacks(q, occupied)).map(|sq| pos.free_neighbours(sq)).sum::<u32>().min(MOBILITY_CAP))
        .sum();
    total as f32 * MOBILITY_UNITS / MOBILITY_CAP as f32
}

impl Position {
    /// The evaluation terms of this position (ties credited with `weights.tie`); `None` once
    /// the sides are separated (no empty square reachable by both), when [`race_score`]
    /// applies instead.
    pub fn terms(&self, weights: &Weights) -> Option<Terms> {
        self.terms_or_race(weights).ok()
    }

    /// [`Position::terms`], or once the sides are separated the squares each reaches (the side
    /// to move's first), read off the same distance maps.
    fn terms_or_race(&self, weights: &Weights) -> Result<Terms, (u32, u32)> {
        let me = self.side_to_move();
        let (mine, theirs) = (self.queen_bits(me), self.queen_bits(me.opponent()));
        let occupied = self.occupied_bits();
        let (q_me, q_opp) = (DistanceMap::queen(mine, occupied), DistanceMap::queen(theirs, occupied));
        if q_me.reached & q_opp.reached == 0 {
            return Err((q_me.reached.count_ones(), q_opp.reached.count_ones()));
        }
        let empty = self.empty_bits();
        let (k_me, k_opp) = (DistanceMap::king(mine, empty), DistanceMap::king(theirs, empty));
        let mut terms = Terms::default();
        for sq in Bits(q_me.reached | q_opp.reached) {
            terms.t1 += ownership(q_me.dist[sq], q_opp.dist[sq], weights.tie);
            terms.t2 += ownership(k_me.dist[sq], k_opp.dist[sq], weights.tie);
            terms.c1 += INFLUENCE[usize::from(q_me.dist[sq])] - INFLUENCE[usize::from(q_opp.dist[sq])];
            let lead = (f32::from(k_opp.dist[sq]) - f32::from(k_me.dist[sq])) / 6.0;
            terms.c2 += lead.clamp(-1.0, 1.0);
        }
        terms.c1 *= 2.0;
        terms.mobility = mobility(self, mine) - mobility(self, theirs);
        Ok(terms)
    }

    /// How far the game has gone, as the arrows shot on the 10x10 board the weights were tuned
    /// on: the arrows, scaled by that board's 92 squares free at the start against this one's.
    fn stage(&self) -> u32 {
        let free_at_start = (self.width() * self.height() - 2 * super::board::MAX_QUEENS) as u32;
        self.arrow_count() * 92 / free_at_start
    }

    /// Static evaluation from the side to move's point of view, with this position's weights.
    pub fn evaluate(&self) -> Score {
        self.evaluate_with(self.weights())
    }

    /// [`Position::evaluate`] with other weights, for tuning.
    pub fn evaluate_with(&self, weights: &Weights) -> Score {
        let terms = match self.terms_or_race(weights) {
            Ok(terms) => terms,
            Err((mine, theirs)) => return race_score(mine, theirs),
        };
        let score = (terms.weighted(weights.at(self.stage())) * SCALE).round() as Score;
        score.clamp(-RACE_BASE / 2, RACE_BASE / 2)
    }
}

/// Score of a filling race for the side to move, which can fill at most `mine` squares (one
/// per move: the queen's move frees one square and takes one, the arrow takes one) against at
/// most `theirs`. Moving first, it runs out first on equal counts, so it needs strictly more.
/// The counts are upper bounds (a region with dead ends cannot always be filled), so the score
/// stays far from mate and the search plays the race out.
pub fn race_score(mine: u32, theirs: u32) -> Score {
    let lead = mine as Score - theirs as Score;
    let base = if lead > 0 { RACE_BASE } else { -RACE_BASE };
    (base + lead * RACE_SQUARE).clamp(-(MAX_EVAL - 1), MAX_EVAL - 1)
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::sq;
    use super::*;
    use crate::amazons::{Color, Square};

    /// The build chosen at run time counts mobility as the portable one does.
    #[test]
    fn both_builds_count_mobility_alike() {
        super::super::board::tests::along_random_games(0x0a11_5123_5eed_0004, |pos| {
            for color in [Color::White, Color::Black] {
                let queens = pos.queen_bits(color);
                assert_eq!(mobility(pos, queens), mobility_inline(pos, queens), "{pos:?}");
            }
        });
    }

    #[test]
    fn the_start_is_balanced_and_symmetric() {
        let pos = Position::new();
        let terms = pos.terms(&WEIGHTS).unwrap();
        // Mirror-symmetric start: only the tie credit of the side to move separates the sides.
        assert!(terms.t1 > 0.0 && terms.c1.abs() < 1e-4 && terms.mobility.abs() < 1e-4, "{terms:?}");
        assert!((0..400).contains(&pos.evaluate()), "{}", pos.evaluate());
    }

    #[test]
    fn distances_by_queen_and_king_moves() {
        let pos = Position::from_setup(&[sq("a1")], &[sq("j10")], &[sq("b2")], Color::White).unwrap();
        let q = DistanceMap::queen(pos.queen_bits(Color::White), pos.occupied_bits());
        let k = DistanceMap::king(pos.queen_bits(Color::White), pos.empty_bits());
        assert_eq!(q.dist[sq("a10").index()], 1);
        assert_eq!(q.dist[sq("c3").index()], 2);
        // Kings must go round b2: three steps to c3, nine to i9.
        assert_eq!(k.dist[sq("c3").index()], 3);
        assert_eq!(k.dist[sq("i9").index()], 9);
        assert_eq!(q.dist[sq("a1").index()], UNREACHED);
        assert_eq!(q.reached, pos.empty_bits());
    }

    #[test]
    fn a_trapped_queen_costs_its_side() {
        // White's a1 queen can only step to b1, whose one free neighbour is c2.
        let arrows = ["a2", "b2", "c1"].map(sq);
        let trapped = Position::from_setup(&[sq("a1")], &[sq("j10")], &arrows, Color::White).unwrap();
        assert!(trapped.terms(&WEIGHTS).unwrap().mobility < 0.0);
        assert!(trapped.evaluate() < 0);
    }

    #[test]
    fn separated_regions_are_a_counted_race() {
        // Arrows fill ranks 5 and 6: 39 empty squares for White below, 39 for Black above.
        let wall: Vec<Square> = (0..20).map(|i| Square::new(i % 10, 4 + i / 10).unwrap()).collect();
        let even = Position::from_setup(&[sq("a1")], &[sq("j10")], &wall, Color::White).unwrap();
        assert!(even.terms(&WEIGHTS).is_none());
        // Equal counts: the side to move runs out first.
        assert_eq!(even.evaluate(), -RACE_BASE);
        let mut more = wall.clone();
        more.push(sq("j9"));
        let ahead = Position::from_setup(&[sq("a1")], &[sq("j10")], &more, Color::White).unwrap();
        assert_eq!(ahead.evaluate(), RACE_BASE + RACE_SQUARE);
        assert_eq!(race_score(3, 5), -RACE_BASE - 2 * RACE_SQUARE);
    }

    #[test]
    fn positions_evaluate_with_their_own_table() {
        let mut pos = Position::new();
        for text in ["d1-d7/g7", "j7-h7/h2", "g1-g6/e4"] {
            pos.play(pos.parse_move(text).unwrap()).unwrap();
        }
        // The default is the tuned table, as before the tables were selectable.
        assert!(std::ptr::eq(pos.weights(), &WEIGHTS));
        assert_eq!(pos.evaluate(), pos.evaluate_with(&WEIGHTS));
        let patent = pos.clone().with_weights(&PATENT_WEIGHTS);
        assert_eq!(patent.evaluate(), pos.evaluate_with(&PATENT_WEIGHTS));
        assert_ne!(patent.evaluate(), pos.evaluate());
    }
}
