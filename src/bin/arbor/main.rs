//! `arbor`: the everyday command line. `gtp` speaks GTP for Amazons and tic-tac-toe, `play` is a
//! terminal game against the engine, `bench` measures the search, `perft` the move generator,
//! `selfplay` shows a game of the engine against itself (or a random mover), `forbidden` lists
//! renju black's forbidden cells (for checking against another referee), `replay` checks
//! protocol transcripts against any engine.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use arbor::amazons::{self, Position};
use arbor::engine::{DEFAULT_HASH_MB, Engine, bench, default_threads};
use arbor::game::Playable;
use arbor::gomoku::notation::{board_from_notation, format_move};
use arbor::gomoku::{self, Board, Color, Rule, scripts};
use arbor::protocol::terminal::{self, PlayOptions};
use arbor::protocol::{bounds, gtp};
use arbor::score::describe;
use arbor::search::limits::SearchLimits;
use arbor::tictactoe::TicTacToe;
use arbor::zobrist::KeyStream;

mod transcript;

use transcript::run_transcript;

const USAGE: &str = "\
Usage:
  arbor gtp --game amazons|tictactoe [--size N] [--k K] [--threads N] [--hash MB]
            [--weights tuned|patent] [--max-depth N]
      Speaks GTP version 2 on stdin/stdout (tic-tac-toe: boardsize 3..8, K in a row, default 3;
      Amazons: the evaluation's weight table, default tuned).
  arbor play tictactoe|gomoku|amazons [--first human|engine] [--time SECONDS] [--size N]
             [--rule freestyle|standard|renju|caro] [--position SETUP] [--weights tuned|patent]
             [--max-depth N]
      A game against the engine in the terminal (or from a pipe); type help once it runs.
      SETUP starts from a position: x.o/.x./... (tic-tac-toe), h8i9 (Gomoku), or
      'white a4 d1 black a7 j7 arrows e5 tomove black' (Amazons).
  arbor bench [DEPTH] [THREADS]
      Searches fixed Gomoku positions to DEPTH (default 8) on THREADS (default 1) with a cleared
      hash each time; the one-thread node count is the search's signature.
  arbor bench --game tictactoe
      Solves the empty 3x3, 4x4 (3 in a row) and 4x4 (4 in a row) boards exactly.
  arbor bench --game amazons [DEPTH] [THREADS]
      Times Amazons perft(3), then searches fixed Amazons positions to DEPTH (default 4).
  arbor perft amazons DEPTH
      Counts Amazons move paths from the start for every depth up to DEPTH, with the time.
  arbor selfplay [--size N] [--rule freestyle|standard|renju|caro] [--time MS] [--threads N]
                 [--moves N] [--opening MOVES]
      The engine plays itself from the centre (or from the compact position MOVES, e.g. h8i9),
      drawing the board after every move and giving the whole game at the end.
  arbor selfplay --game amazons [--time MS] [--threads N] [--moves N] [--random white|black]
      The engine plays Amazons against itself, or against a random mover of the given colour.
  arbor forbidden [--size N]
      Reads renju positions from stdin, one a line: the rows of the board (N*N characters,
      X black, O white, . empty); prints for each the cells where black may not play, as x,y.
  arbor features [--size N]
      Reads finished freestyle games from stdin, one a line: the result (B, W or D) and the
      moves as x,y; prints the evaluation's features of their positions for scripts/fit_eval.py.
  arbor replay --engine CMD [ARG...] -- FILE...
      Replays protocol transcripts (see protocol-tests/README.md) against any engine.
  arbor help";

const DEFAULT_BENCH_DEPTH: u32 = 8;
const DEFAULT_AMAZONS_BENCH_DEPTH: u32 = 4;
/// Perft depth whose time `bench --game amazons` reports.
const AMAZONS_BENCH_PERFT: u32 = 3;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gtp") => run_gtp(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("play") => run_play(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("bench") => match args.get(1..3) {
            Some([flag, game]) if flag == "--game" => match game.as_str() {
                "amazons" => run_amazons_bench(&args[3..]),
                "tictactoe" => run_tictactoe_bench(),
                "gomoku" => run_bench(&args[3..]),
                other => Err(format!("unknown game {other:?}")),
            },
            _ => run_bench(&args[1..]),
        }
        .map(|()| ExitCode::SUCCESS),
        Some("features") => run_features(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("perft") => run_perft(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("selfplay") => match args.get(1..3) {
            Some([flag, game]) if flag == "--game" && game == "amazons" => run_amazons_selfplay(&args[3..]),
            Some([flag, game]) if flag == "--game" && game != "gomoku" => Err(format!("unknown game {game:?}")),
            Some([flag, _]) if flag == "--game" => run_selfplay(&args[3..]),
            _ => run_selfplay(&args[1..]),
        }
        .map(|()| ExitCode::SUCCESS),
        Some("forbidden") => run_forbidden(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("replay") => run_replay(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        Some(other) => Err(format!("unknown command {other:?}")),
        None => Err("a command is needed".into()),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("arbor: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn number<T: std::str::FromStr>(name: &str, value: Option<&String>) -> Result<T, String> {
    let value = value.ok_or(format!("{name} needs a value"))?;
    value.parse().map_err(|_| format!("{name}: {value:?} is not a number"))
}

fn run_bench(args: &[String]) -> Result<(), String> {
    let depth = args.first().map_or(Ok(DEFAULT_BENCH_DEPTH), |_| number("DEPTH", args.first()))?;
    let threads = args.get(1).map_or(Ok(1), |_| number("THREADS", args.get(1)))?;
    let mut engine = Engine::new(DEFAULT_HASH_MB, threads);
    let summary = bench::run(&mut engine, &gomoku::bench::positions(), depth, |line| println!("{line}"));
    println!("Nodes searched: {}", summary.nodes);
    println!("Nodes/second: {}", summary.nodes_per_second());
    Ok(())
}

/// Options shared by `gtp` and `play`.
struct GameOptions {
    size: Option<usize>,
    k: usize,
    rule: Rule,
    threads: usize,
    hash_mb: usize,
    human_first: bool,
    move_time: Duration,
    /// Deepest iteration of any search.
    max_depth: Option<u32>,
    /// Start of `play` in the game's set-up text, instead of the usual start.
    position: Option<String>,
    /// Amazons evaluation weights.
    weights: &'static amazons::eval::Weights,
}

fn game_options(args: &[String]) -> Result<GameOptions, String> {
    let mut options = GameOptions {
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
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--size" => options.size = Some(number("--size", args.next())?),
            "--k" => options.k = number("--k", args.next())?,
            "--threads" => {
                options.threads = bounds::threads(number("--threads", args.next())?).map_err(at("--threads"))?
            }
            "--hash" => options.hash_mb = bounds::hash_mb(number("--hash", args.next())?).map_err(at("--hash"))?,
            "--max-depth" => options.max_depth = Some(number("--max-depth", args.next())?),
            "--rule" => options.rule = rule(args.next())?,
            "--position" => options.position = Some(args.next().ok_or("--position needs a set-up text")?.clone()),
            "--weights" => {
                let name = args.next().ok_or("--weights needs a value")?;
                options.weights = amazons::eval::NAMED_WEIGHTS
                    .iter()
                    .find(|(known, _)| known == name)
                    .map(|&(_, weights)| weights)
                    .ok_or(format!("--weights: {name:?} is not tuned or patent"))?;
            }
            "--first" => {
                options.human_first = match args.next().map(String::as_str) {
                    Some("human") => true,
                    Some("engine") => false,
                    other => return Err(format!("--first: {other:?} is not human or engine")),
                }
            }
            "--time" => {
                let seconds: f64 = number("--time", args.next())?;
                options.move_time = bounds::seconds(seconds).map_err(at("--time"))?;
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(options)
}

/// Prefixes an error with the flag it is about.
fn at(flag: &str) -> impl Fn(String) -> String + '_ {
    move |message| format!("{flag}: {message}")
}

fn rule(value: Option<&String>) -> Result<Rule, String> {
    match value.map(String::as_str) {
        Some("freestyle") => Ok(Rule::Freestyle),
        Some("standard") => Ok(Rule::Standard),
        Some("renju") => Ok(Rule::Renju),
        Some("caro") => Ok(Rule::Caro),
        other => Err(format!("--rule: {other:?} is not freestyle, standard, renju or caro")),
    }
}

fn tictactoe(options: &GameOptions) -> Result<TicTacToe, String> {
    let size = options.size.unwrap_or(3);
    TicTacToe::new(size, size, options.k).map_err(|e| e.to_string())
}

fn run_gtp(args: &[String]) -> Result<(), String> {
    let game = match args {
        [flag, game, ..] if flag == "--game" => game.as_str(),
        _ => return Err("gtp needs --game amazons or --game tictactoe".into()),
    };
    let options = game_options(&args[2..])?;
    let engine = Engine::new(options.hash_mb, options.threads);
    let (stdin, stdout) = (std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock());
    let result = match game {
        "tictactoe" => gtp::run(engine, tictactoe(&options)?, options.max_depth, stdin, stdout),
        "amazons" => gtp::run(engine, Position::new().with_weights(options.weights), options.max_depth, stdin, stdout),
        other => return Err(format!("gtp: unknown game {other:?}")),
    };
    result.map_err(|e| format!("gtp: {e}"))
}

fn run_play(args: &[String]) -> Result<(), String> {
    let game = args.first().ok_or("play needs a game: tictactoe, gomoku or amazons")?;
    let options = game_options(&args[1..])?;
    let mut engine = Engine::new(options.hash_mb, options.threads);
    let play_options = PlayOptions {
        human_first: options.human_first,
        move_time: options.move_time,
        max_depth: options.max_depth,
        prompt_on_own_line: !std::io::stdin().is_terminal(),
    };
    let (stdin, stdout) = (std::io::stdin().lock(), std::io::stdout().lock());
    let result = match game.as_str() {
        "tictactoe" => {
            let start = starting_at(tictactoe(&options)?, &options)?;
            terminal::play(&mut engine, start, play_options, stdin, stdout)
        }
        "gomoku" => {
            gomoku::build_tables();
            let size = options.size.unwrap_or(15);
            let board = Board::new(size, size, options.rule).map_err(|e| e.to_string())?;
            terminal::play(&mut engine, starting_at(board, &options)?, play_options, stdin, stdout)
        }
        "amazons" => {
            let start = starting_at(Position::new().with_weights(options.weights), &options)?;
            terminal::play(&mut engine, start, play_options, stdin, stdout)
        }
        other => return Err(format!("play: unknown game {other:?}")),
    };
    result.map_err(|e| format!("play: {e}"))
}

/// The `--position` set-up, or the game's usual start.
fn starting_at<G: Playable>(start: G, options: &GameOptions) -> Result<G, String> {
    match &options.position {
        Some(text) => start.set_up(text).map_err(|e| format!("--position: {e}")),
        None => Ok(start),
    }
}

/// Solves empty m,n,k boards: the value, the nodes and the time of an exact solution.
fn run_tictactoe_bench() -> Result<(), String> {
    for (size, k) in [(3, 3), (4, 3), (4, 4)] {
        let position = TicTacToe::new(size, size, k).map_err(|e| e.to_string())?;
        // The smallest table that holds the tree stays in cache; touched first, so the time is
        // the solver's and not the page faults'.
        let mut engine = Engine::new(if size * size <= 9 { 1 } else { 16 }, 1);
        engine.clear_hash();
        let start = Instant::now();
        let result = engine.think(&position, &SearchLimits::default(), start, &AtomicBool::new(false), &mut |_| {});
        let elapsed = start.elapsed();
        println!(
            "{size}x{size}, {k} in a row: {} ({}), first move {}, {} nodes, {} us",
            describe(result.score),
            outcome_name(result.score),
            result.best_move.map_or("none".to_string(), |mv| position.format_move(mv)),
            result.nodes,
            elapsed.as_micros()
        );
    }
    Ok(())
}

fn run_amazons_bench(args: &[String]) -> Result<(), String> {
    let depth = args.first().map_or(Ok(DEFAULT_AMAZONS_BENCH_DEPTH), |_| number("DEPTH", args.first()))?;
    let threads = args.get(1).map_or(Ok(1), |_| number("THREADS", args.get(1)))?;
    let start = Instant::now();
    let leaves = Position::new().perft(AMAZONS_BENCH_PERFT);
    let perft_time = start.elapsed();
    println!(
        "perft({AMAZONS_BENCH_PERFT}) = {leaves} in {} ms ({} leaves/second)",
        perft_time.as_millis(),
        arbor::search::nodes_per_second(leaves, perft_time)
    );
    let mut engine = Engine::new(DEFAULT_HASH_MB, threads);
    let summary = bench::run(&mut engine, &amazons::bench::positions(), depth, |line| println!("{line}"));
    println!("Nodes searched: {}", summary.nodes);
    println!("Nodes/second: {}", summary.nodes_per_second());
    Ok(())
}

fn run_perft(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("amazons") => {}
        Some(other) => return Err(format!("perft: unknown game {other:?} (only amazons)")),
        None => return Err("perft needs a game and a depth".into()),
    }
    let depth: u32 = number("DEPTH", args.get(1))?;
    let pos = Position::new();
    for d in 1..=depth {
        let start = Instant::now();
        let leaves = pos.perft(d);
        println!("perft({d}) = {leaves} ({} ms)", start.elapsed().as_millis());
    }
    Ok(())
}

fn outcome_name(score: i32) -> &'static str {
    match score.signum() {
        1 => "first player wins",
        -1 => "second player wins",
        _ => "draw",
    }
}

fn run_amazons_selfplay(args: &[String]) -> Result<(), String> {
    let (mut time_ms, mut threads, mut max_moves, mut random) = (200u64, 1, usize::MAX, None);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--time" => time_ms = number("--time", args.next())?,
            "--threads" => threads = number("--threads", args.next())?,
            "--moves" => max_moves = number("--moves", args.next())?,
            "--random" => {
                let colour = args.next().ok_or("--random needs a colour")?;
                random = Some(colour.parse::<amazons::Color>()?);
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    let mut pos = Position::new();
    let mut engine = Engine::new(DEFAULT_HASH_MB, threads.clamp(1, default_threads().max(1) * 4));
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::move_time(Duration::from_millis(time_ms));
    // The random mover's generator: fixed seed, so a run can be repeated.
    let mut dice = KeyStream::new(0x2545_F491_4F6C_DD1D);
    while !pos.is_over() && pos.history().len() < max_moves {
        let mover = pos.side_to_move();
        let (mv, note) = if random == Some(mover) {
            let moves = pos.legal_moves();
            (moves[dice.below(moves.len() as u64) as usize], "random".to_string())
        } else {
            let result = engine.go(&pos, &limits, Instant::now(), &stop, &mut |_| {});
            let mv = result.best_move.ok_or("the engine found no move")?;
            let note = format!(
                "depth {}, {}, {} nodes, {} ms",
                result.depth,
                describe(result.score),
                result.nodes,
                result.elapsed.as_millis()
            );
            (mv, note)
        };
        pos.play(mv).map_err(|e| format!("the engine played an illegal move {mv}: {e}"))?;
        println!("\n{}. {mover} {mv}  ({note})", pos.history().len());
        print!("{}", pos.diagram(Some(mv)));
    }
    match pos.winner() {
        Some(color) => {
            println!("\n{color} wins after {} moves: {} cannot move.", pos.history().len(), color.opponent())
        }
        None => println!("\nStopped after {} moves.", pos.history().len()),
    }
    Ok(())
}

fn run_selfplay(args: &[String]) -> Result<(), String> {
    let (mut size, mut rule, mut time_ms, mut threads, mut max_moves) = (15, Rule::Freestyle, 1000u64, 1, usize::MAX);
    let mut opening = String::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--size" => size = number("--size", args.next())?,
            "--time" => time_ms = number("--time", args.next())?,
            "--threads" => threads = number("--threads", args.next())?,
            "--moves" => max_moves = number("--moves", args.next())?,
            "--opening" => opening = args.next().ok_or("--opening needs a position")?.clone(),
            "--rule" => rule = self::rule(args.next())?,
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    let mut board = board_from_notation(size, rule, &opening)?;
    let mut engine = Engine::new(DEFAULT_HASH_MB, threads.clamp(1, default_threads().max(1) * 4));
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::move_time(Duration::from_millis(time_ms));
    while !board.is_over() && board.history().len() < max_moves {
        let result = engine.go(&board, &limits, Instant::now(), &stop, &mut |_| {});
        let mv = result.best_move.ok_or("the engine found no move")?;
        let mover = board.side_to_move();
        board.play(mv).map_err(|e| e.to_string())?;
        println!(
            "\n{}. {} {mv}  (depth {}, {}, {} nodes, {} ms)",
            board.history().len(),
            color_name(mover),
            result.depth,
            describe(result.score),
            result.nodes,
            result.elapsed.as_millis()
        );
        print!("{}", board.diagram());
    }
    match board.winner() {
        Some(color) => println!("\n{} wins after {} moves.", color_name(color), board.history().len()),
        None if board.is_full() => println!("\nDraw: the board is full."),
        None => println!("\nStopped after {} moves.", board.history().len()),
    }
    println!("Game: {}", board.history().iter().map(|&mv| format_move(mv)).collect::<String>());
    Ok(())
}

fn run_forbidden(args: &[String]) -> Result<(), String> {
    let size = match args {
        [] => 15,
        [flag, value] if flag == "--size" => number("--size", Some(value))?,
        _ => return Err("forbidden takes only --size N".into()),
    };
    for (index, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let board = scripts::renju_position(size, line.trim()).map_err(|e| format!("line {}: {e}", index + 1))?;
        let forbidden: Vec<String> =
            board.playable_moves().filter(|&mv| board.is_forbidden(mv)).map(|mv| mv.to_string()).collect();
        println!("{}", forbidden.join(" "));
    }
    Ok(())
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black (X)",
        Color::White => "White (O)",
    }
}

/// Exit status 1 when a transcript fails; usage errors are `Err`.
fn run_replay(args: &[String]) -> Result<ExitCode, String> {
    let rest = args.strip_prefix(&["--engine".to_string()][..]).ok_or("replay needs --engine CMD")?;
    let split = rest.iter().position(|a| a == "--").ok_or("replay needs -- before the transcript files")?;
    let (engine, files) = (&rest[..split], &rest[split + 1..]);
    if engine.is_empty() || files.is_empty() {
        return Err("replay needs an engine command and at least one file".into());
    }
    let mut failures = 0;
    for file in files {
        match run_transcript(engine, &PathBuf::from(file)) {
            Ok(summary) => println!(
                "ok {file}: {} sent, {} checked, {} skipped, {} ms",
                summary.sent,
                summary.checked,
                summary.skipped,
                summary.elapsed.as_millis()
            ),
            Err(failure) => {
                failures += 1;
                println!("FAILED {failure}");
            }
        }
    }
    println!("{} passed, {failures} failed", files.len() - failures);
    Ok(if failures == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Reads finished games, one a line, and prints their positions' features for
/// `scripts/fit_eval.py` ([`scripts::game_features`]).
fn run_features(args: &[String]) -> Result<(), String> {
    let size = match args {
        [] => 15,
        [flag, value] if flag == "--size" => number("--size", Some(value))?,
        _ => return Err("features takes only --size N".into()),
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (index, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let rows = scripts::game_features(size, &line).map_err(|e| format!("line {}: {e}", index + 1))?;
        for row in rows {
            writeln!(out, "{row}").map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
