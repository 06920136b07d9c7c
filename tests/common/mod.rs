//! What the integration tests share: a seeded generator, the ways a line gets broken, a run of an
//! engine process fed from one thread and read from others, so that no pipe fills up, and a
//! run of an `arbor` subcommand on a small input.
#![allow(dead_code)] // Each test file uses its own part.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use arbor::zobrist::KeyStream;

/// The project's seeded stream ([`KeyStream`]) with the choices test inputs need.
pub struct Rng(KeyStream);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(KeyStream::new(seed))
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    /// Uniform in `lo..hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.0.below((hi - lo) as u64) as i64
    }

    pub fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Length of the generators' very long lines.
pub const LONG_LINE: usize = 10_000;

/// Numbers no engine should take at face value.
pub const HUGE_NUMBERS: [&str; 8] = [
    "99999999999999999999",
    "-1",
    "4294967296",
    "18446744073709551615",
    "18000000000000000000",
    "9223372036854775807",
    "007",
    "0",
];

/// Changes `line` in one of the ways a broken controller or a bad pipe might.
pub fn mutate(rng: &mut Rng, line: &mut Vec<u8>) {
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
            let extra = *rng.pick(&[" ", "  ", ",", ",,", "\r", "\t", " , ", "-", "#", "/"]);
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
            let number = *rng.pick(&HUGE_NUMBERS);
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
pub fn noise(rng: &mut Rng) -> Vec<u8> {
    let len = if rng.percent(2) { LONG_LINE } else { rng.below(40) };
    let printable = rng.percent(50);
    (0..len).map(|_| if printable { rng.range(0x20, 0x7f) as u8 } else { rng.below(256) as u8 }).collect()
}

/// `count` lines that `keep` accepts: two in three from `command` (a quarter of them mutated),
/// the rest random bytes. A command may come as several lines (a block); they stay together
/// unless `keep` refuses one.
pub fn fuzz_lines(
    rng: &mut Rng,
    count: usize,
    command: impl Fn(&mut Rng) -> Vec<String>,
    keep: impl Fn(&[u8]) -> bool,
) -> Vec<Vec<u8>> {
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
            if !line.contains(&b'\n') && keep(&line) && lines.len() < count {
                lines.push(line);
            }
        }
    }
    lines
}

/// What the engine's input thread makes of `line`: lossy UTF-8 without the line ending.
pub fn as_read(line: &[u8]) -> String {
    String::from_utf8_lossy(line).trim_end_matches(['\r', '\n']).to_string()
}

/// Characters some controller might read as the end of a line.
pub fn breaks_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// What an engine did with its input: exit status (`None` if it had to be killed), output lines
/// and log.
pub struct Run {
    pub status: Option<ExitStatus>,
    pub replies: Vec<Vec<u8>>,
    pub log: String,
}

impl Run {
    /// The end of the log, for a failure message.
    pub fn log_tail(&self) -> &str {
        &self.log[self.log.floor_char_boundary(self.log.len().saturating_sub(4000))..]
    }

    /// The engine neither panicked nor hung, and exited with status 0.
    pub fn assert_clean_exit(&self, name: &str, deadline: Duration) {
        assert!(!self.log.contains("panicked"), "{name} panicked:\n{}", self.log_tail());
        let last: Vec<_> = self.replies.iter().rev().take(5).rev().map(|r| String::from_utf8_lossy(r)).collect();
        let Some(status) = self.status else {
            panic!("{name} hangs: still running after {deadline:?}; its last output: {last:#?}")
        };
        assert!(status.success(), "{name} exited with {status}:\n{}", self.log_tail());
    }
}

/// Runs `program` with `args` in `dir` on `lines`; once an output line equals `sentinel`,
/// sends `last` and closes the input (with no sentinel, `last` follows the lines at once). Kills
/// the engine if it has not exited within `deadline`.
pub fn run_engine(
    program: &str,
    args: &[&str],
    dir: &std::path::Path,
    lines: Vec<Vec<u8>>,
    sentinel: Option<&str>,
    last: &str,
    deadline: Duration,
) -> Run {
    let started = Instant::now();
    let mut engine = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let mut stdin = engine.stdin.take().unwrap();
    let stdout = BufReader::new(engine.stdout.take().unwrap());
    let mut stderr = engine.stderr.take().unwrap();
    let (seen, sentinel_seen) = mpsc::channel();
    let last = format!("{last}\n");
    let waits = sentinel.is_some();
    let writer = thread::spawn(move || {
        let input: Vec<u8> = lines.iter().flat_map(|line| line.iter().chain(b"\n")).copied().collect();
        // An engine that dies early breaks the pipe; its status and log tell why. Dropping
        // stdin closes it after the last line.
        let _ = stdin.write_all(&input);
        if waits && sentinel_seen.recv().is_err() {
            return;
        }
        let _ = stdin.write_all(last.as_bytes());
    });
    let sentinel = sentinel.map(|s| s.as_bytes().to_vec());
    let reader = thread::spawn(move || {
        let mut replies = Vec::new();
        for line in stdout.split(b'\n') {
            let line = line.unwrap();
            if sentinel.as_ref() == Some(&line) {
                let _ = seen.send(());
            }
            replies.push(line);
        }
        replies
    });
    let logger = thread::spawn(move || {
        let mut log = String::new();
        stderr.read_to_string(&mut log).expect("cannot read the engine's log");
        log
    });
    let status = loop {
        if let Some(status) = engine.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > deadline {
            engine.kill().unwrap();
            engine.wait().unwrap();
            break None;
        }
        thread::sleep(Duration::from_millis(20));
    };
    let replies = reader.join().unwrap();
    writer.join().unwrap();
    Run { status, replies, log: logger.join().unwrap() }
}

/// A cell name: a file letter among the first `files`, a rank from 0 to `ranks`.
pub fn square(rng: &mut Rng, files: usize, ranks: i64) -> String {
    let file = (b'a' + rng.below(files) as u8) as char;
    format!("{file}{}", rng.range(0, ranks + 1))
}

/// Amazons moves as GTP, the compact form and the Chinese platform's letters, or near misses.
pub fn amazons_move(rng: &mut Rng) -> String {
    let queens = ["a4", "d1", "g1", "j4", "a7", "d10", "g10", "j7"];
    let from = if rng.percent(60) { rng.pick(&queens).to_string() } else { square(rng, 11, 11) };
    let (to, arrow) = (square(rng, 10, 10), square(rng, 10, 10));
    match rng.below(8) {
        // Along queen lines from a starting square: often legal early in a game.
        6 | 7 => {
            let queens = [(0, 4), (3, 1), (6, 1), (9, 4), (0, 7), (3, 10), (6, 10), (9, 7)];
            let (mut file, mut rank) = *rng.pick(&queens);
            let mut cells = Vec::new();
            for _ in 0..3 {
                let (df, dr) = *rng.pick(&[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]);
                let steps = rng.range(1, 4);
                cells.push(format!("{}{rank}", (b'a' + file as u8) as char));
                file = (file + df * steps).clamp(0, 9);
                rank = (rank + dr * steps).clamp(1, 10);
            }
            format!("{}-{}/{}", cells[0], cells[1], cells[2])
        }
        0 => format!("{from}{to}{arrow}"),
        1 => (0..6).map(|_| (b'a' + rng.below(11) as u8) as char).collect(),
        2 => format!("{from}-{to}"),
        3 => rng.pick(&["pass", "resign", "PASS", "a0-a1/a2", "z9-z9/z9", "d1-d1/d1"]).to_string(),
        _ => format!("{from}-{to}/{arrow}"),
    }
}

/// A fresh empty folder for one test's files.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `arbor ARGS` fed `input` on stdin, its whole output. A refused command exits without
/// reading: the pipe may close under the write, which is then not an error.
pub fn arbor(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbor runs");
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}
