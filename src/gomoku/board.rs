//! The Gomoku board and everything kept incrementally with it.
//!
//! Cells live in one padded array (`STRIDE` x `STRIDE`, the playing area in one corner and
//! walls around it) so the five cells each side of any playable cell are always in bounds and
//! a move is one `u16` index whatever the board size. For every cell and direction the board
//! keeps the 20-bit line key of its neighbours; for every empty cell, the shape each side would
//! make there in each line ([`PatternTable`]), packed so that it indexes the cell's [`Threat`]
//! and worth in the [`CellTable`]. A move touches only the 40 cells that share a line with it.
//! Invariant: the totals and threat counts sum exactly the empty playable cells.
//!
//! Files: this one holds the position and its moves; `board/cells.rs` the cell cache and its
//! upkeep, `board/frames.rs` the undo frames that let a move be taken back cheaply.

mod cells;
mod frames;

use std::sync::OnceLock;

pub(crate) use cells::CellSet;
use cells::{CANDIDATE_WORDS, Cells, EMPTY_CELL, WALL_CELL};
use frames::{Frame, Rescored};

use super::eval::{self, CellEntry, CellTable, MOVER, Totals, unpack_shapes, with_shape};
use super::network::{self, Accumulator, Network};
use super::pattern::{PatternTable, Shape, pair_shape, slot_shift};
use super::threat::{THREAT_KINDS, Threat};
use super::types::{
    BoardError, CELLS, Color, DIRECTIONS, MAX_SIZE, MIN_SIZE, Move, MoveError, PAD, REACH, Rule, STRIDE,
};
use crate::params::{self, Id};
use crate::score::Score;
use crate::zobrist::KeyStream;

/// Zobrist keys: one per colour and cell, and one for White to move.
struct Zobrist {
    cells: [Vec<u64>; 2],
    white_to_move: u64,
}

fn zobrist() -> &'static Zobrist {
    static KEYS: OnceLock<Zobrist> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys = KeyStream::new(0x9E37_79B9_7F4A_7C15);
        let mut next = || keys.next_key();
        let cells = [(0..CELLS).map(|_| next()).collect(), (0..CELLS).map(|_| next()).collect()];
        Zobrist { cells, white_to_move: next() }
    })
}

#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    table: &'static PatternTable,
    /// Per colour: renju's black has a table of his own, where overlines and double fours are
    /// forbidden.
    cell_tables: [&'static CellTable; 2],
    /// Everything known about each cell, together so a refresh touches one cache line.
    cells: Cells,
    /// Per colour: the sum of its cells' worth in both roles.
    totals: [Totals; 2],
    threat_counts: [[u32; THREAT_KINDS]; 2],
    /// Bit per cell: empty and near a stone. Iterating it is what makes move generation cheap.
    candidate_bits: [u64; CANDIDATE_WORDS],
    hash: u64,
    side: Color,
    history: Vec<Move>,
    /// The last move made five.
    won: bool,
    /// The last move was renju black's forbidden move, played through [`Board::play`]: white wins.
    foul: bool,
    /// Cells walled off by [`Board::add_wall`].
    walls: usize,
    /// One frame per move made since the last wall, so that taking the move back restores the
    /// cells it re-scored instead of re-reading their lines: the re-reading was half the cost
    /// of a move. Moves made before a wall have none and are taken back by re-reading.
    frames: Vec<Frame>,
    /// The cells' scores before the re-scoring of the moves in `frames`, in order.
    rescored: Vec<Rescored>,
    /// The learned evaluation, kept with the cells, when the board plays with a network.
    learned: Option<Accumulator>,
    /// Moves made since the learned features were held ([`Board::make_held`]): they still
    /// describe the position before the first of them.
    held: u32,
    /// The network's score of that position for its side to move, read when the hold began.
    held_score: Score,
}

impl Board {
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::Size { width, height });
        }
        let mut board = Board {
            width,
            height,
            rule,
            table: PatternTable::for_rule(rule),
            cell_tables: [CellTable::get(rule == Rule::Renju), CellTable::get(false)],
            cells: Cells::walls(),
            totals: [0; 2],
            threat_counts: [[0; THREAT_KINDS]; 2],
            candidate_bits: [0; CANDIDATE_WORDS],
            hash: 0,
            side: Color::Black,
            history: Vec::new(),
            won: false,
            foul: false,
            walls: 0,
            frames: Vec::new(),
            rescored: Vec::new(),
            learned: None,
            held: 0,
            held_score: 0,
        };
        let playable: Vec<usize> = board.playable().collect();
        for &i in &playable {
            board.cells[i].code = EMPTY_CELL;
        }
        for &i in &playable {
            for (d, &step) in DIRECTIONS.iter().enumerate() {
                for offset in (-(REACH as isize)..=REACH as isize).filter(|&o| o != 0) {
                    let neighbour = board.cells[(i as isize + offset * step) as usize].code;
                    board.cells[i].keys[d] |= u32::from(neighbour) << slot_shift(offset);
                }
            }
            board.threat_counts[0][Threat::None as usize] += 1;
            board.threat_counts[1][Threat::None as usize] += 1;
            for d in 0..4 {
                board.refresh(i, d);
            }
        }
        board.set_network(network::playing_for(rule, width, height));
        Ok(board)
    }

    /// Plays with `network`'s evaluation (`None`: the classical one) from now on, its features
    /// read from the position as it stands (moves made before are taken back by re-reading,
    /// as the new features have no frames for them).
    pub(crate) fn set_network(&mut self, network: Option<&'static Network>) {
        self.drop_frames();
        self.learned = network.map(|network| {
            let mut learned = Accumulator::new(network, self.width * self.height);
            for i in self.playable().filter(|&i| self.cells[i].code != WALL_CELL) {
                learned.add(i, self.cells[i].code, &self.cells[i].keys);
            }
            learned
        });
    }

    /// A position from its stones, in any order; the side to move follows from the counts.
    /// A five already on the board ends the game (the winner is whoever has it); the order the
    /// stones are placed in cannot end it early.
    pub fn from_stones(
        width: usize,
        height: usize,
        rule: Rule,
        black: &[Move],
        white: &[Move],
    ) -> Result<Board, BoardError> {
        if black.len() != white.len() && black.len() != white.len() + 1 {
            return Err(BoardError::Counts { black: black.len(), white: white.len() });
        }
        let side = if black.len() == white.len() { Color::Black } else { Color::White };
        Board::new(width, height, rule)?.with_stones(black, white, side)
    }

    /// This board (empty but for walls) with the stones placed, `side` to move whatever their
    /// counts: a continuous game's walls are earlier fives' stones, whose colours are lost, so
    /// the stones left need not alternate. A colour that runs out passes its turns.
    pub(super) fn with_stones(mut self, black: &[Move], white: &[Move], side: Color) -> Result<Board, BoardError> {
        let (mut black, mut white) = (black.iter(), white.iter());
        while black.len() + white.len() > 0 {
            let next = if self.side == Color::Black { black.next() } else { white.next() };
            let Some(&mv) = next else {
                self.flip_side();
                continue;
            };
            let error = if !self.contains(mv) {
                Some(MoveError::OffBoard)
            } else if !self.is_empty(mv) {
                Some(MoveError::Occupied)
            } else {
                None
            };
            if let Some(error) = error {
                return Err(BoardError::Stone { mv, error });
            }
            self.make(mv);
            self.won = false;
        }
        if self.side != side {
            self.flip_side();
        }
        let last_mover = self.side.opponent();
        if self.has_five(self.side) {
            return Err(BoardError::Finished);
        }
        self.won = self.has_five(last_mover);
        Ok(self)
    }

    /// Hands the move over while a position is set up (a [`Board::pass`] without its check that
    /// the game is on).
    fn flip_side(&mut self) {
        self.hash ^= zobrist().white_to_move;
        self.side = self.side.opponent();
    }

    /// Whether `color` has a winning line on the board, by the rule's definition of five.
    fn has_five(&self, color: Color) -> bool {
        let exact = match (self.rule, color) {
            (Rule::Standard, _) | (Rule::Renju, Color::Black) => true,
            (Rule::Freestyle | Rule::Caro, _) | (Rule::Renju, Color::White) => false,
        };
        let code = color.code();
        let opponent = color.opponent().code();
        self.playable().filter(|&i| self.cells[i].code == code).any(|i| {
            DIRECTIONS.iter().any(|&step| {
                // Count each run once, from its first stone.
                let before = (i as isize - step) as usize;
                if self.cells[before].code == code {
                    return false;
                }
                let run = (0..).take_while(|&k| self.cells[(i as isize + k * step) as usize].code == code).count();
                let after = (i as isize + run as isize * step) as usize;
                let blocked = self.cells[before].code == opponent && self.cells[after].code == opponent;
                (run == 5 && !(self.rule == Rule::Caro && blocked)) || (run > 5 && !exact)
            })
        })
    }

    /// Every cell of the board, row by row.
    pub fn playable_moves(&self) -> impl Iterator<Item = Move> + use<> {
        self.playable().map(Move::from_index)
    }

    /// Playable cell indices, row by row.
    pub(crate) fn playable(&self) -> impl Iterator<Item = usize> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| (y + PAD) * STRIDE + x + PAD))
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    pub fn history(&self) -> &[Move] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().copied()
    }

    pub fn contains(&self, mv: Move) -> bool {
        mv.x() < self.width && mv.y() < self.height
    }

    /// Whether padded-array index `i` is a cell of the board, not of the padding.
    fn on_board(&self, i: usize) -> bool {
        let (x, y) = (i % STRIDE, i / STRIDE);
        (PAD..PAD + self.width).contains(&x) && (PAD..PAD + self.height).contains(&y)
    }

    /// The stone on `mv`, `None` when empty or off the board.
    pub fn stone(&self, mv: Move) -> Option<Color> {
        match self.cells[mv.index()].code {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    pub fn is_empty(&self, mv: Move) -> bool {
        self.cells[mv.index()].code == EMPTY_CELL
    }

    pub fn winner(&self) -> Option<Color> {
        if self.foul { Some(Color::White) } else { self.won.then(|| self.side.opponent()) }
    }

    pub fn is_full(&self) -> bool {
        self.history.len() + self.walls == self.width * self.height
    }

    /// Turns the empty cell `mv` into a wall that belongs to neither side: a continuous game's
    /// stone of an earlier five or forbidden point (Gomocup `BOARD` field 3). Walls are part of
    /// the position, not of its history, so they are never taken back.
    pub fn add_wall(&mut self, mv: Move) -> Result<(), MoveError> {
        if !self.contains(mv) {
            return Err(MoveError::OffBoard);
        }
        if !self.is_empty(mv) {
            return Err(MoveError::Occupied);
        }
        let i = mv.index();
        self.drop_frames();
        self.exclude(i);
        self.set_cell(i, WALL_CELL, true);
        self.hash ^= zobrist().cells[0][i] ^ zobrist().cells[1][i];
        self.walls += 1;
        Ok(())
    }

    /// The cells [`Board::add_wall`] walled off, row by row: what a board rebuilt from this one's
    /// stones must wall off again.
    pub fn wall_cells(&self) -> impl Iterator<Item = Move> + use<'_> {
        self.playable().filter(|&i| self.cells[i].code == WALL_CELL).map(Move::from_index)
    }

    pub fn is_over(&self) -> bool {
        self.won || self.foul || self.is_full()
    }

    /// Whether the game cannot go on though no one has won and the board is not full: renju's
    /// black to move with every empty point forbidden, a draw as a full board is.
    pub fn only_forbidden_points_left(&self) -> bool {
        !self.is_over()
            && self.side == Color::Black
            && self.rule() == Rule::Renju
            && self.playable_moves().all(|mv| !self.is_empty(mv) || self.is_forbidden(mv))
    }

    /// The empty points where the side to move may not play: renju black's double threes, double
    /// fours and overlines; under every other rule, and for white, none.
    pub fn forbidden_points(&self) -> Vec<Move> {
        if self.side != Color::Black {
            return Vec::new();
        }
        self.playable_moves().filter(|&mv| self.is_empty(mv) && self.is_forbidden(mv)).collect()
    }

    /// Plays a checked move for the side to move. Renju black's forbidden move is played, and
    /// loses: the opponent may make one, and then the game is over.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        if !self.contains(mv) {
            return Err(MoveError::OffBoard);
        }
        if !self.is_empty(mv) {
            return Err(MoveError::Occupied);
        }
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let foul = self.side == Color::Black && self.is_forbidden(mv);
        self.make(mv);
        self.foul = foul;
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.last_move()?;
        self.unmake(mv);
        Some(mv)
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash after the side to move plays `mv`, without playing it: what a solver needs to
    /// look a child up in its table, and what [`Board::make`] and [`Board::unmake`] switch
    /// between (the key of a stone and the move's turn are their own inverses).
    #[inline]
    pub(crate) fn hash_after(&self, mv: Move) -> u64 {
        self.hash ^ zobrist().cells[self.side.index()][mv.index()] ^ zobrist().white_to_move
    }

    /// The kill shape `color` would make on the empty cell `mv`.
    pub fn threat(&self, mv: Move, color: Color) -> Threat {
        self.entry(mv, color).threat()
    }

    pub(crate) fn value(&self, mv: Move, color: Color) -> Score {
        Score::from(self.entry(mv, color).value()[MOVER])
    }

    fn entry(&self, mv: Move, color: Color) -> CellEntry {
        self.cells[mv.index()].entries[color.index()]
    }

    /// The shapes `color` would make on the empty cell `mv`, one per direction.
    pub(crate) fn shapes(&self, mv: Move, color: Color) -> [Shape; 4] {
        unpack_shapes(self.cells[mv.index()].shapes[color.index()])
    }

    /// The line key of the neighbours of cell `i` in direction `d`.
    pub(crate) fn line_key(&self, i: usize, d: usize) -> u32 {
        self.cells[i].keys[d]
    }

    pub(crate) fn pattern_table(&self) -> &'static PatternTable {
        self.table
    }

    /// The threat `color` would make on empty `cell` if a `stone` were added `offset` cells
    /// away along direction `direction`, computed from the line key without playing it.
    pub(crate) fn threat_with_stone(
        &self,
        cell: Move,
        direction: usize,
        offset: isize,
        stone: Color,
        color: Color,
    ) -> Threat {
        let state = &self.cells[cell.index()];
        let key = state.keys[direction] | u32::from(stone.code()) << slot_shift(offset);
        let shape = pair_shape(self.table.pair(key), color.index());
        let shapes = with_shape(state.shapes[color.index()], direction, shape);
        self.cell_tables[color.index()].entry(shapes).threat()
    }

    /// Empty cells where `color` would make exactly `threat`.
    pub fn threat_count(&self, color: Color, threat: Threat) -> u32 {
        self.threat_counts[color.index()][threat as usize]
    }

    /// The learned evaluation's features, when the board plays with a network and they are
    /// not held.
    pub(crate) fn learned(&self) -> Option<&Accumulator> {
        self.learned.as_ref().filter(|_| self.held == 0)
    }

    /// The learned features while they are kept move by move: not held.
    fn learned_kept(&mut self) -> Option<&mut Accumulator> {
        self.learned.as_mut().filter(|_| self.held == 0)
    }

    /// Evaluation from the side to move: where the board plays with a network, its value and
    /// the classical evaluation mixed by `gomoku_network_share`.
    pub fn evaluate(&self) -> Score {
        let own = self.side.index();
        let classical = || eval::evaluate(eval::roles(self.totals[own]), eval::roles(self.totals[1 - own]));
        match &self.learned {
            Some(learned) => {
                let share = params::get(Id::gomoku_network_share);
                let network = match self.held {
                    0 => learned.score(self.side),
                    held if held % 2 == 0 => self.held_score,
                    _ => -self.held_score,
                };
                (network * share + classical() * (100 - share)) / 100
            }
            None => classical(),
        }
    }

    /// [`Board::make`] with the learned features held where they are: the network's part of
    /// the evaluation stays that of the position the hold began in (from each side to move's
    /// view), and the moves cost what they cost without a network. For the horizon's forcing
    /// moves, whose merits the classical evaluation judges; [`Board::unmake_held`] takes the
    /// move back.
    pub(crate) fn make_held(&mut self, mv: Move) {
        if self.held == 0
            && let Some(learned) = &mut self.learned
        {
            self.held_score = learned.remembered_score(self.side);
        }
        self.held += 1;
        self.make(mv);
    }

    /// Exactly undoes [`Board::make_held`] of the last move.
    pub(crate) fn unmake_held(&mut self, mv: Move) {
        debug_assert!(self.held > 0);
        self.unmake(mv);
        self.held -= 1;
    }

    /// Places a stone for the side to move; the cell must be empty and the game not over.
    pub(crate) fn make(&mut self, mv: Move) {
        let i = mv.index();
        let color = self.side;
        debug_assert!(self.cells[i].code == EMPTY_CELL && !self.won);
        self.won = self.shapes(mv, color).contains(&Shape::Five);
        self.open_frame(i);
        self.exclude(i);
        self.set_cell(i, color.code(), true);
        self.hash = self.hash_after(mv);
        self.side = color.opponent();
        self.history.push(mv);
        self.foul = false;
    }

    /// Gives the move to the opponent without placing a stone: the stones, and with them every
    /// shape and count, stay as they are. Its own inverse.
    pub(crate) fn pass(&mut self) {
        debug_assert!(!self.is_over());
        self.flip_side();
    }

    /// Exactly undoes [`Board::make`] of the last move.
    pub(crate) fn unmake(&mut self, mv: Move) {
        let i = mv.index();
        debug_assert_eq!(self.history.last(), Some(&mv));
        self.history.pop();
        self.side = self.side.opponent();
        self.hash = self.hash_after(mv);
        if !self.frames.is_empty() {
            self.set_cell(i, EMPTY_CELL, false);
            self.restore_frame(i);
        } else {
            self.set_cell(i, EMPTY_CELL, true);
            self.include(i);
        }
        self.won = false;
        self.foul = false;
    }

    /// The first move of a board without stones: the centre, or the empty cell nearest it
    /// where a continuous game's wall stands there.
    pub fn first_move(&self) -> Move {
        let (x, y) = (self.width / 2, self.height / 2);
        let distance = |mv: &Move| mv.x().abs_diff(x).pow(2) + mv.y().abs_diff(y).pow(2);
        let empty = self.playable_moves().filter(|&mv| self.is_empty(mv));
        empty.min_by_key(|mv| (distance(mv), mv.index())).expect("a board whose game is on has an empty cell")
    }

    /// Text diagram, row 0 on top: `X` black, `O` white, `.` empty.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for y in 0..self.height {
            for x in 0..self.width {
                let mv = Move::new(x, y).expect("on board");
                out.push(match self.stone(mv) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gomoku::eval::pack_shapes;

    pub fn mv(x: usize, y: usize) -> Move {
        Move::new(x, y).unwrap()
    }

    /// The black (`X`) and white (`O`) stones of rows drawn top row first.
    pub fn stones_from(rows: &[&str]) -> (Vec<Move>, Vec<Move>) {
        let mut black = Vec::new();
        let mut white = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                match c {
                    'X' => black.push(mv(x, y)),
                    'O' => white.push(mv(x, y)),
                    _ => {}
                }
            }
        }
        (black, white)
    }

    /// A 15x15 board (larger if a row is longer) from rows of `X`, `O` and `.`; the side to
    /// move follows from the counts.
    pub fn board_from(rows: &[&str], rule: Rule) -> Board {
        let (black, white) = stones_from(rows);
        let size = rows.iter().map(|r| r.len()).chain([rows.len(), 15]).max().unwrap();
        Board::from_stones(size, size, rule, &black, &white).unwrap()
    }

    fn fresh_state(board: &Board) -> Board {
        let mut fresh = Board::new(board.width, board.height, board.rule).unwrap();
        for &m in &board.history {
            fresh.make(m);
        }
        fresh
    }

    /// The board's cache recomputed from its stones alone, cell by cell, sharing nothing with
    /// the incremental update but the tables.
    fn rebuilt(board: &Board) -> Board {
        let mut fresh = board.clone();
        fresh.totals = [0; 2];
        fresh.threat_counts = [[0; THREAT_KINDS]; 2];
        fresh.candidate_bits = [0; CANDIDATE_WORDS];
        let mut on_board = vec![false; CELLS];
        for i in board.playable() {
            on_board[i] = true;
        }
        for i in board.playable() {
            let cell = &board.cells[i];
            let at = |d: usize, offset: isize| board.cells[(i as isize + offset * DIRECTIONS[d]) as usize].code;
            let keys: [u32; 4] = std::array::from_fn(|d| {
                (-(REACH as isize)..=REACH as isize)
                    .filter(|&o| o != 0)
                    .fold(0, |key, o| key | u32::from(at(d, o)) << slot_shift(o))
            });
            // Stones and added walls count; the padding does not.
            let near = (0..4)
                .flat_map(|d| [-2, -1, 1, 2].map(|o| (i as isize + o * DIRECTIONS[d]) as usize))
                .filter(|&q| on_board[q] && board.cells[q].code != EMPTY_CELL)
                .count() as u8;
            fresh.cells[i].keys = keys;
            if cell.code != EMPTY_CELL {
                continue;
            }
            let shapes: [[Shape; 4]; 2] =
                std::array::from_fn(|c| std::array::from_fn(|d| board.table.shapes(keys[d])[c]));
            for (c, &lines) in shapes.iter().enumerate() {
                fresh.cells[i].shapes[c] = pack_shapes(lines);
                let entry = board.cell_tables[c].entry(pack_shapes(lines));
                fresh.cells[i].entries[c] = entry;
                fresh.threat_counts[c][entry.threat() as usize] += 1;
                fresh.totals[c] += entry.worth();
            }
            if near > 0 {
                fresh.candidate_bits[i / 64] |= 1 << (i % 64);
            }
        }
        fresh
    }

    fn assert_same_state(a: &Board, b: &Board) {
        assert_eq!(a.hash, b.hash);
        assert_eq!(a.totals, b.totals);
        assert_eq!(a.threat_counts, b.threat_counts);
        assert_eq!(a.candidate_bits, b.candidate_bits);
        // A wall's shapes are never read, so they are not kept.
        for i in a.playable().filter(|&i| a.cells[i].code != WALL_CELL) {
            let (x, y) = (&a.cells[i], &b.cells[i]);
            assert!(x.keys == y.keys && x.code == y.code, "cell {i}");
            if x.code == EMPTY_CELL {
                assert!(x == y, "cell {i}");
            }
        }
    }

    #[test]
    fn walls_block_lines_and_stay() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for x in 1..=4 {
            board.play(mv(x, 5)).unwrap();
            board.play(mv(x, 9)).unwrap();
        }
        assert_eq!(board.threat_count(Color::Black, Threat::Five), 2);
        let before = board.hash();
        board.add_wall(mv(0, 5)).unwrap();
        assert_eq!(board.threat_count(Color::Black, Threat::Five), 1);
        board.add_wall(mv(5, 5)).unwrap();
        assert_eq!(board.threat_count(Color::Black, Threat::Five), 0);
        assert_ne!(board.hash(), before);
        assert!(!board.is_empty(mv(5, 5)) && board.stone(mv(5, 5)).is_none());
        assert_eq!(board.add_wall(mv(1, 5)), Err(MoveError::Occupied));
        assert_eq!(board.play(mv(5, 5)), Err(MoveError::Occupied));
        board.undo();
        assert!(!board.is_empty(mv(0, 5)), "walls are not part of the history");
    }

    #[test]
    fn make_unmake_restores_everything() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let start = board.clone();
        let moves = [mv(7, 7), mv(8, 8), mv(0, 0), mv(14, 14), mv(6, 6), mv(7, 8), mv(0, 14)];
        for &m in &moves {
            board.play(m).unwrap();
            assert_same_state(&board, &fresh_state(&board));
        }
        for _ in moves {
            board.undo();
        }
        assert_same_state(&board, &start);
    }

    /// Pseudo-random numbers below `n`, from a seed.
    fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        }
    }

    /// One step of a random game in the `window` x `window` square at (`corner`, `corner`): a
    /// take-back one time in four (always once the game is over), else a stone on a random cell
    /// if it is empty, a wall one time in `wall_odds`.
    fn random_step(
        board: &mut Board,
        next: &mut impl FnMut(usize) -> usize,
        corner: usize,
        window: usize,
        wall_odds: usize,
    ) {
        let cell = mv(corner + next(window), corner + next(window));
        if board.is_over() || (!board.history.is_empty() && next(4) == 0) {
            board.undo();
        } else if board.is_empty(cell) {
            if next(wall_odds) == 0 {
                board.add_wall(cell).unwrap();
            } else {
                board.make(cell);
            }
        }
    }

    /// The incremental update against the board's cache rebuilt from its stones and walls,
    /// along pseudo-random games with take-backs and walls added, under every rule (the compact
    /// and the full pattern tables) and on the smallest and largest boards, in the top left and
    /// the bottom right corner.
    #[test]
    fn incremental_state_matches_a_rebuilt_board_along_random_games() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for (size, rule) in [
            (15, Rule::Freestyle),
            (15, Rule::Standard),
            (15, Rule::Renju),
            (15, Rule::Caro),
            (5, Rule::Freestyle),
            (32, Rule::Caro),
        ] {
            for game in 0..8 {
                let mut board = Board::new(size, size, rule).unwrap();
                // Crowded into a corner window, so that long lines, overlines and lines shut by
                // the board's edge come up.
                let window = size.min(7);
                let corner = if game % 2 == 0 { 0 } else { size - window };
                for _ in 0..80 {
                    random_step(&mut board, &mut next, corner, window, 30);
                    assert_same_state(&board, &rebuilt(&board));
                }
            }
        }
    }

    /// The learned evaluation kept move by move against the network read from scratch (value
    /// and every empty cell's policy) and against features rebuilt from the position (the value
    /// from the side not to move), along random games with take-backs and walls, near the
    /// edges of a small and a large board too; odd games with the portable code, even ones with
    /// the processor's best; the embedded network, the same with a per-cell layer, with a
    /// value head that reads a mean per cell content, and with both; and with a mean per threat
    /// class, alone and with the layer, and per four class.
    #[test]
    fn learned_features_kept_incrementally_match_a_fresh_read() {
        let plain: &'static Network = Box::leak(Box::new(network::embedded()));
        let layered: &'static Network = Box::leak(Box::new(network::embedded().with_test_cell_layer()));
        let pooled: &'static Network = Box::leak(Box::new(network::embedded().with_test_content_pools()));
        let both: &'static Network =
            Box::leak(Box::new(network::embedded().with_test_cell_layer().with_test_content_pools()));
        let threat: &'static Network = Box::leak(Box::new(network::embedded().with_test_threat_pools()));
        let layered_threat: &'static Network =
            Box::leak(Box::new(network::embedded().with_test_cell_layer().with_test_threat_pools()));
        let four: &'static Network = Box::leak(Box::new(network::embedded().with_test_four_pools()));
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for (network, size, rule, window) in [
            (plain, 15, Rule::Freestyle, 15),
            (layered, 15, Rule::Freestyle, 15),
            (pooled, 15, Rule::Freestyle, 15),
            (both, 15, Rule::Freestyle, 15),
            (plain, 15, Rule::Renju, 7),
            (layered, 5, Rule::Standard, 5),
            (pooled, 5, Rule::Standard, 5),
            (plain, 20, Rule::Caro, 7),
            (pooled, 20, Rule::Caro, 7),
            (both, 20, Rule::Caro, 7),
            (threat, 15, Rule::Freestyle, 15),
            (threat, 15, Rule::Freestyle, 7),
            (layered_threat, 15, Rule::Freestyle, 7),
            (four, 15, Rule::Freestyle, 7),
            (threat, 5, Rule::Standard, 5),
        ] {
            for game in 0..4 {
                let mut board = Board::new(size, size, rule).unwrap();
                board.set_network(Some(network));
                if game % 2 == 1 {
                    board.learned.as_mut().unwrap().portable();
                }
                let corner = if game % 2 == 0 { 0 } else { size - window };
                for _ in 0..60 {
                    random_step(&mut board, &mut next, corner, window, 25);
                    let learned = board.learned().unwrap();
                    let side = board.side_to_move();
                    let reference = network.evaluate(&board);
                    assert_eq!(learned.value(side), reference.value);
                    for &(cell, logit) in &reference.policy {
                        assert_eq!(learned.policy(cell.index(), side), logit);
                    }
                    let mut rebuilt = board.clone();
                    rebuilt.set_network(Some(network));
                    assert!(rebuilt.learned().unwrap().same_features(learned));
                    let other = side.opponent();
                    assert_eq!(learned.value(other), rebuilt.learned().unwrap().value(other));
                }
            }
        }
    }

    /// Moves made held leave the learned features as they were and the rest of the board as
    /// plain moves leave it; the network's part of the evaluation stays the score the hold
    /// began with, negated when the other side is to move; taking the moves back returns to
    /// features kept move by move. Several holds on one board, each from the same position
    /// twice (as the horizon tries one forcing move after another), between them moves,
    /// take-backs, walls and passes, and before the second a kept move held after and taken
    /// back; after each change every score the features remember must be theirs, so that a
    /// hold never starts from a score they have since left. Held moves are taken back with
    /// frames and without.
    #[test]
    fn held_moves_keep_the_network_s_features_and_score() {
        let network: &'static Network = Box::leak(Box::new(network::embedded()));
        let share = params::get(Id::gomoku_network_share);
        let mut next = xorshift(0x5851_F42D_4C95_7F2D);
        for game in 0..12 {
            let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
            board.set_network(Some(network));
            for round in 0..8 {
                for _ in 0..if round == 0 { 30 } else { 1 + next(4) } {
                    random_step(&mut board, &mut next, 0, 15, if game % 3 == 0 { 8 } else { 1000 });
                    assert!(board.learned.as_ref().unwrap().remembered_scores_are_current());
                }
                let passed = round % 3 == 2 && !board.is_over();
                if passed {
                    board.pass();
                    assert!(board.learned.as_ref().unwrap().remembered_scores_are_current());
                }
                let before = board.learned().unwrap().clone();
                let held_score = before.score(board.side_to_move());
                for repeat in 0..2 {
                    let candidates: Vec<Move> = board.candidates().collect();
                    if repeat == 1 && !board.is_over() && !candidates.is_empty() {
                        // A kept move, a hold after it, and the move taken back: the take-back
                        // must forget the score the hold remembered.
                        let cell = candidates[next(candidates.len())];
                        board.make(cell);
                        let reply: Vec<Move> = board.candidates().collect();
                        if !board.is_over() && !reply.is_empty() {
                            board.make_held(reply[0]);
                            board.unmake_held(reply[0]);
                        }
                        board.unmake(cell);
                        assert!(board.learned.as_ref().unwrap().remembered_scores_are_current());
                    }
                    let mut plain = board.clone();
                    let mut made = Vec::new();
                    for ply in 0..6 {
                        let candidates: Vec<Move> = board.candidates().collect();
                        if board.is_over() || candidates.is_empty() {
                            break;
                        }
                        let cell = candidates[next(candidates.len())];
                        board.make_held(cell);
                        plain.make(cell);
                        made.push(cell);
                        assert_eq!(board.held_score, held_score);
                        assert!(board.learned().is_none());
                        assert_same_state(&board, &plain);
                        let mut classical = plain.clone();
                        classical.set_network(None);
                        let network_part = if ply % 2 == 0 { -held_score } else { held_score };
                        assert_eq!(
                            board.evaluate(),
                            (network_part * share + classical.evaluate() * (100 - share)) / 100
                        );
                    }
                    for &cell in made.iter().rev() {
                        board.unmake_held(cell);
                    }
                    assert!(board.learned().unwrap().same_features(&before));
                    assert!(board.learned().unwrap().remembered_scores_are_current());
                    assert_eq!(
                        board.evaluate(),
                        Board::evaluate(&{
                            let mut rebuilt = board.clone();
                            rebuilt.set_network(Some(network));
                            rebuilt
                        })
                    );
                }
                if passed {
                    board.pass();
                }
            }
        }
    }

    #[test]
    fn moves_made_before_a_wall_are_taken_back_by_re_reading_their_lines() {
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        for m in [mv(7, 7), mv(8, 8), mv(6, 7)] {
            board.play(m).unwrap();
        }
        board.add_wall(mv(9, 7)).unwrap();
        for m in [mv(5, 7), mv(8, 7), mv(9, 9)] {
            board.play(m).unwrap();
        }
        while board.undo().is_some() {}
        let mut expected = Board::new(15, 15, Rule::Freestyle).unwrap();
        expected.add_wall(mv(9, 7)).unwrap();
        assert_same_state(&board, &expected);
    }

    #[test]
    fn coordinates_round_trip_on_every_size() {
        for size in [5, 15, 20, 32] {
            for (x, y) in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)] {
                let m = mv(x, y);
                assert_eq!((m.x(), m.y()), (x, y));
                assert!(Board::new(size, size, Rule::Freestyle).unwrap().contains(m));
            }
        }
        assert!(Move::new(32, 0).is_none());
        assert!(Board::new(4, 15, Rule::Freestyle).is_err());
        assert!(Board::new(15, 33, Rule::Freestyle).is_err());
    }

    #[test]
    fn five_wins_and_ends_the_game() {
        let mut board =
            board_from(&["...............", ".XXXX..........", ".OOOO..........", "..............."], Rule::Freestyle);
        // 4 black, 4 white: black to move completes five.
        assert_eq!(board.side_to_move(), Color::Black);
        board.play(mv(5, 1)).unwrap();
        assert_eq!(board.winner(), Some(Color::Black));
        assert_eq!(board.play(mv(5, 2)), Err(MoveError::GameOver));
        board.undo();
        assert_eq!(board.winner(), None);
    }

    #[test]
    fn exact_five_overline_does_not_win() {
        let rows = ["XXX.XX.........", "OOO.OO.........", "..............."];
        let mut standard = board_from(&rows, Rule::Standard);
        standard.play(mv(3, 0)).unwrap();
        assert_eq!(standard.winner(), None);
        let mut free = board_from(&rows, Rule::Freestyle);
        free.play(mv(3, 0)).unwrap();
        assert_eq!(free.winner(), Some(Color::Black));
    }

    #[test]
    fn a_set_up_five_ends_the_game_whatever_the_order() {
        // Black's six is not a win under exact five, even though five of its stones come first.
        let rows = ["XXXXXX.........", "OOO.O..O......."];
        let standard = board_from(&rows, Rule::Standard);
        assert_eq!(standard.winner(), None);
        let free = board_from(&rows, Rule::Freestyle);
        assert_eq!(free.winner(), Some(Color::Black));
        let black = [mv(0, 0), mv(1, 0), mv(2, 0), mv(3, 0), mv(4, 0)];
        let white = [mv(0, 1), mv(1, 1), mv(2, 1), mv(3, 1), mv(4, 1)];
        assert_eq!(Board::from_stones(15, 15, Rule::Freestyle, &black, &white).err(), Some(BoardError::Finished));
    }

    #[test]
    fn caro_five_blocked_at_both_ends_does_not_win() {
        let mut board = board_from(&["OXXXX.O........", ".OO............"], Rule::Caro);
        board.play(mv(5, 0)).unwrap();
        assert_eq!(board.winner(), None);
        let board = board_from(&["OXXXXXO........", ".OO............"], Rule::Caro);
        assert_eq!(board.winner(), None);
        // The edge blocks nothing.
        let mut board = board_from(&["XXXX.O.........", ".OOO..........."], Rule::Caro);
        board.play(mv(4, 0)).unwrap();
        assert_eq!(board.winner(), Some(Color::Black));
        let board = board_from(&["XXXXXO.........", ".OOO..........."], Rule::Caro);
        assert_eq!(board.winner(), Some(Color::Black));
    }

    #[test]
    fn bad_positions_are_refused() {
        assert!(matches!(
            Board::from_stones(15, 15, Rule::Freestyle, &[mv(1, 1), mv(2, 2)], &[]),
            Err(BoardError::Counts { .. })
        ));
        assert!(matches!(
            Board::from_stones(15, 15, Rule::Freestyle, &[mv(1, 1)], &[mv(1, 1)]),
            Err(BoardError::Stone { error: MoveError::Occupied, .. })
        ));
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(board.play(mv(15, 3)), Err(MoveError::OffBoard));
    }
}
