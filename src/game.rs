//! The one contract between the game-agnostic search and every game.
//!
//! Search only ever sees a position through [`Game`]; anything game-specific (Gomoku threat search,
//! Amazons selective width) is offered through the hooks with defaults, never through a test on
//! which game is being played.

use std::fmt::{Debug, Display};

use crate::search::score::Score;

/// Result of a finished game, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move has won (rare: most games end on the mover's own move).
    Win,
    /// The side to move has lost, e.g. the opponent just made five.
    Loss,
    Draw,
}

/// A two-player, zero-sum, perfect-information game as the search needs it.
pub trait Game: Clone + Send + Sync + 'static {
    type Move: Copy + Eq + Send + Sync + Debug + Display + 'static;

    /// Size of the per-thread history table; [`Game::history_index`] stays below it.
    const HISTORY_SIZE: usize;

    /// Zobrist key of the position, side to move included; kept incrementally.
    fn hash(&self) -> u64;

    /// `Some` when the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Moves worth searching: all legal moves, or a subset the game proves sufficient (Gomoku
    /// answers a four only by blocking it). Empty only when [`Game::outcome`] is `Some`.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    fn make_move(&mut self, mv: Self::Move);

    /// Exactly undoes [`Game::make_move`]; the hash must be restored.
    fn unmake_move(&mut self, mv: Self::Move);

    /// Static evaluation from the side to move's point of view, well inside
    /// `±score::MAX_EVAL`.
    fn evaluate(&self) -> Score;

    /// Packs a move into the 24 bits the transposition table stores.
    fn encode_move(mv: Self::Move) -> u32;

    /// Unpacks a stored move, `None` if it is not legal here (keys can collide).
    fn decode_move(&self, code: u32) -> Option<Self::Move>;

    /// Index into the history table for quiet-move ordering.
    fn history_index(mv: Self::Move) -> usize;

    /// Cheap static ordering hint: higher is searched first.
    fn order_score(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// A move that wins by force within the returned number of plies, found by a game-specific
    /// solver (Gomoku's threat-space search) in at most `max_nodes` nodes; `None` proves nothing.
    /// Called at every horizon node and once at the root, so it must respect the budget.
    fn prove_win(&mut self, _max_nodes: u32) -> Option<(Self::Move, u32)> {
        None
    }

    /// Whether the opponent threatens to win at once, so the static evaluation cannot be
    /// trusted and [`Game::generate_moves`] returns the forced replies.
    fn is_threatened(&self) -> bool {
        false
    }

    /// Whether `mv` is forcing enough that the search should not reduce it.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Selective width: at a node with `depth` plies left, only this many moves are searched,
    /// the first ones in the search's ordering (transposition-table move, killers, then history
    /// and [`Game::order_score`]). For games with thousands of moves a node (Amazons); `None`
    /// searches them all.
    fn max_moves(&self, _depth: u32) -> Option<usize> {
        None
    }
}
