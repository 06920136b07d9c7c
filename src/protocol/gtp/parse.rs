//! GTP version 2 framing, both ways: [`parse_request`] reads one controller line,
//! [`Response`] prints one reply.
//!
//! Parsing is pure and knows no game: moves and colours stay text, checked by the session
//! against the position. Command names are matched as GTP spells them (lower case); once a name
//! is recognised its arguments are parsed under `cut`, so a known command with bad arguments
//! (`? syntax error`) is told apart from an unknown one (`? unknown command`).

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{cut, eof, map_res, not, opt, recognize, rest, value, verify};
use nom::error::Error;
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

/// One controller command, arguments not yet checked against the game.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    /// `boardsize N`, or a rectangle as `boardsize W H` or `boardsize WxH`.
    BoardSize {
        width: usize,
        height: usize,
    },
    ClearBoard,
    Play {
        color: String,
        mv: String,
    },
    GenMove {
        color: String,
    },
    Undo,
    ShowBoard,
    /// Main time and byo-yomi time in seconds, stones per byo-yomi period (0: no byo-yomi).
    TimeSettings {
        main: f64,
        byo_yomi: f64,
        stones: u32,
    },
    /// Time left in seconds; `stones` > 0 means that many moves must be played in it.
    TimeLeft {
        color: String,
        seconds: f64,
        stones: u32,
    },
    FinalScore,
    /// Loads a position given in the game's own set-up text.
    SetPosition(String),
    /// Names the player who moves first (Amazons' Chinese convention calls it black).
    SetFirstColor(String),
}

/// Every command name, as `list_commands` prints them.
pub const COMMANDS: [&str; 17] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "final_score",
    "set_position",
    "set_first_color",
];

/// A request: the optional numeric id GTP echoes in the reply, and the command or why the line
/// is not one.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub id: Option<u64>,
    pub command: Result<Command, ParseError>,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    Unknown(String),
    BadArguments { command: String, usage: &'static str },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(name) => write!(f, "unknown command: {name}"),
            ParseError::BadArguments { command, usage } => write!(f, "syntax error: {command} {usage}"),
        }
    }
}

/// GTP's preprocessing: control characters other than tab and newline are dropped, tabs become
/// spaces, `#` starts a comment. `None` for a line that is then empty (no reply is due).
pub fn clean_line(line: &str) -> Option<String> {
    let line = line.split('#').next().unwrap_or_default();
    let cleaned: String =
        line.chars().filter(|c| !c.is_control() || *c == '\t').map(|c| if c == '\t' { ' ' } else { c }).collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.to_string())
}

/// Parses one cleaned, non-empty line.
pub fn parse_request(line: &str) -> Request {
    let (after_id, id) = match request_id.parse(line) {
        Ok((remaining, id)) => (remaining, Some(id)),
        Err(_) => (line, None),
    };
    let name = after_id.split(' ').next().unwrap_or_default().to_string();
    let command = match command.parse(after_id) {
        Ok((_, command)) => Ok(command),
        Err(nom::Err::Failure(_)) => Err(ParseError::BadArguments { usage: usage(&name), command: name }),
        Err(_) => Err(ParseError::Unknown(name)),
    };
    Request { id, command }
}

fn usage(command: &str) -> &'static str {
    match command {
        "known_command" => "COMMAND",
        "boardsize" => "SIZE (or WIDTH HEIGHT, or WIDTHxHEIGHT)",
        "play" => "COLOR MOVE",
        "genmove" => "COLOR",
        "time_settings" => "MAIN_SECONDS BYO_YOMI_SECONDS BYO_YOMI_STONES",
        "time_left" => "COLOR SECONDS STONES",
        "set_position" => "POSITION",
        "set_first_color" => "COLOR",
        _ => "takes no arguments",
    }
}

type Res<'a, T> = IResult<&'a str, T>;

fn request_id(input: &str) -> Res<'_, u64> {
    // A number then a space (or nothing): `12name` is a command name, not an id.
    terminated(map_res(digit1, str::parse), alt((space1, eof))).parse(input)
}

fn command(input: &str) -> Res<'_, Command> {
    alt((
        alt((
            no_args("protocol_version", Command::ProtocolVersion),
            no_args("name", Command::Name),
            no_args("version", Command::Version),
            with_args("known_command", word).map(|w| Command::KnownCommand(w.to_string())),
            no_args("list_commands", Command::ListCommands),
            no_args("quit", Command::Quit),
            with_args("boardsize", board_size).map(|(width, height)| Command::BoardSize { width, height }),
            no_args("clear_board", Command::ClearBoard),
        )),
        alt((
            with_args("play", (word, preceded(space1, word)))
                .map(|(color, mv)| Command::Play { color: color.to_string(), mv: mv.to_string() }),
            with_args("genmove", word).map(|color| Command::GenMove { color: color.to_string() }),
            no_args("undo", Command::Undo),
            no_args("showboard", Command::ShowBoard),
            with_args("time_settings", (seconds, preceded(space1, seconds), preceded(space1, stones)))
                .map(|(main, byo_yomi, stones)| Command::TimeSettings { main, byo_yomi, stones }),
            with_args("time_left", (word, preceded(space1, seconds), preceded(space1, stones)))
                .map(|(color, seconds, stones)| Command::TimeLeft { color: color.to_string(), seconds, stones }),
            no_args("final_score", Command::FinalScore),
            with_args("set_position", verify(rest, |s: &str| !s.trim().is_empty()))
                .map(|position: &str| Command::SetPosition(position.trim().to_string())),
            with_args("set_first_color", word).map(|color| Command::SetFirstColor(color.to_string())),
        )),
    ))
    .parse(input)
}

/// A side length, a rectangle's two (`6 5` or `6x5`, width first) or a square's one (`10`).
fn board_size(input: &str) -> Res<'_, (usize, usize)> {
    let length = || map_res(digit1, str::parse::<usize>);
    alt(((length(), preceded(alt((tag("x"), space1)), length())), length().map(|n| (n, n)))).parse(input)
}

/// A command name: the whole word, so `name` does not match `names`.
fn keyword<'a>(name: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Error<&'a str>> {
    terminated(tag(name), not(take_while1(|c: char| c != ' ')))
}

/// A command name, a space, then arguments that must parse to the end of the line.
fn with_args<'a, O>(
    name: &'static str,
    args: impl Parser<&'a str, Output = O, Error = Error<&'a str>>,
) -> impl Parser<&'a str, Output = O, Error = Error<&'a str>> {
    preceded(keyword(name), cut(terminated(preceded(space1, args), (space0, eof))))
}

fn no_args<'a>(name: &'static str, command: Command) -> impl Parser<&'a str, Output = Command, Error = Error<&'a str>> {
    value(command, preceded(keyword(name), cut((space0, eof))))
}

fn word(input: &str) -> Res<'_, &str> {
    take_while1(|c: char| c != ' ').parse(input)
}

/// Non-negative seconds, fractions allowed.
fn seconds(input: &str) -> Res<'_, f64> {
    map_res(recognize((digit1, opt((tag("."), digit1)))), str::parse).parse(input)
}

fn stones(input: &str) -> Res<'_, u32> {
    map_res(digit1, str::parse).parse(input)
}

/// One reply: `=` or `?`, the id if the request had one, the text, then the empty line that
/// ends every GTP response. Text starts on the `=` line, as GNU Go writes `list_commands`,
/// unless it begins with a line break (a board, whose columns must line up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub id: Option<u64>,
    pub result: Result<String, String>,
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mark, text) = match &self.result {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        write!(f, "{mark}")?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        // Empty lines would end the reply early, so a multi-line text must not contain any; a
        // character some controllers take for a line break (an echoed command may hold one)
        // would split a line.
        let text: String =
            text.chars().map(|c| if c != '\n' && breaks_line(c) { char::REPLACEMENT_CHARACTER } else { c }).collect();
        let text = text.trim_end().replace("\n\n", "\n");
        match text.strip_prefix('\n') {
            Some(lines) => write!(f, "\n{lines}\n\n"),
            None if text.is_empty() => write!(f, "\n\n"),
            None => write!(f, " {text}\n\n"),
        }
    }
}

fn breaks_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Command, ParseError> {
        parse_request(&clean_line(line).expect("not empty")).command
    }

    #[test]
    fn reads_every_command() {
        assert_eq!(parse("protocol_version"), Ok(Command::ProtocolVersion));
        assert_eq!(parse("known_command genmove"), Ok(Command::KnownCommand("genmove".into())));
        assert_eq!(parse("boardsize 10"), Ok(Command::BoardSize { width: 10, height: 10 }));
        assert_eq!(parse("boardsize 6 5"), Ok(Command::BoardSize { width: 6, height: 5 }));
        assert_eq!(parse("boardsize 5x6"), Ok(Command::BoardSize { width: 5, height: 6 }));
        assert_eq!(parse("play white d1-d7/g7"), Ok(Command::Play { color: "white".into(), mv: "d1-d7/g7".into() }));
        assert_eq!(parse("play\tx  b2 "), Ok(Command::Play { color: "x".into(), mv: "b2".into() }));
        assert_eq!(parse("genmove o"), Ok(Command::GenMove { color: "o".into() }));
        assert_eq!(
            parse("time_settings 900 0.5 0"),
            Ok(Command::TimeSettings { main: 900.0, byo_yomi: 0.5, stones: 0 })
        );
        assert_eq!(
            parse("time_left black 12.25 3"),
            Ok(Command::TimeLeft { color: "black".into(), seconds: 12.25, stones: 3 })
        );
        assert_eq!(parse("set_position x.o/.x./..."), Ok(Command::SetPosition("x.o/.x./...".into())));
        assert_eq!(parse("set_first_color black"), Ok(Command::SetFirstColor("black".into())));
        for name in COMMANDS {
            assert!(!matches!(parse(name), Err(ParseError::Unknown(_))), "{name}");
        }
    }

    #[test]
    fn ids_comments_and_control_characters() {
        assert_eq!(clean_line("  # only a comment"), None);
        assert_eq!(clean_line("\r"), None);
        let request = parse_request(&clean_line("42 genmove x # think\r").unwrap());
        assert_eq!(request, Request { id: Some(42), command: Ok(Command::GenMove { color: "x".into() }) });
        // An id is a number, then a space: `12name` is no command, and has no id to answer with.
        assert_eq!(parse_request("12name"), Request { id: None, command: Err(ParseError::Unknown("12name".into())) });
    }

    #[test]
    fn unknown_commands_differ_from_bad_arguments() {
        assert_eq!(parse("names"), Err(ParseError::Unknown("names".into())));
        assert_eq!(parse("PLAY x b2"), Err(ParseError::Unknown("PLAY".into())));
        for bad in [
            "boardsize",
            "boardsize ten",
            "boardsize 6x",
            "boardsize 6 5 4",
            "play x",
            "play x b2 c3",
            "genmove",
            "time_left x 1",
            "quit now",
        ] {
            assert!(matches!(parse(bad), Err(ParseError::BadArguments { .. })), "{bad}");
        }
        assert!(matches!(parse("time_settings -1 0 0"), Err(ParseError::BadArguments { .. })));
        assert!(matches!(parse("set_position"), Err(ParseError::BadArguments { .. })));
    }

    #[test]
    fn replies_are_framed() {
        let ok = |id, text: &str| Response { id, result: Ok(text.to_string()) }.to_string();
        assert_eq!(ok(None, ""), "=\n\n");
        assert_eq!(ok(Some(3), "b2"), "=3 b2\n\n");
        assert_eq!(ok(None, "a\n\nb\n"), "= a\nb\n\n");
        assert_eq!(ok(Some(4), "\n a\n b"), "=4\n a\n b\n\n", "a diagram starts below");
        assert_eq!(Response { id: Some(7), result: Err("illegal move".into()) }.to_string(), "?7 illegal move\n\n");
        let odd = Response { id: None, result: Err("unknown command: a\u{2028}b\rc".into()) };
        assert_eq!(odd.to_string(), "? unknown command: a\u{fffd}b\u{fffd}c\n\n");
    }
}
