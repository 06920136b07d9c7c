//! Opening-maker searches: the move, or the pair of moves, after which a position's value is
//! closest to a wanted value (Yixin's balance commands, for openings that neither side should
//! want to refuse).
//!
//! Candidates are the first stone from [`Game::generate_unpruned`] and, for pairs, the second
//! from the same list of the position after it. They are ranked by how far their value lies
//! from the wanted one: first by the static evaluation, then in rounds of searches, each one
//! ply deeper over the closer half of the candidates before, while the time lasts. A round that
//! a limit or a stop cuts short is dropped whole, so the answer always ranks candidates searched
//! to the same depth. The searches run on one thread, not on the engine's pool: they were
//! written when every search built a pool of its own, and whether helpers pay in such short
//! searches has not been measured since. The table is aged once for the whole command, so
//! each round finds the entries of the round before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::Engine;
use crate::game::{Game, Outcome};
use crate::score::{self, DRAW, Score};
use crate::search::limits::SearchLimits;
use crate::search::time::TimeManager;
use crate::search::{MAX_PLY, search};

/// Candidates searched in the first round of searches; each later round keeps the closer half
/// of the round before, down to `LAST_ROUND`.
const FIRST_ROUND: usize = 64;
const LAST_ROUND: usize = 4;

/// The best candidate found: its moves, its value for the side that placed the first stone,
/// and the depth of the searches that ranked it (0: the static evaluation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Balanced<M> {
    pub moves: Vec<M>,
    pub score: Score,
    pub depth: u32,
}

/// What an opening maker asks for: how many stones to place (1, or 2: the side to move's stone,
/// then the opponent's) and the value wanted after them, in the engine's score units, seen by
/// the side to move before them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BalanceTarget {
    pub stones: usize,
    pub bias: Score,
}

struct Candidate<M> {
    moves: Vec<M>,
    score: Score,
}

impl Engine {
    /// The stones after which the value of `pos` is closest to what `target` asks.
    /// `limits` gives the time, node and depth budget of the whole command and the moves never
    /// to place (`excluded`); `on_round` hears of the best candidate after every completed
    /// round. `None` when there is no candidate, e.g. the game is over.
    pub fn balance<G: Game>(
        &mut self,
        pos: &G,
        target: BalanceTarget,
        limits: &SearchLimits,
        start: Instant,
        stop: &AtomicBool,
        on_round: &mut dyn FnMut(&Balanced<G::Move>),
    ) -> Option<Balanced<G::Move>> {
        self.tt.new_search();
        let time = TimeManager::new(limits, start);
        let out_of_time = || time.hard_expired() || stop.load(Ordering::Relaxed);
        let mut candidates = candidates(pos, target.stones.clamp(1, 2), &limits.excluded, &out_of_time);
        let distance = |score: Score| (i64::from(score) - i64::from(target.bias)).abs();
        candidates.sort_by_key(|c| distance(c.score));
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).min(MAX_PLY as u32 - 1);
        let mut best = candidates.first().map(|c| Balanced { moves: c.moves.clone(), score: c.score, depth: 0 })?;
        let mut spent = 0u64;
        let mut keep = FIRST_ROUND;
        let mut depth = 1;
        while depth <= max_depth && time.may_start_iteration(1.0) && !out_of_time() {
            keep = keep.min(candidates.len());
            let mut scores = Vec::with_capacity(keep);
            for candidate in &candidates[..keep] {
                let mut child = pos.clone();
                for &mv in &candidate.moves {
                    child.make_move(mv);
                }
                let search_limits = SearchLimits {
                    depth: Some(depth),
                    nodes: limits.nodes.map(|n| n.saturating_sub(spent)),
                    move_time: limits.move_time,
                    clock: limits.clock,
                    solver: limits.solver,
                    ..SearchLimits::default()
                };
                let result = search(&child, &search_limits, start, None, &self.tt, stop, &mut |_| {});
                spent += result.nodes;
                if out_of_time() || limits.nodes.is_some_and(|n| spent >= n) {
                    break;
                }
                let score = child.outcome().map_or(result.score, outcome_score);
                scores.push(if candidate.moves.len() % 2 == 1 { -score } else { score });
            }
            if scores.len() < keep {
                break;
            }
            candidates.truncate(keep);
            for (candidate, score) in candidates.iter_mut().zip(scores) {
                candidate.score = score;
            }
            candidates.sort_by_key(|c| distance(c.score));
            best = Balanced { moves: candidates[0].moves.clone(), score: candidates[0].score, depth };
            on_round(&best);
            keep = (keep / 2).max(LAST_ROUND);
            depth += 1;
        }
        Some(best)
    }
}

/// Every candidate of `stones` moves from `pos` but those with an excluded move, valued by the
/// static evaluation for the side to move in `pos`. A first stone that ends the game makes no
/// pair. Pairs are many on a crowded board, so once `out_of_time` says so no more first stones
/// are tried (one always is).
fn candidates<G: Game>(
    pos: &G,
    stones: usize,
    excluded: &[u32],
    out_of_time: &dyn Fn() -> bool,
) -> Vec<Candidate<G::Move>> {
    let allowed = |mv: &G::Move| !excluded.contains(&G::encode_move(*mv));
    let mut pos = pos.clone();
    let mut firsts = Vec::new();
    pos.generate_unpruned(&mut firsts);
    firsts.retain(allowed);
    let mut out = Vec::new();
    let mut seconds = Vec::new();
    for first in firsts {
        pos.make_move(first);
        if stones == 1 {
            out.push(Candidate { moves: vec![first], score: -static_value(&pos) });
        } else if pos.outcome().is_none() {
            pos.generate_unpruned(&mut seconds);
            seconds.retain(allowed);
            for &second in &seconds {
                pos.make_move(second);
                out.push(Candidate { moves: vec![first, second], score: static_value(&pos) });
                pos.unmake_move(second);
            }
        }
        pos.unmake_move(first);
        if out_of_time() {
            break;
        }
    }
    out
}

/// The position's value for its side to move without a search: the end of the game if it is
/// over, else the evaluation.
fn static_value<G: Game>(pos: &G) -> Score {
    pos.outcome().map_or_else(|| pos.evaluate(), outcome_score)
}

fn outcome_score(outcome: Outcome) -> Score {
    match outcome {
        Outcome::Win => score::win_in(0),
        Outcome::Loss => score::loss_in(0),
        Outcome::Draw => DRAW,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::{Board, Move, Rule};

    fn balance(board: &Board, stones: usize, bias: Score, limits: &SearchLimits) -> Balanced<Move> {
        let mut engine = Engine::new(4, 1);
        let stop = AtomicBool::new(false);
        engine.balance(board, BalanceTarget { stones, bias }, limits, Instant::now(), &stop, &mut |_| {}).unwrap()
    }

    fn board(black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
        let stones =
            |points: &[(usize, usize)]| points.iter().map(|&(x, y)| Move::new(x, y).unwrap()).collect::<Vec<_>>();
        Board::from_stones(15, 15, Rule::Freestyle, &stones(black), &stones(white)).unwrap()
    }

    fn opening() -> Board {
        board(&[(7, 7), (8, 6)], &[(8, 8)])
    }

    #[test]
    fn values_are_seen_by_the_side_placing_the_stone() {
        // Black to move with an open four wins whatever it plays: asked for the most it can
        // get, it completes the five; asked for an even game, it takes the slowest win.
        let four = board(&[(5, 7), (6, 7), (7, 7), (8, 7)], &[(0, 0), (0, 2), (0, 4), (0, 6)]);
        let win = balance(&four, 1, score::MATE, &SearchLimits::depth(2));
        assert!([Move::new(4, 7), Move::new(9, 7)].contains(&Some(win.moves[0])), "{win:?}");
        assert_eq!(win.score, score::win_in(0));
        let even = balance(&four, 1, 0, &SearchLimits::depth(2));
        assert_eq!(even.score, score::win_in(2), "{even:?}");
    }

    #[test]
    fn the_bias_steers_the_choice() {
        let limits = SearchLimits::depth(3);
        let ahead = balance(&opening(), 1, 5_000, &limits);
        let behind = balance(&opening(), 1, -5_000, &limits);
        let even = balance(&opening(), 1, 0, &limits);
        assert_eq!((ahead.depth, behind.depth, even.depth), (3, 3, 3));
        assert!(ahead.score > behind.score, "{ahead:?} {behind:?}");
        assert!(even.score.abs() <= ahead.score.abs().max(behind.score.abs()), "{even:?} {ahead:?} {behind:?}");
    }

    #[test]
    fn pairs_place_one_stone_of_each_side() {
        let board = opening();
        let found = balance(&board, 2, 0, &SearchLimits::depth(2));
        assert_eq!(found.moves.len(), 2);
        let mut after = board.clone();
        for &mv in &found.moves {
            after.play(mv).unwrap();
        }
        assert_eq!(after.side_to_move(), board.side_to_move());
    }

    #[test]
    fn excluded_moves_are_never_placed() {
        let board = opening();
        let limits = SearchLimits::depth(3);
        let first = balance(&board, 1, 0, &limits);
        let excluded = SearchLimits { excluded: vec![Board::encode_move(first.moves[0])], ..limits };
        let second = balance(&board, 1, 0, &excluded);
        assert_ne!(second.moves[0], first.moves[0]);
    }
}
