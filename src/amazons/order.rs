//! Cheap move ordering: a node has about two thousand moves and the search looks at only the
//! first few, so each move is scored by a few lookups instead of an evaluation.
//!
//! The score is linear in features of the move read off the node's queen distances; the
//! per-square parts are tabled once per node ([`OrderContext`], built by one call of
//! [`Position::order_scores`] there, from the search or the solver) and shared by all its moves,
//! which made ordering almost three times cheaper than scoring each move from the bitboards
//! (28 against 78 ns a move, the tables included). The weights were fitted by least squares to
//! the evaluation after each move, on 144 positions sampled from 16 self-play games, and
//! checked on 143 others: there the evaluation-best move ranks 15th in the median (30th with
//! the hand-set weights they replaced) and is among the first eight in 59 nodes of 143 (34
//! before). What pays: an arrow on a square the opponent reaches first or as soon as we do, a
//! landing square he reaches in one move, room around the landing square, moving a cramped
//! queen rather than a free one, and shooting back where the queen came from; arrows on
//! squares we reach in one or two moves cost.

#[cfg(target_arch = "x86_64")]
use super::attacks::has_popcnt;
use super::attacks::{Bits, GRID, SQUARES, king_attacks};
use super::board::{Move, Position};
use super::eval::{DistanceMap, UNREACHED};

/// Arrow on a square the opponent reaches strictly first, or as soon as we do.
const ARROW_THEIRS: i32 = 206;
const ARROW_CONTESTED: i32 = 104;
/// Arrow by the opponent's distance to its square (1, 2, 3 queen moves).
const ARROW_THEIR_DISTANCE: [i32; 3] = [14, 31, 62];
/// Arrow by our distance to its square (1, 2 queen moves): our own territory.
const ARROW_OUR_DISTANCE: [i32; 2] = [-29, -59];
/// Per opponent queen next to the arrow, and per own queen next to it after the move.
const ARROW_NEXT_TO_THEM: i32 = 50;
const ARROW_NEXT_TO_US: i32 = -10;
/// The arrow goes back to the square the queen left.
const ARROW_BACK: i32 = 88;
/// Per free neighbour of the landing square after the move, and of the starting square before.
const LANDING_ROOM: i32 = 92;
const STARTING_ROOM: i32 = -66;
/// Landing square the opponent reaches in one queen move.
const LANDING_CONTESTED: i32 = 160;
/// Per opponent queen next to the landing square.
const LANDING_NEXT_TO_THEM: i32 = 66;

/// The parts of a move's score that depend on one square only, per square, computed once per
/// node; a move's score is then three lookups and a few adjacency corrections.
#[derive(Clone)]
struct OrderContext {
    /// For an arrow on the square (other than the one the queen leaves), before the move.
    arrow: [i32; SQUARES],
    /// For a queen landing on the square, counting its free neighbours before the move.
    landing: [i32; SQUARES],
    /// For a queen leaving the square.
    starting: [i32; SQUARES],
}

impl OrderContext {
    #[inline(always)]
    fn new(pos: &Position) -> OrderContext {
        let me = pos.side_to_move();
        let occupied = pos.occupied_bits();
        let (mine, theirs) = (pos.queen_bits(me), pos.queen_bits(me.opponent()));
        let our_distance = DistanceMap::queen(mine, occupied);
        let their_distance = DistanceMap::queen(theirs, occupied);
        let free = |square: usize| (king_attacks(square) & !occupied).count_ones() as i32;
        let next_to = |square: usize, queens: u128| (king_attacks(square) & queens).count_ones() as i32;
        let mut context = OrderContext { arrow: [0; SQUARES], landing: [0; SQUARES], starting: [0; SQUARES] };
        for sq in Bits(!occupied & GRID) {
            let (ours, their) = (our_distance.dist[sq], their_distance.dist[sq]);
            let mut arrow = ARROW_NEXT_TO_THEM * next_to(sq, theirs) + ARROW_NEXT_TO_US * next_to(sq, mine);
            if their < ours {
                arrow += ARROW_THEIRS;
            } else if their == ours && their != UNREACHED {
                arrow += ARROW_CONTESTED;
            }
            arrow += ARROW_THEIR_DISTANCE.get(usize::from(their).wrapping_sub(1)).copied().unwrap_or(0);
            arrow += ARROW_OUR_DISTANCE.get(usize::from(ours).wrapping_sub(1)).copied().unwrap_or(0);
            context.arrow[sq] = arrow;
            context.landing[sq] = LANDING_ROOM * free(sq) + LANDING_NEXT_TO_THEM * next_to(sq, theirs);
            if their == 1 {
                context.landing[sq] += LANDING_CONTESTED;
            }
        }
        for sq in Bits(mine) {
            context.starting[sq] = STARTING_ROOM * free(sq);
        }
        context
    }
}

/// 1 when `a` and `b` are a king step apart.
fn adjacent(a: usize, b: usize) -> i32 {
    (king_attacks(a) >> b & 1) as i32
}

impl Position {
    /// Ordering hints for `moves`, legal moves of the side to move, into `out`: higher first.
    pub(crate) fn order_scores(&self, moves: &[Move], out: &mut Vec<i32>) {
        #[cfg(target_arch = "x86_64")]
        if has_popcnt() {
            // SAFETY: the processor has the one feature `order_scores_popcnt` is built for.
            return unsafe { self.order_scores_popcnt(moves, out) };
        }
        self.order_scores_inline(moves, out);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn order_scores_popcnt(&self, moves: &[Move], out: &mut Vec<i32>) {
        self.order_scores_inline(moves, out);
    }

    #[inline(always)]
    fn order_scores_inline(&self, moves: &[Move], out: &mut Vec<i32>) {
        let context = OrderContext::new(self);
        out.clear();
        out.reserve(moves.len());
        // A loop rather than `extend`, which would be a function of its own built without `popcnt`.
        for &mv in moves {
            out.push(self.move_order_score(&context, mv));
        }
    }

    /// Ordering hint for a legal move of the side to move, `context` tabled for this position:
    /// higher first.
    #[inline(always)]
    fn move_order_score(&self, context: &OrderContext, mv: Move) -> i32 {
        let (from, to, arrow) = (mv.from.index(), mv.to.index(), mv.arrow.index());
        // The landing square gains the square the queen left as a free neighbour, loses the arrow's.
        let mut score = context.landing[to] + context.starting[from];
        score += LANDING_ROOM * (adjacent(to, from) - adjacent(to, arrow));
        if arrow == from {
            let me = self.side_to_move();
            let near = king_attacks(from);
            let theirs = (near & self.queen_bits(me.opponent())).count_ones() as i32;
            let ours = (near & self.queen_bits(me)).count_ones() as i32 + adjacent(from, to);
            score += ARROW_BACK + ARROW_NEXT_TO_THEM * theirs + ARROW_NEXT_TO_US * ours;
        } else {
            // Our queens next to the arrow: the moved one now counts from where it landed.
            score += context.arrow[arrow] + ARROW_NEXT_TO_US * (adjacent(arrow, to) - adjacent(arrow, from));
        }
        score
    }
}

#[cfg(test)]
mod tests {
    /// The build chosen at run time scores every move as the portable one does.
    #[test]
    fn both_builds_order_alike() {
        let (mut chosen, mut portable) = (Vec::new(), Vec::new());
        super::super::board::tests::along_random_games(0x0a11_5123_5eed_0003, |pos| {
            let moves = pos.legal_moves();
            pos.order_scores(&moves, &mut chosen);
            pos.order_scores_inline(&moves, &mut portable);
            assert_eq!(chosen, portable, "{pos:?}");
        });
    }
}
