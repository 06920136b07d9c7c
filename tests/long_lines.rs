//! A line longer than any command (here 8 MiB without a line end until its last byte, as a
//! binary file piped in would be) is refused as a whole, not kept and echoed, and the game
//! before it stands: the Gomocup brain, GTP and the terminal game.

mod common;

use std::time::Duration;

use common::{run_engine, scratch_dir};

const DEADLINE: Duration = Duration::from_secs(60);

fn long_line() -> Vec<u8> {
    vec![b'A'; 8 << 20]
}

fn run(program: &str, args: &[&str], name: &str, lines: Vec<Vec<u8>>, last: &str) -> Vec<String> {
    let dir = scratch_dir(name);
    let run = run_engine(program, args, &dir, lines, None, last, DEADLINE);
    let _ = std::fs::remove_dir_all(&dir);
    run.assert_clean_exit(name, DEADLINE);
    let replies: Vec<String> =
        run.replies.iter().map(|line| String::from_utf8_lossy(line).trim_end().to_string()).collect();
    assert!(replies.iter().all(|line| line.len() < 200), "{name}: a long reply: the line was kept");
    replies
}

#[test]
fn gomocup_refuses_a_long_line_and_keeps_its_game() {
    let lines = ["START 15", "TURN 7,7"].map(|line| line.as_bytes().to_vec()).to_vec();
    let mut lines = [lines, vec![long_line(), b"BOARD".to_vec(), long_line(), b"DONE".to_vec()]].concat();
    // Taking back the brain's own reply succeeds only if the game before the long lines stands.
    lines.push(b"TAKEBACK_PLACEHOLDER".to_vec());
    let args = ["--max-depth", "2", "--threads", "1", "--hash", "1"];
    let program = env!("CARGO_BIN_EXE_pbrain-arbor");
    let first = run(program, &args, "long-line-gomocup-1", lines[..2].to_vec(), "END");
    let reply = first.iter().find(|line| !line.starts_with("MESSAGE") && *line != "OK").expect("a move").clone();
    *lines.last_mut().unwrap() = format!("TAKEBACK {reply}").into_bytes();
    let replies: Vec<String> = run(program, &args, "long-line-gomocup-2", lines, "END")
        .into_iter()
        .filter(|line| !line.starts_with("MESSAGE"))
        .collect();
    let refused = "ERROR line longer than 65536 bytes";
    assert_eq!(replies, ["OK", reply.as_str(), refused, refused, "OK"]);
}

#[test]
fn gtp_refuses_a_long_line_and_keeps_its_game() {
    let numbered = [b"7 ".to_vec(), long_line()].concat();
    let comment = [b"# ".to_vec(), long_line()].concat();
    let lines = vec![b"play x b2".to_vec(), long_line(), numbered, comment, b"1 showboard".to_vec()];
    let args = ["gtp", "--game", "tictactoe", "--threads", "1", "--hash", "1", "--max-depth", "2"];
    let replies = run(env!("CARGO_BIN_EXE_arbor"), &args, "long-line-gtp", lines, "quit");
    // The long comment, like any comment, gets no reply; the numbered line keeps its id.
    let refused = "line longer than 65536 bytes";
    assert_eq!(replies[..6], ["=", "", format!("? {refused}").as_str(), "", format!("?7 {refused}").as_str(), ""]);
    assert!(replies[6].starts_with("=1"), "{replies:?}");
    assert!(replies.iter().any(|line| line.contains('X')), "the stone played before stands: {replies:?}");
}

#[test]
fn the_terminal_game_refuses_a_long_line_and_goes_on() {
    let lines = vec![long_line(), b"b2".to_vec()];
    let args = ["play", "tictactoe", "--threads", "1", "--hash", "1", "--max-depth", "1"];
    let replies = run(env!("CARGO_BIN_EXE_arbor"), &args, "long-line-play", lines, "quit");
    let refused = replies.iter().position(|line| line.contains("longer than 65536 bytes; nothing was played"));
    let played = replies.iter().position(|line| line.starts_with("Arbor plays ") && line.ends_with(")."));
    assert!(matches!((refused, played), (Some(r), Some(p)) if r < p), "{replies:?}");
}
