//! Scores in centipawn-like units, with mate scores counted in plies from the root.
//!
//! A win `n` plies away scores `MATE - n`, a loss `-(MATE - n)`. Inside the search the distance
//! is measured from the root; the transposition table stores it from the node instead, so an
//! entry stays right when reached at another ply.

/// Side-to-move relative score.
pub type Score = i32;

pub const MATE: Score = 30_000;
/// Scores at or beyond this magnitude are mates.
pub const MATE_BOUND: Score = MATE - 1_000;
/// Static evaluations are clamped inside this magnitude, so they never look like mates.
pub const MAX_EVAL: Score = 20_000;
pub const INFINITY: Score = MATE + 1;
pub const DRAW: Score = 0;

/// Score of a win `plies` plies from now.
pub const fn win_in(plies: u32) -> Score {
    MATE - plies as Score
}

/// Score of a loss `plies` plies from now.
pub const fn loss_in(plies: u32) -> Score {
    -(MATE - plies as Score)
}

pub const fn is_mate(score: Score) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// Plies to the end for a mate score, `None` otherwise.
pub fn mate_distance(score: Score) -> Option<u32> {
    is_mate(score).then(|| (MATE - score.abs()) as u32)
}

/// Root-relative score to node-relative, for storing in the transposition table.
pub fn to_tt(score: Score, ply: u32) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// Node-relative score from the transposition table back to root-relative.
pub fn from_tt(score: Score, ply: u32) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// Human-readable score: `win in N` / `loss in N` counts the mover's own moves, as Gomocup GUIs
/// show it; other scores are printed as they are.
pub fn describe(score: Score) -> String {
    match mate_distance(score) {
        Some(plies) if score > 0 => format!("win in {}", plies.div_ceil(2)),
        Some(plies) => format!("loss in {}", plies.div_ceil(2)),
        None => score.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_conversion_round_trips_mates_and_plain_scores() {
        for score in [win_in(7), loss_in(4), 123, -55, 0] {
            for ply in [0, 3, 20] {
                assert_eq!(from_tt(to_tt(score, ply), ply), score);
            }
        }
        assert_eq!(to_tt(win_in(9), 4), win_in(5));
    }

    #[test]
    fn describe_counts_own_moves() {
        assert_eq!(describe(win_in(1)), "win in 1");
        assert_eq!(describe(win_in(5)), "win in 3");
        assert_eq!(describe(loss_in(2)), "loss in 1");
        assert_eq!(describe(-42), "-42");
    }
}
