//! The GTP session: keeps the game, its record and the clocks between commands, and answers
//! each request with exactly one [`Response`].
//!
//! GTP is strictly request-reply: lines are answered one at a time, in order, and a `genmove`
//! always finishes within its clock. Input is read on a thread of its own ([`spawn_reader`]) so
//! that a `quit`, or the end of input, stops a running `genmove` at once: the move found so far
//! is the reply, lines still queued are answered without searching further, then `quit` is
//! answered and the session ends. Search progress
//! goes to the log (stderr, `RUST_LOG=info`), never into a response.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::parse::{COMMANDS, Command, ParseError, Request, Response, clean_line, parse_request};
use crate::engine::{Engine, GameRecord};
use crate::game::Playable;
use crate::protocol::bounds::seconds;
use crate::protocol::io::{Interrupt, MAX_LINE_BYTES, Signals, spawn_reader};
use crate::score::describe;
use crate::search::SearchEvent;
use crate::search::limits::SearchLimits;
use crate::search::time;

/// Game clock when the controller sends no `time_settings`: a 15-minute game each.
pub const DEFAULT_MAIN_TIME: Duration = Duration::from_secs(15 * 60);

/// GTP time settings (Canadian byo-yomi: after the main time, `stones` moves in `byo_yomi`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct TimeSettings {
    main: Duration,
    byo_yomi: Duration,
    stones: u32,
}

impl TimeSettings {
    /// GTP's convention: byo-yomi time with no stones means no time limit at all.
    fn unlimited(&self) -> bool {
        self.stones == 0 && !self.byo_yomi.is_zero()
    }

    /// Both players' clocks at the start of a game: the main time; the first period where
    /// there is none; without a limit, the clock of a game without time_settings.
    fn fresh_clocks(&self) -> [PlayerClock; 2] {
        let clock = if self.unlimited() {
            PlayerClock { remaining: DEFAULT_MAIN_TIME, stones: 0 }
        } else if self.main.is_zero() && self.stones > 0 {
            PlayerClock { remaining: self.byo_yomi, stones: self.stones }
        } else {
            PlayerClock { remaining: self.main, stones: 0 }
        };
        [clock; 2]
    }
}

/// One player's clock as last reported or as we have run it down ourselves.
#[derive(Clone, Copy, Debug, PartialEq)]
struct PlayerClock {
    remaining: Duration,
    /// Moves to play in `remaining` (byo-yomi), 0 while in main time.
    stones: u32,
}

pub struct Session<G: Playable> {
    engine: Engine,
    /// The start position `clear_board` returns to (size and settings included).
    initial: G,
    record: GameRecord<G>,
    time: TimeSettings,
    clocks: [PlayerClock; 2],
    /// The name `set_first_color` gave the first player, kept as a name so that it holds
    /// across a `boardsize` that changes which colour moves first (Botzone's 8x8).
    first_name: Option<&'static str>,
    /// Deepest iteration any `genmove` searches (`arbor gtp --max-depth`).
    max_depth: Option<u32>,
    /// Raised by the input thread to stop a search.
    signals: Arc<Signals>,
    quit: bool,
}

impl<G: Playable> Session<G> {
    pub fn new(engine: Engine, initial: G) -> Self {
        let time = TimeSettings { main: DEFAULT_MAIN_TIME, byo_yomi: Duration::ZERO, stones: 0 };
        Session {
            engine,
            record: GameRecord::new(initial.clone()),
            initial,
            time,
            clocks: time.fresh_clocks(),
            first_name: None,
            max_depth: None,
            signals: Arc::default(),
            quit: false,
        }
    }

    /// Caps the depth of every search, so that a run does not depend on the clock.
    pub fn with_max_depth(mut self, max_depth: Option<u32>) -> Self {
        self.max_depth = max_depth;
        self
    }

    pub fn record(&self) -> &GameRecord<G> {
        &self.record
    }

    /// The controller asked to quit.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Searches stop when `signals` say so.
    pub fn with_signals(mut self, signals: Arc<Signals>) -> Self {
        self.signals = signals;
        self
    }

    /// Answers one input line, or `None` for a line GTP says to ignore (empty or comment only).
    pub fn handle_line(&mut self, line: &str) -> Option<Response> {
        self.handle_line_received(line, Instant::now())
    }

    /// [`Session::handle_line`] for a line that arrived at `received`, when a move's clock starts.
    fn handle_line_received(&mut self, line: &str, received: Instant) -> Option<Response> {
        let Request { id, command } = parse_request(&clean_line(line)?);
        let result = match command {
            Ok(command) => self.execute(command, received),
            Err(ParseError::Unknown(name)) => Err(format!("unknown command: {name}")),
            Err(error) => Err(error.to_string()),
        };
        Some(Response { id, result })
    }

    fn execute(&mut self, command: Command, received: Instant) -> Result<String, String> {
        match command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok("Arbor".into()),
            Command::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            Command::KnownCommand(name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
            Command::ListCommands => Ok(COMMANDS.join("\n")),
            Command::Quit => {
                self.quit = true;
                Ok(String::new())
            }
            Command::BoardSize { width, height } => {
                let resized = self.initial.resized(width, height).map_err(|e| format!("unacceptable size: {e}"))?;
                self.new_game(resized);
                Ok(String::new())
            }
            Command::ClearBoard => {
                self.new_game(self.initial.clone());
                Ok(String::new())
            }
            Command::SetPosition(text) => {
                let text = if self.names_swapped() { self.swap_names(&text) } else { text };
                let position = self.initial.set_up(&text)?;
                self.engine.new_game();
                self.record = GameRecord::new(position);
                Ok(String::new())
            }
            Command::SetFirstColor(color) => {
                let game_names = self.record.position().player_names();
                let color = color.to_ascii_lowercase();
                let name = game_names
                    .into_iter()
                    .find(|name| names_color(name, &color))
                    .ok_or_else(|| format!("invalid color {color}: {} or {}", game_names[0], game_names[1]))?;
                self.first_name = Some(name);
                Ok(String::new())
            }
            Command::Play { color, mv } => {
                self.check_turn(&color)?;
                self.record.play_text(&mv).map(|_| String::new()).map_err(|e| format!("illegal move: {e}"))
            }
            Command::GenMove { color } => self.genmove(&color, received),
            Command::Undo => self.record.undo().map(|_| String::new()).ok_or_else(|| "cannot undo".to_string()),
            Command::ShowBoard => Ok(self.board_text()),
            Command::TimeSettings { main, byo_yomi, stones } => {
                let (main, byo_yomi) = (seconds(main)?, seconds(byo_yomi)?);
                self.time = TimeSettings { main, byo_yomi, stones };
                self.clocks = self.time.fresh_clocks();
                Ok(String::new())
            }
            Command::TimeLeft { color, seconds: left, stones } => {
                let player = self.player(&color)?;
                self.clocks[player] = PlayerClock { remaining: seconds(left)?, stones };
                Ok(String::new())
            }
            Command::FinalScore => {
                let verdict = self.record.position().verdict().ok_or("the game is not over")?;
                Ok(match verdict.winner {
                    Some(winner) => format!("{}+", initial(self.names()[winner])),
                    None => "0".into(),
                })
            }
        }
    }

    fn new_game(&mut self, position: G) {
        self.engine.new_game();
        self.initial = position.clone();
        self.record = GameRecord::new(position);
        self.clocks = self.time.fresh_clocks();
    }

    /// Whether the first player goes by the game's second colour name (`set_first_color`).
    fn names_swapped(&self) -> bool {
        self.first_name.is_some_and(|name| name != self.record.position().player_names()[0])
    }

    /// The players' names, the first mover's first.
    fn names(&self) -> [&'static str; 2] {
        let [first, second] = self.record.position().player_names();
        if self.names_swapped() { [second, first] } else { [first, second] }
    }

    /// `text` with the players' names (or their initials) exchanged, word by word and, for
    /// one-letter names, letter by letter (tic-tac-toe's `x.o/...`): the game's set-up reads
    /// its own names, which `set_first_color` exchanged for the user.
    fn swap_names(&self, text: &str) -> String {
        let [first, second] = self.record.position().player_names();
        let other = |word: &str| {
            let word = word.to_ascii_lowercase();
            let named = |name: &str| word == name || (word.len() == 1 && name.starts_with(&word));
            if named(first) {
                Some(second)
            } else if named(second) {
                Some(first)
            } else {
                None
            }
        };
        let letters = first.len() == 1 && second.len() == 1;
        let words = text.split(|c: char| c.is_whitespace() || c == ',').filter(|word| !word.is_empty());
        let swapped = words.map(|word| match other(word) {
            Some(name) => name.to_string(),
            None if letters => {
                word.chars().map(|c| other(&c.to_string()).map_or(c.to_string(), String::from)).collect()
            }
            None => word.to_string(),
        });
        swapped.collect::<Vec<_>>().join(" ")
    }

    /// A colour argument: a player's name or its first letter, any case.
    fn player(&self, color: &str) -> Result<usize, String> {
        let color = color.to_ascii_lowercase();
        let names = self.names();
        names
            .iter()
            .position(|name| names_color(name, &color))
            .ok_or_else(|| format!("invalid color {color}: {} or {}", names[0], names[1]))
    }

    fn check_turn(&self, color: &str) -> Result<usize, String> {
        let player = self.player(color)?;
        let to_move = self.record.position().to_move();
        if player != to_move {
            return Err(format!("it is {}'s turn", self.names()[to_move]));
        }
        Ok(player)
    }

    fn genmove(&mut self, color: &str, received: Instant) -> Result<String, String> {
        let player = self.check_turn(color)?;
        if let Some(verdict) = self.record.position().verdict() {
            // A player who cannot move has lost; GTP's word for giving up is `resign`.
            return if verdict.winner.is_some_and(|w| w != player) {
                Ok("resign".into())
            } else {
                Err(format!("the game is over: {}", verdict.reason))
            };
        }
        let limits = self.limits(player);
        let position = self.record.position().clone();
        self.signals.arm();
        let result = self.engine.think(&position, &limits, received, self.signals.stop_flag(), &mut |event| {
            let SearchEvent::Iteration(info) = event else { return };
            let pv: Vec<String> = info.pv.iter().map(|&mv| position.format_move(mv)).collect();
            log::info!(
                "depth {} score {} nodes {} nps {} time {} ms pv {}",
                info.depth,
                describe(info.score),
                info.nodes,
                info.nodes_per_second(),
                info.elapsed.as_millis(),
                pv.join(" ")
            );
        });
        let mv = result.best_move.ok_or("no legal move")?;
        self.record.play(mv);
        self.charge(player, received.elapsed());
        Ok(position.format_move(mv))
    }

    fn limits(&self, player: usize) -> SearchLimits {
        let mut limits = self.time_limits(player);
        limits.depth = match (limits.depth, self.max_depth) {
            (Some(depth), Some(max)) => Some(depth.min(max)),
            (depth, max) => depth.or(max),
        };
        limits
    }

    /// Under no time limit (GTP's byo-yomi time with no stones) the engine still answers: it
    /// plays as without time_settings, a game of [`DEFAULT_MAIN_TIME`] run down by its moves.
    fn time_limits(&self, player: usize) -> SearchLimits {
        let clock = self.clocks[player];
        let (period, stones) =
            if self.time.unlimited() { (Duration::ZERO, 0) } else { (self.time.byo_yomi, self.time.stones) };
        time::byo_yomi_limits(clock.remaining, clock.stones, period, stones)
    }

    /// Runs our own clock down when the controller does not send `time_left`. Canadian
    /// byo-yomi: a move that runs out of main time is the first stone of the first period,
    /// which loses what the move took past the main time.
    fn charge(&mut self, player: usize, used: Duration) {
        let clock = &mut self.clocks[player];
        let overrun = used.saturating_sub(clock.remaining);
        clock.remaining = clock.remaining.saturating_sub(used);
        if clock.stones == 0 && clock.remaining.is_zero() && self.time.stones > 0 {
            let remaining = self.time.byo_yomi.saturating_sub(overrun);
            *clock = PlayerClock { remaining, stones: self.time.stones };
        }
        if clock.stones > 0 {
            clock.stones -= 1;
            if clock.stones == 0 {
                *clock = PlayerClock { remaining: self.time.byo_yomi, stones: self.time.stones };
            }
        }
    }

    /// The diagram, from the line after `=`.
    fn board_text(&self) -> String {
        let position = self.record.position();
        let mut text = format!("\n{}", position.diagram(self.record.last_move()));
        match position.verdict() {
            Some(verdict) => {
                // The reason names players by the game's own names, which set_first_color swapped.
                let [first, second] = position.player_names();
                let reason = if self.names_swapped() {
                    let other = |word| {
                        if word == first {
                            second
                        } else if word == second {
                            first
                        } else {
                            word
                        }
                    };
                    verdict.reason.split(' ').map(other).collect::<Vec<_>>().join(" ")
                } else {
                    verdict.reason
                };
                match verdict.winner {
                    Some(winner) => text.push_str(&format!("{} wins: {reason}", self.names()[winner])),
                    None => text.push_str(&format!("draw: {reason}")),
                }
            }
            None => text.push_str(&format!("{} to move", self.names()[position.to_move()])),
        }
        if self.names_swapped() {
            let names = self.names();
            text.push_str(&format!("\n(colours renamed: the first player, drawn as usual, is {})", names[0]));
        }
        text
    }
}

fn initial(name: &str) -> String {
    name.chars().next().map(|c| c.to_ascii_uppercase().to_string()).unwrap_or_default()
}

/// Which lines stop a running `genmove`: `quit` (with or without an id), even behind other lines.
pub fn classify(line: &str) -> Interrupt {
    match clean_line(line).map(|line| parse_request(&line).command) {
        Some(Ok(Command::Quit)) => Interrupt::Quit,
        _ => Interrupt::None,
    }
}

/// Runs a GTP session on `input` and `output` until `quit` or the end of the input.
pub fn run<G: Playable>(
    engine: Engine,
    initial: G,
    max_depth: Option<u32>,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let signals = Arc::new(Signals::leaving_stops_searches());
    let lines = spawn_reader(input, classify, Arc::clone(&signals));
    let mut session = Session::new(engine, initial).with_max_depth(max_depth).with_signals(Arc::clone(&signals));
    for line in lines {
        signals.take(&line);
        // A long comment or blank line is still no command, and a refused one keeps its id.
        let response = if line.too_long {
            clean_line(&line.text).map(|start| Response {
                id: parse_request(&start).id,
                result: Err(format!("line longer than {MAX_LINE_BYTES} bytes")),
            })
        } else {
            session.handle_line_received(&line.text, line.received)
        };
        if let Some(response) = response {
            write!(output, "{response}")?;
            output.flush()?;
        }
        if session.quit_requested() {
            break;
        }
    }
    Ok(())
}

/// Whether a lowercase colour argument names the player `name`: the name or its first letter.
fn names_color(name: &str, color: &str) -> bool {
    name == color || (color.len() == 1 && name.starts_with(color))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amazons::Position;
    use crate::protocol::bounds::MAX_TIME;

    fn reply<G: Playable>(session: &mut Session<G>, line: &str) -> Result<String, String> {
        session.handle_line(line).expect("a reply").result
    }

    #[test]
    fn no_time_limit_survives_a_new_game() {
        let mut session = Session::new(Engine::new(1, 1), Position::new());
        reply(&mut session, "time_settings 0 1 0").unwrap();
        for command in ["clear_board", "boardsize 8"] {
            reply(&mut session, command).unwrap();
            let limits = session.limits(0);
            assert_eq!(limits.depth, None, "{command}");
            assert_eq!(limits.clock.map(|clock| clock.remaining), Some(DEFAULT_MAIN_TIME), "{command}");
        }
    }

    #[test]
    fn byo_yomi_gives_every_move_its_period() {
        let secs = Duration::from_secs_f64;
        let mut session = Session::new(Engine::new(1, 1), Position::new());
        // No main time: every move has the whole period for its one stone.
        reply(&mut session, "time_settings 0 1 1").unwrap();
        for _ in 0..3 {
            assert_eq!(session.limits(0).move_time, Some(secs(1.0)));
            session.charge(0, secs(0.9));
        }
        // A move that runs 0.5 s past the main time is the first of the period's two stones.
        reply(&mut session, "time_settings 1 10 2").unwrap();
        session.charge(0, secs(1.5));
        assert_eq!(session.clocks[0], PlayerClock { remaining: secs(9.5), stones: 1 });
        assert_eq!(session.limits(0).move_time, Some(secs(9.5)));
        session.charge(0, secs(9.0));
        assert_eq!(session.clocks[0], PlayerClock { remaining: secs(10.0), stones: 2 });
    }

    #[test]
    fn the_first_colour_s_name_holds_across_a_board_that_changes_who_starts() {
        let mut session = Session::new(Engine::new(1, 1), Position::new()).with_max_depth(Some(1));
        reply(&mut session, "set_first_color black").unwrap();
        assert_eq!(session.names(), ["black", "white"]);
        reply(&mut session, "boardsize 8").unwrap();
        assert_eq!(session.names(), ["black", "white"]);
        assert!(reply(&mut session, "genmove black").is_ok());
        reply(&mut session, "set_first_color white").unwrap();
        reply(&mut session, "boardsize 10").unwrap();
        assert_eq!(session.names(), ["white", "black"]);
        assert!(reply(&mut session, "genmove white").is_ok());
    }

    #[test]
    fn times_beyond_any_clock_are_clamped() {
        let mut session = Session::new(Engine::new(1, 1), Position::new()).with_max_depth(Some(1));
        assert_eq!(reply(&mut session, "time_settings 0 18000000000000000000 1"), Ok(String::new()));
        assert_eq!(session.time.byo_yomi, MAX_TIME);
        assert!(reply(&mut session, "genmove w").is_ok());
        assert_eq!(reply(&mut session, "time_settings 18000000000000000000 0 0"), Ok(String::new()));
        assert_eq!(reply(&mut session, "time_left b 99999999999999999999999999999 4294967295"), Ok(String::new()));
        assert!(session.clocks.iter().all(|clock| clock.remaining <= MAX_TIME));
        assert!(reply(&mut session, "genmove b").is_ok());
        assert!(reply(&mut session, "genmove w").is_ok());
    }
}
