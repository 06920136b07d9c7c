//! `arbor`: the everyday command line. `bench` measures the search, `selfplay` shows a game
//! of the engine against itself, `forbidden` lists renju black's forbidden cells (for checking
//! against another referee), `replay` checks protocol transcripts against any engine.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use arbor::engine::{DEFAULT_HASH_MB, Engine, bench, default_threads};
use arbor::gomoku::notation::{board_from_notation, format_move};
use arbor::gomoku::{self, Board, Color, Move, Rule};
use arbor::protocol::transcript::run_transcript;
use arbor::search::limits::SearchLimits;
use arbor::search::score::describe;

const USAGE: &str = "\
Usage:
  arbor bench [DEPTH] [THREADS]
      Searches fixed Gomoku positions to DEPTH (default 8) on THREADS (default 1) with a cleared
      hash each time; the one-thread node count is the search's signature.
  arbor selfplay [--size N] [--rule freestyle|standard|renju|caro] [--time MS] [--threads N]
                 [--moves N] [--opening MOVES]
      The engine plays itself from the centre (or from the compact position MOVES, e.g. h8i9),
      drawing the board after every move and giving the whole game at the end.
  arbor forbidden [--size N]
      Reads renju positions from stdin, one a line: the rows of the board (N*N characters,
      X black, O white, . empty); prints for each the cells where black may not play, as x,y.
  arbor replay --engine CMD [ARG...] -- FILE...
      Replays protocol transcripts (see protocol-tests/README.md) against any engine.
  arbor help";

const DEFAULT_BENCH_DEPTH: u32 = 8;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("bench") => run_bench(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("selfplay") => run_selfplay(&args[1..]).map(|()| ExitCode::SUCCESS),
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
            "--rule" => {
                rule = match args.next().map(String::as_str) {
                    Some("freestyle") => Rule::Freestyle,
                    Some("standard") => Rule::Standard,
                    Some("renju") => Rule::Renju,
                    Some("caro") => Rule::Caro,
                    other => return Err(format!("--rule: {other:?} is not freestyle, standard, renju or caro")),
                }
            }
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
        let board = renju_position(size, line.trim()).map_err(|e| format!("line {}: {e}", index + 1))?;
        let forbidden: Vec<String> =
            board.playable_moves().filter(|&mv| board.is_forbidden(mv)).map(|mv| mv.to_string()).collect();
        println!("{}", forbidden.join(" "));
    }
    Ok(())
}

/// A renju position from its rows run together.
fn renju_position(size: usize, cells: &str) -> Result<Board, String> {
    if cells.len() != size * size {
        return Err(format!("{} cells, expected {}", cells.len(), size * size));
    }
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (i, c) in cells.chars().enumerate() {
        let mv = Move::new(i % size, i / size).ok_or("board too large")?;
        match c {
            'X' => black.push(mv),
            'O' => white.push(mv),
            '.' => {}
            other => return Err(format!("unexpected {other:?}")),
        }
    }
    Board::from_stones(size, size, Rule::Renju, &black, &white).map_err(|e| e.to_string())
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
