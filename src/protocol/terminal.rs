//! The terminal game: a person plays any [`Playable`] game against the engine, typing moves and
//! a few words (`help`, `undo`, `hint`, `save FILE`, `0` to quit). Works the same on a pipe, so
//! a scripted game can be checked line by line.

use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::engine::{Engine, GameRecord};
use crate::game::Playable;
use crate::protocol::io::{LineRead, MAX_LINE_BYTES, read_line};
use crate::score::mate_distance;
use crate::search::limits::SearchLimits;

/// How the game is set up.
#[derive(Clone, Copy, Debug)]
pub struct PlayOptions {
    /// The person makes the first move of the game (from the start position given).
    pub human_first: bool,
    /// Thinking time per engine move (and per hint).
    pub move_time: Duration,
    /// Deepest iteration of any search, so that a scripted game does not depend on the clock.
    pub max_depth: Option<u32>,
    /// End the prompt with a newline: input comes from a pipe, not a person at a terminal.
    pub prompt_on_own_line: bool,
}

struct Game<'a, G: Playable, W: Write> {
    engine: &'a mut Engine,
    /// The person's player index (see [`Playable::player_names`]).
    human: usize,
    record: GameRecord<G>,
    options: PlayOptions,
    out: W,
}

/// Plays one game on `input`/`output` until the person quits or the input ends.
pub fn play<G: Playable>(
    engine: &mut Engine,
    start: G,
    options: PlayOptions,
    input: impl BufRead,
    output: impl Write,
) -> io::Result<()> {
    let human = if options.human_first { start.to_move() } else { 1 - start.to_move() };
    let mut game = Game { engine, human, record: GameRecord::new(start), options, out: output };
    game.welcome()?;
    if !game.human_to_move() {
        game.engine_move()?;
    }
    game.show()?;
    game.prompt()?;
    let (mut input, mut buffer) = (input, Vec::new());
    loop {
        // A line that is not UTF-8 is answered like any mistyped move, not fatal; a Windows
        // line end is a line end, not a character typed.
        match read_line(&mut input, &mut buffer)? {
            LineRead::End => break,
            LineRead::TooLong => {
                writeln!(game.out, "That line is longer than {MAX_LINE_BYTES} bytes; nothing was played.")?;
                game.prompt()?;
                continue;
            }
            LineRead::Line => {}
        }
        let bytes = buffer.strip_suffix(b"\n").unwrap_or(&buffer);
        let line = printable(&String::from_utf8_lossy(bytes.strip_suffix(b"\r").unwrap_or(bytes)));
        let line = line.trim();
        if matches!(line.to_ascii_lowercase().as_str(), "0" | "quit" | "exit" | "q") {
            writeln!(game.out, "Bye.")?;
            return game.out.flush();
        }
        game.handle(line)?;
        game.prompt()?;
    }
    writeln!(game.out)?;
    game.out.flush()
}

impl<G: Playable, W: Write> Game<'_, G, W> {
    fn names(&self) -> [&'static str; 2] {
        self.record.position().player_names()
    }

    fn human_to_move(&self) -> bool {
        self.record.position().to_move() == self.human
    }

    fn welcome(&mut self) -> io::Result<()> {
        let names = self.names();
        writeln!(
            self.out,
            "Arbor plays {}. You are {}, the engine is {}. Type help for the commands.",
            G::NAME,
            capital(names[self.human]),
            capital(names[1 - self.human])
        )
    }

    fn show(&mut self) -> io::Result<()> {
        let diagram = self.record.position().diagram(self.record.last_move());
        write!(self.out, "\n{diagram}")?;
        if let Some(verdict) = self.record.position().verdict() {
            let result = match verdict.winner {
                Some(w) if w == self.human => format!("You win ({}): {}.", capital(self.names()[w]), verdict.reason),
                Some(w) => format!("Arbor wins ({}): {}.", capital(self.names()[w]), verdict.reason),
                None => format!("Draw: {}.", verdict.reason),
            };
            writeln!(self.out, "{result}")?;
        }
        Ok(())
    }

    fn prompt(&mut self) -> io::Result<()> {
        let text = if self.record.position().verdict().is_some() {
            "Game over: undo, save FILE or 0 to quit > ".to_string()
        } else {
            let name = capital(self.names()[self.record.position().to_move()]);
            format!("{name} to move, your move (e.g. {}) > ", G::MOVE_EXAMPLE)
        };
        if self.options.prompt_on_own_line {
            writeln!(self.out, "{}", text.trim_end())?;
        } else {
            write!(self.out, "{text}")?;
        }
        self.out.flush()
    }

    fn handle(&mut self, line: &str) -> io::Result<()> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match word.to_ascii_lowercase().as_str() {
            "" => Ok(()),
            "help" | "?" => self.help(),
            "undo" => self.undo(),
            "hint" => self.hint(),
            "save" => self.save(rest.trim()),
            _ => self.human_move(line),
        }
    }

    fn help(&mut self) -> io::Result<()> {
        writeln!(self.out, "Moves: {}.", G::MOVE_FORMAT)?;
        writeln!(self.out, "undo       take back your last move and the engine's reply")?;
        writeln!(self.out, "hint       ask the engine for a move")?;
        writeln!(self.out, "save FILE  write the moves to FILE and the position to FILE.pos (for --position)")?;
        writeln!(self.out, "0 or quit  leave the game")
    }

    fn human_move(&mut self, text: &str) -> io::Result<()> {
        if !self.human_to_move() {
            return writeln!(self.out, "The game is over; undo, save FILE or 0 to quit.");
        }
        match self.record.play_text(text) {
            Ok(_) => {
                if self.record.position().verdict().is_none() {
                    self.engine_move()?;
                }
                self.show()
            }
            Err(why) => {
                let why = printable(&why);
                writeln!(self.out, "Not a legal move: {why}. Nothing changed; type help for the commands.")
            }
        }
    }

    fn engine_move(&mut self) -> io::Result<()> {
        let position = self.record.position().clone();
        let result = self.think(&position);
        let Some(mv) = result.0 else { return Ok(()) };
        self.record.play(mv);
        writeln!(self.out, "Arbor plays {} ({}).", position.format_move(mv), result.1)
    }

    /// The engine's move and what it expects, in words.
    fn think(&mut self, position: &G) -> (Option<G::Move>, String) {
        let stop = AtomicBool::new(false);
        let limits = SearchLimits { depth: self.options.max_depth, ..SearchLimits::move_time(self.options.move_time) };
        let result = self.engine.think(position, &limits, Instant::now(), &stop, &mut |_| {});
        let outlook = match mate_distance(result.score) {
            Some(1) if result.score > 0 => "and wins".into(),
            // A mate distance bounds the game: a solver may prove a win without its length.
            Some(plies) if result.score > 0 => format!("wins within {}", moves(plies.div_ceil(2) as usize)),
            Some(plies) => format!("loses within {}", moves(plies.div_ceil(2).max(1) as usize)),
            None if position.solving_depth().is_some() && result.score == 0 => "a draw with best play".into(),
            None => format!("score {}", result.score),
        };
        (result.best_move, outlook)
    }

    fn undo(&mut self) -> io::Result<()> {
        // Back to the person's turn with at least one of their moves taken back.
        let mut undone = Vec::new();
        while let Some(mv) = self.record.undo() {
            undone.push(mv);
            if self.human_to_move() {
                break;
            }
        }
        if !self.human_to_move() || undone.is_empty() {
            // Nothing of the person's to take back: put everything back as it was.
            for mv in undone.into_iter().rev() {
                self.record.play(mv);
            }
            return writeln!(self.out, "Nothing to undo.");
        }
        let text: Vec<String> = undone.iter().rev().map(|&mv| self.record.position().format_move(mv)).collect();
        writeln!(self.out, "Took back {}.", text.join(" and "))?;
        self.show()
    }

    fn hint(&mut self) -> io::Result<()> {
        if !self.human_to_move() {
            return writeln!(self.out, "The game is over.");
        }
        let position = self.record.position().clone();
        match self.think(&position) {
            (Some(mv), score) => writeln!(self.out, "Hint: {} ({score}).", position.format_move(mv)),
            (None, _) => writeln!(self.out, "No move to suggest."),
        }
    }

    fn save(&mut self, path: &str) -> io::Result<()> {
        if path.is_empty() {
            return writeln!(self.out, "save needs a file name, e.g. save game.txt");
        }
        let mut position = self.record.position().clone();
        let moves = self.record.moves().to_vec();
        for &mv in moves.iter().rev() {
            position.unmake_move(mv);
        }
        let mut text = String::new();
        for &mv in &moves {
            text.push_str(&position.format_move(mv));
            text.push('\n');
            position.make_move(mv);
        }
        if let Err(e) = std::fs::write(path, text) {
            return writeln!(self.out, "Could not save {path}: {e}");
        }
        writeln!(self.out, "Saved {} to {path}.", self::moves(moves.len()))?;
        let other = format!("{path}.pos");
        match std::fs::write(&other, format!("{}\n", self.record.position().setup_text())) {
            Ok(()) => writeln!(self.out, "Saved the position to {other}; --position reads it to play on.")?,
            Err(e) => writeln!(self.out, "Could not save {other}: {e}")?,
        }
        Ok(())
    }
}

/// `n moves`, or `1 move`.
fn moves(n: usize) -> String {
    if n == 1 { "1 move".into() } else { format!("{n} moves") }
}

/// `text` without the characters a terminal would obey or break the line on (tabs become
/// spaces): what a person typed is echoed back in messages.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' => ' ',
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => char::REPLACEMENT_CHARACTER,
            c => c,
        })
        .collect()
}

fn capital(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gomoku::{Board, Rule};
    use crate::tictactoe::TicTacToe;

    fn session<G: Playable>(start: G, human_first: bool, input: &str) -> String {
        let mut engine = Engine::new(1, 1);
        let options = PlayOptions {
            human_first,
            move_time: Duration::from_millis(300),
            max_depth: None,
            prompt_on_own_line: true,
        };
        let mut output = Vec::new();
        play(&mut engine, start, options, input.as_bytes(), &mut output).unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn the_engine_can_open_and_quit_works_at_once() {
        let out = session(TicTacToe::classic(), false, "quit\nb2\n");
        assert!(out.starts_with("Arbor plays tictactoe. You are O, the engine is X."), "{out}");
        assert!(out.contains("\nArbor plays b2 (a draw with best play).\n"), "{out}");
        assert!(out.contains("\nO to move, your move (e.g. b2) >\nBye.\n"), "{out}");
    }

    #[test]
    fn saves_the_record_and_the_gomoku_position() {
        let dir = std::env::temp_dir().join(format!("arbor-terminal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.txt");
        let board = Board::new(15, 15, Rule::Freestyle).unwrap();
        let out = session(board, true, &format!("h8\nsave {}\n0\n", path.display()));
        assert!(out.contains("Saved 2 moves to"), "{out}");
        let record = std::fs::read_to_string(&path).unwrap();
        let moves: Vec<&str> = record.lines().collect();
        assert_eq!((moves.len(), moves[0]), (2, "h8"));
        let position = std::fs::read_to_string(dir.join("game.txt.pos")).unwrap();
        assert_eq!(position, format!("h8{}\n", moves[1]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_saved_position_resumes_a_game_set_up_elsewhere() {
        let dir = std::env::temp_dir().join(format!("arbor-terminal-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("game.txt");
        let start = TicTacToe::classic().set_up("x../.o./...").unwrap();
        let out = session(start.clone(), true, &format!("c1\nsave {}\n0\n", path.display()));
        assert!(out.contains("Saved 2 moves to"), "{out}");
        let text = std::fs::read_to_string(dir.join("game.txt.pos")).unwrap();
        let resumed = start.set_up(text.trim()).unwrap();
        assert_eq!(
            (resumed.setup_text(), text.matches('x').count(), text.matches('o').count()),
            (text.trim().into(), 2, 2)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn windows_line_ends_are_read_as_line_ends() {
        let out = session(TicTacToe::classic(), true, "a1\r\nquit\r\n");
        assert!(!out.contains("Not a legal move"), "{out}");
        assert!(out.contains("Arbor plays "), "{out}");
        assert!(out.ends_with("Bye.\n"), "{out}");
    }

    #[test]
    fn a_finished_game_says_who_won_and_how() {
        let out = session(TicTacToe::classic(), true, "a1\nc1\nc3\n");
        assert!(
            out.contains("Arbor wins (O): 3 in a row: b1 b2 b3.\nGame over: undo, save FILE or 0 to quit >"),
            "{out}"
        );
    }
}
