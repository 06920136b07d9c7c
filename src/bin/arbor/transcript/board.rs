//! The Gomocup board a transcript's conversation sets up, followed line by line as a manager
//! would: `START`, `RECTSTART` and `RESTART` give an empty board; `BOARD`, `YXBOARD` and
//! `SWAP2BOARD` replace it with their stones; `TURN` and `PLAY` add a stone and `TAKEBACK`
//! removes one; every move the engine prints is placed too. Sent moves are taken as accepted
//! (a transcript that sends an illegal one checks the refusal, not a later `@ move`).

use std::collections::BTreeSet;

#[derive(Debug, Default)]
pub struct Board {
    /// Width and height, once a game has started.
    size: Option<(usize, usize)>,
    stones: BTreeSet<(usize, usize)>,
    block: Block,
}

/// What the lines up to `DONE` are.
#[derive(Debug, Default, PartialEq, Eq)]
enum Block {
    #[default]
    None,
    Stones,
    Other,
}

/// `x,y` (a third field, a stone's owner, is allowed and ignored).
fn point(text: &str) -> Option<(usize, usize)> {
    let mut fields = text.split(',').map(|field| field.trim().parse::<usize>());
    let (x, y) = (fields.next()?.ok()?, fields.next()?.ok()?);
    match fields.next() {
        None | Some(Ok(_)) if fields.next().is_none() => Some((x, y)),
        _ => None,
    }
}

impl Board {
    /// Follows a line sent to the engine.
    pub fn sent(&mut self, line: &str) {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let word = word.to_ascii_uppercase();
        if self.block != Block::None {
            if word == "DONE" {
                self.block = Block::None;
            } else if self.block == Block::Stones
                && let Some(cell) = point(line)
            {
                self.stones.insert(cell);
            }
            return;
        }
        let rest = rest.trim();
        match word.as_str() {
            "START" => {
                let numbers: Vec<usize> = rest.split_whitespace().filter_map(|n| n.parse().ok()).collect();
                self.start(match numbers[..] {
                    [size] => Some((size, size)),
                    [width, height] => Some((width, height)),
                    _ => None,
                });
            }
            "RECTSTART" => self.start(point(rest)),
            "RESTART" => self.stones.clear(),
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                self.stones.clear();
                self.block = Block::Stones;
            }
            "TURN" | "PLAY" => self.stones.extend(point(rest)),
            "TAKEBACK" => {
                if let Some(cell) = point(rest) {
                    self.stones.remove(&cell);
                }
            }
            "YXBLOCKRESET" | "YXBLOCKPATHRESET" => {}
            _ if word.starts_with("YXBLOCK") || word.starts_with("YXQUERY") || word.starts_with("YXEDIT") => {
                self.block = Block::Other;
            }
            _ => {}
        }
    }

    fn start(&mut self, size: Option<(usize, usize)>) {
        self.size = size;
        self.stones.clear();
    }

    /// Places the moves of an output line that is nothing but moves (`x,y x,y ...`).
    pub fn output(&mut self, line: &str) {
        let moves: Option<Vec<(usize, usize)>> =
            line.split(' ').map(|word| point(word).filter(|_| word.matches(',').count() == 1)).collect();
        if let Some(moves) = moves {
            self.stones.extend(moves);
        }
    }

    /// Checks that `line` is `count` moves on distinct empty cells of the board, and places them.
    pub fn play_moves(&mut self, line: &str, count: usize) -> Result<(), String> {
        let (width, height) = self.size.ok_or("no board: the transcript sent no START")?;
        let words: Vec<&str> = line.split(' ').collect();
        if words.len() != count {
            return Err(format!("{} moves, expected {count} moves", words.len()));
        }
        for word in words {
            let (x, y) =
                point(word).filter(|_| word.matches(',').count() == 1).ok_or(format!("{word:?} is not a move"))?;
            if x >= width || y >= height {
                return Err(format!("{x},{y} is off the {width}x{height} board"));
            }
            if !self.stones.insert((x, y)) {
                return Err(format!("{x},{y} is taken"));
            }
        }
        Ok(())
    }
}
