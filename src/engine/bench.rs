//! The benchmark: fixed positions searched to a fixed depth with a cleared table each time.
//! With one thread the total node count is a signature of the search's behaviour: a change
//! that alters it changes what the engine plays.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::Engine;
use crate::game::Game;
use crate::score::describe;
use crate::search;
use crate::search::limits::SearchLimits;

/// Totals of a benchmark run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchSummary {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchSummary {
    pub fn nodes_per_second(&self) -> u64 {
        search::nodes_per_second(self.nodes, self.elapsed)
    }
}

/// Searches every position to `depth`, reporting one line per position through `report`.
pub fn run<G: Game>(engine: &mut Engine, positions: &[G], depth: u32, mut report: impl FnMut(String)) -> BenchSummary {
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    let stop = AtomicBool::new(false);
    for (i, pos) in positions.iter().enumerate() {
        engine.clear_hash();
        let result = engine.go(pos, &SearchLimits::depth(depth), Instant::now(), &stop, &mut |_| {});
        nodes += result.nodes;
        elapsed += result.elapsed;
        let best = result.best_move.map_or_else(|| "none".to_string(), |m| m.to_string());
        report(format!(
            "Position {}/{}: best {best} score {} depth {} nodes {} time {} ms",
            i + 1,
            positions.len(),
            describe(result.score),
            result.depth,
            result.nodes,
            result.elapsed.as_millis()
        ));
    }
    BenchSummary { nodes, elapsed }
}
