//! The largest times, counts and sizes a protocol or the command line passes on to the engine.
//!
//! A controller may send any number its grammar allows (`time_settings 0 18000000000000000000
//! 1`); the engine's clocks and tables must never see one they cannot represent. Times are
//! clamped, since a longer limit than any game needs means the same as the cap; a table or
//! thread count the machine cannot give is refused with a reason instead, since quietly
//! running with less than asked would surprise the user.

use std::time::Duration;

/// Longest time limit handed to the search: a year is more than any game, and sums and
/// multiples of it stay far from what a [`Duration`] holds.
pub const MAX_TIME: Duration = Duration::from_secs(365 * 24 * 60 * 60);
/// Most search threads: far more than any machine this runs on has cores, and few enough for
/// the operating system to start them all.
pub const MAX_THREADS: usize = 1024;
/// Largest transposition table in MiB (1 TiB); its size in bytes fits every `usize` of 64 bits.
pub const MAX_HASH_MB: usize = 1 << 20;

/// `seconds` (not negative) as a time limit, at most [`MAX_TIME`].
pub fn seconds(seconds: f64) -> Result<Duration, String> {
    if seconds.is_nan() || seconds < 0.0 {
        return Err(format!("{seconds} is not a time in seconds"));
    }
    Ok(Duration::from_secs_f64(seconds.min(MAX_TIME.as_secs_f64())))
}

/// `millis` milliseconds as a time limit, at most [`MAX_TIME`].
pub fn millis(millis: u64) -> Duration {
    Duration::from_millis(millis).min(MAX_TIME)
}

/// A thread count for play on a clock: at most the cores. A move ends only once every helper
/// thread has stopped, and helpers beyond the cores wait for the system to run them, past the
/// move's time.
pub fn on_the_cores(threads: usize) -> usize {
    threads.min(crate::engine::default_threads())
}

/// A thread count from 1 to [`MAX_THREADS`].
pub fn threads(threads: usize) -> Result<usize, String> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(format!("{threads} threads: from 1 to {MAX_THREADS}"))
    }
}

/// A table size in MiB that this machine can give now: asked of the allocator before the
/// table is built, because a table too large for memory aborts the process.
pub fn hash_mb(mb: usize) -> Result<usize, String> {
    if !(1..=MAX_HASH_MB).contains(&mb) {
        return Err(format!("{mb} MB: from 1 to {MAX_HASH_MB}"));
    }
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(mb << 20).map_err(|_| format!("{mb} MB: more memory than this machine can give"))?;
    Ok(mb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_clamped_not_refused() {
        assert_eq!(seconds(1.5), Ok(Duration::from_millis(1_500)));
        assert_eq!(seconds(18e18), Ok(MAX_TIME));
        assert_eq!(seconds(f64::INFINITY), Ok(MAX_TIME));
        assert!(seconds(-1.0).is_err() && seconds(f64::NAN).is_err());
        assert_eq!(millis(u64::MAX), MAX_TIME);
        assert_eq!(millis(250), Duration::from_millis(250));
    }

    #[test]
    fn sizes_the_machine_cannot_give_are_refused() {
        assert_eq!(hash_mb(1), Ok(1));
        assert!(hash_mb(0).is_err());
        assert!(hash_mb(MAX_HASH_MB + 1).unwrap_err().contains("from 1 to"));
        assert!(threads(0).is_err() && threads(MAX_THREADS + 1).is_err());
        assert_eq!(threads(2), Ok(2));
    }
}
