//! The line formats `arbor` exchanges with the scripts in `scripts/`: renju positions for the
//! forbidden-move cross-check (`scripts/renju_referee.py`), and finished games turned into the
//! evaluation's features for fitting its weights (`scripts/fit_eval.py`).

use super::{Board, Color, Move, Rule};
use crate::game::Playable;

/// A renju position from its rows run together: `size * size` characters, `X` black, `O`
/// white, `.` empty.
pub fn renju_position(size: usize, cells: &str) -> Result<Board, String> {
    if cells.chars().count() != size * size {
        return Err(format!("{} cells, expected {}", cells.chars().count(), size * size));
    }
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (i, c) in cells.chars().enumerate() {
        let mv = Move::new(i % size, i / size).ok_or("board too large")?;
        match c {
            'X' => black.push(mv),
            'O' => white.push(mv),
            '.' => {}
            other => return Err(format!("unexpected {other:?}")),
        }
    }
    Board::from_stones(size, size, Rule::Renju, &black, &white).map_err(|e| e.to_string())
}

/// Reads one finished freestyle game, `RESULT x,y x,y ...` (RESULT `B`, `W` or `D`), and gives
/// for every position after the fourth stone that the search would evaluate statically the
/// side to move's result (`1`, `0.5` or `0`) and the evaluation's features
/// ([`super::eval::features`]), as one line of numbers each. A blank line gives none.
pub fn game_features(size: usize, game: &str) -> Result<Vec<String>, String> {
    let mut words = game.split_whitespace();
    let Some(result) = words.next() else { return Ok(Vec::new()) };
    let winner = match result {
        "B" => Some(Color::Black),
        "W" => Some(Color::White),
        "D" => None,
        other => return Err(format!("result {other:?} is not B, W or D")),
    };
    let mut board = Board::new(size, size, Rule::Freestyle).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (ply, word) in words.enumerate() {
        let mv = board.parse_move(word)?;
        board.play(mv).map_err(|e| e.to_string())?;
        if ply < 3 {
            continue;
        }
        let Some(features) = super::eval::features(&board) else { continue };
        let label = match winner {
            None => "0.5",
            Some(color) if color == board.side_to_move() => "1",
            Some(_) => "0",
        };
        let features: Vec<String> = features.iter().map(u32::to_string).collect();
        rows.push(format!("{label} {}", features.join(" ")));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_renju_rows() {
        let mut cells = ".".repeat(25);
        cells.replace_range(12..13, "X");
        cells.replace_range(0..1, "O");
        let board = renju_position(5, &cells).unwrap();
        assert_eq!(board.history().len(), 2);
        assert!(renju_position(5, "X").err().unwrap().contains("expected 25"));
        assert!(renju_position(2, "XO.?").err().unwrap().contains("'?'"));
    }

    #[test]
    fn labels_positions_from_the_side_to_move() {
        crate::gomoku::build_tables();
        let rows = game_features(15, "B 7,7 8,8 7,8 8,7 7,9 8,9 7,6").unwrap();
        assert!(!rows.is_empty());
        assert!(rows.iter().all(|row| row.starts_with("0 ") || row.starts_with("1 ")), "{rows:?}");
        assert!(game_features(15, "").unwrap().is_empty());
        assert!(game_features(15, "X 7,7").unwrap_err().contains("not B, W or D"));
        assert!(game_features(15, "D 7,7 7,7").is_err());
    }
}
