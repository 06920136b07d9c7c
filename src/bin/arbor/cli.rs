//! `arbor`'s arguments, read with lexopt: each subcommand takes its own flags and refuses any
//! other, and every error names the argument it is about.
//!
//! lexopt rather than clap: the command line has shapes a derive parser fits badly (a game
//! named before its flags, `bench [DEPTH] [THREADS]`, `replay --engine CMD ARGS -- FILES`,
//! where the engine's own flags must pass through untouched), and lexopt adds no build time.

use std::ffi::OsString;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use arbor::amazons;
use arbor::engine::{DEFAULT_HASH_MB, default_threads};
use arbor::gomoku::{MAX_SIZE, MIN_SIZE, Rule};
use arbor::protocol::bounds;
use lexopt::Parser;
use lexopt::prelude::*;

use crate::transcript::LineEnding;

/// Each subcommand's usage, as `arbor SUBCOMMAND --help` prints it.
pub const HELP: [(&str, &str); 13] = [
    (
        "gtp",
        "  arbor gtp --game amazons|tictactoe [--size N|WxH] [--k K] [--threads N] [--hash MB]
            [--weights tuned|patent] [--max-depth N]
      Speaks GTP version 2 on stdin/stdout (tic-tac-toe: boardsize K..8, K in a row, default 3,
      the board K by K unless --size says;
      Amazons: 5x5 to 11x11, default 10x10, and the evaluation's weight table, default tuned).
      --max-depth caps every search.",
    ),
    (
        "play",
        "  arbor play tictactoe|gomoku|amazons [--first human|engine] [--time SECONDS] [--size N|WxH] [--k K]
             [--rule freestyle|standard|renju|caro] [--position SETUP] [--weights tuned|patent]
             [--network NET] [--threads N] [--hash MB] [--max-depth N]
      A game against the engine in the terminal (or from a pipe); type help once it runs.
      SETUP starts from a position: x.o/.x./... (tic-tac-toe), h8i9 (Gomoku), or
      'white a4 d1 black a7 j7 arrows e5 tomove black' (Amazons). --network picks the Gomoku
      evaluation as pbrain-arbor's does (embedded, the default, none or a file).",
    ),
    (
        "bench",
        "  arbor bench [--game gomoku] [--network NET] [--param NAME=VALUE]... [DEPTH] [THREADS]
      Searches fixed Gomoku positions to DEPTH (default 8) on THREADS (default 1) with a cleared
      hash each time; the one-thread node count is the search's signature. --network picks the
      evaluation as pbrain-arbor's does (embedded, the default, none or a file). --param sets a tuning
      parameter (a build with --features tune; see arbor params).
  arbor bench --game tictactoe
      Solves the empty 3x3, 4x4 (3 in a row) and 4x4 (4 in a row) boards exactly.
  arbor bench --game amazons [DEPTH] [THREADS]
      Times Amazons perft(3), then searches fixed Amazons positions to DEPTH (default 4).",
    ),
    (
        "perft",
        "  arbor perft amazons DEPTH [--size N|WxH]
      Counts Amazons move paths from the start (of the 10x10 board, or of a board from 5x5 to
      11x11, width first) for every depth up to DEPTH, with the time.",
    ),
    (
        "selfplay",
        "  arbor selfplay [--game gomoku] [--size N] [--rule freestyle|standard|renju|caro] [--time MS]
                 [--threads N] [--moves N] [--opening MOVES] [--network NET]
      The engine plays itself from the centre (or from the compact position MOVES, e.g. h8i9),
      drawing the board after every move and giving the whole game at the end. --network picks
      the evaluation as pbrain-arbor's does (embedded, the default, none or a file).
  arbor selfplay --game amazons [--time MS] [--threads N] [--moves N] [--random white|black]
      The engine plays Amazons against itself, or against a random mover of the given colour.",
    ),
    (
        "datagen",
        "  arbor datagen --out FILE --games N [--seed S] [--nodes N] [--size N]
                [--rule freestyle|standard|renju|caro] [--openings FILE] [--random-plies N]
                [--network NET]
      Plays the engine against itself on one thread, N nodes a move (default 10000), for
      training data (format: scripts/learn/FORMAT.md): each game starts from an opening of
      FILE (one a line in the compact notation, as scripts/openings/; default the empty board)
      under a random symmetry, then 0 to --random-plies (default 2) random moves. Game i
      depends only on the settings and i, so a FILE already there is resumed after its last
      whole game, up to N games, and seeds shard a run. --network (embedded, a file of
      scripts/learn/export.py, or none, the default here, so that a run's data does not
      change with the engines' default) plays the engine with a network, which must be of the
      rule and size played; the file's header does not name it, so keep one network to a
      FILE. Progress goes to stderr.",
    ),
    (
        "forbidden",
        "  arbor forbidden [--size N]
      Reads renju positions from stdin, one a line: the rows of the board (N*N characters,
      X black, O white, . empty); prints for each the cells where black may not play, as x,y,
      or 'error line K: REASON'.",
    ),
    (
        "evaluate",
        "  arbor evaluate [--size N] [--rule freestyle|standard|renju|caro] [--network NET]
      Reads positions from stdin, one a line as for forbidden; prints for each the static
      evaluation for the side to move and the move the search's ordering tries first, as
      'SCORE x,y' (for scripts/learn/baseline.py), or 'error line K: REASON'. With --network
      (embedded, or a file of scripts/learn/export.py; none is the default), the network's exact
      value logit and the empty cell its policy ranks first instead.",
    ),
    (
        "features",
        "  arbor features [--size N]
      Reads finished freestyle games from stdin, one a line: the result (B, W or D) and the
      moves as x,y; prints the evaluation's features of their positions for scripts/fit_eval.py.
      A bad line is named on stderr and skipped; the run then exits with status 1.",
    ),
    (
        "prove",
        "  arbor prove [--size N] [--rule freestyle|standard|renju|caro] [--nodes N]
      Reads Gomoku positions from stdin, one a line in the compact notation (h8i9j10, moves
      from black's first); answers each with one line: the win by continuous threats (fours
      and threes) the df-pn threat solver proves for the side to move within N nodes (default
      1000000), as 'black wins by h8 in 17 plies (12345 nodes)' (17: the length of the proof
      found, at most that of the shortest win); 'white no threat win (M nodes)' when every
      threat sequence to 48 plies fails (a quiet first move may still win); 'white no proof
      within N nodes (M used)'; or 'error line K: REASON' for a line not a position in play.",
    ),
    (
        "solve",
        "  arbor solve amazons [--size N|WxH] [--position SETUP] [--nodes N] [--solved FILE] [--each-move]
      Solves an Amazons position exactly: the start of the board (default 10x10; 5x5 to 11x11,
      width first) or SETUP on it ('white a2 b1 black e5 arrows c3 tomove black'). Prints one
      line: 'white wins by b1-b3/d3 (N nodes, T s)', 'black wins (N nodes, T s)' when the side
      to move loses, or 'unproved after N nodes (T s)' once N nodes (default 100000000) are spent.
      --solved FILE: a solved list, read first if it exists, its positions taken as settled,
      and added to every 10000000 nodes with the positions this run settled at a cost of 10000
      nodes or more, one a line ('SETUP: white wins'); so a stopped run resumes where it was,
      and lists from several machines (solving sub-positions) can be joined with cat.
      --each-move: solves the position after each legal move instead, N nodes each, one table
      for all: a line per move ('b5-b4/c3: white wins (N nodes, T s)'), then a count.",
    ),
    (
        "params",
        "  arbor params
      Lists the tuner's parameters, one a line: NAME DEFAULT MIN MAX STEP (STEP: SPSA's final
      perturbation). A build with --features tune takes --param NAME=VALUE (pbrain-arbor, bench).",
    ),
    (
        "replay",
        "  arbor replay [--crlf] --engine CMD [ARG...] -- FILE...
      Replays protocol transcripts (see protocol-tests/README.md) against any engine. --crlf
      talks as a Windows manager: every line sent ends with CR LF, and so must every line the
      engine prints.",
    ),
];

/// The whole usage, for `arbor --help`.
pub fn usage() -> String {
    let mut text = String::from("Usage:\n");
    for (_, help) in HELP {
        text.push_str(help);
        text.push('\n');
    }
    text.push_str(
        "  arbor --help | arbor SUBCOMMAND --help | arbor --version\n\
         \x20     This text, one subcommand's part of it, or the version.",
    );
    text
}

/// The usage of `subcommand`.
pub fn help(subcommand: &str) -> String {
    let text = HELP.iter().find(|(name, _)| *name == subcommand).map_or("", |(_, text)| text);
    format!("Usage:\n{text}")
}

/// What the command line asks for.
pub enum Request {
    /// Print this text and exit: `--help` or `--version`.
    Print(String),
    Gtp(GtpGame, GameOptions),
    Play(PlayGame, GameOptions),
    Bench {
        game: BenchGame,
        depth: Option<u32>,
        threads: usize,
        /// `--network`'s value; `None` plays [`arbor::gomoku::network::DEFAULT`].
        network: Option<String>,
    },
    Perft {
        depth: u32,
        size: Option<(usize, usize)>,
    },
    Selfplay(Selfplay),
    Datagen(Datagen),
    Forbidden {
        size: usize,
    },
    Evaluate {
        size: usize,
        rule: Rule,
        network: Option<String>,
    },
    Features {
        size: usize,
    },
    Prove {
        size: usize,
        rule: Rule,
        nodes: u64,
    },
    Solve {
        size: (usize, usize),
        position: Option<String>,
        nodes: u64,
        solved: Option<String>,
        each_move: bool,
    },
    Replay {
        engine: Vec<String>,
        files: Vec<String>,
        ending: LineEnding,
    },
}

pub enum GtpGame {
    Amazons,
    TicTacToe,
}

pub enum PlayGame {
    TicTacToe,
    Gomoku,
    Amazons,
}

pub enum BenchGame {
    Gomoku,
    TicTacToe,
    Amazons,
}

/// Options shared by `gtp` and `play`.
pub struct GameOptions {
    /// Width and height, from `--size N` or `--size WxH`.
    pub size: Option<(usize, usize)>,
    pub k: usize,
    pub rule: Rule,
    pub threads: usize,
    pub hash_mb: usize,
    pub human_first: bool,
    pub move_time: Duration,
    /// Deepest iteration of any search.
    pub max_depth: Option<u32>,
    /// Start of `play` in the game's set-up text, instead of the usual start.
    pub position: Option<String>,
    /// Amazons evaluation weights.
    pub weights: &'static amazons::eval::Weights,
    /// Gomoku's `--network`; `None` plays [`arbor::gomoku::network::DEFAULT`].
    pub network: Option<String>,
}

impl GameOptions {
    /// The tic-tac-toe board: `--size`, else K by K (3 by 3 at the least).
    pub fn tictactoe_size(&self) -> (usize, usize) {
        self.size.unwrap_or((self.k.max(3), self.k.max(3)))
    }
}

/// `selfplay`'s options; `amazons` says which game, and the options of the other are refused.
pub struct Selfplay {
    pub amazons: bool,
    pub size: usize,
    pub rule: Rule,
    pub time: Duration,
    pub threads: usize,
    pub max_moves: usize,
    pub opening: String,
    pub random: Option<amazons::Color>,
    /// `--network`'s value; `None` plays [`arbor::gomoku::network::DEFAULT`].
    pub network: Option<String>,
}

/// `datagen`'s options.
pub struct Datagen {
    pub out: PathBuf,
    pub games: u64,
    pub openings: Option<PathBuf>,
    pub settings: arbor::datagen::Settings,
    /// `--network`'s value: embedded, a file or none.
    pub network: Option<String>,
}

/// An error, and the subcommand whose usage goes with it.
pub struct Error {
    pub subcommand: Option<&'static str>,
    pub message: String,
}

/// Reads the arguments after the program's name.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Request, Error> {
    let mut parser = Parser::from_args(args);
    let first = parser.next().map_err(|e| error(None, e))?;
    let name = match first {
        None => return Err(error(None, "a subcommand is needed")),
        Some(Long("help") | Short('h')) => return Ok(Request::Print(usage())),
        Some(Long("version") | Short('V')) => {
            return Ok(Request::Print(format!("arbor {}", env!("CARGO_PKG_VERSION"))));
        }
        Some(Value(name)) => name.string().map_err(|e| error(None, e))?,
        Some(other) => return Err(error(None, other.unexpected())),
    };
    if name == "help" {
        return Ok(Request::Print(usage()));
    }
    let Some(&(subcommand, _)) = HELP.iter().find(|(known, _)| *known == name) else {
        return Err(error(None, format!("unknown subcommand {name:?}")));
    };
    let request = match subcommand {
        "gtp" => gtp(&mut parser),
        "play" => play(&mut parser),
        "bench" => bench(&mut parser),
        "perft" => perft(&mut parser),
        "selfplay" => selfplay(&mut parser),
        "datagen" => datagen(&mut parser),
        "forbidden" | "features" => size_only(&mut parser, subcommand),
        "prove" => prove(&mut parser),
        "solve" => solve(&mut parser),
        "evaluate" => evaluate(&mut parser),
        "params" => params(&mut parser),
        _ => replay(&mut parser),
    };
    request.map_err(|e| error(Some(subcommand), e))
}

fn error(subcommand: Option<&'static str>, message: impl ToString) -> Error {
    Error { subcommand, message: message.to_string() }
}

/// `--help` asked for `subcommand`'s usage.
fn print_help(subcommand: &str) -> Result<Request, lexopt::Error> {
    Ok(Request::Print(help(subcommand)))
}

/// The value of `flag`, parsed.
fn value<T: FromStr>(parser: &mut Parser, flag: &str) -> Result<T, lexopt::Error> {
    let text = parser.value()?.string()?;
    text.parse().map_err(|_| format!("{flag}: {text:?} is not a valid value").into())
}

/// `--size N` (a square board) or `--size WxH`, width first.
fn board_size(parser: &mut Parser) -> Result<(usize, usize), lexopt::Error> {
    let text = parser.value()?.string()?;
    let number = |part: &str| part.parse::<usize>().ok();
    let size = match text.split_once(['x', 'X']) {
        Some((width, height)) => number(width).zip(number(height)),
        None => number(&text).map(|n| (n, n)),
    };
    size.ok_or_else(|| format!("--size: {text:?} is not N or WIDTHxHEIGHT").into())
}

/// A value checked by one of [`bounds`]' functions.
fn bounded(parser: &mut Parser, flag: &str, check: fn(usize) -> Result<usize, String>) -> Result<usize, lexopt::Error> {
    let number = value(parser, flag)?;
    check(number).map_err(|e| format!("{flag}: {e}").into())
}

fn rule(parser: &mut Parser) -> Result<Rule, lexopt::Error> {
    let text = parser.value()?.string()?;
    match text.as_str() {
        "freestyle" => Ok(Rule::Freestyle),
        "standard" => Ok(Rule::Standard),
        "renju" => Ok(Rule::Renju),
        "caro" => Ok(Rule::Caro),
        _ => Err(format!("--rule: {text:?} is not freestyle, standard, renju or caro").into()),
    }
}

fn default_game_options() -> GameOptions {
    GameOptions {
        size: None,
        k: 3,
        rule: Rule::Freestyle,
        threads: default_threads(),
        hash_mb: DEFAULT_HASH_MB,
        human_first: true,
        move_time: Duration::from_secs(1),
        max_depth: None,
        position: None,
        weights: &amazons::eval::WEIGHTS,
        network: None,
    }
}

/// Reads a flag both `gtp` and `play` take, given by its long name; `Ok(false)` for any other.
fn game_flag(parser: &mut Parser, long: &str, options: &mut GameOptions) -> Result<bool, lexopt::Error> {
    match long {
        "size" => options.size = Some(board_size(parser)?),
        "k" => options.k = value(parser, "--k")?,
        "threads" => options.threads = bounds::on_the_cores(bounded(parser, "--threads", bounds::threads)?),
        "hash" => options.hash_mb = bounded(parser, "--hash", bounds::hash_mb)?,
        "max-depth" => options.max_depth = Some(value(parser, "--max-depth")?),
        "weights" => {
            let name = parser.value()?.string()?;
            options.weights = amazons::eval::NAMED_WEIGHTS
                .iter()
                .find(|(known, _)| *known == name)
                .map(|&(_, weights)| weights)
                .ok_or(format!("--weights: {name:?} is not tuned or patent"))?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Refuses `--FLAG` where it was given (`given`) for a game it means nothing to; `game` is
/// named with its article ("an Amazons").
fn only_for(given: &[String], flag: &str, game: &str, is_game: bool) -> Result<(), lexopt::Error> {
    if !is_game && given.iter().any(|name| name == flag) {
        return Err(format!("--{flag} is {game} option").into());
    }
    Ok(())
}

fn gtp(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let (mut game, mut options, mut given) = (None, default_game_options(), Vec::new());
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("gtp"),
            Long("game") => {
                let name = parser.value()?.string()?;
                game = Some(match name.as_str() {
                    "amazons" => GtpGame::Amazons,
                    "tictactoe" => GtpGame::TicTacToe,
                    _ => return Err(format!("--game: {name:?} is not amazons or tictactoe").into()),
                });
            }
            arg => {
                let unexpected = arg.clone().unexpected();
                let name = if let Long(name) = arg { name.to_string() } else { String::new() };
                if !game_flag(parser, &name, &mut options)? {
                    return Err(unexpected);
                }
                given.push(name);
            }
        }
    }
    let game = game.ok_or("--game amazons or --game tictactoe is needed")?;
    only_for(&given, "k", "a tic-tac-toe", matches!(game, GtpGame::TicTacToe))?;
    only_for(&given, "weights", "an Amazons", matches!(game, GtpGame::Amazons))?;
    match game {
        GtpGame::TicTacToe => tictactoe_shape(&options)?,
        GtpGame::Amazons => amazons_size(options.size.unwrap_or((10, 10)))?,
    }
    Ok(Request::Gtp(game, options))
}

fn play(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let (mut game, mut options, mut given) = (None, default_game_options(), Vec::new());
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("play"),
            Value(name) if game.is_none() => {
                let name = name.string()?;
                game = Some(match name.as_str() {
                    "tictactoe" => PlayGame::TicTacToe,
                    "gomoku" => PlayGame::Gomoku,
                    "amazons" => PlayGame::Amazons,
                    _ => return Err(format!("{name:?} is not tictactoe, gomoku or amazons").into()),
                });
            }
            Long("rule") => {
                options.rule = rule(parser)?;
                given.push("rule".to_string());
            }
            Long("network") => options.network = Some(parser.value()?.string()?),
            Long("position") => options.position = Some(parser.value()?.string()?),
            Long("first") => {
                let who = parser.value()?.string()?;
                options.human_first = match who.as_str() {
                    "human" => true,
                    "engine" => false,
                    _ => return Err(format!("--first: {who:?} is not human or engine").into()),
                };
            }
            Long("time") => {
                let seconds: f64 = value(parser, "--time")?;
                options.move_time = bounds::seconds(seconds).map_err(|e| format!("--time: {e}"))?;
            }
            arg => {
                let unexpected = arg.clone().unexpected();
                let name = if let Long(name) = arg { name.to_string() } else { String::new() };
                if !game_flag(parser, &name, &mut options)? {
                    return Err(unexpected);
                }
                given.push(name);
            }
        }
    }
    let game = game.ok_or("a game is needed: tictactoe, gomoku or amazons")?;
    if options.network.is_some() {
        given.push("network".to_string());
    }
    only_for(&given, "network", "a Gomoku", matches!(game, PlayGame::Gomoku))?;
    only_for(&given, "rule", "a Gomoku", matches!(game, PlayGame::Gomoku))?;
    only_for(&given, "k", "a tic-tac-toe", matches!(game, PlayGame::TicTacToe))?;
    only_for(&given, "weights", "an Amazons", matches!(game, PlayGame::Amazons))?;
    match game {
        PlayGame::TicTacToe => tictactoe_shape(&options)?,
        PlayGame::Gomoku => {
            let (width, height) = options.size.unwrap_or((15, 15));
            arbor::gomoku::Board::new(width, height, options.rule).map_err(|e| format!("--size: {e}"))?;
        }
        PlayGame::Amazons => amazons_size(options.size.unwrap_or((10, 10)))?,
    }
    Ok(Request::Play(game, options))
}

fn bench(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let (mut game, mut network) = (BenchGame::Gomoku, None);
    let mut numbers: Vec<u32> = Vec::new();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("bench"),
            Long("game") => {
                let name = parser.value()?.string()?;
                game = match name.as_str() {
                    "gomoku" => BenchGame::Gomoku,
                    "tictactoe" => BenchGame::TicTacToe,
                    "amazons" => BenchGame::Amazons,
                    _ => return Err(format!("--game: {name:?} is not gomoku, tictactoe or amazons").into()),
                };
            }
            Long("param") => arbor::params::assign(&parser.value()?.string()?).map_err(|e| format!("--param {e}"))?,
            Long("network") => network = Some(parser.value()?.string()?),
            Value(number) if numbers.len() < 2 => {
                let text = number.string()?;
                let name = ["DEPTH", "THREADS"][numbers.len()];
                numbers.push(text.parse().map_err(|_| format!("{name}: {text:?} is not a number"))?);
            }
            arg => return Err(arg.unexpected()),
        }
    }
    if matches!(game, BenchGame::TicTacToe) && !numbers.is_empty() {
        return Err("bench --game tictactoe takes no DEPTH or THREADS".into());
    }
    let threads = match numbers.get(1) {
        Some(&threads) => bounds::threads(threads as usize).map_err(|e| format!("THREADS: {e}"))?,
        None => 1,
    };
    if numbers.first() == Some(&0) {
        return Err("DEPTH: 0 searches nothing; give 1 or more".into());
    }
    if network.is_some() && !matches!(game, BenchGame::Gomoku) {
        return Err("--network is a Gomoku option".into());
    }
    Ok(Request::Bench { game, depth: numbers.first().copied(), threads, network })
}

fn perft(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let (mut depth, mut size) = (None, None);
    let mut game_named = false;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("perft"),
            Long("size") => size = Some(board_size(parser)?),
            Value(game) if !game_named => {
                let game = game.string()?;
                if game != "amazons" {
                    return Err(format!("unknown game {game:?} (only amazons)").into());
                }
                game_named = true;
            }
            Value(number) if depth.is_none() => {
                let text = number.string()?;
                let number = text.parse::<u32>().ok().filter(|&depth| depth >= 1);
                depth = Some(number.ok_or_else(|| format!("DEPTH: {text:?} is not a number from 1"))?);
            }
            arg => return Err(arg.unexpected()),
        }
    }
    if let Some(size) = size {
        amazons_size(size)?;
    }
    Ok(Request::Perft { depth: depth.ok_or("a game and a depth are needed: perft amazons DEPTH")?, size })
}

fn selfplay(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let mut options = Selfplay {
        amazons: false,
        size: 15,
        rule: Rule::Freestyle,
        time: Duration::ZERO,
        threads: 1,
        max_moves: usize::MAX,
        opening: String::new(),
        random: None,
        network: None,
    };
    let (mut time_ms, mut gomoku_only, mut amazons_only) = (None, None, None);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("selfplay"),
            Long("game") => {
                let name = parser.value()?.string()?;
                options.amazons = match name.as_str() {
                    "gomoku" => false,
                    "amazons" => true,
                    _ => return Err(format!("--game: {name:?} is not gomoku or amazons").into()),
                };
            }
            Long("time") => time_ms = Some(value::<u64>(parser, "--time")?),
            Long("threads") => options.threads = bounds::on_the_cores(bounded(parser, "--threads", bounds::threads)?),
            Long("moves") => options.max_moves = value(parser, "--moves")?,
            Long("size") => {
                options.size = value(parser, "--size")?;
                gomoku_only = Some("--size");
            }
            Long("rule") => {
                options.rule = rule(parser)?;
                gomoku_only = Some("--rule");
            }
            Long("opening") => {
                options.opening = parser.value()?.string()?;
                gomoku_only = Some("--opening");
            }
            Long("network") => {
                options.network = Some(parser.value()?.string()?);
                gomoku_only = Some("--network");
            }
            Long("random") => {
                options.random = Some(parser.value()?.string()?.parse::<amazons::Color>()?);
                amazons_only = Some("--random");
            }
            arg => return Err(arg.unexpected()),
        }
    }
    match (options.amazons, gomoku_only, amazons_only) {
        (true, Some(flag), _) => return Err(format!("{flag} is not an Amazons option").into()),
        (false, _, Some(flag)) => return Err(format!("{flag} needs --game amazons").into()),
        _ => {}
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&options.size) {
        return Err(format!("--size: {} is not from {MIN_SIZE} to {MAX_SIZE}", options.size).into());
    }
    let default_ms = if options.amazons { 200 } else { 1000 };
    options.time = bounds::millis(time_ms.unwrap_or(default_ms));
    Ok(Request::Selfplay(options))
}

fn datagen(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let mut settings =
        arbor::datagen::Settings { rule: Rule::Freestyle, size: 15, nodes: 10_000, random_plies: 2, seed: 1 };
    let (mut out, mut games, mut openings, mut network) = (None, None, None, None);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("datagen"),
            Long("network") => network = Some(parser.value()?.string()?),
            Long("out") => out = Some(PathBuf::from(parser.value()?)),
            Long("games") => games = Some(value(parser, "--games")?),
            Long("seed") => settings.seed = value(parser, "--seed")?,
            Long("nodes") => settings.nodes = value(parser, "--nodes")?,
            Long("size") => settings.size = value(parser, "--size")?,
            Long("rule") => settings.rule = rule(parser)?,
            Long("openings") => openings = Some(PathBuf::from(parser.value()?)),
            Long("random-plies") => settings.random_plies = value(parser, "--random-plies")?,
            arg => return Err(arg.unexpected()),
        }
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&settings.size) {
        return Err(format!("--size: {} is not from {MIN_SIZE} to {MAX_SIZE}", settings.size).into());
    }
    if settings.nodes == 0 {
        return Err("--nodes: 0 is not a positive count".into());
    }
    let out = out.ok_or("--out FILE is needed")?;
    let games = games.ok_or("--games N is needed")?;
    Ok(Request::Datagen(Datagen { out, games, openings, settings, network }))
}

fn size_only(parser: &mut Parser, subcommand: &'static str) -> Result<Request, lexopt::Error> {
    let mut size = 15;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help(subcommand),
            Long("size") => size = value(parser, "--size")?,
            arg => return Err(arg.unexpected()),
        }
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!("--size: {size} is not from {MIN_SIZE} to {MAX_SIZE}").into());
    }
    Ok(if subcommand == "forbidden" { Request::Forbidden { size } } else { Request::Features { size } })
}

fn evaluate(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let (mut size, mut rule_given, mut network) = (15, Rule::Freestyle, None);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("evaluate"),
            Long("network") => network = Some(parser.value()?.string()?),
            Long("size") => size = value(parser, "--size")?,
            Long("rule") => rule_given = rule(parser)?,
            arg => return Err(arg.unexpected()),
        }
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!("--size: {size} is not from {MIN_SIZE} to {MAX_SIZE}").into());
    }
    Ok(Request::Evaluate { size, rule: rule_given, network })
}

fn prove(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let (mut size, mut rule_given, mut nodes) = (15, Rule::Freestyle, 1_000_000);
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("prove"),
            Long("size") => size = value(parser, "--size")?,
            Long("rule") => rule_given = rule(parser)?,
            Long("nodes") => nodes = value(parser, "--nodes")?,
            arg => return Err(arg.unexpected()),
        }
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!("--size: {size} is not from {MIN_SIZE} to {MAX_SIZE}").into());
    }
    if nodes == 0 {
        return Err("--nodes: 0 is not a positive count".into());
    }
    Ok(Request::Prove { size, rule: rule_given, nodes })
}

fn solve(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let (mut size, mut position, mut nodes, mut solved, mut each_move) = ((10, 10), None, 100_000_000, None, false);
    let mut game_named = false;
    while let Some(arg) = parser.next()? {
        match arg {
            Long("help") | Short('h') => return print_help("solve"),
            Value(game) if !game_named => {
                let game = game.string()?;
                if game != "amazons" {
                    return Err(format!("unknown game {game:?} (only amazons)").into());
                }
                game_named = true;
            }
            Long("size") => size = board_size(parser)?,
            Long("position") => position = Some(parser.value()?.string()?),
            Long("nodes") => nodes = value(parser, "--nodes")?,
            Long("solved") => solved = Some(parser.value()?.string()?),
            Long("each-move") => each_move = true,
            arg => return Err(arg.unexpected()),
        }
    }
    if !game_named {
        return Err("a game is needed: solve amazons".into());
    }
    if nodes == 0 {
        return Err("--nodes: 0 is not a positive count".into());
    }
    amazons_size(size)?;
    Ok(Request::Solve { size, position, nodes, solved, each_move })
}

/// A tic-tac-toe board and row length the game takes, or the usage error saying why not.
fn tictactoe_shape(options: &GameOptions) -> Result<(), lexopt::Error> {
    let (width, height) = options.tictactoe_size();
    arbor::tictactoe::TicTacToe::new(width, height, options.k)
        .map(|_| ())
        .map_err(|e| format!("--size/--k: {e}").into())
}

/// An Amazons board size the game takes, or the usage error saying why not.
fn amazons_size((width, height): (usize, usize)) -> Result<(), lexopt::Error> {
    amazons::Position::start(width, height).map(|_| ()).map_err(|e| format!("--size: {e}").into())
}

/// `params`: the table, as text.
fn params(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    match parser.next()? {
        Some(Long("help") | Short('h')) => print_help("params"),
        Some(other) => Err(other.unexpected()),
        None => Ok(Request::Print(
            arbor::params::TABLE
                .iter()
                .map(|p| format!("{} {} {} {} {}", p.name, p.default, p.min, p.max, p.step))
                .collect::<Vec<_>>()
                .join("\n"),
        )),
    }
}

/// `[--crlf] --engine CMD [ARG...] -- FILE...`: the engine's arguments are taken as they are,
/// flags included, up to `--`.
fn replay(parser: &mut Parser) -> Result<Request, lexopt::Error> {
    let mut ending = LineEnding::Any;
    loop {
        match parser.next()? {
            Some(Long("help") | Short('h')) => return print_help("replay"),
            Some(Long("crlf")) => ending = LineEnding::Crlf,
            Some(Long("engine")) => break,
            Some(other) => return Err(other.unexpected()),
            None => return Err("--engine CMD is needed".into()),
        }
    }
    let mut engine = Vec::new();
    let mut files = Vec::new();
    let mut after_separator = false;
    for arg in parser.raw_args()? {
        let arg = arg.into_string().map_err(|arg| format!("{arg:?} is not UTF-8"))?;
        if arg == "--" && !after_separator {
            after_separator = true;
        } else if after_separator {
            files.push(arg);
        } else {
            engine.push(arg);
        }
    }
    if !after_separator {
        return Err("-- is needed before the transcript files".into());
    }
    if engine.is_empty() || files.is_empty() {
        return Err("an engine command and at least one file are needed".into());
    }
    Ok(Request::Replay { engine, files, ending })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_line(line: &str) -> Result<Request, String> {
        parse(line.split_whitespace().map(OsString::from)).map_err(|e| e.message)
    }

    #[test]
    fn each_subcommand_refuses_flags_it_does_not_take() {
        assert_eq!(parse_line("gtp --game amazons --time 5").err().unwrap(), "invalid option '--time'");
        assert_eq!(parse_line("bench --size 3").err().unwrap(), "invalid option '--size'");
        assert!(parse_line("selfplay --random white").err().unwrap().contains("--random needs --game amazons"));
        assert!(parse_line("selfplay --game amazons --size 9").err().unwrap().contains("--size"));
        assert!(parse_line("forbidden --size 15 --rule renju").err().unwrap().contains("--rule"));
        assert!(parse_line("prove --threads 2").err().unwrap().contains("--threads"));
        assert!(parse_line("prove --size 40").err().unwrap().starts_with("--size: "));
        assert!(parse_line("play amazons --size 12").err().unwrap().starts_with("--size: "));
        assert!(parse_line("play gomoku --size 40").err().unwrap().starts_with("--size: "));
        assert!(parse_line("play tictactoe --k 9").err().unwrap().starts_with("--size/--k: "));
        assert!(parse_line("gtp --game tictactoe --k 4").is_ok());
        for (line, flag) in [
            ("gtp --game amazons --k 3", "--k is a tic-tac-toe option"),
            ("gtp --game tictactoe --weights patent", "--weights is an Amazons option"),
            ("play amazons --rule renju", "--rule is a Gomoku option"),
            ("play gomoku --k 4", "--k is a tic-tac-toe option"),
            ("play tictactoe --network none", "--network is a Gomoku option"),
        ] {
            assert_eq!(parse_line(line).err().unwrap(), flag, "{line}");
        }
        assert!(parse_line("perft amazons 0").err().unwrap().starts_with("DEPTH: "));
        assert!(parse_line("selfplay --size 40").err().unwrap().starts_with("--size: "));
        assert!(parse_line("bench 0").err().unwrap().starts_with("DEPTH: "));
        assert!(parse_line("gtp --game amazons --size 4").err().unwrap().starts_with("--size: "));
        assert!(parse_line("gtp --game tictactoe --size 3 --k 4").err().unwrap().starts_with("--size/--k: "));
        assert!(parse_line("prove --nodes 0").err().unwrap().starts_with("--nodes: "));
        assert!(parse_line("play gomoku --hash 99999999").err().unwrap().starts_with("--hash: "));
        assert!(parse_line("gtp --game chess").err().unwrap().contains("chess"));
        assert!(parse_line("bench 8 1 3").is_err() && parse_line("bench --game tictactoe 3").is_err());
        assert!(parse_line("datagen --games 5").err().unwrap().contains("--out"));
        assert!(parse_line("play amazons --network none").err().unwrap().contains("Gomoku"));
        assert!(parse_line("bench --game amazons --network none").err().unwrap().contains("Gomoku"));
        assert!(parse_line("selfplay --game amazons --network none").err().unwrap().contains("--network"));
        assert!(parse_line("datagen --out a.bin").err().unwrap().contains("--games"));
        assert!(parse_line("datagen --out a.bin --games 5 --nodes 0").err().unwrap().starts_with("--nodes: "));
        assert!(
            parse_line("datagen --out a.bin --games 5 --random-plies 300")
                .err()
                .unwrap()
                .starts_with("--random-plies: ")
        );
    }

    #[test]
    fn games_on_a_clock_take_at_most_the_cores() {
        for line in ["gtp --game tictactoe --threads 1024", "play amazons --threads 1024"] {
            let (Ok(Request::Gtp(_, options)) | Ok(Request::Play(_, options))) = parse_line(line) else {
                panic!("{line} is read")
            };
            assert_eq!(options.threads, default_threads(), "{line}");
        }
        let Ok(Request::Selfplay(options)) = parse_line("selfplay --threads 1024") else { panic!("selfplay is read") };
        assert_eq!(options.threads, default_threads());
    }

    #[test]
    fn every_documented_form_is_read() {
        for line in [
            "gtp --game tictactoe --size 4 --k 3 --threads 1 --hash 1 --max-depth 2",
            "gtp --game=amazons --weights patent",
            "play gomoku --first engine --time 0.5 --size 15 --rule renju --position h8i9 --network none",
            "play amazons --weights tuned --max-depth 1",
            "bench",
            "bench 6 1",
            "bench --game amazons 3 1",
            "bench --game tictactoe",
            "perft amazons 2",
            "selfplay --size 15 --rule caro --time 100 --threads 1 --moves 4 --opening h8i9 --network embedded",
            "bench --network none 6",
            "selfplay --game amazons --time 50 --moves 2 --random black",
            "datagen --out a.bin --games 10 --seed 3 --nodes 5000 --size 20 --rule renju --openings o.txt --random-plies 4 --network none",
            "forbidden --size 15",
            "evaluate --size 20 --rule standard --network model.arbn",
            "features",
            "prove --size 20 --rule renju --nodes 5000",
            "replay --engine pbrain-x --threads 1 -- a.txt b.txt",
            "bench --param rfp_margin=120 10",
            "params",
            "solve amazons --size 6x5 --nodes 1000",
            "perft amazons 2 --size 8",
            "gtp --game amazons --size 6x5",
            "replay --crlf --engine wine pbrain-x.exe -- a.txt",
        ] {
            assert!(parse_line(line).is_ok(), "{line}: {:?}", parse_line(line).err());
        }
        let Ok(Request::Solve { size, position: None, nodes: 1000, solved: None, each_move: false }) =
            parse_line("solve amazons --size 6x5 --nodes 1000")
        else {
            panic!("solve")
        };
        assert_eq!(size, (6, 5));
        let Ok(Request::Solve { solved: Some(list), each_move: true, .. }) =
            parse_line("solve amazons --each-move --solved list.txt")
        else {
            panic!("solve --each-move --solved")
        };
        assert_eq!(list, "list.txt");
        assert!(parse_line("solve amazons --size 6y5").err().unwrap().contains("WIDTHxHEIGHT"));
        assert!(parse_line("solve --size 6").err().unwrap().contains("solve amazons"));
        let Ok(Request::Replay { engine, files, ending }) = parse_line("replay --engine x --crlf 1 -- a.txt") else {
            panic!("replay")
        };
        let engine_args = vec!["x".to_string(), "--crlf".into(), "1".into()];
        assert_eq!((engine, files, ending), (engine_args, vec!["a.txt".to_string()], LineEnding::Any));
        let Ok(Request::Replay { ending, .. }) = parse_line("replay --crlf --engine x -- a.txt") else {
            panic!("replay")
        };
        assert_eq!(ending, LineEnding::Crlf);
    }

    #[test]
    fn help_and_version() {
        assert!(matches!(parse_line("--help"), Ok(Request::Print(text)) if text.contains("arbor replay")));
        assert!(
            matches!(parse_line("gtp --help"), Ok(Request::Print(text)) if text.contains("--game amazons|tictactoe") && !text.contains("replay"))
        );
        assert!(matches!(parse_line("--version"), Ok(Request::Print(text)) if text.starts_with("arbor ")));
        assert!(parse_line("").is_err() && parse_line("fly").is_err());
    }
}
