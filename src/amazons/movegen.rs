//! Legal moves: generation, counting (perft) and checking one given move.
//!
//! A move is generated queen by queen, destination by destination; the arrows from a
//! destination are the queen attacks from it with the starting square emptied. Counting needs
//! no list: the arrows of all the landing squares are counted together ([`count_queen_moves`]),
//! and perft's last two plies run on the occupied squares without making the moves.

#[cfg(target_arch = "x86_64")]
use super::attacks::has_popcnt;
use super::attacks::{Bits, GRID, count_queen_moves, line_between, queen_attacks, queen_attacks_and_vacating_gain};
use super::board::{MAX_QUEENS, Move, Position, Square};
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

    /// How many legal moves the side to move has.
    pub fn count_moves(&self) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if has_popcnt() {
            // SAFETY: the processor has the one feature `count_moves_popcnt` is built for.
            return unsafe { count_moves_popcnt(self) };
        }
        self.count_moves_inline()
    }

    #[inline(always)]
    fn count_moves_inline(&self) -> u64 {
        count_moves_of(self.queen_bits(self.side_to_move()), self.occupied_bits())
    }

    /// The sum of the opponent's legal moves after each legal move: perft's last two plies,
    /// walked on the occupied squares alone (the opponent's queens stay where they are).
    fn count_replies(&self) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if has_popcnt() {
            // SAFETY: the processor has the one feature `count_replies_popcnt` is built for.
            return unsafe { count_replies_popcnt(self) };
        }
        self.count_replies_inline()
    }

    #[inline(always)]
    fn count_replies_inline(&self) -> u64 {
        let occ = self.occupied_bits();
        let theirs = self.queen_bits(self.side_to_move().opponent());
        let mut total = 0;
        for from in Bits(self.queen_bits(self.side_to_move())) {
            let vacated = occ ^ 1 << from;
            for to in Bits(queen_attacks(from, occ)) {
                let landed = vacated | 1 << to;
                for arrow in Bits(queen_attacks(to, vacated)) {
                    total += count_moves_of(theirs, landed | 1 << arrow);
                }
            }
        }
        total
    }

    /// Leaf positions `depth` plies ahead (1 for depth 0), the last two plies counted without
    /// making their moves.
    pub fn perft(&self, depth: u32) -> u64 {
        fn walk(pos: &mut Position, depth: u32, moves: &mut Vec<Vec<Move>>) -> u64 {
            if depth == 2 {
                return pos.count_replies();
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
        match depth {
            0 => return 1,
            1 => return self.count_moves(),
            _ => {}
        }
        walk(&mut self.clone(), depth, &mut Vec::new())
    }

    /// Why `mv` is not legal for the side to move here, if it is not.
    pub fn check_move(&self, mv: Move) -> Result<(), MoveError> {
        let me = self.side_to_move();
        if self.is_over() {
            return Err(MoveError::GameOver { loser: me });
        }
        if let Some(square) = [mv.from, mv.to, mv.arrow].into_iter().find(|&s| !self.contains(s)) {
            return Err(MoveError::OffBoard { square: square.to_string(), corner: self.corner().to_string() });
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

/// Legal moves of the queens `queens` among the occupied squares `occ`. Each landing square is
/// counted once per queen that reaches it: the squares reached by at least one, two, ... queens
/// are layers, and one walk per layer counts their arrows with every queen in place; the arrows
/// that pass through a queen's vacated square are added per queen.
#[inline(always)]
fn count_moves_of(queens: u128, occ: u128) -> u64 {
    let mut layers = [0u128; MAX_QUEENS];
    let mut gained = 0;
    for queen in Bits(queens) {
        let (mut reach, gain) = queen_attacks_and_vacating_gain(queen, occ);
        gained += gain;
        for layer in &mut layers {
            let deeper = *layer & reach;
            *layer |= reach;
            reach = deeper;
        }
    }
    let empty = !occ & GRID;
    // A loop rather than an iterator chain, whose `fold` would be a function of its own built
    // without `popcnt`.
    let mut walked = 0;
    for &layer in &layers {
        if layer == 0 {
            break;
        }
        walked += count_queen_moves(layer, empty);
    }
    u64::from(gained + walked)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_moves_popcnt(pos: &Position) -> u64 {
    pos.count_moves_inline()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn count_replies_popcnt(pos: &Position) -> u64 {
    pos.count_replies_inline()
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

    /// A second move generator, as plain as can be: square-by-square walks over the board's
    /// own files and ranks, asking the position square by square what stands there.
    fn simple_moves(pos: &Position) -> Vec<Move> {
        let walk = |from: Square, vacated: Option<Square>| {
            let mut reached = Vec::new();
            for (df, dr) in [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)] {
                let (mut file, mut rank) = (from.file() as i32 + df, from.rank() as i32 + dr);
                while (0..pos.width() as i32).contains(&file) && (0..pos.height() as i32).contains(&rank) {
                    let square = Square::new(file as usize, rank as usize).unwrap();
                    if !pos.is_empty(square) && Some(square) != vacated {
                        break;
                    }
                    reached.push(square);
                    file += df;
                    rank += dr;
                }
            }
            reached
        };
        let mut moves = Vec::new();
        for from in pos.queens(pos.side_to_move()) {
            for to in walk(from, None) {
                moves.extend(walk(to, Some(from)).into_iter().map(|arrow| Move::new(from, to, arrow)));
            }
        }
        moves.sort_by_key(|m| m.encode());
        moves
    }

    fn simple_perft(pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        simple_moves(pos)
            .into_iter()
            .map(|mv| {
                let mut next = pos.clone();
                next.play(mv).unwrap();
                simple_perft(&next, depth - 1)
            })
            .sum()
    }

    /// Every size from 5x5 to 11x11: perft 1 (and 2 up to 7x7, and on 8x8) of the start by
    /// both generators, then the move lists of positions along random games.
    #[test]
    fn every_size_generates_what_a_plain_generator_does() {
        let mut keys = crate::zobrist::KeyStream::new(0x0a11_5123_5eed_0001);
        for width in 5..=11 {
            for height in 5..=11 {
                let mut pos = Position::start(width, height).unwrap();
                let depth = if width.max(height) <= 7 || (width, height) == (8, 8) { 2 } else { 1 };
                assert_eq!(pos.perft(depth), simple_perft(&pos, depth), "{width}x{height}");
                while !pos.is_over() {
                    let mut moves = pos.legal_moves();
                    moves.sort_by_key(|m| m.encode());
                    assert_eq!(moves, simple_moves(&pos), "{width}x{height}\n{pos:?}");
                    assert_eq!(pos.count_moves(), moves.len() as u64);
                    pos.play(moves[(keys.next_key() % moves.len() as u64) as usize]).unwrap();
                }
                assert!(simple_moves(&pos).is_empty());
            }
        }
    }

    /// Along random games: the counts, portable and (where the processor has it) built for the
    /// population count, against the generated lists, after every move; and the count of the
    /// last two plies, which makes no move, against their sum.
    #[test]
    fn counts_without_moves_made_agree_with_moves_made() {
        let mut keys = crate::zobrist::KeyStream::new(0x0a11_5123_5eed_0002);
        for (width, height) in [(5, 5), (6, 5), (8, 8), (10, 10), (11, 11)] {
            let mut pos = Position::start(width, height).unwrap();
            while !pos.is_over() {
                let moves = pos.legal_moves();
                let replies: u64 = moves
                    .iter()
                    .map(|&mv| {
                        let mut next = pos.clone();
                        next.make(mv);
                        let count = next.legal_moves().len() as u64;
                        assert_eq!([next.count_moves(), next.count_moves_inline()], [count; 2]);
                        count
                    })
                    .sum();
                assert_eq!(pos.count_replies(), replies, "{width}x{height}\n{pos:?}");
                assert_eq!(pos.count_replies_inline(), replies);
                pos.play(moves[(keys.next_key() % moves.len() as u64) as usize]).unwrap();
            }
        }
    }

    /// The small boards' figures, which both generators agree on (the test above).
    #[test]
    fn perft_of_the_small_boards() {
        let perft = |width, height, depth| Position::start(width, height).unwrap().perft(depth);
        assert_eq!([perft(5, 5, 1), perft(5, 5, 2), perft(5, 5, 3)], [260, 50_422, 7_940_210]);
        assert_eq!([perft(6, 5, 1), perft(6, 5, 2), perft(6, 5, 3)], [410, 128_094, 33_207_636]);
        assert_eq!([perft(5, 6, 1), perft(5, 6, 2), perft(5, 6, 3)], [410, 129_436, 33_443_332]);
        assert_eq!([perft(8, 8, 1), perft(8, 8, 2)], [1_232, 1_331_198]);
        assert_eq!([perft(11, 11, 1), perft(11, 11, 2)], [2_780, 7_070_254]);
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
