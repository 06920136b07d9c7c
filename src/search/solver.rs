//! The game's threat solver ([`Game::solve_threats`]) at the root, when the limits ask for it: a
//! proven win is played at once and stored in the table as a mate bound, and a root move after
//! which the opponent's win is proven is refuted. The solver cannot see the clock or the stop
//! flag, so every solve gets a node budget the search can afford; its nodes count as searched,
//! so node limits stay fair.

use std::time::Duration;

use super::tt::Bound;
use super::{MAX_PLY, SearchEvent, SearchResult, Worker, nodes_per_second};
use crate::game::Game;
use crate::score::{loss_in, to_tt, win_in};

/// Nodes the game's solver may spend at the root before the search: enough for the short
/// wins, which then cost no search at all.
pub(super) const ROOT_THREAT_NODES: u64 = 500;
/// Between iterations the solver tries again, with the nodes the search has spent since its
/// last try divided by this: the longer the search runs, the deeper the proof it may afford,
/// while the solver keeps to a fixed share of the move (a game's solver may resume its last
/// try, so small slices add up).
pub(super) const PROOF_SHARE: u64 = 2;
/// Each iteration's best move is checked for a forced win of the opponent with the nodes of
/// that iteration divided by this, or the move's expected nodes divided by
/// [`REFUTE_FLOOR_SHARE`] if that is more: a long win takes tens of thousands of solver nodes
/// to prove, more than the early iterations would grant.
pub(super) const REFUTE_SHARE: u64 = 8;
const REFUTE_FLOOR_SHARE: u64 = 32;
/// No root move gets more than the move's expected nodes divided by this over all its checks
/// (they resume one another, so the effort adds up).
const REFUTE_CAP_SHARE: u64 = 8;
/// A solver cannot look at the clock, so its budget is kept to the nodes the search would visit
/// in the time left divided by this: solver nodes cost more than search nodes, and the reply
/// must still come in time.
const PROOF_TIME_MARGIN: u64 = 4;
/// Most nodes of one solve when the search has no deadline (pondering, analysis): the solver
/// does not see the stop flag, so this bounds how late a stop is obeyed. Solves of the same root
/// resume, so small slices still add up.
const UNTIMED_PROOF_SLICE: u64 = 20_000;
/// Depth recorded with a proven result in the table: no search depth asks for more.
const PROVEN_DEPTH: u32 = MAX_PLY as u32 - 1;

impl<G: Game> Worker<'_, G> {
    /// Runs the game's solver at the root with `budget` nodes. A proven win becomes the result
    /// (depth 1 if no iteration completed yet), is announced, and goes into the table as a mate
    /// at least that fast: a lower bound for the root, an upper bound on the loss for the
    /// position after the winning move.
    pub(super) fn try_proof(&mut self, budget: u64, result: &mut SearchResult<G::Move>) -> bool {
        let budget = self.affordable(budget);
        if budget == 0 {
            return false;
        }
        let proof = self.pos.solve_threats(budget);
        self.count_solver_nodes(proof.nodes);
        let Some((mv, plies)) = proof.win.filter(|&(mv, _)| !self.root_limited || self.root_moves.contains(&mv)) else {
            return false;
        };
        let tt = self.shared.tt;
        tt.store(self.pos.hash(), Some(G::encode_move(mv)), win_in(plies), PROVEN_DEPTH, Bound::Lower);
        self.pos.make_move(mv);
        tt.store(self.pos.hash(), None, to_tt(loss_in(plies), 1), PROVEN_DEPTH, Bound::Upper);
        self.pos.unmake_move(mv);
        result.best_move = Some(mv);
        result.score = win_in(plies);
        result.depth = result.depth.max(1);
        result.pv = vec![mv];
        result.lines.clear();
        if self.id == 0 {
            self.flush_nodes();
            if let Some(on_event) = self.on_event.as_mut() {
                on_event(SearchEvent::Proven { mv, plies, nodes: proof.nodes });
            }
            self.report(result);
        }
        true
    }

    /// Asks the game's solver whether the opponent wins by force after the root move `mv`, with a
    /// budget from the nodes of the iteration that chose it (`iteration_nodes`) and the move's
    /// expected nodes, less what earlier checks of `mv` spent. If so the proof goes into the
    /// table (a lower bound on the opponent's win), is announced, and the move is remembered as
    /// refuted; the result is the plies from the root to the opponent's win along the proof.
    pub(super) fn refute(&mut self, mv: G::Move, iteration_nodes: u64) -> Option<u32> {
        let mut budget = iteration_nodes / REFUTE_SHARE;
        let spent = self.refute_spent.iter().find(|&&(m, _)| m == mv).map_or(0, |&(_, n)| n);
        if let Some(expected) = self.expected_nodes() {
            budget = budget.max(expected / REFUTE_FLOOR_SHARE).min((expected / REFUTE_CAP_SHARE).saturating_sub(spent));
        }
        let budget = self.affordable(budget);
        if budget == 0 {
            return None;
        }
        self.pos.make_move(mv);
        let proof = self.pos.solve_threats(budget);
        if let Some((reply, plies)) = proof.win {
            self.shared.tt.store(
                self.pos.hash(),
                Some(G::encode_move(reply)),
                win_in(plies),
                PROVEN_DEPTH,
                Bound::Lower,
            );
        }
        self.pos.unmake_move(mv);
        self.count_solver_nodes(proof.nodes);
        match self.refute_spent.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, n)) => *n += proof.nodes,
            None => self.refute_spent.push((mv, proof.nodes)),
        }
        let plies = proof.win?.1 + 1;
        self.refuted.push((mv, plies));
        self.flush_nodes();
        if let Some(on_event) = self.on_event.as_mut() {
            on_event(SearchEvent::Refuted { mv, plies, nodes: proof.nodes });
        }
        Some(plies)
    }

    /// The nodes this move is expected to search: the node limit, or at the speed so far the
    /// time to the soft deadline; `None` without either.
    fn expected_nodes(&self) -> Option<u64> {
        let from_time = self.shared.time.soft().filter(|_| self.nodes > 0).map(|soft| self.nodes_in(soft));
        match (self.shared.limits.nodes, from_time) {
            (Some(limit), Some(t)) => Some(limit.min(t)),
            (limit, t) => limit.or(t),
        }
    }

    /// `budget` cut to what the node limit leaves and, once the search's speed is known, to what
    /// the time left affords; without a deadline, to one slice.
    fn affordable(&self, budget: u64) -> u64 {
        let mut budget = budget;
        if let Some(limit) = self.shared.limits.nodes {
            budget = budget.min(limit.saturating_sub(self.nodes));
        }
        match self.shared.time.remaining() {
            None => budget = budget.min(UNTIMED_PROOF_SLICE),
            Some(left) if self.nodes > 0 => budget = budget.min(self.nodes_in(left) / PROOF_TIME_MARGIN),
            Some(_) => {}
        }
        budget
    }

    /// Nodes the search visits in `time` at its speed so far.
    fn nodes_in(&self, time: Duration) -> u64 {
        let speed = nodes_per_second(self.nodes, self.shared.time.elapsed());
        (u128::from(speed) * time.as_millis() / 1_000) as u64
    }

    /// Solver nodes count as searched, so node limits and the reported count stay fair.
    fn count_solver_nodes(&mut self, nodes: u64) {
        self.nodes += nodes;
        self.unreported_nodes += nodes;
    }
}
