//! The learned pattern evaluation: a network read from the integer file `scripts/learn/export.py`
//! writes (layout and arithmetic in `scripts/learn/MODEL.md`), evaluated two ways with the same
//! results to the bit: from scratch on a board ([`Network::evaluate`]: the reference that
//! `arbor evaluate --network` reports and the trainer's numpy code is checked against), and
//! incrementally inside the board as stones come and go ([`Accumulator`]: what the search
//! reads). [`play_with`] picks the network the boards of a process play with.

mod incremental;
mod isa;

use std::io::Read;
use std::sync::OnceLock;

pub(crate) use incremental::{Accumulator, Recoded, Relined};

use self::isa::Isa;
use super::{Board, Color, MAX_SIZE, MIN_SIZE, Move, Rule};
use crate::score::{MAX_EVAL, Score};

/// Numbers per shape and per cell. The engine's arithmetic is written for this width (rows of
/// fixed size, which the compiler vectorises); a file of another width is refused.
pub const DIM: usize = 32;

const MAGIC: &[u8; 4] = b"ARBN";
/// Version 3 names the value head's pooling in byte 20; version 2 has a zero there, one mean
/// over the board.
const VERSIONS: [u8; 2] = [2, 3];
/// What a cell holds, the value head's pools when it reads a mean per content: empty, black,
/// white (the network's cell codes).
const CONTENTS: usize = 3;
/// Threat levels of a colour at an empty cell (MODEL.md step 3): under three, three, four or five.
const LEVELS: usize = 3;
/// The threat classes: an empty cell's by both colours' levels, then black and white stones.
const THREAT_POOLS: usize = LEVELS * LEVELS + 2;
/// The four classes: an empty cell's by whether each colour makes a four (or five) there, then
/// black and white stones; the threat classes' split that matters most, in about half their
/// pools (`docs/strength.md`, issue 37, stop 64).
const FOUR_POOLS: usize = 2 * 2 + 2;
/// The most pools a value head reads.
const MAX_POOLS: usize = THREAT_POOLS;
/// The value head's pools by its pooling, byte 20 of the file (MODEL.md): one mean over the
/// board, a mean per cell content, a mean per threat class, a mean per four class.
const POOLS_BY_POOLING: [usize; 4] = [1, CONTENTS, THREAT_POOLS, FOUR_POOLS];
const HEADER_BYTES: usize = 32;
/// Activation 1.0 as an integer.
const ACTIVATION_ONE: i16 = 1023;
/// Weight 1.0 is `1 << WEIGHT_SHIFT`.
const WEIGHT_SHIFT: u32 = 10;
/// Extra bits of the cells' mean read by the value head: the mean stays within 16 bits.
const POOL_SHIFT: u32 = 5;
const KEY_SPACE: usize = 1 << 18;
const WALL: u32 = 3;
const NO_SHAPE: u16 = u16::MAX;
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
const OFFSETS: [isize; 8] = [-4, -3, -2, -1, 1, 2, 3, 4];

/// `DIM` numbers, aligned so that a row is one cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Row(pub(crate) [i16; DIM]);

impl Row {
    const ZERO: Row = Row([0; DIM]);
}

pub struct Network {
    cell_layer: bool,
    /// Engine score units per value logit.
    score_scale: f32,
    /// Shape number of every 18-bit key whose centre is on the board ([`shape_numbers`]).
    shape_of_key: Box<[u16; KEY_SPACE]>,
    /// By shape number, its centre's threat levels where empty ([`threat_code`]); sized for
    /// every `u16`, so that a shape number needs no bounds check.
    threat_of_shape: Box<[u8; 1 << 16]>,
    codebook: Vec<Row>,
    bias0: Row,
    cell: Layer,
    /// By side to move (Black, White).
    heads: [Head; 2],
    /// Rule and board size the network was trained on (`None`: a rule code this build lacks).
    trained_on: (Rule, usize),
}

/// A layer of `DIM` outputs from `DIM` inputs, summed in 32 bits.
struct Layer {
    /// The weights by pairs of inputs: for inputs 2p and 2p + 1, each output's two weights side
    /// by side, the order of the 16-bit multiply-add of neighbouring pairs into 32 bits that
    /// processors have (pmaddwd).
    w: Vec<[i16; 2 * DIM]>,
    b: [i32; DIM],
}

/// The value and policy heads of one side to move.
struct Head {
    /// Its first layer, by the pool it reads ([`POOLS_BY_POOLING`]), the bias in the first's,
    /// stored times `1 << POOL_SHIFT`, the scale of its inputs; the others' are zero.
    v1: Vec<Layer>,
    v2_w: Row,
    v2_b: i32,
    p_w: Row,
}

/// A position's value and policy, both at the scale activation 1.0 times weight 1.0.
pub struct Evaluation {
    /// The logit of the side to move's winning chance.
    pub value: i64,
    /// Every empty cell's policy logit.
    pub policy: Vec<(Move, i64)>,
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let (head, rest) = self.0.split_first_chunk::<N>().ok_or("the network file is cut short")?;
        self.0 = rest;
        Ok(*head)
    }

    fn i16s(&mut self, count: usize) -> Result<Vec<i16>, String> {
        (0..count).map(|_| self.take().map(i16::from_le_bytes)).collect()
    }

    fn i32s(&mut self, count: usize) -> Result<Vec<i32>, String> {
        (0..count).map(|_| self.take().map(i32::from_le_bytes)).collect()
    }

    /// `count` layers of `pools` times `DIM` inputs, each as `pools` layers of `DIM`: their
    /// weights, then their biases, which are multiplied by `1 << bias_shift` and go to the
    /// first of each.
    fn layers(&mut self, count: usize, pools: usize, bias_shift: u32) -> Result<Vec<Vec<Layer>>, String> {
        let mut layers = (0..count)
            .map(|_| (0..pools).map(|_| self.rows(DIM).map(|rows| Layer { w: paired(&rows), b: [0; DIM] })).collect())
            .collect::<Result<Vec<Vec<_>>, _>>()?;
        for layer in &mut layers {
            let b = self.i32s(DIM)?.iter().map(|&b| b.checked_mul(1 << bias_shift)).collect::<Option<Vec<_>>>();
            layer[0].b = b.ok_or("a bias too large for 32 bits")?.try_into().expect("DIM numbers");
        }
        Ok(layers)
    }

    fn rows(&mut self, count: usize) -> Result<Vec<Row>, String> {
        let numbers = self.i16s(count * DIM)?;
        Ok(numbers.chunks_exact(DIM).map(|chunk| Row(chunk.try_into().expect("DIM numbers"))).collect())
    }
}

/// The key read the other way along its line: neighbour slots i and 7 - i swap.
fn mirror(key: u32) -> u32 {
    let mut out = key & !0xFFFF;
    for slot in 0..8 {
        out |= ((key >> (2 * slot)) & 3) << (2 * (7 - slot));
    }
    out
}

/// The key with every cell beyond a wall walled too, read outwards from the centre on each side
/// (slots 3..0 are the cells 1..4 before the centre, 4..7 those 1..4 after it): a wall ends a
/// line as the board's edge does.
fn walled_beyond(key: u32) -> u32 {
    let mut out = key;
    for side in [[3, 2, 1, 0], [4, 5, 6, 7]] {
        if let Some(first) = side.iter().position(|&slot| (key >> (2 * slot)) & 3 == WALL) {
            for &slot in &side[first..] {
                out |= WALL << (2 * slot);
            }
        }
    }
    out
}

/// Whether a key can be read off a board: the centre on it, and past a wall only walls.
fn valid(key: u32) -> bool {
    key >> 16 != WALL && walled_beyond(key) == key
}

/// Shape numbers: a valid key's is the rank of min(key, mirror(key)) among those of all valid
/// keys, as the trainer numbers them; any other key whose centre is on the board has the number
/// of its [`walled_beyond`] form, so that a line key read with walls inside it (Yixin's blocked
/// points) needs no cleaning first.
fn shape_numbers() -> (Box<[u16; KEY_SPACE]>, Vec<u32>) {
    let canonical = |key: u32| key.min(mirror(key));
    let mut shapes: Vec<u32> = (0..KEY_SPACE as u32).filter(|&key| valid(key)).map(canonical).collect();
    shapes.sort_unstable();
    shapes.dedup();
    let mut table = vec![NO_SHAPE; KEY_SPACE];
    for key in (0..KEY_SPACE as u32).filter(|&key| key >> 16 != WALL) {
        let shape = shapes.binary_search(&canonical(walled_beyond(key))).expect("a valid key's shape");
        table[key as usize] = shape as u16;
    }
    (table.into_boxed_slice().try_into().expect("a table of every key"), shapes)
}

/// The threat levels of a key's centre, where empty, for each colour: the most stones of that
/// colour that a stone of it there makes in a five-cell window through the centre holding no
/// wall and no stone of the other colour, as a level (0 under three, 1 three, 2 four or five).
/// Coded so that the levels of a cell's four lines combine by OR into the most of each: black's
/// in bits 0-1 and white's in bits 2-3, level 1 as 0b01 and 2 as 0b11.
fn threat_code(key: u32) -> u8 {
    if key >> 16 != 0 {
        return 0;
    }
    let mut line = [0; 9];
    for (slot, offset) in OFFSETS.iter().enumerate() {
        line[(offset + 4) as usize] = (key >> (2 * slot)) & 3;
    }
    let mut code = 0;
    for (colour, bits) in [(1, 0), (2, 2)] {
        line[4] = colour;
        let most = line
            .windows(5)
            .filter(|window| window.iter().all(|&c| c == 0 || c == colour))
            .map(|window| window.iter().filter(|&&c| c == colour).count())
            .max()
            .unwrap_or(0);
        let level = most.saturating_sub(2).min(LEVELS - 1);
        code |= ((1_u8 << level) - 1) << bits;
    }
    code
}

/// The threat class (pool) of an empty cell whose four lines' codes OR to `code`
/// ([`threat_code`]): 3 x black's level + white's.
#[inline(always)]
fn threat_class(code: u8) -> usize {
    usize::from(THREAT_CLASSES[usize::from(code & 15)])
}

/// Whether a value head of `pools` pools reads classes (threat or four), an empty cell's from
/// its lines' threat codes, rather than one pool or the cells' contents.
const fn by_class(pools: usize) -> bool {
    pools == THREAT_POOLS || pools == FOUR_POOLS
}

/// The pool of an empty cell whose four lines' codes OR to `code` for a value head of `POOLS`
/// pools, [`THREAT_POOLS`] or [`FOUR_POOLS`]: its threat class, or its four class, 2 x whether
/// black makes a four + whether white does (level 2 sets a colour's high bit).
#[inline(always)]
fn empty_class<const POOLS: usize>(code: u8) -> usize {
    if POOLS == FOUR_POOLS { usize::from(code >> 1 & 1) * 2 + usize::from(code >> 3 & 1) } else { threat_class(code) }
}

/// [`threat_class`] by code, a table: counting bits is a dozen instructions where the
/// processor's count is not assumed.
const THREAT_CLASSES: [u8; 16] = {
    let mut classes = [0; 16];
    let mut code = 0;
    while code < 16 {
        classes[code] = (LEVELS as u32 * (code as u32 & 3).count_ones() + (code as u32 >> 2 & 3).count_ones()) as u8;
        code += 1;
    }
    classes
};

impl Network {
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let header = bytes.get(..HEADER_BYTES).ok_or("the network file is cut short")?;
        if &header[..4] != MAGIC || !VERSIONS.contains(&header[4]) {
            return Err("not a network file of version 2 or 3 (scripts/learn/MODEL.md)".to_string());
        }
        // Every byte has one meaning (MODEL.md): a file that says anything else was not made by
        // `export.py`, and reading it as if it were would play a different network.
        let pooling = usize::from(header[20]);
        if header[5] > 1 || pooling >= POOLS_BY_POOLING.len() || (header[4] == 2 && pooling != 0) {
            return Err(format!("header bytes 5 and 20 are {} and {pooling}: no such network", header[5]));
        }
        if header[21..].iter().any(|&byte| byte != 0) {
            return Err("header bytes 21-31 are not zero".to_string());
        }
        let rule = Rule::from_code(header[6]).ok_or_else(|| format!("no rule {} (FORMAT.md)", header[6]))?;
        let size = usize::from(header[7]);
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!("trained on size {size}, outside {MIN_SIZE}..={MAX_SIZE}"));
        }
        let cell_layer = header[5] == 1;
        let dim = usize::from(u16::from_le_bytes([header[8], header[9]]));
        let hidden = usize::from(u16::from_le_bytes([header[10], header[11]]));
        let score_scale = f32::from_le_bytes([header[12], header[13], header[14], header[15]]);
        let shapes = u32::from_le_bytes([header[16], header[17], header[18], header[19]]) as usize;
        let (shape_of_key, keys) = shape_numbers();
        let expected = keys.len();
        if shapes != expected || dim != DIM || hidden != DIM {
            return Err(format!(
                "{shapes} shapes of {dim} numbers, hidden {hidden}: the engine takes {expected} shapes of {DIM}, hidden {DIM}"
            ));
        }
        if !(score_scale.is_finite() && score_scale > 0.0) {
            return Err(format!("score scale {score_scale}"));
        }
        let mut reader = Reader(&bytes[HEADER_BYTES..]);
        let codebook = reader.rows(shapes)?;
        let bias0 = reader.rows(1)?[0];
        let cell = reader.layers(1, 1, 0)?.remove(0).remove(0);
        let pools = POOLS_BY_POOLING[pooling];
        let v1: [Vec<Layer>; 2] = reader.layers(2, pools, POOL_SHIFT)?.try_into().unwrap_or_else(|_| unreachable!());
        let v2_w = reader.rows(2)?;
        let v2_b = reader.i32s(2)?;
        let p_w = reader.rows(2)?;
        if !reader.0.is_empty() {
            return Err(format!("{} bytes after the last array", reader.0.len()));
        }
        let [black, white] = v1;
        let head = |v1, side: usize| Head { v1, v2_w: v2_w[side], v2_b: v2_b[side], p_w: p_w[side] };
        let network = Network {
            cell_layer,
            score_scale,
            shape_of_key,
            threat_of_shape: {
                let mut codes = Box::new([0; 1 << 16]);
                for (code, key) in codes.iter_mut().zip(keys) {
                    *code = threat_code(key);
                }
                codes
            },
            codebook,
            bias0,
            cell,
            heads: [head(black, 0), head(white, 1)],
            trained_on: (rule, size),
        };
        network.check_ranges()?;
        Ok(network)
    }

    /// The engine keeps a cell's sums in i16 and the layers' in i32: refuses weights that could
    /// overflow them, so that all stay exact.
    fn check_ranges(&self) -> Result<(), String> {
        for j in 0..DIM {
            let largest = self.codebook.iter().map(|row| i32::from(row.0[j]).abs()).max().unwrap_or(0);
            if i32::from(self.bias0.0[j]).abs() + 4 * largest > i32::from(i16::MAX) {
                return Err(format!("a cell's sum of feature {j} could overflow 16 bits"));
            }
        }
        check_layers(std::slice::from_ref(&self.cell), ACTIVATION_ONE, "the cell layer")?;
        for head in &self.heads {
            check_layers(&head.v1, ACTIVATION_ONE << POOL_SHIFT, "the value head")?;
        }
        Ok(())
    }

    /// The network with a per-cell layer of small pseudo-random weights in place of its own,
    /// so that tests cover the layer's code whichever form the embedded network has.
    #[cfg(test)]
    pub(crate) fn with_test_cell_layer(mut self) -> Network {
        let mut next = test_weights(0x2545_F491_4F6C_DD1D);
        let rows: Vec<Row> = (0..DIM).map(|_| Row(std::array::from_fn(|_| next()))).collect();
        self.cell = Layer { w: paired(&rows), b: std::array::from_fn(|_| i32::from(next()) * 1024) };
        self.cell_layer = true;
        self.check_ranges().expect("small weights");
        self
    }

    /// The network with a value head that reads a mean per cell content, as
    /// [`Network::with_test_pools`].
    #[cfg(test)]
    pub(crate) fn with_test_content_pools(self) -> Network {
        self.with_test_pools(CONTENTS, 0x9E6C_63D0_676A_9A99)
    }

    /// The network with a value head that reads a mean per threat class, as
    /// [`Network::with_test_pools`].
    #[cfg(test)]
    pub(crate) fn with_test_threat_pools(self) -> Network {
        self.with_test_pools(THREAT_POOLS, 0x5851_F42D_4C95_7F2D)
    }

    /// The network with a value head that reads a mean per four class, as
    /// [`Network::with_test_pools`].
    #[cfg(test)]
    pub(crate) fn with_test_four_pools(self) -> Network {
        self.with_test_pools(FOUR_POOLS, 0x2F69_3B4C_0D1E_A7C5)
    }

    /// The network with a value head that reads `pools` means: its own first layer for the
    /// first pool, small pseudo-random ones from `seed` for the others, so that tests cover the
    /// pools whichever form the embedded network has.
    #[cfg(test)]
    fn with_test_pools(mut self, pools: usize, seed: u64) -> Network {
        let mut next = test_weights(seed);
        for head in &mut self.heads {
            head.v1.truncate(1);
            for _ in 1..pools {
                let rows: Vec<Row> = (0..DIM).map(|_| Row(std::array::from_fn(|_| next()))).collect();
                head.v1.push(Layer { w: paired(&rows), b: [0; DIM] });
            }
        }
        self.check_ranges().expect("small weights");
        self
    }

    /// The rule and board size of its training data.
    pub fn trained_on(&self) -> (Rule, usize) {
        self.trained_on
    }

    /// Whether it evaluates boards of this rule and size: those it was trained on.
    pub fn plays(&self, rule: Rule, width: usize, height: usize) -> bool {
        self.trained_on == (rule, width) && width == height
    }

    /// The shape number of a key whose centre is on the board. Keys have 18 bits: taken
    /// modulo the table's size, they need no bounds check.
    #[inline(always)]
    fn shape(&self, key: u32) -> u16 {
        self.shape_of_key[key as usize % KEY_SPACE]
    }

    /// A cell's activations from its sums, with the portable arithmetic.
    fn activation(&self, sums: &Row) -> Row {
        if self.cell_layer {
            self.activate::<false, true>(sums, Isa::PORTABLE)
        } else {
            self.activate::<false, false>(sums, Isa::PORTABLE)
        }
    }

    /// A cell's activations `h` from its sums `s` (MODEL.md steps 1 and 2), for this network,
    /// which has its cell layer where `LAYER`; with AVX2 (`isa` proving the processor has it),
    /// the cell layer uses its multiply-add.
    #[inline(always)]
    fn activate<const AVX2: bool, const LAYER: bool>(&self, sums: &Row, isa: Isa<AVX2>) -> Row {
        debug_assert_eq!(LAYER, self.cell_layer);
        // A loop rather than `map`, which the compiler left out of line, outside the AVX2 code.
        let mut active = *sums;
        for s in &mut active.0 {
            *s = (*s).clamp(0, ACTIVATION_ONE);
        }
        if !LAYER {
            return active;
        }
        let totals = self.cell.totals(&active, isa);
        Row(totals.map(|total| (total >> WEIGHT_SHIFT).clamp(0, i32::from(ACTIVATION_ONE)) as i16))
    }

    /// The number of the value head's pools: one, one a cell content, one a threat class or one
    /// a four class.
    fn pools(&self) -> usize {
        self.heads[0].v1.len()
    }

    /// The pool of a cell of code `code` (not a wall) and shapes `shapes`, as [`pool`] for
    /// this network.
    fn pool(&self, code: u8, shapes: &[u16; 4]) -> usize {
        match self.pools() {
            1 => pool::<1>(self, code, shapes),
            CONTENTS => pool::<CONTENTS>(self, code, shapes),
            FOUR_POOLS => pool::<FOUR_POOLS>(self, code, shapes),
            _ => pool::<THREAT_POOLS>(self, code, shapes),
        }
    }

    /// The value logit for `side` to move of a board whose cells' activations sum to `pools`,
    /// one total a pool, averaged by `mean` (MODEL.md step 3); in AVX2's instructions where
    /// `avx2` proves the processor has them.
    #[inline(always)]
    fn value(&self, pools: &[[i32; DIM]], mean: Mean, side: Color, avx2: Option<Isa<true>>) -> i64 {
        let head = &self.heads[side.index()];
        debug_assert_eq!(pools.len(), head.v1.len());
        #[cfg(target_arch = "x86_64")]
        if avx2.is_some() {
            // SAFETY: an `Isa<true>` exists only where the processor has AVX2.
            return unsafe { head.value_avx2(pools, mean) };
        }
        head.value(pools, mean)
    }

    /// An empty cell's policy logit for `side` to move from its activations (MODEL.md step 4).
    #[inline]
    fn policy(&self, acts: &Row, side: Color) -> i64 {
        let weights = &self.heads[side.index()].p_w;
        i64::from(acts.0.iter().zip(&weights.0).map(|(&h, &w)| i32::from(h) * i32::from(w)).sum::<i32>())
    }

    /// [`Network::policy`] from the sums of a cell of a network without its cell layer, whose
    /// activations are its sums clipped. In SSE2's instructions: left to itself, the compiler
    /// turned the clipped numbers' known range into a slower multiplication.
    #[inline]
    fn policy_of_sums(&self, sums: &Row, side: Color) -> i64 {
        debug_assert!(!self.cell_layer);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86_64; each row is 64 bytes aligned to 64: four aligned
        // quarters.
        unsafe {
            use std::arch::x86_64::*;
            let (zero, one) = (_mm_setzero_si128(), _mm_set1_epi16(ACTIVATION_ONE));
            let sums: *const __m128i = sums.0.as_ptr().cast();
            let weights: *const __m128i = self.heads[side.index()].p_w.0.as_ptr().cast();
            let mut total = zero;
            for k in 0..4 {
                let acts = _mm_min_epi16(_mm_max_epi16(_mm_load_si128(sums.add(k)), zero), one);
                total = _mm_add_epi32(total, _mm_madd_epi16(acts, _mm_load_si128(weights.add(k))));
            }
            let total = _mm_add_epi32(total, _mm_shuffle_epi32::<0b01_00_11_10>(total));
            let total = _mm_add_epi32(total, _mm_shuffle_epi32::<0b10_11_00_01>(total));
            i64::from(_mm_cvtsi128_si32(total))
        }
        #[cfg(not(target_arch = "x86_64"))]
        self.policy(&self.activation(sums), side)
    }

    /// A value logit in engine score units, inside the evaluation's bounds.
    fn score(&self, value: i64) -> Score {
        let logit = value as f64 / (f64::from(ACTIVATION_ONE) * f64::from(1 << WEIGHT_SHIFT));
        let bound = f64::from(MAX_EVAL - 1);
        (logit * f64::from(self.score_scale)).clamp(-bound, bound) as Score
    }

    /// Cell code: 0 empty, 1 black, 2 white, 3 off the board (or walled).
    fn code(board: &Board, x: isize, y: isize) -> u32 {
        let inside = (0..board.width() as isize).contains(&x) && (0..board.height() as isize).contains(&y);
        let Some(mv) = inside.then(|| Move::new(x as usize, y as usize)).flatten() else { return WALL };
        match board.stone(mv) {
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
            None if board.is_empty(mv) => 0,
            None => WALL,
        }
    }

    /// The activations and the shapes of the cell at `x`, `y`, of code `centre` (not a wall),
    /// read off the board.
    fn cell(&self, board: &Board, x: isize, y: isize, centre: u32) -> (Row, [u16; 4]) {
        debug_assert_ne!(centre, WALL);
        let mut sums = self.bias0;
        let mut shapes = [0; 4];
        for (d, (dx, dy)) in DIRECTIONS.into_iter().enumerate() {
            let mut key = centre << 16;
            // Each side read outwards from the centre: past a wall, everything reads as one.
            for side_slots in [[3, 2, 1, 0], [4, 5, 6, 7]] {
                let mut code = 0;
                for slot in side_slots {
                    if code != WALL {
                        let k = OFFSETS[slot];
                        code = Self::code(board, x + k * dx, y + k * dy);
                    }
                    key |= code << (2 * slot);
                }
            }
            shapes[d] = self.shape(key);
            for (s, &c) in sums.0.iter_mut().zip(&self.codebook[usize::from(shapes[d])].0) {
                *s += c;
            }
        }
        (self.activation(&sums), shapes)
    }

    /// The value and policy of `board` for its side to move, from scratch.
    pub fn evaluate(&self, board: &Board) -> Evaluation {
        let side = board.side_to_move();
        let mut pooled = [[0_i32; DIM]; MAX_POOLS];
        let mut policy = Vec::new();
        for y in 0..board.height() {
            for x in 0..board.width() {
                let content = Self::code(board, x as isize, y as isize);
                if content == WALL {
                    continue;
                }
                let (acts, shapes) = self.cell(board, x as isize, y as isize, content);
                for (p, &h) in pooled[self.pool(content as u8, &shapes)].iter_mut().zip(&acts.0) {
                    *p += i32::from(h);
                }
                let mv = Move::new(x, y).expect("a cell of the board");
                if board.is_empty(mv) {
                    policy.push((mv, self.policy(&acts, side)));
                }
            }
        }
        let value = self.value(&pooled[..self.pools()], Mean::of_cells(board.width() * board.height()), side, None);
        Evaluation { value, policy }
    }
}

/// The pools of a cell of code `code` (not a wall) for `network`, as [`pool`], before and after
/// its shape in direction `d` went from `shapes[d]` to `new`: for a threat or four class, five
/// look-ups where two calls of [`pool`] make eight.
#[inline(always)]
fn pools_around<const POOLS: usize>(
    network: &Network,
    code: u8,
    shapes: &[u16; 4],
    d: usize,
    new: u16,
) -> (usize, usize) {
    if !by_class(POOLS) || code != 0 {
        let pool = pool::<POOLS>(network, code, shapes);
        return (pool, pool);
    }
    // The four lines' codes a byte each, OR-ed together by folding the word.
    let codes = u32::from_le_bytes(shapes.map(|shape| network.threat_of_shape[usize::from(shape)]));
    let fold = |word: u32| {
        let half = word | word >> 16;
        (half | half >> 8) as u8
    };
    let after = fold(codes & !(0xFF << (8 * (d % 4)))) | network.threat_of_shape[usize::from(new)];
    (empty_class::<POOLS>(fold(codes)), empty_class::<POOLS>(after))
}

/// The pool of a cell of code `code` (not a wall) and shapes `shapes` for `network`, whose
/// value head reads `POOLS` pools: with one, the board's; with [`CONTENTS`], its content; with
/// [`THREAT_POOLS`] or [`FOUR_POOLS`], its class, an empty cell's by its lines' threat levels
/// ([`empty_class`]) and a stone's by its colour, the last two pools.
#[inline(always)]
fn pool<const POOLS: usize>(network: &Network, code: u8, shapes: &[u16; 4]) -> usize {
    match POOLS {
        1 => 0,
        CONTENTS => usize::from(code) % CONTENTS,
        _ if code == 0 => {
            let code = shapes.iter().fold(0, |code, &shape| code | network.threat_of_shape[usize::from(shape)]);
            empty_class::<POOLS>(code)
        }
        _ => (usize::from(code) + POOLS - CONTENTS) % POOLS,
    }
}

/// `policy` (a policy logit, or a difference of two) in units of `per_logit` to a logit. A logit
/// is 1023 * 1024 in the policy's scale; dividing by 1 << 20 instead reads it 0.1 % low, close
/// enough for move ordering and reduction gaps.
#[inline]
pub(crate) fn in_logits(policy: i64, per_logit: i32) -> i32 {
    ((policy * i64::from(per_logit)) >> 20) as i32
}

/// The value head's mean of a pool over a board's cells: `(pool << POOL_SHIFT) / cells`,
/// rounded down, at most ACTIVATION_ONE << POOL_SHIFT (16 bits). A division by a board's fixed
/// number of cells, done by one multiplication a number: with `l` the bits of `cells - 1`,
/// numbers below 2^MEAN_BITS divide exactly as multiplied by ceil(2^(MEAN_BITS + l) / cells),
/// under 2^27, and shifted by MEAN_BITS + l (Granlund and Montgomery's bound), which fits the
/// 32-by-32-bit multiplication of AVX2.
#[derive(Clone, Copy, Debug)]
struct Mean {
    multiplier: u32,
    shift: u32,
}

/// Bits of a pool's total shifted by POOL_SHIFT: 1023 x 1024 << 5, a 32 x 32 board of
/// activations 1.0, is below 2^MEAN_BITS.
const MEAN_BITS: u32 = 26;

impl Mean {
    /// The mean over a board of `cells` cells, at most 32 x 32.
    fn of_cells(cells: usize) -> Mean {
        debug_assert!((1..=1 << 10).contains(&cells));
        let shift = MEAN_BITS + (usize::BITS - (cells - 1).leading_zeros());
        Mean { multiplier: (1_u64 << shift).div_ceil(cells as u64) as u32, shift }
    }

    /// The mean of each of the pool's numbers.
    #[inline(always)]
    fn of(self, pool: &[i32; DIM]) -> Row {
        debug_assert!(pool.iter().all(|&p| (0..1 << (MEAN_BITS - POOL_SHIFT)).contains(&p)));
        Row(pool.map(|p| (((u64::from(p as u32) << POOL_SHIFT) * u64::from(self.multiplier)) >> self.shift) as i16))
    }

    /// [`Mean::of`] in AVX2's instructions, which the compiler left as one scalar
    /// multiplication a number.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn of_avx2(self, pool: &[i32; DIM]) -> Row {
        use std::arch::x86_64::*;
        let multiplier = _mm256_set1_epi64x(i64::from(self.multiplier));
        let shift = _mm_cvtsi32_si128(self.shift as i32);
        let mut out = Row::ZERO;
        // SAFETY: the loads are of 32 bytes inside the pool's 128, the stores of 32 inside the
        // row's 64; unaligned forms.
        unsafe {
            // Eight numbers: the even ones multiplied in place, the odd ones moved down to be
            // multiplied and moved back, each product below 2^53.
            let eight = |k: usize| {
                let x = _mm256_slli_epi32::<{ POOL_SHIFT as i32 }>(_mm256_loadu_si256(pool.as_ptr().add(8 * k).cast()));
                let even = _mm256_srl_epi64(_mm256_mul_epu32(x, multiplier), shift);
                let odd = _mm256_srl_epi64(_mm256_mul_epu32(_mm256_srli_epi64::<32>(x), multiplier), shift);
                _mm256_or_si256(even, _mm256_slli_epi64::<32>(odd))
            };
            for half in 0..2 {
                // Packing works within 128-bit lanes: the permutation puts the quarters back
                // in order.
                let packed = _mm256_packs_epi32(eight(2 * half), eight(2 * half + 1));
                let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                _mm256_storeu_si256(out.0.as_mut_ptr().add(16 * half).cast(), ordered);
            }
        }
        out
    }
}

/// Small pseudo-random weights for tests' networks.
#[cfg(test)]
fn test_weights(mut state: u64) -> impl FnMut() -> i16 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 257) as i16 - 128
    }
}

/// A layer's weights (a row per input) in the order of [`Layer::w`].
fn paired(rows: &[Row]) -> Vec<[i16; 2 * DIM]> {
    rows.chunks_exact(2).map(|two| std::array::from_fn(|k| two[k % 2].0[k / 2])).collect()
}

/// Refuses a layer, read as `layers` by pool, whose sums could leave 32 bits for inputs up to
/// `largest_input`. A cell is in one pool only, so an input's pools add up to `largest_input`
/// at most and its largest weight over the pools bounds it.
fn check_layers(layers: &[Layer], largest_input: i16, name: &str) -> Result<(), String> {
    for out in 0..DIM {
        let mut bound: i64 = layers.iter().map(|layer| i64::from(layer.b[out]).abs()).sum();
        for pair in 0..DIM / 2 {
            for k in 0..2 {
                let largest = layers.iter().map(|layer| i64::from(layer.w[pair][2 * out + k]).abs()).max();
                bound += i64::from(largest_input) * largest.unwrap_or(0);
            }
        }
        if bound > i64::from(i32::MAX) {
            return Err(format!("{name}'s output {out} could overflow 32 bits"));
        }
    }
    Ok(())
}

/// `DIM` 32-bit sums in AVX2's registers.
#[cfg(target_arch = "x86_64")]
type Lanes = [std::arch::x86_64::__m256i; DIM / 8];

/// `numbers` in AVX2's registers.
///
/// # Safety
/// The processor must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load_lanes(numbers: &[i32; DIM]) -> Lanes {
    // SAFETY: each load is of 32 bytes inside the 128 of `numbers`, unaligned.
    std::array::from_fn(|k| unsafe { std::arch::x86_64::_mm256_loadu_si256(numbers.as_ptr().add(8 * k).cast()) })
}

impl Layer {
    /// The sums before any shift; with AVX2 (`_isa` proving the processor has it), with its
    /// multiply-add.
    #[inline(always)]
    fn totals<const AVX2: bool>(&self, inputs: &Row, _isa: Isa<AVX2>) -> [i32; DIM] {
        #[cfg(target_arch = "x86_64")]
        if AVX2 {
            // SAFETY: an `Isa<true>` exists only where the processor has AVX2; each store is
            // of 32 bytes inside the 128 of `totals`, unaligned.
            return unsafe {
                use std::arch::x86_64::*;
                let mut lanes = load_lanes(&self.b);
                self.add_avx2(inputs, &mut lanes);
                let mut totals = [0; DIM];
                for (k, lane) in lanes.iter().enumerate() {
                    _mm256_storeu_si256(totals.as_mut_ptr().add(8 * k).cast(), *lane);
                }
                totals
            };
        }
        let mut totals = self.b;
        self.add(inputs, &mut totals);
        totals
    }

    /// Adds the weighted `inputs`, without the bias, to `totals`.
    #[inline(always)]
    fn add(&self, inputs: &Row, totals: &mut [i32; DIM]) {
        for (pair, weights) in self.w.iter().enumerate() {
            let (a0, a1) = (i32::from(inputs.0[2 * pair]), i32::from(inputs.0[2 * pair + 1]));
            for out in 0..DIM {
                totals[out] += a0 * i32::from(weights[2 * out]) + a1 * i32::from(weights[2 * out + 1]);
            }
        }
    }

    /// [`Layer::add`] with AVX2's 16-bit multiply-add, to the same numbers.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn add_avx2(&self, inputs: &Row, lanes: &mut Lanes) {
        use std::arch::x86_64::*;
        for (pair, weights) in self.w.iter().enumerate() {
            let low = u32::from(inputs.0[2 * pair] as u16);
            let high = u32::from(inputs.0[2 * pair + 1] as u16);
            let both = _mm256_set1_epi32((low | high << 16) as i32);
            for (k, lane) in lanes.iter_mut().enumerate() {
                // SAFETY: a load of 32 bytes inside the pair's 128, unaligned.
                let w = unsafe { _mm256_loadu_si256(weights.as_ptr().add(16 * k).cast()) };
                *lane = _mm256_add_epi32(*lane, _mm256_madd_epi16(both, w));
            }
        }
    }
}

impl Head {
    /// The value logit from the activations' totals `pools`, one a pool, averaged by `mean`
    /// (MODEL.md step 3).
    fn value(&self, pools: &[[i32; DIM]], mean: Mean) -> i64 {
        // The bias is the first layer's, the others' zero; a feature's pools add up to one
        // board's at most, within the bound `check_layers` puts on their sum.
        let mut totals = self.v1[0].b;
        for (layer, pool) in self.v1.iter().zip(pools) {
            layer.add(&mean.of(pool), &mut totals);
        }
        let hidden = totals.map(|t| i64::from((t >> (WEIGHT_SHIFT + POOL_SHIFT)).clamp(0, i32::from(ACTIVATION_ONE))));
        hidden.iter().zip(&self.v2_w.0).map(|(&u, &w)| u * i64::from(w)).sum::<i64>() + i64::from(self.v2_b)
    }

    /// [`Head::value`] in AVX2's instructions, to the same number: every pool's layer summed in
    /// the same registers, and the output layer by 16-bit multiply-add, whose 32 products of
    /// at most 1023 x 2^15 stay within 32 bits.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn value_avx2(&self, pools: &[[i32; DIM]], mean: Mean) -> i64 {
        use std::arch::x86_64::*;
        // SAFETY: the processor has AVX2, as this function's caller must ensure; the output
        // weights are 64 bytes aligned to 64: two aligned halves.
        unsafe {
            let mut lanes = load_lanes(&self.v1[0].b);
            for (layer, pool) in self.v1.iter().zip(pools) {
                // Threat classes are often empty, and an empty pool adds nothing.
                if by_class(pools.len()) && pool.iter().all(|&p| p == 0) {
                    continue;
                }
                layer.add_avx2(&mean.of_avx2(pool), &mut lanes);
            }
            let (zero, one) = (_mm256_setzero_si256(), _mm256_set1_epi32(i32::from(ACTIVATION_ONE)));
            let hidden = lanes.map(|lane| {
                let shifted = _mm256_srai_epi32::<{ (WEIGHT_SHIFT + POOL_SHIFT) as i32 }>(lane);
                _mm256_min_epi32(_mm256_max_epi32(shifted, zero), one)
            });
            let weights: *const __m256i = self.v2_w.0.as_ptr().cast();
            let mut dot = zero;
            for half in 0..2 {
                // Packing works within 128-bit lanes: the permutation puts the quarters back
                // in order.
                let packed = _mm256_packs_epi32(hidden[2 * half], hidden[2 * half + 1]);
                let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                dot = _mm256_add_epi32(dot, _mm256_madd_epi16(ordered, _mm256_load_si256(weights.add(half))));
            }
            let four = _mm_add_epi32(_mm256_castsi256_si128(dot), _mm256_extracti128_si256::<1>(dot));
            let two = _mm_add_epi32(four, _mm_shuffle_epi32::<0b01_00_11_10>(four));
            let one = _mm_add_epi32(two, _mm_shuffle_epi32::<0b10_11_00_01>(two));
            i64::from(_mm_cvtsi128_si32(one)) + i64::from(self.v2_b)
        }
    }
}

/// The network embedded in the binary: freestyle on 15x15 (`docs/strength.md`, issue 37, says
/// which training run made it).
pub fn embedded() -> Network {
    Network::from_bytes(include_bytes!("freestyle15.arbn")).expect("the embedded network is a network file")
}

/// What the engines' `--network` option names: `none` (the classical evaluation), `embedded`
/// ([`embedded`]) or a network file; `None` for `none`.
pub fn from_option(value: &str) -> Result<Option<Network>, String> {
    match value {
        "none" => Ok(None),
        "embedded" => Ok(Some(embedded())),
        path => {
            // Network files are under 2 MB: a device or a huge file is refused, not read to its end.
            const LARGEST: u64 = 16 << 20;
            let mut bytes = Vec::new();
            std::fs::File::open(path)
                .and_then(|file| file.take(LARGEST + 1).read_to_end(&mut bytes))
                .map_err(|e| format!("{path}: {e}"))?;
            if bytes.len() as u64 > LARGEST {
                return Err(format!("{path}: larger than any network file"));
            }
            Network::from_bytes(&bytes).map(Some).map_err(|e| format!("{path}: {e}"))
        }
    }
}

/// What the engines play with when no `--network` is given: the embedded network, measured
/// stronger than the classical evaluation at a time control (`docs/strength.md`, issue 37).
pub const DEFAULT: &str = "embedded";

/// Plays with what `--network` named, or with [`DEFAULT`] when it named nothing; `none` keeps
/// the classical evaluation. Once a process, as [`play_with`]. An error names the option.
pub fn choose(option: Option<&str>) -> Result<(), String> {
    let chosen = from_option(option.unwrap_or(DEFAULT)).and_then(|network| network.map_or(Ok(()), play_with));
    chosen.map_err(|e| format!("--network {e}"))
}

static PLAYING: OnceLock<&'static Network> = OnceLock::new();

/// Makes `network` the evaluation of every board made from now on whose rule and size it was
/// trained on; boards of other rules and sizes keep the classical evaluation. Once a process:
/// the boards made before it, and the threads that hold them, would disagree.
pub fn play_with(network: Network) -> Result<(), String> {
    PLAYING.set(Box::leak(Box::new(network))).map_err(|_| "the network is chosen once a process".to_string())
}

/// The network a new board of this rule and size plays with, if any.
pub(crate) fn playing_for(rule: Rule, width: usize, height: usize) -> Option<&'static Network> {
    PLAYING.get().copied().filter(|network| network.plays(rule, width, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_numbered_as_the_trainer_numbers_them() {
        let (table, keys) = shape_numbers();
        assert_eq!(keys.len(), 22_143);
        assert_eq!((0..KEY_SPACE as u32).filter(|&key| valid(key)).count(), 3 * 121 * 121);
        assert_eq!(table.iter().filter(|&&n| n != NO_SHAPE).count(), 3 << 16);
        // The empty line is the smallest key; a line and its mirror share a number.
        assert_eq!(table[0], 0);
        let key = 1 << 16 | 2 | 1 << 14;
        assert_eq!(table[key], table[mirror(key as u32) as usize]);
        // A wall next to the centre ends the line whatever lies beyond it.
        assert_eq!(table[(WALL << 6) as usize], table[0xFF]);
        assert_eq!(table[(WALL << 6 | 1) as usize], table[0xFF]);
        assert_ne!(table[0xFF], table[0]);
        assert_eq!(table[(WALL << 16) as usize], NO_SHAPE);
    }

    #[test]
    fn threat_levels_read_the_five_cell_windows_through_the_centre() {
        // Slots 0..=3 are the cells 4..1 before the centre, 4..=7 those 1..4 after it.
        let key = |cells: &[(usize, u32)]| cells.iter().fold(0, |key, &(slot, code)| key | code << (2 * slot));
        let levels = |key| {
            let code = threat_code(key);
            ((code & 3).count_ones(), (code >> 2 & 3).count_ones())
        };
        assert_eq!(levels(0), (0, 0));
        // Black on -1 and -2: a black stone makes three; white has room for two only.
        assert_eq!(levels(key(&[(3, 1), (2, 1)])), (1, 0));
        // Black on -1, -2, -3: four; with white on +1 and -4 no window is clean for black.
        assert_eq!(levels(key(&[(3, 1), (2, 1), (1, 1)])), (2, 0));
        assert_eq!(levels(key(&[(3, 1), (2, 1), (1, 1), (0, 2), (4, 2)])), (0, 0));
        // White on +1, +2, +3, +4: five for white; a wall at -1 leaves room only after it.
        assert_eq!(levels(key(&[(4, 2), (5, 2), (6, 2), (7, 2), (3, WALL)])), (0, 2));
        // A stone's own key has no levels.
        assert_eq!(threat_code(1 << 16 | key(&[(3, 1), (2, 1)])), 0);
        // A line's levels combine with another's by OR into the most of each colour.
        let three_and_four = threat_code(key(&[(3, 1), (2, 1)])) | threat_code(key(&[(4, 2), (5, 2), (6, 2)]));
        assert_eq!(threat_class(three_and_four), 5);
        // Its four class: white makes a four, black only a three.
        assert_eq!(empty_class::<FOUR_POOLS>(three_and_four), 1);
        assert_eq!(empty_class::<FOUR_POOLS>(threat_code(key(&[(3, 1), (2, 1), (1, 1)]))), 2);
        assert_eq!(empty_class::<FOUR_POOLS>(0), 0);
    }

    /// A network whose every codebook entry is 1.
    fn ones_network() -> Network {
        let shapes = shape_numbers().1.len();
        let mut bytes = Vec::from(*MAGIC);
        bytes.extend([3, 1, 0, 15]);
        bytes.extend((DIM as u16).to_le_bytes());
        bytes.extend((DIM as u16).to_le_bytes());
        bytes.extend(800_f32.to_le_bytes());
        bytes.extend((shapes as u32).to_le_bytes());
        bytes.resize(HEADER_BYTES, 0);
        let sizes = [
            (shapes * DIM, 2),
            (DIM, 2),
            (DIM * DIM, 2),
            (DIM, 4),
            (2 * DIM * DIM, 2),
            (2 * DIM, 4),
            (2 * DIM, 2),
            (2, 4),
            (2 * DIM, 2),
        ];
        for (index, (count, width)) in sizes.into_iter().enumerate() {
            let one: &[u8] = if index == 0 { &[1, 0, 0, 0] } else { &[0, 0, 0, 0] };
            for _ in 0..count {
                bytes.extend(&one[..width]);
            }
        }
        Network::from_bytes(&bytes).unwrap()
    }

    #[test]
    fn a_walled_cell_ends_its_lines_and_is_never_proposed() {
        crate::gomoku::build_tables();
        let network = ones_network();
        let mut board = Board::new(15, 15, crate::gomoku::Rule::Freestyle).unwrap();
        board.play(Move::new(7, 7).unwrap()).unwrap();
        let wall = Move::new(9, 7).unwrap();
        board.add_wall(wall).unwrap();
        let evaluation = network.evaluate(&board);
        assert_eq!(evaluation.policy.len(), 15 * 15 - 2);
        assert!(evaluation.policy.iter().all(|&(mv, _)| mv != wall));
        assert_eq!(network.trained_on(), (Rule::Freestyle, 15));
    }

    #[test]
    fn the_mean_divides_exactly() {
        for cells in 1..=1024 {
            let mean = Mean::of_cells(cells as usize);
            let totals = [0, 1, cells - 1, cells, 1023 * cells, 1023 * cells - 1, 1023 * 1024, 4_567 * 97];
            let pool: [i32; DIM] = std::array::from_fn(|j| (totals[j % totals.len()] + j as i32).min(1023 * cells));
            let exact = Row(pool.map(|p| ((p << POOL_SHIFT) / cells) as i16));
            assert_eq!(mean.of(&pool), exact, "{cells} cells");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor has AVX2.
                assert_eq!(unsafe { mean.of_avx2(&pool) }, exact, "{cells} cells");
            }
        }
    }

    #[test]
    fn the_value_head_s_avx2_form_gives_the_portable_number() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut next = test_weights(0x5851_F42D_4C95_7F2D);
            for network in [
                embedded().with_test_content_pools(),
                embedded().with_test_threat_pools(),
                embedded().with_test_four_pools(),
            ] {
                for cells in [25, 225, 1024] {
                    let mean = Mean::of_cells(cells);
                    for _ in 0..50 {
                        // Each pool at most its share of the board's activations 1.0 (1023 a cell).
                        let pools: Vec<[i32; DIM]> = (0..network.pools())
                            .map(|_| {
                                std::array::from_fn(|_| {
                                    i32::from(next()).abs() * 1023 / 128 * cells as i32 / network.pools() as i32
                                })
                            })
                            .collect();
                        for head in &network.heads {
                            // SAFETY: the processor has AVX2.
                            assert_eq!(unsafe { head.value_avx2(&pools, mean) }, head.value(&pools, mean));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn refuses_a_file_that_is_not_a_network() {
        assert!(Network::from_bytes(b"ARBD").is_err());
        assert!(Network::from_bytes(&[0; 40]).err().unwrap().contains("version 2 or 3"));
        let good = include_bytes!("freestyle15.arbn");
        let changed = |at: usize, byte: u8| {
            let mut bytes = good.to_vec();
            bytes[at] = byte;
            Network::from_bytes(&bytes).err().unwrap_or_else(|| panic!("byte {at} = {byte} was read"))
        };
        assert!(changed(5, 2).contains("bytes 5 and 20"));
        assert!(changed(20, 4).contains("bytes 5 and 20"));
        assert!(changed(4, 2).contains("bytes 5 and 20"), "version 2 has one pool");
        assert!(changed(31, 1).contains("21-31"));
        assert!(changed(6, 4).contains("no rule 4"));
        assert!(changed(7, 4).contains("size 4"));
        assert!(changed(7, 33).contains("size 33"));
        assert!(Network::from_bytes(&good[..good.len() - 1]).is_err());
        assert!(Network::from_bytes(&[good.as_slice(), &[0]].concat()).err().unwrap().contains("after the last"));
        #[cfg(unix)]
        assert!(from_option("/dev/zero").err().unwrap().contains("larger than any network file"));
    }
}
