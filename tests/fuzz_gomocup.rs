//! Fuzzes the Gomocup protocol layer with seeded random input.
//!
//! [`brain_survives_fuzzed_input`] feeds the real `pbrain-arbor` binary 100,000 lines: valid
//! commands with random arguments (the Yixin-Board extensions included), mutations of them and
//! random bytes, then `END`. The brain must not panic, must exit with status 0 soon after `END`,
//! must print nothing but protocol replies, each a whole line without control characters (a
//! manager may split lines on `\r`), and must reach the last line. [`brain_answers_each_command`]
//! sends 20,000 unmutated commands, each followed by a marker line, and checks that each gets
//! the replies it should: one move for `BEGIN`, `TURN`, `BOARD`; `OK` for `START`; none for
//! `INFO`; ... [`parser_survives_fuzzed_input`] runs the parser alone on a million lines and
//! checks that it tells known commands from unknown ones as the protocol's keywords say.
//!
//! All are deterministic: fixed seeds drive the project's seeded stream. Searches stay short
//! because the brain runs with `--max-depth 2` and the generator, mutations included, never
//! sends a line that would lift the depth cap above 3 or ask for long clocks, a big table or many
//! threads (see [`cheap`]); pondering, when the input turns it on, stops at that depth too.
//! About 2 s in release.

mod common;

use std::time::{Duration, Instant};

use arbor::protocol::gomocup::{Command as Cmd, Info, ParseError, classify, parse_command};
use arbor::protocol::io::Interrupt;
use common::{Rng, as_read, breaks_line, fuzz_lines, run_engine, scratch_dir};
use regex::Regex;

const SEED: u64 = 0xA4B0_F022_5EED_0001;
/// Lines sent to the brain, `END` included.
const BRAIN_LINES: usize = 100_000;
/// Lines given to the parser alone.
const PARSER_LINES: usize = 1_000_000;
/// From starting the brain to its exit, ample for a debug build on a busy machine.
const RUN_DEADLINE: Duration = Duration::from_secs(120);
/// The last lines sent: `DONE` ends any `BOARD` or `SWAP2BOARD` left open, the unknown word's
/// echo marks the end of the replies, and this `END` is the only one ever sent.
const TAIL: [&str; 3] = ["DONE", "FUZZ_SENTINEL", "END"];
const LAST_REPLY: &str = "UNKNOWN FUZZ_SENTINEL";
/// Largest `INFO` values the generator lets through: times in milliseconds, `max_depth`,
/// `max_memory` in bytes and `thread_num`.
const MAX_MILLIS: u64 = 50;
const MAX_DEPTH: u32 = 3;
const MAX_MEMORY: u64 = 8 << 20;
const MAX_THREADS: u32 = 2;
/// Commands (with their blocks) sent one by one between markers.
const MARKED_COMMANDS: usize = 20_000;
/// Follows every command of [`brain_answers_each_command`]; its reply closes the command's.
const MARKER: &str = "FUZZ_MARK";
const MARKER_REPLY: &str = "UNKNOWN FUZZ_MARK";
/// Every command name of the protocol and of the Yixin-Board extensions the parser knows.
const KEYWORDS: [&str; 36] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "SWAP2BOARD",
    "DONE",
    "INFO",
    "END",
    "ABOUT",
    "TAKEBACK",
    "PLAY",
    "STOP",
    "YXSTOP",
    "YXBOARD",
    "YXNBEST",
    "YXSHOWINFO",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
    "YXBALANCEONE",
    "YXBALANCETWO",
    "YXBLOCKPATH",
    "YXBLOCKPATHUNDO",
    "YXQUERYDATABASEALL",
    "YXQUERYDATABASEALLT",
    "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT",
    "YXEDITTVDDATABASE",
    "YXEDITTEXTDATABASE",
    "YXEDITLABELDATABASE",
    "YXDELETEDATABASEONE",
    "YXDELETEDATABASEALL",
];

/// Every reply the brain may print, by kind.
const GRAMMAR: &[(&str, &str)] = &[
    ("ok", r"OK"),
    ("move", r"\d+,\d+"),
    ("stones", r"\d+,\d+( \d+,\d+)+"),
    ("swap", r"SWAP"),
    ("forbid", r"FORBID (\d{4})*\."),
    ("error", r"ERROR .*"),
    ("unknown", r"UNKNOWN .*"),
    ("message", r"MESSAGE .*"),
    ("debug", r"DEBUG .*"),
    ("about", r#"name=".*".*"#),
];

/// A coordinate pair, mostly on a board, sometimes just off it or negative.
fn point(rng: &mut Rng) -> String {
    let hi = if rng.percent(80) { 20 } else { 40 };
    format!("{},{}", rng.range(-3, hi), rng.range(-3, hi))
}

fn info(rng: &mut Rng) -> String {
    let millis = |rng: &mut Rng| rng.range(-5, MAX_MILLIS as i64 + 1);
    let (key, value) = match rng.below(18) {
        0 => ("timeout_turn", millis(rng).to_string()),
        1 => ("timeout_match", millis(rng).to_string()),
        2 => ("time_left", millis(rng).to_string()),
        3 => ("max_memory", rng.range(0, MAX_MEMORY as i64).to_string()),
        4 => ("game_type", rng.range(0, 4).to_string()),
        5 => ("rule", rng.pick(&[0, 1, 2, 4, 8, 3, 9]).to_string()),
        6 => ("evaluate", point(rng)),
        7 => ("folder", rng.pick(&["/tmp/arbor", "C:\\brain dir\\", ""]).to_string()),
        // Mostly one thread: a pool of two costs more to start than a capped search takes.
        8 => ("thread_num", rng.pick(&[0, 1, 1, MAX_THREADS]).to_string()),
        9 => ("max_depth", rng.range(1, MAX_DEPTH as i64 + 1).to_string()),
        10 => ("caution_factor", rng.range(0, 7).to_string()),
        11 => ("hash_size", rng.pick(&[0, 1, 1024, MAX_MEMORY >> 10]).to_string()),
        12 => ("max_node", rng.range(-2, 5_000).to_string()),
        13 => ("time_increment", millis(rng).to_string()),
        14 => ("pondering", rng.range(0, 3).to_string()),
        15 => ("thread_split_depth", rng.range(0, 20).to_string()),
        16 => ("nbestsym", rng.range(0, 2).to_string()),
        _ => ("usedatabase", rng.range(0, 2).to_string()),
    };
    format!("INFO {key} {value}")
}

/// `command`, then fewer than `most` lines made by `line`, then `DONE`.
fn block(rng: &mut Rng, command: &str, most: usize, line: fn(&mut Rng) -> String) -> Vec<String> {
    let mut block = vec![command.to_string()];
    let count = rng.below(most);
    block.extend((0..count).map(|_| line(rng)));
    block.push("DONE".into());
    block
}

/// One of the Yixin-Board extensions with random arguments, blocks with their lines.
fn yixin_command(rng: &mut Rng) -> Vec<String> {
    let line = match rng.below(12) {
        0 => {
            let first = rng.below(2);
            let mut block = vec!["YXBOARD".to_string()];
            for i in 0..rng.below(20) {
                block.push(format!("{},{}", point(rng), 1 + (first + i) % 2));
            }
            block.push("DONE".into());
            return block;
        }
        1 => format!("YXNBEST {}", rng.range(0, 6)),
        2 => rng.pick(&["YXSHOWINFO", "YXSHOWFORBID", "YXHASHCLEAR", "YXBLOCKRESET"]).to_string(),
        3 => return block(rng, "YXBLOCK", 4, point),
        4 => return block(rng, "YXBLOCKUNDO", 3, point),
        5 => format!("YXBALANCEONE {}", rng.range(-400, 400)),
        6 => format!("YXBALANCETWO {}", rng.range(-400, 400)),
        7 => {
            let command = *rng.pick(&["YXQUERYDATABASEALL", "YXBLOCKPATH", "YXEDITTVDDATABASE 15 87 0 1"]);
            return block(rng, command, 3, point);
        }
        _ => rng.pick(&["YXSHOWHASHUSAGE", "YXSEARCHDEFEND", "YXBLOCKPATHRESET", "YXHASHDUMP /tmp/x"]).to_string(),
    };
    vec![line]
}

/// One valid command with random arguments; `BOARD` and `SWAP2BOARD` come with their stones.
/// New games are rare enough for games to grow (and a debug build clears the table slowly).
fn command(rng: &mut Rng) -> Vec<String> {
    if rng.percent(15) {
        return yixin_command(rng);
    }
    let line = match rng.below(20) {
        0 if rng.percent(40) => format!("START {}", rng.range(0, 41)),
        0 if rng.percent(20) => format!("START {} {}", rng.range(0, 41), rng.range(0, 41)),
        0 => format!("RECTSTART {},{}", rng.range(0, 41), rng.range(0, 41)),
        1 => rng.pick(&["RESTART", "BEGIN"]).to_string(),
        2..5 => format!("TURN {}", point(rng)),
        5 => format!("PLAY {}", point(rng)),
        6 => format!("TAKEBACK {}", point(rng)),
        7 => {
            // Mostly alternating own and opponent stones, so that some positions are playable.
            let mut block = vec!["BOARD".to_string()];
            let first = rng.below(2);
            for i in 0..rng.below(25) {
                let field = if rng.percent(90) { 1 + (first + i) % 2 } else { rng.below(5) };
                block.push(format!("{},{field}", point(rng)));
            }
            block.push("DONE".into());
            return block;
        }
        8 => {
            let count = if rng.percent(80) { *rng.pick(&[0, 3, 5]) } else { rng.below(8) };
            let mut block = vec!["SWAP2BOARD".to_string()];
            block.extend((0..count).map(|_| point(rng)));
            block.push("DONE".into());
            return block;
        }
        9..14 => info(rng),
        14 => rng.pick(&["ABOUT", "STOP", "YXSTOP", "DONE"]).to_string(),
        15 => point(rng),
        16 => format!("{},{}", point(rng), rng.range(0, 5)),
        _ => rng.pick(&["HELLO", "SWAP2", "YXBOARDS", "TURNS 1,2", "INFO", "", "  ", "PING"]).to_string(),
    };
    vec![line]
}

/// Whether `line` may be sent: one line, not `END` (it would end the run early), and nothing that
/// lifts the depth cap or asks for long clocks, a big table or many threads.
fn cheap(line: &[u8]) -> bool {
    let text = as_read(line);
    let text = text.as_str();
    if classify(text) == Interrupt::Quit {
        return false;
    }
    match parse_command(text.trim()) {
        Ok(Cmd::End) => false,
        Ok(Cmd::Info(Info::TimeoutTurn(ms) | Info::TimeoutMatch(ms) | Info::TimeLeft(ms))) => ms <= MAX_MILLIS,
        Ok(Cmd::Info(Info::MaxDepth(depth))) => (1..=MAX_DEPTH).contains(&depth),
        Ok(Cmd::Info(Info::MaxMemory(bytes))) => bytes <= MAX_MEMORY,
        Ok(Cmd::Info(Info::ThreadNum(threads))) => threads <= MAX_THREADS,
        Ok(Cmd::Info(Info::HashSize(kib))) => kib <= MAX_MEMORY >> 10,
        Ok(Cmd::Info(Info::TimeIncrement(ms))) => ms <= MAX_MILLIS,
        _ => true,
    }
}

/// Each reply line's kind from [`GRAMMAR`], `None` for a line outside the protocol.
fn reply_kinds(replies: &[Vec<u8>]) -> Vec<Option<&'static str>> {
    let grammar: Vec<(&str, Regex)> =
        GRAMMAR.iter().map(|&(kind, pattern)| (kind, Regex::new(&format!("^(?:{pattern})$")).unwrap())).collect();
    replies
        .iter()
        .map(|reply| {
            let line = std::str::from_utf8(reply).ok().filter(|line| !line.chars().any(breaks_line))?;
            grammar.iter().find(|(_, re)| re.is_match(line)).map(|&(kind, _)| kind)
        })
        .collect()
}

fn run_brain(lines: Vec<Vec<u8>>, name: &str) -> common::Run {
    let dir = scratch_dir(name);
    let args = ["--max-depth", "2", "--threads", "1", "--hash", "1"];
    let run = run_engine(env!("CARGO_BIN_EXE_pbrain-arbor"), &args, &dir, lines, None, "END", RUN_DEADLINE);
    let _ = std::fs::remove_dir_all(&dir);
    run.assert_clean_exit("pbrain-arbor", RUN_DEADLINE);
    run
}

#[test]
fn brain_survives_fuzzed_input() {
    let mut lines = fuzz_lines(&mut Rng::new(SEED), BRAIN_LINES - TAIL.len(), command, cheap);
    lines.extend(TAIL[..TAIL.len() - 1].iter().map(|line| line.as_bytes().to_vec()));
    let started = Instant::now();
    let run = run_brain(lines, "fuzz-gomocup");
    let elapsed = started.elapsed();

    let kinds = reply_kinds(&run.replies);
    println!("sent {BRAIN_LINES} lines, got {} replies in {elapsed:.1?}", run.replies.len());
    for (kind, _) in GRAMMAR {
        println!("  {kind:>8}: {}", kinds.iter().filter(|k| **k == Some(kind)).count());
    }
    let bad: Vec<String> = run
        .replies
        .iter()
        .zip(&kinds)
        .filter(|(_, kind)| kind.is_none())
        .map(|(reply, _)| format!("{:?}", String::from_utf8_lossy(reply)))
        .collect();
    assert!(
        bad.is_empty(),
        "{} replies outside the protocol, the first ones:\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
    // The session answers in order, so this proves that it read every line and left at END.
    let last = run.replies.last().map(|r| String::from_utf8_lossy(r));
    assert_eq!(last.as_deref(), Some(LAST_REPLY), "the brain stopped early");
}

/// The reply kinds (from [`GRAMMAR`]) a command and its block may get, `MESSAGE` and `DEBUG`
/// lines aside: any one of the sequences listed.
fn expected_replies(first_line: &str) -> &'static [&'static [&'static str]] {
    let line = first_line.trim().to_ascii_uppercase();
    if line.is_empty() {
        return &[&[]];
    }
    if line.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
        // A stone line outside a block.
        return &[&["error"]];
    }
    let word = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or_default();
    match word {
        "START" | "RECTSTART" | "RESTART" | "TAKEBACK" => &[&["ok"], &["error"]],
        "BEGIN" | "TURN" | "BOARD" | "PLAY" | "YXNBEST" | "YXBALANCEONE" => &[&["move"], &["error"]],
        "YXBALANCETWO" => &[&["stones"], &["error"]],
        "SWAP2BOARD" => &[&["move"], &["stones"], &["swap"], &["error"]],
        "YXSHOWFORBID" => &[&["forbid"], &["error"]],
        "INFO" | "YXBOARD" | "YXBLOCK" | "YXBLOCKUNDO" | "YXHASHCLEAR" | "YXBLOCKRESET" => &[&[], &["error"]],
        "YXSHOWINFO" | "STOP" | "YXSTOP" => &[&[]],
        "DONE" => &[&["error"]],
        "ABOUT" => &[&["about"]],
        _ => &[&["unknown"]],
    }
}

#[test]
fn brain_answers_each_command() {
    let mut rng = Rng::new(SEED ^ 0xC0DE);
    let mut commands = Vec::with_capacity(MARKED_COMMANDS);
    let mut lines = Vec::new();
    while commands.len() < MARKED_COMMANDS {
        let batch = command(&mut rng);
        if batch.iter().all(|line| cheap(line.as_bytes())) {
            lines.extend(batch.iter().map(|line| line.clone().into_bytes()));
            lines.push(MARKER.as_bytes().to_vec());
            commands.push(batch[0].clone());
        }
    }
    let run = run_brain(lines, "fuzz-gomocup-marked");

    let kinds = reply_kinds(&run.replies);
    let mut answers: Vec<Vec<&str>> = vec![Vec::new()];
    for (reply, kind) in run.replies.iter().zip(&kinds) {
        match *kind {
            _ if reply == MARKER_REPLY.as_bytes() => answers.push(Vec::new()),
            Some("message" | "debug") => {}
            Some(kind) => answers.last_mut().unwrap().push(kind),
            None => panic!("a reply outside the protocol: {:?}", String::from_utf8_lossy(reply)),
        }
    }
    assert_eq!(answers.pop(), Some(Vec::new()), "nothing may follow the last marker but END's silence");
    assert_eq!(answers.len(), commands.len(), "one marker reply per command");
    let mut tally = std::collections::BTreeMap::new();
    for (command, answer) in commands.iter().zip(&answers) {
        let allowed = expected_replies(command);
        assert!(allowed.contains(&answer.as_slice()), "{command:?} was answered {answer:?}, not one of {allowed:?}");
        *tally.entry(answer.join(" ")).or_insert(0) += 1;
    }
    println!("{} commands answered: {tally:?}", commands.len());
    // The positions get played, not only refused.
    assert!(tally.get("move").is_some_and(|&n| n > MARKED_COMMANDS / 20), "{tally:?}");
}

#[test]
fn parser_survives_fuzzed_input() {
    let lines = fuzz_lines(&mut Rng::new(SEED ^ 0xFFFF), PARSER_LINES, command, |_| true);
    let (mut ok, mut unknown, mut bad_arguments) = (0, 0, 0);
    for line in &lines {
        let text = String::from_utf8_lossy(line);
        let result = std::panic::catch_unwind(|| parse_command(&text))
            .unwrap_or_else(|_| panic!("parse_command panicked on {text:?}"));
        // A line is a known command (maybe with bad arguments) exactly when it starts with a
        // keyword as a whole word, in any case, or with a number (a stone line).
        let trimmed = text.trim();
        let word = trimmed.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or_default();
        let known = KEYWORDS.iter().any(|keyword| keyword.eq_ignore_ascii_case(word))
            || trimmed.starts_with(|c: char| c == '-' || c.is_ascii_digit());
        match result {
            Ok(_) => ok += 1,
            Err(ParseError::Unknown) => unknown += 1,
            Err(_) => bad_arguments += 1,
        }
        assert_eq!(!matches!(result, Err(ParseError::Unknown)), known, "{text:?} parsed as {result:?}");
    }
    println!("parsed {} lines: {ok} commands, {unknown} unknown, {bad_arguments} with bad arguments", lines.len());
    assert!(ok > 0 && unknown > 0 && bad_arguments > 0);
}
