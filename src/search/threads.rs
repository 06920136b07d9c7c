//! Thread setup (Lazy SMP): thread 0 searches on the pool's first thread and answers, the
//! helpers search their own copies until it has.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::limits::SearchLimits;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::{OnEvent, SearchResult, Shared, Worker};
use crate::game::Game;

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
