//! Sliding and stepping attacks on boards up to 11x11, held in the low 121 bits of a `u128`.
//!
//! Every board size uses one layout, that of the largest board: square `rank * 11 + file` is
//! bit `rank * 11 + file` (a1 = 0, k1 = 10, a11 = 110, k11 = 120); bits 121..128 are always
//! zero. A smaller board is the low-left corner of that grid, and the position counts every
//! square off it as occupied ([`crate::amazons::Position`]), so these functions need not know
//! the size: a ray stops at the board's edge as at an arrow. Queen lines use precomputed rays:
//! the first blocker along a ray is its lowest set bit (rays that climb) or its highest (rays
//! that fall), and the ray beyond it is cut off with the blocker's own ray in the same
//! direction. Measured on 100,000 random boards, this costs about a third of a shift-based
//! Kogge-Stone occluded fill in all eight directions (22 against 70 ns per square on a loaded
//! machine); 128-entry tables that spare the bounds checks gained nothing. For a whole set of
//! squares at once, the frontier of the evaluation's breadth-first searches, the fill wins
//! instead ([`queen_fill`]): switching the distance maps to it raised the search from about
//! 100k to 135k nodes per second.

/// Files (and ranks) of the largest board, and the distance between ranks in every layout.
pub const STRIDE: usize = 11;
pub const SQUARES: usize = STRIDE * STRIDE;
/// The 121 bits of the grid; a board's own squares are [`board_bits`].
pub const GRID: u128 = (1 << SQUARES) - 1;

const FILE_A: u128 = {
    let mut mask = 0;
    let mut rank = 0;
    while rank < STRIDE {
        mask |= 1 << (rank * STRIDE);
        rank += 1;
    }
    mask
};
/// The grid's last file, k: a step east from it would wrap onto the next rank's file a.
const FILE_K: u128 = FILE_A << (STRIDE - 1);

/// The squares of a `width` x `height` board (each 1 to [`STRIDE`]).
pub const fn board_bits(width: usize, height: usize) -> u128 {
    let rank = (1u128 << width) - 1;
    let mut bits = 0;
    let mut r = 0;
    while r < height {
        bits |= rank << (r * STRIDE);
        r += 1;
    }
    bits
}

/// (file step, rank step) of the eight queen directions; the first four climb (the square index
/// grows along them), the last four fall.
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];

/// Squares strictly beyond each square in each direction, up to the edge.
static RAYS: [[u128; SQUARES]; 8] = {
    let mut rays = [[0; SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < SQUARES {
            let (mut file, mut rank) = ((sq % STRIDE) as i32 + df, (sq / STRIDE) as i32 + dr);
            while file >= 0 && file < STRIDE as i32 && rank >= 0 && rank < STRIDE as i32 {
                rays[d][sq] |= 1 << (rank as usize * STRIDE + file as usize);
                file += df;
                rank += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// The up to eight squares a king step away.
static KING: [u128; SQUARES] = {
    let mut king = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        king[sq] = neighbours(1 << sq);
        sq += 1;
    }
    king
};

/// Whether the processor has the population-count instruction: nearly every x86-64 since
/// 2008, but not the baseline Rust compiles for. Without it each `u128` count takes about
/// thirty instructions instead of two, so the functions that mostly count bits (move counts,
/// mobility, the ordering's tables) come in two builds, the `popcnt` one chosen when it can run.
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_popcnt() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
}

/// Empty squares a queen on `sq` reaches in one move, given the occupied squares `occ` (those
/// off the board included).
///
/// A sentinel bit keeps the blocker search branch-free: no climbing ray leaves k11 and no
/// falling ray leaves a1, so when a ray is unblocked its "blocker" is that corner and nothing
/// is cut off; a real blocker, occupied, is removed by the final mask.
#[inline]
pub fn queen_attacks(sq: usize, occ: u128) -> u128 {
    let mut attacks = 0;
    for rays in &RAYS[..4] {
        let ray = rays[sq];
        let first = (ray & occ | 1 << (SQUARES - 1)).trailing_zeros() as usize;
        attacks |= ray ^ rays[first];
    }
    for rays in &RAYS[4..] {
        let ray = rays[sq];
        let first = 127 - (ray & occ | 1).leading_zeros() as usize;
        attacks |= ray ^ rays[first];
    }
    attacks & !occ
}

/// [`queen_attacks`] from `sq`, and how many arrows the queen's moves gain from the square it
/// leaves: landing `n` squares along a line, the queen shoots back through `sq` itself and the
/// `m` empty squares beyond it (`m` the run on the line's other side), so each line with runs
/// `n` and `m` adds `n * (1 + m) + m * (1 + n)`. Counting arrows with `sq` still occupied and
/// adding this spares a walk per queen ([`count_queen_moves`] can then take all queens at once).
#[inline]
pub fn queen_attacks_and_vacating_gain(sq: usize, occ: u128) -> (u128, u32) {
    let (mut attacks, mut gain) = (0, 0);
    for d in 0..4 {
        let (up, down) = (RAYS[d][sq], RAYS[d + 4][sq]);
        let first_up = (up & occ | 1 << (SQUARES - 1)).trailing_zeros() as usize;
        let first_down = 127 - (down & occ | 1).leading_zeros() as usize;
        let (up, down) = ((up ^ RAYS[d][first_up]) & !occ, (down ^ RAYS[d + 4][first_down]) & !occ);
        let (n, m) = (up.count_ones(), down.count_ones());
        gain += n + m + 2 * n * m;
        attacks |= up | down;
    }
    (attacks, gain)
}

/// Empty squares one queen move away from any square of `set`, all squares at once: for each
/// direction a Kogge-Stone occluded fill (slides of 1, 2, 4 and 8 steps through `empty`),
/// then one more step. For one square the rays are cheaper; for the frontier of a
/// breadth-first search, dozens of squares, this is.
#[inline]
pub fn queen_fill(set: u128, empty: u128) -> u128 {
    // Propagators: an eastward slide never enters file a, a westward one never enters file k.
    let (east, west) = (empty & !FILE_A, empty & !FILE_K);
    let climb = |step: u32, through: u128| {
        let (mut reached, mut open) = (set, through);
        reached |= open & reached << step;
        open &= open << step;
        reached |= open & reached << (2 * step);
        open &= open << (2 * step);
        reached |= open & reached << (4 * step);
        open &= open << (4 * step);
        reached |= open & reached << (8 * step);
        reached << step & through
    };
    let fall = |step: u32, through: u128| {
        let (mut reached, mut open) = (set, through);
        reached |= open & reached >> step;
        open &= open >> step;
        reached |= open & reached >> (2 * step);
        open &= open >> (2 * step);
        reached |= open & reached >> (4 * step);
        open &= open >> (4 * step);
        reached |= open & reached >> (8 * step);
        reached >> step & through
    };
    let north = STRIDE as u32;
    climb(north, empty)
        | fall(north, empty)
        | climb(1, east)
        | fall(1, west)
        | climb(north + 1, east)
        | fall(north + 1, west)
        | climb(north - 1, west)
        | fall(north - 1, east)
}

/// Number of queen moves from all squares of `set` together (each square counted with all of
/// its moves, not a union): every direction walks the whole set forward one step at a time
/// through `empty`, counting the squares it still reaches. Move counts count arrows this way
/// instead of one ray lookup per landing square.
#[inline(always)]
pub fn count_queen_moves(set: u128, empty: u128) -> u32 {
    let (east, west) = (empty & !FILE_A, empty & !FILE_K);
    let north = STRIDE as u32;
    let mut count = 0;
    for (step, through) in [(north, empty), (1, east), (north + 1, east), (north - 1, west)] {
        let mut front = set;
        loop {
            front = front << step & through;
            if front == 0 {
                break;
            }
            count += front.count_ones();
        }
    }
    for (step, through) in [(north, empty), (1, west), (north + 1, west), (north - 1, east)] {
        let mut front = set;
        loop {
            front = front >> step & through;
            if front == 0 {
                break;
            }
            count += front.count_ones();
        }
    }
    count
}

/// Squares a king step away from `sq`.
#[inline]
pub fn king_attacks(sq: usize) -> u128 {
    KING[sq]
}

/// Squares of the grid a king step away from any square of `set`, by shifts: one step per
/// direction for the whole set at once.
#[inline]
pub const fn neighbours(set: u128) -> u128 {
    let not_a = set & !FILE_A;
    let not_k = set & !FILE_K;
    let vertical = set << STRIDE | set >> STRIDE;
    let east = not_k << 1 | not_k << (STRIDE + 1) | not_k >> (STRIDE - 1);
    let west = not_a >> 1 | not_a << (STRIDE - 1) | not_a >> (STRIDE + 1);
    (vertical | east | west) & GRID
}

/// Whether `a` and `b` share a rank, file or diagonal (and differ), with the squares strictly
/// between them when they do.
pub fn line_between(a: usize, b: usize) -> Option<u128> {
    (0..8).find(|&d| RAYS[d][a] >> b & 1 == 1).map(|d| RAYS[d][a] & !RAYS[d][b] & !(1 << b))
}

/// Set squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u128);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zobrist::KeyStream;

    /// Reference: walk each direction square by square, inside a `width` x `height` board.
    fn slow_queen_attacks(sq: usize, occ: u128, width: usize, height: usize) -> u128 {
        let mut attacks = 0;
        for (df, dr) in DIRECTIONS {
            let (mut file, mut rank) = ((sq % STRIDE) as i32 + df, (sq / STRIDE) as i32 + dr);
            while (0..width as i32).contains(&file) && (0..height as i32).contains(&rank) {
                let bit = 1u128 << (rank as usize * STRIDE + file as usize);
                if occ & bit != 0 {
                    break;
                }
                attacks |= bit;
                file += df;
                rank += dr;
            }
        }
        attacks
    }

    /// On the whole grid and on smaller boards, whose squares off the board count as occupied.
    #[test]
    fn ray_attacks_match_a_square_by_square_walk() {
        let mut next = random_squares(0x1234_5678_9abc_def1);
        for (width, height) in [(11, 11), (10, 10), (5, 5), (6, 5), (5, 6), (8, 8)] {
            let outside = GRID & !board_bits(width, height);
            for _ in 0..500 {
                let occ = (0..40).fold(0, |occ, _| occ | next()) | outside;
                for sq in Bits(board_bits(width, height)) {
                    let expected = slow_queen_attacks(sq, occ & !(1 << sq), width, height);
                    assert_eq!(queen_attacks(sq, occ), expected, "{sq} {occ:x}");
                }
            }
        }
        assert_eq!(queen_attacks(0, 0).count_ones(), 30);
        assert_eq!(queen_attacks(60, 0).count_ones(), 40);
        assert_eq!(queen_attacks(0, GRID & !board_bits(10, 10)).count_ones(), 27);
    }

    #[test]
    fn board_bits_are_the_low_left_corner_of_the_grid() {
        assert_eq!(board_bits(STRIDE, STRIDE), GRID);
        assert_eq!(board_bits(10, 10).count_ones(), 100);
        assert_eq!(board_bits(6, 5), 0x3f | 0x3f << 11 | 0x3f << 22 | 0x3f << 33 | 0x3f << 44);
    }

    /// Random single-square sets from the key stream, reproducible from `seed`.
    fn random_squares(seed: u64) -> impl FnMut() -> u128 {
        let mut keys = KeyStream::new(seed);
        move || 1u128 << (keys.next_key() % SQUARES as u64)
    }

    #[test]
    fn set_fill_is_the_union_of_ray_attacks() {
        let mut next = random_squares(0x00dd_ba11_cafe_5eed);
        for _ in 0..2_000 {
            let occ = (0..35).fold(0, |occ, _| occ | next());
            let set = (0..8).fold(0, |set, _| set | next()) & !occ;
            let union = Bits(set).fold(0, |all, sq| all | queen_attacks(sq, occ));
            assert_eq!(queen_fill(set, !occ & GRID), union, "{set:x} {occ:x}");
        }
        assert_eq!(queen_fill(1 << 60, GRID & !(1 << 60)).count_ones(), 40);
    }

    #[test]
    fn move_counts_sum_the_ray_attacks() {
        let mut next = random_squares(0x5eed_1234_abcd_9876);
        for _ in 0..2_000 {
            let occ = (0..35).fold(0, |occ, _| occ | next());
            let set = (0..20).fold(0, |set, _| set | next()) & !occ;
            let total: u32 = Bits(set).map(|sq| queen_attacks(sq, occ).count_ones()).sum();
            assert_eq!(count_queen_moves(set, !occ & GRID), total, "{set:x} {occ:x}");
        }
    }

    #[test]
    fn neighbours_do_not_wrap() {
        assert_eq!(king_attacks(0), 1 << 1 | 1 << 11 | 1 << 12);
        assert_eq!(king_attacks(10), 1 << 9 | 1 << 20 | 1 << 21);
        assert_eq!(king_attacks(120), 1 << 119 | 1 << 109 | 1 << 108);
        assert_eq!(king_attacks(60).count_ones(), 8);
        assert_eq!(neighbours(1 << 0 | 1 << 120), king_attacks(0) | king_attacks(120));
    }

    #[test]
    fn lines_between_squares() {
        assert_eq!(line_between(3, 69), Some(1 << 14 | 1 << 25 | 1 << 36 | 1 << 47 | 1 << 58));
        assert_eq!(line_between(0, 12), Some(0));
        assert_eq!(line_between(0, 13), None);
        assert_eq!(line_between(5, 5), None);
        assert_eq!(line_between(10, 0), Some(0x3fe));
    }
}
