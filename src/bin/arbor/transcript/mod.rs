//! Scripted conversations with an engine process, for any line-based protocol (Gomocup, GTP).
//!
//! A transcript is a text file, one directive per line:
//!
//! ```text
//! # comment (blank lines are ignored too)
//! > LINE          send LINE to the engine
//! < LINE          the next output line must be exactly LINE
//! ~ PATTERN       the next output line must match PATTERN (see [`pattern`]), anchored at both
//!                 ends
//! @ move          the next output line must be a Gomocup move x,y on an empty cell of the
//!                 board the conversation has set up (see [`board`])
//! @ moves N       the same for N moves on one line, separated by spaces
//! ! skip PREFIX   from here on, ignore output lines starting with PREFIX
//! ! unskip PREFIX stop ignoring them
//! ! timeout SECS  the whole file must finish within SECS seconds (default 10, at most a day)
//! ! crlf on|off   end sent lines with CR LF (as piskvork does) instead of LF
//! ! eof           close the engine's input
//! ! exit [CODE]   the engine must exit (with CODE, if given), printing nothing more but
//!                 skipped lines
//! ```
//!
//! Output lines are compared without their line ending; [`LineEnding::Crlf`] also requires CR LF
//! on every one of them. A file that does not end in `! exit` kills the engine when it is done.
//!
//! It lives outside the library, shared by `arbor replay` and the transcript tests, so that
//! the engine carries no pattern matching it does not use.

mod board;
pub mod pattern;

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use board::Board;
use pattern::Pattern;

/// How long a file may take when it does not say.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest `! timeout`: a day, which any clock can add to its start.
const LONGEST_TIMEOUT: Duration = Duration::from_secs(86_400);

/// How the runner frames lines, standing in for a manager on one platform or another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnding {
    /// Lines go out with LF unless the transcript says `! crlf on`; the engine may end its lines
    /// with LF or CR LF.
    #[default]
    Any,
    /// As a Windows manager talks: every line goes out with CR LF, and every line the engine
    /// prints, skipped ones included, must end with CR LF.
    Crlf,
}

/// What a transcript that passed did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines sent to the engine.
    pub sent: usize,
    /// Output lines checked against `<` or `~`.
    pub checked: usize,
    /// Output lines ignored through `! skip`.
    pub skipped: usize,
    pub elapsed: Duration,
}

/// Why a transcript failed: where, what it expected and what came instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub file: PathBuf,
    /// 1-based line of the transcript; 0 when the failure belongs to no line.
    pub line: usize,
    pub expected: String,
    pub actual: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: expected {}\n  got {}", self.file.display(), self.line, self.expected, self.actual)
    }
}

impl std::error::Error for Failure {}

/// One directive of a transcript.
#[derive(Clone, Debug)]
enum Step {
    Send(String),
    Expect(String),
    Match(Pattern),
    /// That many Gomocup moves on empty cells.
    Moves(usize),
    Skip(String),
    Unskip(String),
    Crlf(bool),
    Eof,
    Exit(Option<i32>),
}

/// A parsed transcript: numbered steps and the file's time limit.
struct Script {
    steps: Vec<(usize, Step)>,
    timeout: Duration,
}

fn parse_script(text: &str) -> Result<Script, (usize, String)> {
    let mut steps = Vec::new();
    let mut timeout = DEFAULT_TIMEOUT;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut chars = line.chars();
        let kind = chars.next();
        // One space separates the marker from its text; more belongs to the text.
        let rest = chars.as_str();
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let step = match kind.unwrap_or_default() {
            '>' => Step::Send(rest.to_string()),
            '<' => Step::Expect(rest.to_string()),
            '~' => Step::Match(Pattern::new(rest).map_err(|e| (number, format!("a valid pattern ({e})")))?),
            '@' => match rest.trim() {
                "move" => Step::Moves(1),
                moves => match moves.strip_prefix("moves ").and_then(|n| n.trim().parse().ok()) {
                    Some(count) if count > 0 => Step::Moves(count),
                    _ => return Err((number, "@ move or @ moves N".into())),
                },
            },
            '!' => {
                let (name, argument) = rest.split_once(' ').unwrap_or((rest, ""));
                match (name, argument.trim()) {
                    ("skip", prefix) if !prefix.is_empty() => Step::Skip(prefix.to_string()),
                    ("unskip", prefix) if !prefix.is_empty() => Step::Unskip(prefix.to_string()),
                    ("timeout", secs) => {
                        let secs: f64 = secs.parse().map_err(|_| (number, "a number of seconds".to_string()))?;
                        timeout = Duration::try_from_secs_f64(secs)
                            .ok()
                            .filter(|&timeout| timeout <= LONGEST_TIMEOUT)
                            .ok_or_else(|| (number, "a timeout from 0 to 86400 seconds".to_string()))?;
                        continue;
                    }
                    ("crlf", "on") => Step::Crlf(true),
                    ("crlf", "off") => Step::Crlf(false),
                    ("eof", "") => Step::Eof,
                    ("exit", "") => Step::Exit(None),
                    ("exit", code) => Step::Exit(Some(code.parse().map_err(|_| (number, "an exit code".to_string()))?)),
                    _ => {
                        let known =
                            "a directive: skip PREFIX, unskip PREFIX, timeout SECS, crlf on|off, eof, exit [CODE]";
                        return Err((number, known.into()));
                    }
                }
            }
            _ => return Err((number, "a line starting with #, >, <, ~, @ or !".into())),
        };
        steps.push((number, step));
    }
    Ok(Script { steps, timeout })
}

/// Runs the transcript `file` against a fresh engine started as `engine_cmd` (program, then
/// arguments), framing lines as `ending` says. The engine's stderr is discarded.
pub fn run_transcript(engine_cmd: &[String], file: &Path, ending: LineEnding) -> Result<Summary, Failure> {
    let fail = |line: usize, expected: &str, actual: String| Failure {
        file: file.to_path_buf(),
        line,
        expected: expected.to_string(),
        actual,
    };
    let text = std::fs::read_to_string(file).map_err(|e| fail(0, "a readable transcript", e.to_string()))?;
    let script = parse_script(&text).map_err(|(line, expected)| fail(line, &expected, "something else".into()))?;
    let (program, args) = engine_cmd.split_first().ok_or_else(|| fail(0, "an engine command", "none".into()))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| fail(0, "an engine that starts", format!("{program}: {e}")))?;
    let mut conversation = Conversation::new(&mut child, script.timeout, ending);
    let result = conversation.play(&script.steps).map_err(|(line, expected, actual)| fail(line, &expected, actual));
    // Whatever happened, leave no engine behind.
    drop(conversation);
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// One line the engine printed, without its line ending.
struct OutputLine {
    text: String,
    /// It ended with CR LF.
    crlf: bool,
}

/// The live exchange with one engine process.
struct Conversation<'a> {
    child: &'a mut Child,
    stdin: Option<ChildStdin>,
    output: Receiver<OutputLine>,
    ending: LineEnding,
    deadline: Instant,
    started: Instant,
    timeout: Duration,
    skips: Vec<String>,
    crlf: bool,
    /// The Gomocup board as the conversation so far has set it up, for `@` lines.
    board: Board,
    summary: Summary,
}

type StepFailure = (usize, String, String);

impl<'a> Conversation<'a> {
    fn new(child: &'a mut Child, timeout: Duration, ending: LineEnding) -> Self {
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, output) = mpsc::channel();
        // A thread of its own, so that waiting for a line can time out.
        thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            let mut bytes = Vec::new();
            while matches!(stdout.read_until(b'\n', &mut bytes), Ok(1..)) {
                let line = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
                let crlf = line.ends_with(b"\r") && line.len() < bytes.len();
                let text = String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line)).into_owned();
                if sender.send(OutputLine { text, crlf }).is_err() {
                    break;
                }
                bytes.clear();
            }
        });
        let started = Instant::now();
        Conversation {
            child,
            stdin,
            output,
            ending,
            deadline: started + timeout,
            started,
            timeout,
            skips: Vec::new(),
            crlf: ending == LineEnding::Crlf,
            board: Board::default(),
            summary: Summary::default(),
        }
    }

    fn play(&mut self, steps: &[(usize, Step)]) -> Result<Summary, StepFailure> {
        for (line, step) in steps {
            let line = *line;
            match step {
                Step::Send(text) => self.send(line, text)?,
                Step::Expect(expected) => {
                    let actual = self.next_line(line, &format!("{expected:?}"))?;
                    if actual != *expected {
                        return Err((line, format!("{expected:?}"), format!("{actual:?}")));
                    }
                    self.board.output(&actual);
                }
                Step::Match(pattern) => {
                    let expected = format!("a line matching {pattern}");
                    let actual = self.next_line(line, &expected)?;
                    match pattern.is_match(&actual) {
                        Ok(true) => {}
                        Ok(false) => return Err((line, expected, format!("{actual:?}"))),
                        Err(why) => return Err((line, expected, why)),
                    }
                    self.board.output(&actual);
                }
                Step::Moves(count) => {
                    let expected = format!("{count} move(s) on empty cells of the board");
                    let actual = self.next_line(line, &expected)?;
                    self.board
                        .play_moves(&actual, *count)
                        .map_err(|why| (line, expected, format!("{actual:?}: {why}")))?;
                }
                Step::Skip(prefix) => self.skips.push(prefix.clone()),
                Step::Unskip(prefix) => self.skips.retain(|p| p != prefix),
                Step::Crlf(on) => self.crlf = *on || self.ending == LineEnding::Crlf,
                Step::Eof => self.stdin = None,
                Step::Exit(code) => self.expect_exit(line, *code)?,
            }
        }
        self.summary.elapsed = self.started.elapsed();
        Ok(self.summary.clone())
    }

    fn send(&mut self, line: usize, text: &str) -> Result<(), StepFailure> {
        let ending = if self.crlf { "\r\n" } else { "\n" };
        let stdin = self.stdin.as_mut().ok_or((line, "an engine reading input".into(), "input closed".into()))?;
        write!(stdin, "{text}{ending}")
            .and_then(|()| stdin.flush())
            .map_err(|e| (line, format!("to send {text:?}"), format!("the engine's input is closed ({e})")))?;
        self.board.sent(text);
        self.summary.sent += 1;
        Ok(())
    }

    /// The next line the engine prints, checked against the line ending the runner requires.
    fn receive(&self, line: usize, wait: Duration) -> Result<Result<String, RecvTimeoutError>, StepFailure> {
        match self.output.recv_timeout(wait) {
            Ok(OutputLine { text, crlf: false }) if self.ending == LineEnding::Crlf => {
                Err((line, "every output line to end with CR LF".into(), format!("{text:?} without CR")))
            }
            Ok(OutputLine { text, .. }) => Ok(Ok(text)),
            Err(e) => Ok(Err(e)),
        }
    }

    /// The next output line that is not skipped.
    fn next_line(&mut self, line: usize, expected: &str) -> Result<String, StepFailure> {
        loop {
            let wait = self.deadline.saturating_duration_since(Instant::now());
            match self.receive(line, wait)? {
                Ok(text) if self.skips.iter().any(|p| text.starts_with(p.as_str())) => self.summary.skipped += 1,
                Ok(text) => {
                    self.summary.checked += 1;
                    return Ok(text);
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err((line, expected.into(), format!("nothing before the {:?} timeout", self.timeout)));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err((line, expected.into(), "end of output (the engine exited)".into()));
                }
            }
        }
    }

    /// The engine must close its output and exit, printing only skipped lines meanwhile.
    fn expect_exit(&mut self, line: usize, code: Option<i32>) -> Result<(), StepFailure> {
        let expected = match code {
            Some(code) => format!("the engine to exit with code {code}"),
            None => "the engine to exit".to_string(),
        };
        let expected = expected.as_str();
        loop {
            let wait = self.deadline.saturating_duration_since(Instant::now());
            match self.receive(line, wait)? {
                Ok(text) if self.skips.iter().any(|p| text.starts_with(p.as_str())) => self.summary.skipped += 1,
                Ok(text) => return Err((line, expected.into(), format!("output {text:?}"))),
                Err(RecvTimeoutError::Timeout) => {
                    return Err((line, expected.into(), format!("still running after {:?}", self.timeout)));
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
        // Output closed: the process should be gone or going.
        while Instant::now() < self.deadline {
            match self.child.try_wait() {
                Ok(Some(status)) if code.is_none_or(|c| status.code() == Some(c)) => return Ok(()),
                Ok(Some(status)) => return Err((line, expected.into(), format!("exit {status}"))),
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err((line, expected.into(), format!("cannot wait for it: {e}"))),
            }
        }
        Err((line, expected.into(), format!("still running after {:?}", self.timeout)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    fn transcript(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arbor-transcript-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// An "engine" that answers every line with `echo <line>`, prints a note first, and exits
    /// on `quit`.
    const ECHO: &str =
        r#"echo "DEBUG hello"; while read -r line; do [ "$line" = quit ] && exit 0; echo "echo $line"; done"#;

    #[test]
    fn a_timeout_past_a_day_is_refused_when_read() {
        for secs in ["1e19", "86401", "-1", "inf"] {
            let error = parse_script(&format!("! timeout {secs}\n> a\n")).err();
            assert_eq!(error.map(|(line, _)| line), Some(1), "{secs}");
        }
        assert!(parse_script("! timeout 86400\n> a\n").is_ok());
    }

    #[test]
    fn a_matching_conversation_passes() {
        let file = transcript(
            "pass.txt",
            "# comment\n! skip DEBUG\n! timeout 5\n> a b\n< echo a b\n\n> 12,3\n~ echo \\d+,\\d+\n> quit\n! exit 0\n",
        );
        let summary = run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap();
        assert_eq!((summary.sent, summary.checked, summary.skipped), (3, 2, 1));
    }

    #[test]
    fn a_wrong_line_reports_where_and_what() {
        let file = transcript("wrong.txt", "! skip DEBUG\n> a\n< echo b\n");
        let failure = run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap_err();
        assert_eq!((failure.line, failure.expected.as_str(), failure.actual.as_str()), (3, "\"echo b\"", "\"echo a\""));
    }

    #[test]
    fn patterns_are_anchored_and_skips_apply() {
        let file = transcript("anchored.txt", "> a1\n~ echo a\n");
        let failure = run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap_err();
        assert_eq!(failure.line, 2);
        assert_eq!(failure.actual, "\"DEBUG hello\"");
    }

    #[test]
    fn silence_times_out_and_exit_is_checked() {
        let file = transcript("silent.txt", "! timeout 0.3\n! skip DEBUG\n> quit\n< never\n");
        let failure = run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap_err();
        assert!(failure.actual.contains("exited"), "{failure}");
        let file = transcript("alive.txt", "! timeout 0.3\n! skip DEBUG\n! exit\n");
        let failure = run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap_err();
        assert!(failure.actual.contains("still running"), "{failure}");
        let file = transcript("eof.txt", "! skip DEBUG\n> x\n! eof\n< echo x\n! exit 0\n");
        run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap();
        let file = transcript("code.txt", "! skip DEBUG\n> quit\n! exit 3\n");
        assert!(run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap_err().actual.contains("exit status: 0"));
    }

    #[test]
    fn moves_must_land_on_empty_cells_of_the_board() {
        // The echo "engine" answers `echo LINE`; a line `echo` makes it print a bare move.
        let engine = shell(r#"while read -r line; do case "$line" in say*) echo "${line#say }";; esac; done"#);
        let file = transcript(
            "moves.txt",
            "> START 5\n> BOARD\n> 1,1,1\n> 2,2,2\n> DONE\n> say 0,0\n@ move\n> say 3,3 4,4\n@ moves 2\n",
        );
        run_transcript(&engine, &file, LineEnding::Any).unwrap();
        for (answer, why) in [("1,1", "taken"), ("5,0", "off"), ("0,0 1,0", "2 moves"), ("x", "not a move")] {
            let file = transcript("bad-move.txt", &format!("> START 5\n> TURN 1,1\n> say {answer}\n@ move\n"));
            let failure = run_transcript(&engine, &file, LineEnding::Any).unwrap_err();
            assert!(failure.actual.contains(why), "{answer}: {failure}");
        }
        let file = transcript("no-board.txt", "> say 0,0\n@ move\n");
        assert!(run_transcript(&engine, &file, LineEnding::Any).unwrap_err().actual.contains("no board"));
    }

    #[test]
    fn a_windows_manager_sends_and_wants_crlf() {
        // Answers each line with the hex of the bytes it read, ended as the argument says.
        let engine = |ending: &str| {
            shell(&format!(
                r#"while IFS= read -r line; do printf '%s{ending}' "$(printf '%s' "$line" | od -An -tx1 | tr -d ' ')"; done"#
            ))
        };
        let file = transcript("crlf.txt", "> ab\n< 61620d\n! crlf off\n> c\n< 630d\n");
        run_transcript(&engine(r"\r\n"), &file, LineEnding::Crlf).unwrap();
        let failure = run_transcript(&engine(r"\n"), &file, LineEnding::Crlf).unwrap_err();
        assert_eq!((failure.line, failure.actual.as_str()), (2, "\"61620d\" without CR"));
        let file = transcript("lf.txt", "> ab\n< 6162\n");
        run_transcript(&engine(r"\r\n"), &file, LineEnding::Any).unwrap();
        run_transcript(&engine(r"\n"), &file, LineEnding::Any).unwrap();
    }

    #[test]
    fn bad_directives_are_reported_before_running() {
        let file = transcript("bad.txt", "> a\n? what\n");
        assert_eq!(run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap_err().line, 2);
        let file = transcript("badre.txt", "~ (\n");
        assert_eq!(run_transcript(&shell(ECHO), &file, LineEnding::Any).unwrap_err().line, 1);
    }
}
