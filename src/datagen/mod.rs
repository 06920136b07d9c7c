//! Training positions for the learned evaluation: the engine plays Gomoku against itself at a
//! fixed node count, one thread, and every position it searched is kept with the search's
//! score, best move and depth and, through the game, its result. The file format is
//! `scripts/learn/FORMAT.md`, which the trainer reads.
//!
//! Game `i` of a file depends only on the file's [`Settings`], the openings and `i`: the hash is
//! cleared before each game and the search stops at a node count, so a file resumes after its
//! last complete game and different seeds shard a run over processes and machines.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::engine::Engine;
use crate::game::Game;
use crate::gomoku::{Board, Color, Move, Rule};
use crate::score::Score;
use crate::search::limits::SearchLimits;
use crate::zobrist::KeyStream;

const MAGIC: &[u8; 4] = b"ARBD";
const VERSION: u8 = 1;
const HEADER_BYTES: usize = 32;
/// A game's fixed part: rule, size, result, unsearched plies, plies (u16).
const GAME_HEADER_BYTES: usize = 6;
/// A searched position: score (i16), best move (u16), depth (u8).
const SEARCHED_BYTES: usize = 5;
/// Table size of the generator's engine: a search of some ten thousand nodes fills little of it,
/// and many generators share one machine.
const HASH_MB: usize = 16;

/// What every game of a file shares; the file's header holds it, and a resumed file must match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub rule: Rule,
    pub size: usize,
    /// Nodes of each search.
    pub nodes: u64,
    /// Most random moves played after the opening (each game draws how many, from 0).
    pub random_plies: u8,
    pub seed: u64,
}

/// One position the search chose a move in, seen from its side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    pub score: i16,
    pub best: Move,
    pub depth: u8,
}

/// A finished game: its moves from the empty board, the first `unsearched` of them from the
/// opening and the random moves, each later one the search's best move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    pub rule: Rule,
    pub size: usize,
    /// `None`: a draw (the board filled up).
    pub winner: Option<Color>,
    pub unsearched: usize,
    pub moves: Vec<Move>,
    /// One for each move after the first `unsearched`.
    pub searched: Vec<Searched>,
}

/// A cell as the file stores it: `x + 32 * y`, the same for every board size.
fn cell_code(mv: Move) -> u16 {
    (mv.x() + 32 * mv.y()) as u16
}

fn cell_from_code(code: u16) -> Option<Move> {
    Move::new(usize::from(code % 32), usize::from(code / 32))
}

/// One of the eight symmetries of a `size`-wide square board: bit 0 mirrors x, bit 1 mirrors y,
/// bit 2 swaps them (after the mirrors).
fn transform(mv: Move, symmetry: u64, size: usize) -> Move {
    let (mut x, mut y) = (mv.x(), mv.y());
    if symmetry & 1 != 0 {
        x = size - 1 - x;
    }
    if symmetry & 2 != 0 {
        y = size - 1 - y;
    }
    if symmetry & 4 != 0 {
        (x, y) = (y, x);
    }
    Move::new(x, y).expect("a symmetry keeps a cell on the board")
}

impl Settings {
    fn header(&self, openings: &[Vec<Move>]) -> [u8; HEADER_BYTES] {
        let mut header = [0; HEADER_BYTES];
        header[..4].copy_from_slice(MAGIC);
        header[4] = VERSION;
        header[5] = self.rule.code();
        header[6] = self.size as u8;
        header[7] = self.random_plies;
        header[8..16].copy_from_slice(&self.nodes.to_le_bytes());
        header[16..24].copy_from_slice(&self.seed.to_le_bytes());
        header[24..32].copy_from_slice(&openings_digest(openings).to_le_bytes());
        header
    }
}

/// A fingerprint of the openings (FNV-1a over their cells, each opening closed by the cell
/// 31,31, a corner only a 32x32 opening could hold), so that a file is not resumed with another
/// list. Files written since the format began carry it, so it stays as it is.
fn openings_digest(openings: &[Vec<Move>]) -> u64 {
    let mut hash = 0xCBF2_9CE4_8422_2325_u64;
    for opening in openings {
        for &mv in opening.iter().chain(std::iter::once(&Move::new(31, 31).expect("a cell"))) {
            for byte in cell_code(mv).to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3);
            }
        }
    }
    hash
}

impl GameData {
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.push(self.rule.code());
        out.push(self.size as u8);
        out.push(match self.winner {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        });
        out.push(self.unsearched as u8);
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        for &mv in &self.moves {
            out.extend_from_slice(&cell_code(mv).to_le_bytes());
        }
        for searched in &self.searched {
            out.extend_from_slice(&searched.score.to_le_bytes());
            out.extend_from_slice(&cell_code(searched.best).to_le_bytes());
            out.push(searched.depth);
        }
    }

    /// The game at the start of `bytes` and its length in bytes; `None` when `bytes` holds no
    /// whole, well-formed game (a file cut short while a game was written).
    pub fn decode(bytes: &[u8]) -> Option<(GameData, usize)> {
        let header = bytes.get(..GAME_HEADER_BYTES)?;
        let rule = Rule::from_code(header[0])?;
        let size = usize::from(header[1]);
        let winner = match header[2] {
            0 => None,
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => return None,
        };
        let unsearched = usize::from(header[3]);
        let plies = usize::from(u16::from_le_bytes([header[4], header[5]]));
        let searched_count = plies.checked_sub(unsearched)?;
        let length = GAME_HEADER_BYTES + 2 * plies + SEARCHED_BYTES * searched_count;
        let body = bytes.get(GAME_HEADER_BYTES..length)?;
        let (cells, entries) = body.split_at(2 * plies);
        let moves =
            cells.chunks_exact(2).map(|c| cell_from_code(u16::from_le_bytes([c[0], c[1]]))).collect::<Option<_>>()?;
        let searched = entries
            .chunks_exact(SEARCHED_BYTES)
            .map(|e| {
                Some(Searched {
                    score: i16::from_le_bytes([e[0], e[1]]),
                    best: cell_from_code(u16::from_le_bytes([e[2], e[3]]))?,
                    depth: e[4],
                })
            })
            .collect::<Option<_>>()?;
        Some((GameData { rule, size, winner, unsearched, moves, searched }, length))
    }

    /// Whether this could be a game `play_game` wrote under `settings`: its rule and size, legal
    /// moves that end the game exactly at the last one with the recorded result, and each searched
    /// move the search's best. A resumed file stops at the first game that is not, so the bytes a
    /// crash left (zeros, a torn write) are written over instead of kept as games.
    fn replays(&self, settings: &Settings) -> bool {
        if (self.rule, self.size) != (settings.rule, settings.size)
            || self.unsearched + self.searched.len() != self.moves.len()
            || self.searched.iter().zip(&self.moves[self.unsearched..]).any(|(s, &mv)| s.best != mv)
        {
            return false;
        }
        let Ok(mut board) = Board::new(self.size, self.size, self.rule) else { return false };
        for &mv in &self.moves {
            if board.is_over() || board.play(mv).is_err() {
                return false;
            }
        }
        (board.is_over() || board.only_forbidden_points_left()) && board.winner() == self.winner
    }
}

/// Refuses, before any game is played, an opening that could not start a game on this board: a
/// stone off it, on an occupied cell, or one that ends the game (a five, a foul, a full board).
/// The eight symmetries keep all of these, so the opening as written stands for every draw of it.
fn check_openings(settings: &Settings, openings: &[Vec<Move>]) -> Result<(), String> {
    for (number, opening) in openings.iter().enumerate() {
        let mut board = Board::new(settings.size, settings.size, settings.rule).map_err(|e| e.to_string())?;
        for &mv in opening {
            if mv.x() >= settings.size || mv.y() >= settings.size {
                return Err(format!("opening {}: a stone at {mv}, off a board of size {}", number + 1, settings.size));
            }
            board.play(mv).map_err(|e| format!("opening {}: stone {mv}: {e}", number + 1))?;
            if board.is_over() {
                return Err(format!(
                    "opening {}: stone {mv} ends the game (a five, a foul or a full board)",
                    number + 1
                ));
            }
        }
    }
    Ok(())
}

/// Plays game `index` of a file made with `settings`: opening `index`'s draw from `openings` (the
/// empty board when there are none) under a random symmetry, up to `random_plies` random moves
/// among the cells the engine would consider, then the engine's best move at `nodes` nodes until
/// the game ends.
pub fn play_game(
    engine: &mut Engine,
    settings: &Settings,
    openings: &[Vec<Move>],
    index: u64,
) -> Result<GameData, String> {
    let mut random = KeyStream::new(settings.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    random.next_key();
    let mut board = Board::new(settings.size, settings.size, settings.rule).map_err(|e| e.to_string())?;
    if !openings.is_empty() {
        let opening = &openings[random.below(openings.len() as u64) as usize];
        let symmetry = random.below(8);
        for &mv in opening {
            let mv = transform(mv, symmetry, settings.size);
            board.play(mv).map_err(|e| format!("opening stone {mv}: {e}"))?;
            if board.is_over() {
                return Err(format!("opening stone {mv} ends the game (a five, a foul or a full board)"));
            }
        }
    }
    let mut candidates = Vec::new();
    for _ in 0..random.below(u64::from(settings.random_plies) + 1) {
        board.generate_unpruned(&mut candidates);
        if candidates.is_empty() {
            break;
        }
        board.play(candidates[random.below(candidates.len() as u64) as usize]).map_err(|e| e.to_string())?;
    }
    let unsearched = board.history().len();
    if unsearched > usize::from(u8::MAX) {
        return Err(format!("an opening of {unsearched} stones is longer than the format's 255"));
    }
    engine.new_game();
    let limits = SearchLimits { nodes: Some(settings.nodes), ..SearchLimits::default() };
    let stop = AtomicBool::new(false);
    let mut searched = Vec::new();
    while !board.is_over() {
        let result = engine.go(&board, &limits, Instant::now(), &stop, &mut |_| {});
        let Some(best) = result.best_move else {
            if board.only_forbidden_points_left() {
                break;
            }
            return Err("the engine found no move in a game still on".into());
        };
        searched.push(Searched { score: clamp_score(result.score), best, depth: result.depth.min(255) as u8 });
        board.play(best).map_err(|e| e.to_string())?;
    }
    Ok(GameData {
        rule: settings.rule,
        size: settings.size,
        winner: board.winner(),
        unsearched,
        moves: board.history().to_vec(),
        searched,
    })
}

fn clamp_score(score: Score) -> i16 {
    score.clamp(Score::from(i16::MIN), Score::from(i16::MAX)) as i16
}

/// What [`generate`] reports after each game.
pub struct Progress {
    /// Games in the file, the ones it held before included.
    pub games: u64,
    /// Positions searched by this run.
    pub positions: u64,
    pub elapsed: std::time::Duration,
}

/// Plays games into `path` until it holds `games` of them: a new file gets the header of
/// `settings`; an existing one must have the same header, keeps its whole games (a game cut
/// short at its end is dropped) and goes on with the next.
pub fn generate(
    path: &Path,
    settings: &Settings,
    openings: &[Vec<Move>],
    games: u64,
    mut on_game: impl FnMut(&Progress),
) -> Result<(), String> {
    check_openings(settings, openings)?;
    let header = settings.header(openings);
    let mut file =
        OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path).map_err(|e| e.to_string())?;
    let (mut done, kept) = resume_point(&mut file, settings, &header)?;
    file.set_len(kept as u64).map_err(|e| e.to_string())?;
    file.seek(SeekFrom::End(0)).map_err(|e| e.to_string())?;
    if kept == 0 {
        file.write_all(&header).map_err(|e| e.to_string())?;
    }
    let mut engine = Engine::new(HASH_MB, 1);
    let start = Instant::now();
    let mut positions = 0;
    let mut bytes = Vec::new();
    while done < games {
        let game = play_game(&mut engine, settings, openings, done)?;
        bytes.clear();
        game.encode(&mut bytes);
        file.write_all(&bytes).map_err(|e| e.to_string())?;
        done += 1;
        positions += game.searched.len() as u64;
        on_game(&Progress { games: done, positions, elapsed: start.elapsed() });
    }
    file.sync_all().map_err(|e| e.to_string())
}

/// How many whole games `file` holds and the length they end at (0 for an empty file, or one cut
/// short inside its header): the games before the first that is cut short or does not replay.
fn resume_point(file: &mut File, settings: &Settings, header: &[u8; HEADER_BYTES]) -> Result<(u64, usize), String> {
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() < HEADER_BYTES && header.starts_with(&bytes) {
        return Ok((0, 0));
    }
    if bytes.get(..HEADER_BYTES) != Some(&header[..]) {
        return Err("the file holds games of other settings (rule, size, nodes, random plies, seed or openings)".into());
    }
    let (mut games, mut offset) = (0, HEADER_BYTES);
    while let Some((_, length)) = GameData::decode(&bytes[offset..]).filter(|(game, _)| game.replays(settings)) {
        games += 1;
        offset += length;
    }
    Ok((games, offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::notation::parse_moves;

    fn settings(seed: u64) -> Settings {
        Settings { rule: Rule::Freestyle, size: 9, nodes: 300, random_plies: 2, seed }
    }

    fn openings() -> Vec<Vec<Move>> {
        ["e5d4f6", "e5f5e6d4"].iter().map(|text| parse_moves(text).unwrap()).collect()
    }

    #[test]
    fn symmetries_are_the_eight_of_the_square() {
        let mv = Move::new(1, 3).unwrap();
        let images: std::collections::HashSet<(usize, usize)> =
            (0..8).map(|s| transform(mv, s, 9)).map(|m| (m.x(), m.y())).collect();
        assert_eq!(images.len(), 8);
        assert!(images.contains(&(3, 7)) && images.contains(&(7, 5)));
    }

    #[test]
    fn games_are_reproducible_and_round_trip_through_the_format() {
        crate::gomoku::build_tables();
        let mut engine = Engine::new(1, 1);
        let game = play_game(&mut engine, &settings(5), &openings(), 3).unwrap();
        assert_eq!(game, play_game(&mut engine, &settings(5), &openings(), 3).unwrap());
        assert_eq!(game.searched.len(), game.moves.len() - game.unsearched);
        assert!(game.searched.iter().zip(&game.moves[game.unsearched..]).all(|(s, &mv)| s.best == mv));
        let mut board = Board::new(9, 9, Rule::Freestyle).unwrap();
        for &mv in &game.moves {
            board.play(mv).unwrap();
        }
        assert!(board.is_over());
        assert_eq!(board.winner(), game.winner);
        let mut bytes = Vec::new();
        game.encode(&mut bytes);
        assert_eq!(GameData::decode(&bytes), Some((game.clone(), bytes.len())));
        assert_eq!(GameData::decode(&bytes[..bytes.len() - 1]), None);
    }

    #[test]
    fn renju_ends_in_a_draw_where_black_may_play_only_forbidden_points_and_openings_may_not_foul() {
        crate::gomoku::build_tables();
        let mut engine = Engine::new(1, 1);
        let renju = |size| Settings { rule: Rule::Renju, size, nodes: 100, random_plies: 0, seed: 1 };
        // Only d1 and c6 are empty, both overlines for black.
        let full = parse_moves("a1a2b1b2c1c2e1e2f1f2d2c3a3d3b3e3a4f3d4b4c5c4d5e4a6f4b6a5d6b5e6e5f6f5").unwrap();
        let game = play_game(&mut engine, &renju(6), &[full], 0).unwrap();
        assert_eq!((game.winner, game.searched.len(), game.moves.len()), (None, 0, 34));
        // a4 makes black's overline a1-a6: the opening is refused, not played as a white win.
        let foul = parse_moves("a1o15a2m15a3k15a5i15a6g15a4").unwrap();
        let error = play_game(&mut engine, &renju(15), &[foul], 0).unwrap_err();
        assert!(error.contains("ends the game"), "{error}");
    }

    #[test]
    fn a_file_cut_short_resumes_to_the_same_bytes() {
        crate::gomoku::build_tables();
        let folder = std::env::temp_dir().join(format!("arbor-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let (whole, cut) = (folder.join("whole.bin"), folder.join("cut.bin"));
        generate(&whole, &settings(9), &openings(), 4, |_| {}).unwrap();
        generate(&cut, &settings(9), &openings(), 2, |_| {}).unwrap();
        let mut bytes = std::fs::read(&cut).unwrap();
        let two_games = bytes.len();
        bytes.extend_from_slice(&[0, 9, 1]);
        std::fs::write(&cut, &bytes).unwrap();
        let mut reported = Vec::new();
        generate(&cut, &settings(9), &openings(), 4, |p| reported.push(p.games)).unwrap();
        assert_eq!(reported, [3, 4]);
        assert_eq!(std::fs::read(&cut).unwrap(), std::fs::read(&whole).unwrap());
        let refused = generate(&cut, &settings(10), &openings(), 5, |_| {});
        assert!(refused.unwrap_err().contains("other settings"));
        let other_openings = generate(&cut, &settings(9), &openings()[..1], 5, |_| {});
        assert!(other_openings.unwrap_err().contains("other settings"));
        let small = Settings { size: 5, ..settings(9) };
        let off_board = generate(&folder.join("small.bin"), &small, &openings(), 1, |_| {});
        assert!(off_board.unwrap_err().contains("off a board of size 5"));
        let occupied = vec![parse_moves("e5d4e5").unwrap()];
        let refused = generate(&folder.join("occupied.bin"), &settings(9), &[openings(), occupied].concat(), 1, |_| {});
        let error = refused.unwrap_err();
        assert!(error.starts_with("opening 3: stone ") && error.ends_with("occupied"), "{error}");
        let whole_bytes = std::fs::read(&whole).unwrap();
        // What a crash can leave after the second game: zeros, or the third game's bytes with its
        // size torn; both are written over.
        let mut torn = whole_bytes[two_games..].to_vec();
        torn[1] = 8;
        for damage in [vec![0; 60], torn] {
            let mut bytes = whole_bytes[..two_games].to_vec();
            bytes.extend_from_slice(&damage);
            std::fs::write(&cut, &bytes).unwrap();
            generate(&cut, &settings(9), &openings(), 4, |_| {}).unwrap();
            assert_eq!(std::fs::read(&cut).unwrap(), whole_bytes);
        }
        let header_cut = folder.join("header-cut.bin");
        std::fs::write(&header_cut, &std::fs::read(&whole).unwrap()[..10]).unwrap();
        generate(&header_cut, &settings(9), &openings(), 4, |_| {}).unwrap();
        assert_eq!(std::fs::read(&header_cut).unwrap(), std::fs::read(&whole).unwrap());
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
