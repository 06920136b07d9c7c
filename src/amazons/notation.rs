//! Move notation: written `d1-d7/g7` (queen from d1 to d7, arrow to g7), read in that form and
//! the common variants, and the reasons a move is refused.
//!
//! Accepted, case-insensitively, surrounding blanks ignored:
//! - `d1-d7/g7`, `d1d7/g7`, `d1-d7g7`, `d1d7g7`: three algebraic squares, file `a`..`k` then
//!   rank `1`..`11` (the largest board; a position refuses squares off its own), with an
//!   optional `-` after the first and `/` after the second;
//! - `dgdggg`-style six letters, file then rank for each square, the rank lettered too. This is
//!   meant to be the form of the Chinese computer-games championship platform; no authoritative
//!   description of that platform was found, so the reading is an assumption: rank letter `a`
//!   is rank 1 (the same origin as the algebraic form, a1 bottom left), so `dagaga` is d1, g1,
//!   g1 and `dadggg` is `d1-d7/g7`.

use std::fmt;
use std::str::FromStr;

use super::board::{Color, Move, Position, Square};

impl Position {
    /// The position as `set_position` and `--position` read it back on a board of its size:
    /// `white a2 b1 d1 e2 black a4 b5 d5 e4 arrows c3 tomove black`.
    pub fn setup_text(&self) -> String {
        let squares = |list: Vec<Square>| list.iter().map(|sq| format!(" {sq}")).collect::<String>();
        format!(
            "white{} black{} arrows{} tomove {}",
            squares(self.queens(Color::White).collect()),
            squares(self.queens(Color::Black).collect()),
            squares(self.arrows().collect()),
            self.side_to_move()
        )
    }
}

/// Why a move was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in any accepted form.
    Syntax(String),
    /// A square (as written) lies outside a1..`corner`: k11 read alone, the board's own top
    /// right corner when read for a position.
    OffBoard {
        square: String,
        corner: String,
    },
    /// The side to move has no legal move.
    GameOver {
        loser: Color,
    },
    NoQueen {
        square: Square,
        color: Color,
    },
    /// The queen's two squares are not on one rank, file or diagonal (or are the same).
    NotQueenLine {
        from: Square,
        to: Square,
    },
    /// `at` is the first occupied square on the way, the destination included.
    QueenBlocked {
        from: Square,
        to: Square,
        at: Square,
    },
    ArrowNotQueenLine {
        from: Square,
        to: Square,
    },
    ArrowBlocked {
        from: Square,
        to: Square,
        at: Square,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(text) => write!(f, "cannot read {text:?} as a move (write it like d1-d7/g7)"),
            MoveError::OffBoard { square, corner } => write!(f, "{square} is off the board (a1 to {corner})"),
            MoveError::GameOver { loser } => write!(f, "the game is over: {loser} has no legal move"),
            MoveError::NoQueen { square, color } => write!(f, "there is no {color} queen on {square}"),
            MoveError::NotQueenLine { from, to } if from == to => write!(f, "the queen on {from} must move"),
            MoveError::NotQueenLine { from, to } => {
                write!(f, "{from} to {to} is not a queen line (same rank, file or diagonal)")
            }
            MoveError::QueenBlocked { from, to, at } if at == to => {
                write!(f, "the queen cannot go from {from} to {to}: {to} is occupied")
            }
            MoveError::QueenBlocked { from, to, at } => {
                write!(f, "the queen's path from {from} to {to} is blocked at {at}")
            }
            MoveError::ArrowNotQueenLine { from, to } if from == to => {
                write!(f, "the arrow cannot land on the queen's own square {to}")
            }
            MoveError::ArrowNotQueenLine { from, to } => {
                write!(f, "the arrow from {from} to {to} is not on a queen line")
            }
            MoveError::ArrowBlocked { from, to, at } if at == to => {
                write!(f, "the arrow cannot land on {to}: it is occupied")
            }
            MoveError::ArrowBlocked { from, to, at } => {
                write!(f, "the arrow's path from {from} to {to} is blocked at {at}")
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// An algebraic square, `a1`..`j10`, case-insensitive.
impl FromStr for Square {
    type Err = MoveError;

    fn from_str(text: &str) -> Result<Square, MoveError> {
        let mut scanner = Scanner { rest: text.trim().as_bytes(), text };
        let square = scanner.square()?;
        if !scanner.rest.is_empty() {
            return Err(MoveError::Syntax(text.to_string()));
        }
        Ok(square)
    }
}

/// Reads a move without looking at a position; see the module notes for the forms.
impl FromStr for Move {
    type Err = MoveError;

    fn from_str(text: &str) -> Result<Move, MoveError> {
        let trimmed = text.trim();
        let bytes = trimmed.as_bytes();
        if bytes.len() == 6 && bytes.iter().all(u8::is_ascii_alphabetic) {
            let squares: Vec<Square> = bytes.chunks(2).map(lettered_square).collect::<Result<_, _>>()?;
            return Ok(Move::new(squares[0], squares[1], squares[2]));
        }
        let mut scanner = Scanner { rest: bytes, text };
        let from = scanner.square()?;
        scanner.skip(b'-');
        let to = scanner.square()?;
        scanner.skip(b'/');
        let arrow = scanner.square()?;
        if !scanner.rest.is_empty() {
            return Err(MoveError::Syntax(text.to_string()));
        }
        Ok(Move::new(from, to, arrow))
    }
}

/// A square of the six-letter form: file letter, then rank letter (`a` = rank 1).
fn lettered_square(pair: &[u8]) -> Result<Square, MoveError> {
    let (file, rank) = (pair[0].to_ascii_lowercase() - b'a', pair[1].to_ascii_lowercase() - b'a');
    Square::new(usize::from(file), usize::from(rank)).ok_or_else(|| off_grid(pair))
}

/// A square written past k11, the corner of the largest board.
fn off_grid(written: &[u8]) -> MoveError {
    MoveError::OffBoard { square: String::from_utf8_lossy(written).to_ascii_lowercase(), corner: "k11".into() }
}

/// Algebraic squares off the front of a text.
struct Scanner<'a> {
    rest: &'a [u8],
    /// The whole text, for error messages.
    text: &'a str,
}

impl Scanner<'_> {
    fn square(&mut self) -> Result<Square, MoveError> {
        let syntax = || MoveError::Syntax(self.text.to_string());
        let (&letter, rest) = self.rest.split_first().ok_or_else(syntax)?;
        if !letter.is_ascii_alphabetic() {
            return Err(syntax());
        }
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 2 {
            return Err(syntax());
        }
        let written = &self.rest[..=digits];
        self.rest = &rest[digits..];
        let rank: usize = std::str::from_utf8(&written[1..]).expect("ASCII digits").parse().expect("two digits");
        let file = usize::from(letter.to_ascii_lowercase() - b'a');
        rank.checked_sub(1).and_then(|r| Square::new(file, r)).ok_or_else(|| off_grid(written))
    }

    fn skip(&mut self, separator: u8) {
        if let Some(rest) = self.rest.strip_prefix(&[separator]) {
            self.rest = rest;
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}/{}", self.from, self.to, self.arrow)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl Position {
    /// Reads a move in any accepted form and checks that it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let mv: Move = text.parse().map_err(|error| match error {
            // Past the largest board is past this one too: name this one's corner.
            MoveError::OffBoard { square, .. } => MoveError::OffBoard { square, corner: self.corner().to_string() },
            other => other,
        })?;
        self.check_move(mv)?;
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::sq;
    use super::*;

    #[test]
    fn every_form_reads_the_same_move() {
        let pos = Position::new();
        let expected = Move::new(sq("d1"), sq("d7"), sq("g7"));
        for text in ["d1-d7/g7", "d1d7g7", "d1d7/g7", "D1-D7/G7", " d1-d7g7 ", "dadggg", "DADGGG"] {
            assert_eq!(pos.parse_move(text), Ok(expected), "{text}");
        }
        assert_eq!("j10-a1/e5".parse::<Move>().unwrap().to_string(), "j10-a1/e5");
        assert_eq!("jjaaee".parse::<Move>().unwrap().to_string(), "j10-a1/e5");
        assert_eq!("dagaga".parse::<Move>().unwrap().to_string(), "d1-g1/g1");
    }

    #[test]
    fn every_legal_move_round_trips() {
        let pos = Position::new();
        for mv in pos.legal_moves() {
            assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv));
            let compact: String = mv.to_string().chars().filter(|c| c.is_ascii_alphanumeric()).collect();
            assert_eq!(pos.parse_move(&compact), Ok(mv));
        }
    }

    #[test]
    fn syntax_errors() {
        for text in
            ["", "d1", "d1-d7", "d1-d7/", "1d-d7/g7", "d1-d7/g7/h8", "d1--d7/g7", "d100-d7/g7", "d1 d7 g7", "abcde"]
        {
            assert_eq!(text.parse::<Move>(), Err(MoveError::Syntax(text.to_string())), "{text:?}");
        }
        assert!(MoveError::Syntax("x".into()).to_string().contains("d1-d7/g7"));
    }

    #[test]
    fn off_board_squares() {
        let off = |square: &str| MoveError::OffBoard { square: square.into(), corner: "k11".into() };
        assert_eq!("l1-d7/g7".parse::<Move>().unwrap_err(), off("l1"));
        assert_eq!("d1-d12/g7".parse::<Move>().unwrap_err(), off("d12"));
        assert_eq!("d1-d7/G0".parse::<Move>().unwrap_err(), off("g0"));
        assert_eq!("dadlgg".parse::<Move>().unwrap_err(), off("dl"));
        assert_eq!("a12".parse::<Square>().unwrap_err(), off("a12"));
        assert_eq!("k11".parse::<Square>().map(Square::index), Ok(120));
        // On the 10x10 board k1 and d11 are off it, and the message names its corner.
        let pos = Position::new();
        assert_eq!(pos.parse_move("d1-d11/d2").unwrap_err().to_string(), "d11 is off the board (a1 to j10)");
        assert_eq!(pos.parse_move("j4-k4/j4").unwrap_err().to_string(), "k4 is off the board (a1 to j10)");
        let small = Position::start(6, 5).unwrap();
        assert_eq!(small.parse_move("b1-b6/b5").unwrap_err().to_string(), "b6 is off the board (a1 to f5)");
        assert!(small.parse_move("b1-b4/b3").is_ok());
        // Past the largest board too.
        assert_eq!(small.parse_move("m3-a1/a2").unwrap_err().to_string(), "m3 is off the board (a1 to f5)");
        assert_eq!(pos.parse_move("a12-a1/a2").unwrap_err().to_string(), "a12 is off the board (a1 to j10)");
    }

    /// Every legality error, with the message it shows.
    #[test]
    fn illegal_moves_say_why() {
        let pos = Position::new();
        let cases = [
            ("e1-e2/e3", "there is no white queen on e1"),
            ("d10-d9/d8", "there is no white queen on d10"),
            ("d1-e3/e4", "d1 to e3 is not a queen line (same rank, file or diagonal)"),
            ("d1-d1/d2", "the queen on d1 must move"),
            ("j4-j8/i8", "the queen's path from j4 to j8 is blocked at j5"),
            ("d1-d10/e9", "the queen cannot go from d1 to d10: d10 is occupied"),
            ("d1-d7/e9", "the arrow from d7 to e9 is not on a queen line"),
            ("d1-d7/d7", "the arrow cannot land on the queen's own square d7"),
            ("d1-d7/d10", "the arrow cannot land on d10: it is occupied"),
            ("d1-d3/j9", "the arrow's path from d3 to j9 is blocked at g6"),
        ];
        let mut pos = pos;
        // White's g1 queen goes to g6, Black's j7 to j6 shooting at j5.
        pos.play(pos.parse_move("g1-g6/g3").unwrap()).unwrap();
        pos.play(pos.parse_move("j7-j6/j5").unwrap()).unwrap();
        for (text, message) in cases {
            let error = pos.parse_move(text).unwrap_err();
            assert_eq!(error.to_string(), message, "{text}");
        }
        assert!(pos.parse_move("g6-e4/d5").is_ok());
        // The square the queen leaves is free for its arrow, even past it.
        assert!(pos.parse_move("d1-d2/d1").is_ok());
        assert!(matches!(pos.parse_move("a7-a8/a9"), Err(MoveError::NoQueen { .. })));
    }

    #[test]
    fn a_finished_game_takes_no_move() {
        let arrows = ["a2", "b1", "b2"].map(sq);
        let pos = Position::from_setup(&[sq("a1")], &[sq("j10")], &arrows, Color::White).unwrap();
        let error = pos.parse_move("a1-a2/a3").unwrap_err();
        assert_eq!(error, MoveError::GameOver { loser: Color::White });
        assert_eq!(error.to_string(), "the game is over: white has no legal move");
    }
}
