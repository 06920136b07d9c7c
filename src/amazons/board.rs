//! The Amazons position: queens and arrows as `u128` bitboards, the side to move, the moves
//! played and an incremental Zobrist key.
//!
//! Every board from 5x5 to 11x11, rectangles included, lies in the low-left corner of one
//! 11x11 grid (`attacks.rs`), and the squares of the grid off the board count as occupied: the
//! move generator and the evaluation see the board's edge as a wall of arrows and need not know
//! its size.
//!
//! Invariants: the three sets (white queens, black queens, arrows) are disjoint and inside the
//! board; `occupied` is their union with the squares off the board; `hash` is the Zobrist key
//! of exactly this content and side to move. A move touches three squares, so make and unmake
//! are a handful of XORs.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use super::attacks::{Bits, GRID, SQUARES, STRIDE, board_bits, king_attacks, neighbours};
use super::weights::{WEIGHTS, Weights};
use crate::zobrist::KeyStream;

/// Queens each side may have in a set-up position: at least one (a side without queens has no
/// game), at most the four of the standard start.
pub const MAX_QUEENS: usize = 4;

/// Boards are from `MIN_SIZE` to `MAX_SIZE` squares a side.
pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = STRIDE;

/// A square of the 11x11 grid, `rank * 11 + file` with a1 = 0 and k11 = 120, whatever the
/// board's size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `file` and `rank` count from 0 (a1 is `(0, 0)`); `None` off the largest board.
    pub fn new(file: usize, rank: usize) -> Option<Square> {
        (file < STRIDE && rank < STRIDE).then(|| Square((rank * STRIDE + file) as u8))
    }

    /// `None` past 120.
    pub fn from_index(index: usize) -> Option<Square> {
        (index < SQUARES).then_some(Square(index as u8))
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn file(self) -> usize {
        self.index() % STRIDE
    }

    pub fn rank(self) -> usize {
        self.index() / STRIDE
    }

    pub(crate) fn bit(self) -> u128 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file() as u8), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Lower-case name, as protocols print it.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads `white`/`w` and `black`/`b`, case-insensitively.
impl FromStr for Color {
    type Err = String;

    fn from_str(text: &str) -> Result<Color, String> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(format!("{text:?} is not a colour (white or black)")),
        }
    }
}

/// A queen move from `from` to `to`, then an arrow shot from `to` to `arrow`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub arrow: Square,
}

impl Move {
    pub fn new(from: Square, to: Square, arrow: Square) -> Move {
        Move { from, to, arrow }
    }

    /// 21 bits, 7 per square: `from | to << 7 | arrow << 14`.
    pub fn encode(self) -> u32 {
        u32::from(self.from.0) | u32::from(self.to.0) << 7 | u32::from(self.arrow.0) << 14
    }

    /// `None` for codes no square triple gives.
    pub fn decode(code: u32) -> Option<Move> {
        let square = |shift: u32| Square::from_index((code >> shift & 0x7f) as usize);
        if code >> 21 != 0 {
            return None;
        }
        Some(Move { from: square(0)?, to: square(7)?, arrow: square(14)? })
    }
}

/// Why a set-up position was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Width and height must each be from [`MIN_SIZE`] to [`MAX_SIZE`].
    Size { width: usize, height: usize },
    /// A square lies off a board of this size.
    OffBoard { square: Square, width: usize, height: usize },
    /// A side has no queen or more than [`MAX_QUEENS`].
    QueenCount { color: Color, count: usize },
    /// The same square is given twice (two queens, or a queen and an arrow...).
    Overlap(Square),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Size { width, height } => {
                write!(f, "a {width}x{height} board is not from {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}")
            }
            SetupError::OffBoard { square, width, height } => write!(f, "{square} is off the {width}x{height} board"),
            SetupError::QueenCount { color, count } => {
                write!(f, "{color} has {count} queens (1 to {MAX_QUEENS} allowed)")
            }
            SetupError::Overlap(square) => write!(f, "{square} is given more than once"),
        }
    }
}

/// Zobrist keys: per colour and square for queens, per square for arrows, and Black to move.
struct Zobrist {
    queens: [[u64; SQUARES]; 2],
    arrows: [u64; SQUARES],
    black_to_move: u64,
}

/// The keys of the squares of the 10x10 board are drawn first, in the order of that board's
/// own layout (rank * 10 + file) from before other sizes existed, so that its keys, and with
/// them every 10x10 search, stay as they were.
fn zobrist() -> &'static Zobrist {
    static KEYS: OnceLock<Zobrist> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys = KeyStream::new(0x2545_F491_4F6C_DD1D);
        let ten_by_ten = |index: usize| Square::new(index % 10, index / 10).expect("on the grid").index();
        let table = |keys: &mut KeyStream| {
            let mut table = [0; SQUARES];
            for index in 0..100 {
                table[ten_by_ten(index)] = keys.next_key();
            }
            table
        };
        let (mut white, mut black, mut arrows) = (table(&mut keys), table(&mut keys), table(&mut keys));
        let black_to_move = keys.next_key();
        for square in Bits(GRID & !board_bits(10, 10)) {
            for table in [&mut white, &mut black, &mut arrows] {
                table[square] = keys.next_key();
            }
        }
        Zobrist { queens: [white, black], arrows, black_to_move }
    })
}

#[derive(Clone)]
pub struct Position {
    width: u8,
    height: u8,
    /// Queens by [`Color::index`].
    queens: [u128; 2],
    arrows: u128,
    /// Queens, arrows and every square of the grid off the board.
    occupied: u128,
    side: Color,
    /// Who moved first at this size's start: White, but Black on Botzone's 8x8 board. Front
    /// ends name the players in this order.
    first: Color,
    hash: u64,
    history: Vec<Move>,
    /// What [`Position::evaluate`] weighs the terms with: a setting of the session, so that
    /// weight tables can be compared in matches without rebuilding.
    weights: &'static Weights,
}

impl Default for Position {
    fn default() -> Self {
        Position::new()
    }
}

impl Position {
    /// The standard start: White a4 d1 g1 j4, Black a7 d10 g10 j7, White to move.
    pub fn new() -> Position {
        Position::start(10, 10).expect("10x10 is a board size")
    }

    /// The start of a `width` x `height` board. White's queens stand on the first rank a third
    /// of the way in from each side and on the outer files a third of the way up, Black's
    /// mirror them from the top, and White moves first: the standard 10x10 start (a4 d1 g1
    /// j4) and Müller's small boards (6x5: a2 b1 e1 f2 against a4 b5 e5 f4; 5x5 and 5x6
    /// alike). On 8x8 they stand where Botzone puts them (a3 c1 f1 h3 and a6 c8 f8 h6, its
    /// (x, y) read as file x, rank 8 - y) and, as there, Black moves first.
    pub fn start(width: usize, height: usize) -> Result<Position, SetupError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(SetupError::Size { width, height });
        }
        let (file, rank) = ((width - 1) / 3, (height - 1) / 3);
        let at = |file: usize, rank: usize| Square::new(file, rank).expect("inside the board");
        let white = [at(0, rank), at(file, 0), at(width - 1 - file, 0), at(width - 1, rank)];
        let top = height - 1;
        let black = [at(0, top - rank), at(file, top), at(width - 1 - file, top), at(width - 1, top - rank)];
        let first = if (width, height) == (8, 8) { Color::Black } else { Color::White };
        let pos = Position::from_setup_sized(width, height, &white, &black, &[], first)?;
        Ok(pos.with_first_player(first))
    }

    /// A position on the 10x10 board; see [`Position::from_setup_sized`].
    pub fn from_setup(
        white: &[Square],
        black: &[Square],
        arrows: &[Square],
        side_to_move: Color,
    ) -> Result<Position, SetupError> {
        Position::from_setup_sized(10, 10, white, black, arrows, side_to_move)
    }

    /// Any position on a `width` x `height` board: 1 to [`MAX_QUEENS`] queens a side, any
    /// arrows, all squares distinct and on the board; White is the first player. The history
    /// starts empty, so [`Position::undo`] cannot go past the set-up.
    pub fn from_setup_sized(
        width: usize,
        height: usize,
        white: &[Square],
        black: &[Square],
        arrows: &[Square],
        side_to_move: Color,
    ) -> Result<Position, SetupError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(SetupError::Size { width, height });
        }
        for (color, queens) in [(Color::White, white), (Color::Black, black)] {
            if queens.is_empty() || queens.len() > MAX_QUEENS {
                return Err(SetupError::QueenCount { color, count: queens.len() });
            }
        }
        let board = board_bits(width, height);
        let keys = zobrist();
        let mut pos = Position {
            width: width as u8,
            height: height as u8,
            queens: [0; 2],
            arrows: 0,
            occupied: GRID & !board,
            side: side_to_move,
            first: Color::White,
            hash: if side_to_move == Color::Black { keys.black_to_move } else { 0 },
            history: Vec::new(),
            weights: &WEIGHTS,
        };
        let pieces =
            white.iter().map(|&s| (s, Some(Color::White))).chain(black.iter().map(|&s| (s, Some(Color::Black))));
        for (square, owner) in pieces.chain(arrows.iter().map(|&s| (s, None))) {
            if board & square.bit() == 0 {
                return Err(SetupError::OffBoard { square, width, height });
            }
            if pos.occupied & square.bit() != 0 {
                return Err(SetupError::Overlap(square));
            }
            pos.occupied |= square.bit();
            match owner {
                Some(color) => {
                    pos.queens[color.index()] |= square.bit();
                    pos.hash ^= keys.queens[color.index()][square.index()];
                }
                None => {
                    pos.arrows |= square.bit();
                    pos.hash ^= keys.arrows[square.index()];
                }
            }
        }
        Ok(pos)
    }

    /// This position with `first` named as the player who moved first.
    pub fn with_first_player(mut self, first: Color) -> Position {
        self.first = first;
        self
    }

    /// The player who moved first at the start of this board.
    pub fn first_player(&self) -> Color {
        self.first
    }

    pub fn width(&self) -> usize {
        usize::from(self.width)
    }

    pub fn height(&self) -> usize {
        usize::from(self.height)
    }

    /// Whether `square` is on this board.
    pub fn contains(&self, square: Square) -> bool {
        square.file() < self.width() && square.rank() < self.height()
    }

    /// The board's top right square, which error messages name.
    pub(crate) fn corner(&self) -> Square {
        Square::new(self.width() - 1, self.height() - 1).expect("every board lies on the grid")
    }

    /// This position evaluated with `weights` instead of [`WEIGHTS`].
    pub fn with_weights(mut self, weights: &'static Weights) -> Position {
        self.weights = weights;
        self
    }

    pub fn weights(&self) -> &'static Weights {
        self.weights
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Moves played since the start or the set-up, oldest first.
    pub fn history(&self) -> &[Move] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().copied()
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Squares of `color`'s queens.
    pub fn queens(&self, color: Color) -> impl Iterator<Item = Square> + use<> {
        Bits(self.queens[color.index()]).map(|i| Square(i as u8))
    }

    pub fn arrows(&self) -> impl Iterator<Item = Square> + use<> {
        Bits(self.arrows).map(|i| Square(i as u8))
    }

    /// The queen on `square`, if any.
    pub fn queen_at(&self, square: Square) -> Option<Color> {
        [Color::White, Color::Black].into_iter().find(|c| self.queens[c.index()] & square.bit() != 0)
    }

    pub fn arrow_count(&self) -> u32 {
        self.arrows.count_ones()
    }

    pub fn is_arrow(&self, square: Square) -> bool {
        self.arrows & square.bit() != 0
    }

    pub fn is_empty(&self, square: Square) -> bool {
        self.occupied & square.bit() == 0
    }

    /// Whether the side to move can move at all: a queen can move exactly when a neighbouring
    /// square is empty, and it can then always shoot back where it came from.
    pub fn has_moves(&self) -> bool {
        neighbours(self.queens[self.side.index()]) & !self.occupied != 0
    }

    /// The winner once the side to move cannot move; Amazons has no draws.
    pub fn winner(&self) -> Option<Color> {
        (!self.has_moves()).then(|| self.side.opponent())
    }

    pub fn is_over(&self) -> bool {
        !self.has_moves()
    }

    /// Plays a move after checking it is legal here.
    pub fn play(&mut self, mv: Move) -> Result<(), super::MoveError> {
        self.check_move(mv)?;
        self.make(mv);
        Ok(())
    }

    /// Takes back the last move played since the start or set-up.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.last_move()?;
        self.unmake(mv);
        Some(mv)
    }

    /// Plays a legal move for the side to move (checked only in debug builds).
    pub(crate) fn make(&mut self, mv: Move) {
        debug_assert!(self.check_move(mv).is_ok(), "illegal move {mv}");
        let me = self.side.index();
        let keys = zobrist();
        let (from, to, arrow) = (mv.from.index(), mv.to.index(), mv.arrow.index());
        self.queens[me] ^= mv.from.bit() | mv.to.bit();
        self.arrows |= mv.arrow.bit();
        self.occupied = self.occupied ^ mv.from.bit() | mv.to.bit() | mv.arrow.bit();
        self.hash ^= keys.queens[me][from] ^ keys.queens[me][to] ^ keys.arrows[arrow] ^ keys.black_to_move;
        self.side = self.side.opponent();
        self.history.push(mv);
    }

    /// Exactly undoes [`Position::make`] of the last move.
    pub(crate) fn unmake(&mut self, mv: Move) {
        debug_assert_eq!(self.history.last(), Some(&mv));
        self.history.pop();
        self.side = self.side.opponent();
        let me = self.side.index();
        let keys = zobrist();
        let (from, to, arrow) = (mv.from.index(), mv.to.index(), mv.arrow.index());
        self.arrows &= !mv.arrow.bit();
        self.queens[me] ^= mv.from.bit() | mv.to.bit();
        self.occupied = self.occupied & !(mv.to.bit() | mv.arrow.bit()) | mv.from.bit();
        self.hash ^= keys.queens[me][from] ^ keys.queens[me][to] ^ keys.arrows[arrow] ^ keys.black_to_move;
        debug_assert_eq!(self.hash, self.recomputed_hash(), "unmake of {mv} did not restore the hash");
    }

    /// The key computed from scratch, to check the incremental one.
    pub(crate) fn recomputed_hash(&self) -> u64 {
        let keys = zobrist();
        let mut hash = if self.side == Color::Black { keys.black_to_move } else { 0 };
        for color in [Color::White, Color::Black] {
            hash ^= Bits(self.queens[color.index()]).fold(0, |h, sq| h ^ keys.queens[color.index()][sq]);
        }
        Bits(self.arrows).fold(hash, |h, sq| h ^ keys.arrows[sq])
    }

    pub(crate) fn queen_bits(&self, color: Color) -> u128 {
        self.queens[color.index()]
    }

    pub(crate) fn arrow_bits(&self) -> u128 {
        self.arrows
    }

    pub(crate) fn occupied_bits(&self) -> u128 {
        self.occupied
    }

    pub(crate) fn empty_bits(&self) -> u128 {
        !self.occupied & GRID
    }

    /// Empty squares next to `square`.
    #[inline]
    pub(crate) fn free_neighbours(&self, square: usize) -> u32 {
        (king_attacks(square) & !self.occupied).count_ones()
    }

    /// Text board, the top rank on top (whose turn it is, the front ends say): `W`/`B` queens,
    /// `x` arrows, `.` empty. `highlight` marks a move's squares: `(.)` where the queen came
    /// from, `[W]` where it went, `{x}` the arrow.
    pub fn diagram(&self, highlight: Option<Move>) -> String {
        let files: Vec<String> = (0..self.width()).map(|f| char::from(b'a' + f as u8).to_string()).collect();
        let files = format!("    {}\n", files.join("  "));
        let mut out = files.clone();
        for rank in (0..self.height()).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..self.width() {
                let square = Square::new(file, rank).expect("on the board");
                let piece = match self.queen_at(square) {
                    Some(Color::White) => 'W',
                    Some(Color::Black) => 'B',
                    None if self.is_arrow(square) => 'x',
                    None => '.',
                };
                let (open, close) = match highlight {
                    Some(m) if m.arrow == square => ('{', '}'),
                    Some(m) if m.to == square => ('[', ']'),
                    Some(m) if m.from == square => ('(', ')'),
                    _ => (' ', ' '),
                };
                out.extend([open, piece, close]);
            }
            out.push_str(&format!(" {}\n", rank + 1));
        }
        out.push_str(&files);
        if let Some(m) = highlight {
            out.push_str(&format!("last move {m}: (from) [to] {{arrow}}\n"));
        }
        out
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{} to move", self.diagram(self.last_move()), self.side)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// Calls `visit` on every position of one random game from the start of each of five
    /// board sizes, the moves drawn from `seed`.
    pub fn along_random_games(seed: u64, mut visit: impl FnMut(&Position)) {
        let mut keys = crate::zobrist::KeyStream::new(seed);
        for (width, height) in [(5, 5), (6, 5), (8, 8), (10, 10), (11, 11)] {
            let mut pos = Position::start(width, height).unwrap();
            while !pos.is_over() {
                visit(&pos);
                let moves = pos.legal_moves();
                pos.play(moves[(keys.next_key() % moves.len() as u64) as usize]).unwrap();
            }
        }
    }

    #[test]
    fn squares_name_files_and_ranks() {
        assert_eq!(sq("a1").index(), 0);
        assert_eq!(sq("j1").index(), 9);
        assert_eq!(sq("a10").index(), 99);
        assert_eq!(sq("k11").index(), 120);
        assert_eq!(sq("j10").to_string(), "j10");
        assert_eq!((sq("d7").file(), sq("d7").rank()), (3, 6));
        assert!(Square::new(11, 0).is_none() && Square::from_index(121).is_none());
    }

    #[test]
    fn moves_encode_in_21_bits() {
        let mv = Move::new(sq("j10"), sq("a1"), sq("e5"));
        assert_eq!(Move::decode(mv.encode()), Some(mv));
        assert!(mv.encode() < 1 << 21);
        assert_eq!(Move::decode(127), None);
        assert_eq!(Move::decode(1 << 21), None);
    }

    #[test]
    fn colours_have_names() {
        assert_eq!(Color::White.to_string(), "white");
        assert_eq!("B".parse::<Color>(), Ok(Color::Black));
        assert_eq!("White".parse::<Color>(), Ok(Color::White));
        assert!("red".parse::<Color>().is_err());
    }

    #[test]
    fn start_position() {
        let pos = Position::new();
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.queens(Color::White).map(|s| s.to_string()).collect::<Vec<_>>(), ["d1", "g1", "a4", "j4"]);
        assert_eq!(pos.queens(Color::Black).map(|s| s.to_string()).collect::<Vec<_>>(), ["a7", "j7", "d10", "g10"]);
        assert_eq!(pos.arrows().count(), 0);
        assert_eq!(pos.hash(), pos.recomputed_hash());
        assert!(!pos.is_over() && pos.winner().is_none());
    }

    fn names(squares: impl Iterator<Item = Square>) -> Vec<String> {
        squares.map(|s| s.to_string()).collect()
    }

    #[test]
    fn every_size_has_a_start() {
        let six_by_five = Position::start(6, 5).unwrap();
        assert_eq!(names(six_by_five.queens(Color::White)), ["b1", "e1", "a2", "f2"]);
        assert_eq!(names(six_by_five.queens(Color::Black)), ["a4", "f4", "b5", "e5"]);
        assert_eq!((six_by_five.side_to_move(), six_by_five.first_player()), (Color::White, Color::White));
        assert_eq!(names(Position::start(5, 5).unwrap().queens(Color::Black)), ["a4", "e4", "b5", "d5"]);
        assert_eq!(names(Position::start(5, 6).unwrap().queens(Color::White)), ["b1", "d1", "a2", "e2"]);
        let botzone = Position::start(8, 8).unwrap();
        assert_eq!(names(botzone.queens(Color::White)), ["c1", "f1", "a3", "h3"]);
        assert_eq!(names(botzone.queens(Color::Black)), ["a6", "h6", "c8", "f8"]);
        assert_eq!((botzone.side_to_move(), botzone.first_player()), (Color::Black, Color::Black));
        let largest = Position::start(11, 11).unwrap();
        assert_eq!(names(largest.queens(Color::White)), ["d1", "h1", "a4", "k4"]);
        assert_eq!(largest.hash(), largest.recomputed_hash());
        for (width, height) in [(4, 5), (5, 12), (0, 0)] {
            assert_eq!(Position::start(width, height).err(), Some(SetupError::Size { width, height }));
        }
        assert_eq!(SetupError::Size { width: 4, height: 5 }.to_string(), "a 4x5 board is not from 5x5 to 11x11");
    }

    #[test]
    fn squares_off_a_small_board_are_refused_and_occupied() {
        let error = Position::from_setup_sized(6, 5, &[sq("a1")], &[sq("a6")], &[], Color::White).unwrap_err();
        assert_eq!(error.to_string(), "a6 is off the 6x5 board");
        let pos = Position::from_setup_sized(6, 5, &[sq("a1")], &[sq("f5")], &[], Color::White).unwrap();
        assert!(pos.contains(sq("f5")) && !pos.contains(sq("g1")) && !pos.contains(sq("a6")));
        assert!(!pos.is_empty(sq("g1")) && !pos.is_empty(sq("k11")) && pos.is_empty(sq("f1")));
        assert_eq!(pos.empty_bits().count_ones(), 28);
        let diagram = pos.diagram(None);
        assert_eq!(diagram.lines().next(), Some("    a  b  c  d  e  f"));
        assert_eq!(diagram.lines().count(), 7);
    }

    #[test]
    fn setup_is_validated() {
        let white = [sq("a1")];
        let black = [sq("j10")];
        let pos = Position::from_setup(&white, &black, &[sq("e5")], Color::Black).unwrap();
        assert_eq!(pos.side_to_move(), Color::Black);
        assert!(pos.is_arrow(sq("e5")) && pos.queen_at(sq("a1")) == Some(Color::White));
        assert_eq!(pos.hash(), pos.recomputed_hash());
        assert_eq!(
            Position::from_setup(&[], &black, &[], Color::White).err(),
            Some(SetupError::QueenCount { color: Color::White, count: 0 })
        );
        let five = ["a1", "a2", "a3", "a4", "a5"].map(sq);
        let error = Position::from_setup(&white, &five, &[], Color::White).unwrap_err();
        assert_eq!(error.to_string(), "black has 5 queens (1 to 4 allowed)");
        let error = Position::from_setup(&white, &black, &[sq("a1")], Color::White).unwrap_err();
        assert_eq!(error, SetupError::Overlap(sq("a1")));
        assert_eq!(error.to_string(), "a1 is given more than once");
        assert!(Position::from_setup(&white, &[sq("a1")], &[], Color::White).is_err());
    }

    #[test]
    fn a_boxed_in_side_loses() {
        // White's queen on a1 is walled in by arrows on a2, b1, b2: White to move has lost.
        let arrows = ["a2", "b1", "b2"].map(sq);
        let mut pos = Position::from_setup(&[sq("a1")], &[sq("j10")], &arrows, Color::White).unwrap();
        assert!(pos.is_over());
        assert_eq!(pos.winner(), Some(Color::Black));
        assert!(pos.legal_moves().is_empty());
        pos = Position::from_setup(&[sq("a1")], &[sq("j10")], &arrows, Color::Black).unwrap();
        assert!(!pos.is_over());
    }

    fn same_state(a: &Position, b: &Position) -> bool {
        (a.width, a.height, a.queens, a.arrows, a.occupied, a.side, a.first, a.hash, &a.history)
            == (b.width, b.height, b.queens, b.arrows, b.occupied, b.side, b.first, b.hash, &b.history)
    }

    /// Random games to the end, on every size from 5x5 to 11x11 and on 10x10 most: the
    /// incremental key always matches the board, every move played is undone exactly, and the
    /// game ends with the loser unable to move.
    #[test]
    fn random_playouts_make_and_unmake_exactly() {
        let mut keys = KeyStream::new(0x9E37_79B9_7F4A_7C15);
        let sizes = (MIN_SIZE..=MAX_SIZE).flat_map(|w| (MIN_SIZE..=MAX_SIZE).map(move |h| (w, h)));
        for (width, height) in sizes.chain([(10, 10); 20]) {
            let start = Position::start(width, height).unwrap();
            let mut pos = start.clone();
            let mut states = vec![pos.clone()];
            loop {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(keys.next_key() % moves.len() as u64) as usize];
                let before = pos.clone();
                pos.make(mv);
                assert_eq!(pos.hash(), pos.recomputed_hash());
                assert_ne!(pos.hash(), before.hash());
                pos.unmake(mv);
                assert!(same_state(&pos, &before));
                pos.play(mv).unwrap();
                states.push(pos.clone());
            }
            assert!(pos.is_over() && pos.winner() == Some(pos.side_to_move().opponent()));
            assert!(pos.arrows().count() >= width * height / 5);
            assert_eq!(pos.arrows().filter(|&a| !pos.contains(a)).count(), 0);
            states.pop();
            while let Some(expected) = states.pop() {
                pos.undo().unwrap();
                assert!(same_state(&pos, &expected));
            }
            assert!(pos.undo().is_none() && same_state(&pos, &start));
        }
    }

    #[test]
    fn diagram_marks_the_last_move() {
        let mut pos = Position::new();
        let mv = pos.parse_move("d1-d7/g7").unwrap();
        pos.play(mv).unwrap();
        let diagram = pos.diagram(pos.last_move());
        let lines: Vec<&str> = diagram.lines().collect();
        assert_eq!(lines[0], "    a  b  c  d  e  f  g  h  i  j");
        assert_eq!(lines[1], "10  .  .  .  B  .  .  B  .  .  .  10");
        assert_eq!(lines[4], " 7  B  .  . [W] .  . {x} .  .  B  7");
        assert_eq!(lines[10], " 1  .  .  . (.) .  .  W  .  .  .  1");
        assert_eq!(lines[11], lines[0]);
        assert!(diagram.ends_with("last move d1-d7/g7: (from) [to] {arrow}\n"));
        assert!(!Position::new().diagram(None).contains('['));
    }
}
