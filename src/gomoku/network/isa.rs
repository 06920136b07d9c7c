//! Proof of what the processor runs, for the network's kernels: an `Isa<true>` exists only
//! where the processor has AVX2, because only [`Isa::avx2`] makes one, after asking it. The
//! kernels with an AVX2 form take the proof, so no safe function can reach AVX2's
//! instructions on a processor without them; it is zero-sized and costs nothing.

/// `Isa<true>`: the processor has AVX2. `Isa<false>`: nothing is asked of it.
#[derive(Clone, Copy)]
pub(super) struct Isa<const AVX2: bool>(());

impl Isa<false> {
    /// The portable instructions, which every processor runs.
    pub(super) const PORTABLE: Isa<false> = Isa(());
}

impl Isa<true> {
    /// The proof, where the processor has AVX2 (never, off x86-64).
    pub(super) fn avx2() -> Option<Isa<true>> {
        #[cfg(target_arch = "x86_64")]
        return std::arch::is_x86_feature_detected!("avx2").then_some(Isa(()));
        #[cfg(not(target_arch = "x86_64"))]
        None
    }
}
