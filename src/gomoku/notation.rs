//! The compact position notation of opening books and c-gomoku-cli (`h8i9j10`: column letter,
//! then row number from 1, moves alternating from black). Columns past `z` are `aa` to `af`
//! ([`file_name`]).

use super::board::Board;
use super::types::{BoardError, Move, Rule};
use crate::game::file_name;

/// Moves of a compact position string, `None` if it does not parse.
pub fn parse_moves(text: &str) -> Option<Vec<Move>> {
    let mut moves = Vec::new();
    let mut chars = text.trim().chars().peekable();
    while chars.peek().is_some() {
        // Letters count from 1 (`a`) in base 26, so `aa` follows `z`.
        let (mut column, mut letters) = (0, 0);
        while let Some(letter) = chars.next_if(char::is_ascii_lowercase) {
            column = column * 26 + usize::from(letter as u8 - b'a') + 1;
            letters += 1;
        }
        if !(1..=2).contains(&letters) {
            return None;
        }
        let mut row = String::new();
        while let Some(d) = chars.next_if(char::is_ascii_digit) {
            row.push(d);
        }
        let y: usize = row.parse().ok()?;
        moves.push(Move::new(column - 1, y.checked_sub(1)?)?);
    }
    Some(moves)
}

/// The compact notation of a move.
pub fn format_move(mv: Move) -> String {
    format!("{}{}", file_name(mv.x()), mv.y() + 1)
}

/// A square board after playing the moves of a compact position string.
pub fn board_from_notation(size: usize, rule: Rule, text: &str) -> Result<Board, String> {
    play_notation(Board::new(size, size, rule).map_err(|e: BoardError| e.to_string())?, text)
}

/// `board` after playing the moves of a compact position string.
pub fn play_notation(mut board: Board, text: &str) -> Result<Board, String> {
    let moves = parse_moves(text).ok_or_else(|| format!("cannot read position '{text}'"))?;
    for mv in moves {
        board.play(mv).map_err(|e| format!("{}: {e}", format_move(mv)))?;
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_compact_positions() {
        let moves = parse_moves("h8i9j10").unwrap();
        assert_eq!(moves.iter().map(|m| (m.x(), m.y())).collect::<Vec<_>>(), [(7, 7), (8, 8), (9, 9)]);
        assert_eq!(moves.iter().map(|&m| format_move(m)).collect::<String>(), "h8i9j10");
        assert!(parse_moves("h0").is_none() && parse_moves("8h").is_none() && parse_moves("h").is_none());
        assert!(board_from_notation(15, Rule::Freestyle, "h8h8").is_err());
    }

    #[test]
    fn columns_past_z_take_two_letters() {
        let moves = parse_moves("z1aa2af32").unwrap();
        assert_eq!(moves.iter().map(|m| (m.x(), m.y())).collect::<Vec<_>>(), [(25, 0), (26, 1), (31, 31)]);
        assert_eq!(moves.iter().map(|&m| format_move(m)).collect::<String>(), "z1aa2af32");
        assert!(parse_moves("aaa1").is_none());
    }
}
