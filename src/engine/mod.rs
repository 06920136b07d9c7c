//! The one API the protocols talk to: owns the transposition table and the search threads (one
//! pool for the engine's life, rebuilt only when the thread count changes), and runs searches
//! of any [`Game`] on them. The table is aged once per move: once per [`Engine::go`], once per
//! [`Engine::balance`] however many searches it runs.

pub mod balance;
pub mod bench;
mod record;

pub use record::GameRecord;

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::{Game, Playable};
use crate::search::limits::SearchLimits;
use crate::search::tt::TranspositionTable;
use crate::search::{self, OnEvent, SearchResult};

/// Transposition table size when the manager says nothing, well under Gomocup's 350 MB cap.
pub const DEFAULT_HASH_MB: usize = 64;
/// Share of a manager's memory limit given to the transposition table; the rest covers the
/// program, the per-thread tables and the memory the allocator keeps back.
const HASH_MEMORY_SHARE: f64 = 0.4;
/// Largest table taken from a memory limit or a table size a protocol sends, however large:
/// the pages a search first writes are zeroed on its clock, and clearing a table for a new
/// game writes every page of it.
pub const MAX_HASH_MB: usize = 256;

pub struct Engine {
    tt: TranspositionTable,
    hash_mb: usize,
    /// The size the engine was made with, which a limit of 0 ("none") restores.
    default_hash_mb: usize,
    /// Size asked for, applied at the next [`Engine::new_game`] or
    /// [`Engine::apply_hash_size`].
    wanted_hash_mb: usize,
    threads: usize,
    /// The helper threads' pool when `threads` is more than one and the system gave them.
    pool: Option<rayon::ThreadPool>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(DEFAULT_HASH_MB, default_threads())
    }
}

/// All cores the operating system lets us use.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Engine {
    pub fn new(hash_mb: usize, threads: usize) -> Self {
        let hash_mb = hash_mb.max(1);
        Engine {
            tt: TranspositionTable::new(hash_mb),
            hash_mb,
            default_hash_mb: hash_mb,
            wanted_hash_mb: hash_mb,
            threads: threads.max(1),
            pool: thread_pool(threads),
        }
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Asks for a transposition table of `hash_mb` MiB from the next game on.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.wanted_hash_mb = hash_mb.max(1);
    }

    /// Sizes the table, from the next game on, for a limit of `max_memory` bytes on the whole
    /// program (0: no limit, the size the engine was made with).
    pub fn limit_memory(&mut self, max_memory: u64) {
        self.set_hash_mb(hash_mb_for_memory(max_memory, self.default_hash_mb));
    }

    /// Sizes the table alone at `kib` KiB from the next game on (0: the size the engine was
    /// made with).
    pub fn set_table_kib(&mut self, kib: u64) {
        self.set_hash_mb(hash_mb_for_kib(kib, self.default_hash_mb));
    }

    /// Starts a new game: the table is emptied, and resized if a new size was asked for.
    pub fn new_game(&mut self) {
        if !self.apply_hash_size() {
            self.tt.clear();
        }
    }

    /// Resizes the table (emptying it) if a new size was asked for; says whether it did.
    pub fn apply_hash_size(&mut self) -> bool {
        if self.wanted_hash_mb == self.hash_mb {
            return false;
        }
        self.tt = TranspositionTable::new(self.wanted_hash_mb);
        self.hash_mb = self.wanted_hash_mb;
        true
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        if threads != self.threads {
            self.threads = threads;
            self.pool = thread_pool(threads);
        }
    }

    /// Forgets everything learnt, e.g. before a new game or a benchmark position.
    pub fn clear_hash(&self) {
        self.tt.clear();
    }

    /// Searches `pos` within `limits`, the clock running from `start`; see [`search::search`].
    pub fn go<G: Game>(
        &mut self,
        pos: &G,
        limits: &SearchLimits,
        start: Instant,
        stop: &AtomicBool,
        on_event: &mut OnEvent<'_, G::Move>,
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        search::search(pos, limits, start, self.pool.as_ref(), &self.tt, stop, on_event)
    }

    /// Chooses a move for a front end: like [`Engine::go`], but a game small enough to be solved
    /// is searched exactly to its end and no further, and a game whose solver pays
    /// ([`Playable::solver_by_default`]) calls on it.
    pub fn think<G: Playable>(
        &mut self,
        pos: &G,
        limits: &SearchLimits,
        start: Instant,
        stop: &AtomicBool,
        on_event: &mut OnEvent<'_, G::Move>,
    ) -> SearchResult<G::Move> {
        let mut limits = limits.clone();
        limits.solver |= pos.solver_by_default();
        if let Some(depth) = pos.solving_depth() {
            limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)).max(1));
        }
        self.go(pos, &limits, start, stop, on_event)
    }
}

/// A pool of `threads` threads for Lazy SMP, `None` for one thread or when the system refuses
/// them (the search then runs on the caller's thread alone).
fn thread_pool(threads: usize) -> Option<rayon::ThreadPool> {
    if threads <= 1 {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .inspect_err(|error| log::warn!("could not start {threads} threads ({error}); searching on one"))
        .ok()
}

/// The table size for a memory limit of `max_memory` bytes (0: no limit, `default_mb`).
fn hash_mb_for_memory(max_memory: u64, default_mb: usize) -> usize {
    if max_memory == 0 {
        return default_mb;
    }
    let mb = max_memory as f64 * HASH_MEMORY_SHARE / (1024.0 * 1024.0);
    (mb as usize).clamp(1, MAX_HASH_MB)
}

/// The table size for a table of `kib` KiB (0: `default_mb`).
fn hash_mb_for_kib(kib: u64, default_mb: usize) -> usize {
    if kib == 0 {
        return default_mb;
    }
    usize::try_from(kib / 1024).unwrap_or(usize::MAX).clamp(1, MAX_HASH_MB)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amazons::{Color, Move, Position, Square};
    use crate::score::Score;
    use crate::zobrist::KeyStream;

    #[test]
    fn memory_limit_sizes_the_table() {
        assert_eq!(hash_mb_for_memory(0, 64), 64);
        assert_eq!(hash_mb_for_memory(350 * 1024 * 1024, 64), 140);
        assert_eq!(hash_mb_for_memory(100 * 1024 * 1024 * 1024, 64), MAX_HASH_MB);
        assert_eq!(hash_mb_for_memory(1000, 64), 1);
    }

    #[test]
    fn table_size_is_kib_of_table() {
        assert_eq!(hash_mb_for_kib(0, 64), 64);
        assert_eq!(hash_mb_for_kib(100, 64), 1);
        assert_eq!(hash_mb_for_kib(1 << 16, 64), 64);
        assert_eq!(hash_mb_for_kib(1 << 30, 64), MAX_HASH_MB);
    }

    fn square(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn best_move(engine: &mut Engine, pos: &Position, depth: u32) -> (Move, Score) {
        let stop = AtomicBool::new(false);
        let result = engine.go(pos, &SearchLimits::depth(depth), Instant::now(), &stop, &mut |_| {});
        (result.best_move.expect("a move while the game is on"), result.score)
    }

    /// A shallow search against a random mover, both colours: the engine wins every game and
    /// only ever plays legal moves.
    #[test]
    fn beats_a_random_mover() {
        let mut engine = Engine::new(8, 1);
        let mut keys = KeyStream::new(0x2545_F491_4F6C_DD1D);
        for engine_colour in [Color::White, Color::Black] {
            engine.new_game();
            let mut pos = Position::new();
            while !pos.is_over() {
                let mv = if pos.side_to_move() == engine_colour {
                    best_move(&mut engine, &pos, 2).0
                } else {
                    let moves = pos.legal_moves();
                    moves[(keys.next_key() % moves.len() as u64) as usize]
                };
                pos.play(mv).unwrap();
            }
            assert_eq!(pos.winner(), Some(engine_colour), "{pos:?}");
        }
    }

    /// Two sealed corridors: White's queen on a1 with b1..g1 free (six moves), Black's on a10
    /// with b10..f10 free (five). Whoever moves first, White wins the race, and neither side
    /// wastes a square on the way.
    #[test]
    fn plays_a_filling_race_out_exactly() {
        let mut arrows: Vec<Square> = ["h1", "j10", "g10"].map(square).to_vec();
        arrows.extend((0..10).map(|file| Square::new(file, 1).unwrap()));
        arrows.extend((0..10).map(|file| Square::new(file, 8).unwrap()));
        let mut engine = Engine::new(8, 1);
        for first in [Color::White, Color::Black] {
            let mut pos = Position::from_setup(&[square("a1")], &[square("a10")], &arrows, first).unwrap();
            let (_, score) = best_move(&mut engine, &pos, 1);
            assert_eq!(score > 0, first == Color::White, "{score}");
            while !pos.is_over() {
                let (mv, _) = best_move(&mut engine, &pos, 6);
                pos.play(mv).unwrap();
            }
            // A wasted square would end the game a move early (Black) or lose it (White).
            assert_eq!(pos.winner(), Some(Color::White));
            assert_eq!(pos.history().len(), if first == Color::White { 11 } else { 10 });
        }
    }

    /// On a small board late in the game, `think` calls on the Amazons solver: in positions
    /// where 40,000 nodes of search alone see no forced win, it proves one, reports it as a win
    /// and plays a move that wins (checked by solving the position after it).
    #[test]
    fn thinking_plays_a_proven_win() {
        let mut engine = Engine::new(8, 1);
        let limits = SearchLimits { nodes: Some(40_000), ..SearchLimits::default() };
        for setup in [
            "white b1 d1 c2 e3 black a4 c4 e4 c5 arrows b3 c3 d3 b5 tomove white",
            "white c1 a2 d2 e2 black a4 d4 e4 b5 arrows b2 c2 a3 b3 c3 c5 tomove white",
        ] {
            let mut pos = Position::start(5, 5).unwrap().set_up(setup).unwrap();
            engine.new_game();
            let searched = engine.go(&pos, &limits, Instant::now(), &AtomicBool::new(false), &mut |_| {});
            assert!(!crate::score::is_mate(searched.score), "the search alone proves {setup}");
            engine.new_game();
            let result = engine.think(&pos, &limits, Instant::now(), &AtomicBool::new(false), &mut |_| {});
            let mv = result.best_move.unwrap();
            assert!(crate::score::is_mate(result.score) && result.score > 0, "{mv}: {}", result.score);
            pos.play(mv).unwrap();
            assert_eq!(crate::amazons::solve::solve(&pos, u64::MAX).winner, Some(Color::White), "{mv} does not win");
        }
    }
}
