//! Tic-tac-toe and its m,n,k generalisations (a `width` x `height` board, `k` in a row wins),
//! solved exactly by the generic search: every move is searched to the end of the game, nothing is
//! reduced or pruned, so the score is the game-theoretic value with its distance.

use std::fmt;

use crate::game::{Game, Outcome, Playable, Verdict, grid_diagram};
use crate::score::Score;
use crate::zobrist::KeyStream;

/// Largest side: both players' stones fit one `u64` each.
pub const MAX_SIDE: usize = 8;
const MAX_CELLS: usize = 64;

/// One of the two players; X moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    X,
    O,
}

impl Mark {
    pub fn opponent(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }
}

/// A cell, `row * width + column`, rows counted from the bottom (`a1` is the lower left corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    index: u8,
    width: u8,
}

impl Cell {
    pub fn column(self) -> usize {
        usize::from(self.index % self.width)
    }

    pub fn row(self) -> usize {
        usize::from(self.index / self.width)
    }

    fn bit(self) -> u64 {
        1 << self.index
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.column() as u8), self.row() + 1)
    }
}

/// Why a move or a board cannot be accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TicTacToeError {
    BadShape { width: usize, height: usize, k: usize },
    Unreadable(String),
    OffBoard(String),
    Occupied(Cell),
    GameOver,
    BadSetup(String),
}

impl fmt::Display for TicTacToeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TicTacToeError::BadShape { width, height, k } => {
                write!(
                    f,
                    "cannot play {k} in a row on {width}x{height} (sides 1 to {MAX_SIDE}, k up to the longer side)"
                )
            }
            TicTacToeError::Unreadable(text) => write!(f, "'{text}' is not a cell like b2"),
            TicTacToeError::OffBoard(text) => write!(f, "{text} is off the board"),
            TicTacToeError::Occupied(cell) => write!(f, "{cell} is already taken"),
            TicTacToeError::GameOver => write!(f, "the game is over"),
            TicTacToeError::BadSetup(why) => write!(f, "bad position: {why}"),
        }
    }
}

impl std::error::Error for TicTacToeError {}

/// An m,n,k-game position: both players' stones, the lines that win, and the hash.
#[derive(Clone, Debug)]
pub struct TicTacToe {
    width: usize,
    height: usize,
    k: usize,
    stones: [u64; 2],
    to_move: Mark,
    /// Every run of `k` cells in a row, column or diagonal.
    lines: Vec<u64>,
    /// For each cell, the indices into `lines` of the runs through it.
    lines_through: Vec<Vec<u16>>,
    /// The run completed by the last move, if it won.
    winning_line: Option<u64>,
    hash: u64,
}

/// Zobrist keys per player and cell, and for the side to move; fixed so hashes are reproducible.
struct Keys {
    cells: [[u64; MAX_CELLS]; 2],
    side: u64,
}

const KEYS: Keys = {
    let mut keys = KeyStream::new(0x7A3C_5E19_D2B4_8F61);
    let mut cells = [[0u64; MAX_CELLS]; 2];
    let mut player = 0;
    while player < 2 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            cells[player][cell] = keys.next_key();
            cell += 1;
        }
        player += 1;
    }
    Keys { cells, side: keys.next_key() }
};

impl TicTacToe {
    /// The classic game: 3x3, three in a row.
    pub fn classic() -> TicTacToe {
        TicTacToe::new(3, 3, 3).expect("3x3 is a valid shape")
    }

    pub fn new(width: usize, height: usize, k: usize) -> Result<TicTacToe, TicTacToeError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) || k == 0 || k > width.max(height) {
            return Err(TicTacToeError::BadShape { width, height, k });
        }
        let mut lines = Vec::new();
        for row in 0..height as isize {
            for column in 0..width as isize {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let end = (column + dc * (k as isize - 1), row + dr * (k as isize - 1));
                    if (0..width as isize).contains(&end.0) && (0..height as isize).contains(&end.1) {
                        let mask = (0..k as isize)
                            .map(|i| 1u64 << ((row + dr * i) * width as isize + column + dc * i))
                            .fold(0, |acc, bit| acc | bit);
                        if !lines.contains(&mask) {
                            lines.push(mask);
                        }
                    }
                }
            }
        }
        let lines_through = (0..width * height)
            .map(|cell| (0..lines.len()).filter(|&i| lines[i] & (1 << cell) != 0).map(|i| i as u16).collect::<Vec<_>>())
            .collect();
        Ok(TicTacToe {
            width,
            height,
            k,
            stones: [0; 2],
            to_move: Mark::X,
            lines,
            lines_through,
            winning_line: None,
            hash: 0,
        })
    }

    /// A position from rows of `x`, `o` and `.`, top row first, separated by `/` (`x.o/.x./...`);
    /// the side to move follows from the counts, X first.
    pub fn from_rows(rows: &str, k: usize) -> Result<TicTacToe, TicTacToeError> {
        let rows: Vec<&str> = rows.split('/').collect();
        let width = rows[0].chars().count();
        if rows.iter().any(|r| r.chars().count() != width) {
            return Err(TicTacToeError::BadSetup("rows of different lengths".into()));
        }
        let mut position = TicTacToe::new(width, rows.len(), k)?;
        let mut marks = [Vec::new(), Vec::new()];
        for (i, row) in rows.iter().enumerate() {
            for (column, c) in row.chars().enumerate() {
                let cell = position.cell(column, rows.len() - 1 - i).expect("inside the rows");
                match c.to_ascii_lowercase() {
                    'x' => marks[0].push(cell),
                    'o' => marks[1].push(cell),
                    '.' | '-' | '_' => {}
                    other => return Err(TicTacToeError::BadSetup(format!("'{other}' is not x, o or ."))),
                }
            }
        }
        let (xs, os) = (marks[0].len(), marks[1].len());
        if os > xs || xs > os + 1 {
            return Err(TicTacToeError::BadSetup(format!("{xs} X and {os} O cannot happen with X moving first")));
        }
        for cell in &marks[0] {
            position.toggle(*cell, Mark::X);
        }
        for cell in &marks[1] {
            position.toggle(*cell, Mark::O);
        }
        position.to_move = if xs == os { Mark::X } else { Mark::O };
        if position.to_move == Mark::O {
            position.hash ^= KEYS.side;
        }
        let won: Vec<Mark> = [Mark::X, Mark::O].into_iter().filter(|&m| position.completed_line(m).is_some()).collect();
        match won.as_slice() {
            [] => {}
            [winner] if *winner == position.to_move.opponent() => {
                position.winning_line = position.completed_line(*winner);
            }
            _ => return Err(TicTacToeError::BadSetup("only the player who moved last can have a line".into())),
        }
        Ok(position)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Stones in a row needed to win.
    pub fn k(&self) -> usize {
        self.k
    }

    pub fn side_to_move(&self) -> Mark {
        self.to_move
    }

    pub fn cell(&self, column: usize, row: usize) -> Option<Cell> {
        (column < self.width && row < self.height)
            .then(|| Cell { index: (row * self.width + column) as u8, width: self.width as u8 })
    }

    pub fn mark(&self, cell: Cell) -> Option<Mark> {
        if self.stones[0] & cell.bit() != 0 {
            Some(Mark::X)
        } else if self.stones[1] & cell.bit() != 0 {
            Some(Mark::O)
        } else {
            None
        }
    }

    pub fn empty_cells(&self) -> u32 {
        (self.width * self.height) as u32 - (self.stones[0] | self.stones[1]).count_ones()
    }

    /// The player who completed a line, if any.
    pub fn winner(&self) -> Option<Mark> {
        self.winning_line.map(|_| self.to_move.opponent())
    }

    /// The cells of the winning line, in board order.
    pub fn winning_cells(&self) -> Vec<Cell> {
        let line = self.winning_line.unwrap_or(0);
        (0..self.width * self.height)
            .filter(|&i| line & (1 << i) != 0)
            .map(|i| Cell { index: i as u8, width: self.width as u8 })
            .collect()
    }

    pub fn is_over(&self) -> bool {
        self.winning_line.is_some() || self.empty_cells() == 0
    }

    /// Reads `b2` (column letter, row number from the bottom) or `x,y` (0-based, as Gomocup
    /// managers write cells) and checks that the cell may be played now.
    pub fn parse_move(&self, text: &str) -> Result<Cell, TicTacToeError> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        let (column, row) = if let Some((x, y)) = lower.split_once(',') {
            let (x, y) = (x.trim().parse::<usize>(), y.trim().parse::<usize>());
            match (x, y) {
                (Ok(x), Ok(y)) => (x, y),
                _ => return Err(TicTacToeError::Unreadable(text.into())),
            }
        } else {
            let mut chars = lower.chars();
            let letter = chars.next().filter(char::is_ascii_lowercase);
            let number = chars.as_str().parse::<usize>().ok().filter(|&n| n >= 1);
            match (letter, number) {
                (Some(letter), Some(number)) => (usize::from(letter as u8 - b'a'), number - 1),
                _ => return Err(TicTacToeError::Unreadable(text.into())),
            }
        };
        let cell = self.cell(column, row).ok_or_else(|| TicTacToeError::OffBoard(text.into()))?;
        if self.is_over() {
            return Err(TicTacToeError::GameOver);
        }
        if self.mark(cell).is_some() {
            return Err(TicTacToeError::Occupied(cell));
        }
        Ok(cell)
    }

    /// The board drawn with coordinates, top row first; the cell `highlight` is bracketed.
    pub fn diagram(&self, highlight: Option<Cell>) -> String {
        let cell = |column, row| self.cell(column, row).expect("inside the board");
        grid_diagram(
            self.width,
            self.height,
            |column, row| self.mark(cell(column, row)).map_or('.', Mark::symbol),
            |column, row| highlight == Some(cell(column, row)),
        )
    }

    /// Puts a stone on an empty cell or takes it off again.
    fn toggle(&mut self, cell: Cell, mark: Mark) {
        self.stones[mark as usize] ^= cell.bit();
        self.hash ^= KEYS.cells[mark as usize][usize::from(cell.index)];
    }

    fn completed_line(&self, mark: Mark) -> Option<u64> {
        let stones = self.stones[mark as usize];
        self.lines.iter().copied().find(|&line| stones & line == line)
    }

    /// Runs through `cell` that `mark` could still complete, weighted by how far along they are.
    fn line_potential(&self, cell: Cell, mark: Mark) -> i32 {
        let (own, theirs) = (self.stones[mark as usize], self.stones[mark.opponent() as usize]);
        self.lines_through[usize::from(cell.index)]
            .iter()
            .map(|&i| self.lines[usize::from(i)])
            .filter(|&line| line & theirs == 0)
            .map(|line| 1 << (2 * (line & own).count_ones()))
            .sum()
    }
}

impl Game for TicTacToe {
    type Move = Cell;

    const HISTORY_SIZE: usize = MAX_CELLS;

    fn hash(&self) -> u64 {
        self.hash
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.winning_line.is_some() {
            Some(Outcome::Loss)
        } else if self.empty_cells() == 0 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn generate_moves(&self, out: &mut Vec<Cell>) {
        if self.is_over() {
            return;
        }
        let empty = !(self.stones[0] | self.stones[1]);
        out.extend(
            (0..self.width * self.height)
                .filter(|&i| empty & (1 << i) != 0)
                .map(|i| Cell { index: i as u8, width: self.width as u8 }),
        );
    }

    fn make_move(&mut self, cell: Cell) {
        let mark = self.to_move;
        self.toggle(cell, mark);
        let stones = self.stones[mark as usize];
        self.winning_line = self.lines_through[usize::from(cell.index)]
            .iter()
            .map(|&i| self.lines[usize::from(i)])
            .find(|&line| stones & line == line);
        self.to_move = mark.opponent();
        self.hash ^= KEYS.side;
    }

    fn unmake_move(&mut self, cell: Cell) {
        self.to_move = self.to_move.opponent();
        self.hash ^= KEYS.side;
        self.toggle(cell, self.to_move);
        // Play stops at the first line, so no line was complete before this move.
        self.winning_line = None;
    }

    /// Only reached on boards too big to solve in the time given: lines still open for each
    /// side, longer ones counting more.
    fn evaluate(&self) -> Score {
        let (me, them) = (self.to_move as usize, self.to_move.opponent() as usize);
        let open = |own: u64, theirs: u64| -> i32 {
            self.lines.iter().filter(|&&l| l & theirs == 0).map(|&l| 1 << (2 * (l & own).count_ones())).sum()
        };
        open(self.stones[me], self.stones[them]) - open(self.stones[them], self.stones[me])
    }

    fn encode_move(cell: Cell) -> u32 {
        u32::from(cell.index)
    }

    fn decode_move(&self, code: u32) -> Option<Cell> {
        let index = usize::try_from(code).ok().filter(|&i| i < self.width * self.height)?;
        let cell = Cell { index: index as u8, width: self.width as u8 };
        (self.mark(cell).is_none() && !self.is_over()).then_some(cell)
    }

    fn history_index(cell: Cell) -> usize {
        usize::from(cell.index)
    }

    fn order_scores(&self, cells: &[Cell], out: &mut Vec<i32>) {
        out.clear();
        out.extend(cells.iter().map(|&cell| self.order_score(cell)));
    }

    /// Exactness: the search must neither reduce nor prune any move of a solved game.
    fn is_tactical(&self, _cell: Cell) -> bool {
        true
    }
}

impl TicTacToe {
    /// Winning now first, then blocking the opponent's win, then the cells on most live lines.
    fn order_score(&self, cell: Cell) -> i32 {
        let completes = |mark: Mark| {
            let stones = self.stones[mark as usize] | cell.bit();
            self.lines_through[usize::from(cell.index)].iter().any(|&i| {
                let line = self.lines[usize::from(i)];
                stones & line == line
            })
        };
        if completes(self.to_move) {
            1_000_000
        } else if completes(self.to_move.opponent()) {
            100_000
        } else {
            self.line_potential(cell, self.to_move) + self.line_potential(cell, self.to_move.opponent())
        }
    }
}

impl Playable for TicTacToe {
    const NAME: &'static str = "tictactoe";
    const MOVE_FORMAT: &'static str = "a cell: column letter and row number (b2), or x,y counted from 0";
    const MOVE_EXAMPLE: &'static str = "b2";

    fn player_names(&self) -> [&'static str; 2] {
        ["x", "o"]
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// New boards keep the `k` the game was set up with (3x3 three in a row, 4x4 still
    /// three, ...); a board too small for it is refused rather than played with a smaller `k`.
    fn resized(&self, width: usize, height: usize) -> Result<Self, String> {
        TicTacToe::new(width, height, self.k).map_err(|e| e.to_string())
    }

    /// Rows top first, `x`, `o` and `.`, separated by `/`: `x.o/.x./...`.
    fn set_up(&self, text: &str) -> Result<Self, String> {
        let position = TicTacToe::from_rows(text.trim(), self.k).map_err(|e| e.to_string())?;
        if position.width != self.width || position.height != self.height {
            return Err(format!("the board is {}x{}", self.width, self.height));
        }
        Ok(position)
    }

    fn parse_move(&self, text: &str) -> Result<Cell, String> {
        TicTacToe::parse_move(self, text).map_err(|e| e.to_string())
    }

    fn setup_text(&self) -> String {
        let row = |row| {
            let mark = |column| self.cell(column, row).and_then(|cell| self.mark(cell));
            (0..self.width)
                .map(|column| match mark(column) {
                    Some(Mark::X) => 'x',
                    Some(Mark::O) => 'o',
                    None => '.',
                })
                .collect::<String>()
        };
        (0..self.height).rev().map(row).collect::<Vec<_>>().join("/")
    }

    fn diagram(&self, last: Option<Cell>) -> String {
        TicTacToe::diagram(self, last)
    }

    fn verdict(&self) -> Option<Verdict> {
        if let Some(winner) = self.winner() {
            let cells: Vec<String> = self.winning_cells().iter().map(ToString::to_string).collect();
            Some(Verdict { winner: Some(winner as usize), reason: format!("{} in a row: {}", self.k, cells.join(" ")) })
        } else if self.empty_cells() == 0 {
            Some(Verdict { winner: None, reason: "the board is full".into() })
        } else {
            None
        }
    }

    fn solving_depth(&self) -> Option<u32> {
        Some(self.empty_cells())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(position: &mut TicTacToe, moves: &[&str]) {
        for text in moves {
            let cell = position.parse_move(text).unwrap();
            position.make_move(cell);
        }
    }

    #[test]
    fn lines_of_the_classic_board() {
        let position = TicTacToe::classic();
        assert_eq!(position.lines.len(), 8);
        let centre = position.cell(1, 1).unwrap();
        assert_eq!(position.lines_through[usize::from(centre.index)].len(), 4);
        assert_eq!(TicTacToe::new(4, 4, 3).unwrap().lines.len(), 24);
    }

    #[test]
    fn reads_cells_and_refuses_bad_ones() {
        let mut position = TicTacToe::classic();
        assert_eq!(position.parse_move("B2").unwrap(), position.cell(1, 1).unwrap());
        assert_eq!(position.parse_move("0,2").unwrap(), position.cell(0, 2).unwrap());
        for bad in ["", "b", "2b", "b0", "bb", "1,x", "ab2"] {
            assert!(matches!(position.parse_move(bad), Err(TicTacToeError::Unreadable(_))), "{bad}");
        }
        assert!(matches!(position.parse_move("d1"), Err(TicTacToeError::OffBoard(_))));
        assert!(matches!(position.parse_move("3,0"), Err(TicTacToeError::OffBoard(_))));
        play(&mut position, &["b2"]);
        assert!(matches!(position.parse_move("b2"), Err(TicTacToeError::Occupied(_))));
    }

    #[test]
    fn a_line_ends_the_game_and_unmake_restores_everything() {
        let mut position = TicTacToe::classic();
        play(&mut position, &["a1", "b1", "a2", "b2"]);
        let before = position.clone();
        let cell = position.parse_move("a3").unwrap();
        position.make_move(cell);
        assert_eq!(position.winner(), Some(Mark::X));
        assert_eq!(position.outcome(), Some(Outcome::Loss));
        assert_eq!(position.winning_cells().iter().map(ToString::to_string).collect::<Vec<_>>(), ["a1", "a2", "a3"]);
        assert!(matches!(position.parse_move("c3"), Err(TicTacToeError::GameOver)));
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        assert!(moves.is_empty());
        position.unmake_move(cell);
        assert_eq!((position.hash(), position.stones, position.winner()), (before.hash(), before.stones, None));
    }

    #[test]
    fn positions_from_rows() {
        let position = TicTacToe::from_rows("x.o/.x./...", 3).unwrap();
        assert_eq!(position.side_to_move(), Mark::O);
        assert_eq!(crate::game::Playable::setup_text(&position), "x.o/.x./...");
        let mut same = TicTacToe::classic();
        play(&mut same, &["a3", "c3", "b2"]);
        assert_eq!(position.hash(), same.hash());
        assert_eq!(TicTacToe::from_rows("xxx/oo./...", 3).unwrap().winner(), Some(Mark::X));
        for bad in ["xx./.../...", "xxx/ooo/...", "xo/...", "xqo/.../..."] {
            assert!(TicTacToe::from_rows(bad, 3).is_err(), "{bad}");
        }
        assert!(TicTacToe::new(9, 3, 3).is_err() && TicTacToe::new(3, 3, 4).is_err());
    }

    #[test]
    fn diagram_marks_the_last_move() {
        let mut position = TicTacToe::classic();
        play(&mut position, &["b2", "a1"]);
        let a1 = position.cell(0, 0).unwrap();
        assert_eq!(position.diagram(Some(a1)), " 3  .  .  .\n 2  .  X  .\n 1 [O] .  .\n    a  b  c\n");
    }
}
