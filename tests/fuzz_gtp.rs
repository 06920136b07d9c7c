//! Fuzzes `arbor gtp` for Amazons and tic-tac-toe with 100,000 seeded lines each: every GTP
//! command with random arguments (ids, huge and negative numbers, moves in every notation,
//! `set_position` garbage), mutations of them, random bytes and empty lines. The engine must not
//! panic or hang, must answer every line that is not empty or a comment with exactly one
//! well-formed reply (`=` or `?`, the request's id echoed, text lines, an empty line) and print
//! nothing else, and must exit with status 0 after the final `quit`.
//!
//! Searches stay tiny: the engine runs with `--max-depth 1` (tic-tac-toe: 2), whatever clock
//! the input sets. Deterministic: fixed seeds, one search thread.

mod common;

use std::time::Duration;

use arbor::protocol::gtp::classify;
use arbor::protocol::io::Interrupt;
use common::{Rng, amazons_move, as_read, breaks_line, fuzz_lines, run_engine, scratch_dir, square};

/// Lines sent to each game, the sentinel and `quit` not counted.
const LINES: usize = 100_000;
/// From starting the engine to its exit, ample for a busy machine.
const RUN_DEADLINE: Duration = Duration::from_secs(120);
/// An unknown command sent after the fuzz: its reply marks the end of the fuzz's replies.
const SENTINEL: &str = "fuzz_sentinel";
const SENTINEL_REPLY: &str = "? unknown command: fuzz_sentinel";

/// What the generator needs to know of a game.
struct Game {
    name: &'static str,
    seed: u64,
    colors: &'static [&'static str],
    moves: fn(&mut Rng) -> String,
    positions: fn(&mut Rng) -> String,
    max_depth: &'static str,
}

fn amazons_position(rng: &mut Rng) -> String {
    let mut words = Vec::new();
    for _ in 0..rng.below(12) {
        let word = match rng.below(6) {
            0 => rng.pick(&["white", "black", "arrows", "tomove", "WHITE", "to"]).to_string(),
            1 => rng.pick(&["white", "black", "nobody"]).to_string(),
            _ => square(rng, 11, 11),
        };
        words.push(word);
    }
    if rng.percent(30) {
        return "white a4 d1 g1 j4 black a7 d10 g10 j7 arrows e5 f6 tomove black".into();
    }
    words.join(" ")
}

/// Cells as `b2` or `x,y`, mostly on an 8x8 board, sometimes far off it.
fn tictactoe_move(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => format!("{},{}", rng.range(-2, 10), rng.range(-2, 10)),
        1 => rng.pick(&["pass", "resign", "a0", "i9", "99999999999999999999,1", "-1,-1"]).to_string(),
        _ => square(rng, 9, 9),
    }
}

fn tictactoe_position(rng: &mut Rng) -> String {
    let size = rng.range(2, 9) as usize;
    let rows: Vec<String> =
        (0..size).map(|_| (0..size).map(|_| *rng.pick(&['x', 'o', '.', '.', 'X', '?'])).collect()).collect();
    let separator = *rng.pick(&["/", "/", " ", ""]);
    rows.join(separator)
}

const GAMES: [Game; 2] = [
    Game {
        name: "amazons",
        seed: 0xA4B0_F022_5EED_0002,
        colors: &["w", "b", "white", "black", "W", "Black", "x", "o", "red", ""],
        moves: amazons_move,
        positions: amazons_position,
        max_depth: "1",
    },
    Game {
        name: "tictactoe",
        seed: 0xA4B0_F022_5EED_0003,
        colors: &["x", "o", "X", "O", "black", "white", "b", "w", "z", ""],
        moves: tictactoe_move,
        positions: tictactoe_position,
        max_depth: "2",
    },
];

fn seconds(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => rng.pick(&common::HUGE_NUMBERS).to_string(),
        1 => format!("{}.{}", rng.below(100), rng.below(1000)),
        _ => rng.range(0, 2000).to_string(),
    }
}

/// One GTP line: a command with random arguments, often with an id.
fn command(game: &Game, rng: &mut Rng) -> String {
    let color = |rng: &mut Rng| rng.pick(game.colors).to_string();
    let line = match rng.below(24) {
        0 => rng.pick(&["protocol_version", "name", "version", "list_commands", "final_score"]).to_string(),
        1 => format!("known_command {}", rng.pick(&["genmove", "quit", "fly", "play", ""])),
        2 => format!(
            "boardsize {}",
            rng.pick(&["3", "4", "5", "8", "10", "2", "9", "0", "-3", "11", "99999999999999999999"])
        ),
        3 => "clear_board".into(),
        4..10 => format!("play {} {}", color(rng), (game.moves)(rng)),
        10 | 11 => format!("genmove {}", color(rng)),
        12 | 13 => "undo".into(),
        14 => "showboard".into(),
        15 => format!(
            "time_settings {} {} {}",
            seconds(rng),
            seconds(rng),
            rng.pick(&["0", "1", "25", "-1", "4294967296"])
        ),
        16 => format!("time_left {} {} {}", color(rng), seconds(rng), rng.pick(&["0", "1", "3", "-2"])),
        17 | 18 => format!("set_position {}", (game.positions)(rng)),
        19 => format!("set_first_color {}", color(rng)),
        20 => rng.pick(&["", "  ", "\r", "# a comment", "\t", "list_commands # why", "PLAY", "genmove"]).to_string(),
        21 => rng
            .pick(&["fly", "quitter", "names", "boardsize ten", "play", "known_command", "kgs-genmove_cleanup b"])
            .to_string(),
        _ => (game.moves)(rng),
    };
    match rng.below(4) {
        0 => format!("{} {line}", rng.range(0, 1000)),
        1 if rng.percent(20) => format!("{}{line}", rng.pick(&common::HUGE_NUMBERS)),
        _ => line,
    }
}

/// Whether a reply is due for `line`, and the id it must echo: GTP drops control characters
/// other than tabs, reads `#` as a comment and ignores what is then empty; an id is the digits
/// the line starts with, if they fit in 64 bits.
fn expected_reply(line: &str) -> Option<Option<u64>> {
    let line = line.split('#').next().unwrap_or_default();
    let cleaned: String = line.chars().filter(|c| !c.is_control() || *c == '\t').collect();
    let cleaned = cleaned.replace('\t', " ");
    let cleaned = cleaned.trim();
    if cleaned.is_empty() {
        return None;
    }
    let digits: String = cleaned.chars().take_while(char::is_ascii_digit).collect();
    // An id is a number followed by a space or by nothing.
    let ends = matches!(cleaned[digits.len()..].chars().next(), None | Some(' '));
    Some(digits.parse().ok().filter(|_| ends))
}

/// One reply as printed: `=` or `?`, the id if any, the lines of text.
#[derive(Debug)]
struct Reply {
    ok: bool,
    id: Option<u64>,
    text: Vec<String>,
}

/// Splits the output into replies; an error names the first line outside GTP's framing.
fn replies(output: &[Vec<u8>]) -> Result<Vec<Reply>, String> {
    let mut replies = Vec::new();
    let mut current: Option<Reply> = None;
    for (number, raw) in output.iter().enumerate() {
        let line = std::str::from_utf8(raw).map_err(|_| format!("line {number} is not UTF-8: {raw:?}"))?;
        if line.chars().any(breaks_line) {
            return Err(format!("line {number} has a control character: {line:?}"));
        }
        match current.as_mut() {
            None => {
                let mark = line.chars().next();
                if !matches!(mark, Some('=' | '?')) {
                    return Err(format!("line {number} starts no reply: {line:?}"));
                }
                let rest = &line[1..];
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let text = &rest[digits.len()..];
                if !(text.is_empty() || text.starts_with(' ')) {
                    return Err(format!("line {number}: no space after the id: {line:?}"));
                }
                let id = (!digits.is_empty()).then(|| digits.parse::<u64>()).transpose().map_err(|e| e.to_string())?;
                let text = text.strip_prefix(' ').map(|t| vec![t.to_string()]).unwrap_or_default();
                current = Some(Reply { ok: mark == Some('='), id, text });
            }
            Some(_) if line.is_empty() => replies.extend(current.take()),
            Some(reply) => reply.text.push(line.to_string()),
        }
    }
    match current {
        Some(reply) => Err(format!("the last reply is not ended by an empty line: {reply:?}")),
        None => Ok(replies),
    }
}

fn fuzz(game: &Game) {
    let mut rng = Rng::new(game.seed);
    // `quit` only at the very end: any other would end the run early.
    let keep = |line: &[u8]| classify(&as_read(line)) != Interrupt::Quit;
    let mut lines = fuzz_lines(&mut rng, LINES, |rng| vec![command(game, rng)], keep);
    let requests: Vec<String> = lines.iter().map(|line| as_read(line)).collect();
    let expected: Vec<(Option<u64>, &str)> =
        requests.iter().filter_map(|line| Some((expected_reply(line)?, line.as_str()))).collect();
    lines.push(SENTINEL.as_bytes().to_vec());
    let dir = scratch_dir(&format!("fuzz-gtp-{}", game.name));
    let program = env!("CARGO_BIN_EXE_arbor");
    let args = ["gtp", "--game", game.name, "--threads", "1", "--hash", "1", "--max-depth", game.max_depth];
    let run = run_engine(program, &args, &dir, lines, Some(SENTINEL_REPLY), "quit", RUN_DEADLINE);
    let _ = std::fs::remove_dir_all(&dir);
    run.assert_clean_exit(&format!("arbor gtp --game {}", game.name), RUN_DEADLINE);

    let replies = replies(&run.replies).unwrap_or_else(|e| panic!("{}: output outside GTP: {e}", game.name));
    let (ok, failed) = (replies.iter().filter(|r| r.ok).count(), replies.iter().filter(|r| !r.ok).count());
    // One reply per line that asks for one, the fuzz's then the sentinel's and quit's.
    assert_eq!(replies.len(), expected.len() + 2, "{}: one reply per request", game.name);
    let mut moves = 0;
    for (index, (reply, (id, request))) in replies.iter().zip(&expected).enumerate() {
        assert_eq!(reply.id, *id, "{}: reply {index} to {request:?} echoes the wrong id: {reply:?}", game.name);
        moves += usize::from(reply.ok && request.contains("genmove") && reply.text.len() == 1);
    }
    println!(
        "{}: {LINES} lines sent, {} replies ({ok} =, {failed} ?), {moves} moves generated",
        game.name,
        replies.len()
    );
    let tail = &replies[replies.len() - 2..];
    assert_eq!((tail[0].ok, tail[0].text.join("\n").as_str()), (false, "unknown command: fuzz_sentinel"));
    assert!(tail[1].ok && tail[1].text.is_empty(), "quit is answered with =: {:?}", tail[1]);
    // The fuzz reaches the engine's answers, not only its syntax errors.
    assert!(
        ok > LINES / 20 && failed > LINES / 20 && moves > LINES / 200,
        "{}: {ok} =, {failed} ?, {moves} moves",
        game.name
    );
}

#[test]
fn amazons_gtp_survives_fuzzed_input() {
    fuzz(&GAMES[0]);
}

#[test]
fn tictactoe_gtp_survives_fuzzed_input() {
    fuzz(&GAMES[1]);
}
