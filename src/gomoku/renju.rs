//! Renju's forbidden moves: black may not make a double three, a double four or an overline
//! (RIF rules, article 9), unless the same move makes five, which always wins.
//!
//! Overlines and fours are facts of single lines, so the pattern tables already mark them
//! ([`Threat::Forbidden`]). A three is different: RIF defines it as a row of three to which one
//! stone can be added to make a straight four "without at the same time a five in a row being
//! made", and that stone must itself be a move black may play, which depends on every line
//! through it. So a double three is settled here, by the recursive definition: place the stone,
//! and for each line where it makes a three look for a straight-four point that makes no five
//! and is not forbidden, with the stone in place. Each level adds a stone, so the recursion
//! ends; in practice it is one or two levels deep.

use super::board::Board;
use super::pattern::{EMPTY, PatternTable, Shape, slot_shift};
use super::threat::Threat;
use super::types::{Color, DIRECTIONS, Move, REACH, Rule};

/// Cell code of a black stone in a line key.
const BLACK: u32 = 1;

impl Board {
    /// Whether black may not play on the empty cell `mv` (always false outside renju).
    pub fn is_forbidden(&self, mv: Move) -> bool {
        if self.rule() != Rule::Renju || !self.contains(mv) || !self.is_empty(mv) {
            return false;
        }
        match self.threat(mv, Color::Black) {
            Threat::Forbidden => true,
            Threat::Five => false,
            _ => {
                let threes = self.shapes(mv, Color::Black).iter().filter(|s| s.is_live_three()).count();
                let mut probe = Probe { board: self, table: self.pattern_table(), placed: Vec::new() };
                threes >= 2 && probe.verdict(mv.index()) == Verdict::Forbidden
            }
        }
    }

    /// Whether `color` may play the empty cell `mv`.
    pub(crate) fn is_legal_for(&self, mv: Move, color: Color) -> bool {
        color == Color::White || !self.is_forbidden(mv)
    }
}

/// What black's stone on an empty cell would do, as far as forbidden moves go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Five,
    Forbidden,
    Allowed,
}

/// The board with extra black stones imagined on it, read through the pattern tables.
struct Probe<'a> {
    board: &'a Board,
    table: &'static PatternTable,
    /// Cell indices of the imagined stones, all on empty cells.
    placed: Vec<usize>,
}

impl Probe<'_> {
    /// The line key of cell `i` in direction `d`, imagined stones included.
    fn key(&self, i: usize, d: usize) -> u32 {
        let step = DIRECTIONS[d];
        self.placed.iter().fold(self.board.line_key(i, d), |key, &stone| {
            let delta = stone as isize - i as isize;
            let offset = delta / step;
            // Playable cells of different rows are more than REACH apart along a row (the walls
            // pad each row), so a multiple of the step within reach is on the line.
            if delta % step == 0 && offset != 0 && offset.unsigned_abs() <= REACH {
                key | BLACK << slot_shift(offset)
            } else {
                key
            }
        })
    }

    fn shapes(&self, i: usize) -> [Shape; 4] {
        std::array::from_fn(|d| self.table.shapes(self.key(i, d))[Color::Black.index()])
    }

    /// What black's stone on the empty cell `i` would do.
    fn verdict(&mut self, i: usize) -> Verdict {
        let shapes = self.shapes(i);
        match Threat::from_shapes_forbidding(shapes) {
            Threat::Forbidden => return Verdict::Forbidden,
            Threat::Five => return Verdict::Five,
            _ => {}
        }
        if shapes.iter().filter(|s| s.is_live_three()).count() < 2 {
            return Verdict::Allowed;
        }
        self.placed.push(i);
        let three_lines = (0..4).filter(|&d| shapes[d].is_live_three());
        let real = three_lines.filter(|&d| self.is_real_three(i, d)).take(2).count();
        self.placed.pop();
        if real == 2 { Verdict::Forbidden } else { Verdict::Allowed }
    }

    /// Whether the three the stone on `i` (already placed) makes in direction `d` can become a
    /// straight four by a move black may play that makes no five.
    fn is_real_three(&mut self, i: usize, d: usize) -> bool {
        let key = self.key(i, d);
        let reach = REACH as isize - 1;
        (-reach..=reach).filter(|&o| o != 0).any(|o| {
            let shift = slot_shift(o);
            (key >> shift) & 3 == EMPTY
                && self.table.shapes(key | BLACK << shift)[Color::Black.index()] == Shape::LiveFour
                && self.verdict((i as isize + o * DIRECTIONS[d]) as usize) == Verdict::Allowed
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{mv, stones_from};
    use super::*;

    /// A renju position, black to move: the rows as drawn, and white stones added far away on
    /// the bottom rows until the counts match. Every case was also judged by the `renju`
    /// package's referee (a port of Piskvork's), with the same verdict.
    fn renju(rows: &[&str]) -> Board {
        let (black, mut white) = stones_from(rows);
        let mut filler = [14, 12].into_iter().flat_map(|y| (0..5).map(move |k| mv(3 * k, y)));
        while white.len() < black.len() {
            white.push(filler.next().expect("few enough stones"));
        }
        Board::from_stones(15, 15, Rule::Renju, &black, &white).unwrap()
    }

    fn forbidden_cells(board: &Board) -> Vec<(usize, usize)> {
        board.playable_moves().filter(|&m| board.is_forbidden(m)).map(|m| (m.x(), m.y())).collect()
    }

    #[test]
    fn double_three_is_forbidden_four_three_is_not() {
        let board = renju(&["", "....X", "....X", "", "..XX"]);
        assert_eq!(forbidden_cells(&board), [(4, 4)]);
        let board = renju(&["....O", "....X", "....X", "....X", "..XX"]);
        assert_eq!(forbidden_cells(&board), []);
        assert_eq!(board.threat(mv(4, 4), Color::Black), Threat::FourThree);
    }

    #[test]
    fn double_four_across_lines_is_forbidden() {
        let board = renju(&["", "....X", "....X", "....X", ".XXX"]);
        assert_eq!(forbidden_cells(&board), [(4, 4)]);
        assert_eq!(board.threat(mv(4, 4), Color::Black), Threat::Forbidden);
    }

    #[test]
    fn two_fours_in_one_line_are_a_double_four() {
        // X_XXX_X, XX_XX_XX and XXX_X_XXX, each completed by the cell marked in the comment.
        for (row, x) in [("X.X.X.X", 3), ("XX.X..XX", 4), ("XXX...XXX", 4), ("..X.XX..X", 6)] {
            let board = renju(&[row]);
            assert_eq!(forbidden_cells(&board), [(x, 0)], "{row}");
            assert_eq!(board.shapes(mv(x, 0), Color::Black)[0], Shape::DoubleFour, "{row}");
        }
        // A straight four is one four, and a four that could only become six is none.
        let board = renju(&["..XX.X"]);
        assert_eq!(forbidden_cells(&board), []);
        assert_eq!(board.threat(mv(4, 0), Color::Black), Threat::LiveFour);
    }

    #[test]
    fn overline_is_forbidden_unless_the_move_also_makes_five() {
        let board = renju(&[".XXX.XX"]);
        assert_eq!(forbidden_cells(&board), [(4, 0)]);
        // (5,5) makes exactly five on row 5 and an overline on column 5: five wins.
        let board = renju(&["", "", "", ".....X", ".....X", ".XXXX", ".....X", ".....X", ".....X"]);
        assert_eq!(board.threat(mv(5, 5), Color::Black), Threat::Five);
        assert!(!board.is_forbidden(mv(5, 5)));
        // (5,5) makes five and two fours.
        let board = renju(&["", "", "", "", "", ".XXXX", ".....XX", ".....X.X", ".....X..X"]);
        assert!(!board.is_forbidden(mv(5, 5)));
    }

    #[test]
    fn a_four_that_can_only_become_an_overline_is_no_four() {
        // X_XXXX_X: both completions make six, so black has no five point and white, to move,
        // is free to play elsewhere.
        let mut board = renju(&["X.XXXX.X"]);
        board.play(mv(7, 7)).unwrap();
        assert_eq!(board.threat_count(Color::Black, Threat::Five), 0);
        assert_eq!(board.threat(mv(1, 0), Color::Black), Threat::Forbidden);
        assert!(generated(&board).len() > 2);
    }

    #[test]
    fn a_three_whose_straight_four_point_is_forbidden_is_no_three() {
        // (7,7) makes threes on row 7 and column 7. The row three can only become a straight
        // four at (8,7), which with (7,7) in place is a double four (row and column 8): so the
        // row three is false and (7,7) is allowed.
        let rows = ["", "", "", "........X", "........X", ".......XX", ".......X", "...O.XX"];
        let board = renju(&rows);
        assert!(!board.is_forbidden(mv(7, 7)));
        assert_eq!(board.threat(mv(7, 7), Color::Black), Threat::DoubleThree);
        // With a stone on (8,8) the column through (8,7) is no four (it would be six), so
        // (8,7) is a fine straight-four point and (7,7) a real double three.
        let mut rows = rows.to_vec();
        rows.push("........X");
        assert!(renju(&rows).is_forbidden(mv(7, 7)));
    }

    #[test]
    fn a_three_that_needs_a_five_to_become_straight_is_no_three() {
        // RIF: a three becomes a straight four "without at the same time a five in a row being
        // made". The row three's straight-four point (8,7) also completes column 8's five.
        let board = renju(&["", "", "........O", "........X", "........X", ".......XX", ".......XX", "...O.XX"]);
        assert!(!board.is_forbidden(mv(7, 7)));
    }

    #[test]
    fn white_is_never_forbidden_and_other_rules_forbid_nothing() {
        let rows = ["", "....X", "....X", "", "..XX"];
        let board = renju(&rows);
        assert!(board.is_legal_for(mv(4, 4), Color::White));
        assert!(!board.is_legal_for(mv(4, 4), Color::Black));
        let mut free = Board::new(15, 15, Rule::Freestyle).unwrap();
        for m in [mv(4, 1), mv(0, 14), mv(4, 2), mv(3, 14), mv(2, 4), mv(6, 14), mv(3, 4), mv(9, 14)] {
            free.play(m).unwrap();
        }
        assert!(!free.is_forbidden(mv(4, 4)));
    }

    #[test]
    fn a_forbidden_move_loses_for_black() {
        let mut board = renju(&["", "....X", "....X", "", "..XX"]);
        board.play(mv(4, 4)).unwrap();
        assert_eq!(board.winner(), Some(Color::White));
        assert!(board.is_over());
        board.undo();
        assert_eq!(board.winner(), None);
    }

    fn generated(board: &Board) -> Vec<Move> {
        let mut moves = Vec::new();
        board.generate(&mut moves);
        moves
    }

    #[test]
    fn white_wins_by_a_four_whose_block_is_forbidden() {
        // (4,4) is a double-three point for black. White's (8,8) makes a four on the diagonal
        // (blocked at (9,9)) whose one five point is (4,4): black cannot block it.
        let black = [mv(4, 1), mv(4, 2), mv(2, 4), mv(3, 4), mv(9, 9), mv(3, 3)];
        let white = [mv(5, 5), mv(6, 6), mv(7, 7), mv(0, 14), mv(14, 0)];
        let mut board = Board::from_stones(15, 15, Rule::Renju, &black, &white).unwrap();
        assert_eq!(board.find_vcf(10_000), Some((mv(8, 8), 3)));
        board.play(mv(8, 8)).unwrap();
        let replies = generated(&board);
        assert!(!replies.is_empty() && !replies.contains(&mv(4, 4)), "{replies:?}");
        // Under exact five black simply blocks.
        let mut standard = Board::from_stones(15, 15, Rule::Standard, &black, &white).unwrap();
        assert_ne!(standard.find_vcf(10_000), Some((mv(8, 8), 3)));
        standard.play(mv(8, 8)).unwrap();
        assert_eq!(generated(&standard), [mv(4, 4)]);
    }

    #[test]
    fn black_never_plays_or_counts_on_a_forbidden_move() {
        // (4,4) would give black two fours: a win in freestyle, forbidden in renju.
        let rows = ["", "....X", "....X", "....X", ".XXX"];
        let mut board = renju(&rows);
        assert!(board.is_forbidden(mv(4, 4)));
        assert!(!generated(&board).contains(&mv(4, 4)));
        assert_ne!(board.find_vcf(100_000).map(|(m, _)| m), Some(mv(4, 4)));
        let mut black = Vec::new();
        let mut white = Vec::new();
        for m in board.playable_moves() {
            match board.stone(m) {
                Some(Color::Black) => black.push(m),
                Some(Color::White) => white.push(m),
                None => {}
            }
        }
        let mut free = Board::from_stones(15, 15, Rule::Freestyle, &black, &white).unwrap();
        assert_eq!(free.find_vcf(100_000), Some((mv(4, 4), 3)));
    }
}
