//! Swap2 opening decisions: which three stones to open with, and whether to swap, add two
//! stones or play on.
//!
//! Swap2: the first player places three stones (black, white, black). The second player then
//! swaps colours, plays white's fourth stone, or places the fourth and fifth stones and lets the
//! first player choose the colour, who then swaps or plays white's sixth stone.
//!
//! The decisions rest on a judgement of positions (a short engine search) that the caller
//! supplies, so this module depends on no engine or protocol; every judgement is of a position
//! with its side to move, and at most three are asked for per decision.

use std::fmt;

use super::{Board, Move, Rule};
use crate::score::Score;

/// Scores within this margin of zero count as balanced: a colour choice that close is a coin
/// toss, so the opening is worth offering to the opponent.
const BALANCED: Score = 150;

/// Candidate openings as offsets from the centre, black, white, black: loose shapes whose black
/// stones do not touch, so black's advantage stays small. The judge picks the most balanced one.
const OPENINGS: [[(isize, isize); 3]; 3] =
    [[(0, 0), (1, -1), (2, 1)], [(0, 0), (0, 1), (2, -1)], [(0, 0), (1, 1), (-2, 1)]];

/// A position's value and best move, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    pub score: Score,
    pub best: Option<Move>,
}

/// What to answer in a swap2 opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Choice {
    /// The first three stones: black, white, black.
    Opening([Move; 3]),
    /// Take the other colour.
    Swap,
    /// White's fourth and black's fifth stone; the opponent chooses the colour.
    PutTwo([Move; 2]),
    /// Stay white and play this move.
    Play(Move),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Error {
    /// Swap2 positions have 0, 3 or 5 stones.
    StoneCount(usize),
    /// The stones do not make a position (the board's reason).
    Position(String),
    /// The judge found no move to play.
    NoMove,
}

impl fmt::Display for Swap2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Swap2Error::StoneCount(n) => write!(f, "swap2 expects 0, 3 or 5 stones, got {n}"),
            Swap2Error::Position(error) => write!(f, "bad swap2 position: {error}"),
            Swap2Error::NoMove => write!(f, "no move to play"),
        }
    }
}

impl std::error::Error for Swap2Error {}

/// The swap2 answer when `stones` (in the order played) are on a `width`×`height` board; no
/// stone it places is on a `blocked` point, which the judge must not propose either.
pub fn choose(
    width: usize,
    height: usize,
    rule: Rule,
    stones: &[Move],
    blocked: &[Move],
    judge: &mut dyn FnMut(&Board) -> Judgement,
) -> Result<Swap2Choice, Swap2Error> {
    match stones.len() {
        0 => opening(width, height, rule, blocked, judge),
        3 => after_three(position(width, height, rule, stones)?, judge),
        5 => {
            let board = position(width, height, rule, stones)?;
            let judgement = judge(&board);
            let best = judgement.best.ok_or(Swap2Error::NoMove)?;
            Ok(if judgement.score < 0 { Swap2Choice::Swap } else { Swap2Choice::Play(best) })
        }
        n => Err(Swap2Error::StoneCount(n)),
    }
}

/// The stones in play order: black first, colours alternating.
fn position(width: usize, height: usize, rule: Rule, stones: &[Move]) -> Result<Board, Swap2Error> {
    let black: Vec<Move> = stones.iter().step_by(2).copied().collect();
    let white: Vec<Move> = stones.iter().skip(1).step_by(2).copied().collect();
    Board::from_stones(width, height, rule, &black, &white).map_err(|error| Swap2Error::Position(error.to_string()))
}

/// The candidate opening off the `blocked` points that the judge finds closest to balanced.
fn opening(
    width: usize,
    height: usize,
    rule: Rule,
    blocked: &[Move],
    judge: &mut dyn FnMut(&Board) -> Judgement,
) -> Result<Swap2Choice, Swap2Error> {
    let centre = ((width / 2) as isize, (height / 2) as isize);
    let mut best: Option<(Score, [Move; 3])> = None;
    for shape in OPENINGS {
        let stones = shape.map(|(dx, dy)| {
            let (x, y) = (centre.0 + dx, centre.1 + dy);
            let on_board = (0..width as isize).contains(&x) && (0..height as isize).contains(&y);
            on_board.then(|| Move::new(x as usize, y as usize)).flatten()
        });
        let [Some(a), Some(b), Some(c)] = stones else { continue };
        if [a, b, c].iter().any(|stone| blocked.contains(stone)) {
            continue;
        }
        let Ok(board) = position(width, height, rule, &[a, b, c]) else { continue };
        let imbalance = judge(&board).score.saturating_abs();
        if best.is_none_or(|(least, _)| imbalance < least) {
            best = Some((imbalance, [a, b, c]));
        }
    }
    best.map(|(_, stones)| Swap2Choice::Opening(stones)).ok_or(Swap2Error::NoMove)
}

/// White to move after three stones: swap if white is worse, play on if it is better, and offer
/// the choice back with two balanced stones when it is close.
fn after_three(board: Board, judge: &mut dyn FnMut(&Board) -> Judgement) -> Result<Swap2Choice, Swap2Error> {
    let judgement = judge(&board);
    let fourth = judgement.best.ok_or(Swap2Error::NoMove)?;
    if judgement.score.saturating_abs() <= BALANCED
        && let Some(fifth) = balanced_fifth(&board, fourth, judge)
    {
        return Ok(Swap2Choice::PutTwo([fourth, fifth]));
    }
    Ok(if judgement.score < 0 { Swap2Choice::Swap } else { Swap2Choice::Play(fourth) })
}

/// Black's best answer to `fourth`, if the five-stone position it makes is still balanced.
fn balanced_fifth(board: &Board, fourth: Move, judge: &mut dyn FnMut(&Board) -> Judgement) -> Option<Move> {
    let mut board = board.clone();
    board.play(fourth).ok()?;
    let fifth = judge(&board).best?;
    board.play(fifth).ok()?;
    (judge(&board).score.saturating_abs() <= BALANCED).then_some(fifth)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A judge that always gives `score` and the first empty square.
    fn fixed(score: Score) -> impl FnMut(&Board) -> Judgement {
        move |board: &Board| {
            let best = (0..board.height())
                .flat_map(|y| (0..board.width()).map(move |x| (x, y)))
                .filter_map(|(x, y)| Move::new(x, y))
                .find(|&mv| board.stone(mv).is_none());
            Judgement { score, best }
        }
    }

    fn mv(x: usize, y: usize) -> Move {
        Move::new(x, y).unwrap()
    }

    #[test]
    fn opening_is_three_distinct_stones_near_the_centre() {
        for size in [5, 15, 20] {
            let Ok(Swap2Choice::Opening(stones)) = choose(size, size, Rule::Standard, &[], &[], &mut fixed(0)) else {
                panic!("no opening on {size}x{size}");
            };
            let centre = size / 2;
            assert!(stones.iter().all(|s| s.x().abs_diff(centre) <= 2 && s.y().abs_diff(centre) <= 2));
            assert!(stones[0] != stones[1] && stones[1] != stones[2] && stones[0] != stones[2]);
        }
    }

    #[test]
    fn opening_picks_the_most_balanced_candidate() {
        let mut calls = 0;
        let mut judge = |_: &Board| {
            calls += 1;
            Judgement { score: if calls == 2 { -20 } else { 400 }, best: None }
        };
        let Ok(Swap2Choice::Opening(stones)) = choose(15, 15, Rule::Standard, &[], &[], &mut judge) else { panic!() };
        assert_eq!(stones, [mv(7, 7), mv(7, 8), mv(9, 6)]);
    }

    #[test]
    fn no_opening_stone_is_on_a_blocked_point() {
        let Ok(Swap2Choice::Opening(stones)) = choose(15, 15, Rule::Standard, &[], &[mv(8, 6)], &mut fixed(0)) else {
            panic!()
        };
        assert_eq!(stones, [mv(7, 7), mv(7, 8), mv(9, 6)], "the first candidate has a stone on 8,6");
        let centre: Vec<Move> = (4..11).flat_map(|x| (4..11).map(move |y| mv(x, y))).collect();
        assert_eq!(choose(15, 15, Rule::Standard, &[], &centre, &mut fixed(0)), Err(Swap2Error::NoMove));
    }

    #[test]
    fn after_three_stones_the_score_decides() {
        let three = [mv(7, 7), mv(8, 7), mv(9, 9)];
        assert_eq!(choose(15, 15, Rule::Standard, &three, &[], &mut fixed(-500)), Ok(Swap2Choice::Swap));
        assert_eq!(choose(15, 15, Rule::Standard, &three, &[], &mut fixed(500)), Ok(Swap2Choice::Play(mv(0, 0))));
        assert_eq!(
            choose(15, 15, Rule::Standard, &three, &[], &mut fixed(10)),
            Ok(Swap2Choice::PutTwo([mv(0, 0), mv(1, 0)]))
        );
    }

    #[test]
    fn after_five_stones_swap_or_play() {
        let five = [mv(7, 7), mv(8, 7), mv(9, 9), mv(8, 8), mv(8, 6)];
        assert_eq!(choose(15, 15, Rule::Standard, &five, &[], &mut fixed(-1)), Ok(Swap2Choice::Swap));
        assert_eq!(choose(15, 15, Rule::Standard, &five, &[], &mut fixed(0)), Ok(Swap2Choice::Play(mv(0, 0))));
    }

    #[test]
    fn other_stone_counts_are_refused() {
        let two = [mv(7, 7), mv(8, 7)];
        assert_eq!(choose(15, 15, Rule::Standard, &two, &[], &mut fixed(0)), Err(Swap2Error::StoneCount(2)));
        let clash = [mv(7, 7), mv(7, 7), mv(9, 9)];
        assert!(matches!(choose(15, 15, Rule::Standard, &clash, &[], &mut fixed(0)), Err(Swap2Error::Position(_))));
    }
}
