//! The evaluation's weight tables: the term weights by stage of the game, the tuned table and
//! the baseline it was tuned against. Plain data, so the position can name the table it is
//! evaluated with without the position and the evaluation importing each other.

/// One weight per evaluation term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TermWeights {
    pub t1: f32,
    pub t2: f32,
    pub c1: f32,
    pub c2: f32,
    pub mobility: f32,
}

impl TermWeights {
    /// `self` moved `phase` (0 to 1) of the way towards `to`.
    fn towards(self, to: TermWeights, phase: f32) -> TermWeights {
        let at = |from: f32, to: f32| from + (to - from) * phase;
        TermWeights {
            t1: at(self.t1, to.t1),
            t2: at(self.t2, to.t2),
            c1: at(self.c1, to.c1),
            c2: at(self.c2, to.c2),
            mobility: at(self.mobility, to.mobility),
        }
    }
}

/// Every weight of the evaluation, in one place for tuning.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// The term weights by arrows on the board, which is the number of plies played since the
    /// start (every move shoots one): `(arrows, weights)` knots in increasing order, linear in
    /// between and constant past either end. A step from one ply to the next makes staged
    /// tables; two knots make a smooth blend.
    pub schedule: &'static [(u32, TermWeights)],
    /// Ownership credited to the side to move on squares both sides reach equally fast: it
    /// gets there first.
    pub tie: f32,
}

impl Weights {
    /// The term weights in force with `arrows` arrows on the board.
    pub fn at(&self, arrows: u32) -> TermWeights {
        let knots = self.schedule;
        // The segment holding `arrows`: the first one before the knots, the last one past them.
        let i = knots.iter().rposition(|&(at, _)| at <= arrows).unwrap_or(0).min(knots.len().saturating_sub(2));
        let (from_at, from) = knots[i];
        let Some(&(to_at, to)) = knots.get(i + 1) else { return from };
        from.towards(to, (arrows.saturating_sub(from_at) as f32 / (to_at - from_at) as f32).min(1.0))
    }
}

/// The engine's weights, tuned by self-play: from the opening values at no arrows to the late
/// ones at 50, linearly. Early, influence (`c1`, `c2`) and mobility decide; late, counted
/// territory does.
pub const WEIGHTS: Weights = Weights {
    schedule: &[
        (0, TermWeights { t1: 0.20, t2: 0.25, c1: 0.20, c2: 0.20, mobility: 0.15 }),
        (50, TermWeights { t1: 0.70, t2: 0.15, c1: 0.05, c2: 0.05, mobility: 0.05 }),
    ],
    tie: 0.2,
};

/// The starting point the patent builds on: the stage weights commonly cited in the Chinese
/// Amazons literature, in three stages by move number (moves 1-10, 11-25, then the rest; a
/// move is two plies). We have no exact figures from the patent itself; this table is the
/// baseline our tuned [`WEIGHTS`] are measured against.
pub const PATENT_WEIGHTS: Weights = Weights {
    schedule: &[(0, PATENT_OPENING), (20, PATENT_OPENING), (21, PATENT_MIDDLE), (50, PATENT_MIDDLE), (51, PATENT_LATE)],
    tie: 0.2,
};
const PATENT_OPENING: TermWeights = TermWeights { t1: 0.14, t2: 0.13, c1: 0.37, c2: 0.13, mobility: 0.20 };
const PATENT_MIDDLE: TermWeights = TermWeights { t1: 0.30, t2: 0.20, c1: 0.25, c2: 0.20, mobility: 0.05 };
const PATENT_LATE: TermWeights = TermWeights { t1: 0.80, t2: 0.05, c1: 0.10, c2: 0.05, mobility: 0.00 };

/// The weight tables by the names `--weights` takes.
pub const NAMED_WEIGHTS: [(&str, &Weights); 2] = [("tuned", &WEIGHTS), ("patent", &PATENT_WEIGHTS)];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_blend_by_arrows_or_step_by_move() {
        let [(_, opening), (_, late)] = WEIGHTS.schedule else { panic!("the tuned table is a two-knot blend") };
        assert_eq!(WEIGHTS.at(0), *opening);
        assert!((WEIGHTS.at(25).t1 - (opening.t1 + late.t1) / 2.0).abs() < 1e-6);
        assert!((WEIGHTS.at(90).t1 - late.t1).abs() < 1e-6);
        for (arrows, stage) in [(0, PATENT_OPENING), (20, PATENT_OPENING), (21, PATENT_MIDDLE), (50, PATENT_MIDDLE)] {
            assert_eq!(PATENT_WEIGHTS.at(arrows), stage, "{arrows}");
        }
        let last = PATENT_WEIGHTS.at(51);
        assert!((last.t1 - PATENT_LATE.t1).abs() < 1e-6 && last.mobility.abs() < 1e-6, "{last:?}");
        assert_eq!(PATENT_WEIGHTS.at(80), last);
    }
}
