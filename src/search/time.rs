//! The one time manager: turning [`SearchLimits`] into deadlines, a game clock into one move's
//! budget ([`move_budget`], for commands that split a move over several searches: swap2,
//! balance) and a byo-yomi clock into limits ([`byo_yomi_limits`], GTP). Protocols only report
//! their clocks; every decision about how to spend them is made here.
//!
//! The hard deadline is never crossed: the search polls it every 128 nodes and the answer is
//! due before it. The soft deadline decides whether another iteration is worth
//! starting; it stretches when the best move keeps changing and shrinks when it is stable.
//! Both keep [`MOVE_OVERHEAD`] back for the reply to reach the manager, or half a budget
//! smaller than twice that, so that a short move still searches. All arithmetic
//! saturates: a clock of any size a protocol can parse gives deadlines, never an overflow.

use std::time::{Duration, Instant};

use super::limits::{Clock, SearchLimits};

/// Reserved for process scheduling and the pipe to the manager. On this project's 2-core VM a
/// reply reached c-gomoku-cli up to 60 ms after the engine's deadline (once in about 4,400
/// moves), and Rapfi, which keeps 30 ms back, passed 1 s 15 to 23 times in each 60-game match.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(100);
/// Moves we plan to still play when the clock does not say.
pub const EXPECTED_MOVES_LEFT: u32 = 25;
/// Share of the per-move time the soft deadline starts at. Time a move does not use is lost
/// under a per-move limit, and an iteration the clock cuts short still gives its best move so
/// far, so a late start costs little.
const SOFT_SHARE: f64 = 0.7;
/// No single move may use more than this share of the remaining game time.
const MAX_CLOCK_SHARE: f64 = 0.25;

/// Deadlines of one search, measured from its start.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Deadlines for `limits`, counted from `start` (the moment the command arrived, so any
    /// work before the search, such as allocating the hash table, is paid from the budget).
    pub fn new(limits: &SearchLimits, start: Instant) -> Self {
        let mut hard: Option<Duration> = limits.move_time;
        let mut soft = limits.move_time.map(|t| scaled(t, SOFT_SHARE));
        if let Some(clock) = limits.clock {
            let share = (clock.remaining / moves_left(&clock)).saturating_add(scaled(clock.increment, 0.8));
            let cap = scaled(clock.remaining, MAX_CLOCK_SHARE);
            let clock_hard = share.saturating_mul(3).min(cap).max(clock.byo_yomi);
            let clock_soft = scaled(share.min(cap), 0.8).max(scaled(clock.byo_yomi, SOFT_SHARE));
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
            soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
        }
        let hard = hard.map(|h| h - MOVE_OVERHEAD.min(h / 2));
        let soft = match (soft, hard) {
            (Some(s), Some(h)) => Some(s.min(h)),
            (s, _) => s,
        };
        TimeManager { start, soft, hard }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Time left before the hard deadline, `None` without one.
    pub fn remaining(&self) -> Option<Duration> {
        self.hard.map(|hard| hard.saturating_sub(self.elapsed()))
    }

    /// When the search stops deepening, measured from its start; `None` without a deadline.
    pub fn soft(&self) -> Option<Duration> {
        self.soft
    }

    /// The search must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to begin another iteration; `instability` is 1.0 for a settled best move and
    /// grows when it has been changing between iterations.
    pub fn may_start_iteration(&self, instability: f64) -> bool {
        self.soft.is_none_or(|s| self.elapsed() < scaled(s, instability.clamp(0.5, 2.0)))
    }
}

/// One move's share of the time, for a command that spends it over several searches (swap2's
/// judgements, balance's rounds): the per-move limit, or the clock shared over the moves left,
/// whichever is less; `None` when neither limits the move.
pub fn move_budget(limits: &SearchLimits) -> Option<Duration> {
    let from_clock = limits.clock.map(|clock| clock.remaining / moves_left(&clock));
    match (limits.move_time, from_clock) {
        (Some(turn), Some(share)) => Some(turn.min(share)),
        (turn, share) => turn.or(share),
    }
}

/// Limits for a move under Canadian byo-yomi (GTP `time_settings`): periods of `period` in which
/// `period_stones` stones must be played follow the main time. `left` is the main time left
/// while `stones_left` is 0, and otherwise the current period's time left for its
/// `stones_left` stones.
pub fn byo_yomi_limits(left: Duration, stones_left: u32, period: Duration, period_stones: u32) -> SearchLimits {
    let in_byo_yomi = stones_left > 0;
    let main_left = if in_byo_yomi { Duration::ZERO } else { left };
    let mut limits = SearchLimits::default();
    let share = if period_stones > 0 { period / period_stones } else { Duration::ZERO };
    if !main_left.is_zero() {
        limits.clock =
            Some(Clock { remaining: main_left, increment: Duration::ZERO, moves_to_go: None, byo_yomi: share });
    }
    if in_byo_yomi {
        // A byo-yomi period is shared evenly by its stones; the last one may use all of it.
        limits.move_time = Some(left / stones_left);
    } else if period_stones > 0 {
        // Byo-yomi waits after the main time: a move never needs less than its share of it.
        limits.move_time = Some(main_left.max(share));
    } else if main_left.is_zero() {
        // Sudden death and nothing left: answer at once rather than lose on time.
        limits.depth = Some(1);
    }
    limits
}

/// Moves the clock must last: what it says, else [`EXPECTED_MOVES_LEFT`]; at least one.
fn moves_left(clock: &Clock) -> u32 {
    clock.moves_to_go.unwrap_or(EXPECTED_MOVES_LEFT).max(1)
}

/// `duration * factor`, saturating at [`Duration::MAX`] where `Duration::mul_f64` would panic.
fn scaled(duration: Duration, factor: f64) -> Duration {
    Duration::try_from_secs_f64(duration.as_secs_f64() * factor).unwrap_or(Duration::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_move_limit_keeps_the_overhead_back() {
        let tm = TimeManager::new(&SearchLimits::move_time(Duration::from_secs(1)), Instant::now());
        assert_eq!(tm.hard, Some(Duration::from_secs(1) - MOVE_OVERHEAD));
        assert!(tm.soft.unwrap() < tm.hard.unwrap());
    }

    #[test]
    fn clock_limit_never_spends_more_than_its_cap() {
        let limits = SearchLimits {
            clock: Some(Clock {
                remaining: Duration::from_secs(4),
                increment: Duration::ZERO,
                moves_to_go: Some(1),
                byo_yomi: Duration::ZERO,
            }),
            move_time: Some(Duration::from_secs(30)),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&limits, Instant::now());
        assert_eq!(tm.hard, Some(Duration::from_secs(1) - MOVE_OVERHEAD));
    }

    #[test]
    fn a_short_move_keeps_half_its_time_back_and_still_searches() {
        let hard = |ms| TimeManager::new(&SearchLimits::move_time(Duration::from_millis(ms)), Instant::now()).hard;
        assert_eq!(hard(200), Some(Duration::from_millis(100)));
        assert_eq!(hard(100), Some(Duration::from_millis(50)));
        assert_eq!(hard(30), Some(Duration::from_millis(15)));
    }

    #[test]
    fn zero_time_expires_at_once() {
        let tm = TimeManager::new(&SearchLimits::move_time(Duration::ZERO), Instant::now());
        assert!(tm.hard_expired());
    }

    #[test]
    fn the_largest_clocks_saturate_instead_of_overflowing() {
        let clock =
            Clock { remaining: Duration::MAX, increment: Duration::MAX, moves_to_go: Some(1), byo_yomi: Duration::MAX };
        let limits = SearchLimits { clock: Some(clock), move_time: Some(Duration::MAX), ..SearchLimits::default() };
        let tm = TimeManager::new(&limits, Instant::now());
        assert!(!tm.hard_expired());
        assert!(tm.may_start_iteration(2.0));
        assert_eq!(move_budget(&limits), Some(Duration::MAX));
        let limits = byo_yomi_limits(Duration::MAX, 0, Duration::MAX, 1);
        assert!(!TimeManager::new(&limits, Instant::now()).hard_expired());
    }

    #[test]
    fn move_budget_shares_the_clock_but_never_exceeds_the_turn() {
        let clock = |secs| Clock {
            remaining: Duration::from_secs(secs),
            increment: Duration::ZERO,
            moves_to_go: None,
            byo_yomi: Duration::ZERO,
        };
        let limits = |turn: Option<Duration>, secs: Option<u64>| SearchLimits {
            move_time: turn,
            clock: secs.map(clock),
            ..SearchLimits::default()
        };
        let five = Some(Duration::from_secs(5));
        assert_eq!(move_budget(&limits(five, Some(50))), Some(Duration::from_secs(2)));
        assert_eq!(move_budget(&limits(five, Some(1000))), five);
        assert_eq!(move_budget(&limits(None, Some(50))), Some(Duration::from_secs(2)));
        assert_eq!(move_budget(&limits(None, None)), None);
    }

    #[test]
    fn byo_yomi_shares_a_period_over_its_stones() {
        let secs = Duration::from_secs;
        let in_period = byo_yomi_limits(secs(30), 3, secs(60), 5);
        assert_eq!((in_period.move_time, in_period.clock), (Some(secs(10)), None));
        let main = byo_yomi_limits(secs(5), 0, secs(60), 5);
        assert_eq!(main.move_time, Some(secs(12)));
        assert_eq!(main.clock.map(|c| c.remaining), Some(secs(5)));
        // A little main time left does not hold a move below its byo-yomi share.
        let tm = TimeManager::new(&byo_yomi_limits(secs(1), 0, secs(30), 1), Instant::now());
        assert_eq!(tm.hard, Some(secs(30) - MOVE_OVERHEAD));
        assert!(tm.soft.unwrap() >= scaled(secs(30), SOFT_SHARE) - MOVE_OVERHEAD);
        let sudden_death_over = byo_yomi_limits(Duration::ZERO, 0, Duration::ZERO, 0);
        assert_eq!(sudden_death_over.depth, Some(1));
    }

    #[test]
    fn no_limit_never_expires() {
        let tm = TimeManager::new(&SearchLimits::default(), Instant::now());
        assert!(!tm.hard_expired());
        assert!(tm.may_start_iteration(1.0));
    }
}
