//! The words of Gomoku that the board, the pattern tables and the evaluation all speak: colours,
//! rules, moves and the errors of placing stones, with the padded board geometry a move indexes.
//! Nothing here depends on another Gomoku module but the line reach of the pattern tables, so
//! the modules that build on these types never need to import each other for them.

use std::fmt;

/// Cells a line key sees on each side of its centre: five, so exact-five rules can tell a five
/// from a six. The board pads its playing area by as much, so every key stays in bounds.
pub const REACH: usize = 5;
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 32;
pub(crate) const PAD: usize = REACH;
pub(crate) const STRIDE: usize = MAX_SIZE + 2 * PAD;
pub(crate) const CELLS: usize = STRIDE * STRIDE;
/// Index steps of the four line directions: horizontal, vertical, diagonal, anti-diagonal.
pub(crate) const DIRECTIONS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Cell code in line keys.
    pub(crate) fn code(self) -> u8 {
        self as u8 + 1
    }
}

/// The rule sets Gomocup plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; overlines do not (Gomocup "standard", exact five).
    Standard,
    /// Black may not make double three, double four or overline.
    Renju,
    /// A five wins only if not blocked at both ends.
    Caro,
}

impl Rule {
    const ALL: [Rule; 4] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];

    /// The rule's number in the learned evaluation's files (`scripts/learn/FORMAT.md`).
    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<Rule> {
        Self::ALL.get(usize::from(code)).copied()
    }
}

/// A cell, as an index into the padded array; coordinates count from 0 at the top left.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// `None` when a coordinate is past the largest board.
    pub fn new(x: usize, y: usize) -> Option<Move> {
        (x < MAX_SIZE && y < MAX_SIZE).then(|| Move(((y + PAD) * STRIDE + x + PAD) as u16))
    }

    pub fn x(self) -> usize {
        usize::from(self.0) % STRIDE - PAD
    }

    pub fn y(self) -> usize {
        usize::from(self.0) / STRIDE - PAD
    }

    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }

    pub(crate) fn from_index(index: usize) -> Move {
        Move(index as u16)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    OffBoard,
    Occupied,
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::OffBoard => "the square is off the board",
            MoveError::Occupied => "the square is occupied",
            MoveError::GameOver => "the game is over",
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardError {
    Size {
        width: usize,
        height: usize,
    },
    Stone {
        mv: Move,
        error: MoveError,
    },
    Counts {
        black: usize,
        white: usize,
    },
    /// The side to move already has five: no game reaches that.
    Finished,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Size { width, height } => {
                write!(f, "unsupported size {width}x{height} (sides from {MIN_SIZE} to {MAX_SIZE})")
            }
            BoardError::Stone { mv, error } => write!(f, "stone {mv}: {error}"),
            BoardError::Counts { black, white } => {
                write!(f, "{black} black and {white} white stones cannot arise in a game")
            }
            BoardError::Finished => f.write_str("the side to move already has five"),
        }
    }
}
