//! The one API the protocols talk to: owns the transposition table and the thread count, and
//! runs searches of any [`Game`] on them.

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

pub struct Engine {
    tt: TranspositionTable,
    hash_mb: usize,
    /// Size asked for, applied at the next [`Engine::new_game`]: allocating hundreds of
    /// megabytes takes long enough to matter on a move's clock.
    wanted_hash_mb: usize,
    threads: usize,
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
        Engine { tt: TranspositionTable::new(hash_mb), hash_mb, wanted_hash_mb: hash_mb, threads: threads.max(1) }
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Asks for a transposition table of `hash_mb` MiB from the next game on.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.wanted_hash_mb = hash_mb.max(1);
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
        self.threads = threads.max(1);
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
        search::search(pos, limits, start, self.threads, &self.tt, stop, on_event)
    }

    /// Chooses a move for a front end: like [`Engine::go`], but a game small enough to be solved
    /// is searched exactly to its end and no further.
    pub fn think<G: Playable>(
        &mut self,
        pos: &G,
        limits: &SearchLimits,
        start: Instant,
        stop: &AtomicBool,
        on_event: &mut OnEvent<'_, G::Move>,
    ) -> SearchResult<G::Move> {
        let mut limits = limits.clone();
        if let Some(depth) = pos.solving_depth() {
            limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)).max(1));
        }
        self.go(pos, &limits, start, stop, on_event)
    }
}
