//! Game-agnostic iterative-deepening principal-variation search.
//!
//! Every thread runs its own iterative deepening over a private copy of the position and shares
//! only the transposition table and the stop flag (Lazy SMP): the threads fill the table for
//! each other, which is what makes them faster together, unlike splitting the root. Thread 0
//! owns the clock and the progress reports; its result is the answer. Search never prints.
//!
//! Multi-PV ranks the best root moves inside each iteration: the root is searched once per
//! line, each time without the moves that head the lines before it, so every line of an
//! iteration has the same depth and the table serves all of them; the iteration's lines are then
//! sorted by score. Measured against one search per line sharing the table (one more move
//! excluded each time) on the 12 bench positions with 3 lines: fewer nodes at a fixed depth
//! (682,161 against 704,566 at depth 6, 1,918,545 against 2,040,279 at depth 7), and within one
//! time budget every line ends at the same depth, where separate searches end at uneven ones
//! (7, 7 and 10 plies for one position in 2 s), so their scores do not compare. Only line 0's
//! search stores the root in the table, and only when no root move is excluded: a value of a
//! restricted root must never be read back as the position's value.

pub mod limits;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome};
use crate::score::{self, DRAW, INFINITY, Score, from_tt, loss_in, to_tt, win_in};
use limits::SearchLimits;
use time::TimeManager;
use tt::{Bound, TranspositionTable};

/// Deepest ply any line may reach.
pub const MAX_PLY: usize = 128;
/// Move indices past this share the last reduction entry.
const MAX_MOVES: usize = 64;
/// Nodes between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 128;
/// Nodes the game's solver may spend at the root before the search.
const ROOT_PROOF_NODES: u32 = 5_000;
/// Replies to threats searched beyond the horizon before trusting the static evaluation.
const MAX_THREAT_EXTENSION: u32 = 16;
/// Plies beyond the horizon, forcing moves and their replies together, in which the side to
/// move may still try a forcing move instead of standing on the evaluation.
const MAX_FORCING_PLIES: u32 = 12;
/// Late-move reductions start at this move index and depth; they grow with the product of the
/// logarithms of both.
const LMR_MIN_INDEX: usize = 3;
const LMR_MIN_DEPTH: u32 = 3;
/// Away from the principal variation, quiet moves past `LMP_BASE + depth^LMP_EXPONENT` are not
/// searched: the ordering puts the few moves that matter first.
const LMP_BASE: usize = 4;
const LMP_EXPONENT: f64 = 1.32;
/// Reverse futility: at a quiet non-PV node, a static evaluation this far above beta per ply
/// left is trusted to hold.
const RFP_MARGIN: Score = 120;
/// Razoring: a quiet non-PV node this close to the horizon, with a static evaluation this far
/// below alpha per ply left, only asks the quiescence search whether a forcing line saves it.
const RAZOR_MAX_DEPTH: u32 = 2;
const RAZOR_MARGIN: Score = 200;
/// Null-move pruning: from this depth, a quiet node whose evaluation reaches beta is searched
/// with the move passed, `NMP_BASE + depth / NMP_DIVISOR` plies shallower; if even that holds
/// beta, the node does.
const NMP_MIN_DEPTH: u32 = 3;
const NMP_BASE: u32 = 3;
const NMP_DIVISOR: u32 = 4;
/// History scores saturate at this magnitude (the "gravity" update keeps them inside).
const HISTORY_MAX: i32 = 8_192;
/// Ordering bonus of a killer move over its static score.
const KILLER_BONUS: i32 = 4_000;

/// Late-move reduction by depth and move index, computed once for every search.
static REDUCTIONS: LazyLock<Vec<[u32; MAX_MOVES]>> = LazyLock::new(|| {
    (0..=MAX_PLY)
        .map(|depth| {
            std::array::from_fn(|index| {
                let r = (depth.max(1) as f64).ln() * (index.max(1) as f64).ln();
                r as u32
            })
        })
        .collect()
});

/// Late-move pruning's move count by depth.
static LMP_LIMITS: LazyLock<Vec<usize>> =
    LazyLock::new(|| (0..=MAX_PLY).map(|depth| LMP_BASE + (depth as f64).powf(LMP_EXPONENT) as usize).collect());

/// Progress of the search after a completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    /// Nodes of all threads together.
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
}

impl<M> SearchInfo<M> {
    pub fn nodes_per_second(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }
}

/// Speed of a search, safe for a zero duration.
pub fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    (u128::from(nodes) * 1_000_000 / elapsed.as_micros().max(1)) as u64
}

/// What the search tells its caller while it runs; only thread 0 reports.
#[derive(Debug)]
pub enum SearchEvent<'a, M> {
    /// An iteration completed: its best line.
    Iteration(&'a SearchInfo<M>),
    /// A root move of the best line's search has just been searched; only sent when
    /// [`SearchLimits::report_root_moves`] asks. `score` is exact when `new_best` (the move is
    /// the best of this iteration so far), otherwise an upper bound, which is enough to prove
    /// the move lost.
    RootMove { mv: M, score: Score, new_best: bool },
}

/// The callback that receives [`SearchEvent`]s.
pub type OnEvent<'a, M> = dyn FnMut(SearchEvent<'_, M>) + Send + 'a;

/// One ranked root move: its value and the line that proves it, the move first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine<M> {
    pub score: Score,
    pub pv: Vec<M>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no move at all.
    pub best_move: Option<M>,
    pub score: Score,
    /// Deepest completed iteration (0 if none completed).
    pub depth: u32,
    /// Nodes of all threads together.
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
    /// The best root moves, best first, as many as [`SearchLimits::multi_pv`] asked for (fewer
    /// when the root has fewer moves); the first is `pv` and `score`.
    pub lines: Vec<RootLine<M>>,
}

/// State shared by all threads of one search.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    /// Raised by the caller to stop the search; never written by it.
    stop: &'a AtomicBool,
    /// Raised by thread 0 when a limit is reached.
    limit_reached: AtomicBool,
    nodes: AtomicU64,
    time: TimeManager,
    limits: &'a SearchLimits,
}

/// Runs a search of `root` on every thread of `pool` (on the caller's thread alone without one)
/// and returns thread 0's answer. `stop` may be raised from outside at any time; the best move
/// found so far is returned. `on_event` hears of every completed iteration of thread 0 and, if
/// asked, of its root moves. The table is not aged here: the caller does it once per move
/// ([`TranspositionTable::new_search`]), however many searches the move takes.
pub fn search<G: Game>(
    root: &G,
    limits: &SearchLimits,
    start: Instant,
    pool: Option<&rayon::ThreadPool>,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    on_event: &mut OnEvent<'_, G::Move>,
) -> SearchResult<G::Move> {
    let shared = Shared {
        tt,
        stop,
        limit_reached: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        time: TimeManager::new(limits, start),
        limits,
    };
    let Some(pool) = pool.filter(|pool| pool.current_num_threads() > 1) else {
        return Worker::new(0, root.clone(), &shared).reporting_to(on_event).iterate();
    };
    let threads = pool.current_num_threads();
    let helpers_stop = Arc::new(AtomicBool::new(false));
    let mut answer = None;
    pool.scope(|scope| {
        for id in 1..threads {
            let shared = &shared;
            let helpers_stop = Arc::clone(&helpers_stop);
            let root = root.clone();
            scope.spawn(move |_| {
                let mut worker = Worker::new(id, root, shared);
                worker.helper_stop = Some(helpers_stop);
                worker.iterate();
            });
        }
        answer = Some(Worker::new(0, root.clone(), &shared).reporting_to(on_event).iterate());
        helpers_stop.store(true, Ordering::Relaxed);
    });
    answer.expect("thread 0 always answers")
}

/// One thread's search state.
struct Worker<'a, G: Game> {
    id: usize,
    pos: G,
    shared: &'a Shared<'a>,
    /// Raised when thread 0 has answered, so helpers end with it.
    helper_stop: Option<Arc<AtomicBool>>,
    /// Thread 0's listener; helpers report nothing.
    on_event: Option<&'a mut OnEvent<'a, G::Move>>,
    /// The moves the root may play, in generation order.
    root_moves: Vec<G::Move>,
    /// Some root move is excluded by the caller.
    root_limited: bool,
    /// Moves heading the lines already ranked in this iteration, left out of the next line.
    root_taken: Vec<G::Move>,
    /// The move to try first at a restricted root (the table's root entry serves otherwise):
    /// this line's first move in the previous iteration.
    root_hint: Option<G::Move>,
    /// The best root line of the current iteration so far, each entry proven by a full-window
    /// search at the iteration's depth: a move only replaces the one before it by beating it.
    /// When the clock cuts the iteration short, this is better than the last complete one.
    partial: Option<RootLine<G::Move>>,
    nodes: u64,
    unreported_nodes: u64,
    seldepth: u32,
    aborted: bool,
    history: Vec<i32>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// Triangular principal-variation table, one line per ply.
    pv: Vec<Vec<G::Move>>,
    move_lists: Vec<Vec<G::Move>>,
    /// Per ply: the move that led here was a pass, so the node may not pass again.
    after_pass: Vec<bool>,
    /// Per ply, the moves searched so far at the node (pruned ones are not).
    searched_lists: Vec<Vec<G::Move>>,
    /// Scratch space of [`Worker::order_moves`]: ordering key and index of every move, and
    /// the list the kept moves are copied from.
    keyed_moves: Vec<(i64, usize)>,
    kept_moves: Vec<G::Move>,
    /// The game's static ordering hints of the moves being ordered, in their order.
    move_scores: Vec<i32>,
}

impl<'a, G: Game> Worker<'a, G> {
    fn new(id: usize, pos: G, shared: &'a Shared<'a>) -> Self {
        Worker {
            id,
            pos,
            shared,
            helper_stop: None,
            on_event: None,
            root_moves: Vec::new(),
            root_limited: false,
            root_taken: Vec::new(),
            root_hint: None,
            partial: None,
            nodes: 0,
            unreported_nodes: 0,
            seldepth: 0,
            aborted: false,
            history: vec![0; G::HISTORY_SIZE],
            killers: vec![[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            move_lists: vec![Vec::new(); MAX_PLY + 1],
            after_pass: vec![false; MAX_PLY + 1],
            searched_lists: vec![Vec::new(); MAX_PLY + 1],
            keyed_moves: Vec::new(),
            kept_moves: Vec::new(),
            move_scores: Vec::new(),
        }
    }

    fn reporting_to(mut self, on_event: &'a mut OnEvent<'a, G::Move>) -> Self {
        self.on_event = Some(on_event);
        self
    }

    fn iterate(&mut self) -> SearchResult<G::Move> {
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
        self.pos.order_scores(&root_moves, &mut self.move_scores);
        result.best_move = root_moves.iter().zip(&self.move_scores).max_by_key(|&(_, &s)| s).map(|(&m, _)| m);
        self.root_moves = root_moves;
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
        if wanted_lines == 1
            && let Some((mv, plies)) = self.pos.prove_win(ROOT_PROOF_NODES)
            && (!self.root_limited || self.root_moves.contains(&mv))
        {
            result.best_move = Some(mv);
            result.score = win_in(plies);
            result.depth = 1;
            result.pv = vec![mv];
            if self.id == 0 {
                self.report(&result);
            }
            return self.finish(result);
        }
        let wanted_lines = wanted_lines.min(self.root_moves.len());
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).min(MAX_PLY as u32 - 1);
        let mut instability = 1.0f64;
        // Helpers start one ply deeper on odd threads so the threads do not mirror each other.
        let mut depth = 1 + (self.id % 2) as u32;
        while depth <= max_depth {
            self.seldepth = 0;
            self.partial = None;
            let Some(lines) = self.rank_root(depth, wanted_lines, &result.lines) else {
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
                if !self.shared.time.may_start_iteration(instability) {
                    break;
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
    /// prove better than that line's move once it gets a full window of its own.
    fn rank_root(
        &mut self,
        depth: u32,
        wanted: usize,
        previous: &[RootLine<G::Move>],
    ) -> Option<Vec<RootLine<G::Move>>> {
        self.root_taken.clear();
        let mut lines = Vec::with_capacity(wanted);
        while lines.len() < wanted {
            self.root_hint = previous.get(lines.len()).and_then(|line| line.pv.first().copied());
            let score = self.negamax(depth, -INFINITY, INFINITY, 0, true)?;
            let pv = self.pv[0].clone();
            // A move is always left (`wanted` counts them) and a full window makes one best.
            let Some(&first) = pv.first() else { break };
            self.root_taken.push(first);
            lines.push(RootLine { score, pv });
        }
        self.root_taken.clear();
        lines.sort_by_key(|line| std::cmp::Reverse(line.score));
        Some(lines)
    }

    /// Whether the root is searched with some of its moves left out.
    fn root_restricted(&self) -> bool {
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

    fn report(&mut self, result: &SearchResult<G::Move>) {
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

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unreported_nodes, Ordering::Relaxed);
        self.unreported_nodes = 0;
    }

    fn count_node(&mut self, ply: u32) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        self.seldepth = self.seldepth.max(ply);
    }

    /// True when the search must unwind now; thread 0 enforces the limits for everyone.
    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.flush_nodes();
            if self.id == 0 {
                let over_nodes = self.shared.limits.nodes.is_some_and(|n| self.nodes >= n);
                if over_nodes || self.shared.time.hard_expired() {
                    self.shared.limit_reached.store(true, Ordering::Relaxed);
                }
            }
            let helper_done = self.helper_stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
            self.aborted = helper_done
                || self.shared.limit_reached.load(Ordering::Relaxed)
                || self.shared.stop.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// Fail-soft negamax with principal-variation search. `None` means the search was stopped
    /// and the value is unknown.
    fn negamax(&mut self, depth: u32, mut alpha: Score, mut beta: Score, ply: u32, pv_node: bool) -> Option<Score> {
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

        // The static evaluation of a quiet non-PV node, which the pruning below trusts.
        let quiet_eval =
            (!pv_node && ply > 0 && beta.abs() < score::MATE_BOUND && self.pos.is_quiet()).then(|| self.pos.evaluate());
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
        for (index, &mv) in moves.iter().enumerate() {
            let tactical = self.pos.is_tactical(mv);
            if !pv_node
                && !tactical
                && index >= LMP_LIMITS[(depth as usize).min(MAX_PLY)]
                && best_score > -score::MATE_BOUND
            {
                continue;
            }
            searched.push(mv);
            // Forced single replies cost nothing to search one ply deeper; a root left with one
            // move by exclusions is not forced.
            let next_depth = if moves.len() == 1 && !restricted_root { depth } else { depth - 1 };
            self.pos.make_move(mv);
            let score = if index == 0 {
                self.negamax(next_depth, -beta, -alpha, ply + 1, pv_node).map(|s| -s)
            } else {
                let reduction = if index >= LMR_MIN_INDEX && depth >= LMR_MIN_DEPTH && !tactical {
                    REDUCTIONS[(depth as usize).min(MAX_PLY)][index.min(MAX_MOVES - 1)]
                        .saturating_sub(u32::from(pv_node))
                        .min(next_depth - 1)
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
        if eval - RFP_MARGIN * depth as Score >= beta {
            return Some(Some(eval));
        }
        if depth <= RAZOR_MAX_DEPTH && eval + RAZOR_MARGIN * depth as Score <= alpha {
            return self.horizon(alpha, beta, ply, 0).map(Some);
        }
        let ply_index = ply as usize;
        if depth < NMP_MIN_DEPTH || eval < beta || self.after_pass[ply_index] || ply_index + 1 >= MAX_PLY {
            return Some(None);
        }
        let reduced = depth.saturating_sub(1 + NMP_BASE + depth / NMP_DIVISOR);
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
        if ply as usize + 1 >= MAX_PLY || (threatened && extension >= MAX_THREAT_EXTENSION) {
            return Some(self.pos.evaluate());
        }
        let mut best = -INFINITY;
        let mut alpha = alpha;
        if !threatened {
            best = self.pos.evaluate();
            if best >= beta || extension >= MAX_FORCING_PLIES {
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
            self.pos.make_move(mv);
            let score = self.horizon(-beta, -alpha, ply + 1, extension + 1).map(|s| -s);
            self.pos.unmake_move(mv);
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

    /// Sorts `moves` best first. With a width limit only the first `keep` are kept: they are
    /// selected before sorting, so the moves dropped are never sorted. Ties keep generation
    /// order either way.
    fn order_moves(&mut self, moves: &mut Vec<G::Move>, tt_move: Option<G::Move>, ply: u32, keep: Option<usize>) {
        let killers = self.killers[ply as usize];
        let mut keyed = std::mem::take(&mut self.keyed_moves);
        self.pos.order_scores(moves, &mut self.move_scores);
        let key = |mv: G::Move, score: i32| {
            if Some(mv) == tt_move {
                return i64::MIN;
            }
            let killer = if killers.contains(&Some(mv)) { KILLER_BONUS } else { 0 };
            -i64::from(score + self.history[G::history_index(mv)] / 4 + killer)
        };
        keyed.clear();
        keyed.extend(moves.iter().zip(&self.move_scores).enumerate().map(|(index, (&mv, &s))| (key(mv, s), index)));
        // The index breaks ties, so both ways keep generation order among equal keys.
        if let Some(keep) = keep.map(|k| k.max(1)).filter(|&k| k < moves.len()) {
            keyed.select_nth_unstable(keep - 1);
            keyed.truncate(keep);
        }
        keyed.sort_unstable();
        // The kept moves go to the front in key order: their indices name the old positions.
        let old = std::mem::take(&mut self.kept_moves);
        let mut old = std::mem::replace(moves, old);
        moves.clear();
        moves.extend(keyed.iter().map(|&(_, index)| old[index]));
        old.clear();
        self.kept_moves = old;
        self.keyed_moves = keyed;
    }

    /// A cut-off move becomes a killer and gains history; the moves searched before it lose
    /// some: they were ranked too high. Moves pruned unsearched taught nothing.
    fn reward(&mut self, mv: G::Move, depth: u32, ply: u32, tried: &[G::Move]) {
        let killers = &mut self.killers[ply as usize];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = (depth * depth) as i32 * 16;
        update_history(&mut self.history[G::history_index(mv)], bonus);
        for &other in tried {
            update_history(&mut self.history[G::history_index(other)], -bonus);
        }
    }
}

/// History update with gravity: entries move toward `±HISTORY_MAX` and never pass it.
fn update_history(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

fn outcome_score(outcome: Outcome, ply: u32) -> Score {
    match outcome {
        Outcome::Win => win_in(ply),
        Outcome::Loss => loss_in(ply),
        Outcome::Draw => DRAW,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic game tree: every position has three moves, the path is the position, and
    /// leaves score a hash of the path. Few enough moves that no reduction or pruning applies,
    /// so α-β must agree exactly with plain minimax.
    #[derive(Clone)]
    struct Tree {
        path: Vec<u8>,
    }

    fn mix(path: &[u8]) -> u64 {
        path.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &m| (h ^ u64::from(m) ^ 0xff).wrapping_mul(0x100_0000_01b3))
    }

    impl Game for Tree {
        type Move = u8;
        const HISTORY_SIZE: usize = 3;

        fn hash(&self) -> u64 {
            mix(&self.path)
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn generate_moves(&self, out: &mut Vec<u8>) {
            out.extend([0, 1, 2]);
        }
        fn make_move(&mut self, mv: u8) {
            self.path.push(mv);
        }
        fn unmake_move(&mut self, _: u8) {
            self.path.pop();
        }
        fn evaluate(&self) -> Score {
            (mix(&self.path) % 2001) as Score - 1000
        }
        fn encode_move(mv: u8) -> u32 {
            u32::from(mv)
        }
        fn decode_move(&self, code: u32) -> Option<u8> {
            u8::try_from(code).ok().filter(|&m| m < 3)
        }
        fn history_index(mv: u8) -> usize {
            usize::from(mv)
        }
    }

    fn minimax(tree: &mut Tree, depth: u32) -> Score {
        if depth == 0 {
            return tree.evaluate();
        }
        (0..3)
            .map(|mv| {
                tree.make_move(mv);
                let score = -minimax(tree, depth - 1);
                tree.unmake_move(mv);
                score
            })
            .max()
            .unwrap()
    }

    fn run(depth: u32) -> SearchResult<u8> {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        search(&Tree { path: Vec::new() }, &SearchLimits::depth(depth), Instant::now(), None, &tt, &stop, &mut |_| {})
    }

    #[test]
    fn alpha_beta_agrees_with_minimax() {
        for depth in 1..=6 {
            let result = run(depth);
            assert_eq!(result.score, minimax(&mut Tree { path: Vec::new() }, depth), "depth {depth}");
            assert_eq!(result.depth, depth);
        }
    }

    #[test]
    fn same_search_same_nodes() {
        let (a, b) = (run(6), run(6));
        assert_eq!((a.nodes, a.best_move, a.score), (b.nodes, b.best_move, b.score));
    }

    #[test]
    fn a_raised_stop_flag_is_obeyed_and_never_lowered() {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(true);
        let result =
            search(&Tree { path: Vec::new() }, &SearchLimits::default(), Instant::now(), None, &tt, &stop, &mut |_| {});
        assert!(result.best_move.is_some(), "a move is always returned");
        assert!(stop.load(Ordering::Relaxed));
    }

    fn child_value(mv: u8, depth: u32) -> Score {
        -minimax(&mut Tree { path: vec![mv] }, depth - 1)
    }

    fn run_with(limits: &SearchLimits, on_event: &mut OnEvent<'_, u8>) -> SearchResult<u8> {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        search(&Tree { path: Vec::new() }, limits, Instant::now(), None, &tt, &stop, on_event)
    }

    #[test]
    fn multi_pv_ranks_every_root_move_exactly() {
        for depth in 1..=5 {
            let result =
                run_with(&SearchLimits { depth: Some(depth), multi_pv: 5, ..SearchLimits::default() }, &mut |_| {});
            let mut expected: Vec<(Score, u8)> = (0..3).map(|mv| (child_value(mv, depth), mv)).collect();
            expected.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
            let lines: Vec<Score> = result.lines.iter().map(|line| line.score).collect();
            assert_eq!(lines, expected.iter().map(|&(score, _)| score).collect::<Vec<_>>(), "depth {depth}");
            let mut moves: Vec<u8> = result.lines.iter().map(|line| line.pv[0]).collect();
            moves.sort();
            assert_eq!(moves, [0, 1, 2]);
            assert_eq!((result.score, result.pv[0]), (lines[0], result.lines[0].pv[0]));
        }
    }

    #[test]
    fn excluded_root_moves_are_never_chosen() {
        let best = run(4).best_move.unwrap();
        let limits = SearchLimits { depth: Some(4), excluded: vec![u32::from(best)], ..SearchLimits::default() };
        let result = run_with(&limits, &mut |_| {});
        assert_ne!(result.best_move, Some(best));
        let others = (0..3).filter(|&mv| mv != best).map(|mv| child_value(mv, 4)).max().unwrap();
        assert_eq!(result.score, others);
        assert!(result.lines.iter().all(|line| line.pv[0] != best));
    }

    #[test]
    fn root_moves_are_reported_only_when_asked() {
        let mut events = Vec::new();
        let limits = SearchLimits { depth: Some(3), report_root_moves: true, ..SearchLimits::default() };
        let result = run_with(&limits, &mut |event| {
            if let SearchEvent::RootMove { mv, score, new_best } = event {
                events.push((mv, score, new_best));
            }
        });
        assert_eq!(events.len(), 9, "three root moves in each of three iterations: {events:?}");
        let last = &events[6..];
        assert!(
            last.iter().any(|&(mv, score, new_best)| new_best && Some(mv) == result.best_move && score == result.score)
        );
        let mut iterations = 0;
        run_with(&SearchLimits::depth(3), &mut |event| match event {
            SearchEvent::Iteration(_) => iterations += 1,
            SearchEvent::RootMove { .. } => panic!("not asked for"),
        });
        assert_eq!(iterations, 3);
    }
}
