//! Line shapes and the lookup tables that classify them.
//!
//! A cell sees, in each of the four directions, the five cells on either side of it. Coded two
//! bits each (empty, black, white, wall) these ten cells form a 20-bit key. For every key the
//! table holds, for each colour, the shape that colour would make in that line by playing the
//! cell: five, live four, and so on down to nothing. Five cells each way are needed, not four,
//! so exact-five rules can tell a five from a six, and caro a closed five from an open one.
//!
//! Shapes are defined recursively, the way players define them: a *four* is a line one move
//! from five (a *live four* has two such moves, a *rush four* one), a *live three* is one move
//! from a live four, a *sleeping three* one move from a rush four, a *live two* one move from a
//! live three, and so on. The tables are built once per rule by memoised recursion (about 2^21
//! lookups) and shared by every board.

use std::sync::OnceLock;

use super::types::{REACH, Rule};

/// Shape made in one line by a stone on the centre cell, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Shape {
    /// No five can ever be made through this cell in this line.
    Dead = 0,
    /// One move from a sleeping two.
    SleepingOne,
    /// One move from a live two.
    LiveOne,
    /// `XX` that can only become a sleeping three.
    SleepingTwo,
    /// `_XX_`: one move from a live three.
    LiveTwo,
    /// One move from a rush four only.
    SleepingThree,
    /// `_X_XX_`: a live three with a gap.
    JumpLiveThree,
    /// `_XXX_`: one move from a live four.
    LiveThree,
    /// `XX_XX` or `X_XXX`: one move from five, through the gap.
    JumpFour,
    /// `XXXX_` blocked at the other end: one move from five.
    RushFour,
    /// `_XXXX_` (or two fours in one line): two ways to five, cannot be stopped.
    LiveFour,
    Five,
    /// A line that does not win: six or more in a row under exact five, or (caro) exactly five
    /// with opponent stones at both ends.
    Overline,
    /// Two fours in one line through the cell (`X_XXX_X`, `XX_XX_XX`, `XXX_X_XXX`): renju's
    /// black only, where it is a forbidden double four; the other tables call it a live four.
    DoubleFour,
}

/// Number of [`Shape`] values.
pub const SHAPE_KINDS: usize = 14;

impl Shape {
    const ALL: [Shape; SHAPE_KINDS] = [
        Shape::Dead,
        Shape::SleepingOne,
        Shape::LiveOne,
        Shape::SleepingTwo,
        Shape::LiveTwo,
        Shape::SleepingThree,
        Shape::JumpLiveThree,
        Shape::LiveThree,
        Shape::JumpFour,
        Shape::RushFour,
        Shape::LiveFour,
        Shape::Five,
        Shape::Overline,
        Shape::DoubleFour,
    ];

    pub fn from_u8(v: u8) -> Shape {
        Shape::ALL[usize::from(v)]
    }

    /// One move from five (rush, jump or live four, or two fours).
    pub fn is_four(self) -> bool {
        matches!(self, Shape::JumpFour | Shape::RushFour | Shape::LiveFour | Shape::DoubleFour)
    }

    /// One move from a live four (live or jump live three).
    pub fn is_live_three(self) -> bool {
        matches!(self, Shape::JumpLiveThree | Shape::LiveThree)
    }

    /// Strength rank used by the recursive definition; jump and straight variants are equal.
    /// A move to an overline or a double four is worth nothing: it wins nothing or is forbidden.
    fn rank(self) -> u8 {
        match self {
            Shape::Dead | Shape::Overline | Shape::DoubleFour => 0,
            Shape::SleepingOne => 1,
            Shape::LiveOne => 2,
            Shape::SleepingTwo => 3,
            Shape::LiveTwo => 4,
            Shape::SleepingThree => 5,
            Shape::JumpLiveThree | Shape::LiveThree => 6,
            Shape::JumpFour | Shape::RushFour => 7,
            Shape::LiveFour => 8,
            Shape::Five => 9,
        }
    }
}

/// Cell codes in a line key.
pub const EMPTY: u32 = 0;
pub const WALL: u32 = 3;
pub const KEY_BITS: u32 = 4 * REACH as u32;

/// Bit offset in a key of the neighbour `offset` cells away (negative: before the centre).
pub const fn slot_shift(offset: isize) -> u32 {
    let slot = if offset < 0 { offset + REACH as isize } else { offset + REACH as isize - 1 };
    2 * slot as u32
}

/// Which lines count as a win for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FiveRule {
    /// Five or more in a row.
    FiveOrMore,
    /// Exactly five; six or more is an overline that wins nothing.
    ExactlyFive,
    /// Renju's black: exactly five, and two fours in one line told apart from a straight four
    /// ([`Shape::DoubleFour`]), since only the first is a forbidden double four.
    RenjuBlack,
    /// Gomocup's caro: five or more, except that exactly five with opponent stones right
    /// before and after it does not win (the board edge blocks nothing, an overline always wins).
    Caro,
}

/// Shape tables for one rule: `shapes(key)` gives `[black, white]`.
///
/// An entry is one byte, black's shape in the low nibble and white's in the high one, so the
/// board compares and stores a line's pair of shapes at once. When neither colour cares about
/// the cells just past a five (overlines, caro's closed ends) the outermost cell on each side
/// cannot change a shape, so the table drops them: 2^16 entries (64 KiB) stay in cache where
/// 2^20 would not.
pub struct PatternTable {
    entries: Vec<u8>,
    /// Key bits below the cells the table reads.
    shift: u32,
    mask: u32,
}

impl PatternTable {
    /// The shared table for `rule`, built on first use.
    pub fn for_rule(rule: Rule) -> &'static PatternTable {
        static FREE: OnceLock<PatternTable> = OnceLock::new();
        static EXACT: OnceLock<PatternTable> = OnceLock::new();
        static RENJU: OnceLock<PatternTable> = OnceLock::new();
        static CARO: OnceLock<PatternTable> = OnceLock::new();
        match rule {
            Rule::Freestyle => FREE.get_or_init(|| PatternTable::build([FiveRule::FiveOrMore, FiveRule::FiveOrMore])),
            Rule::Standard => EXACT.get_or_init(|| PatternTable::build([FiveRule::ExactlyFive, FiveRule::ExactlyFive])),
            Rule::Renju => RENJU.get_or_init(|| PatternTable::build([FiveRule::RenjuBlack, FiveRule::FiveOrMore])),
            Rule::Caro => CARO.get_or_init(|| PatternTable::build([FiveRule::Caro, FiveRule::Caro])),
        }
    }

    fn build(rules: [FiveRule; 2]) -> PatternTable {
        let compact = rules.iter().all(|&r| r == FiveRule::FiveOrMore);
        let (shift, bits) = if compact { (2, KEY_BITS - 4) } else { (0, KEY_BITS) };
        let mut entries = vec![0u8; 1 << bits];
        for (colour, rule) in rules.into_iter().enumerate() {
            let mut classifier = Classifier { own: colour as u32 + 1, rule, memo: vec![None; 1 << KEY_BITS] };
            for (index, entry) in entries.iter_mut().enumerate() {
                *entry |= (classifier.shape((index as u32) << shift) as u8) << (4 * colour);
            }
        }
        PatternTable { entries, shift, mask: (1 << bits) - 1 }
    }

    #[inline]
    pub fn shapes(&self, key: u32) -> [Shape; 2] {
        let pair = self.pair(key);
        [Shape::from_u8(pair_shape(pair, 0)), Shape::from_u8(pair_shape(pair, 1))]
    }

    /// Both shapes of a key as one byte: black's in the low nibble, white's in the high one.
    #[inline]
    pub fn pair(&self, key: u32) -> u8 {
        self.entries[((key >> self.shift) & self.mask) as usize]
    }

    /// Whether a stone `REACH` cells away can change a shape: false when the table drops the
    /// outermost cells.
    pub fn reads_outermost(&self) -> bool {
        self.shift == 0
    }
}

/// Offsets of empty cells within four of the centre (at most eight), kept on the stack: the
/// tables classify millions of keys, and a heap list per key made most of their build time.
#[derive(Clone, Copy, Default)]
struct Offsets {
    cells: [isize; 2 * (REACH - 1)],
    len: usize,
}

impl Offsets {
    fn of(offset: isize) -> Offsets {
        let mut offsets = Offsets::default();
        offsets.push(offset);
        offsets
    }

    fn push(&mut self, offset: isize) {
        self.cells[self.len] = offset;
        self.len += 1;
    }

    fn as_slice(&self) -> &[isize] {
        &self.cells[..self.len]
    }
}

/// One colour's shape (black 0, white 1) in a [`PatternTable::pair`], as its discriminant.
#[inline]
pub fn pair_shape(pair: u8, colour: usize) -> u8 {
    pair >> (4 * colour) & 0xf
}

/// Memoised recursive classification of one colour's shapes.
struct Classifier {
    own: u32,
    rule: FiveRule,
    memo: Vec<Option<Shape>>,
}

impl Classifier {
    fn cell(key: u32, offset: isize) -> u32 {
        (key >> slot_shift(offset)) & 3
    }

    fn with_own(&self, key: u32, offset: isize) -> u32 {
        key | (self.own << slot_shift(offset))
    }

    /// Length of the own run through the centre (the centre counts as own).
    fn run_length(&self, key: u32) -> usize {
        let reach = REACH as isize;
        let before = (1..=reach).take_while(|&o| Self::cell(key, -o) == self.own).count();
        let after = (1..=reach).take_while(|&o| Self::cell(key, o) == self.own).count();
        1 + before + after
    }

    fn shape(&mut self, key: u32) -> Shape {
        if let Some(shape) = self.memo[key as usize] {
            return shape;
        }
        let shape = self.classify(key);
        self.memo[key as usize] = Some(shape);
        shape
    }

    /// Whether a run of `run` own stones through the centre wins.
    fn wins(&self, key: u32, run: usize) -> bool {
        match self.rule {
            FiveRule::FiveOrMore => true,
            FiveRule::ExactlyFive | FiveRule::RenjuBlack => run == 5,
            FiveRule::Caro => run > 5 || !self.blocked_both_ends(key),
        }
    }

    /// Whether the own run through the centre has an opponent stone right before and after it.
    fn blocked_both_ends(&self, key: u32) -> bool {
        let opponent = 3 - self.own;
        let reach = REACH as isize;
        let before = (1..=reach).take_while(|&o| Self::cell(key, -o) == self.own).count() as isize;
        let after = (1..=reach).take_while(|&o| Self::cell(key, o) == self.own).count() as isize;
        // A run of five ends within four cells of the centre, so both ends are in the key.
        Self::cell(key, -before - 1) == opponent && Self::cell(key, after + 1) == opponent
    }

    fn classify(&mut self, key: u32) -> Shape {
        let run = self.run_length(key);
        if run >= 5 {
            return if self.wins(key, run) { Shape::Five } else { Shape::Overline };
        }
        // Only cells within four of the centre can share a five with it.
        let reach = REACH as isize - 1;
        let mut fives = Offsets::default();
        let mut best: Option<(Shape, Offsets)> = None;
        for o in (-reach..=reach).filter(|&o| o != 0 && Self::cell(key, o) == EMPTY) {
            let next = self.shape(self.with_own(key, o));
            if next == Shape::Five {
                fives.push(o);
            } else if next.rank() > 0 && best.as_ref().is_none_or(|(b, _)| next.rank() > b.rank()) {
                best = Some((next, Offsets::of(o)));
            } else if let Some((b, cells)) = best.as_mut()
                && next.rank() == b.rank()
            {
                cells.push(o);
            }
        }
        let fives = fives.as_slice();
        match fives.len() {
            0 => {}
            1 => return if self.fills_gap(key, fives[0]) { Shape::JumpFour } else { Shape::RushFour },
            _ if self.rule == FiveRule::RenjuBlack && !Self::is_straight_four(fives) => return Shape::DoubleFour,
            _ if self.rule == FiveRule::Caro && self.one_stone_stops(key, fives) => return Shape::RushFour,
            _ => return Shape::LiveFour,
        }
        let Some((next, cells)) = best else { return Shape::Dead };
        match next {
            Shape::LiveFour => {
                if cells.as_slice().iter().all(|&o| self.fills_gap(key, o)) {
                    Shape::JumpLiveThree
                } else {
                    Shape::LiveThree
                }
            }
            Shape::RushFour | Shape::JumpFour => Shape::SleepingThree,
            Shape::LiveThree | Shape::JumpLiveThree => Shape::LiveTwo,
            Shape::SleepingThree => Shape::SleepingTwo,
            Shape::LiveTwo => Shape::LiveOne,
            Shape::SleepingTwo => Shape::SleepingOne,
            _ => Shape::Dead,
        }
    }

    /// Caro: whether one opponent stone on the line leaves none of the five points a five.
    /// `O_XXXX_O` has two, but a stone on either shuts the other five at both ends.
    fn one_stone_stops(&mut self, key: u32, fives: &[isize]) -> bool {
        let opponent = 3 - self.own;
        let reach = REACH as isize;
        (-reach..=reach).filter(|&o| o != 0 && Self::cell(key, o) == EMPTY).any(|o| {
            let blocked = key | (opponent << slot_shift(o));
            fives.iter().all(|&f| f == o || self.shape(self.with_own(blocked, f)) != Shape::Five)
        })
    }

    /// Whether the five points (sorted offsets) are the two ends of one run of four, `_XXXX_`,
    /// rather than the completions of two different fours.
    fn is_straight_four(fives: &[isize]) -> bool {
        // The centre is own and no five point lies between the ends, so five cells apart means
        // the four cells between are all own.
        fives.len() == 2 && fives[1] - fives[0] == 5
    }

    /// Whether the empty cell at `offset` has own stones right before and after it.
    fn fills_gap(&self, key: u32, offset: isize) -> bool {
        let own_at = |o: isize| o == 0 || (o.abs() <= REACH as isize && Self::cell(key, o) == self.own);
        own_at(offset - 1) && own_at(offset + 1)
    }
}

/// Key of a written line, for tests and tools: `line` is 11 characters, the centre (index 5)
/// being the cell played; `X` black, `O` white, `.` empty, `#` wall (any other character).
pub fn key_of(line: &str) -> u32 {
    let cells: Vec<char> = line.chars().collect();
    assert_eq!(cells.len(), 2 * REACH + 1, "a line is {} cells", 2 * REACH + 1);
    let mut key = 0;
    for (i, c) in cells.iter().enumerate() {
        let offset = i as isize - REACH as isize;
        if offset == 0 {
            continue;
        }
        let code = match c {
            '.' => EMPTY,
            'X' => 1,
            'O' => 2,
            _ => WALL,
        };
        key |= code << slot_shift(offset);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn black(rule: Rule, line: &str) -> Shape {
        PatternTable::for_rule(rule).shapes(key_of(line))[0]
    }

    fn white(rule: Rule, line: &str) -> Shape {
        PatternTable::for_rule(rule).shapes(key_of(line))[1]
    }

    /// The same shape read by white on the colour-swapped line.
    fn both(line: &str) -> Shape {
        let swapped: String = line
            .chars()
            .map(|c| match c {
                'X' => 'O',
                'O' => 'X',
                c => c,
            })
            .collect();
        let b = black(Rule::Freestyle, line);
        assert_eq!(b, white(Rule::Freestyle, &swapped), "colour symmetry of {line}");
        b
    }

    #[test]
    fn every_shape_is_classified() {
        let cases = [
            ("...XXXXX...", Shape::Five),
            ("....XXXXX..", Shape::Five),
            ("...XXXX....", Shape::LiveFour),
            ("..O.XXXX...", Shape::LiveFour),
            ("..X.XXX.X..", Shape::LiveFour),
            ("...OXXXX...", Shape::RushFour),
            ("..OXXX.XO..", Shape::JumpFour),
            ("...X.XXX...", Shape::JumpFour),
            ("....XXX....", Shape::LiveThree),
            ("...XXX.....", Shape::LiveThree),
            ("...X.XX....", Shape::JumpLiveThree),
            ("....XX.X...", Shape::JumpLiveThree),
            ("...OXXX....", Shape::SleepingThree),
            ("..X..XX....", Shape::SleepingThree),
            ("....XX.....", Shape::LiveTwo),
            ("...X.X.....", Shape::LiveTwo),
            ("...OXX.....", Shape::SleepingTwo),
            (".....X.....", Shape::LiveOne),
            ("....OX.....", Shape::SleepingOne),
            ("...O.X.O...", Shape::Dead),
            ("##O..X.O...", Shape::Dead),
        ];
        for (line, shape) in cases {
            assert_eq!(both(line), shape, "{line}");
        }
    }

    #[test]
    fn board_edges_block_like_stones() {
        assert_eq!(both("##XXXX....."), Shape::RushFour);
        assert_eq!(both("#.XXXX....."), Shape::LiveFour);
        assert_eq!(both("....XXXX###"), Shape::RushFour);
        assert_eq!(both("..XX.XX####"), Shape::JumpFour);
        assert_eq!(both("####.X.X..."), Shape::LiveTwo);
        assert_eq!(both("#####X.###."), Shape::Dead);
    }

    #[test]
    fn exact_five_turns_six_into_an_overline() {
        let six = "..XXXXXX...";
        assert_eq!(black(Rule::Freestyle, six), Shape::Five);
        assert_eq!(black(Rule::Standard, six), Shape::Overline);
        // Filling the left gap would make six, so under exact five this is a one-sided four.
        let line = "X.XXXX.....";
        assert_eq!(black(Rule::Freestyle, line), Shape::LiveFour);
        assert_eq!(black(Rule::Standard, line), Shape::RushFour);
        // Renju: white may make six, black may not.
        assert_eq!(white(Rule::Renju, "..OOOOOO..."), Shape::Five);
        assert_eq!(black(Rule::Renju, six), Shape::Overline);
    }

    #[test]
    fn renju_black_tells_two_fours_in_a_line_from_a_straight_four() {
        // X_XXX_X, XX_XX_XX and XXX_X_XXX with the centre completing them.
        for line in ["..X.X.X.X..", ".XX.X..XX..", ".XXX...XXX."] {
            assert_eq!(black(Rule::Renju, line), Shape::DoubleFour, "{line}");
            assert_eq!(black(Rule::Standard, line), Shape::LiveFour, "{line}");
        }
        // One side would make six: a single four.
        assert_eq!(black(Rule::Renju, "XXX.X..XX.."), Shape::JumpFour);
        assert_eq!(black(Rule::Renju, "...XX.X...."), Shape::LiveFour);
        assert_eq!(white(Rule::Renju, "..O.O.O.O.."), Shape::LiveFour);
    }

    #[test]
    fn caro_five_needs_an_open_end() {
        assert_eq!(black(Rule::Caro, "OXXXX.O...."), Shape::Overline);
        assert_eq!(black(Rule::Freestyle, "OXXXX.O...."), Shape::Five);
        assert_eq!(black(Rule::Caro, "OXXXX......"), Shape::Five);
        // The board edge blocks nothing, and six or more always wins.
        assert_eq!(black(Rule::Caro, "#XXXX.O...."), Shape::Five);
        assert_eq!(black(Rule::Caro, "OXXXX.XO..."), Shape::Five);
        // A four whose five would be shut at both ends is no four.
        assert_eq!(black(Rule::Caro, ".OXXX..O..."), Shape::Dead);
        assert_eq!(black(Rule::Freestyle, ".OXXX..O..."), Shape::RushFour);
        assert_eq!(white(Rule::Caro, "XOOOO.X...."), Shape::Overline);
    }

    #[test]
    fn caro_live_four_is_one_no_stone_stops() {
        // O_XXXX_O: a stone on either five point shuts the other five at both ends.
        assert_eq!(black(Rule::Caro, "O.XXX..O..."), Shape::RushFour);
        // __XXXX_O: a stone on the open side's five point shuts the other.
        assert_eq!(black(Rule::Caro, "..XXX..O..."), Shape::RushFour);
        assert_eq!(black(Rule::Freestyle, "..XXX..O..."), Shape::LiveFour);
        // Open past both five points: live.
        assert_eq!(black(Rule::Caro, "..XXX......"), Shape::LiveFour);
        assert_eq!(black(Rule::Caro, "#.XXX..#..."), Shape::LiveFour);
        // A three that can only become such a four is no live three.
        assert_eq!(black(Rule::Caro, "O..XX...O.."), Shape::SleepingThree);
        assert_eq!(black(Rule::Freestyle, "O..XX...O.."), Shape::LiveThree);
    }

    #[test]
    fn opponent_stones_are_blockers() {
        assert_eq!(both("...OXXXXO.."), Shape::Dead);
        assert_eq!(white(Rule::Freestyle, "...OOOOO..."), Shape::Five);
        assert_eq!(white(Rule::Freestyle, "...XXXXX..."), Shape::Dead);
    }
}
