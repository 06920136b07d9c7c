//! What a caller may ask of one search: any mix of depth, node, per-move time and game-clock
//! limits. The first one reached ends the search.

use std::time::Duration;

/// Limits for one search. `SearchLimits::default()` searches until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration to complete.
    pub depth: Option<u32>,
    /// Nodes searched by the main thread; with one thread this makes runs reproducible.
    pub nodes: Option<u64>,
    /// Longest this move may take (Gomocup `timeout_turn`, GTP byo-yomi).
    pub move_time: Option<Duration>,
    /// Remaining time on the game clock, shared over the moves still to play.
    pub clock: Option<Clock>,
}

/// A game clock as the protocol last reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the rest of the game.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the clock is refilled, when the time control says so.
    pub moves_to_go: Option<u32>,
}

impl SearchLimits {
    pub fn depth(depth: u32) -> Self {
        SearchLimits { depth: Some(depth), ..Self::default() }
    }

    pub fn move_time(time: Duration) -> Self {
        SearchLimits { move_time: Some(time), ..Self::default() }
    }
}
