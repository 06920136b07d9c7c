//! The Gomocup text format, both ways: [`parse_command`] reads one manager line, [`Response`]
//! prints one brain line.
//!
//! Parsing is pure and knows no game state: coordinates are plain numbers, checked against the
//! board by the session. Besides protocol 2 it reads the Yixin-Board extensions (the `YX...`
//! commands and their `INFO` keys), as Yixin-Board, piskvork and Rapfi use them. Keywords are case-insensitive and surrounding whitespace (the manager's
//! `\r` included) is ignored. Once a keyword is recognised its arguments are parsed under `cut`,
//! so a known command with bad arguments ([`ParseError::BadArguments`], answered `ERROR`) is told
//! apart from a line that is no command at all ([`ParseError::Unknown`], answered `UNKNOWN`).

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_while1};
use nom::character::complete::{char, digit1, one_of, satisfy, space0, space1};
use nom::combinator::{cut, eof, map_res, not, opt, peek, recognize, rest, value};
use nom::error::Error;
use nom::sequence::{preceded, separated_pair, terminated};
use nom::{IResult, Parser};

use crate::gomoku::{Move, Rule};

/// One manager command. Coordinates are `(x, y)`, not yet checked against the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START size`: a new square game.
    Start(usize),
    /// `RECTSTART width,height`, or Yixin-Board's `START width height`: a new rectangular game.
    RectStart(usize, usize),
    /// `RESTART`: a new game on the same board.
    Restart,
    /// `BEGIN`: the brain opens the game.
    Begin,
    /// `TURN x,y`: the opponent's move; the brain answers with its own.
    Turn(usize, usize),
    /// `BOARD`: stone lines follow until `DONE`, then the brain moves.
    Board,
    /// `SWAP2BOARD`: opening stones follow until `DONE`, then the brain makes its swap2 choice.
    Swap2Board,
    /// `DONE`: ends `BOARD` or `SWAP2BOARD`.
    Done,
    /// `x,y,field` inside `BOARD`: 1 own stone, 2 opponent's, 3 continuous-game stone.
    Stone { x: usize, y: usize, field: usize },
    /// `x,y` inside `SWAP2BOARD`: the opening stones in the order they were played.
    Point(usize, usize),
    /// `INFO key value`: a setting; never answered.
    Info(Info),
    /// `END`: exit at once.
    End,
    /// `ABOUT`: the brain's name and version.
    About,
    /// `TAKEBACK x,y`: remove the stone at x,y.
    Takeback(usize, usize),
    /// `PLAY x,y`: the brain must play exactly this move.
    Play(usize, usize),
    /// `STOP` or `YXSTOP`: answer now with the best move found.
    Stop,
    /// `YXBOARD`: stone lines follow until `DONE`, as for `BOARD`, but the brain does not move.
    YxBoard,
    /// `YXNBEST n`: the n best moves as messages, then the best one played like a `TURN` reply.
    YxNBest(usize),
    /// `YXSHOWINFO`: the brain's limits for the GUI, and live search reports from now on.
    YxShowInfo,
    /// `YXSHOWFORBID`: the points the side to move may not play.
    YxShowForbid,
    /// `YXHASHCLEAR`: forget every searched position.
    YxHashClear,
    /// `YXBLOCK`: points follow until `DONE` that the brain must not play.
    YxBlock,
    /// `YXBLOCKUNDO`: points follow until `DONE` that the brain may play again.
    YxBlockUndo,
    /// `YXBLOCKRESET`: every point may be played again.
    YxBlockReset,
    /// `YXBALANCEONE bias` (1 stone) or `YXBALANCETWO bias` (2 stones): the stones after which
    /// the position's value is closest to `bias`.
    YxBalance { stones: usize, bias: i32 },
    /// A Yixin-Board command followed by lines up to `DONE` that this brain does not support
    /// (its database and block-path commands): answered `UNKNOWN`, its lines skipped.
    UnsupportedBlock,
}

/// `INFO` settings. Times are milliseconds (negative values read as 0), memory is bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    TimeoutTurn(u64),
    TimeoutMatch(u64),
    TimeLeft(u64),
    MaxMemory(u64),
    GameType(u32),
    Rule(u32),
    Evaluate(usize, usize),
    Folder(String),
    ThreadNum(u32),
    /// Yixin's `max_depth`, as c-gomoku-cli sends it: the deepest search iteration; 0 lifts the cap.
    MaxDepth(u32),
    /// Yixin's `hash_size`: the table's size in KiB; 0 means the brain's default.
    HashSize(u64),
    /// Yixin's `max_node`: nodes per move; 0 (or Yixin-Board's -1) means no limit.
    MaxNode(u64),
    /// Yixin's `time_increment`: milliseconds added to the match clock after each move.
    TimeIncrement(u64),
    /// Yixin's `caution_factor`, 0 (rash) to 4 or 5 (cautious).
    CautionFactor(u32),
    /// Yixin's `pondering`: 1 thinks on the opponent's time, anything else does not.
    Pondering(bool),
    /// Keys this brain does not use are accepted and ignored, as the protocol asks.
    Unknown {
        key: String,
        value: String,
    },
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// No command starts this way.
    Unknown,
    /// A known command whose arguments do not parse.
    BadArguments { command: String, usage: &'static str },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown => write!(f, "unknown command"),
            ParseError::BadArguments { command, usage } => write!(f, "bad arguments to {command}, expected {usage}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one input line.
pub fn parse_command(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    match command.parse(line) {
        Ok((_, command)) => Ok(command),
        Err(nom::Err::Failure(_)) => {
            let word = line.split(|c: char| c.is_whitespace()).next().unwrap_or_default();
            let starts_with_number = word.starts_with(|c: char| c == '-' || c.is_ascii_digit());
            let command = if starts_with_number { "stone line".to_string() } else { word.to_ascii_uppercase() };
            Err(ParseError::BadArguments { usage: usage(&command), command })
        }
        Err(_) => Err(ParseError::Unknown),
    }
}

/// What a command's arguments should look like, for the error message.
fn usage(command: &str) -> &'static str {
    match command {
        "START" => "START SIZE",
        "RECTSTART" => "RECTSTART WIDTH,HEIGHT",
        "TURN" | "TAKEBACK" | "PLAY" => "X,Y",
        "INFO" => "INFO KEY VALUE",
        "YXNBEST" => "YXNBEST COUNT",
        "YXBALANCEONE" | "YXBALANCETWO" => "a score bias, e.g. YXBALANCEONE 0",
        "stone line" => "X,Y or X,Y,FIELD",
        _ => "no arguments",
    }
}

type Res<'a, T> = IResult<&'a str, T>;

fn command(input: &str) -> Res<'_, Command> {
    alt((protocol_command, yixin_command, preceded(peek(one_of("-0123456789")), cut(terminated(stone, eof)))))
        .parse(input)
}

fn protocol_command(input: &str) -> Res<'_, Command> {
    alt((
        with_args("START", preceded(space1, (number, opt(preceded(space1, number))))).map(
            |(size, height)| match height {
                Some(height) => Command::RectStart(size, height),
                None => Command::Start(size),
            },
        ),
        with_args("RECTSTART", preceded(space1, point)).map(|(w, h)| Command::RectStart(w, h)),
        no_args("RESTART", Command::Restart),
        no_args("BEGIN", Command::Begin),
        with_args("TURN", preceded(space1, point)).map(|(x, y)| Command::Turn(x, y)),
        no_args("BOARD", Command::Board),
        no_args("SWAP2BOARD", Command::Swap2Board),
        no_args("DONE", Command::Done),
        with_args("INFO", preceded(space1, info)).map(Command::Info),
        no_args("END", Command::End),
        no_args("ABOUT", Command::About),
        with_args("TAKEBACK", preceded(space1, point)).map(|(x, y)| Command::Takeback(x, y)),
        with_args("PLAY", preceded(space1, point)).map(|(x, y)| Command::Play(x, y)),
        no_args("STOP", Command::Stop),
    ))
    .parse(input)
}

fn yixin_command(input: &str) -> Res<'_, Command> {
    alt((
        no_args("YXSTOP", Command::Stop),
        no_args("YXBOARD", Command::YxBoard),
        with_args("YXNBEST", preceded(space1, number)).map(Command::YxNBest),
        no_args("YXSHOWINFO", Command::YxShowInfo),
        no_args("YXSHOWFORBID", Command::YxShowForbid),
        no_args("YXHASHCLEAR", Command::YxHashClear),
        no_args("YXBLOCK", Command::YxBlock),
        no_args("YXBLOCKUNDO", Command::YxBlockUndo),
        no_args("YXBLOCKRESET", Command::YxBlockReset),
        with_args("YXBALANCEONE", preceded(space1, bias)).map(|bias| Command::YxBalance { stones: 1, bias }),
        with_args("YXBALANCETWO", preceded(space1, bias)).map(|bias| Command::YxBalance { stones: 2, bias }),
        value(Command::UnsupportedBlock, preceded(unsupported_block, rest)),
    ))
    .parse(input)
}

/// Yixin-Board's commands that send a position or points up to `DONE`, for features this brain
/// does not have.
fn unsupported_block(input: &str) -> Res<'_, &str> {
    alt((
        keyword("YXBLOCKPATH"),
        keyword("YXBLOCKPATHUNDO"),
        keyword("YXQUERYDATABASEALL"),
        keyword("YXQUERYDATABASEALLT"),
        keyword("YXQUERYDATABASEONE"),
        keyword("YXQUERYDATABASETEXT"),
        keyword("YXEDITTVDDATABASE"),
        keyword("YXEDITTEXTDATABASE"),
        keyword("YXEDITLABELDATABASE"),
        keyword("YXDELETEDATABASEONE"),
        keyword("YXDELETEDATABASEALL"),
    ))
    .parse(input)
}

/// A whole word, matched without regard to case: `TURN` but not `TURNS`.
fn keyword<'a>(name: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Error<&'a str>> {
    terminated(tag_no_case(name), not(satisfy(|c: char| c.is_ascii_alphanumeric() || c == '_')))
}

/// A keyword, then arguments that must parse to the end of the line.
fn with_args<'a, O>(
    name: &'static str,
    args: impl Parser<&'a str, Output = O, Error = Error<&'a str>>,
) -> impl Parser<&'a str, Output = O, Error = Error<&'a str>> {
    preceded(keyword(name), cut(terminated(args, eof)))
}

fn no_args<'a>(name: &'static str, command: Command) -> impl Parser<&'a str, Output = Command, Error = Error<&'a str>> {
    value(command, with_args(name, space0))
}

fn number(input: &str) -> Res<'_, usize> {
    map_res(digit1, str::parse).parse(input)
}

/// `x,y`, spaces allowed around the comma.
fn point(input: &str) -> Res<'_, (usize, usize)> {
    separated_pair(number, (space0, char(','), space0), number).parse(input)
}

/// A count read as at least zero: some managers send a negative `time_left` once the clock has
/// run out, and Yixin-Board `max_node -1` for no limit.
fn non_negative(input: &str) -> Res<'_, u64> {
    signed.map(|v| v.max(0) as u64).parse(input)
}

fn signed(input: &str) -> Res<'_, i64> {
    map_res(recognize((opt(char('-')), digit1)), str::parse).parse(input)
}

/// A score bias, in the engine's score units.
fn bias(input: &str) -> Res<'_, i32> {
    map_res(signed, i32::try_from).parse(input)
}

fn stone(input: &str) -> Res<'_, Command> {
    (point, opt(preceded((space0, char(','), space0), number)))
        .map(|((x, y), field)| match field {
            Some(field) => Command::Stone { x, y, field },
            None => Command::Point(x, y),
        })
        .parse(input)
}

fn info(input: &str) -> Res<'_, Info> {
    alt((
        info_key("timeout_turn", non_negative).map(Info::TimeoutTurn),
        info_key("timeout_match", non_negative).map(Info::TimeoutMatch),
        info_key("time_left", non_negative).map(Info::TimeLeft),
        info_key("max_memory", map_res(digit1, str::parse)).map(Info::MaxMemory),
        info_key("game_type", map_res(digit1, str::parse)).map(Info::GameType),
        info_key("rule", map_res(digit1, str::parse)).map(Info::Rule),
        info_key("evaluate", point).map(|(x, y)| Info::Evaluate(x, y)),
        info_key("folder", rest).map(|path: &str| Info::Folder(path.to_string())),
        info_key("thread_num", map_res(digit1, str::parse)).map(Info::ThreadNum),
        info_key("max_depth", map_res(digit1, str::parse)).map(Info::MaxDepth),
        info_key("hash_size", map_res(digit1, str::parse)).map(Info::HashSize),
        info_key("max_node", non_negative).map(Info::MaxNode),
        info_key("time_increment", non_negative).map(Info::TimeIncrement),
        info_key("caution_factor", map_res(digit1, str::parse)).map(Info::CautionFactor),
        info_key("pondering", map_res(digit1, str::parse)).map(|value: u32| Info::Pondering(value == 1)),
        (take_while1(|c: char| !c.is_whitespace()), rest)
            .map(|(key, value): (&str, &str)| Info::Unknown { key: key.to_string(), value: value.trim().to_string() }),
    ))
    .parse(input)
}

fn info_key<'a, O>(
    name: &'static str,
    value: impl Parser<&'a str, Output = O, Error = Error<&'a str>>,
) -> impl Parser<&'a str, Output = O, Error = Error<&'a str>> {
    preceded(keyword(name), cut(preceded(space1, value)))
}

/// One brain line. Text a line carries (often an echo of the manager's own line) is printed
/// with `OneLine`, so a reply is always exactly one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    Ok,
    Error(String),
    /// Echoes the line that was not understood.
    Unknown(String),
    Move(Move),
    /// Several stones on one line, as swap2 answers them.
    Stones(Vec<Move>),
    /// Swap2: take the other colour.
    Swap,
    About,
    /// Free text the manager shows to the user, e.g. search progress.
    Message(String),
    /// `YXSHOWFORBID`'s answer: every point as `xxyy`, then a full stop.
    Forbid(Vec<Move>),
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Ok => write!(f, "OK"),
            Response::Error(message) => write!(f, "ERROR {}", OneLine(message)),
            Response::Unknown(line) => write!(f, "UNKNOWN {}", OneLine(line)),
            Response::Move(mv) => write!(f, "{mv}"),
            Response::Stones(stones) => {
                for (i, mv) in stones.iter().enumerate() {
                    if i > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{mv}")?;
                }
                Ok(())
            }
            Response::Swap => write!(f, "SWAP"),
            Response::About => write!(
                f,
                r#"name="Arbor", version="{}", author="Arbor developers", country="-", www="-""#,
                env!("CARGO_PKG_VERSION")
            ),
            Response::Message(text) => write!(f, "MESSAGE {}", OneLine(text)),
            Response::Forbid(points) => {
                write!(f, "FORBID ")?;
                for mv in points {
                    write!(f, "{:02}{:02}", mv.x(), mv.y())?;
                }
                write!(f, ".")
            }
        }
    }
}

/// Text with every character a manager might take for a line end (`\r`, any other control
/// character, the Unicode line and paragraph separators) written as an escape such as `\r`.
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// The rule of an `INFO rule` bit mask (1 exact five, 4 renju, 8 caro) and whether bit 2 makes
/// it a continuous game, which changes nothing here but that `BOARD` may carry field-3 stones
/// (walls). `2` alone is Yixin-Board's renju, not a continuous freestyle game. `None` for masks
/// no rule answers.
pub fn rule_from_gomocup(code: u32) -> Option<(Rule, bool)> {
    let (code, continuous) = if code == 2 { (4, false) } else { (code & !2, code & 2 != 0) };
    let rule = match code {
        0 => Rule::Freestyle,
        1 => Rule::Standard,
        4 => Rule::Renju,
        8 => Rule::Caro,
        _ => return None,
    };
    Some((rule, continuous))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(command: &str) -> Result<Command, ParseError> {
        Err(ParseError::BadArguments { command: command.to_string(), usage: usage(command) })
    }

    #[test]
    fn accepted_lines() {
        let table: &[(&str, Command)] = &[
            ("START 20", Command::Start(20)),
            ("start 15\r", Command::Start(15)),
            ("  StArT   19  ", Command::Start(19)),
            ("START 4", Command::Start(4)),
            ("RECTSTART 20,15", Command::RectStart(20, 15)),
            ("RECTSTART 20, 15", Command::RectStart(20, 15)),
            ("RESTART", Command::Restart),
            ("BEGIN", Command::Begin),
            ("TURN 10,10", Command::Turn(10, 10)),
            ("turn 0 , 7", Command::Turn(0, 7)),
            ("TURN 40,40", Command::Turn(40, 40)),
            ("BOARD", Command::Board),
            ("SWAP2BOARD", Command::Swap2Board),
            ("DONE\r", Command::Done),
            ("10,10,1", Command::Stone { x: 10, y: 10, field: 1 }),
            ("3,4,7", Command::Stone { x: 3, y: 4, field: 7 }),
            ("7,7", Command::Point(7, 7)),
            ("END", Command::End),
            ("end\r", Command::End),
            ("ABOUT", Command::About),
            ("TAKEBACK 3,4", Command::Takeback(3, 4)),
            ("PLAY 5,6", Command::Play(5, 6)),
            ("STOP", Command::Stop),
            ("yxstop", Command::Stop),
            ("INFO timeout_turn 1000", Command::Info(Info::TimeoutTurn(1000))),
            ("INFO TIMEOUT_MATCH 0", Command::Info(Info::TimeoutMatch(0))),
            ("INFO time_left -300", Command::Info(Info::TimeLeft(0))),
            ("INFO max_memory 367001600", Command::Info(Info::MaxMemory(367_001_600))),
            ("INFO game_type 1", Command::Info(Info::GameType(1))),
            ("INFO rule 1", Command::Info(Info::Rule(1))),
            ("INFO evaluate 3,4", Command::Info(Info::Evaluate(3, 4))),
            ("INFO folder C:\\my brain\\", Command::Info(Info::Folder("C:\\my brain\\".into()))),
            ("INFO thread_num 4", Command::Info(Info::ThreadNum(4))),
            ("INFO max_depth 2", Command::Info(Info::MaxDepth(2))),
            ("INFO MAX_DEPTH 0", Command::Info(Info::MaxDepth(0))),
            ("INFO caution_factor 3", Command::Info(Info::CautionFactor(3))),
            ("INFO HASH_SIZE 65536", Command::Info(Info::HashSize(65536))),
            ("INFO max_node -1", Command::Info(Info::MaxNode(0))),
            ("INFO MAX_NODE 240000", Command::Info(Info::MaxNode(240_000))),
            ("INFO time_increment 2000", Command::Info(Info::TimeIncrement(2000))),
            ("INFO pondering 1", Command::Info(Info::Pondering(true))),
            ("INFO Pondering 0", Command::Info(Info::Pondering(false))),
            (
                "INFO thread_split_depth 5",
                Command::Info(Info::Unknown { key: "thread_split_depth".into(), value: "5".into() }),
            ),
            ("START 15 15", Command::RectStart(15, 15)),
            ("start 20 15", Command::RectStart(20, 15)),
            ("YXBOARD", Command::YxBoard),
            ("yxnbest 3", Command::YxNBest(3)),
            ("YXSHOWINFO", Command::YxShowInfo),
            ("YxShowForbid", Command::YxShowForbid),
            ("YXHASHCLEAR", Command::YxHashClear),
            ("YXBLOCK", Command::YxBlock),
            ("YXBLOCKUNDO", Command::YxBlockUndo),
            ("yxblockreset", Command::YxBlockReset),
            ("YXBALANCEONE 0", Command::YxBalance { stones: 1, bias: 0 }),
            ("YXBALANCETWO -150", Command::YxBalance { stones: 2, bias: -150 }),
            ("YXBLOCKPATH", Command::UnsupportedBlock),
            ("yxquerydatabaseall", Command::UnsupportedBlock),
            ("YXEDITTVDDATABASE 15 87 100 10", Command::UnsupportedBlock),
            ("INFO timeout_turnx 3", Command::Info(Info::Unknown { key: "timeout_turnx".into(), value: "3".into() })),
        ];
        for (line, expected) in table {
            assert_eq!(parse_command(line).as_ref(), Ok(expected), "{line:?}");
        }
    }

    #[test]
    fn rejected_lines() {
        let table: &[(&str, Result<Command, ParseError>)] = &[
            ("", Err(ParseError::Unknown)),
            ("HELLO", Err(ParseError::Unknown)),
            ("TURNS 1,2", Err(ParseError::Unknown)),
            ("STARTX 20", Err(ParseError::Unknown)),
            ("YXBOARDS", Err(ParseError::Unknown)),
            ("YXSHOWHASHUSAGE", Err(ParseError::Unknown)),
            ("YXSEARCHDEFEND", Err(ParseError::Unknown)),
            ("YXBLOCKPATHRESET", Err(ParseError::Unknown)),
            ("YXNBEST", bad("YXNBEST")),
            ("YXNBEST -2", bad("YXNBEST")),
            ("YXNBEST 2,3", bad("YXNBEST")),
            ("YXBALANCEONE", bad("YXBALANCEONE")),
            ("YXBALANCETWO 99999999999", bad("YXBALANCETWO")),
            ("YXBOARD 1", bad("YXBOARD")),
            ("INFO pondering yes", bad("INFO")),
            ("INFO hash_size -1", bad("INFO")),
            ("START", bad("START")),
            ("START x", bad("START")),
            ("START -5", bad("START")),
            ("START 20 20 20", bad("START")),
            ("START 20 x", bad("START")),
            ("START 99999999999999999999999", bad("START")),
            ("RECTSTART 20", bad("RECTSTART")),
            ("TURN", bad("TURN")),
            ("TURN 1", bad("TURN")),
            ("TURN 1,", bad("TURN")),
            ("TURN -1,2", bad("TURN")),
            ("TURN a,b", bad("TURN")),
            ("TURN 1,2,3", bad("TURN")),
            ("turn 1;2", bad("TURN")),
            ("BEGIN now", bad("BEGIN")),
            ("TAKEBACK", bad("TAKEBACK")),
            ("PLAY 1", bad("PLAY")),
            ("INFO", bad("INFO")),
            ("INFO timeout_turn", bad("INFO")),
            ("INFO timeout_turn fast", bad("INFO")),
            ("INFO rule -1", bad("INFO")),
            ("INFO max_memory 1 2", bad("INFO")),
            ("INFO max_depth -1", bad("INFO")),
            ("INFO max_depth 99999999999", bad("INFO")),
            ("1,2,x", bad("stone line")),
            ("1,2,3,4", bad("stone line")),
            ("-1,2,1", bad("stone line")),
            ("7", bad("stone line")),
        ];
        for (line, expected) in table {
            assert_eq!(&parse_command(line), expected, "{line:?}");
        }
    }

    #[test]
    fn responses_print_in_protocol_format() {
        let a = Move::new(7, 8).unwrap();
        let b = Move::new(9, 10).unwrap();
        assert_eq!(Response::Ok.to_string(), "OK");
        assert_eq!(Response::Error("unsupported size".into()).to_string(), "ERROR unsupported size");
        assert_eq!(Response::Unknown("HELLO".into()).to_string(), "UNKNOWN HELLO");
        assert_eq!(Response::Unknown("A\rB\u{0}C\u{2028}é".into()).to_string(), r"UNKNOWN A\rB\u{0}C\u{2028}é");
        assert_eq!(Response::Move(a).to_string(), "7,8");
        assert_eq!(Response::Stones(vec![a, b]).to_string(), "7,8 9,10");
        assert_eq!(Response::Swap.to_string(), "SWAP");
        assert_eq!(Response::Forbid(vec![a, b]).to_string(), "FORBID 07080910.");
        assert_eq!(Response::Forbid(Vec::new()).to_string(), "FORBID .");
        assert!(Response::About.to_string().starts_with(r#"name="Arbor", version=""#));
    }
}
