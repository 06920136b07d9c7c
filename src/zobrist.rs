//! Zobrist keys for every game: a SplitMix64 stream from a fixed seed, so the same keys come out
//! in every run and fixed-depth searches stay reproducible.

/// An endless stream of well-mixed 64-bit keys.
pub struct KeyStream {
    state: u64,
}

impl KeyStream {
    pub const fn new(seed: u64) -> Self {
        KeyStream { state: seed }
    }

    pub const fn next_key(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0). The stream is also the project's one seeded generator,
    /// for random movers and test inputs, where the modulo's tiny bias does not matter.
    pub const fn below(&mut self, n: u64) -> u64 {
        self.next_key() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_reproducible_and_distinct() {
        let mut a = KeyStream::new(7);
        let mut b = KeyStream::new(7);
        let keys: Vec<u64> = (0..1000).map(|_| a.next_key()).collect();
        assert!(keys.iter().all(|&k| k == b.next_key()));
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), keys.len());
        let mut dice = KeyStream::new(7);
        let rolls: Vec<u64> = (0..600).map(|_| dice.below(6)).collect();
        assert!((0..6).all(|face| rolls.iter().filter(|&&r| r == face).count() > 60), "{rolls:?}");
    }
}
