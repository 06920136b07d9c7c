//! The Game of the Amazons on the standard 10x10 board: `u128` bitboards, move generation and
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

pub use board::{Color, MAX_QUEENS, Move, Position, SetupError, Square};
pub use notation::MoveError;

use crate::game::{Game, Outcome};
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
        let context = order::OrderContext::new(self);
        out.clear();
        out.extend(moves.iter().map(|&mv| self.move_order_score(&context, mv)));
    }

    fn max_moves(&self, depth: u32) -> Option<usize> {
        Some(max_width(depth))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    use super::*;
    use crate::engine::Engine;
    use crate::search::limits::SearchLimits;

    fn square(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn best_move(engine: &mut Engine, pos: &Position, depth: u32) -> (Move, Score) {
        let stop = AtomicBool::new(false);
        let result = engine.go(pos, &SearchLimits::depth(depth), Instant::now(), &stop, &mut |_| {});
        (result.best_move.expect("a move while the game is on"), result.score)
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

    /// A shallow search against a random mover, both colours: the engine wins every game and
    /// only ever plays legal moves.
    #[test]
    fn beats_a_random_mover() {
        let mut engine = Engine::new(8, 1);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for engine_colour in [Color::White, Color::Black] {
            engine.new_game();
            let mut pos = Position::new();
            while !pos.is_over() {
                let mv = if pos.side_to_move() == engine_colour {
                    best_move(&mut engine, &pos, 2).0
                } else {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let moves = pos.legal_moves();
                    moves[(seed % moves.len() as u64) as usize]
                };
                pos.play(mv).unwrap();
            }
            assert_eq!(pos.winner(), Some(engine_colour), "{pos:?}");
        }
    }

    /// Two sealed corridors: White's queen on a1 with b1..g1 free (six moves), Black's on a10
    /// with b10..f10 free (five). Whoever moves first, White wins the race, and neither side
    /// wastes a square on the way.
    #[test]
    fn plays_a_filling_race_out_exactly() {
        let mut arrows: Vec<Square> = ["h1", "j10", "g10"].map(square).to_vec();
        arrows.extend((0..10).map(|file| Square::new(file, 1).unwrap()));
        arrows.extend((0..10).map(|file| Square::new(file, 8).unwrap()));
        let mut engine = Engine::new(8, 1);
        for first in [Color::White, Color::Black] {
            let mut pos = Position::from_setup(&[square("a1")], &[square("a10")], &arrows, first).unwrap();
            let (_, score) = best_move(&mut engine, &pos, 1);
            assert_eq!(score > 0, first == Color::White, "{score}");
            while !pos.is_over() {
                let (mv, _) = best_move(&mut engine, &pos, 6);
                pos.play(mv).unwrap();
            }
            // A wasted square would end the game a move early (Black) or lose it (White).
            assert_eq!(pos.winner(), Some(Color::White));
            assert_eq!(pos.history().len(), if first == Color::White { 11 } else { 10 });
        }
    }
}
