//! `pbrain-arbor`: Arbor as a Gomocup brain. Speaks the piskvork protocol on stdin and stdout;
//! logs go to stderr only (`RUST_LOG`, default `warn`), so stdout carries nothing but replies.

use std::ffi::OsString;
use std::process::ExitCode;

use lexopt::prelude::*;

use arbor::engine::{DEFAULT_HASH_MB, Engine, default_threads};
use arbor::gomoku::network;
use arbor::protocol::{bounds, gomocup};

const USAGE: &str = "\
Usage: pbrain-arbor [--threads N] [--hash MB] [--max-depth N] [--threat-solver] [--network NET]
                    [--param NAME=VALUE]...

Plays Gomoku as a Gomocup brain over stdin and stdout (piskvork protocol 2).

Options:
  --threads N     search threads (default and most: all cores; INFO thread_num overrides)
  --hash MB       transposition table size when the manager sets no max_memory (default 64)
  --max-depth N   deepest search iteration (default: no limit; INFO max_depth overrides)
  --threat-solver call the threat solver (VCT) at the root: proven wins and refuted moves
                  (off by default: not yet worth its nodes in play; for analysis and A/B matches)
  --network NET   the evaluation: embedded (the default: the learned network built in, for
                  freestyle 15x15), none (the classical one) or a network file of
                  scripts/learn/export.py; boards of other rules and sizes keep the classical one
  --param N=V     sets a tuning parameter (a build with --features tune; 'arbor params' lists them)
  --help          print this help
  --version       print the version";

struct Options {
    threads: usize,
    hash_mb: usize,
    max_depth: Option<u32>,
    threat_solver: bool,
    /// `--network`'s value; `None` plays [`network::DEFAULT`].
    network: Option<String>,
}

/// Reads the arguments with lexopt, as `arbor` does. `Ok(None)` when the request was only for
/// help or the version, already printed.
fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Option<Options>, lexopt::Error> {
    let mut options = Options {
        threads: default_threads(),
        hash_mb: DEFAULT_HASH_MB,
        max_depth: None,
        threat_solver: false,
        network: None,
    };
    let mut parser = lexopt::Parser::from_args(args);
    while let Some(arg) = parser.next()? {
        let flag = match arg {
            Long("help") | Short('h') => {
                println!("{USAGE}");
                return Ok(None);
            }
            Long("version") | Short('V') => {
                println!("pbrain-arbor {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            Long("threat-solver") => {
                options.threat_solver = true;
                continue;
            }
            Long("param") => {
                let assignment = parser.value()?.string()?;
                arbor::params::assign(&assignment).map_err(|e| format!("--param {e}"))?;
                continue;
            }
            Long("network") => {
                options.network = Some(parser.value()?.string()?);
                continue;
            }
            Long(flag @ ("threads" | "hash" | "max-depth")) => format!("--{flag}"),
            other => return Err(other.unexpected()),
        };
        let value = parser.value()?.string()?;
        let number = value
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or(format!("{flag} needs a positive number, not {value:?}"))?;
        let checked =
            |check: fn(usize) -> Result<usize, String>| check(number as usize).map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--threads" => options.threads = bounds::on_the_cores(checked(bounds::threads)?),
            "--hash" => options.hash_mb = checked(bounds::hash_mb)?,
            _ => options.max_depth = Some(number),
        }
    }
    Ok(Some(options))
}

fn main() -> ExitCode {
    // Silent unless RUST_LOG asks: piskvork gives a brain its stdout pipe as stderr too, and a
    // line there that is not `MESSAGE` or `DEBUG` reads as the brain's (bad) move.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off"))
        .target(env_logger::Target::Stderr)
        .init();
    let options = match parse_args(std::env::args_os().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => return ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("pbrain-arbor: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Err(message) = network::choose(options.network.as_deref()) {
        eprintln!("pbrain-arbor: {message}");
        return ExitCode::from(2);
    }
    arbor::gomoku::build_tables();
    match gomocup::run(Engine::new(options.hash_mb, options.threads), options.max_depth, options.threat_solver) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // The manager closed our output: nobody is left to answer.
            log::warn!("cannot write to the manager: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_above_the_cores_play_on_the_cores() {
        let options = parse_args(["--threads", "1024"].map(OsString::from)).unwrap().unwrap();
        assert_eq!(options.threads, default_threads());
    }
}
