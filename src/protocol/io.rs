//! Protocol input and output, shared by every protocol.
//!
//! Input is read on a thread of its own so that a stop or quit command reaches a running search:
//! when such a line arrives with nothing queued ahead of it, it is meant for what the session is
//! doing now, and the reader raises [`Signals`] itself at once. Behind other lines (a transcript
//! piped in whole) it waits its turn like any command. While the session ponders (searches on
//! the opponent's time), any line at all stops the search. Every line is stamped with the instant it
//! arrived (a move's clock starts when it was asked for). Output is whole lines, each written
//! with one `write!` and flushed, so a manager never sees half a reply.

use std::fmt::Display;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Instant;

/// The longest input line kept, line ending included. No command of any protocol comes near
/// it; a stream without line ends (a binary file piped in) must not grow the buffer until the
/// process runs out of memory.
pub const MAX_LINE_BYTES: usize = 1 << 16;
/// How much of a longer line is kept: enough for a protocol to tell a comment, or read the id
/// its reply must carry.
pub const KEPT_OF_LONG_LINE: usize = 64;

/// One line of input, without its line ending, and when it was read.
#[derive(Clone, Debug)]
pub struct InputLine {
    pub text: String,
    pub received: Instant,
    /// The reader raised the stop signal for this line.
    pub interrupted: bool,
    /// A line that never starts a search ([`Interrupt::Setting`]).
    pub setting: bool,
    /// The line ran past [`MAX_LINE_BYTES`]: it was skipped to its end and `text` holds only its
    /// first [`KEPT_OF_LONG_LINE`] bytes.
    pub too_long: bool,
}

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, now in the buffer with its line ending if it had one.
    Line,
    /// A line longer than [`MAX_LINE_BYTES`], read to its end: the buffer holds its first
    /// [`KEPT_OF_LONG_LINE`] bytes.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads the next line of `input` into `buffer` (cleared first), keeping at most
/// [`MAX_LINE_BYTES`] of it: of a longer line, consumed to its end, only the first
/// [`KEPT_OF_LONG_LINE`] bytes.
pub fn read_line(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> io::Result<LineRead> {
    buffer.clear();
    let (mut started, mut too_long) = (false, false);
    loop {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        started = true;
        let end = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..end.map_or(available.len(), |i| i + 1)];
        if !too_long && buffer.len() + chunk.len() > MAX_LINE_BYTES {
            too_long = true;
            let room = KEPT_OF_LONG_LINE.saturating_sub(buffer.len());
            buffer.truncate(KEPT_OF_LONG_LINE);
            buffer.extend_from_slice(&chunk[..room.min(chunk.len())]);
        }
        if !too_long {
            buffer.extend_from_slice(chunk);
        }
        let used = chunk.len();
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    Ok(match (started, too_long) {
        (false, _) => LineRead::End,
        (true, true) => LineRead::TooLong,
        (true, false) => LineRead::Line,
    })
}

/// What a line means to the reader thread, before the session sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// An ordinary command: only queued.
    None,
    /// A command that never starts a search (Gomocup's `INFO`): only queued, and a stop line
    /// behind it is still meant for the running search (managers send settings at any time).
    Setting,
    /// Stop the running search and answer with the best move so far.
    Stop,
    /// Stop the running search, print nothing more and exit.
    Quit,
}

/// Flags the reader thread raises for the thread that runs the session and the search.
///
/// The stop flag is the one the search polls. A stop that ended one search must not end the
/// next, so the session re-arms the flag before each search with [`Signals::arm`], which keeps
/// it raised only when a stop line is already on its way (read by the reader, not yet by the
/// session): that stop was meant for this search.
#[derive(Debug, Default)]
pub struct Signals {
    stop: AtomicBool,
    /// Stop lines the reader has raised and the session has not yet taken.
    pending_stops: AtomicUsize,
    /// Lines the reader has queued and the session has not yet taken.
    queued: AtomicUsize,
    /// Of those, the ones that may start a search: a stop line behind one waits for it.
    queued_work: AtomicUsize,
    quit: AtomicBool,
    /// A ponder search is running: the next line, whatever it says, stops it.
    pondering: AtomicBool,
    /// The input is over: no line will come to stop a ponder search.
    closed: AtomicBool,
    /// The end of input, or a quit line even behind others, stops the running search and
    /// every later one (GTP: nothing else would tell a `genmove` that the controller is gone).
    leaving_stops_searches: bool,
}

impl Signals {
    /// Signals for a protocol where a controller that quits or closes the input wants no more
    /// thinking: the running search stops at once, and every later one (for lines still
    /// queued, answered in order) as soon as it has a move.
    pub fn leaving_stops_searches() -> Self {
        Signals { leaving_stops_searches: true, ..Signals::default() }
    }

    /// The flag to hand to the search.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Lowers the stop flag before a search, unless a stop or quit line is already queued.
    pub fn arm(&self) {
        self.stop.store(false, Ordering::SeqCst);
        // Checked after the store: a reader that queued a stop line before this point has
        // already counted it, and one that queues it later raises the flag after our store.
        if self.pending_stops.load(Ordering::SeqCst) > 0 || self.quit_requested() || self.ended_searches() {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The session calls this for every line it takes from the queue.
    pub fn take(&self, line: &InputLine) {
        // Never below zero, even for a line the reader did not queue (tests build their own).
        let decrement = |n: usize| n.checked_sub(1);
        let _ = self.queued.fetch_update(Ordering::SeqCst, Ordering::SeqCst, decrement);
        if !line.setting {
            let _ = self.queued_work.fetch_update(Ordering::SeqCst, Ordering::SeqCst, decrement);
        }
        if line.interrupted {
            let _ = self.pending_stops.fetch_update(Ordering::SeqCst, Ordering::SeqCst, decrement);
        }
    }

    /// A quit line has been read: nothing more may be printed.
    pub fn quit_requested(&self) -> bool {
        self.quit.load(Ordering::SeqCst)
    }

    /// Arms the stop flag for a search on the opponent's time, which the next line of input
    /// stops, whatever it says. `false`, and no search to run, when a line is already waiting
    /// or the input is over.
    pub fn start_pondering(&self) -> bool {
        self.arm();
        self.pondering.store(true, Ordering::SeqCst);
        // Checked after the store: the reader counts a line (or marks the end of input) before
        // it looks at the flag, so either it is seen here or it finds the flag raised and stops
        // the search.
        if self.queued.load(Ordering::SeqCst) > 0 || self.closed.load(Ordering::SeqCst) {
            self.pondering.store(false, Ordering::SeqCst);
            return false;
        }
        true
    }

    /// The ponder search is over: lines are ordinary commands again.
    pub fn stop_pondering(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Stops the ponder search, if one runs.
    fn stop_ponder_search(&self) {
        if self.pondering.swap(false, Ordering::SeqCst) {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The input is over and that stops every search.
    fn ended_searches(&self) -> bool {
        self.leaving_stops_searches && self.closed.load(Ordering::SeqCst)
    }

    /// Marks the end of input, which also ends a ponder search (nothing else would), and any
    /// search when [`Signals::leaving_stops_searches`] says so.
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.stop_ponder_search();
        if self.leaving_stops_searches {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Raises the signals for a line just read with `ahead` lines that may start a search queued
    /// before it: any line
    /// stops a ponder search; an interrupting line with nothing ahead (a quit line, with
    /// [`Signals::leaving_stops_searches`], even behind others) also stops (or quits) whatever
    /// runs. Says whether the line itself interrupts.
    fn raise(&self, interrupt: Interrupt, ahead: usize) -> bool {
        self.stop_ponder_search();
        let overtakes = interrupt == Interrupt::Quit && self.leaving_stops_searches;
        if matches!(interrupt, Interrupt::None | Interrupt::Setting) || (ahead > 0 && !overtakes) {
            return false;
        }
        if interrupt == Interrupt::Quit {
            self.quit.store(true, Ordering::SeqCst);
        }
        self.pending_stops.fetch_add(1, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        true
    }
}

/// Starts the reader thread on `input`. `classify` says which lines interrupt a search (each
/// protocol has its own words). The channel closes after the last line, at end of input or on a
/// read error; neither is a reason to panic, since the manager may simply have gone away.
pub fn spawn_reader<R>(input: R, classify: fn(&str) -> Interrupt, signals: Arc<Signals>) -> Receiver<InputLine>
where
    R: BufRead + Send + 'static,
{
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let mut input = input;
            let mut buffer = Vec::new();
            let mut first = true;
            loop {
                let too_long = match read_line(&mut input, &mut buffer) {
                    Ok(LineRead::End) => break,
                    Ok(read) => read == LineRead::TooLong,
                    Err(e) => {
                        log::warn!("input error, treating it as end of input: {e}");
                        break;
                    }
                };
                let received = Instant::now();
                // Managers send ASCII; anything else must not kill the brain.
                // A byte-order mark opening the input (a file saved as UTF-8 by Windows tools,
                // piped in) is no part of the first command.
                let mut text = String::from_utf8_lossy(&buffer).trim_end_matches(['\r', '\n']).to_string();
                if std::mem::take(&mut first) && text.starts_with('\u{feff}') {
                    text.remove(0);
                }
                signals.queued.fetch_add(1, Ordering::SeqCst);
                let interrupt = classify(&text);
                let setting = interrupt == Interrupt::Setting;
                let ahead = if setting {
                    signals.queued_work.load(Ordering::SeqCst)
                } else {
                    signals.queued_work.fetch_add(1, Ordering::SeqCst)
                };
                let interrupted = signals.raise(interrupt, ahead);
                if sender.send(InputLine { text, received, interrupted, setting, too_long }).is_err() {
                    break;
                }
            }
            signals.close();
        })
        .expect("the operating system refused to start the input thread");
    receiver
}

/// The platform's line ending: on Windows, managers (piskvork, Yixin-Board) expect what brains
/// written in C print there in text mode, CR LF after every line.
pub const LINE_ENDING: &str = if cfg!(windows) { "\r\n" } else { "\n" };

/// Writes protocol replies: one whole line per call, flushed at once.
pub struct Output<W: Write> {
    out: W,
}

impl<W: Write> Output<W> {
    pub fn new(out: W) -> Self {
        Output { out }
    }

    /// Writes `line` and the platform's [`LINE_ENDING`] with a single `write!`, then flushes.
    pub fn line(&mut self, line: impl Display) -> io::Result<()> {
        write!(self.out, "{line}{LINE_ENDING}")?;
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn classify(line: &str) -> Interrupt {
        match line.trim() {
            "stop" => Interrupt::Stop,
            "quit" => Interrupt::Quit,
            setting if setting.starts_with("set ") => Interrupt::Setting,
            _ => Interrupt::None,
        }
    }

    #[test]
    fn a_stop_behind_settings_alone_interrupts_and_one_behind_work_waits() {
        let signals = Arc::new(Signals::default());
        let input = Cursor::new(b"set a\nset b\nstop\nwork\nset c\nstop\n".to_vec());
        let lines: Vec<InputLine> = spawn_reader(input, classify, Arc::clone(&signals)).iter().collect();
        let interrupted: Vec<bool> = lines.iter().map(|l| l.interrupted).collect();
        assert_eq!(interrupted, [false, false, true, false, false, false]);
        let settings: Vec<bool> = lines.iter().map(|l| l.setting).collect();
        assert_eq!(settings, [true, true, false, false, true, false]);
    }

    #[test]
    fn a_line_past_the_limit_is_dropped_whole_and_the_next_is_read() {
        let fits = [vec![b'a'; MAX_LINE_BYTES - 1], b"\n".to_vec()].concat();
        let over = vec![b'b'; MAX_LINE_BYTES + 1];
        // A small buffer makes the long line arrive in many pieces.
        let text = [fits.clone(), over.clone(), b"\nnext\r\n".to_vec(), over].concat();
        let mut input = io::BufReader::with_capacity(1000, Cursor::new(text));
        let mut buffer = Vec::new();
        let mut read = || (read_line(&mut input, &mut buffer).unwrap(), buffer.clone());
        assert_eq!(read(), (LineRead::Line, fits));
        assert_eq!(read(), (LineRead::TooLong, vec![b'b'; KEPT_OF_LONG_LINE]));
        assert_eq!(read(), (LineRead::Line, b"next\r\n".to_vec()));
        assert_eq!(read(), (LineRead::TooLong, vec![b'b'; KEPT_OF_LONG_LINE]), "a long last line without its end");
        assert_eq!(read(), (LineRead::End, vec![]));
    }

    #[test]
    fn a_stop_with_nothing_queued_interrupts_at_once() {
        let signals = Arc::new(Signals::default());
        let input = Cursor::new("\u{feff}stop\r\n".as_bytes().to_vec());
        let lines: Vec<InputLine> = spawn_reader(input, classify, Arc::clone(&signals)).iter().collect();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].interrupted && lines[0].text == "stop");
        assert!(signals.stop_flag().load(Ordering::SeqCst));
        assert!(!signals.quit_requested());
    }

    #[test]
    fn queued_stop_and_quit_lines_wait_their_turn() {
        let signals = Arc::new(Signals::default());
        let input = Cursor::new(b"a\nstop\nquit\nlast without newline".to_vec());
        let lines: Vec<InputLine> = spawn_reader(input, classify, Arc::clone(&signals)).iter().collect();
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["a", "stop", "quit", "last without newline"]);
        assert!(lines.iter().all(|l| !l.interrupted));
        assert!(!signals.stop_flag().load(Ordering::SeqCst));
        assert!(!signals.quit_requested());
    }

    #[test]
    fn arming_keeps_a_raised_stop_until_it_is_taken() {
        let signals = Signals::default();
        signals.queued.fetch_add(1, Ordering::SeqCst);
        assert!(signals.raise(Interrupt::Stop, 0));
        signals.arm();
        assert!(signals.stop_flag().load(Ordering::SeqCst), "the stop line is still queued");
        signals.take(&InputLine {
            text: "stop".into(),
            received: Instant::now(),
            interrupted: true,
            setting: false,
            too_long: false,
        });
        signals.arm();
        assert!(!signals.stop_flag().load(Ordering::SeqCst));
    }

    #[test]
    fn any_line_stops_a_ponder_search_and_only_that_one() {
        let signals = Signals::default();
        assert!(signals.start_pondering());
        assert!(!signals.stop_flag().load(Ordering::SeqCst));
        assert!(!signals.raise(Interrupt::None, 0));
        assert!(signals.stop_flag().load(Ordering::SeqCst), "the line stops the ponder search");
        signals.stop_pondering();
        signals.arm();
        assert!(!signals.raise(Interrupt::None, 0));
        assert!(!signals.stop_flag().load(Ordering::SeqCst), "an ordinary line stops no ordinary search");
    }

    #[test]
    fn the_end_of_input_stops_pondering() {
        let signals = Signals::default();
        assert!(signals.start_pondering());
        signals.close();
        assert!(signals.stop_flag().load(Ordering::SeqCst));
        signals.stop_pondering();
        assert!(!signals.start_pondering(), "no line can stop it any more");
    }

    #[test]
    fn leaving_can_stop_every_search() {
        let signals = Signals::leaving_stops_searches();
        assert!(signals.raise(Interrupt::Quit, 3), "quit overtakes the queued lines");
        assert!(signals.quit_requested());
        let signals = Signals::leaving_stops_searches();
        signals.arm();
        signals.close();
        assert!(signals.stop_flag().load(Ordering::SeqCst), "the running search stops");
        signals.arm();
        assert!(signals.stop_flag().load(Ordering::SeqCst), "and so does the next");
        let gomocup = Signals::default();
        gomocup.arm();
        gomocup.close();
        assert!(!gomocup.stop_flag().load(Ordering::SeqCst), "by default the last move is still searched");
    }

    #[test]
    fn no_pondering_while_a_line_waits() {
        let signals = Signals::default();
        signals.queued.fetch_add(1, Ordering::SeqCst);
        assert!(!signals.start_pondering());
        assert!(!signals.raise(Interrupt::None, 1));
        assert!(!signals.stop_flag().load(Ordering::SeqCst));
    }

    #[test]
    fn output_writes_whole_lines() {
        let mut out = Output::new(Vec::new());
        out.line("OK").unwrap();
        out.line(format_args!("{},{}", 7, 8)).unwrap();
        assert_eq!(String::from_utf8(out.into_inner()).unwrap(), format!("OK{LINE_ENDING}7,8{LINE_ENDING}"));
    }
}
