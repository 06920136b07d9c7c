//! Turning [`SearchLimits`] into deadlines.
//!
//! The hard deadline is never crossed: the search polls it every 128 nodes and the answer is
//! due before it. The soft deadline decides whether another iteration is worth
//! starting; it stretches when the best move keeps changing and shrinks when it is stable.
//! Both keep [`MOVE_OVERHEAD`] back for the reply to reach the manager.

use std::time::{Duration, Instant};

use super::limits::SearchLimits;

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
        let mut soft = limits.move_time.map(|t| t.mul_f64(SOFT_SHARE));
        if let Some(clock) = limits.clock {
            let moves = clock.moves_to_go.unwrap_or(EXPECTED_MOVES_LEFT).max(1);
            let share = clock.remaining / moves + clock.increment.mul_f64(0.8);
            let cap = clock.remaining.mul_f64(MAX_CLOCK_SHARE);
            let clock_hard = (share * 3).min(cap);
            let clock_soft = share.min(cap).mul_f64(0.8);
            hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
            soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
        }
        let hard = hard.map(|h| h.saturating_sub(MOVE_OVERHEAD));
        let soft = match (soft, hard) {
            (Some(s), Some(h)) => Some(s.min(h)),
            (s, _) => s,
        };
        TimeManager { start, soft, hard }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The search must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to begin another iteration; `instability` is 1.0 for a settled best move and
    /// grows when it has been changing between iterations.
    pub fn may_start_iteration(&self, instability: f64) -> bool {
        self.soft.is_none_or(|s| self.elapsed() < s.mul_f64(instability.clamp(0.5, 2.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    #[test]
    fn per_move_limit_keeps_the_overhead_back() {
        let tm = TimeManager::new(&SearchLimits::move_time(Duration::from_secs(1)), Instant::now());
        assert_eq!(tm.hard, Some(Duration::from_secs(1) - MOVE_OVERHEAD));
        assert!(tm.soft.unwrap() < tm.hard.unwrap());
    }

    #[test]
    fn clock_limit_never_spends_more_than_its_cap() {
        let limits = SearchLimits {
            clock: Some(Clock { remaining: Duration::from_secs(4), increment: Duration::ZERO, moves_to_go: Some(1) }),
            move_time: Some(Duration::from_secs(30)),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&limits, Instant::now());
        assert_eq!(tm.hard, Some(Duration::from_secs(1) - MOVE_OVERHEAD));
    }

    #[test]
    fn zero_time_expires_at_once() {
        let tm = TimeManager::new(&SearchLimits::move_time(Duration::ZERO), Instant::now());
        assert!(tm.hard_expired());
    }

    #[test]
    fn no_limit_never_expires() {
        let tm = TimeManager::new(&SearchLimits::default(), Instant::now());
        assert!(!tm.hard_expired());
        assert!(tm.may_start_iteration(1.0));
    }
}
