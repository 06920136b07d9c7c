//! `arbor forbidden` and `arbor features` as scripts use them: a bad line does not cost the
//! lines after it. `forbidden` answers it in place (one line out per line in); `features` names
//! it on stderr, writes every good game's rows and then fails, so a fit never loses games
//! silently. And output piped into `head` ends quietly when `head` has read enough.

mod common;

use std::process::{Command, Stdio};

use common::arbor;

/// A 15x15 board's rows with black and white stones at `(x, y)` cells.
fn rows(black: &[(usize, usize)], white: &[(usize, usize)]) -> String {
    let mut cells = vec![b'.'; 15 * 15];
    for &(x, y) in black {
        cells[y * 15 + x] = b'X';
    }
    for &(x, y) in white {
        cells[y * 15 + x] = b'O';
    }
    String::from_utf8(cells).unwrap()
}

#[test]
fn forbidden_answers_a_bad_line_in_place_and_goes_on() {
    // Black's double three at 7,7, white's stones far away.
    let cross = rows(&[(6, 7), (8, 7), (7, 6), (7, 8)], &[(0, 0), (14, 0), (0, 14), (14, 14)]);
    let empty = rows(&[], &[]);
    let input = [cross.as_str(), "XX", "", empty.as_str(), "not a board\u{0}"].join("\n");
    let output = arbor(&["forbidden"], input.as_bytes());
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines, ["7,7", lines[1], lines[2], "", lines[4]], "{text}");
    for (index, line) in [(2, lines[1]), (3, lines[2]), (5, lines[4])] {
        assert!(line.starts_with(&format!("error line {index}: ")), "{text}");
    }
}

#[test]
fn features_skips_a_bad_game_writes_the_rest_and_fails() {
    let game = "B 7,7 8,8 7,8 8,9 7,9 8,10 7,10 9,9 7,11";
    let good = arbor(&["features"], format!("{game}\n").as_bytes());
    assert!(good.status.success());
    let rows = String::from_utf8(good.stdout).unwrap();
    assert!(!rows.is_empty());
    let input = format!("X 7,7\n{game}\nB 7,7 7,7\n");
    let output = arbor(&["features"], input.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), rows, "the good game's rows, and only those");
    let error = String::from_utf8(output.stderr).unwrap();
    assert!(error.contains("line 1: ") && error.contains("line 3: ") && error.contains("2 bad line(s)"), "{error}");
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["selfplay", "--time", "300", "--moves", "4", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbor runs");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    // The reader is gone; the next move's lines come a search later.
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(141));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}
