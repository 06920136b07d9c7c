//! Which moves the search looks at, and in what order.
//!
//! Only empty cells near stones are candidates. Threats prune further, soundly: a five is
//! played at once; an opponent's four must be blocked; against an opponent who can make a live
//! four next move, only our own fours and the moves that leave him no live four can hold.

use super::board::{Board, Color, DIRECTIONS, Move};
use super::pattern::REACH;
use super::threat::{THREAT_KINDS, Threat};

/// Ordering bonus by the threat a move makes for the mover; blocking the same threat of the
/// opponent earns half.
const THREAT_ORDER: [i32; THREAT_KINDS] = [0, 0, 400, 600, 1_500, 3_000, 8_000, 20_000];

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
            out.push(self.centre());
            return;
        }
        let me = self.side_to_move();
        let opp = me.opponent();
        if let Some(win) = self.find_threat(me, Threat::Five) {
            out.push(win);
            return;
        }
        if self.threat_count(opp, Threat::Five) > 0 {
            out.extend(self.candidates().filter(|&m| self.threat(m, opp) == Threat::Five && self.is_legal_for(m, me)));
        } else if let Some(threats) = self.live_four_threats(opp) {
            self.defend_live_four_threats(&threats, out);
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
    pub(crate) fn generate_fours(&self, out: &mut Vec<Move>) {
        out.clear();
        let me = self.side_to_move();
        if self.is_over() || self.four_cells(me) == 0 || self.threat_count(me.opponent(), Threat::Five) > 0 {
            return;
        }
        self.fours_where(out, |_| true);
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

    /// The cells where `opp` would make a live four (or double four) and may play, if any.
    fn live_four_threats(&self, opp: Color) -> Option<Vec<Move>> {
        if self.threat_count(opp, Threat::LiveFour) == 0 {
            return None;
        }
        let threats: Vec<Move> = self
            .candidates()
            .filter(|&m| self.threat(m, opp) == Threat::LiveFour && self.is_legal_for(m, opp))
            .collect();
        (!threats.is_empty()).then_some(threats)
    }

    /// Replies when the opponent threatens a live four (or double four) on `threats`: our own
    /// fours, which he must answer, and the moves after which he has no such threat left. A
    /// stone changes only the one line it shares with a threat cell, so each reply is checked by
    /// re-reading that line's shape instead of playing the move.
    fn defend_live_four_threats(&self, threats: &[Move], out: &mut Vec<Move>) {
        let me = self.side_to_move();
        let opp = me.opponent();
        for m in self.candidates() {
            let defends = threats.iter().all(|&t| t == m || self.stops_threat(t, m, opp));
            if (defends || self.threat(m, me).is_four()) && self.is_legal_for(m, me) {
                out.push(m);
            }
        }
    }

    /// Whether a stone of `opp`'s opponent on `blocker` leaves `opp` no live four at `cell`.
    fn stops_threat(&self, cell: Move, blocker: Move, opp: Color) -> bool {
        let delta = blocker.index() as isize - cell.index() as isize;
        DIRECTIONS.iter().enumerate().any(|(d, &step)| {
            (1..=REACH as isize).any(|k| {
                (delta == k * step || delta == -k * step)
                    && self.threat_with_stone(cell, d, delta / step, opp.opponent(), opp) < Threat::LiveFour
            })
        })
    }

    /// Some empty cell where `color` makes `threat`, if the counts say there is one.
    pub(crate) fn find_threat(&self, color: Color, threat: Threat) -> Option<Move> {
        if self.threat_count(color, threat) == 0 {
            return None;
        }
        self.candidates().find(|&m| self.threat(m, color) == threat)
    }

    /// Attack plus defence: what the move makes for us and what it takes from the opponent.
    pub(crate) fn move_order_score(&self, mv: Move) -> i32 {
        let me = self.side_to_move();
        let opp = me.opponent();
        THREAT_ORDER[self.threat(mv, me) as usize]
            + THREAT_ORDER[self.threat(mv, opp) as usize] / 2
            + self.value(mv, me)
            + self.value(mv, opp) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{board_from, mv};
    use super::super::board::{Board, Color, Move, Rule};
    use super::super::threat::Threat;

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
    fn fours_are_the_forcing_moves() {
        // Black to move, a three closed on the left: (5,1) makes a rush four, (6,1) a jump four.
        let board = board_from(&["..........", ".OXXX.....", "......O...", "........O."], Rule::Freestyle);
        let mut fours = Vec::new();
        board.generate_fours(&mut fours);
        fours.sort();
        assert_eq!(fours, vec![mv(5, 1), mv(6, 1)]);
        // White to move has a three of his own but faces a four: only the block is forcing.
        let board =
            board_from(&["..........", ".OXXXX....", "..........", ".OOO......", ".........X"], Rule::Freestyle);
        assert!(board.threat_count(Color::White, Threat::Four) > 0);
        board.generate_fours(&mut fours);
        assert!(fours.is_empty());
    }
}
