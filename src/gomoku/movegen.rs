//! Which moves the search looks at, and in what order.
//!
//! Only empty cells near stones are candidates. Threats prune further, soundly: a five is
//! played at once; an opponent's four must be blocked (under caro, at its five point or past its
//! far end, when a stone there shuts the five at both ends); against an opponent who can make a
//! live four next move, only our own fours and the moves that leave him no live four can hold.
//! Against a four-three threat the same replies are searched, and one more kind: a move that
//! makes our forced block of his four a four of ours. That list is nearly sound (a counter that
//! works two moves later is not in it) and turns the attacker's threes into narrow forced lines.

use super::board::{Board, CellSet};
use super::network::in_logits;
use super::pattern::Shape;
use super::threat::Threat;
use super::types::{Color, DIRECTIONS, Move, REACH, Rule};
use crate::params::{self, Id};

/// Ordering bonus by the threat a move makes for the mover (the `gomoku_order_` parameters);
/// blocking the same threat of the opponent earns half.
#[inline]
fn threat_order(threat: Threat) -> i32 {
    match threat {
        Threat::Forbidden | Threat::None => 0,
        _ => params::get_after(Id::gomoku_order_three, threat as usize - Threat::Three as usize),
    }
}

impl Board {
    /// Fills `out` with the moves worth searching for the side to move. Renju black's
    /// forbidden moves are never among them; when every move that would hold is forbidden,
    /// all his other moves are, since he must play something.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        if self.history().is_empty() {
            out.push(self.first_move());
            return;
        }
        let me = self.side_to_move();
        let opp = me.opponent();
        if let Some(win) = self.find_threat(me, Threat::Five) {
            out.push(win);
            return;
        }
        if self.threat_count(opp, Threat::Five) > 0 {
            self.five_stops(opp, out);
            out.retain(|&m| self.is_legal_for(m, me));
            if out.is_empty() {
                // No one stone stops every five: block one anyway.
                out.extend(
                    self.candidates().filter(|&m| self.threat(m, opp) == Threat::Five && self.is_legal_for(m, me)),
                );
            }
        } else if let Some(threats) = self.threat_cells(opp, Threat::LiveFour) {
            self.defend(&threats, Threat::LiveFour, &[], out);
        } else if let Some(threats) = self.threat_cells(opp, Threat::FourThree)
            && let Some(counters) = self.counter_four_cells(&threats)
        {
            self.defend(&threats, Threat::FourThree, &counters, out);
        } else {
            out.extend(self.candidates().filter(|&m| self.is_legal_for(m, me)));
        }
        if out.is_empty() {
            // Nothing holds: the game is lost, but a move must still be played.
            out.extend(self.candidates().filter(|&m| self.is_legal_for(m, me)));
        }
    }

    /// The side to move's fours (fives and live fours first), for the search beyond the
    /// horizon; none when the opponent threatens five, since then only the block is forcing.
    /// Only the fours [`Board::four_worth_trying`] accepts with these arguments are kept.
    pub(crate) fn generate_fours(&self, out: &mut Vec<Move>, building_only: bool, anchor: Option<Move>) {
        out.clear();
        let me = self.side_to_move();
        if self.is_over() || self.four_cells(me) == 0 || self.threat_count(me.opponent(), Threat::Five) > 0 {
            return;
        }
        self.fours_where(out, |m| self.four_worth_trying(m, building_only, anchor));
    }

    /// Whether the side to move's four on `mv` is worth a ply beyond the horizon. A double four
    /// or four-three always is. Any other four must follow up `anchor`, the stone its side
    /// played last (within two cells of it, or on one of its lines within four): a forcing line
    /// grows from the stones just played, and fours elsewhere only spend the attacker's own
    /// shapes. With `building_only` it must also build: a live two or sleeping three in another
    /// line. A lone four only trades a stone for a block; a chain of them seldom wins, and
    /// searching every chain made the quiescence search most of the tree.
    fn four_worth_trying(&self, mv: Move, building_only: bool, anchor: Option<Move>) -> bool {
        let me = self.side_to_move();
        if self.threat(mv, me) >= Threat::FourThree {
            return true;
        }
        let follows_up = anchor.is_none_or(|last| {
            let (dx, dy) = (mv.x().abs_diff(last.x()), mv.y().abs_diff(last.y()));
            let on_a_line = dx == 0 || dy == 0 || dx == dy;
            dx.max(dy) <= 2 || (on_a_line && dx.max(dy) <= 4)
        });
        let builds = || self.shapes(mv, me).iter().any(|&s| matches!(s, Shape::LiveTwo | Shape::SleepingThree));
        follows_up && (!building_only || builds())
    }

    /// Empty cells where `color` would make a four or better, by the counts.
    pub(crate) fn four_cells(&self, color: Color) -> u32 {
        [Threat::Four, Threat::FourThree, Threat::LiveFour, Threat::Five]
            .iter()
            .map(|&t| self.threat_count(color, t))
            .sum()
    }

    /// Appends the side to move's legal fours that `keep` accepts, strongest first (fives and
    /// live fours lead, then the cell's worth); ties keep board order.
    pub(crate) fn fours_where(&self, out: &mut Vec<Move>, keep: impl Fn(Move) -> bool) {
        let me = self.side_to_move();
        out.extend(self.candidates().filter(|&m| self.threat(m, me).is_four() && keep(m) && self.is_legal_for(m, me)));
        out.sort_by_key(|&m| std::cmp::Reverse((self.threat(m, me), self.value(m, me))));
    }

    /// The cells where `opp` would make `threat` and may play, if any.
    fn threat_cells(&self, opp: Color, threat: Threat) -> Option<Vec<Move>> {
        let count = self.threat_count(opp, threat) as usize;
        if count == 0 {
            return None;
        }
        let threats: Vec<Move> =
            self.cells_with_threat(opp, threat).take(count).filter(|&m| self.is_legal_for(m, opp)).collect();
        (!threats.is_empty()).then_some(threats)
    }

    /// Replies when the opponent threatens `level` (a live four, or a four-three) on `threats`:
    /// our own fours, which he must answer, the moves after which he has no such threat left,
    /// and `counters`. A stone changes only the one line it shares with a threat cell, so each
    /// reply is checked by re-reading that line's shape instead of playing the move.
    ///
    /// The cells that stop every threat are read off the first threat's lines (a few dozen
    /// cells) and checked against the others: asking every candidate about every threat is far
    /// dearer, and this runs at every node that faces an open three.
    fn defend(&self, threats: &[Move], level: Threat, counters: &[Move], out: &mut Vec<Move>) {
        let me = self.side_to_move();
        let opp = me.opponent();
        let Some((&first, others)) = threats.split_first() else {
            // Nothing to stop: every move holds.
            out.extend(self.candidates().filter(|&m| self.is_legal_for(m, me)));
            return;
        };
        let stops_all = |m: Move| others.iter().all(|&t| t == m || self.stops_threat(t, m, opp, level));
        let first_line = line_neighbours(first)
            .filter(|&(d, offset, cell)| self.is_empty(cell) && self.stops_at(first, d, offset, opp, level))
            .map(|(_, _, cell)| cell);
        // A bit set on the stack: this runs at every node that faces an open three.
        let mut holds = CellSet::default();
        for m in std::iter::once(first).chain(first_line).filter(|&m| stops_all(m)).chain(counters.iter().copied()) {
            holds.insert(m);
        }
        if self.four_cells(me) == 0 {
            out.extend(self.candidates_among(&holds).filter(|&m| self.is_legal_for(m, me)));
            return;
        }
        out.extend(
            self.candidates()
                .filter(|&m| (holds.contains(m) || self.threat(m, me).is_four()) && self.is_legal_for(m, me)),
        );
    }

    /// Against four-threes on `threats`, the cells that would turn our forced block of one of
    /// those fours into a four of ours, so the block answers with a threat of its own. `None`
    /// when some block already is a four of ours: then the four-three forces nothing yet.
    fn counter_four_cells(&self, threats: &[Move]) -> Option<Vec<Move>> {
        let me = self.side_to_move();
        let mut counters = Vec::new();
        for block in threats.iter().flat_map(|&t| self.five_cells_after(t, me.opponent())) {
            if self.threat(block, me).is_four() {
                return None;
            }
            counters.extend(line_neighbours(block).filter_map(|(d, offset, cell)| {
                (self.is_empty(cell) && self.threat_with_stone(block, d, offset, me, me).is_four()).then_some(cell)
            }));
        }
        Some(counters)
    }

    /// The empty cells where `color` would make five after a stone of his on `cell`.
    fn five_cells_after(&self, cell: Move, color: Color) -> impl Iterator<Item = Move> + '_ {
        line_neighbours(cell).filter_map(move |(d, offset, five)| {
            (self.is_empty(five) && self.threat_with_stone(five, d, -offset, color, color) == Threat::Five)
                .then_some(five)
        })
    }

    /// Whether a stone of `opp`'s opponent on `blocker` leaves `opp` nothing as strong as
    /// `level` at `cell`.
    fn stops_threat(&self, cell: Move, blocker: Move, opp: Color, level: Threat) -> bool {
        line_neighbours(cell)
            .any(|(d, offset, neighbour)| neighbour == blocker && self.stops_at(cell, d, offset, opp, level))
    }

    /// The cells where a stone of `color`'s opponent leaves `color` no five to make, into `out`
    /// (cleared first), legal or not: the five point when there is one. Under caro a cell just
    /// past a five whose other end is already shut does it too, since a five closed at both ends
    /// does not win there, and one stone may take two five points at once. Empty when no one
    /// stone stops every five.
    pub(crate) fn five_stops(&self, color: Color, out: &mut Vec<Move>) {
        out.clear();
        out.extend(self.cells_with_threat(color, Threat::Five).take(self.threat_count(color, Threat::Five) as usize));
        let caro = self.rule() == Rule::Caro;
        if out.len() <= 1 && !caro {
            return;
        }
        let fives = std::mem::take(out);
        let Some(&first) = fives.first() else {
            return;
        };
        let stops_all =
            |cell: Move| fives.iter().all(|&f| f == cell || self.stops_threat(f, cell, color, Threat::Five));
        let past_ends =
            line_neighbours(first).filter(|&(_, _, cell)| caro && self.is_empty(cell)).map(|(_, _, cell)| cell);
        for cell in fives.iter().copied().chain(past_ends) {
            if !out.contains(&cell) && stops_all(cell) {
                out.push(cell);
            }
        }
    }

    /// Whether a stone of `opp`'s opponent `offset` cells from `cell` along direction `d` leaves
    /// `opp` nothing as strong as `level` at `cell`.
    fn stops_at(&self, cell: Move, d: usize, offset: isize, opp: Color, level: Threat) -> bool {
        self.threat_with_stone(cell, d, offset, opp.opponent(), opp) < level
    }

    /// Some empty cell where `color` makes `threat`, if the counts say there is one.
    pub(crate) fn find_threat(&self, color: Color, threat: Threat) -> Option<Move> {
        if self.threat_count(color, threat) == 0 {
            return None;
        }
        self.cells_with_threat(color, threat).next()
    }

    /// The candidate cells where `color` would make exactly `threat`, in board order. The
    /// threat count bounds the matches, so taking as many as it says never drops one; and since
    /// every cell of a four or better is a candidate (it shares a five's window with three
    /// stones), the scan then stops early.
    fn cells_with_threat(&self, color: Color, threat: Threat) -> impl Iterator<Item = Move> + '_ {
        self.candidates().filter(move |&m| self.threat(m, color) == threat)
    }

    /// Attack plus defence: what the move makes for us and what it takes from the opponent.
    pub(crate) fn move_order_score(&self, mv: Move) -> i32 {
        let me = self.side_to_move();
        let opp = me.opponent();
        let threats = threat_order(self.threat(mv, me)) + threat_order(self.threat(mv, opp)) / 2;
        match self.learned() {
            Some(learned) => threats + learned.policy_order(mv.index(), me),
            None => threats + self.value(mv, me) + self.value(mv, opp) / 2,
        }
    }

    /// With a network: a ply more of late-move reduction for each move whose policy logit is
    /// `gomoku_policy_reduce_gap` tenths or more below the best of `moves`, a ply less for one
    /// less than `gomoku_policy_keep_gap` tenths below it (0: none); without, none (`out`,
    /// empty when called, stays empty).
    pub(crate) fn policy_reduction_adjustments(&self, moves: &[Move], out: &mut Vec<i32>) {
        let Some(learned) = self.learned() else { return };
        let me = self.side_to_move();
        // A logit fits 32 bits: 32 activations of at most 1023 times 16-bit weights.
        out.extend(moves.iter().map(|&mv| learned.policy(mv.index(), me) as i32));
        let best = out.iter().copied().max().unwrap_or(0);
        let (reduce, keep) = (params::get(Id::gomoku_policy_reduce_gap), params::get(Id::gomoku_policy_keep_gap));
        for logit in out.iter_mut() {
            let tenths = in_logits(i64::from(best) - i64::from(*logit), 10);
            *logit = if tenths >= reduce {
                1
            } else if tenths < keep {
                -1
            } else {
                0
            };
        }
    }
}

/// The cells on the lines through `cell` within a line pattern's reach, walls included: each
/// with its direction and its offset from `cell`.
fn line_neighbours(cell: Move) -> impl Iterator<Item = (usize, isize, Move)> {
    DIRECTIONS.iter().enumerate().flat_map(move |(d, &step)| {
        (-(REACH as isize)..=REACH as isize)
            .filter(|&offset| offset != 0)
            .map(move |offset| (d, offset, Move::from_index((cell.index() as isize + offset * step) as usize)))
    })
}

#[cfg(test)]
mod tests {
    use super::super::board::Board;
    use super::super::board::tests::{board_from, mv};
    use super::super::threat::Threat;
    use super::super::types::{Color, Move, Rule};
    use crate::game::Game;

    fn generated(board: &Board) -> Vec<Move> {
        let mut moves = Vec::new();
        board.generate(&mut moves);
        moves
    }

    #[test]
    fn empty_board_starts_in_the_centre() {
        let board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let moves = generated(&board);
        assert_eq!(moves, vec![mv(7, 7)]);
    }

    #[test]
    fn a_five_is_played_at_once() {
        let board = board_from(&["..........", ".XXXX.....", "......O...", "..O.O.O..."], Rule::Freestyle);
        let moves = generated(&board);
        assert!(moves == vec![mv(0, 1)] || moves == vec![mv(5, 1)], "{moves:?}");
    }

    #[test]
    fn a_four_must_be_blocked() {
        // White to move, black threatens five at (5,1) only.
        let board = board_from(&["O.........", "OXXXX.....", "......O...", "....X...O."], Rule::Freestyle);
        let moves = generated(&board);
        assert_eq!(moves, vec![mv(5, 1)]);
    }

    #[test]
    fn caro_stops_a_four_past_its_far_end_too() {
        // White to move against black's four on row 1, shut at (0,1): besides the five point
        // (5,1), a stone on (6,1) would leave it a five closed at both ends.
        let rows = ["O.........", "OXXXX.....", "......O...", "....X...O."];
        let mut caro = generated(&board_from(&rows, Rule::Caro));
        caro.sort_by_key(|m| m.index());
        assert_eq!(caro, vec![mv(5, 1), mv(6, 1)]);
        assert_eq!(generated(&board_from(&rows, Rule::Freestyle)), vec![mv(5, 1)]);
    }

    #[test]
    fn a_lost_position_still_has_moves() {
        // White to move cannot stop black's two open threes (the diagonal and the column).
        let board = board_from(
            &[
                "...............",
                "..X...X........",
                ".....OO...X....",
                "......X..O.....",
                ".....XXOO......",
                "..X.XX.O.......",
                ".....OO........",
                ".....X.........",
                "O..............",
            ],
            Rule::Freestyle,
        );
        let moves = generated(&board);
        assert!(!moves.is_empty());
    }

    #[test]
    fn an_open_three_limits_the_replies() {
        // White to move; black has an open three on row 5.
        let board = board_from(
            &[
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                "......XXX......",
                "...............",
                "......O.O......",
                "...............",
            ],
            Rule::Freestyle,
        );
        let mut moves = generated(&board);
        moves.sort();
        // The far ends do not help: black would still get an open four on the other side.
        assert_eq!(moves, vec![mv(5, 5), mv(9, 5)]);
    }

    #[test]
    fn against_an_open_three_the_mover_s_own_fours_join_the_blocks() {
        // White to move: black's open three on row 5 as above; white's own open three on row 11
        // makes four fours for white (two live), which black must answer.
        let board = board_from(
            &[
                "X.............X",
                "...............",
                "...............",
                "...............",
                "...............",
                "......XXX......",
                "...............",
                "......O.O......",
                "...............",
                "...............",
                "...............",
                "..OOO..........",
                "...............",
                "...............",
                "X..............",
            ],
            Rule::Freestyle,
        );
        let mut moves = generated(&board);
        moves.sort();
        let mut expected = vec![mv(5, 5), mv(9, 5), mv(0, 11), mv(1, 11), mv(5, 11), mv(6, 11)];
        expected.sort();
        assert_eq!(moves, expected);
    }

    /// Black threatens a four-three at (8,5): a rush four on row 5 (five at (9,5)) and a live
    /// three in column 8. White's stones far away make it white's move.
    const FOUR_THREE: [&str; 15] = [
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "....OXXX.......",
        "........X......",
        "........X......",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "...............",
        "O.O..........O.",
    ];

    #[test]
    fn a_four_three_threat_limits_the_replies() {
        let board = board_from(&FOUR_THREE, Rule::Freestyle);
        assert_eq!(board.threat(mv(8, 5), Color::Black), Threat::FourThree);
        let mut moves = generated(&board);
        moves.sort();
        // Take the cell, cut the three at either end, or block the four in advance.
        assert_eq!(moves, vec![mv(8, 4), mv(8, 5), mv(9, 5), mv(8, 8)]);
    }

    #[test]
    fn a_four_three_threat_allows_counter_fours() {
        // White's pair in column 9 lets a third stone make white's forced block at (9,5) a four:
        // (9,6) and (9,9) do; (9,4) would too, but no stone stands near it.
        let mut rows = FOUR_THREE;
        rows[7] = "........XO.....";
        rows[8] = ".........O.....";
        rows[14] = "O..............";
        let board = board_from(&rows, Rule::Freestyle);
        let mut moves = generated(&board);
        moves.sort();
        assert_eq!(moves, vec![mv(8, 4), mv(8, 5), mv(9, 5), mv(9, 6), mv(8, 8), mv(9, 9)]);
        // Once the block itself is a four of white's, the four-three forces nothing yet.
        rows[9] = ".........O.....";
        rows[14] = "...............";
        let board = board_from(&rows, Rule::Freestyle);
        assert!(board.threat(mv(9, 5), Color::White).is_four());
        assert!(generated(&board).len() > 20);
    }

    #[test]
    fn fours_are_the_forcing_moves() {
        // Black to move, a three closed on the left: (5,1) makes a rush four, (6,1) a jump four.
        let board = board_from(&["..........", ".OXXX.....", "......O...", "........O."], Rule::Freestyle);
        let mut fours = Vec::new();
        board.generate_fours(&mut fours, false, None);
        fours.sort();
        assert_eq!(fours, vec![mv(5, 1), mv(6, 1)]);
        // White to move has a three of his own but faces a four: only the block is forcing.
        let board =
            board_from(&["..........", ".OXXXX....", "..........", ".OOO......", ".........X"], Rule::Freestyle);
        assert!(board.threat_count(Color::White, Threat::Four) > 0);
        board.generate_fours(&mut fours, false, None);
        assert!(fours.is_empty());
    }

    /// [`FOUR_THREE`] without its column and with a stone on (7,4) instead, so black is to
    /// move: (8,5) makes a rush four and a live two with (7,4) on the diagonal; (9,5) makes a
    /// jump four and nothing else.
    fn fours_on_row_5() -> [&'static str; 15] {
        let mut rows = FOUR_THREE;
        rows[4] = ".......X.......";
        rows[6] = "...............";
        rows[7] = "...............";
        rows
    }

    #[test]
    fn late_in_a_forcing_line_only_fours_that_build() {
        let board = board_from(&fours_on_row_5(), Rule::Freestyle);
        let mut fours = Vec::new();
        board.generate_fours(&mut fours, false, None);
        fours.sort();
        assert_eq!(fours, vec![mv(8, 5), mv(9, 5)]);
        board.generate_fours(&mut fours, true, None);
        assert_eq!(fours, vec![mv(8, 5)]);
    }

    #[test]
    fn beyond_the_horizon_fours_follow_up_the_last_stone() {
        // Black's fours are (8,5) and (9,5); his last stone (11,8) shares a diagonal with (8,5)
        // only. Under renju every four stays.
        let mut forcing = Vec::new();
        for (rule, expected) in [(Rule::Freestyle, vec![mv(8, 5)]), (Rule::Renju, vec![mv(8, 5), mv(9, 5)])] {
            let mut board = board_from(&fours_on_row_5(), rule);
            board.play(mv(11, 8)).unwrap();
            board.play(mv(10, 14)).unwrap();
            Game::generate_forcing(&board, &mut forcing, 0);
            forcing.sort();
            assert_eq!(forcing, expected, "{rule:?}");
        }
    }

    #[test]
    fn with_a_network_the_policy_s_outsiders_are_reduced_more_and_its_favourite_less() {
        let network: &'static crate::gomoku::network::Network = Box::leak(Box::new(crate::gomoku::network::embedded()));
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for m in [mv(7, 7), mv(8, 8), mv(8, 6), mv(6, 8), mv(9, 5)] {
            board.play(m).unwrap();
        }
        let moves = generated(&board);
        let mut adjustments = Vec::new();
        board.policy_reduction_adjustments(&moves, &mut adjustments);
        assert!(adjustments.is_empty(), "no network, no adjustment");
        board.set_network(Some(network));
        adjustments.clear();
        board.policy_reduction_adjustments(&moves, &mut adjustments);
        let learned = board.learned().unwrap();
        let logits: Vec<i64> = moves.iter().map(|m| learned.policy(m.index(), board.side_to_move())).collect();
        let best = *logits.iter().max().unwrap();
        let one_logit = 1023.0 * 1024.0;
        for (&logit, &adjustment) in logits.iter().zip(&adjustments) {
            let gap = (best - logit) as f64 / one_logit;
            let expected = if gap >= 3.0 {
                1
            } else if gap < 0.5 {
                -1
            } else {
                0
            };
            // The engine's scale is 1 << 20, within 0.1 % of a logit: only gaps at a boundary may differ.
            if (gap - 3.0).abs() > 0.01 && (gap - 0.5).abs() > 0.01 {
                assert_eq!(adjustment, expected, "gap {gap}");
            }
        }
        assert!(adjustments.contains(&1) && adjustments.contains(&-1), "{adjustments:?}");
    }
}
