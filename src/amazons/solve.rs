//! An exact solver for small boards and late endings: who wins with best play, and a winning
//! first move.
//!
//! Depth-first proof-number search (df-pn, Nagai 2002) in negamax form: every position keeps
//! a proof number (about how many positions must still be solved to show that the side to
//! move wins) and a disproof number (to show that it loses). A position's proof number is the
//! least disproof number of its children, its disproof number the sum of their proof numbers,
//! and the search always extends the child that looks cheapest to settle, within thresholds,
//! so it neither commits to one line as a plain depth-first search does nor keeps the whole
//! tree in memory. A table keyed by the position's Zobrist key (side to move included) holds
//! the numbers, so the many transpositions of Amazons (the same arrows shot in another order)
//! are worked on once. A side without a move has lost. Once no empty square is reachable by
//! both sides, each side's count of moves is a one-player question (how many moves its queens
//! can make in their own regions), solved exactly and separately: the side to move wins when
//! it can make strictly more moves than its opponent. A position not yet expanded starts with
//! proof number 1 and its count of moves as disproof number (all must be refuted), so the
//! search favours moves that leave the opponent few replies; among equals, the play search's
//! cheap order (`order.rs`) decides. A child is worked on until its numbers pass the
//! runner-up's by a quarter (the 1 + ε trick of Pawlewicz and Lew), which spares the search
//! switching back and forth between two close children.

use super::attacks::{Bits, queen_attacks};
use super::board::{Color, Move, Position};
use super::eval::DistanceMap;
use super::order::OrderContext;
use rustc_hash::FxHashMap;

/// A proof or disproof number that is settled: the other one is then 0.
const INFINITE: u32 = u32::MAX / 4;

/// What [`solve`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// `None` when the node budget ran out first.
    pub winner: Option<Color>,
    /// A winning first move of the side to move, when it wins.
    pub best: Option<Move>,
    /// Positions expanded and one-player fills searched.
    pub nodes: u64,
}

/// Solves `pos` exactly, giving up after about `max_nodes` nodes.
pub fn solve(pos: &Position, max_nodes: u64) -> Solution {
    let mut solver = Solver { numbers: FxHashMap::default(), fills: FxHashMap::default(), nodes: 0, max_nodes };
    let mut pos = pos.clone();
    let me = pos.side_to_move();
    if solver.expand(&mut pos, INFINITE, INFINITE).is_none() {
        return Solution { winner: None, best: None, nodes: solver.nodes };
    }
    // Settled one way or the other, unless the numbers grew past what they can count.
    match solver.numbers(&pos) {
        (0, _) => {}
        (_, 0) => return Solution { winner: Some(me.opponent()), best: None, nodes: solver.nodes },
        _ => return Solution { winner: None, best: None, nodes: solver.nodes },
    }
    let best = pos.legal_moves().into_iter().find(|&mv| {
        pos.make(mv);
        let (_, disproof) = solver.numbers(&pos);
        pos.unmake(mv);
        disproof == 0
    });
    Solution { winner: Some(me), best, nodes: solver.nodes }
}

struct Solver {
    /// Proof and disproof numbers for the side to move, by Zobrist key.
    numbers: FxHashMap<u64, (u32, u32)>,
    /// The most moves a side's queens can make alone, by (its queens, the occupied squares).
    fills: FxHashMap<(u128, u128), u32>,
    nodes: u64,
    max_nodes: u64,
}

impl Solver {
    /// The numbers of `pos`: from the table, or 1 and 1 for a position never expanded.
    fn numbers(&self, pos: &Position) -> (u32, u32) {
        self.numbers.get(&pos.hash()).copied().unwrap_or((1, 1))
    }

    /// Works on `pos` until its proof number reaches `proof_limit` or its disproof number
    /// `disproof_limit` (both reached once it is settled); `None` once the budget is spent.
    fn expand(&mut self, pos: &mut Position, proof_limit: u32, disproof_limit: u32) -> Option<()> {
        self.spend()?;
        // A position in the table has been looked at: it is not one settled without a search.
        if !self.numbers.contains_key(&pos.hash())
            && let Some(wins) = self.exact(pos)?
        {
            self.numbers.insert(pos.hash(), if wins { (0, INFINITE) } else { (INFINITE, 0) });
            return Some(());
        }
        let moves = self.ordered_moves(pos);
        // Each child's key, and its numbers before it is expanded (for its side to move, the
        // opponent): to disprove a position takes refuting each of its moves, so its
        // disproof number starts at their count, and a child without a move is lost.
        let children: Vec<(u64, (u32, u32))> = moves
            .iter()
            .map(|&mv| {
                pos.make(mv);
                let replies = pos.count_moves().min(u64::from(INFINITE)) as u32;
                let child = (pos.hash(), if replies == 0 { (INFINITE, 0) } else { (1, replies) });
                pos.unmake(mv);
                child
            })
            .collect();
        loop {
            let (mut proof, mut disproof) = (INFINITE, 0u32);
            let (mut chosen, mut chosen_proof, mut second) = (0, 0, INFINITE);
            for (i, &(key, initial)) in children.iter().enumerate() {
                let (child_proof, child_disproof) = self.numbers.get(&key).copied().unwrap_or(initial);
                disproof = disproof.saturating_add(child_proof).min(INFINITE);
                if child_disproof < proof {
                    (second, proof) = (proof, child_disproof);
                    (chosen, chosen_proof) = (i, child_proof);
                } else if child_disproof < second {
                    second = child_disproof;
                }
            }
            self.numbers.insert(pos.hash(), (proof, disproof));
            if proof >= proof_limit || disproof >= disproof_limit {
                return Some(());
            }
            let child_proof_limit = disproof_limit.saturating_sub(disproof - chosen_proof);
            let child_disproof_limit = proof_limit.min(second.saturating_add(second / 4 + 1));
            let mv = moves[chosen];
            pos.make(mv);
            let done = self.expand(pos, child_proof_limit, child_disproof_limit);
            pos.unmake(mv);
            done?;
        }
    }

    /// Counts a node; `None` past the budget.
    fn spend(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= self.max_nodes).then_some(())
    }

    fn ordered_moves(&self, pos: &Position) -> Vec<Move> {
        let context = OrderContext::new(pos);
        let mut scored: Vec<(i32, Move)> =
            pos.legal_moves().into_iter().map(|mv| (pos.move_order_score(&context, mv), mv)).collect();
        scored.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        scored.into_iter().map(|(_, mv)| mv).collect()
    }

    /// Whether the side to move wins, where that is known without a search: `Some(false)`
    /// without a move, the count of moves once the sides are separated, `None` while they
    /// still meet. `None` (outside) once the budget is spent.
    fn exact(&mut self, pos: &Position) -> Option<Option<bool>> {
        if !pos.has_moves() {
            return Some(Some(false));
        }
        let occupied = pos.occupied_bits();
        let me = pos.side_to_move();
        let (mine, theirs) = (pos.queen_bits(me), pos.queen_bits(me.opponent()));
        if DistanceMap::queen(mine, occupied).reached & DistanceMap::queen(theirs, occupied).reached != 0 {
            return Some(None);
        }
        let my_moves = self.fill(mine, occupied)?;
        let their_moves = self.fill(theirs, occupied)?;
        Some(Some(my_moves > their_moves))
    }

    /// The most moves `queens` can make one after another with nobody else moving. Each move
    /// fills one square of their regions, so it is at most the squares they reach, and a line
    /// of moves that long ends the search.
    fn fill(&mut self, queens: u128, occupied: u128) -> Option<u32> {
        if let Some(&known) = self.fills.get(&(queens, occupied)) {
            return Some(known);
        }
        self.spend()?;
        let bound = DistanceMap::queen(queens, occupied).reached.count_ones();
        let mut most = 0;
        'moves: for from in Bits(queens) {
            let vacated = occupied ^ 1 << from;
            for to in Bits(queen_attacks(from, occupied)) {
                for arrow in Bits(queen_attacks(to, vacated)) {
                    let after = vacated | 1 << to | 1 << arrow;
                    most = most.max(1 + self.fill(queens ^ 1 << from | 1 << to, after)?);
                    if most == bound {
                        break 'moves;
                    }
                }
            }
        }
        self.fills.insert((queens, occupied), most);
        Some(most)
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::sq;
    use super::*;

    /// The side to move wins exactly when some move leaves the opponent lost: the plain
    /// definition, searched without the numbers, the table, the order or the separated count.
    fn plain_wins(pos: &mut Position) -> bool {
        pos.legal_moves().into_iter().any(|mv| {
            pos.make(mv);
            let lost = !plain_wins(pos);
            pos.unmake(mv);
            lost
        })
    }

    /// Small endings, crowded with arrows so that the plain search finishes: the solver's
    /// verdict matches it, and its move wins.
    #[test]
    fn verdicts_match_the_plain_definition() {
        let mut keys = crate::zobrist::KeyStream::new(0x501e_0000_0000_0001);
        let (mut checked, mut won) = (0, 0);
        while checked < 40 {
            let mut pos = Position::start(5, 5).unwrap();
            // Random moves until about eight empty squares are left.
            while pos.arrow_count() < 9 && !pos.is_over() {
                let moves = pos.legal_moves();
                pos.play(moves[(keys.next_key() % moves.len() as u64) as usize]).unwrap();
            }
            if pos.is_over() {
                continue;
            }
            let solution = solve(&pos, u64::MAX);
            let me = pos.side_to_move();
            let expected = if plain_wins(&mut pos.clone()) { me } else { me.opponent() };
            assert_eq!(solution.winner, Some(expected), "{pos:?}");
            won += usize::from(expected == me);
            if let Some(best) = solution.best {
                let mut after = pos.clone();
                after.play(best).unwrap();
                assert!(!plain_wins(&mut after), "{best} does not win\n{pos:?}");
            }
            checked += 1;
        }
        assert!((10..=30).contains(&won), "{won} of 40 won: the sample should hold both verdicts");
    }

    #[test]
    fn separated_sides_count_their_own_moves() {
        // White's a1 queen has a1..a5 with b-file arrows: four moves (down a file of five).
        // Black's e5 queen has the c..e files, far more: Black wins whoever moves.
        let arrows = ["b1", "b2", "b3", "b4", "b5"].map(sq);
        for side in [Color::White, Color::Black] {
            let pos = Position::from_setup_sized(5, 5, &[sq("a1")], &[sq("e5")], &arrows, side).unwrap();
            assert_eq!(solve(&pos, u64::MAX).winner, Some(Color::Black));
        }
        // Files a and e, four moves each: the side to move runs out first and loses.
        let arrows = ["b1", "b2", "b3", "b4", "b5", "d1", "d2", "d3", "d4", "d5"].map(sq);
        for side in [Color::White, Color::Black] {
            let pos = Position::from_setup_sized(5, 5, &[sq("a1")], &[sq("e1")], &arrows, side).unwrap();
            assert_eq!(solve(&pos, u64::MAX).winner, Some(side.opponent()));
        }
    }

    #[test]
    fn an_exhausted_budget_proves_nothing() {
        let solution = solve(&Position::start(6, 5).unwrap(), 1_000);
        assert_eq!((solution.winner, solution.best), (None, None));
        assert!(solution.nodes > 1_000);
    }
}
