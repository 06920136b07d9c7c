//! Gomoku: board, pattern tables, evaluation, move generation and threat search, offered to
//! the generic search through [`Game`].

pub mod bench;
mod board;
pub mod eval;
mod movegen;
pub mod network;
pub mod notation;
pub mod pattern;
mod renju;
pub mod scripts;
mod setup;
pub mod swap2;
pub mod threat;
mod types;
mod vcf;
mod vct;

pub use board::Board;
pub use types::{BoardError, Color, MAX_SIZE, MIN_SIZE, Move, MoveError, Rule};
pub use vct::Proof;

use crate::game::{self, Game, Outcome, Playable, Verdict, grid_diagram};
use crate::params::{self, Id};
use crate::score::Score;
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

/// Plies past the horizon in which any four is tried (the `gomoku_plain_four_plies` parameter);
/// later, only fours that also build. The attacker's first two fours stay free, as a VCF often
/// starts with lone fours that set up the shape.
fn plain_four_plies() -> u32 {
    params::get(Id::gomoku_plain_four_plies) as u32
}

impl Game for Board {
    type Move = Move;

    const HISTORY_SIZE: usize = types::CELLS;

    fn hash(&self) -> u64 {
        Board::hash(self)
    }

    fn child_hash(&self, mv: Move) -> Option<u64> {
        Some(self.hash_after(mv))
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

    /// Every empty point near a stone (every point of an empty board) that is not forbidden.
    fn generate_unpruned(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        if self.history().is_empty() {
            out.extend(self.playable().map(Move::from_index).filter(|&mv| self.is_empty(mv)));
        } else {
            out.extend(self.candidates());
        }
        let forbidden = self.forbidden_points();
        out.retain(|mv| !forbidden.contains(mv));
    }

    fn make_move(&mut self, mv: Move) {
        self.make(mv);
    }

    fn unmake_move(&mut self, mv: Move) {
        self.unmake(mv);
    }

    fn make_horizon_move(&mut self, mv: Move) {
        self.make_held(mv);
    }

    fn unmake_horizon_move(&mut self, mv: Move) {
        self.unmake_held(mv);
    }

    fn evaluate(&self) -> Score {
        Board::evaluate(self)
    }

    fn encode_move(mv: Move) -> u32 {
        mv.index() as u32
    }

    fn decode_move(&self, code: u32) -> Option<Move> {
        let index = code as usize;
        if index >= types::CELLS {
            return None;
        }
        let mv = Move::from_index(index);
        (self.contains(mv) && self.is_empty(mv)).then_some(mv)
    }

    fn history_index(mv: Move) -> usize {
        mv.index()
    }

    fn order_scores(&self, moves: &[Move], out: &mut Vec<i32>) {
        out.clear();
        out.extend(moves.iter().map(|&mv| self.move_order_score(mv)));
    }

    fn reduction_adjustments(&self, moves: &[Move], out: &mut Vec<i32>) {
        self.policy_reduction_adjustments(moves, out);
    }

    fn prove_win(&mut self, max_nodes: u32) -> Option<(Move, u32)> {
        if self.is_over() {
            return None;
        }
        self.find_vcf(max_nodes)
    }

    /// Victory by continuous threats (fours and threes), VCF included.
    fn solve_threats(&mut self, max_nodes: u64) -> game::Proof<Move> {
        let proof = self.find_vct(max_nodes);
        game::Proof { win: proof.win, nodes: proof.nodes }
    }

    fn is_threatened(&self) -> bool {
        !self.is_over() && self.threat_count(self.side_to_move().opponent(), Threat::Five) > 0
    }

    /// An extra stone never hurts its owner, so a pass is a fair test unless the opponent has a
    /// four or a three pending: then the game is about that threat, not the evaluation.
    fn is_quiet(&self) -> bool {
        !self.is_over()
            && !self.history().is_empty()
            && !self.is_threatened()
            && self.threat_count(self.side_to_move().opponent(), Threat::LiveFour) == 0
    }

    fn make_null_move(&mut self) {
        self.pass();
    }

    fn unmake_null_move(&mut self) {
        self.pass();
    }

    /// Fours that follow up the stone played two plies ago (the mover's last, unless a pass came
    /// between); from [`plain_four_plies`] past the horizon on, only fours that also build.
    /// Renju keeps fours anywhere: there a white four far from the fight wins outright when
    /// black's block is forbidden.
    fn generate_forcing(&self, out: &mut Vec<Move>, plies_beyond: u32) {
        let history = self.history();
        let anchor = history.len().checked_sub(2).map(|i| history[i]).filter(|_| self.rule() != Rule::Renju);
        self.generate_fours(out, plies_beyond >= plain_four_plies(), anchor);
    }

    /// The mover's own threes and fours, which the opponent must answer. A move that only
    /// takes a point where the opponent could make a three is quiet, and reduced like one.
    fn is_tactical(&self, mv: Move) -> bool {
        self.threat(mv, self.side_to_move()) >= Threat::Three
    }
}

impl Playable for Board {
    const NAME: &'static str = "gomoku";
    const MOVE_FORMAT: &'static str =
        "a point: column letter and row number (h8), or x,y counted from 0 as Gomocup managers write it";
    const MOVE_EXAMPLE: &'static str = "h8";

    fn player_names(&self) -> [&'static str; 2] {
        ["black", "white"]
    }

    fn to_move(&self) -> usize {
        player_index(self.side_to_move())
    }

    fn resized(&self, width: usize, height: usize) -> Result<Self, String> {
        Board::new(width, height, self.rule()).map_err(|e| e.to_string())
    }

    /// The compact move-order notation of opening books: `h8i9j10`, read as moves are (any
    /// case, spaces between moves allowed).
    fn set_up(&self, text: &str) -> Result<Self, String> {
        let empty = Board::new(self.width(), self.height(), self.rule()).map_err(|e| e.to_string())?;
        let compact: String = text.split_whitespace().collect::<String>().to_ascii_lowercase();
        notation::play_notation(empty, &compact)
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        let text = text.trim();
        let point = match text.split_once(',') {
            Some((x, y)) => x.trim().parse().ok().zip(y.trim().parse().ok()).and_then(|(x, y)| Move::new(x, y)),
            None => notation::parse_moves(&text.to_ascii_lowercase()).filter(|m| m.len() == 1).map(|m| m[0]),
        };
        let mv = point.ok_or_else(|| format!("'{text}' is not a point like h8 or 7,7"))?;
        if self.side_to_move() == Color::Black && self.is_forbidden(mv) {
            return Err(format!("{} is forbidden to black under renju", notation::format_move(mv)));
        }
        self.clone().play(mv).map_err(|e| format!("{}: {e}", notation::format_move(mv)))?;
        Ok(mv)
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn diagram(&self, last: Option<Move>) -> String {
        let point = |x, y| Move::new(x, y).expect("inside the board");
        grid_diagram(
            self.width(),
            self.height(),
            |x, y| match self.stone(point(x, y)) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            },
            |x, y| last == Some(point(x, y)),
        )
    }

    fn verdict(&self) -> Option<Verdict> {
        if let Some(winner) = self.winner() {
            let line: Vec<String> = self.winning_line().into_iter().map(notation::format_move).collect();
            let reason = if line.is_empty() {
                "black played a forbidden move".to_string()
            } else {
                format!("five in a row: {}", line.join(" "))
            };
            Some(Verdict { winner: Some(player_index(winner)), reason })
        } else if self.is_full() {
            Some(Verdict { winner: None, reason: "the board is full".into() })
        } else {
            None
        }
    }

    fn setup_text(&self) -> String {
        self.history().iter().map(|&mv| notation::format_move(mv)).collect()
    }
}

/// Black moves first.
fn player_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Board {
    /// The stones of the winner's line through the last move, in board order.
    fn winning_line(&self) -> Vec<Move> {
        let (Some(last), Some(winner)) = (self.last_move(), self.winner()) else { return Vec::new() };
        let owned = |x: isize, y: isize| {
            usize::try_from(x)
                .ok()
                .zip(usize::try_from(y).ok())
                .and_then(|(x, y)| Move::new(x, y))
                .filter(|&mv| self.contains(mv) && self.stone(mv) == Some(winner))
        };
        let (x, y) = (last.x() as isize, last.y() as isize);
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut start = 0;
            while owned(x + dx * (start - 1), y + dy * (start - 1)).is_some() {
                start -= 1;
            }
            let line: Vec<Move> = (start..).map_while(|i| owned(x + dx * i, y + dy * i)).collect();
            if line.len() >= 5 {
                return line;
            }
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_keeps_the_board_s_shape_and_reads_back() {
        let wide = Board::new(20, 6, Rule::Freestyle).unwrap().set_up("t6").unwrap();
        assert_eq!((wide.width(), wide.height()), (20, 6));
        let tall = Board::new(9, 15, Rule::Freestyle).unwrap().set_up("a12i1").unwrap();
        assert_eq!((tall.width(), tall.height(), tall.setup_text()), (9, 15, "a12i1".to_string()));
        assert_eq!(Board::new(15, 15, Rule::Freestyle).unwrap().set_up(" H8 i9 ").unwrap().setup_text(), "h8i9");
        let widest = Board::new(32, 32, Rule::Freestyle).unwrap().set_up("af32aa1").unwrap();
        assert_eq!(widest.setup_text(), "af32aa1");
    }
}
