//! The line formats `arbor` exchanges with the scripts in `scripts/`: positions as rows for the
//! forbidden-move cross-check (`scripts/renju_referee.py`) and for the static evaluation and
//! move ordering the learned evaluation is compared with (`scripts/learn/baseline.py`), and
//! finished games turned into the evaluation's features for fitting its weights
//! (`scripts/fit_eval.py`).

use super::network::Network;
use super::{Board, Color, Move, Rule};
use crate::game::{Game, Playable};

/// A position from its rows run together: `size * size` characters, `X` black, `O` white, `.`
/// empty.
pub fn position_from_rows(size: usize, rule: Rule, cells: &str) -> Result<Board, String> {
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
    Board::from_stones(size, size, rule, &black, &white).map_err(|e| e.to_string())
}

/// The network's answer for a position in play, as `VALUE x,y`: its value logit (exact, at the
/// scale of `scripts/learn/MODEL.md`) and the empty cell of highest policy (the first of equals
/// in row order), as `scripts/learn/export.py` computes them.
pub fn network_value_and_first_move(network: &Network, board: &Board) -> String {
    let evaluation = network.evaluate(board);
    let first = evaluation.policy.iter().rev().max_by_key(|&&(_, logit)| logit).map(|&(mv, _)| mv);
    match first {
        Some(mv) => format!("{} {mv}", evaluation.value),
        None => format!("{} none", evaluation.value),
    }
}

/// The static evaluation of a position in play, for its side to move, and the move the search's
/// ordering tries first among those it generates, as `SCORE x,y`.
pub fn evaluation_and_first_move(board: &Board) -> String {
    let mut moves = Vec::new();
    board.generate_moves(&mut moves);
    let mut scores = Vec::new();
    board.order_scores(&moves, &mut scores);
    // The first of the best: the ordering's sort is stable.
    let first = moves.iter().zip(&scores).rev().max_by_key(|&(_, &score)| score).map(|(&mv, _)| mv);
    match first {
        Some(mv) => format!("{} {mv}", board.evaluate()),
        None => format!("{} none", board.evaluate()),
    }
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
        let board = position_from_rows(5, Rule::Renju, &cells).unwrap();
        assert_eq!(board.history().len(), 2);
        assert!(position_from_rows(5, Rule::Renju, "X").err().unwrap().contains("expected 25"));
        assert!(position_from_rows(2, Rule::Renju, "XO.?").err().unwrap().contains("'?'"));
    }

    #[test]
    fn the_first_ordered_move_blocks_a_four() {
        crate::gomoku::build_tables();
        let mut rows = ".".repeat(81);
        for (i, c) in [(36, 'X'), (37, 'X'), (38, 'X'), (39, 'X'), (0, 'O'), (10, 'O'), (20, 'O')] {
            rows.replace_range(i..i + 1, &c.to_string());
        }
        let board = position_from_rows(9, Rule::Freestyle, &rows).unwrap();
        let line = evaluation_and_first_move(&board);
        let (score, mv) = line.split_once(' ').unwrap();
        assert!(score.parse::<i32>().unwrap() < 0, "{line}");
        assert_eq!(mv, "4,4", "{line}");
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
