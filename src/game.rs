//! The one contract between the game-agnostic search and every game.
//!
//! Search only ever sees a position through [`Game`]; anything game-specific (Gomoku threat search,
//! Amazons selective width) is offered through the hooks with defaults, never through a test on
//! which game is being played.

use std::fmt::{Debug, Display};

use crate::score::Score;

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

    /// The key after `mv`, where the game can tell it without playing the move: the search
    /// then asks the memory for the child's table entry while the move is being made.
    fn child_hash(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// `Some` when the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Moves worth searching: all legal moves, or a subset the game proves sufficient (Gomoku
    /// answers a four only by blocking it). Empty only when [`Game::outcome`] is `Some`.
    fn generate_moves(&self, out: &mut Vec<Self::Move>);

    /// Every move worth considering when the caller picks among alternatives itself (every
    /// move [`Game::generate_moves`] offers is blocked, or openings are being chosen for their
    /// balance): the same moves without the pruning that proves a subset sufficient. Defaults
    /// to [`Game::generate_moves`].
    fn generate_unpruned(&self, out: &mut Vec<Self::Move>) {
        self.generate_moves(out);
    }

    fn make_move(&mut self, mv: Self::Move);

    /// Exactly undoes [`Game::make_move`]; the hash must be restored.
    fn unmake_move(&mut self, mv: Self::Move);

    /// [`Game::make_move`] inside the horizon search, where a game may keep less up to date,
    /// so long as [`Game::evaluate`] and everything the horizon asks still answer (Gomoku
    /// with a network holds the network's features). Defaults to [`Game::make_move`].
    fn make_horizon_move(&mut self, mv: Self::Move) {
        self.make_move(mv);
    }

    /// Exactly undoes [`Game::make_horizon_move`]. Defaults to [`Game::unmake_move`].
    fn unmake_horizon_move(&mut self, mv: Self::Move) {
        self.unmake_move(mv);
    }

    /// Static evaluation from the side to move's point of view, well inside
    /// `±score::MAX_EVAL`.
    fn evaluate(&self) -> Score;

    /// Packs a move into the 24 bits the transposition table stores.
    fn encode_move(mv: Self::Move) -> u32;

    /// Unpacks a stored move, `None` if it is not legal here (keys can collide).
    fn decode_move(&self, code: u32) -> Option<Self::Move>;

    /// Index into the history table for quiet-move ordering.
    fn history_index(mv: Self::Move) -> usize;

    /// Cheap static ordering hints, one per move of `moves` into `out` (cleared first): higher
    /// is searched first. Asked once per node for all its moves, so a game can table what they
    /// share once (Amazons' distance maps) without keeping a cache in the position.
    fn order_scores(&self, moves: &[Self::Move], out: &mut Vec<i32>) {
        out.clear();
        out.resize(moves.len(), 0);
    }

    /// Late-move reduction to add to each move of `moves` (in plies, negative for less), into
    /// `out` (empty when called), from the game's judgement of the moves beside each other
    /// (Gomoku with a network: the policy's distance from the best move's); left empty, no
    /// move's reduction changes. Asked once per node, only where late moves may be reduced;
    /// the search applies it only to moves it reduces.
    fn reduction_adjustments(&self, _moves: &[Self::Move], _out: &mut Vec<i32>) {}

    /// A move that wins by force within the returned number of plies, found by a game-specific
    /// solver (Gomoku's threat-space search) in at most `max_nodes` nodes; `None` proves nothing.
    /// Called once at the root, before the search.
    fn prove_win(&mut self, _max_nodes: u32) -> Option<(Self::Move, u32)> {
        None
    }

    /// A wider and costlier solver than [`Game::prove_win`]'s (Gomoku's victory by continuous
    /// threats), in about `max_nodes` nodes: a winning move for the side to move, or no win,
    /// which proves nothing. Called only when [`crate::search::limits::SearchLimits::solver`]
    /// asks: at the root before and between iterations, and after each iteration's best move
    /// for the opponent.
    fn solve_threats(&mut self, _max_nodes: u64) -> Proof<Self::Move> {
        Proof { win: None, nodes: 0 }
    }

    /// Whether the opponent threatens to win at once, so the static evaluation cannot be
    /// trusted and [`Game::generate_moves`] returns the forced replies.
    fn is_threatened(&self) -> bool {
        false
    }

    /// Moves that force the opponent's reply (Gomoku: fours), tried beyond the horizon before
    /// the static evaluation is trusted; `plies_beyond` counts the plies already played past the
    /// horizon, so a game may ask more of a forcing move the longer the line runs. Defaults to
    /// none: the evaluation stands.
    fn generate_forcing(&self, _out: &mut Vec<Self::Move>, _plies_beyond: u32) {}

    /// Whether `mv` is forcing enough that the search should neither reduce it nor prune it
    /// as a late move.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Whether the position is quiet enough for the search to prune on the static evaluation
    /// and on a passed move: a move never hurts its mover here (no zugzwang) and the opponent has
    /// no threat pending that the evaluation cannot see. Games that are solved exactly, or where
    /// a pass says nothing, keep the default and are never pruned this way.
    fn is_quiet(&self) -> bool {
        false
    }

    /// Hands the move to the opponent without playing (null-move pruning). Only called where
    /// [`Game::is_quiet`] holds; [`Game::unmake_null_move`] undoes it, hash included.
    fn make_null_move(&mut self) {}

    fn unmake_null_move(&mut self) {}

    /// Selective width: at a node with `depth` plies left, only this many moves are searched,
    /// the first ones in the search's ordering (transposition-table move, killers, then history
    /// and [`Game::order_scores`]). For games with thousands of moves a node (Amazons); `None`
    /// searches them all.
    fn max_moves(&self, _depth: u32) -> Option<usize> {
        None
    }
}

/// What a game's solver proved, and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    /// A winning move and the plies to the win along the proof found. Solvers need not find the
    /// shortest win, so this is an upper bound: a win at least this fast.
    pub win: Option<(M, u32)>,
    /// Nodes the solver spent, counted with the search's own so node limits stay fair.
    pub nodes: u64,
}

/// How a finished game ended, for people and for GTP `final_score`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winner as an index into [`Playable::player_names`]; `None` for a draw.
    pub winner: Option<usize>,
    /// How it ended, e.g. `three in a row a1 b2 c3` or `white has no legal move`.
    pub reason: String,
}

/// What text front ends (GTP, the terminal game) need beyond the search's view: reading moves,
/// drawing the board, naming the players and saying who won.
pub trait Playable: Game {
    /// The game's name on the command line.
    const NAME: &'static str;
    /// How a move is typed, for help texts.
    const MOVE_FORMAT: &'static str;
    /// A typical move, for prompts (`b2`, `d1-d7/g7`).
    const MOVE_EXAMPLE: &'static str;

    /// Lower-case names of the player who moves first and of the other one.
    fn player_names(&self) -> [&'static str; 2];

    /// 0 when the first player is to move, 1 otherwise.
    fn to_move(&self) -> usize;

    /// A new game on a `width` x `height` board, the other settings kept.
    fn resized(&self, width: usize, height: usize) -> Result<Self, String>;

    /// A position from the game's own set-up text (GTP `set_position`).
    fn set_up(&self, text: &str) -> Result<Self, String>;

    /// Reads a move and checks that it is legal here; the error says why not.
    fn parse_move(&self, text: &str) -> Result<Self::Move, String>;

    /// A move as people type it; `Display` unless the game's protocol prints moves otherwise.
    fn format_move(&self, mv: Self::Move) -> String {
        mv.to_string()
    }

    /// The board with its coordinates, `last` highlighted.
    fn diagram(&self, last: Option<Self::Move>) -> String;

    /// `Some` once the game is over.
    fn verdict(&self) -> Option<Verdict>;

    /// The iteration depth at which a search of this position is exact, when it is small enough
    /// to be solved (tic-tac-toe); searches then stop there instead of running to the clock.
    fn solving_depth(&self) -> Option<u32> {
        None
    }

    /// Whether every move a front end asks for should call on the game's solver
    /// ([`Game::solve_threats`], [`crate::search::limits::SearchLimits::solver`]): where it is
    /// exact and cheap to decline (Amazons proves endings it can finish, and declines larger
    /// positions at once).
    fn solver_by_default(&self) -> bool {
        false
    }

    /// The position as [`Playable::set_up`] reads it, so that a saved game resumes with
    /// `--position` (Gomoku: the compact move order that opening books and c-gomoku-cli read).
    fn setup_text(&self) -> String;
}

/// The name of a file (column), from 0: `a` to `z`, then `aa` to `az` as in spreadsheets, so
/// that every name can be typed and read back on boards wider than 26.
pub fn file_name(file: usize) -> String {
    let letter = |i: usize| char::from(b'a' + i as u8);
    if file < 26 { letter(file).to_string() } else { format!("{}{}", letter(file / 26 - 1), letter(file % 26)) }
}

/// A board drawn for people: rank numbers on the left (the top rank first), file letters
/// underneath, each point `symbol(file, rank)` with 0-based coordinates, and the `marked` points
/// in brackets so the last move stands out. No line has trailing spaces.
pub fn grid_diagram(
    width: usize,
    height: usize,
    symbol: impl Fn(usize, usize) -> char,
    marked: impl Fn(usize, usize) -> bool,
) -> String {
    let mut out = String::new();
    for rank in (0..height).rev() {
        let mut line = format!("{:>2} ", rank + 1);
        for file in 0..width {
            let c = symbol(file, rank);
            line.push_str(&if marked(file, rank) { format!("[{c}]") } else { format!(" {c} ") });
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let letters: String = (0..width).map(|file| format!("{:^3}", file_name(file))).collect();
    out.push_str(&format!("   {}\n", letters.trim_end()));
    out
}
