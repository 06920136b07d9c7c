//! Rebuilding a board from stones rather than from a game: stones listed with their colours (a
//! manager's `BOARD`), a game replayed under another rule, a position with one stone removed.

use super::board::Board;
use super::types::{BoardError, Color, Move, Rule};

impl Board {
    /// A position from stones listed with their colours in the order a manager sends them, and
    /// walls ([`Board::add_wall`]), with `side` to move, and how many of its first moves are a
    /// set of stones whose order is unknown. Without walls the counts must be a game's (and say
    /// `side`); with walls, a continuous game's earlier fives, any counts stand.
    ///
    /// Under renju a black stone's legality depends on when it was played, and managers list
    /// stones in the order of play: when they alternate from black, they are played in that
    /// order, beside the walls (none of the moves is then of unknown order), which also makes
    /// them a history that can be taken back move by move. Otherwise they are placed as a set
    /// ([`Board::from_stones`]).
    pub fn from_listed_stones(
        width: usize,
        height: usize,
        rule: Rule,
        stones: &[(Move, Color)],
        walls: &[Move],
        side: Color,
    ) -> Result<(Board, usize), BoardError> {
        let alternates = stones.iter().enumerate().all(|(i, &(_, color))| (color == Color::Black) == (i % 2 == 0));
        let to_move = if stones.len().is_multiple_of(2) { Color::Black } else { Color::White };
        if rule == Rule::Renju && alternates && to_move == side {
            let mut board = Board::new(width, height, rule)?.walled(walls.iter().copied())?;
            for &(mv, _) in stones {
                board.play(mv).map_err(|error| BoardError::Stone { mv, error })?;
            }
            return Ok((board, 0));
        }
        let of = |wanted: Color| stones.iter().filter(|&&(_, color)| color == wanted).map(|&(mv, _)| mv).collect();
        let (black, white): (Vec<Move>, Vec<Move>) = (of(Color::Black), of(Color::White));
        let board = Board::set_up(width, height, rule, &black, &white, walls, side)?;
        let setup = board.history().len();
        Ok((board, setup))
    }

    /// A set of stones beside walls with `side` to move: [`Board::from_stones`] where there are
    /// no walls (the counts must agree with `side`), any counts beside walls.
    fn set_up(
        width: usize,
        height: usize,
        rule: Rule,
        black: &[Move],
        white: &[Move],
        walls: &[Move],
        side: Color,
    ) -> Result<Board, BoardError> {
        if walls.is_empty() {
            let board = Board::from_stones(width, height, rule, black, white)?;
            if board.side_to_move() != side {
                return Err(BoardError::Counts { black: black.len(), white: white.len() });
            }
            return Ok(board);
        }
        Board::new(width, height, rule)?.walled(walls.iter().copied())?.with_stones(black, white, side)
    }

    /// The same game under another rule, its first `setup` moves placed as the set of stones
    /// they are ([`Board::from_listed_stones`]) and its walls kept; `None` if it could not have
    /// been played so. The walls go before the moves after the set: those were played beside
    /// them.
    pub fn under_rule(&self, rule: Rule, setup: usize) -> Option<Board> {
        let (set, played) = self.history().split_at(setup.min(self.history().len()));
        let of = |wanted: Color| set.iter().filter(|&&mv| self.stone(mv) == Some(wanted)).copied().collect();
        let (black, white): (Vec<Move>, Vec<Move>) = (of(Color::Black), of(Color::White));
        // Who was to move once the set was placed: each move after it hands the turn over.
        let side = if played.len().is_multiple_of(2) { self.side_to_move() } else { self.side_to_move().opponent() };
        let walls: Vec<Move> = self.wall_cells().collect();
        let mut replayed = Board::set_up(self.width(), self.height(), rule, &black, &white, &walls, side).ok()?;
        for &mv in played {
            replayed.play(mv).ok()?;
        }
        Some(replayed)
    }

    /// The position without the stone on `removed`, as a set of stones and its walls: the order
    /// of play is lost. The side that moved last, whose stone it is, is to move again.
    pub fn without_stone(&self, removed: Move) -> Option<Board> {
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for mv in self.playable_moves().filter(|&mv| mv != removed) {
            match self.stone(mv) {
                Some(Color::Black) => black.push(mv),
                Some(Color::White) => white.push(mv),
                None => {}
            }
        }
        let walls: Vec<Move> = self.wall_cells().collect();
        let side = self.side_to_move().opponent();
        Board::set_up(self.width(), self.height(), self.rule(), &black, &white, &walls, side).ok()
    }

    /// This board with `walls` walled off ([`Board::add_wall`]).
    fn walled(mut self, walls: impl IntoIterator<Item = Move>) -> Result<Board, BoardError> {
        for mv in walls {
            self.add_wall(mv).map_err(|error| BoardError::Stone { mv, error })?;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::mv;
    use super::*;

    #[test]
    fn renju_stones_that_alternate_are_replayed_in_order() {
        let stones = [(mv(7, 7), Color::Black), (mv(8, 8), Color::White), (mv(7, 8), Color::Black)];
        let (board, setup) = Board::from_listed_stones(15, 15, Rule::Renju, &stones, &[], Color::White).unwrap();
        assert_eq!((board.history(), setup), (&[mv(7, 7), mv(8, 8), mv(7, 8)][..], 0));
        let (board, setup) = Board::from_listed_stones(15, 15, Rule::Freestyle, &stones, &[], Color::White).unwrap();
        assert_eq!((board.history().len(), setup), (3, 3));
        let shuffled = [stones[1], stones[0], stones[2]];
        let (_, setup) = Board::from_listed_stones(15, 15, Rule::Renju, &shuffled, &[], Color::White).unwrap();
        assert_eq!(setup, 3);
    }

    #[test]
    fn a_stone_on_a_stone_is_refused_either_way() {
        for rule in [Rule::Renju, Rule::Freestyle] {
            let stones = [(mv(7, 7), Color::Black), (mv(7, 7), Color::White)];
            let error = Board::from_listed_stones(15, 15, rule, &stones, &[], Color::Black).err();
            assert!(matches!(error, Some(BoardError::Stone { .. })), "{rule:?}");
            let error = Board::from_listed_stones(15, 15, rule, &stones[..1], &[mv(7, 7)], Color::White).err();
            assert!(matches!(error, Some(BoardError::Stone { .. })), "a wall on a stone, {rule:?}");
        }
    }

    #[test]
    fn a_game_changes_rule_only_if_it_could_have_been_played_under_it() {
        // Black's sixth stone in row 7 makes six: no win under exact five, so white plays on.
        let black = [mv(0, 7), mv(1, 7), mv(2, 7), mv(4, 7), mv(5, 7), mv(3, 7)];
        let white = [mv(0, 0), mv(2, 0), mv(4, 0), mv(6, 0), mv(8, 0), mv(10, 0)];
        let mut board = Board::new(15, 15, Rule::Standard).unwrap();
        for (&b, &w) in black.iter().zip(&white) {
            board.play(b).unwrap();
            board.play(w).unwrap();
        }
        assert!(board.under_rule(Rule::Freestyle, 0).is_none(), "the six ends a freestyle game");
        let mut opening = Board::new(15, 15, Rule::Freestyle).unwrap();
        for m in [mv(7, 7), mv(8, 8), mv(7, 8)] {
            opening.play(m).unwrap();
        }
        let renju = opening.under_rule(Rule::Renju, 0).unwrap();
        assert_eq!((renju.history(), renju.rule()), (opening.history(), Rule::Renju));
        let without = board.without_stone(mv(10, 0)).unwrap();
        assert!(without.is_empty(mv(10, 0)) && without.history().len() == 11);
    }

    #[test]
    fn walls_stay_when_the_rule_changes_or_a_stone_is_taken_away() {
        let stones = [(mv(5, 5), Color::Black), (mv(6, 6), Color::White)];
        let walls = [mv(7, 7), mv(0, 14)];
        let (mut board, setup) =
            Board::from_listed_stones(15, 15, Rule::Standard, &stones, &walls, Color::Black).unwrap();
        board.play(mv(8, 8)).unwrap();
        let renju = board.under_rule(Rule::Renju, setup).unwrap();
        assert_eq!(renju.wall_cells().collect::<Vec<_>>(), walls);
        assert_eq!((renju.history(), renju.hash()), (board.history(), board.hash()));
        let without = board.without_stone(mv(8, 8)).unwrap();
        assert_eq!(without.wall_cells().collect::<Vec<_>>(), walls);
        assert!(without.is_empty(mv(8, 8)) && !without.is_empty(mv(7, 7)));
    }

    #[test]
    fn beside_walls_any_counts_stand_with_the_side_given() {
        // White's five on row 0 walled off: four black stones left and black to move again.
        let walls: Vec<Move> = (0..5).map(|x| mv(x, 0)).collect();
        let stones: Vec<(Move, Color)> =
            [(7, 7), (8, 9), (9, 7), (12, 12)].map(|(x, y)| (mv(x, y), Color::Black)).into();
        let (board, setup) = Board::from_listed_stones(15, 15, Rule::Renju, &stones, &walls, Color::White).unwrap();
        assert_eq!((board.side_to_move(), setup, board.wall_cells().count()), (Color::White, 4, 5));
        let without = board.without_stone(mv(12, 12)).unwrap();
        assert!(without.is_empty(mv(12, 12)) && without.side_to_move() == Color::Black);
        let standard = board.under_rule(Rule::Standard, setup).unwrap();
        assert_eq!((standard.side_to_move(), standard.stone(mv(8, 9))), (Color::White, Some(Color::Black)));
        let unwalled = Board::from_listed_stones(15, 15, Rule::Renju, &stones, &[], Color::White).err();
        assert!(matches!(unwalled, Some(BoardError::Counts { .. })));
    }

    #[test]
    fn set_up_stones_change_rule_as_a_set() {
        // Played last, black's 7,7 would be a double three, forbidden under renju; as a set of
        // stones its order is unknown.
        let black = [mv(7, 5), mv(7, 6), mv(5, 7), mv(6, 7), mv(7, 7)];
        let white = [mv(0, 0), mv(0, 2), mv(0, 4), mv(0, 6)];
        let set = Board::from_stones(15, 15, Rule::Freestyle, &black, &white).unwrap();
        let replayed = set.under_rule(Rule::Renju, 0).unwrap();
        assert_eq!(replayed.winner(), Some(Color::White), "replayed move by move, 7,7 is a foul");
        let renju = set.under_rule(Rule::Renju, 9).unwrap();
        assert_eq!((renju.history(), renju.rule()), (set.history(), Rule::Renju));
        assert!(!renju.is_over());
    }

    #[test]
    fn renju_stones_in_order_are_played_beside_the_walls() {
        // Walls at 4,7 and 8,7 close black's three on row 7, so 7,7 makes one open three (its
        // column), not two.
        let order = [(5, 7), (0, 0), (7, 5), (0, 2), (6, 7), (0, 4), (7, 6), (0, 6), (7, 7)];
        let stones: Vec<(Move, Color)> = order
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| (mv(x, y), if i % 2 == 0 { Color::Black } else { Color::White }))
            .collect();
        let walls = [mv(4, 7), mv(8, 7)];
        let (board, setup) = Board::from_listed_stones(15, 15, Rule::Renju, &stones, &walls, Color::White).unwrap();
        assert_eq!((board.history().len(), setup, board.is_over()), (9, 0, false));
        let (unwalled, _) = Board::from_listed_stones(15, 15, Rule::Renju, &stones, &[], Color::White).unwrap();
        assert_eq!(unwalled.winner(), Some(Color::White), "without the walls 7,7 is a foul");
    }
}
