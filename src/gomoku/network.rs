//! The learned pattern evaluation's network, read from the integer file `scripts/learn/export.py`
//! writes, and evaluated from scratch on a board with exactly the arithmetic of
//! `scripts/learn/MODEL.md`, so that its answers equal the trainer's integer reference bit for
//! bit. The search does not use it yet: it is the reference the incremental evaluator will be
//! tested against, and `arbor evaluate --network` reports it.

use super::{Board, Color, Move, Rule};

const MAGIC: &[u8; 4] = b"ARBN";
const HEADER_BYTES: usize = 32;
/// Activation 1.0 as an integer.
const ACTIVATION_ONE: i32 = 1023;
const WEIGHT_SHIFT: u32 = 10;
/// Extra bits of the cells' mean read by the value head.
const POOL_SHIFT: u32 = 6;
const KEY_SPACE: usize = 1 << 18;
const WALL: u32 = 3;
const NO_SHAPE: u16 = u16::MAX;
const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
const OFFSETS: [isize; 8] = [-4, -3, -2, -1, 1, 2, 3, 4];

pub struct Network {
    dim: usize,
    hidden: usize,
    cell_layer: bool,
    /// Engine score units per value logit.
    score_scale: f32,
    /// Shape number of every 18-bit key, `NO_SHAPE` where the key cannot occur.
    shape_of_key: Vec<u16>,
    codebook: Vec<i16>,
    bias0: Vec<i16>,
    cell_w: Vec<i16>,
    cell_b: Vec<i32>,
    v1_w: Vec<i16>,
    v1_b: Vec<i32>,
    v2_w: Vec<i16>,
    v2_b: i32,
    p_w: Vec<i16>,
    /// Rule and board size the network was trained on (`None`: a rule code this build lacks).
    trained_on: (Option<Rule>, usize),
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
}

/// The key read the other way along its line: neighbour slots i and 7 - i swap.
fn mirror(key: u32) -> u32 {
    let mut out = key & !0xFFFF;
    for slot in 0..8 {
        out |= ((key >> (2 * slot)) & 3) << (2 * (7 - slot));
    }
    out
}

/// Whether a key can occur: the centre on the board, each side's walls running inwards from its
/// far end (slots 0..3 are the cells 4..1 before the centre, 4..7 those 1..4 after it).
fn valid(key: u32) -> bool {
    let cell = |slot: u32| (key >> (2 * slot)) & 3;
    let walled_from_far_end = |slots: [u32; 4]| {
        let walls = slots.iter().take_while(|&&slot| cell(slot) == WALL).count();
        slots[walls..].iter().all(|&slot| cell(slot) != WALL)
    };
    key >> 16 != WALL && walled_from_far_end([0, 1, 2, 3]) && walled_from_far_end([7, 6, 5, 4])
}

/// Shape numbers: the rank of min(key, mirror(key)) among those of all valid keys.
fn shape_numbers() -> (Vec<u16>, usize) {
    let canonical = |key: u32| key.min(mirror(key));
    let mut shapes: Vec<u32> = (0..KEY_SPACE as u32).filter(|&key| valid(key)).map(canonical).collect();
    shapes.sort_unstable();
    shapes.dedup();
    let mut table = vec![NO_SHAPE; KEY_SPACE];
    for key in (0..KEY_SPACE as u32).filter(|&key| valid(key)) {
        table[key as usize] = shapes.binary_search(&canonical(key)).expect("a valid key's shape") as u16;
    }
    (table, shapes.len())
}

impl Network {
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let header = bytes.get(..HEADER_BYTES).ok_or("the network file is cut short")?;
        if &header[..4] != MAGIC || header[4] != 1 {
            return Err("not a network file of version 1 (scripts/learn/MODEL.md)".into());
        }
        let cell_layer = header[5] == 1;
        let dim = usize::from(u16::from_le_bytes([header[8], header[9]]));
        let hidden = usize::from(u16::from_le_bytes([header[10], header[11]]));
        let score_scale = f32::from_le_bytes([header[12], header[13], header[14], header[15]]);
        let shapes = u32::from_le_bytes([header[16], header[17], header[18], header[19]]) as usize;
        let (shape_of_key, expected) = shape_numbers();
        if shapes != expected || dim == 0 || hidden == 0 {
            return Err(format!("{shapes} shapes of {dim} numbers, hidden {hidden}: expected {expected} shapes"));
        }
        let mut reader = Reader(&bytes[HEADER_BYTES..]);
        let network = Network {
            dim,
            hidden,
            cell_layer,
            score_scale,
            shape_of_key,
            codebook: reader.i16s(shapes * dim)?,
            bias0: reader.i16s(dim)?,
            cell_w: reader.i16s(dim * dim)?,
            cell_b: reader.i32s(dim)?,
            v1_w: reader.i16s(dim * hidden)?,
            v1_b: reader.i32s(hidden)?,
            v2_w: reader.i16s(hidden)?,
            v2_b: reader.i32s(1)?[0],
            p_w: reader.i16s(dim)?,
            trained_on: (Rule::from_code(header[6]), usize::from(header[7])),
        };
        if !reader.0.is_empty() {
            return Err(format!("{} bytes after the last array", reader.0.len()));
        }
        Ok(network)
    }

    /// The rule and board size of its training data.
    pub fn trained_on(&self) -> (Option<Rule>, usize) {
        self.trained_on
    }

    /// Engine score units per value logit (the trainer's fitted scale).
    pub fn score_scale(&self) -> f32 {
        self.score_scale
    }

    /// Cell code from the side to move's view: 0 empty, 1 its stone, 2 the opponent's, 3 off
    /// the board (or walled).
    fn code(board: &Board, x: isize, y: isize, side: Color) -> u32 {
        let inside = (0..board.width() as isize).contains(&x) && (0..board.height() as isize).contains(&y);
        let Some(mv) = inside.then(|| Move::new(x as usize, y as usize)).flatten() else { return WALL };
        match board.stone(mv) {
            Some(color) if color == side => 1,
            Some(_) => 2,
            None if board.is_empty(mv) => 0,
            None => WALL,
        }
    }

    /// The cell's activations `h` (MODEL.md steps 1 and 2); zero for a walled cell.
    fn cell(&self, board: &Board, x: isize, y: isize, side: Color) -> Vec<i32> {
        let centre = Self::code(board, x, y, side);
        if centre == WALL {
            return vec![0; self.dim];
        }
        let mut sum: Vec<i32> = self.bias0.iter().map(|&b| i32::from(b)).collect();
        for (dx, dy) in DIRECTIONS {
            let mut key = centre << 16;
            // Each side read outwards from the centre: past a wall, everything reads as one.
            for side_slots in [[3, 2, 1, 0], [4, 5, 6, 7]] {
                let mut code = 0;
                for slot in side_slots {
                    if code != WALL {
                        let k = OFFSETS[slot];
                        code = Self::code(board, x + k * dx, y + k * dy, side);
                    }
                    key |= code << (2 * slot);
                }
            }
            let shape = usize::from(self.shape_of_key[key as usize]);
            for (s, &c) in sum.iter_mut().zip(&self.codebook[shape * self.dim..(shape + 1) * self.dim]) {
                *s += i32::from(c);
            }
        }
        let active: Vec<i32> = sum.iter().map(|&s| s.clamp(0, ACTIVATION_ONE)).collect();
        if !self.cell_layer {
            return active;
        }
        (0..self.dim)
            .map(|out| {
                let total: i64 = active
                    .iter()
                    .enumerate()
                    .map(|(input, &a)| i64::from(a) * i64::from(self.cell_w[input * self.dim + out]))
                    .sum::<i64>()
                    + i64::from(self.cell_b[out]);
                (total >> WEIGHT_SHIFT).clamp(0, i64::from(ACTIVATION_ONE)) as i32
            })
            .collect()
    }

    /// The value and policy of `board` for its side to move, from scratch.
    pub fn evaluate(&self, board: &Board) -> Evaluation {
        let side = board.side_to_move();
        let cells = (board.width() * board.height()) as i64;
        let mut pooled = vec![0_i64; self.dim];
        let mut policy = Vec::new();
        for y in 0..board.height() {
            for x in 0..board.width() {
                let h = self.cell(board, x as isize, y as isize, side);
                for (p, &v) in pooled.iter_mut().zip(&h) {
                    *p += i64::from(v);
                }
                let mv = Move::new(x, y).expect("a cell of the board");
                if board.is_empty(mv) {
                    let logit = h.iter().zip(&self.p_w).map(|(&v, &w)| i64::from(v) * i64::from(w)).sum::<i64>();
                    policy.push((mv, logit));
                }
            }
        }
        let mean: Vec<i64> = pooled.iter().map(|&p| (p << POOL_SHIFT).div_euclid(cells)).collect();
        let value = (0..self.hidden)
            .map(|out| {
                let total =
                    mean.iter().enumerate().map(|(i, &m)| m * i64::from(self.v1_w[i * self.hidden + out])).sum::<i64>()
                        + (i64::from(self.v1_b[out]) << POOL_SHIFT);
                (total >> (WEIGHT_SHIFT + POOL_SHIFT)).clamp(0, i64::from(ACTIVATION_ONE)) * i64::from(self.v2_w[out])
            })
            .sum::<i64>()
            + i64::from(self.v2_b);
        Evaluation { value, policy }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_are_numbered_as_the_trainer_numbers_them() {
        let (table, shapes) = shape_numbers();
        assert_eq!(shapes, 22_143);
        assert_eq!(table.iter().filter(|&&n| n != NO_SHAPE).count(), 3 * 121 * 121);
        // The empty line is the smallest key; a line and its mirror share a number.
        assert_eq!(table[0], 0);
        let key = 1 << 16 | 2 | 1 << 14;
        assert_eq!(table[key], table[mirror(key as u32) as usize]);
        // A wall next to the centre with an empty cell beyond it cannot occur.
        assert_eq!(table[(WALL << 6) as usize], NO_SHAPE);
    }

    /// A network of `dim` numbers a cell whose every codebook entry is 1.
    fn ones_network(dim: usize) -> Network {
        let (_, shapes) = shape_numbers();
        let mut bytes = Vec::from(*MAGIC);
        bytes.extend([1, 1, 0, 15]);
        bytes.extend((dim as u16).to_le_bytes());
        bytes.extend(1_u16.to_le_bytes());
        bytes.extend(800_f32.to_le_bytes());
        bytes.extend((shapes as u32).to_le_bytes());
        bytes.resize(HEADER_BYTES, 0);
        let sizes = [(shapes * dim, 2), (dim, 2), (dim * dim, 2), (dim, 4), (dim, 2), (1, 4), (1, 2), (1, 4), (dim, 2)];
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
        let network = ones_network(2);
        let mut board = Board::new(15, 15, crate::gomoku::Rule::Freestyle).unwrap();
        board.play(Move::new(7, 7).unwrap()).unwrap();
        let wall = Move::new(9, 7).unwrap();
        board.add_wall(wall).unwrap();
        let evaluation = network.evaluate(&board);
        assert_eq!(evaluation.policy.len(), 15 * 15 - 2);
        assert!(evaluation.policy.iter().all(|&(mv, _)| mv != wall));
        assert_eq!(network.trained_on(), (Some(Rule::Freestyle), 15));
    }

    #[test]
    fn refuses_a_file_that_is_not_a_network() {
        assert!(Network::from_bytes(b"ARBD").is_err());
        assert!(Network::from_bytes(&[0; 40]).err().unwrap().contains("version 1"));
    }
}
