//! The text of the brain's informational replies: progress and ranking messages, and the live
//! lines Yixin-Board shows while a search runs.

use super::Response;
use crate::engine::MAX_HASH_MB;
use crate::engine::balance::Balanced;
use crate::gomoku::Move;
use crate::score::{Score, describe, is_mate};
use crate::search::{RootLine, SearchInfo};

/// Yixin-Board offers `hash_size` values of 2^0 to 2^n KiB and asks the brain for n: ours is
/// the largest table it would take.
pub(super) fn max_hash_size_exponent() -> u32 {
    (MAX_HASH_MB * 1024).ilog2()
}

/// What Yixin-Board has been shown of the running search, so each live line is sent once.
#[derive(Default)]
pub(super) struct Realtime {
    best: Option<Move>,
    lost: Vec<Move>,
}

impl Realtime {
    /// The live line for a root move just searched, if it tells the GUI something new.
    pub(super) fn root_move(&mut self, mv: Move, score: Score, new_best: bool) -> Option<Response> {
        if is_mate(score) && score < 0 {
            if self.lost.contains(&mv) {
                return None;
            }
            self.lost.push(mv);
            Some(Response::Message(format!("REALTIME LOST {mv}")))
        } else if new_best {
            self.best(mv)
        } else {
            None
        }
    }

    /// The live line for `mv` as the best move, if it is a new one.
    pub(super) fn best(&mut self, mv: Move) -> Option<Response> {
        (self.best != Some(mv)).then(|| {
            self.best = Some(mv);
            Response::Message(format!("REALTIME BEST {mv}"))
        })
    }
}

/// `nbest RANK MOVE ev SCORE depth D pv MOVES`: one of `YXNBEST`'s ranked moves (rank from 1).
pub(super) fn nbest_line(index: usize, line: &RootLine<Move>, depth: u32) -> String {
    let pv: Vec<String> = line.pv.iter().map(Move::to_string).collect();
    let mv = line.pv.first().map_or_else(String::new, Move::to_string);
    format!("nbest {} {mv} ev {} depth {depth} pv {}", index + 1, describe(line.score), pv.join(" "))
}

/// `balance depth D ev SCORE stones MOVES`: the closest candidate after a round of searches.
pub(super) fn balance_progress(found: &Balanced<Move>) -> String {
    let stones: Vec<String> = found.moves.iter().map(Move::to_string).collect();
    format!("balance depth {} ev {} stones {}", found.depth, describe(found.score), stones.join(" "))
}

/// `depth D-SELDEPTH ev SCORE n NODES n/s NPS tm MS pv MOVES`, the text of a progress message.
pub(super) fn progress(info: &SearchInfo<Move>) -> String {
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    format!(
        "depth {}-{} ev {} n {} n/s {} tm {} pv {}",
        info.depth,
        info.seldepth,
        describe(info.score),
        info.nodes,
        info.nodes_per_second(),
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// The threat solver proved a win for the brain: the move is played at once.
pub(super) fn proven_win(mv: Move, plies: u32, nodes: u64) -> String {
    format!("proven win in {plies} plies or fewer by {mv} ({nodes} solver nodes)")
}

/// The threat solver refuted the search's best move: the opponent has a forced win after it.
pub(super) fn proven_loss(mv: Move, plies: u32, nodes: u64) -> String {
    format!("proven loss after {mv}: the opponent wins within {plies} plies ({nodes} solver nodes)")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn progress_message_format() {
        let info = SearchInfo {
            depth: 5,
            seldepth: 9,
            score: crate::score::win_in(3),
            nodes: 1000,
            elapsed: Duration::from_millis(250),
            pv: vec![Move::new(7, 7).unwrap(), Move::new(8, 8).unwrap()],
        };
        assert_eq!(progress(&info), "depth 5-9 ev win in 2 n 1000 n/s 4000 tm 250 pv 7,7 8,8");
    }
}
