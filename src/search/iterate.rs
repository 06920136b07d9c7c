//! Iterative deepening at the root: one iteration per depth until a limit or a proven result,
//! each ranking as many root lines as multi-PV asks for, and the answer put together from the
//! last complete iteration (or the better part of a cut one).

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::solver::{PROOF_SHARE, ROOT_THREAT_NODES};
use super::{MAX_PLY, RootLine, SearchEvent, SearchInfo, SearchResult, Worker, outcome_score};
use crate::game::Game;
use crate::params::{self, Id};
use crate::score::{self, INFINITY, Score, loss_in, win_in};

/// Nodes the game's quick solver ([`Game::prove_win`]) may spend at the root before the search.
const ROOT_PROOF_NODES: u32 = 5_000;

impl<G: Game> Worker<'_, G> {
    pub(super) fn iterate(&mut self) -> SearchResult<G::Move> {
        let mut result = SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: Vec::new(),
            lines: Vec::new(),
        };
        let limits = self.shared.limits;
        let mut root_moves = Vec::new();
        self.pos.generate_moves(&mut root_moves);
        if !limits.excluded.is_empty() {
            self.root_limited = true;
            let allowed = |m: &G::Move| !limits.excluded.contains(&G::encode_move(*m));
            root_moves.retain(allowed);
            if root_moves.is_empty() {
                // Every move that would hold is excluded: the others lose no more than they do.
                self.pos.generate_unpruned(&mut root_moves);
                root_moves.retain(allowed);
            }
        }
        self.root_moves = root_moves;
        result.best_move = self.likeliest_root_move();
        // A forced move needs no search to be chosen; only a fixed-depth search, asked for the
        // position's value, still searches it.
        let forced = self.root_moves.len() == 1 && limits.depth.is_none();
        if self.root_moves.is_empty() || forced || self.pos.outcome().is_some() {
            if let (true, Some(mv)) = (forced, result.best_move) {
                result.score = self.forced_move_value(mv);
            }
            return self.finish(result);
        }
        let wanted_lines = limits.multi_pv.max(1);
        // A proven win needs no search: play it, unless other lines are wanted or it is excluded.
        // The root's proofs are thread 0's alone: on a helper the same proof only delays its
        // search, and, with more threads than cores, the end of the move, which waits for every
        // helper and cannot stop one inside a proof.
        let answering = self.id == 0;
        if answering
            && wanted_lines == 1
            && let Some((mv, plies)) = self.pos.prove_win(ROOT_PROOF_NODES)
            && (!self.root_limited || self.root_moves.contains(&mv))
        {
            result.best_move = Some(mv);
            result.score = win_in(plies);
            result.depth = 1;
            result.pv = vec![mv];
            self.report(&result);
            return self.finish(result);
        }
        let proving = answering && limits.solver && wanted_lines == 1;
        if proving && self.try_proof(ROOT_THREAT_NODES, &mut result) {
            return self.finish(result);
        }
        let mut proof_nodes_from = self.nodes;
        let wanted_lines = wanted_lines.min(self.root_moves.len());
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).min(MAX_PLY as u32 - 1);
        let mut instability = 1.0f64;
        // Helpers start one ply deeper on odd threads so the threads do not mirror each other.
        let mut depth = 1 + (self.id % 2) as u32;
        while depth <= max_depth {
            self.seldepth = 0;
            self.partial = None;
            let iteration_from = self.nodes;
            let center = (depth >= params::get(Id::aspiration_min_depth) as u32
                && result.depth > 0
                && !score::is_mate(result.score))
            .then_some(result.score);
            let Some(lines) = self.rank_root(depth, wanted_lines, &result.lines, center) else {
                if let (1, Some(line)) = (wanted_lines, self.partial.take()) {
                    result.best_move = line.pv.first().copied().or(result.best_move);
                    result.score = line.score;
                    result.pv = line.pv.clone();
                    result.lines = vec![line];
                }
                break;
            };
            let best = lines[0].pv.first().copied();
            if best != result.best_move && result.depth > 0 {
                instability += 0.6;
            }
            instability = 1.0 + (instability - 1.0) * 0.7;
            let score = lines[0].score;
            result.best_move = best.or(result.best_move);
            result.score = score;
            result.depth = depth;
            result.pv = lines[0].pv.clone();
            result.lines = lines;
            if self.id == 0 {
                self.report(&result);
                if score::is_mate(score) && score > 0 && depth as i32 >= score::MATE - score {
                    break;
                }
                if proving
                    && !score::is_mate(score)
                    && let Some(mv) = best
                    && let Some(plies) = self.refute(mv, self.nodes - iteration_from)
                {
                    if self.root_moves.len() > 1 {
                        // Search this depth again without it; until then, the likeliest other move.
                        self.root_moves.retain(|&m| m != mv);
                        let fallback = self.likeliest_root_move();
                        result.best_move = fallback;
                        result.pv = fallback.into_iter().collect();
                        result.lines.clear();
                        continue;
                    }
                    // Every move loses: play the one whose loss is proven the slowest.
                    let (mv, plies) = self.refuted.iter().copied().max_by_key(|&(_, p)| p).unwrap_or((mv, plies));
                    result.best_move = Some(mv);
                    result.score = loss_in(plies);
                    result.pv = vec![mv];
                    result.lines.clear();
                    self.report(&result);
                    break;
                }
                if !self.shared.time.may_start_iteration(instability) {
                    break;
                }
                if proving && !score::is_mate(score) {
                    let budget = (self.nodes - proof_nodes_from) / PROOF_SHARE;
                    if self.try_proof(budget, &mut result) {
                        break;
                    }
                    proof_nodes_from = self.nodes;
                }
            }
            depth += 1;
        }
        self.finish(result)
    }

    /// One iteration: the best `wanted` root moves at `depth`, best first, each searched with
    /// the moves ranked before it left out; `previous` is the last iteration's ranking. `None`
    /// when the search was stopped before the iteration ended. The lines are sorted by score
    /// at the end: a move that only got a reduced null-window look in an earlier line can
    /// prove better than that line's move once it gets a full window of its own. A single line
    /// is searched in an aspiration window around `center`, the last iteration's score, if given.
    fn rank_root(
        &mut self,
        depth: u32,
        wanted: usize,
        previous: &[RootLine<G::Move>],
        center: Option<Score>,
    ) -> Option<Vec<RootLine<G::Move>>> {
        self.root_taken.clear();
        let mut lines = Vec::with_capacity(wanted);
        while lines.len() < wanted {
            self.root_hint = previous.get(lines.len()).and_then(|line| line.pv.first().copied());
            let score = match center.filter(|_| wanted == 1) {
                Some(center) => self.aspiration(depth, center)?,
                None => self.negamax(depth, -INFINITY, INFINITY, 0, true)?,
            };
            let pv = self.pv[0].clone();
            // A move is always left (`wanted` counts them), and a score inside the window makes
            // one best.
            let Some(&first) = pv.first() else { break };
            self.root_taken.push(first);
            lines.push(RootLine { score, pv });
        }
        self.root_taken.clear();
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        Some(lines)
    }

    /// The root's exact score at `depth`, searched in a window around `center` that widens
    /// towards each failure until the score falls inside it: `aspiration_delta` (a parameter)
    /// either side, widened by half again after each failure. A bound past the mates opens to
    /// infinity on that side. Iterations that rank one line use it from `aspiration_min_depth`:
    /// when the best move collapses, proving by how much is far cheaper inside a window than
    /// with a full one, which makes the search prove the exact mate, where no pruning works.
    fn aspiration(&mut self, depth: u32, center: Score) -> Option<Score> {
        let mut delta: Score = params::get(Id::aspiration_delta);
        let mut alpha = center - delta;
        let mut beta = center + delta;
        loop {
            let score = self.negamax(depth, alpha, beta, 0, true)?;
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = score - delta;
            } else if score >= beta {
                beta = score + delta;
            } else {
                return Some(score);
            }
            if alpha <= -score::MATE_BOUND {
                alpha = -INFINITY;
            }
            if beta >= score::MATE_BOUND {
                beta = INFINITY;
            }
            delta += delta / 2;
        }
    }

    /// Whether the root is searched with some of its moves left out.
    pub(super) fn root_restricted(&self) -> bool {
        self.root_limited || !self.root_taken.is_empty()
    }

    /// What is known of a forced move without a search: whether it ends the game, or else
    /// the static value of where it leads.
    fn forced_move_value(&mut self, mv: G::Move) -> Score {
        self.pos.make_move(mv);
        let value = match self.pos.outcome() {
            Some(outcome) => -outcome_score(outcome, 1),
            None => -self.pos.evaluate(),
        };
        self.pos.unmake_move(mv);
        value
    }

    /// The root move the game's ordering hints rank first: the answer before any search.
    fn likeliest_root_move(&mut self) -> Option<G::Move> {
        self.pos.order_scores(&self.root_moves, &mut self.move_scores);
        self.root_moves.iter().zip(&self.move_scores).max_by_key(|&(_, &s)| s).map(|(&m, _)| m)
    }

    pub(super) fn report(&mut self, result: &SearchResult<G::Move>) {
        self.flush_nodes();
        let info = SearchInfo {
            depth: result.depth,
            seldepth: self.seldepth.max(result.depth),
            score: result.score,
            nodes: self.shared.nodes.load(Ordering::Relaxed),
            elapsed: self.shared.time.elapsed(),
            pv: result.pv.clone(),
        };
        if let Some(on_event) = self.on_event.as_mut() {
            on_event(SearchEvent::Iteration(&info));
        }
    }

    fn finish(&mut self, mut result: SearchResult<G::Move>) -> SearchResult<G::Move> {
        self.flush_nodes();
        result.nodes = self.shared.nodes.load(Ordering::Relaxed);
        result.elapsed = self.shared.time.elapsed();
        if result.pv.is_empty() {
            result.pv.extend(result.best_move);
        }
        if result.lines.is_empty() && result.best_move.is_some() {
            result.lines.push(RootLine { score: result.score, pv: result.pv.clone() });
        }
        result
    }
}
