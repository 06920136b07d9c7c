//! Legal moves: generation, counting (perft) and checking one given move.
//!
//! A move is generated queen by queen, destination by destination; the arrows from a
//! destination are the queen attacks from it with the starting square emptied. Counting needs
//! no list: at the last ply the arrows of all a queen's landing squares are counted together
//! ([`count_queen_moves`]).

use super::attacks::{BOARD, Bits, count_queen_moves, line_between, queen_attacks};
use super::board::{Move, Position, Square};
use super::notation::MoveError;

impl Position {
    /// Appends every legal move of the side to move to `out`.
    pub fn generate(&self, out: &mut Vec<Move>) {
        let occ = self.occupied_bits();
        for from in Bits(self.queen_bits(self.side_to_move())) {
            let vacated = occ ^ 1 << from;
            for to in Bits(queen_attacks(from, occ)) {
                for arrow in Bits(queen_attacks(to, vacated)) {
                    out.push(Move { from: square(from), to: square(to), arrow: square(arrow) });
                }
            }
        }
    }

    /// Every legal move of the side to move, queen by queen in square order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate(&mut moves);
        moves
    }

    /// How many legal moves the side to move has: per queen, the arrows from all its landing
    /// squares, counted together with its own square emptied.
    pub fn count_moves(&self) -> u64 {
        let occ = self.occupied_bits();
        Bits(self.queen_bits(self.side_to_move()))
            .map(|from| u64::from(count_queen_moves(queen_attacks(from, occ), !(occ ^ 1 << from) & BOARD)))
            .sum()
    }

    /// Leaf positions `depth` plies ahead (1 for depth 0), counted in bulk at the last ply.
    pub fn perft(&self, depth: u32) -> u64 {
        fn walk(pos: &mut Position, depth: u32, moves: &mut Vec<Vec<Move>>) -> u64 {
            if depth == 1 {
                return pos.count_moves();
            }
            let mut list = moves.pop().unwrap_or_default();
            list.clear();
            pos.generate(&mut list);
            let mut total = 0;
            for &mv in &list {
                pos.make(mv);
                total += walk(pos, depth - 1, moves);
                pos.unmake(mv);
            }
            moves.push(list);
            total
        }
        if depth == 0 {
            return 1;
        }
        walk(&mut self.clone(), depth, &mut Vec::new())
    }

    /// Why `mv` is not legal for the side to move here, if it is not.
    pub fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        let me = self.side_to_move();
        if self.is_over() {
            return Err(MoveError::GameOver { loser: me });
        }
        if self.queen_bits(me) & mv.from.bit() == 0 {
            return Err(MoveError::NoQueen { square: mv.from, color: me });
        }
        let occ = self.occupied_bits();
        let between =
            line_between(mv.from.index(), mv.to.index()).ok_or(MoveError::NotQueenLine { from: mv.from, to: mv.to })?;
        if let Some(at) = first_blocker(mv.from, mv.to, between, occ) {
            return Err(MoveError::QueenBlocked { from: mv.from, to: mv.to, at });
        }
        let between = line_between(mv.to.index(), mv.arrow.index())
            .ok_or(MoveError::ArrowNotQueenLine { from: mv.to, to: mv.arrow })?;
        if let Some(at) = first_blocker(mv.to, mv.arrow, between, occ ^ mv.from.bit()) {
            return Err(MoveError::ArrowBlocked { from: mv.to, to: mv.arrow, at });
        }
        Ok(())
    }
}

/// The occupied square nearest `from` on its way to `to` (`to` itself included).
fn first_blocker(from: Square, to: Square, between: u128, occ: u128) -> Option<Square> {
    let blockers = (between | to.bit()) & occ;
    if blockers == 0 {
        return None;
    }
    let index = if to > from { blockers.trailing_zeros() } else { 127 - blockers.leading_zeros() };
    Some(square(index as usize))
}

fn square(index: usize) -> Square {
    Square::from_index(index).expect("bitboards hold board squares only")
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::sq;
    use super::*;
    use crate::amazons::Color;

    #[test]
    fn perft_of_the_start() {
        let pos = Position::new();
        assert_eq!(pos.perft(0), 1);
        assert_eq!(pos.perft(1), 2176);
        assert_eq!(pos.legal_moves().len(), 2176);
        assert_eq!(pos.perft(2), 4_307_152);
    }

    #[test]
    fn generated_moves_are_legal_and_distinct() {
        let mut pos = Position::new();
        for text in ["d1-d7/g7", "g10-e8/e2", "a4-b5/c6"] {
            pos.play(pos.parse_move(text).unwrap()).unwrap();
        }
        let moves = pos.legal_moves();
        assert_eq!(moves.len() as u64, pos.count_moves());
        assert!(moves.iter().all(|&m| pos.check_move(m).is_ok()));
        let mut codes: Vec<u32> = moves.iter().map(|m| m.encode()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), moves.len());
    }

    #[test]
    fn shooting_back_through_the_vacated_square() {
        // Walled in by arrows, the queen on a1 can only step to a2 and shoot back to a1.
        let arrows = ["b1", "b2", "b3", "a3"].map(sq);
        let pos = Position::from_setup(&[sq("a1")], &[sq("j10")], &arrows, Color::White).unwrap();
        let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["a1-a2/a1"]);
    }
}
