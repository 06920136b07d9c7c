//! Gomoku: board, pattern tables, evaluation, move generation and threat search, offered to
//! the generic search through [`Game`].

pub mod bench;
mod board;
pub mod eval;
mod movegen;
pub mod notation;
pub mod pattern;
mod renju;
pub mod swap2;
pub mod threat;
mod vcf;

pub use board::{Board, BoardError, Color, MAX_SIZE, MIN_SIZE, Move, MoveError, Rule};

use crate::game::{Game, Outcome};
use crate::search::score::Score;
use threat::Threat;

/// Builds the shared tables of every rule the engine plays (about 0.2 s), so that no move's
/// clock pays for them: managers send `INFO rule` and the first move together.
pub fn build_tables() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        pattern::PatternTable::for_rule(rule);
    }
    eval::CellTable::get(false);
    eval::CellTable::get(true);
}

impl Game for Board {
    type Move = Move;

    const HISTORY_SIZE: usize = board::CELLS;

    fn hash(&self) -> u64 {
        Board::hash(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.winner() {
            Some(if winner == self.side_to_move() { Outcome::Win } else { Outcome::Loss })
        } else if self.is_full() {
            Some(Outcome::Draw)
        } else {
            None
        }
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
        Board::evaluate(self)
    }

    fn encode_move(mv: Move) -> u32 {
        mv.index() as u32
    }

    fn decode_move(&self, code: u32) -> Option<Move> {
        let index = code as usize;
        if index >= board::CELLS {
            return None;
        }
        let mv = Move::from_index(index);
        (self.contains(mv) && self.is_empty(mv)).then_some(mv)
    }

    fn history_index(mv: Move) -> usize {
        mv.index()
    }

    fn order_score(&self, mv: Move) -> i32 {
        self.move_order_score(mv)
    }

    fn prove_win(&mut self, max_nodes: u32) -> Option<(Move, u32)> {
        if self.is_over() {
            return None;
        }
        self.find_vcf(max_nodes)
    }

    fn is_threatened(&self) -> bool {
        !self.is_over() && self.threat_count(self.side_to_move().opponent(), Threat::Five) > 0
    }

    fn is_tactical(&self, mv: Move) -> bool {
        let me = self.side_to_move();
        self.threat(mv, me) >= Threat::Three || self.threat(mv, me.opponent()) >= Threat::Three
    }
}
