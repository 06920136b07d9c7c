//! The Game of the Amazons on boards from 5x5 to 11x11: `u128` bitboards, move generation and
//! perft, notation, the territory evaluation, and the [`Game`] implementation that lets the
//! generic search play it.
//!
//! The branching factor is about two thousand, so the search is made selective here: moves get
//! a cheap static ordering (`order.rs`) and only the first [`max_width`] of them are searched.

mod attacks;
pub mod bench;
mod board;
pub mod eval;
mod movegen;
mod notation;
mod order;
mod playable;
pub mod solve;
mod weights;

pub use board::{Color, MAX_QUEENS, Move, Position, SetupError, Square};
pub use notation::MoveError;

use crate::game::{Game, Outcome, Proof};
use crate::score::Score;
use attacks::SQUARES;

/// Moves searched at a node with `depth` plies left, after ordering; the rest are dropped.
///
/// One ply from the horizon a move costs one evaluation, and this is where the cheap ordering
/// would otherwise hide the best reply, so the cap is loose there (the evaluation-best move is
/// almost always among the first 300; at non-PV nodes the search's late-move pruning keeps
/// only the first few anyway). Higher up, where a move costs a subtree, the cap keeps deep
/// iterations affordable. Measured in matches at 0.1 s a move: full width at depth 1 with
/// 64/48/32 above beat caps of 24/32/48/64 (depth 1/2/3/4+) 8-4 in 12 games; these caps then
/// drew 6-6 with it, uncapped search 6-6 with these caps, and 300 at depth 1 scored 8-8 against
/// uncapped depth 1 while sparing the sort of two thousand moves at every such node (100
/// scored 6-10).
pub fn max_width(depth: u32) -> usize {
    match depth {
        0 | 1 => 300,
        2 => 96,
        _ => 128,
    }
}

impl Game for Position {
    type Move = Move;

    /// Indexed by landing square and arrow square.
    const HISTORY_SIZE: usize = SQUARES * SQUARES;

    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        (!self.has_moves()).then_some(Outcome::Loss)
    }

    fn generate_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }

    fn make_move(&mut self, mv: Move) {
        self.make(mv);
    }

    fn unmake_move(&mut self, mv: Move) {
        self.unmake(mv);
    }

    fn evaluate(&self) -> Score {
        Position::evaluate(self)
    }

    fn encode_move(mv: Move) -> u32 {
        mv.encode()
    }

    fn decode_move(&self, code: u32) -> Option<Move> {
        Move::decode(code).filter(|&mv| self.check_move(mv).is_ok())
    }

    fn history_index(mv: Move) -> usize {
        mv.to.index() * SQUARES + mv.arrow.index()
    }

    fn order_scores(&self, moves: &[Move], out: &mut Vec<i32>) {
        Position::order_scores(self, moves, out);
    }

    fn max_moves(&self, depth: u32) -> Option<usize> {
        Some(max_width(depth))
    }

    /// The exact solver, once the regions both sides reach are small, resuming its earlier
    /// tries: a win it proves is played. It does not say how long the win takes, so its length
    /// is the game's most ([`solve::most_plies`]).
    fn solve_threats(&mut self, max_nodes: u64) -> Proof<Move> {
        if !solve::worth_solving(self) {
            return Proof { win: None, nodes: 0 };
        }
        let solution = solve::solve_resuming(self, max_nodes);
        let plies = solve::most_plies(self);
        let win = solution.best.filter(|_| solution.winner == Some(self.side_to_move())).map(|mv| (mv, plies));
        Proof { win, nodes: solution.nodes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Playable;

    fn square(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn a_proved_win_lasts_no_longer_than_the_squares_the_queens_reach() {
        // Each queen walled into three squares of its own: six plies at most, one fewer a ply.
        let mut pos = Position::new().set_up("white a1 black j10 arrows a5 b1 b2 b3 b4 b5 i6 i7 i8 i9 i10 j6").unwrap();
        assert_eq!(solve::most_plies(&pos), 6);
        pos.make(pos.legal_moves()[0]);
        assert_eq!(solve::most_plies(&pos), 5);
        assert_eq!(solve::most_plies(&Position::new()), 92);
    }

    #[test]
    fn moves_survive_the_transposition_table() {
        let pos = Position::new();
        for mv in pos.legal_moves().into_iter().step_by(97) {
            assert_eq!(pos.decode_move(Position::encode_move(mv)), Some(mv));
            assert!(Position::history_index(mv) < Position::HISTORY_SIZE);
        }
        // A code whose move is not legal here decodes to nothing.
        let illegal = Move::new(square("e5"), square("e6"), square("e7"));
        assert_eq!(pos.decode_move(illegal.encode()), None);
        assert_eq!(pos.decode_move(1 << 23), None);
    }

    #[test]
    fn the_side_that_cannot_move_has_lost() {
        let arrows = ["a2", "b1", "b2"].map(square);
        let pos = Position::from_setup(&[square("a1")], &[square("j10")], &arrows, Color::White).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Loss));
        assert_eq!(Position::new().outcome(), None);
    }
}
