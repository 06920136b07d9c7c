//! Fuzzes `arbor play` (the terminal game read from a pipe) with 100,000 seeded lines over its
//! three games: moves in every notation, the words it knows (`help`, `undo`, `hint`, `save`),
//! mutations of them, random bytes and empty lines. The game must not panic or hang, must
//! answer every line with a prompt on a line of its own (so none was lost or ended the game),
//! print no control character (a terminal would obey it), and say `Bye.` to the final `quit`.
//!
//! Searches stay tiny (`--max-depth 1`); `save` writes only plain file names, in a scratch
//! folder. Deterministic: fixed seeds, one search thread.

mod common;

use std::time::Duration;

use common::{Rng, amazons_move, as_read, breaks_line, fuzz_lines, run_engine, scratch_dir, square};

/// Lines for each game (100,000 in all), `quit` not counted.
const TICTACTOE_LINES: usize = 40_000;
const GOMOKU_LINES: usize = 30_000;
const AMAZONS_LINES: usize = 30_000;
const RUN_DEADLINE: Duration = Duration::from_secs(120);

/// A line of what a person might type: a move, a word the game knows, or a slip.
fn typed(rng: &mut Rng, game_move: fn(&mut Rng) -> String) -> String {
    match rng.below(12) {
        0 => rng.pick(&["help", "?", "HELP", "hint", "Hint"]).to_string(),
        1 | 2 => rng.pick(&["undo", "UNDO", "undo 2"]).to_string(),
        3 => format!("save {}", rng.pick(&["game.txt", "g", "", "x.y.z", "-"])),
        4 => rng.pick(&["", " ", "\r", "\t", "hello", "00", "quit now", "resign", "pass"]).to_string(),
        5 => format!("{},{}", rng.range(-3, 20), rng.range(-3, 20)),
        _ => game_move(rng),
    }
}

fn tictactoe_move(rng: &mut Rng) -> String {
    square(rng, 4, 4)
}

fn gomoku_move(rng: &mut Rng) -> String {
    if rng.percent(10) { format!("{}{}", square(rng, 16, 16), square(rng, 16, 16)) } else { square(rng, 16, 16) }
}

/// Whether the game may be sent `line`: not a word that ends it, and `save` only to a plain
/// file name (the fuzz must not write anywhere else).
fn keep(line: &[u8]) -> bool {
    let text = as_read(line);
    let text = text.trim();
    if matches!(text.to_ascii_lowercase().as_str(), "0" | "quit" | "exit" | "q") {
        return false;
    }
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    !word.eq_ignore_ascii_case("save")
        || rest.trim().chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
            && !rest.trim().starts_with('.')
}

fn is_prompt(line: &str) -> bool {
    line.ends_with(" to move, your move (e.g. b2) >")
        || line.ends_with(" to move, your move (e.g. h8) >")
        || line.ends_with(" to move, your move (e.g. d1-d7/g7) >")
        || line == "Game over: undo, save FILE or 0 to quit >"
}

fn fuzz(game: &str, seed: u64, count: usize, game_move: fn(&mut Rng) -> String) {
    let mut rng = Rng::new(seed);
    let lines = fuzz_lines(&mut rng, count, |rng| vec![typed(rng, game_move)], keep);
    let dir = scratch_dir(&format!("fuzz-play-{game}"));
    let program = env!("CARGO_BIN_EXE_arbor");
    let args = ["play", game, "--threads", "1", "--hash", "1", "--max-depth", "1"];
    let run = run_engine(program, &args, &dir, lines, None, "quit", RUN_DEADLINE);
    let _ = std::fs::remove_dir_all(&dir);
    run.assert_clean_exit(&format!("arbor play {game}"), RUN_DEADLINE);

    let output: Vec<String> = run.replies.iter().map(|line| String::from_utf8_lossy(line).into_owned()).collect();
    if let Some(bad) = output.iter().find(|line| line.chars().any(breaks_line)) {
        panic!("{game}: a control character in {bad:?}");
    }
    let prompts = output.iter().filter(|line| is_prompt(line)).count();
    let engine_moves = output.iter().filter(|line| line.starts_with("Arbor plays ") && line.ends_with(").")).count();
    println!("{game}: {count} lines sent, {} lines back, {engine_moves} engine moves", output.len());
    // The first prompt comes before any input; then one for each line.
    assert_eq!(prompts, count + 1, "{game}: one prompt per line");
    assert_eq!(output.last().map(String::as_str), Some("Bye."), "{game}: the game ended early");
    assert!(engine_moves > count / 200, "{game}: only {engine_moves} engine moves");
}

#[test]
fn tictactoe_play_survives_fuzzed_input() {
    fuzz("tictactoe", 0xA4B0_F022_5EED_0004, TICTACTOE_LINES, tictactoe_move);
}

#[test]
fn gomoku_play_survives_fuzzed_input() {
    fuzz("gomoku", 0xA4B0_F022_5EED_0005, GOMOKU_LINES, gomoku_move);
}

#[test]
fn amazons_play_survives_fuzzed_input() {
    fuzz("amazons", 0xA4B0_F022_5EED_0006, AMAZONS_LINES, amazons_move);
}
