//! Move ordering: the table's move first, then killers, the game's static hints and the
//! history of cut-offs, which every cut-off updates.

use super::Worker;
use crate::game::Game;
use crate::params::{self, Id};

/// Bits of a move's index in its sort key: move lists are far shorter than 2^16.
const INDEX_BITS: u32 = 16;
const INDEX_MASK: i64 = (1 << INDEX_BITS) - 1;

/// History scores saturate at this magnitude (the "gravity" update keeps them inside).
const HISTORY_MAX: i32 = 8_192;

impl<G: Game> Worker<'_, G> {
    /// Sorts `moves` best first. With a width limit only the first `keep` are kept: they are
    /// selected before sorting, so the moves dropped are never sorted. Ties keep generation
    /// order either way.
    pub(super) fn order_moves(
        &mut self,
        moves: &mut Vec<G::Move>,
        tt_move: Option<G::Move>,
        ply: u32,
        keep: Option<usize>,
    ) {
        let killers = self.killers[ply as usize];
        let mut keyed = std::mem::take(&mut self.keyed_moves);
        self.pos.order_scores(moves, &mut self.move_scores);
        // One i64 per move, the ordering key above the move's index: sorting plain integers is
        // cheaper than sorting pairs, and the index still breaks ties, so both ways below keep
        // generation order among equal keys. Keys stay far inside the 47 bits left to them.
        let key = |mv: G::Move, score: i32| {
            if Some(mv) == tt_move {
                return i64::MIN >> INDEX_BITS;
            }
            let killer = if killers.contains(&Some(mv)) { params::get(Id::killer_bonus) } else { 0 };
            -i64::from(score + self.history[G::history_index(mv)] / 4 + killer)
        };
        debug_assert!(moves.len() <= 1 << INDEX_BITS);
        keyed.clear();
        keyed.extend(
            moves
                .iter()
                .zip(&self.move_scores)
                .enumerate()
                .map(|(index, (&mv, &s))| key(mv, s) << INDEX_BITS | index as i64),
        );
        if let Some(keep) = keep.map(|k| k.max(1)).filter(|&k| k < moves.len()) {
            keyed.select_nth_unstable(keep - 1);
            keyed.truncate(keep);
        }
        keyed.sort_unstable();
        // The kept moves go to the front in key order: their indices name the old positions.
        let old = std::mem::take(&mut self.kept_moves);
        let mut old = std::mem::replace(moves, old);
        moves.clear();
        moves.extend(keyed.iter().map(|&packed| old[(packed & INDEX_MASK) as usize]));
        old.clear();
        self.kept_moves = old;
        self.keyed_moves = keyed;
    }

    /// A cut-off move becomes a killer and gains history; the moves searched before it lose
    /// some: they were ranked too high. Moves pruned unsearched taught nothing.
    pub(super) fn reward(&mut self, mv: G::Move, depth: u32, ply: u32, tried: &[G::Move]) {
        let killers = &mut self.killers[ply as usize];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let bonus = (depth * depth) as i32 * 16;
        update_history(&mut self.history[G::history_index(mv)], bonus);
        for &other in tried {
            update_history(&mut self.history[G::history_index(other)], -bonus);
        }
    }
}

/// History update with gravity: entries move toward `±HISTORY_MAX` and never pass it.
fn update_history(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}
