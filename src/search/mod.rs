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
//!
//! Files: this one holds the public types and a thread's state ([`Worker`]); `threads.rs` sets
//! the threads up, `iterate.rs` deepens at the root, `solver.rs` calls on the game's solver
//! there, `node.rs` searches a node, `ordering.rs` orders its moves and learns from its
//! cut-offs.

mod iterate;
pub mod limits;
mod node;
mod ordering;
mod solver;
mod threads;
pub mod time;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::game::{Game, Outcome};
use crate::score::{DRAW, Score, loss_in, win_in};
use limits::SearchLimits;
use time::TimeManager;
use tt::TranspositionTable;

pub use threads::search;

/// Deepest ply any line may reach.
pub const MAX_PLY: usize = 128;
/// Nodes between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 128;

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
    /// [`SearchLimits::report_root_moves`] asks, once for each search of the root (an
    /// aspiration window that fails is searched again). When `new_best` the move is the best of
    /// this search so far and `score` is exact, or a lower bound if the window failed high;
    /// otherwise `score` is an upper bound, which is enough to prove the move lost.
    RootMove { mv: M, score: Score, new_best: bool },
    /// The game's solver proved that `mv` wins within `plies` plies, in `nodes` nodes.
    Proven { mv: M, plies: u32, nodes: u64 },
    /// The game's solver proved that after the root move `mv` the opponent wins within `plies`
    /// plies of the root, in `nodes` nodes: the move is not played unless every move loses.
    Refuted { mv: M, plies: u32, nodes: u64 },
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
    /// The best root line of the current iteration so far, each entry proven by a search at the
    /// iteration's depth to beat the one before it (exactly, or by a window failing high).
    /// When the clock cuts the iteration short, this is better than the last complete one.
    partial: Option<RootLine<G::Move>>,
    /// Root moves after which the game's solver proved a win for the opponent, with the plies
    /// from the root to it.
    refuted: Vec<(G::Move, u32)>,
    /// Solver nodes spent so far checking each root move for a win of the opponent.
    refute_spent: Vec<(G::Move, u64)>,
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
    /// Per ply, the static evaluation of a quiet node on the current line (`None` elsewhere):
    /// a node no better than two plies before is not improving and is pruned harder.
    static_evals: Vec<Option<Score>>,
    /// Per ply, the moves searched so far at the node (pruned ones are not).
    searched_lists: Vec<Vec<G::Move>>,
    /// Per ply: the game's reduction adjustments of the node's moves, in their order (empty:
    /// none).
    adjustment_lists: Vec<Vec<i32>>,
    /// Scratch space of [`Worker::order_moves`]: ordering key and index of every move, packed
    /// in one integer, and the list the kept moves are copied from.
    keyed_moves: Vec<i64>,
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
            refuted: Vec::new(),
            refute_spent: Vec::new(),
            nodes: 0,
            unreported_nodes: 0,
            seldepth: 0,
            aborted: false,
            history: vec![0; G::HISTORY_SIZE],
            killers: vec![[None; 2]; MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            move_lists: vec![Vec::new(); MAX_PLY + 1],
            after_pass: vec![false; MAX_PLY + 1],
            static_evals: vec![None; MAX_PLY + 1],
            searched_lists: vec![Vec::new(); MAX_PLY + 1],
            adjustment_lists: vec![Vec::new(); MAX_PLY + 1],
            keyed_moves: Vec::new(),
            kept_moves: Vec::new(),
            move_scores: Vec::new(),
        }
    }

    fn reporting_to(mut self, on_event: &'a mut OnEvent<'a, G::Move>) -> Self {
        self.on_event = Some(on_event);
        self
    }

    pub(super) fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unreported_nodes, Ordering::Relaxed);
        self.unreported_nodes = 0;
    }

    pub(super) fn count_node(&mut self, ply: u32) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        self.seldepth = self.seldepth.max(ply);
    }

    /// True when the search must unwind now; thread 0 enforces the limits for everyone.
    pub(super) fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.flush_nodes();
            if self.id == 0 {
                let searched = self.shared.nodes.load(Ordering::Relaxed);
                let over_nodes = self.shared.limits.nodes.is_some_and(|n| searched >= n);
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
    use std::sync::Mutex;
    use std::time::Instant;

    use super::*;
    use crate::game::Proof;
    use crate::score::{self, win_in};

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

    /// [`Tree`] with a solver that proves, after the root moves it lists, a win for the side to
    /// move within the given plies, and at the root the win it is given. It records the budget
    /// of every check of a root move and, if `spends_budget`, spends all of it, and counts the
    /// calls of its root proof, which proves nothing.
    #[derive(Clone)]
    struct Refuting {
        tree: Tree,
        lost: Vec<(u8, u32)>,
        root_win: Option<(u8, u32)>,
        spends_budget: bool,
        checks: Arc<Mutex<Vec<(u8, u64)>>>,
        proofs: Arc<AtomicU64>,
    }

    impl Game for Refuting {
        type Move = u8;
        const HISTORY_SIZE: usize = 3;

        fn hash(&self) -> u64 {
            self.tree.hash()
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn generate_moves(&self, out: &mut Vec<u8>) {
            self.tree.generate_moves(out);
        }
        fn make_move(&mut self, mv: u8) {
            self.tree.make_move(mv);
        }
        fn unmake_move(&mut self, mv: u8) {
            self.tree.unmake_move(mv);
        }
        fn evaluate(&self) -> Score {
            self.tree.evaluate()
        }
        fn encode_move(mv: u8) -> u32 {
            Tree::encode_move(mv)
        }
        fn decode_move(&self, code: u32) -> Option<u8> {
            self.tree.decode_move(code)
        }
        fn history_index(mv: u8) -> usize {
            Tree::history_index(mv)
        }
        fn solve_threats(&mut self, max_nodes: u64) -> Proof<u8> {
            let win = match self.tree.path[..] {
                [] => self.root_win,
                [root_move] => {
                    self.checks.lock().unwrap().push((root_move, max_nodes));
                    self.lost.iter().find(|&&(m, _)| m == root_move).map(|&(_, plies)| (0, plies))
                }
                _ => None,
            };
            let nodes = if self.spends_budget && self.tree.path.len() == 1 { max_nodes } else { 1 };
            Proof { win, nodes }
        }
        fn prove_win(&mut self, _: u32) -> Option<(u8, u32)> {
            self.proofs.fetch_add(1, Ordering::Relaxed);
            None
        }
    }

    #[test]
    fn only_thread_0_tries_the_root_proof() {
        let root = refuting(Vec::new());
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        let (tt, stop) = (TranspositionTable::new(1), AtomicBool::new(false));
        let result = search(&root, &SearchLimits::depth(5), Instant::now(), Some(&pool), &tt, &stop, &mut |_| {});
        assert_eq!(result.depth, 5);
        assert_eq!(root.proofs.load(Ordering::Relaxed), 1, "the helpers started searching at once");
    }

    /// A search of a [`Refuting`] root, and what its solver announced.
    struct Solved {
        result: SearchResult<u8>,
        /// Wins proven at the root: move, plies, solver nodes.
        proven: Vec<(u8, u32, u64)>,
        /// Root moves refuted: move, plies from the root to the opponent's win.
        refuted: Vec<(u8, u32)>,
    }

    fn run_refuting(root: &Refuting, limits: &SearchLimits) -> Solved {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let (mut proven, mut refuted) = (Vec::new(), Vec::new());
        let result = search(root, limits, Instant::now(), None, &tt, &stop, &mut |event| match event {
            SearchEvent::Proven { mv, plies, nodes } => proven.push((mv, plies, nodes)),
            SearchEvent::Refuted { mv, plies, .. } => refuted.push((mv, plies)),
            _ => {}
        });
        Solved { result, proven, refuted }
    }

    fn refuting(lost: Vec<(u8, u32)>) -> Refuting {
        Refuting {
            tree: Tree { path: Vec::new() },
            lost,
            root_win: None,
            spends_budget: false,
            checks: Arc::new(Mutex::new(Vec::new())),
            proofs: Arc::new(AtomicU64::new(0)),
        }
    }

    /// `limits` with the game's threat solver switched on.
    fn solving(limits: SearchLimits) -> SearchLimits {
        SearchLimits { solver: true, ..limits }
    }

    #[test]
    fn a_win_the_solver_proves_is_played_at_once_and_kept() {
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let mut proven = Vec::new();
        let root = Refuting { root_win: Some((2, 7)), ..refuting(Vec::new()) };
        let limits = solving(SearchLimits::default());
        let result = search(&root, &limits, Instant::now(), None, &tt, &stop, &mut |event| {
            if let SearchEvent::Proven { mv, plies, nodes } = event {
                proven.push((mv, plies, nodes));
            }
        });
        assert_eq!(proven, [(2, 7, 1)]);
        assert_eq!((result.best_move, result.score, result.nodes), (Some(2), win_in(7), 1));
        let entry = tt.probe(root.hash()).unwrap();
        assert_eq!((entry.mv, entry.score, entry.bound), (Some(2), win_in(7), tt::Bound::Lower));
        let entry = tt.probe(mix(&[2])).unwrap();
        assert_eq!((entry.score, entry.bound), (loss_in(6), tt::Bound::Upper));
    }

    #[test]
    fn a_best_move_the_solver_refutes_is_not_played() {
        let plain = run(6).best_move.unwrap();
        let Solved { result, refuted, .. } =
            run_refuting(&refuting(vec![(plain, 9)]), &solving(SearchLimits::depth(6)));
        assert_eq!(refuted, [(plain, 10)]);
        assert_ne!(result.best_move, Some(plain));
        assert!(!score::is_mate(result.score));
    }

    #[test]
    fn when_every_move_is_refuted_the_slowest_loss_is_played() {
        let Solved { result, refuted, .. } =
            run_refuting(&refuting(vec![(0, 5), (1, 9), (2, 7)]), &solving(SearchLimits::depth(6)));
        assert_eq!(refuted.len(), 3);
        assert_eq!(result.best_move, Some(1));
        assert_eq!(result.score, loss_in(10));
    }

    #[test]
    fn the_solver_is_not_called_unless_switched_on() {
        let plain = run(6);
        let root = Refuting { root_win: Some((2, 7)), ..refuting(vec![(0, 5), (1, 9), (2, 7)]) };
        let Solved { result, proven, refuted } = run_refuting(&root, &SearchLimits::depth(6));
        assert!(proven.is_empty() && refuted.is_empty());
        assert_eq!((result.best_move, result.score, result.nodes), (plain.best_move, plain.score, plain.nodes));
    }

    #[test]
    fn solver_nodes_count_against_the_node_limit() {
        let root = Refuting { root_win: Some((2, 7)), ..refuting(Vec::new()) };
        let limits = solving(SearchLimits { nodes: Some(1), ..SearchLimits::default() });
        let Solved { result, proven, .. } = run_refuting(&root, &limits);
        assert_eq!((proven.len(), result.nodes), (1, 1));
        let limits = solving(SearchLimits { nodes: Some(0), depth: Some(1), ..SearchLimits::default() });
        let Solved { proven, .. } = run_refuting(&root, &limits);
        assert!(proven.is_empty(), "no node is left for the solver");
    }

    #[test]
    fn each_refutation_check_gets_a_share_of_the_node_limit_and_each_move_at_most_an_eighth() {
        let root = Refuting { spends_budget: true, ..refuting(Vec::new()) };
        let limit = 64_000;
        run_refuting(&root, &solving(SearchLimits { nodes: Some(limit), ..SearchLimits::default() }));
        let checks = root.checks.lock().unwrap();
        assert!(checks.len() > 1, "{checks:?}");
        for mv in 0..3 {
            let budgets: Vec<u64> = checks.iter().filter(|&&(m, _)| m == mv).map(|&(_, budget)| budget).collect();
            assert!(budgets.first().is_none_or(|&first| first >= limit / 32), "{checks:?}");
            assert!(budgets.iter().sum::<u64>() <= limit / 8, "{checks:?}");
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
    fn aspiration_windows_that_fail_are_searched_again_to_the_exact_score() {
        // The tree's evaluations swing by hundreds from one depth to the next, so the windows
        // around the last score fail, and the root is searched more than once an iteration.
        let mut root_searches = 0;
        let limits = SearchLimits { depth: Some(7), report_root_moves: true, ..SearchLimits::default() };
        let result = run_with(&limits, &mut |event| {
            if let SearchEvent::RootMove { .. } = event {
                root_searches += 1;
            }
        });
        assert!(root_searches > 3 * 7, "{root_searches} root moves searched in 7 iterations of 3 moves");
        assert_eq!(result.score, minimax(&mut Tree { path: Vec::new() }, 7));
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
            SearchEvent::Proven { .. } | SearchEvent::Refuted { .. } => panic!("this game has no solver"),
        });
        assert_eq!(iterations, 3);
    }
}
