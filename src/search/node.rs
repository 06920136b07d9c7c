//! Node search: fail-soft negamax with principal-variation search, the pruning of quiet
//! non-PV nodes (reverse futility, razoring, null move) and the search beyond the horizon.

use std::sync::LazyLock;

use super::tt::Bound;
use super::{MAX_PLY, RootLine, SearchEvent, Worker, outcome_score};
use crate::game::Game;
use crate::params::{self, Id};
use crate::score::{self, DRAW, INFINITY, Score, from_tt, loss_in, to_tt, win_in};

/// Move indices past this share the last reduction entry.
const MAX_MOVES: usize = 64;

// The pruning and reduction constants are the tuner's parameters (crate::params): late-move
// reductions from `lmr_min_index` and `lmr_min_depth`, growing with the product of the
// logarithms of depth and index (scaled by `lmr_scale_pct`); late-move pruning of quiet moves
// past `lmp_base + depth^lmp_exponent` away from the PV, past half as many when the side to move
// is not improving (its static evaluation no higher than two plies before); reverse futility at
// quiet non-PV nodes whose evaluation is `rfp_margin` per ply left above beta; razoring, within
// `razor_max_depth` of the horizon, of nodes `razor_margin` per ply below alpha, which only ask
// the quiescence search whether a forcing line saves them; null-move pruning from
// `nmp_min_depth`, `nmp_base + depth / nmp_divisor` plies shallower; `max_threat_extension`
// replies to threats beyond the horizon before the static evaluation is trusted, and
// `max_forcing_plies` beyond it in which the side to move may still try a forcing move.

/// Late-move reduction by depth and move index, computed once for every search.
static REDUCTIONS: LazyLock<Vec<[u32; MAX_MOVES]>> = LazyLock::new(|| {
    let scale = f64::from(params::get(Id::lmr_scale_pct)) / 100.0;
    (0..=MAX_PLY)
        .map(|depth| {
            std::array::from_fn(|index| {
                let r = (depth.max(1) as f64).ln() * (index.max(1) as f64).ln() * scale;
                r as u32
            })
        })
        .collect()
});

/// Late-move pruning's move count by depth.
static LMP_LIMITS: LazyLock<Vec<usize>> = LazyLock::new(|| {
    let (base, exponent) = (params::get(Id::lmp_base) as usize, f64::from(params::get(Id::lmp_exponent_pct)) / 100.0);
    (0..=MAX_PLY).map(|depth| base + (depth as f64).powf(exponent) as usize).collect()
});

impl<G: Game> Worker<'_, G> {
    /// Fail-soft negamax with principal-variation search. `None` means the search was stopped
    /// and the value is unknown.
    pub(super) fn negamax(
        &mut self,
        depth: u32,
        mut alpha: Score,
        mut beta: Score,
        ply: u32,
        pv_node: bool,
    ) -> Option<Score> {
        self.pv[ply as usize].clear();
        if ply > 0 && self.should_abort() {
            return None;
        }
        if let Some(outcome) = self.pos.outcome() {
            return Some(outcome_score(outcome, ply));
        }
        if ply as usize >= MAX_PLY {
            return Some(self.pos.evaluate());
        }
        if depth == 0 {
            return self.horizon(alpha, beta, ply, 0);
        }
        self.count_node(ply);

        if ply > 0 {
            // A mate already found closer to the root cannot be improved on here.
            alpha = alpha.max(loss_in(ply));
            beta = beta.min(win_in(ply + 1));
            if alpha >= beta {
                return Some(alpha);
            }
        }

        let key = self.pos.hash();
        let entry = self.shared.tt.probe(key);
        let restricted_root = ply == 0 && self.root_restricted();
        let tt_move = if restricted_root {
            self.root_hint
        } else {
            entry.and_then(|e| e.mv).and_then(|code| self.pos.decode_move(code))
        };
        if let Some(e) = entry
            && ply > 0
            && !pv_node
            && e.depth >= depth
        {
            let score = from_tt(e.score, ply);
            let cutoff = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cutoff {
                return Some(score);
            }
        }

        // Kept for every quiet node, PV or not, so that the node two plies down can tell whether
        // its side is improving.
        let static_eval = (ply > 0 && self.pos.is_quiet()).then(|| self.pos.evaluate());
        self.static_evals[ply as usize] = static_eval;
        let improving = match (static_eval, ply.checked_sub(2).and_then(|p| self.static_evals[p as usize])) {
            (Some(now), Some(before)) => now > before,
            _ => true,
        };
        // The static evaluation of a quiet non-PV node, which the pruning below trusts.
        // A stored bound on the same side of the evaluation is a better estimate than the
        // evaluation itself.
        let quiet_eval = static_eval.filter(|_| !pv_node && beta.abs() < score::MATE_BOUND).map(|eval| match entry {
            Some(e) if e.score.abs() < score::MATE_BOUND => match e.bound {
                Bound::Lower if e.score > eval => e.score,
                Bound::Upper if e.score < eval => e.score,
                Bound::Exact => e.score,
                _ => eval,
            },
            _ => eval,
        });
        if let Some(eval) = quiet_eval
            && let Some(score) = self.prune_quiet(eval, depth, alpha, beta, ply)?
        {
            return Some(score);
        }

        let mut moves = std::mem::take(&mut self.move_lists[ply as usize]);
        moves.clear();
        if ply == 0 {
            moves.extend(self.root_moves.iter().filter(|m| !self.root_taken.contains(m)));
        } else {
            self.pos.generate_moves(&mut moves);
        }
        if moves.is_empty() {
            self.move_lists[ply as usize] = moves;
            return Some(DRAW);
        }
        self.order_moves(&mut moves, tt_move, ply, self.pos.max_moves(depth));
        let report_root_moves =
            ply == 0 && self.root_taken.is_empty() && self.shared.limits.report_root_moves && self.on_event.is_some();

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut result = Some(());
        let mut searched = std::mem::take(&mut self.searched_lists[ply as usize]);
        searched.clear();
        let lmp_limit = LMP_LIMITS[(depth as usize).min(MAX_PLY)] / if improving { 1 } else { 2 };
        let reducing = depth >= params::get(Id::lmr_min_depth) as u32;
        let mut adjustments = std::mem::take(&mut self.adjustment_lists[ply as usize]);
        adjustments.clear();
        // Asked only where some move is late enough to be reduced; none given, none changes.
        if reducing && moves.len() > params::get(Id::lmr_min_index) as usize {
            self.pos.reduction_adjustments(&moves, &mut adjustments);
        }
        for (index, &mv) in moves.iter().enumerate() {
            let tactical = self.pos.is_tactical(mv);
            if !pv_node && !tactical && index >= lmp_limit && best_score > -score::MATE_BOUND {
                continue;
            }
            searched.push(mv);
            // Forced single replies cost nothing to search one ply deeper; a root left with one
            // move by exclusions is not forced.
            let next_depth = if moves.len() == 1 && !restricted_root { depth } else { depth - 1 };
            // The child probes the table unless it is a horizon node (reductions stop above it).
            if next_depth > 0
                && let Some(child) = self.pos.child_hash(mv)
            {
                self.shared.tt.prefetch(child);
            }
            self.pos.make_move(mv);
            let score = if index == 0 {
                self.negamax(next_depth, -beta, -alpha, ply + 1, pv_node).map(|s| -s)
            } else {
                let reduction = if index >= params::get(Id::lmr_min_index) as usize && reducing && !tactical {
                    let base = REDUCTIONS[(depth as usize).min(MAX_PLY)][index.min(MAX_MOVES - 1)] as i32;
                    let adjustment = adjustments.get(index).copied().unwrap_or(0);
                    (base - i32::from(pv_node) + adjustment).clamp(0, next_depth as i32 - 1) as u32
                } else {
                    0
                };
                let mut score = self.negamax(next_depth - reduction, -alpha - 1, -alpha, ply + 1, false).map(|s| -s);
                if reduction > 0 && score.is_some_and(|s| s > alpha) {
                    score = self.negamax(next_depth, -alpha - 1, -alpha, ply + 1, false).map(|s| -s);
                }
                if pv_node && score.is_some_and(|s| s > alpha && s < beta) {
                    score = self.negamax(next_depth, -beta, -alpha, ply + 1, true).map(|s| -s);
                }
                score
            };
            self.pos.unmake_move(mv);
            let Some(score) = score else {
                result = None;
                break;
            };
            if report_root_moves && let Some(on_event) = self.on_event.as_mut() {
                on_event(SearchEvent::RootMove { mv, score, new_best: score > alpha });
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply as usize + 1);
                    let line = &mut head[ply as usize];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                    if ply == 0 && self.root_taken.is_empty() {
                        self.partial = Some(RootLine { score, pv: line.clone() });
                    }
                    if alpha >= beta {
                        self.reward(mv, depth, ply, &searched[..searched.len() - 1]);
                        break;
                    }
                }
            }
        }
        self.move_lists[ply as usize] = moves;
        self.searched_lists[ply as usize] = searched;
        self.adjustment_lists[ply as usize] = adjustments;
        result?;

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !restricted_root {
            self.shared.tt.store(key, best_move.map(G::encode_move), to_tt(best_score, ply), depth, bound);
        }
        Some(best_score)
    }

    /// Pruning at a quiet non-PV node: the static evaluation so far above beta that the node
    /// is left as it is (reverse futility), so far below alpha near the horizon that only
    /// forcing moves are tried (razoring), or a pass that still holds beta in a shallower search
    /// (null move). `Some(Some(score))` ends the node with that value; `None` means the search
    /// was stopped.
    fn prune_quiet(&mut self, eval: Score, depth: u32, alpha: Score, beta: Score, ply: u32) -> Option<Option<Score>> {
        if eval - params::get(Id::rfp_margin) * depth as Score >= beta {
            return Some(Some(eval));
        }
        if depth <= params::get(Id::razor_max_depth) as u32
            && eval + params::get(Id::razor_margin) * depth as Score <= alpha
        {
            return self.horizon(alpha, beta, ply, 0).map(Some);
        }
        let ply_index = ply as usize;
        if depth < params::get(Id::nmp_min_depth) as u32
            || eval < beta
            || self.after_pass[ply_index]
            || ply_index + 1 >= MAX_PLY
        {
            return Some(None);
        }
        let reduced =
            depth.saturating_sub(1 + params::get(Id::nmp_base) as u32 + depth / params::get(Id::nmp_divisor) as u32);
        self.pos.make_null_move();
        self.after_pass[ply_index + 1] = true;
        let score = self.negamax(reduced, -beta, -beta + 1, ply + 1, false).map(|s| -s);
        self.after_pass[ply_index + 1] = false;
        self.pos.unmake_null_move();
        let score = score?;
        // A mate found after a pass is not a mate of the real game.
        Some((score >= beta).then_some(if score >= score::MATE_BOUND { beta } else { score }))
    }

    /// Beyond the nominal depth (quiescence): a threat that must be answered is searched
    /// further, and a side free to move either stands on the static evaluation or plays a
    /// forcing move ([`Game::generate_forcing`]), whichever is better. Gomoku's fours make this
    /// a victory-by-continuous-fours search inside α-β, which also sees fours that gain shape
    /// without winning.
    fn horizon(&mut self, alpha: Score, beta: Score, ply: u32, extension: u32) -> Option<Score> {
        if self.should_abort() {
            return None;
        }
        self.count_node(ply);
        if let Some(outcome) = self.pos.outcome() {
            return Some(outcome_score(outcome, ply));
        }
        let threatened = self.pos.is_threatened();
        if ply as usize + 1 >= MAX_PLY || (threatened && extension >= params::get(Id::max_threat_extension) as u32) {
            return Some(self.pos.evaluate());
        }
        let mut best = -INFINITY;
        let mut alpha = alpha;
        if !threatened {
            best = self.pos.evaluate();
            if best >= beta || extension >= params::get(Id::max_forcing_plies) as u32 {
                return Some(best);
            }
            alpha = alpha.max(best);
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply as usize]);
        moves.clear();
        if threatened {
            self.pos.generate_moves(&mut moves);
        } else {
            self.pos.generate_forcing(&mut moves, extension);
        }
        let mut result = Some(());
        for &mv in &moves {
            self.pos.make_horizon_move(mv);
            let score = self.horizon(-beta, -alpha, ply + 1, extension + 1).map(|s| -s);
            self.pos.unmake_horizon_move(mv);
            let Some(score) = score else {
                result = None;
                break;
            };
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.move_lists[ply as usize] = moves;
        result?;
        Some(if best == -INFINITY { DRAW } else { best })
    }
}
