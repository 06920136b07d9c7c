//! Fuzzes the Gomocup protocol layer with seeded random input.
//!
//! [`brain_survives_fuzzed_input`] feeds the real `pbrain-arbor` binary over 100,000 lines: valid
//! commands with random arguments (the Yixin-Board extensions included), mutations of them and
//! random bytes, then `END`. The brain must
//! not panic, must exit with status 0 soon after `END`, and must print nothing but protocol
//! replies, each a whole line without control characters (a manager may split lines on `\r`).
//! [`parser_survives_fuzzed_input`] runs the parser alone on a million such lines.
//!
//! Both are deterministic: a fixed seed drives a splitmix64 generator written here. Searches stay
//! short because the brain runs with `--max-depth 2` and the generator, mutations included, never
//! sends a line that would lift the depth cap above 3 or ask for long clocks, a big table or many
//! threads (see [`cheap`]); pondering, when the input turns it on, stops at that depth too.
//! About 20 s in a debug build on two cores, 2 s in release.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use arbor::protocol::gomocup::{Command as Cmd, Info, ParseError, classify, parse_command};
use arbor::protocol::io::Interrupt;
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
/// Length of the generator's very long lines.
const LONG_LINE: usize = 10_000;

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

/// splitmix64: tiny, fast and good enough to pick test inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `lo..hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo) as u64) as i64
    }

    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

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

/// Changes `line` in one of the ways a broken manager or a bad pipe might.
fn mutate(rng: &mut Rng, line: &mut Vec<u8>) {
    let at = |rng: &mut Rng, line: &Vec<u8>| rng.below(line.len() + 1);
    match rng.below(10) {
        0 if !line.is_empty() => {
            let i = rng.below(line.len());
            line[i] ^= 1 << rng.below(8);
        }
        1 => line.truncate(at(rng, line)),
        2 => {
            let (a, b) = (at(rng, line), at(rng, line));
            let copy = line[a.min(b)..a.max(b)].to_vec();
            let i = at(rng, line);
            line.splice(i..i, copy);
        }
        3 => {
            for byte in line.iter_mut() {
                if rng.percent(50) {
                    *byte =
                        if byte.is_ascii_lowercase() { byte.to_ascii_uppercase() } else { byte.to_ascii_lowercase() };
                }
            }
        }
        4 => {
            let extra = *rng.pick(&[" ", "  ", ",", ",,", "\r", "\t", " , ", "-"]);
            let i = at(rng, line);
            line.splice(i..i, extra.bytes());
        }
        5 => {
            let odd = *rng.pick(&["é", "中", "\u{3000}", "\u{feff}", "\u{a0}", "\u{85}", "\u{2028}", "💥"]);
            let i = at(rng, line);
            line.splice(i..i, odd.bytes());
        }
        6 => {
            let byte = *rng.pick(&[0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, 0x1b, 0x7f, 0x80, 0xc3, 0xfe, 0xff]);
            let i = at(rng, line);
            line.insert(i, byte);
        }
        7 => {
            let number = *rng.pick(&["99999999999999999999", "-1", "4294967296", "18446744073709551615", "007", "0"]);
            let i = at(rng, line);
            line.splice(i..i, number.bytes());
        }
        8 if !line.is_empty() && rng.percent(10) => {
            let seed = line.clone();
            while line.len() < LONG_LINE {
                line.extend_from_slice(&seed);
            }
        }
        _ if !line.is_empty() => {
            line.remove(rng.below(line.len()));
        }
        _ => {}
    }
}

/// Random bytes: short and printable-heavy, or rarely a very long line of anything.
fn noise(rng: &mut Rng) -> Vec<u8> {
    let len = if rng.percent(2) { LONG_LINE } else { rng.below(40) };
    let printable = rng.percent(50);
    (0..len).map(|_| if printable { rng.range(0x20, 0x7f) as u8 } else { rng.below(256) as u8 }).collect()
}

/// Whether `line` may be sent: one line, not `END` (it would end the run early), and nothing that
/// lifts the depth cap or asks for long clocks, a big table or many threads.
fn cheap(line: &[u8]) -> bool {
    if line.contains(&b'\n') {
        return false;
    }
    // What the brain's reader makes of the bytes.
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end_matches(['\r', '\n']);
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

/// `count` lines that `keep` accepts: two in three from valid commands (about a quarter of them
/// mutated), the rest random bytes.
fn fuzz_lines(rng: &mut Rng, count: usize, keep: fn(&[u8]) -> bool) -> Vec<Vec<u8>> {
    let mut lines = Vec::with_capacity(count);
    while lines.len() < count {
        let batch: Vec<Vec<u8>> =
            if rng.percent(67) { command(rng).into_iter().map(String::into_bytes).collect() } else { vec![noise(rng)] };
        for mut line in batch {
            if rng.percent(25) {
                for _ in 0..1 + rng.below(3) {
                    mutate(rng, &mut line);
                }
            }
            if keep(&line) && lines.len() < count {
                lines.push(line);
            }
        }
    }
    lines
}

/// Characters some manager might read as the end of a line.
fn breaks_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// What the brain did with its input: exit status (`None` if it had to be killed), output lines
/// and log.
struct Run {
    status: Option<ExitStatus>,
    replies: Vec<Vec<u8>>,
    log: String,
}

/// Runs the brain on `lines`, writing its input and reading its output and log on threads of
/// their own so that no pipe fills up; kills it if it has not exited within [`RUN_DEADLINE`].
fn run_brain(lines: Vec<Vec<u8>>) -> Run {
    let started = Instant::now();
    let mut brain = Command::new(env!("CARGO_BIN_EXE_pbrain-arbor"))
        .args(["--max-depth", "2", "--threads", "1", "--hash", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start pbrain-arbor");
    let mut stdin = brain.stdin.take().unwrap();
    let stdout = BufReader::new(brain.stdout.take().unwrap());
    let mut stderr = brain.stderr.take().unwrap();
    let writer = thread::spawn(move || {
        let input: Vec<u8> = lines.iter().flat_map(|line| line.iter().chain(b"\n")).copied().collect();
        // A brain that dies early breaks the pipe; its status and log tell why. Dropping stdin
        // closes it after the last line.
        let _ = stdin.write_all(&input);
    });
    let reader = thread::spawn(move || stdout.split(b'\n').map(|line| line.unwrap()).collect::<Vec<_>>());
    let logger = thread::spawn(move || {
        let mut log = String::new();
        stderr.read_to_string(&mut log).expect("cannot read the brain's log");
        log
    });
    let status = loop {
        if let Some(status) = brain.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > RUN_DEADLINE {
            brain.kill().unwrap();
            brain.wait().unwrap();
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    Run { status, replies: reader.join().unwrap(), log: logger.join().unwrap() }
}

#[test]
fn brain_survives_fuzzed_input() {
    let mut lines = fuzz_lines(&mut Rng(SEED), BRAIN_LINES - TAIL.len(), cheap);
    lines.extend(TAIL.iter().map(|line| line.as_bytes().to_vec()));
    let sent = lines.len();
    let started = Instant::now();
    let run = run_brain(lines);
    let elapsed = started.elapsed();

    let grammar: Vec<(&str, Regex)> =
        GRAMMAR.iter().map(|&(kind, pattern)| (kind, Regex::new(&format!("^(?:{pattern})$")).unwrap())).collect();
    let mut counts = vec![0usize; grammar.len()];
    let mut bad = Vec::new();
    for reply in &run.replies {
        let kind = std::str::from_utf8(reply)
            .ok()
            .filter(|line| !line.chars().any(breaks_line))
            .and_then(|line| grammar.iter().position(|(_, re)| re.is_match(line)));
        match kind {
            Some(kind) => counts[kind] += 1,
            None => bad.push(format!("{:?}", String::from_utf8_lossy(reply))),
        }
    }
    println!("sent {sent} lines, got {} replies in {elapsed:.1?}", run.replies.len());
    for ((kind, _), count) in grammar.iter().zip(&counts) {
        println!("  {kind:>8}: {count}");
    }
    let log_tail = &run.log[run.log.floor_char_boundary(run.log.len().saturating_sub(4000))..];
    assert!(!run.log.contains("panicked"), "pbrain-arbor panicked:\n{log_tail}");
    let last: Vec<_> = run.replies.iter().rev().take(5).rev().map(|r| String::from_utf8_lossy(r)).collect();
    let Some(status) = run.status else {
        panic!("pbrain-arbor hangs: still running after {RUN_DEADLINE:?}; its last replies: {last:#?}")
    };
    assert!(status.success(), "pbrain-arbor exited with {status}:\n{log_tail}");
    assert!(
        bad.is_empty(),
        "{} replies outside the protocol, the first ones:\n{}",
        bad.len(),
        bad[..bad.len().min(10)].join("\n")
    );
    // The session answers in order, so this proves that it read every line and left at END.
    assert_eq!(last.last().map(|r| r.as_ref()), Some(LAST_REPLY), "the brain stopped early: {last:#?}");
    assert!(sent >= BRAIN_LINES);
}

#[test]
fn parser_survives_fuzzed_input() {
    let lines = fuzz_lines(&mut Rng(SEED ^ 0xFFFF), PARSER_LINES, |_| true);
    let (mut ok, mut unknown, mut bad_arguments) = (0, 0, 0);
    for line in &lines {
        let text = String::from_utf8_lossy(line);
        match std::panic::catch_unwind(|| parse_command(&text)) {
            Ok(Ok(_)) => ok += 1,
            Ok(Err(ParseError::Unknown)) => unknown += 1,
            Ok(Err(_)) => bad_arguments += 1,
            Err(_) => panic!("parse_command panicked on {text:?}"),
        }
    }
    println!("parsed {} lines: {ok} commands, {unknown} unknown, {bad_arguments} with bad arguments", lines.len());
    assert_eq!(ok + unknown + bad_arguments, PARSER_LINES);
}
