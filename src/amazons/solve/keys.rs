//! Table keys that a position shares with its mirror images and with itself in the other
//! colours: the solver's verdict is the side to move's, and that does not change when the
//! board is reflected or turned (a rectangle has four such symmetries, a square eight) or when
//! the colours swap along with the turn. So the key is the least of the position's keys under
//! those symmetries, with the side to move's queens keyed as "mine" and the others as
//! "theirs": a mirrored line of play is then solved once, not again.
//!
//! Each symmetry's key is kept up to date move by move, in two versions (White's queens keyed
//! as mine, and Black's), so a child's key costs a few xors per symmetry.

use super::super::attacks::{Bits, SQUARES, STRIDE};
use super::super::board::{Color, Move, Position};
use crate::zobrist::KeyStream;
use std::sync::OnceLock;

/// The most symmetries a board has (a square's).
const MOST: usize = 8;

/// Random keys per square: the side to move's queens, the other side's, arrows.
struct Zobrist {
    mine: [u64; SQUARES],
    theirs: [u64; SQUARES],
    arrow: [u64; SQUARES],
}

fn zobrist() -> &'static Zobrist {
    static KEYS: OnceLock<Zobrist> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut stream = KeyStream::new(0x5017_e5ee_d000_0001);
        let mut table = || std::array::from_fn(|_| stream.next_key());
        Zobrist { mine: table(), theirs: table(), arrow: table() }
    })
}

/// Where each square goes under each symmetry of one board.
#[derive(Clone)]
pub struct Symmetries {
    maps: Vec<[u8; SQUARES]>,
}

impl Symmetries {
    pub fn of(pos: &Position) -> Symmetries {
        let (width, height) = (pos.width(), pos.height());
        let transposes: &[bool] = if width == height { &[false, true] } else { &[false] };
        let mut maps = Vec::with_capacity(MOST);
        for &transpose in transposes {
            for flip_file in [false, true] {
                for flip_rank in [false, true] {
                    maps.push(std::array::from_fn(|square| {
                        let (mut file, mut rank) = (square % STRIDE, square / STRIDE);
                        if file >= width || rank >= height {
                            return square as u8;
                        }
                        if transpose {
                            (file, rank) = (rank, file);
                        }
                        if flip_file {
                            file = width - 1 - file;
                        }
                        if flip_rank {
                            rank = height - 1 - rank;
                        }
                        (rank * STRIDE + file) as u8
                    }));
                }
            }
        }
        Symmetries { maps }
    }
}

/// A position's keys under every symmetry of its board, for either colour to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Keys {
    /// By the colour whose queens are keyed as the side to move's, then by symmetry.
    by_mover: [[u64; MOST]; 2],
    side: Color,
}

impl Keys {
    pub fn of(pos: &Position, symmetries: &Symmetries) -> Keys {
        let z = zobrist();
        let mut by_mover = [[0; MOST]; 2];
        for (mover, keys) in [Color::White, Color::Black].into_iter().zip(&mut by_mover) {
            for (key, map) in keys.iter_mut().zip(&symmetries.maps) {
                let at = |square: usize| usize::from(map[square]);
                *key = Bits(pos.queen_bits(mover)).fold(0, |k, sq| k ^ z.mine[at(sq)]);
                *key = Bits(pos.queen_bits(mover.opponent())).fold(*key, |k, sq| k ^ z.theirs[at(sq)]);
                *key = Bits(pos.arrow_bits()).fold(*key, |k, sq| k ^ z.arrow[at(sq)]);
            }
        }
        Keys { by_mover, side: pos.side_to_move() }
    }

    /// The keys after the side to move plays `mv`.
    pub fn after(&self, mv: Move, symmetries: &Symmetries) -> Keys {
        let z = zobrist();
        let (from, to, arrow) = (mv.from.index(), mv.to.index(), mv.arrow.index());
        let mut next = *self;
        let mover = self.side.index();
        for (t, map) in symmetries.maps.iter().enumerate() {
            let (from, to, arrow) = (usize::from(map[from]), usize::from(map[to]), usize::from(map[arrow]));
            next.by_mover[mover][t] ^= z.mine[from] ^ z.mine[to] ^ z.arrow[arrow];
            next.by_mover[1 - mover][t] ^= z.theirs[from] ^ z.theirs[to] ^ z.arrow[arrow];
        }
        next.side = self.side.opponent();
        next
    }

    /// The key of the position and of every position symmetric to it.
    pub fn canonical(&self, symmetries: &Symmetries) -> u64 {
        self.by_mover[self.side.index()][..symmetries.maps.len()].iter().copied().min().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amazons::Square;

    fn random_position(width: usize, height: usize, moves: usize, keys: &mut KeyStream) -> Position {
        let mut pos = Position::start(width, height).unwrap();
        for _ in 0..moves {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos.play(legal[keys.below(legal.len() as u64) as usize]).unwrap();
        }
        pos
    }

    /// The same position set up again under each symmetry, with or without the colours
    /// swapped, gets the same key; the incremental keys match those computed from scratch.
    #[test]
    fn symmetric_positions_share_a_key() {
        let mut stream = KeyStream::new(0x5e7);
        for (width, height) in [(5, 5), (6, 5), (5, 6), (8, 8), (10, 10)] {
            for moves in [0, 3, 9] {
                let pos = random_position(width, height, moves, &mut stream);
                let symmetries = Symmetries::of(&pos);
                let keys = Keys::of(&pos, &symmetries);
                let key = keys.canonical(&symmetries);
                for map in &symmetries.maps {
                    let image = |bits: u128| {
                        Bits(bits).map(|sq| Square::from_index(usize::from(map[sq])).unwrap()).collect::<Vec<_>>()
                    };
                    let (white, black, arrows) = (
                        image(pos.queen_bits(Color::White)),
                        image(pos.queen_bits(Color::Black)),
                        image(pos.arrow_bits()),
                    );
                    let side = pos.side_to_move();
                    let same = Position::from_setup_sized(width, height, &white, &black, &arrows, side).unwrap();
                    let swapped =
                        Position::from_setup_sized(width, height, &black, &white, &arrows, side.opponent()).unwrap();
                    for other in [same, swapped] {
                        assert_eq!(Keys::of(&other, &Symmetries::of(&other)).canonical(&symmetries), key);
                    }
                }
                let mut walked = pos.clone();
                let mut incremental = keys;
                for _ in 0..4 {
                    let legal = walked.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mv = legal[stream.below(legal.len() as u64) as usize];
                    incremental = incremental.after(mv, &symmetries);
                    walked.play(mv).unwrap();
                    assert_eq!(incremental, Keys::of(&walked, &symmetries));
                }
            }
        }
    }

    /// The 6x5 start is symmetric left to right and no other way, and no move is its own
    /// mirror image (the board has no middle file): its 410 moves give 205 keys.
    #[test]
    fn mirror_images_pair_up_and_nothing_else_does() {
        let pos = Position::start(6, 5).unwrap();
        let symmetries = Symmetries::of(&pos);
        let keys = Keys::of(&pos, &symmetries);
        let children: std::collections::HashSet<u64> =
            pos.legal_moves().into_iter().map(|mv| keys.after(mv, &symmetries).canonical(&symmetries)).collect();
        assert_eq!(children.len(), 205);
    }
}
