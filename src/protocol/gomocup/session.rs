//! The Gomocup brain: game state and settings between lines, one reply per command.
//!
//! Invariants:
//! - The brain is always the side to move when it is asked for a move; the board holds the
//!   whole game, own and opponent stones alike.
//! - A command that fails leaves the board as it was: every command works on a copy, committed
//!   only when the command succeeds.
//! - Nothing is printed after `END`, not even the answer of a search it interrupted (an `END`
//!   queued behind other lines is answered in its turn, after them).
//! - Lines are answered in the order they arrived; `BOARD`, `YXBOARD`, `SWAP2BOARD`, `YXBLOCK`
//!   and `YXBLOCKUNDO` collect lines until `DONE`, then answer once (or not at all).
//! - Blocked points (`YXBLOCK`) are never the brain's move, whatever the command.
//! - With `INFO pondering 1`, after each move it plays the brain searches the position on the
//!   opponent's time until the next line arrives, sharing the table with the next search; the
//!   ponder search prints nothing but one `MESSAGE` when it ends, so it is never taken for a
//!   reply.
//! - After `YXSHOWINFO` (GUI mode) searches also send Yixin-Board's live `MESSAGE REALTIME`
//!   lines: `BEST x,y` when the best root move changes, `LOST x,y` once for each root move
//!   proven lost, and `REFRESH` after each iteration (then `BEST` again if the iteration's
//!   ranking changed the best move). Yixin's `POS`/`DONE` lines per root move
//!   are not sent: every root move of every iteration, from depth 1 on, would be two lines.
//!
//! Files: this one is the state machine (lines in, modes, settings, the game); `think.rs` has
//! the commands that search, `replies.rs` the text of progress and live lines.

mod replies;
mod think;

use std::io::{self, BufReader, Write};
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::parse::{Command, Info, ParseError, Response, parse_command, rule_from_gomocup};
use crate::engine::{Engine, default_threads};
use crate::gomoku::{Board, Color, Move, Rule};
use crate::protocol::bounds;
use crate::protocol::io::{InputLine, Interrupt, MAX_LINE_BYTES, Output, Signals, spawn_reader};
use crate::search::limits::{Clock, SearchLimits};
use replies::max_hash_size_exponent;

/// `timeout_turn` when the manager does not send one (piskvork's default).
const DEFAULT_TURN_TIME: Duration = Duration::from_millis(5_000);
/// Share of a move's time each swap2 judgement search may use; swap2 makes at most three.
const SWAP2_JUDGE_SHARE: f64 = 0.2;

/// Which lines interrupt a running search: `END` quits, `STOP` and `YXSTOP` stop; `INFO`
/// starts no search, so a stop behind it still means the running one.
pub fn classify(line: &str) -> Interrupt {
    let word = line.trim();
    let first = word.split_ascii_whitespace().next().unwrap_or("");
    if word.eq_ignore_ascii_case("END") {
        Interrupt::Quit
    } else if word.eq_ignore_ascii_case("STOP") || word.eq_ignore_ascii_case("YXSTOP") {
        Interrupt::Stop
    } else if first.eq_ignore_ascii_case("INFO") {
        Interrupt::Setting
    } else {
        Interrupt::None
    }
}

/// Plays the Gomocup protocol on stdin and stdout until `END` or the end of input. Searches
/// stop at `max_depth` until an `INFO max_depth` changes it, and call on the threat solver when
/// `threat_solver` is true.
pub fn run(engine: Engine, max_depth: Option<u32>, threat_solver: bool) -> io::Result<()> {
    let signals = Arc::new(Signals::default());
    let lines = spawn_reader(BufReader::new(io::stdin()), classify, Arc::clone(&signals));
    Session::new(engine, io::stdout(), signals).with_max_depth(max_depth).with_threat_solver(threat_solver).run(lines)
}

/// Whether to read another line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// What a command comes to, when it does not fail (a failure is the text of its `ERROR`).
enum Answer {
    Reply(Response),
    /// Several lines, in order.
    Replies(Vec<Response>),
    Nothing,
    /// `END`: exit without another word.
    Quit,
}

/// Where the next input lines go.
enum Mode {
    Commands,
    /// Inside `BOARD` or `YXBOARD` (`think` false): `(x, y, field)` lines so far, and the first
    /// problem met.
    Board {
        stones: Vec<(usize, usize, usize)>,
        error: Option<String>,
        think: bool,
    },
    /// Inside `SWAP2BOARD`: opening stones so far, and the first problem met.
    Swap2 {
        stones: Vec<(usize, usize)>,
        error: Option<String>,
    },
    /// Inside `YXBLOCK` or `YXBLOCKUNDO` (`unblock` true): points so far, and the first problem.
    Block {
        points: Vec<(usize, usize)>,
        error: Option<String>,
        unblock: bool,
    },
    /// Inside a Yixin-Board command this brain does not support: its lines are skipped.
    Skip,
}

/// The manager's time settings, as last sent.
#[derive(Clone, Copy, Debug)]
struct TimeControl {
    turn: Duration,
    /// Zero means no match clock.
    match_time: Duration,
    /// The match clock as the manager last reported it (`INFO time_left`). Kept across `START`:
    /// Yixin-Board reports it before the `START` of every position it asks about.
    left: Option<Duration>,
    /// The brain's thinking since `left` was reported, or since the game began where it never
    /// was: a manager that does not report the clock still has it kept.
    spent: Duration,
    /// Added to the match clock after each move.
    increment: Duration,
}

impl TimeControl {
    /// Counts a move's thinking against the match clock, which then gains the increment.
    fn charge(&mut self, thought: Duration) {
        self.spent = (self.spent + thought).saturating_sub(self.increment);
    }

    fn limits(&self) -> SearchLimits {
        SearchLimits { move_time: Some(self.turn), clock: self.clock(), ..SearchLimits::default() }
    }

    fn clock(&self) -> Option<Clock> {
        // Without an increment the clock never holds more than the match time: a report kept
        // from an earlier game (see `left`) must not outlast a shorter `timeout_match`.
        let reported = match self.left {
            Some(left) if self.increment.is_zero() => left.min(self.match_time),
            Some(left) => left,
            None => self.match_time,
        };
        (!self.match_time.is_zero()).then(|| Clock {
            remaining: reported.saturating_sub(self.spent),
            increment: self.increment,
            moves_to_go: None,
            byo_yomi: Duration::ZERO,
        })
    }
}

/// One brain's conversation with a manager.
pub struct Session<W: Write + Send> {
    out: Output<W>,
    engine: Engine,
    signals: Arc<Signals>,
    /// `None` until `START` or `RECTSTART`.
    board: Option<Board>,
    /// How many moves at the start of the board's history `BOARD` set up: their real order is
    /// unknown, so they are taken back by colour, not by order.
    setup: usize,
    rule: Rule,
    /// A continuous game (`INFO rule` with bit 2): `BOARD` may carry walls (field 3).
    continuous: bool,
    /// Owed to the next game command after an `INFO rule` this brain cannot play.
    rule_error: Option<String>,
    time: TimeControl,
    /// Deepest iteration of any search; `None` searches until the time is up.
    max_depth: Option<u32>,
    /// Nodes any move may search (`INFO max_node`).
    max_nodes: Option<u64>,
    /// Every search calls on the threat solver ([`SearchLimits::solver`]); set at start-up only.
    threat_solver: bool,
    mode: Mode,
    /// Points the brain must not play (`YXBLOCK`).
    blocked: Vec<Move>,
    /// `YXSHOWINFO` was sent: searches report live for Yixin-Board.
    gui: bool,
    /// `INFO pondering 1`.
    pondering: bool,
    /// The position to ponder once the current line is answered: the opponent is to move.
    ponder: Option<Board>,
}

impl<W: Write + Send> Session<W> {
    /// A session replying on `out`; `signals` must be the ones the input reader raises.
    pub fn new(engine: Engine, out: W, signals: Arc<Signals>) -> Self {
        Session {
            out: Output::new(out),
            engine,
            signals,
            board: None,
            setup: 0,
            rule: Rule::Freestyle,
            continuous: false,
            rule_error: None,
            time: TimeControl {
                turn: DEFAULT_TURN_TIME,
                match_time: Duration::ZERO,
                left: None,
                spent: Duration::ZERO,
                increment: Duration::ZERO,
            },
            max_depth: None,
            max_nodes: None,
            threat_solver: false,
            mode: Mode::Commands,
            blocked: Vec::new(),
            gui: false,
            pondering: false,
            ponder: None,
        }
    }

    /// Caps the depth of every search, as `INFO max_depth` does.
    pub fn with_max_depth(mut self, max_depth: Option<u32>) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Turns the threat solver on (or off) for every search.
    pub fn with_threat_solver(mut self, threat_solver: bool) -> Self {
        self.threat_solver = threat_solver;
        self
    }

    /// Answers `lines` until `END`, or until they run out, pondering between them when asked
    /// to. Only a failure to write the replies ends the session with an error.
    pub fn run(mut self, lines: Receiver<InputLine>) -> io::Result<()> {
        for line in lines {
            if self.handle(&line)? == Flow::Quit {
                break;
            }
            if let Some(position) = self.ponder.take() {
                self.ponder_on(&position)?;
            }
        }
        Ok(())
    }

    pub fn into_output(self) -> W {
        self.out.into_inner()
    }

    fn handle(&mut self, line: &InputLine) -> io::Result<Flow> {
        self.signals.take(line);
        if line.too_long {
            let error = format!("line longer than {MAX_LINE_BYTES} bytes");
            match &mut self.mode {
                Mode::Commands => self.out.line(Response::Error(error))?,
                Mode::Board { error: first, .. }
                | Mode::Swap2 { error: first, .. }
                | Mode::Block { error: first, .. } => {
                    first.get_or_insert(error);
                }
                Mode::Skip => {}
            }
            return Ok(Flow::Continue);
        }
        let text = line.text.trim();
        if text.is_empty() {
            return Ok(Flow::Continue);
        }
        let command = parse_command(text);
        let answer = match std::mem::replace(&mut self.mode, Mode::Commands) {
            _ if command == Ok(Command::End) => Ok(Answer::Quit),
            Mode::Commands => match command {
                Ok(command) => self.command(command, text, line.received),
                Err(ParseError::Unknown) => Ok(Answer::Reply(Response::Unknown(text.to_string()))),
                Err(error) => Err(error.to_string()),
            },
            Mode::Board { stones, error, think } if command == Ok(Command::Done) => {
                self.finish_board(&stones, error, think, line.received)
            }
            Mode::Swap2 { stones, error } if command == Ok(Command::Done) => {
                self.finish_swap2(&stones, error, line.received)
            }
            Mode::Block { points, error, unblock } if command == Ok(Command::Done) => {
                self.finish_block(&points, error, unblock)
            }
            Mode::Skip if command == Ok(Command::Done) => Ok(Answer::Nothing),
            Mode::Skip => {
                self.mode = Mode::Skip;
                Ok(Answer::Nothing)
            }
            Mode::Board { mut stones, mut error, think } => {
                match command {
                    Ok(Command::Stone { x, y, field }) => stones.push((x, y, field)),
                    Ok(Command::Stop) => {}
                    _ => {
                        error.get_or_insert_with(|| format!("unexpected line in BOARD: {text}"));
                    }
                }
                self.mode = Mode::Board { stones, error, think };
                Ok(Answer::Nothing)
            }
            Mode::Block { mut points, mut error, unblock } => {
                match command {
                    Ok(Command::Point(x, y)) => points.push((x, y)),
                    Ok(Command::Stop) => {}
                    _ => {
                        error.get_or_insert_with(|| format!("unexpected line in YXBLOCK: {text}"));
                    }
                }
                self.mode = Mode::Block { points, error, unblock };
                Ok(Answer::Nothing)
            }
            Mode::Swap2 { mut stones, mut error } => {
                match command {
                    Ok(Command::Point(x, y)) => stones.push((x, y)),
                    Ok(Command::Stop) => {}
                    _ => {
                        error.get_or_insert_with(|| format!("unexpected line in SWAP2BOARD: {text}"));
                    }
                }
                self.mode = Mode::Swap2 { stones, error };
                Ok(Answer::Nothing)
            }
        };
        match answer {
            Ok(Answer::Reply(response)) => self.out.line(response)?,
            Ok(Answer::Replies(responses)) => {
                for response in responses {
                    self.out.line(response)?;
                }
            }
            Ok(Answer::Nothing) => {}
            Ok(Answer::Quit) => return Ok(Flow::Quit),
            Err(message) => self.out.line(Response::Error(message))?,
        }
        Ok(Flow::Continue)
    }

    /// Answers a command outside any multi-line block; `text` is its line.
    fn command(&mut self, command: Command, text: &str, received: Instant) -> Result<Answer, String> {
        let needs_rule = !matches!(
            command,
            Command::Info(_)
                | Command::About
                | Command::Stop
                | Command::End
                | Command::Board
                | Command::YxBoard
                | Command::Swap2Board
                | Command::YxShowInfo
                | Command::YxHashClear
                | Command::YxBlock
                | Command::YxBlockUndo
                | Command::YxBlockReset
                | Command::UnsupportedBlock
        );
        if needs_rule && let Some(error) = self.rule_error.take() {
            // A refused START ends the old game all the same: moves must not land on it.
            if matches!(command, Command::Start(_) | Command::RectStart(..) | Command::Restart) {
                self.board = None;
            }
            return Err(error);
        }
        match command {
            Command::Start(size) => self.start(size, size),
            Command::RectStart(width, height) => self.start(width, height),
            Command::Restart => {
                let board = self.game()?;
                self.start(board.width(), board.height())
            }
            Command::Begin => {
                let board = self.game()?;
                // BEGIN opens a game, or (some boards' GUIs) asks for a move in a position just
                // set up by YXBOARD; after moves it would have the brain play the other side.
                if board.history().len() > self.setup {
                    return Err("BEGIN after moves were played: the game is under way (TURN or BOARD go on)".into());
                }
                self.play_best(board, self.setup, received, None)
            }
            Command::Turn(x, y) => {
                let mut board = self.game()?;
                let mv = square(&board, x, y)?;
                board.play(mv).map_err(|error| format!("cannot play {mv}: {error}"))?;
                self.play_best(board, self.setup, received, None)
            }
            Command::YxNBest(count) => {
                let board = self.game()?;
                self.play_best(board, self.setup, received, Some(count.max(1)))
            }
            Command::YxBalance { stones, bias } => self.balance(stones, bias, received),
            Command::Play(x, y) => {
                let mut board = self.game()?;
                let mv = square(&board, x, y)?;
                board.play(mv).map_err(|error| format!("cannot play {mv}: {error}"))?;
                self.board = Some(board);
                Ok(Answer::Reply(Response::Move(mv)))
            }
            Command::Takeback(x, y) => self.takeback(x, y),
            Command::Board | Command::YxBoard => {
                self.mode = Mode::Board { stones: Vec::new(), error: None, think: command == Command::Board };
                Ok(Answer::Nothing)
            }
            Command::YxBlock | Command::YxBlockUndo => {
                let unblock = command == Command::YxBlockUndo;
                self.mode = Mode::Block { points: Vec::new(), error: None, unblock };
                Ok(Answer::Nothing)
            }
            Command::YxBlockReset => {
                self.blocked.clear();
                Ok(Answer::Nothing)
            }
            Command::YxShowInfo => {
                self.gui = true;
                Ok(Answer::Replies(vec![
                    Response::Message(format!("INFO MAX_THREAD_NUM {}", default_threads())),
                    Response::Message(format!("INFO MAX_HASH_SIZE {}", max_hash_size_exponent())),
                ]))
            }
            Command::YxShowForbid => Ok(Answer::Reply(Response::Forbid(self.game()?.forbidden_points()))),
            Command::YxHashClear => {
                self.engine.clear_hash();
                Ok(Answer::Nothing)
            }
            Command::Swap2Board => {
                self.mode = Mode::Swap2 { stones: Vec::new(), error: None };
                Ok(Answer::Nothing)
            }
            Command::Info(info) => {
                self.info(info);
                Ok(Answer::Nothing)
            }
            Command::About => Ok(Answer::Reply(Response::About)),
            // A stop with no search running has nothing to stop.
            Command::Stop => Ok(Answer::Nothing),
            Command::End => Ok(Answer::Quit),
            Command::Done => Err("DONE without BOARD, YXBOARD, SWAP2BOARD, YXBLOCK or YXBLOCKUNDO".into()),
            Command::Stone { .. } | Command::Point(..) => Err("stone line outside BOARD or SWAP2BOARD".into()),
            Command::UnsupportedBlock => {
                self.mode = Mode::Skip;
                Ok(Answer::Reply(Response::Unknown(text.to_string())))
            }
        }
    }

    /// A copy of the game under way, to change and commit only if the command succeeds.
    fn game(&self) -> Result<Board, String> {
        self.board.clone().ok_or_else(|| "no game: send START first".to_string())
    }

    /// A new game. The table keeps what it knows when the size stays (Yixin-Board sends
    /// `START` before every position it asks about, and pondering and earlier searches must not
    /// be lost); a new size empties it, since keys do not include the size.
    fn start(&mut self, width: usize, height: usize) -> Result<Answer, String> {
        let board = Board::new(width, height, self.rule).map_err(|_| "unsupported size")?;
        let same_size = self.board.as_ref().is_some_and(|old| old.width() == width && old.height() == height);
        if same_size {
            self.engine.apply_hash_size();
        } else {
            self.engine.new_game();
        }
        self.board = Some(board);
        self.setup = 0;
        self.time.spent = Duration::ZERO;
        Ok(Answer::Reply(Response::Ok))
    }

    /// Removes the last stone played. Stones set up by `BOARD` have no known order, so once
    /// only they are left, any stone of the side that moved last may be taken back.
    fn takeback(&mut self, x: usize, y: usize) -> Result<Answer, String> {
        let mut board = self.game()?;
        let mv = square(&board, x, y)?;
        if board.history().len() > self.setup && board.last_move() == Some(mv) {
            board.undo();
        } else if board.history().len() <= self.setup && board.stone(mv) == Some(board.side_to_move().opponent()) {
            board = board.without_stone(mv).ok_or_else(|| format!("cannot take back {mv}"))?;
            self.setup = board.history().len();
        } else {
            return Err(format!("{mv} is not the last stone played"));
        }
        self.board = Some(board);
        Ok(Answer::Reply(Response::Ok))
    }

    /// Sets up the position of `BOARD` (then moves) or `YXBOARD` (`think` false: silent).
    fn finish_board(
        &mut self,
        stones: &[(usize, usize, usize)],
        error: Option<String>,
        think: bool,
        received: Instant,
    ) -> Result<Answer, String> {
        if let Some(error) = self.rule_error.take().or(error) {
            return Err(error);
        }
        let current = self.game()?;
        // Played stones in the order listed, each with whether it is the brain's own.
        let (mut played, mut walls) = (Vec::new(), Vec::new());
        for &(x, y, field) in stones {
            let mv = square(&current, x, y)?;
            match field {
                1 | 2 => played.push((mv, field == 1)),
                // A continuous game's winning-line or forbidden stone: nobody's, and in the way.
                3 if self.continuous => walls.push(mv),
                3 => return Err(format!("a wall (field 3) at {mv}, but this is not a continuous game (INFO rule)")),
                _ => return Err(format!("bad field {field} at {mv}, expected 1, 2 or 3")),
            }
        }
        // The brain is to move: with equal counts it is black, one stone behind it is white. In
        // a continuous game the walls are earlier fives' stones (piskvork sends them as field 3
        // whoever made them), so the counts say nothing; every stone was a move, so it is black
        // where stones and walls together are even.
        let own = played.iter().filter(|&&(_, own)| own).count();
        let opponent = played.len() - own;
        let brain_is_black = if walls.is_empty() {
            if own != opponent && opponent != own + 1 {
                return Err(format!("{own} own and {opponent} opponent stones: the brain cannot be to move"));
            }
            own == opponent
        } else {
            (played.len() + walls.len()).is_multiple_of(2)
        };
        let colour = |own: bool| if own == brain_is_black { Color::Black } else { Color::White };
        let listed: Vec<(Move, Color)> = played.iter().map(|&(mv, own)| (mv, colour(own))).collect();
        let (width, height) = (current.width(), current.height());
        let (board, setup) = Board::from_listed_stones(width, height, self.rule, &listed, &walls, colour(true))
            .map_err(|error| format!("bad position: {error}"))?;
        if !think {
            self.board = Some(board);
            self.setup = setup;
            return Ok(Answer::Nothing);
        }
        self.play_best(board, setup, received, None)
    }

    /// Adds the points of `YXBLOCK` to the blocked ones, or (`unblock`) frees those of
    /// `YXBLOCKUNDO`; all of them or, on any problem, none.
    fn finish_block(
        &mut self,
        points: &[(usize, usize)],
        error: Option<String>,
        unblock: bool,
    ) -> Result<Answer, String> {
        if let Some(error) = error {
            return Err(error);
        }
        let board = self.game()?;
        let points = points.iter().map(|&(x, y)| square(&board, x, y)).collect::<Result<Vec<_>, _>>()?;
        for mv in points {
            if unblock {
                self.blocked.retain(|&blocked| blocked != mv);
            } else if !self.blocked.contains(&mv) {
                self.blocked.push(mv);
            }
        }
        Ok(Answer::Nothing)
    }

    fn info(&mut self, info: Info) {
        match info {
            Info::TimeoutTurn(ms) => self.time.turn = Duration::from_millis(ms),
            Info::TimeoutMatch(ms) => self.time.match_time = Duration::from_millis(ms),
            Info::TimeLeft(ms) => {
                self.time.left = Some(Duration::from_millis(ms));
                self.time.spent = Duration::ZERO;
            }
            // Applied at once, not at the next game: managers send it after `START`, and one
            // that starts a brain once a match (GomocupJudge) forfeits it for the memory it holds.
            Info::MaxMemory(bytes) => {
                self.engine.limit_memory(bytes);
                self.engine.apply_hash_size();
            }
            // The manager's cap, not a wish: threads beyond the cores only slow a search down,
            // and thousands of them (a fuzzed `INFO thread_num 2000`) stall it for minutes.
            Info::ThreadNum(threads) => self.engine.set_threads(bounds::on_the_cores(threads as usize)),
            Info::MaxDepth(depth) => self.max_depth = (depth > 0).then_some(depth),
            // Yixin's `hash_size` is the table alone, as Rapfi reads it too.
            Info::HashSize(kib) => {
                self.engine.set_table_kib(kib);
                self.engine.apply_hash_size();
            }
            Info::MaxNode(nodes) => self.max_nodes = (nodes > 0).then_some(nodes),
            Info::TimeIncrement(ms) => self.time.increment = Duration::from_millis(ms),
            Info::Pondering(on) => self.pondering = on,
            // Yixin's caution widens the candidate moves. Ours are fixed by the board (empty
            // points near stones, narrowed only where threats prove it sound), with nothing
            // between rash and cautious to choose, so the setting is accepted and ignored.
            Info::CautionFactor(_) => log::debug!("ignoring {info:?}"),
            Info::Rule(code) => match rule_from_gomocup(code) {
                Some((rule, continuous)) => {
                    self.rule_error = None;
                    self.continuous = continuous;
                    self.set_rule(rule);
                }
                _ => self.rule_error = Some(format!("rule {code} is not supported yet")),
            },
            Info::GameType(_) | Info::Evaluate(..) | Info::Folder(_) | Info::Unknown { .. } => {
                log::debug!("ignoring {info:?}");
            }
        }
    }

    /// Changes the rule, also for the game under way (its moves are replayed under the new rule).
    fn set_rule(&mut self, rule: Rule) {
        if rule == self.rule {
            return;
        }
        self.rule = rule;
        // Zobrist keys do not include the rule: entries searched under the old rule would
        // mislead, and `START` keeps the table.
        self.engine.clear_hash();
        if let Some(board) = &self.board {
            match board.under_rule(rule, self.setup) {
                Some(rebuilt) => self.board = Some(rebuilt),
                None => log::warn!("the position does not fit rule {rule:?}; keeping the old rule for this game"),
            }
        }
    }
}

/// The square `x,y`, if it is on `board`.
fn square(board: &Board, x: usize, y: usize) -> Result<Move, String> {
    Move::new(x, y)
        .filter(|&mv| board.contains(mv))
        .ok_or_else(|| format!("{x},{y} is off the {}x{} board", board.width(), board.height()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::MAX_HASH_MB;
    use crate::search::time;
    use std::sync::mpsc;

    /// Runs a whole session on `input` and returns what it printed but `MESSAGE` lines.
    fn converse(input: &[&str]) -> Vec<String> {
        converse_all(input).into_iter().filter(|l| !l.starts_with("MESSAGE")).collect()
    }

    fn converse_all(input: &[&str]) -> Vec<String> {
        converse_with_solver(input, false)
    }

    fn converse_with_solver(input: &[&str], threat_solver: bool) -> Vec<String> {
        let signals = Arc::new(Signals::default());
        let (sender, receiver) = mpsc::channel();
        for line in input {
            sender
                .send(InputLine {
                    text: line.to_string(),
                    received: Instant::now(),
                    interrupted: false,
                    setting: false,
                    too_long: false,
                })
                .unwrap();
        }
        drop(sender);
        let mut session = Session::new(Engine::new(1, 1), Vec::new(), signals).with_threat_solver(threat_solver);
        for line in receiver {
            if session.handle(&line).unwrap() == Flow::Quit {
                break;
            }
        }
        let out = String::from_utf8(session.into_output()).unwrap();
        out.lines().map(str::to_string).collect()
    }

    #[test]
    fn the_threat_solver_announces_its_win_only_when_switched_on() {
        // (8,7) makes two live threes: a win by threats, not by fours alone, so only the threat
        // solver proves it before the search.
        let input = [
            "START 15",
            "INFO max_depth 3",
            "BOARD",
            "8,5,1",
            "8,6,1",
            "6,7,1",
            "7,7,1",
            "0,0,2",
            "14,0,2",
            "0,14,2",
            "14,14,2",
            "DONE",
        ];
        let proven = |out: &[String]| out.iter().filter(|l| l.starts_with("MESSAGE proven win in 5 plies")).count();
        let on = converse_with_solver(&input, true);
        assert_eq!(proven(&on), 1, "{on:?}");
        assert_eq!(on.last().unwrap(), "8,7", "{on:?}");
        let off = converse_with_solver(&input, false);
        assert_eq!(proven(&off), 0, "{off:?}");
        assert!(off.iter().all(|l| !l.starts_with("MESSAGE proven")), "{off:?}");
        assert!(off.iter().any(|l| l.starts_with("MESSAGE depth 3")), "the plain search ran: {off:?}");
    }

    #[test]
    fn thread_num_is_capped_by_the_cores() {
        let mut session = Session::new(Engine::new(1, 1), Vec::new(), Arc::new(Signals::default()));
        session.info(Info::ThreadNum(u32::MAX));
        assert_eq!(session.engine.threads(), default_threads());
        session.info(Info::ThreadNum(0));
        assert_eq!(session.engine.threads(), 1);
    }

    #[test]
    fn max_depth_caps_every_search() {
        let depths = |input: &[&str]| -> Vec<String> {
            let out = converse_all(input);
            out.iter().filter_map(|l| Some(l.strip_prefix("MESSAGE depth ")?.split('-').next()?.to_string())).collect()
        };
        let capped = depths(&["INFO max_depth 2", "INFO timeout_turn 60000", "START 15", "TURN 7,7", "TURN 9,9"]);
        assert_eq!(capped, ["1", "2", "1", "2"]);
        let lifted = depths(&["INFO max_depth 1", "INFO max_depth 0", "INFO timeout_turn 500", "START 15", "TURN 7,7"]);
        assert!(lifted.len() > 1, "{lifted:?}");
    }

    #[test]
    fn time_settings_become_search_limits() {
        let mut time = TimeControl {
            turn: DEFAULT_TURN_TIME,
            match_time: Duration::ZERO,
            left: None,
            spent: Duration::ZERO,
            increment: Duration::ZERO,
        };
        assert_eq!(time.limits().move_time, Some(DEFAULT_TURN_TIME));
        assert_eq!(time.limits().clock, None);
        time.match_time = Duration::from_secs(100);
        assert_eq!(time.limits().clock.unwrap().remaining, Duration::from_secs(100));
        time.left = Some(Duration::from_secs(30));
        assert_eq!(time.limits().clock.unwrap().remaining, Duration::from_secs(30));
        assert_eq!(time::move_budget(&time.limits()), Some(Duration::from_millis(1_200)));
        time.charge(Duration::from_secs(5));
        assert_eq!(time.limits().clock.unwrap().remaining, Duration::from_secs(25));
        time.increment = Duration::from_secs(2);
        time.charge(Duration::from_secs(1));
        assert_eq!(time.limits().clock.unwrap().remaining, Duration::from_secs(26));
    }

    #[test]
    fn the_match_clock_is_kept_across_start_and_counted_without_reports() {
        let remaining = |session: &Session<Vec<u8>>| session.time.limits().clock.unwrap().remaining;
        let mut session = Session::new(Engine::new(1, 1), Vec::new(), Arc::new(Signals::default()));
        // Yixin-Board's order: the clock, then START, then the position.
        feed(&mut session, &["INFO timeout_match 20000", "INFO time_left 400", "START 15"]);
        assert_eq!(remaining(&session), Duration::from_millis(400));
        // Without reports the brain's own thinking is charged, until the next game.
        let mut session = Session::new(Engine::new(1, 1), Vec::new(), Arc::new(Signals::default()));
        feed(&mut session, &["INFO timeout_match 20000", "INFO max_depth 2", "START 15"]);
        feed(&mut session, &["BEGIN"]);
        assert!(remaining(&session) < Duration::from_millis(20_000));
        feed(&mut session, &["START 15"]);
        assert_eq!(remaining(&session), Duration::from_millis(20_000));
        // A report from a longer match does not outlast a shorter match time sent after it.
        feed(&mut session, &["INFO time_left 100000", "START 15", "INFO timeout_match 2000"]);
        assert_eq!(remaining(&session), Duration::from_millis(2_000));
    }

    #[test]
    fn errors_leave_the_board_unchanged() {
        let out = converse(&[
            "TURN 1,1",
            "START 15",
            "INFO timeout_turn 0",
            "PLAY 7,7",
            "TURN 7,7",
            "TURN 15,0",
            "TAKEBACK 3,3",
            "TAKEBACK 7,7",
            "TAKEBACK 7,7",
        ]);
        assert_eq!(out[0], "ERROR no game: send START first");
        assert_eq!(out[1], "OK");
        assert_eq!(out[2], "7,7");
        assert!(out[3].starts_with("ERROR cannot play 7,7"), "{}", out[3]);
        assert!(out[4].starts_with("ERROR 15,0 is off"), "{}", out[4]);
        assert!(out[5].starts_with("ERROR"), "{}", out[5]);
        assert_eq!(out[6..], ["OK", "ERROR 7,7 is not the last stone played"]);
    }

    #[test]
    fn unsupported_rule_fails_the_next_game_command_only() {
        let out = converse(&["INFO rule 9", "ABOUT", "START 15", "START 15", "END", "ABOUT"]);
        assert!(out[0].starts_with("name=\"Arbor\""));
        assert_eq!(out[1..], ["ERROR rule 9 is not supported yet", "OK"]);
        for code in ["2", "4", "8"] {
            let out = converse(&[&format!("INFO rule {code}"), "START 15"]);
            assert_eq!(out, ["OK"], "rule {code}");
        }
    }

    #[test]
    fn renju_board_is_replayed_in_move_order() {
        // Black's four on row 7 leaves the brain (white) one block. The stones are a history,
        // so TAKEBACK unwinds them in order: 8,8 is not the last white stone, 0,0 is.
        let board = ["BOARD", "7,7,2", "6,7,1", "8,7,2", "8,8,1", "9,7,2", "0,0,1", "10,7,2", "DONE"];
        let takebacks = ["TAKEBACK 11,7", "TAKEBACK 10,7", "TAKEBACK 8,8", "TAKEBACK 0,0"];
        let input: Vec<&str> =
            ["INFO rule 4", "START 15", "INFO timeout_turn 0"].into_iter().chain(board).chain(takebacks).collect();
        let out = converse(&input);
        assert_eq!(out[1..], ["11,7", "OK", "OK", "ERROR 8,8 is not the last stone played", "OK"]);
        // Other rules take BOARD stones as a set: any stone of the right colour comes back.
        let input: Vec<&str> = ["START 15", "INFO timeout_turn 0"].into_iter().chain(board).chain(takebacks).collect();
        assert_eq!(converse(&input)[1..], ["11,7", "OK", "OK", "OK", "ERROR 0,0 is not the last stone played"]);
    }

    #[test]
    fn board_colours_follow_the_stone_counts() {
        let out = converse(&["START 15", "INFO timeout_turn 0", "BOARD", "7,7,2", "DONE", "TAKEBACK 7,7"]);
        assert_eq!(out[0], "OK");
        assert!(out[1].contains(','), "{}", out[1]);
        assert_eq!(out[2], "ERROR 7,7 is not the last stone played");
        // Black's four leaves white one answer, so the reply is known.
        let out = converse(&[
            "START 15",
            "INFO timeout_turn 0",
            "BOARD",
            "7,7,2",
            "8,7,2",
            "9,7,2",
            "10,7,2",
            "6,7,1",
            "0,0,1",
            "0,14,1",
            "DONE",
            "TAKEBACK 11,7",
            "TAKEBACK 0,0",
            "TAKEBACK 7,7",
            "TAKEBACK 0,0",
            "TAKEBACK 7,7",
        ]);
        assert_eq!(
            out[1..],
            [
                "11,7",
                "OK",
                "ERROR 0,0 is not the last stone played",
                "OK",
                "OK",
                "ERROR 7,7 is not the last stone played"
            ]
        );
        let out = converse(&["START 15", "BOARD", "7,7,1", "DONE", "BOARD", "7,7,3", "DONE", "BOARD", "7,7,9", "DONE"]);
        assert!(out[1..].iter().all(|l| l.starts_with("ERROR")), "{out:?}");
    }

    /// The `FOUR` position of the tests: the opponent's four on row 7 leaves the brain (white,
    /// one stone behind) the single block 11,7.
    const FOUR: [&str; 9] = ["BOARD", "7,7,2", "8,7,2", "9,7,2", "10,7,2", "6,7,1", "0,0,1", "0,14,1", "DONE"];

    fn with_four(lines: &[&str], board_command: &str) -> Vec<String> {
        let mut position = FOUR.to_vec();
        position[0] = board_command;
        lines.iter().copied().chain(position).map(str::to_string).collect()
    }

    #[test]
    fn yxboard_sets_up_the_position_without_a_word() {
        let input = with_four(&["START 15", "INFO max_depth 2"], "YXBOARD");
        let input: Vec<&str> = input.iter().map(String::as_str).chain(["YXNBEST 1", "TAKEBACK 11,7"]).collect();
        let out = converse_all(&input);
        assert_eq!(out[0], "OK");
        assert!(out[1].starts_with("MESSAGE depth 1"), "{out:?}");
        assert!(out[out.len() - 3].starts_with("MESSAGE nbest 1 11,7 ev "), "{out:?}");
        assert_eq!(out[out.len() - 2..], ["11,7", "OK"]);
    }

    #[test]
    fn nbest_ranks_distinct_moves_then_plays_the_first() {
        let out = converse_all(&["START 15", "INFO max_depth 3", "BOARD", "7,7,1", "8,8,2", "DONE", "YXNBEST 3"]);
        let ranked: Vec<&String> = out.iter().filter(|l| l.starts_with("MESSAGE nbest")).collect();
        assert_eq!(ranked.len(), 3, "{out:?}");
        let fields: Vec<Vec<&str>> = ranked.iter().map(|l| l.split(' ').collect()).collect();
        let moves: Vec<&str> = fields.iter().map(|f| f[3]).collect();
        assert_eq!(fields.iter().map(|f| f[2]).collect::<Vec<_>>(), ["1", "2", "3"]);
        assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2], "{moves:?}");
        let scores: Vec<i32> = fields.iter().map(|f| f[5].parse().unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert_eq!(out.last().unwrap(), moves[0]);
    }

    #[test]
    fn blocked_points_are_never_played_until_freed() {
        let mut input: Vec<String> =
            ["START 15", "INFO max_depth 2", "YXBLOCK", "11,7", "DONE"].map(String::from).to_vec();
        input.extend(with_four(&[], "BOARD"));
        input.extend(["YXBLOCKUNDO", "11,7", "DONE"].map(String::from));
        input.extend(with_four(&[], "BOARD"));
        input.extend(["YXBLOCK", "11,7", "3,3", "DONE", "YXBLOCKRESET"].map(String::from));
        input.extend(with_four(&[], "BOARD"));
        input.extend(["YXBLOCK", "99,3", "DONE", "YXBLOCKUNDO", "DONE"].map(String::from));
        let input: Vec<&str> = input.iter().map(String::as_str).collect();
        let out = converse(&input);
        assert_eq!(out[0], "OK");
        assert!(out[1] != "11,7" && out[1].contains(','), "{out:?}");
        assert_eq!(out[2..], ["11,7", "11,7", "ERROR 99,3 is off the 15x15 board"]);
    }

    #[test]
    fn every_blocked_move_is_an_error() {
        let out = converse(&["START 5", "YXBLOCK", "0,0", "DONE", "BOARD", "DONE"]);
        assert_eq!(out[1], "2,2");
        let mut input = vec!["START 5".to_string(), "YXBLOCK".to_string()];
        input.extend((0..25).map(|i| format!("{},{}", i % 5, i / 5)));
        input.extend(["DONE", "BEGIN"].map(String::from));
        let input: Vec<&str> = input.iter().map(String::as_str).collect();
        assert_eq!(converse(&input)[1], "ERROR every move is blocked");
    }

    #[test]
    fn gui_mode_shows_the_limits_and_live_lines() {
        let out = converse_all(&["YXSHOWINFO", "START 15", "INFO max_depth 3", "BEGIN"]);
        assert_eq!(out[0], format!("MESSAGE INFO MAX_THREAD_NUM {}", default_threads()));
        assert_eq!(out[1..3], ["MESSAGE INFO MAX_HASH_SIZE 18", "OK"]);
        assert_eq!(out[3], "MESSAGE REALTIME BEST 7,7");
        assert_eq!(out.iter().filter(|l| *l == "MESSAGE REALTIME REFRESH").count(), 3, "{out:?}");
        assert_eq!(out.last().unwrap(), "7,7");
        // Against an open four every root move is lost, and each is said to be so once.
        let out = converse_all(&[
            "YXSHOWINFO",
            "START 15",
            "INFO max_depth 3",
            "BOARD",
            "7,7,2",
            "8,7,2",
            "9,7,2",
            "10,7,2",
            "0,0,1",
            "0,14,1",
            "14,0,1",
            "DONE",
        ]);
        let mut lost: Vec<&str> = out.iter().filter_map(|l| l.strip_prefix("MESSAGE REALTIME LOST ")).collect();
        lost.sort();
        assert_eq!(lost, ["11,7", "6,7"], "{out:?}");
        // The move it will play is still shown as the best after the iteration.
        let best: Vec<&str> = out.iter().filter_map(|l| l.strip_prefix("MESSAGE REALTIME BEST ")).collect();
        assert_eq!(best, [out.last().unwrap().as_str()], "{out:?}");
    }

    #[test]
    fn forbidden_points_need_a_game() {
        let out = converse(&["YXSHOWFORBID", "START 15", "yxshowforbid"]);
        assert_eq!(out, ["ERROR no game: send START first", "OK", "FORBID ."]);
    }

    #[test]
    fn unsupported_yixin_blocks_are_unknown_and_skipped_whole() {
        let out = converse(&["START 15", "YXQUERYDATABASEALL", "7,7", "8,8", "DONE", "yxhashclear", "ABOUT"]);
        assert_eq!(out[..2], ["OK", "UNKNOWN YXQUERYDATABASEALL"]);
        assert!(out[2].starts_with("name=\"Arbor\""), "{out:?}");
        assert_eq!(out.len(), 3);
    }

    fn feed(session: &mut Session<Vec<u8>>, lines: &[&str]) {
        for line in lines {
            session
                .handle(&InputLine {
                    text: line.to_string(),
                    received: Instant::now(),
                    interrupted: false,
                    setting: false,
                    too_long: false,
                })
                .unwrap();
        }
    }

    #[test]
    fn balance_places_one_or_two_stones() {
        let mut session = Session::new(Engine::new(1, 1), Vec::new(), Arc::new(Signals::default()));
        feed(&mut session, &["START 15", "INFO max_depth 2", "YXBALANCEONE 0", "YXBALANCETWO -100"]);
        let history = session.board.as_ref().unwrap().history().to_vec();
        let out = String::from_utf8(session.into_output()).unwrap();
        let replies: Vec<&str> = out.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
        let placed: Vec<String> = history.iter().map(Move::to_string).collect();
        assert_eq!(replies, ["OK", placed[0].as_str(), &format!("{} {}", placed[1], placed[2])]);
        assert!(out.contains("MESSAGE balance depth 2 ev "), "{out}");
    }

    #[test]
    fn yixin_settings_reach_the_searches() {
        let mut session = Session::new(Engine::new(1, 1), Vec::new(), Arc::new(Signals::default()));
        session.info(Info::MaxNode(5_000));
        session.info(Info::TimeIncrement(2_000));
        session.info(Info::TimeoutMatch(60_000));
        let limits = session.move_limits();
        assert_eq!(limits.nodes, Some(5_000));
        assert_eq!(limits.clock.unwrap().increment, Duration::from_secs(2));
        session.info(Info::MaxNode(0));
        assert_eq!(session.move_limits().nodes, None);
        feed(&mut session, &["START 15"]);
        session.info(Info::HashSize(2048));
        assert_eq!(session.engine.hash_mb(), 2, "in the game under way");
        // A memory limit after START (as managers send it) binds the game under way too.
        session.info(Info::MaxMemory(12 << 20));
        assert_eq!(session.engine.hash_mb(), 4, "two fifths of 12 MiB");
        session.info(Info::Pondering(true));
        assert!(session.pondering);
    }

    #[test]
    fn hash_size_is_kib_of_table() {
        assert_eq!(1 << max_hash_size_exponent(), MAX_HASH_MB * 1024);
    }

    /// Input that arrives line by line, each once the session's output holds a given text (a
    /// manager that answers what it sees), so the test does not depend on the clock.
    struct Paced {
        lines: std::collections::VecDeque<(&'static str, &'static str)>,
        out: Shared,
    }

    impl io::Read for Paced {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some((awaited, line)) = self.lines.pop_front() else { return Ok(0) };
            // A bound far beyond any wait, only so that a broken session fails the test instead
            // of hanging it.
            let give_up = Instant::now() + Duration::from_secs(60);
            while !String::from_utf8_lossy(&self.out.0.lock().unwrap()).contains(awaited) && Instant::now() < give_up {
                std::thread::sleep(Duration::from_millis(5));
            }
            let bytes = format!("{line}\n").into_bytes();
            buf[..bytes.len()].copy_from_slice(&bytes);
            Ok(bytes.len())
        }
    }

    /// Output shared with the test, which reads it once the session is over.
    #[derive(Clone, Default)]
    struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn pondering_thinks_between_lines_and_never_answers() {
        // Depth-limited, so the ponder search ends by itself; the next line waits for its report.
        let out = Shared::default();
        let lines = [("", "INFO timeout_turn 60000"), ("", "INFO max_depth 2"), ("", "START 15")]
            .into_iter()
            .chain([("", "INFO pondering 1"), ("", "TURN 7,7"), ("MESSAGE ponder", "YXSTOP"), ("", "ABOUT")])
            .chain([("name=", "END")])
            .collect();
        let input = Paced { lines, out: out.clone() };
        let signals = Arc::new(Signals::default());
        let lines = spawn_reader(BufReader::new(input), classify, Arc::clone(&signals));
        Session::new(Engine::new(1, 1), out.clone(), signals).run(lines).unwrap();
        let out = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let replies: Vec<&str> =
            out.lines().filter(|l| !l.starts_with("MESSAGE depth") && !l.starts_with("MESSAGE INFO")).collect();
        assert_eq!(replies.len(), 4, "{out}");
        assert!(replies[1].contains(','), "{out}");
        let depth: u32 =
            replies[2].strip_prefix("MESSAGE ponder depth ").unwrap().split(' ').next().unwrap().parse().unwrap();
        assert_eq!(depth, 2, "{out}");
        assert!(replies[3].starts_with("name=\"Arbor\""), "{out}");
    }
}
