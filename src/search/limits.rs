//! What a caller may ask of one search: any mix of depth, node, per-move time and game-clock
//! limits (the first one reached ends the search), which root moves to leave out, how many best
//! root moves to rank, whether to report root moves as they are searched, and whether to call on
//! the game's threat solver. Moves appear as [`crate::game::Game::encode_move`] codes, so the
//! limits stay the same type for every game.

use std::time::Duration;

/// Limits for one search. `SearchLimits::default()` searches until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration to complete.
    pub depth: Option<u32>,
    /// Nodes searched by all threads together (Yixin's `max_node` is the move's); with one
    /// thread this makes runs reproducible.
    pub nodes: Option<u64>,
    /// Longest this move may take (Gomocup `timeout_turn`, GTP byo-yomi).
    pub move_time: Option<Duration>,
    /// Remaining time on the game clock, shared over the moves still to play.
    pub clock: Option<Clock>,
    /// Root moves never to be chosen (moves a user blocked), as move codes. When they include
    /// every move the game offers, the search falls back on
    /// [`crate::game::Game::generate_unpruned`], still without them.
    pub excluded: Vec<u32>,
    /// How many best root moves to rank, each with its own line and score (multi-PV); 0 and 1
    /// both mean the best move only.
    pub multi_pv: usize,
    /// Report every root move of the best line's search as it is searched (a GUI's live view).
    pub report_root_moves: bool,
    /// Call on the game's threat solver ([`crate::game::Game::solve_threats`]) at the root: for
    /// a win before and between iterations, and against each iteration's best move. Off by
    /// default: in self-play at fixed nodes it has not paid for its nodes (docs/strength.md), so
    /// it serves analysis and A/B matches of one binary (`pbrain-arbor --threat-solver`).
    pub solver: bool,
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
    /// What any move may take whatever the clock's share: GTP's byo-yomi share, which waits
    /// after the main time. Zero where the clock is all there is.
    pub byo_yomi: Duration,
}

impl SearchLimits {
    pub fn depth(depth: u32) -> Self {
        SearchLimits { depth: Some(depth), ..Self::default() }
    }

    pub fn move_time(time: Duration) -> Self {
        SearchLimits { move_time: Some(time), ..Self::default() }
    }
}
