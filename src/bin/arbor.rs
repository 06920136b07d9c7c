//! `arbor`: the command-line front end (benchmarks now; play, perft and GTP as they land).

use std::process::ExitCode;

use arbor::engine::{Engine, bench};
use arbor::gomoku;

const USAGE: &str = "usage: arbor bench [DEPTH] [THREADS]";
const DEFAULT_BENCH_DEPTH: u32 = 6;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => run_bench(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run_bench(args: &[String]) -> ExitCode {
    let parsed = (
        args.first().map_or(Ok(DEFAULT_BENCH_DEPTH), |a| a.parse()),
        args.get(1).map_or(Ok(1), |a| a.parse::<usize>()),
    );
    let (Ok(depth), Ok(threads)) = parsed else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let mut engine = Engine::new(arbor::engine::DEFAULT_HASH_MB, threads);
    let summary = bench::run(&mut engine, &gomoku::bench::positions(), depth, |line| println!("{line}"));
    println!("Nodes searched: {}", summary.nodes);
    println!("Nodes/second: {}", summary.nodes_per_second());
    ExitCode::SUCCESS
}
