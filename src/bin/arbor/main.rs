//! `arbor`: the everyday command line. `gtp` speaks GTP for Amazons and tic-tac-toe, `play` is a
//! terminal game against the engine, `bench` measures the search, `perft` the move generator,
//! `selfplay` shows a game of the engine against itself (or a random mover), `forbidden` lists
//! renju black's forbidden cells (for checking against another referee), `prove` runs the
//! threat solver on positions (an analysis tool: the playing search does not use it), `datagen`
//! writes self-play training data and `evaluate` the static evaluation and first ordered move of
//! positions (both for `scripts/learn/`), `replay` checks protocol transcripts against any
//! engine, `params` lists the tuner's parameters.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use arbor::amazons::{self, Position};
use arbor::datagen;
use arbor::engine::{DEFAULT_HASH_MB, Engine, bench};
use arbor::game::Playable;
use arbor::gomoku::network;
use arbor::gomoku::notation::{board_from_notation, format_move, parse_moves};
use arbor::gomoku::{self, Board, Color, scripts};
use arbor::protocol::gtp;
use arbor::protocol::terminal::{self, PlayOptions};
use arbor::score::describe;
use arbor::search::limits::SearchLimits;
use arbor::tictactoe::TicTacToe;
use arbor::zobrist::KeyStream;

/// `println!` for output that may go into `head`: a closed pipe ends the run quietly, with the
/// status a shell gives a process its SIGPIPE ended, rather than with a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        if let Err(error) = writeln!(std::io::stdout(), $($arg)*) {
            if error.kind() != std::io::ErrorKind::BrokenPipe {
                eprintln!("arbor: stdout: {error}");
            }
            std::process::exit(141);
        }
    }};
}

mod cli;
mod transcript;

use cli::{BenchGame, Datagen, GameOptions, GtpGame, PlayGame, Request, Selfplay};
use transcript::{LineEnding, run_transcript};

const DEFAULT_BENCH_DEPTH: u32 = 8;
const DEFAULT_AMAZONS_BENCH_DEPTH: u32 = 4;
/// Perft depth whose time `bench --game amazons` reports.
const AMAZONS_BENCH_PERFT: u32 = 3;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let request = match cli::parse(std::env::args_os().skip(1)) {
        Ok(request) => request,
        Err(error) => {
            let (name, help) = match error.subcommand {
                Some(name) => (format!("arbor {name}"), format!("arbor {name} --help")),
                None => ("arbor".to_string(), "arbor --help".to_string()),
            };
            eprintln!("{name}: {}\nTry '{help}'.", error.message);
            return ExitCode::from(2);
        }
    };
    let result = match request {
        Request::Print(text) => {
            say!("{text}");
            Ok(())
        }
        Request::Replay { engine, files, ending } => return run_replay(&engine, &files, ending),
        Request::Gtp(game, options) => run_gtp(game, &options),
        Request::Play(game, options) => run_play(game, &options),
        Request::Bench { game: BenchGame::Gomoku, depth, threads, network } => {
            run_bench(depth, threads, network.as_deref())
        }
        Request::Bench { game: BenchGame::TicTacToe, .. } => run_tictactoe_bench(),
        Request::Bench { game: BenchGame::Amazons, depth, threads, .. } => run_amazons_bench(depth, threads),
        Request::Perft { depth, size } => run_perft(depth, size.unwrap_or((10, 10))),
        Request::Selfplay(options) if options.amazons => run_amazons_selfplay(&options),
        Request::Selfplay(options) => run_selfplay(&options),
        Request::Datagen(options) => run_datagen(&options),
        Request::Forbidden { size } => run_forbidden(size),
        Request::Evaluate { size, rule, network } => run_evaluate(size, rule, network.as_deref()),
        Request::Prove { size, rule, nodes } => run_prove(size, rule, nodes),
        Request::Solve { size, position, nodes, solved, each_move } => {
            run_solve(size, position.as_deref(), nodes, solved.as_deref(), each_move)
        }
        Request::Features { size } => run_features(size),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("arbor: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The network a `--network` flag names (none without the flag, or for `none`), its error
/// naming the flag as [`network::choose`]'s does.
fn network_flag(option: Option<&str>) -> Result<Option<network::Network>, String> {
    let chosen = option.map(network::from_option).transpose().map_err(|e| format!("--network {e}"))?;
    Ok(chosen.flatten())
}

/// Searches the bench positions with the network `--network` names (the default one without the
/// flag); a network that plays none of the positions is refused, since the bench would not use
/// it. The positions are made after the network is chosen: a board takes its network when it is
/// made.
fn run_bench(depth: Option<u32>, threads: usize, network: Option<&str>) -> Result<(), String> {
    if let Some(network) = network_flag(Some(network.unwrap_or(network::DEFAULT)))? {
        if !gomoku::bench::positions().iter().any(|b| network.plays(b.rule(), b.width(), b.height())) {
            let (rule, size) = network.trained_on();
            return Err(format!("--network: trained on {rule:?} {size}x{size}, not on the boards of the bench"));
        }
        network::play_with(network)?;
    }
    let mut engine = Engine::new(DEFAULT_HASH_MB, threads);
    let depth = depth.unwrap_or(DEFAULT_BENCH_DEPTH);
    let summary = bench::run(&mut engine, &gomoku::bench::positions(), depth, |line| say!("{line}"));
    say!("Nodes searched: {}", summary.nodes);
    say!("Nodes/second: {}", summary.nodes_per_second());
    Ok(())
}

fn tictactoe(options: &GameOptions) -> Result<TicTacToe, String> {
    let (width, height) = options.tictactoe_size();
    TicTacToe::new(width, height, options.k).map_err(|e| e.to_string())
}

/// The Amazons start of `--size` (10x10 by default), with the options' weights.
fn amazons_start(options: &GameOptions) -> Result<Position, String> {
    let (width, height) = options.size.unwrap_or((10, 10));
    let start = Position::start(width, height).map_err(|e| format!("--size: {e}"))?;
    Ok(start.with_weights(options.weights))
}

fn run_gtp(game: GtpGame, options: &GameOptions) -> Result<(), String> {
    let engine = Engine::new(options.hash_mb, options.threads);
    let (stdin, stdout) = (std::io::BufReader::new(std::io::stdin()), std::io::stdout().lock());
    let result = match game {
        GtpGame::TicTacToe => gtp::run(engine, tictactoe(options)?, options.max_depth, stdin, stdout),
        GtpGame::Amazons => gtp::run(engine, amazons_start(options)?, options.max_depth, stdin, stdout),
    };
    result.map_err(|e| format!("gtp: {e}"))
}

fn run_play(game: PlayGame, options: &GameOptions) -> Result<(), String> {
    let mut engine = Engine::new(options.hash_mb, options.threads);
    let play_options = PlayOptions {
        human_first: options.human_first,
        move_time: options.move_time,
        max_depth: options.max_depth,
        prompt_on_own_line: !std::io::stdin().is_terminal(),
    };
    let (stdin, stdout) = (std::io::stdin().lock(), std::io::stdout().lock());
    let result = match game {
        PlayGame::TicTacToe => {
            let start = starting_at(tictactoe(options)?, options)?;
            terminal::play(&mut engine, start, play_options, stdin, stdout)
        }
        PlayGame::Gomoku => {
            network::choose(options.network.as_deref())?;
            gomoku::build_tables();
            let (width, height) = options.size.unwrap_or((15, 15));
            let board = Board::new(width, height, options.rule).map_err(|e| e.to_string())?;
            terminal::play(&mut engine, starting_at(board, options)?, play_options, stdin, stdout)
        }
        PlayGame::Amazons => {
            let start = starting_at(amazons_start(options)?, options)?;
            terminal::play(&mut engine, start, play_options, stdin, stdout)
        }
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
        say!(
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

fn run_amazons_bench(depth: Option<u32>, threads: usize) -> Result<(), String> {
    let depth = depth.unwrap_or(DEFAULT_AMAZONS_BENCH_DEPTH);
    let start = Instant::now();
    let leaves = Position::new().perft(AMAZONS_BENCH_PERFT);
    let perft_time = start.elapsed();
    say!(
        "perft({AMAZONS_BENCH_PERFT}) = {leaves} in {} ms ({} leaves/second)",
        perft_time.as_millis(),
        arbor::search::nodes_per_second(leaves, perft_time)
    );
    let mut engine = Engine::new(DEFAULT_HASH_MB, threads);
    let summary = bench::run(&mut engine, &amazons::bench::positions(), depth, |line| say!("{line}"));
    say!("Nodes searched: {}", summary.nodes);
    say!("Nodes/second: {}", summary.nodes_per_second());
    Ok(())
}

fn run_perft(depth: u32, (width, height): (usize, usize)) -> Result<(), String> {
    let pos = Position::start(width, height).map_err(|e| format!("--size: {e}"))?;
    for d in 1..=depth {
        let start = Instant::now();
        let leaves = pos.perft(d);
        say!("perft({d}) = {leaves} ({} ms)", start.elapsed().as_millis());
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

fn run_amazons_selfplay(options: &Selfplay) -> Result<(), String> {
    let (threads, max_moves, random) = (options.threads, options.max_moves, options.random);
    let mut pos = Position::new();
    let mut engine = Engine::new(DEFAULT_HASH_MB, threads);
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::move_time(options.time);
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
        say!("\n{}. {mover} {mv}  ({note})", pos.history().len());
        say!("{}", pos.diagram(Some(mv)).strip_suffix('\n').unwrap_or_default());
    }
    match pos.winner() {
        Some(color) => {
            say!("\n{color} wins after {} moves: {} cannot move.", pos.history().len(), color.opponent())
        }
        None => say!("\nStopped after {} moves.", pos.history().len()),
    }
    Ok(())
}

fn run_selfplay(options: &Selfplay) -> Result<(), String> {
    let (threads, max_moves) = (options.threads, options.max_moves);
    network::choose(options.network.as_deref())?;
    let mut board = board_from_notation(options.size, options.rule, &options.opening)?;
    let mut engine = Engine::new(DEFAULT_HASH_MB, threads);
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::move_time(options.time);
    while !board.is_over() && board.history().len() < max_moves {
        let result = engine.go(&board, &limits, Instant::now(), &stop, &mut |_| {});
        let Some(mv) = result.best_move else {
            if board.only_forbidden_points_left() {
                break;
            }
            return Err("the engine found no move".into());
        };
        let mover = board.side_to_move();
        board.play(mv).map_err(|e| e.to_string())?;
        say!(
            "\n{}. {} {mv}  (depth {}, {}, {} nodes, {} ms)",
            board.history().len(),
            color_name(mover),
            result.depth,
            describe(result.score),
            result.nodes,
            result.elapsed.as_millis()
        );
        say!("{}", board.diagram().strip_suffix('\n').unwrap_or_default());
    }
    match board.winner() {
        Some(color) => say!("\n{} wins after {} moves.", color_name(color), board.history().len()),
        None if board.is_full() => say!("\nDraw: the board is full."),
        None if board.only_forbidden_points_left() => say!("\nDraw: black may play only on forbidden points."),
        None => say!("\nStopped after {} moves.", board.history().len()),
    }
    say!("Game: {}", board.history().iter().map(|&mv| format_move(mv)).collect::<String>());
    Ok(())
}

fn run_datagen(options: &Datagen) -> Result<(), String> {
    let openings = match &options.openings {
        None => Vec::new(),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let lines = text.lines().map(|line| line.split('#').next().unwrap_or("").trim());
            lines
                .filter(|line| !line.is_empty())
                .map(|line| {
                    parse_moves(line).ok_or_else(|| format!("{}: cannot read opening {line:?}", path.display()))
                })
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    if let Some(network) = network_flag(options.network.as_deref())? {
        let settings = &options.settings;
        if !network.plays(settings.rule, settings.size, settings.size) {
            let (rule, size) = network.trained_on();
            return Err(format!(
                "--network: trained on {rule:?} {size}x{size}, not on the {:?} {}x{} played",
                settings.rule, settings.size, settings.size
            ));
        }
        network::play_with(network)?;
    }
    gomoku::build_tables();
    let mut last_report = Instant::now();
    datagen::generate(&options.out, &options.settings, &openings, options.games, |progress| {
        if progress.games == options.games || last_report.elapsed().as_secs() >= 10 {
            last_report = Instant::now();
            let seconds = progress.elapsed.as_secs_f64().max(1e-9);
            eprintln!(
                "{} games; {} positions this run, {:.0} a second",
                progress.games,
                progress.positions,
                progress.positions as f64 / seconds
            );
        }
    })
}

/// One line out per position line in: the static evaluation and the ordering's first move
/// ([`scripts::evaluation_and_first_move`]), or with a network its value and policy's first
/// cell ([`scripts::network_value_and_first_move`]); `error line K: REASON` for a bad line.
fn run_evaluate(size: usize, rule: gomoku::Rule, network: Option<&str>) -> Result<(), String> {
    let network = match network_flag(network)? {
        Some(network) if network.trained_on() != (rule, size) => {
            log::warn!("the network was trained on another rule or size; its answers here are untested");
            Some(network)
        }
        other => other,
    };
    let mut out = std::io::stdout().lock();
    // Read as bytes, as for prove: a line that is not UTF-8 gets its error line like any other.
    for (index, line) in std::io::stdin().lock().split(b'\n').enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let answer = match scripts::position_from_rows(size, rule, String::from_utf8_lossy(&line).trim()) {
            Ok(board) if !board.is_over() => match &network {
                Some(network) => scripts::network_value_and_first_move(network, &board),
                None => scripts::evaluation_and_first_move(&board),
            },
            Ok(_) => format!("error line {}: the game is over", index + 1),
            Err(e) => format!("error line {}: {e}", index + 1),
        };
        writeln!(out, "{answer}").and_then(|()| out.flush()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// One line out per position line in: black's forbidden cells, or `error line K: REASON`.
fn run_forbidden(size: usize) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    // Read as bytes, as for prove: a line that is not UTF-8 gets its error line like any other.
    for (index, line) in std::io::stdin().lock().split(b'\n').enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let answer = match scripts::position_from_rows(size, gomoku::Rule::Renju, String::from_utf8_lossy(&line).trim())
        {
            Ok(board) => {
                let forbidden: Vec<String> =
                    board.playable_moves().filter(|&mv| board.is_forbidden(mv)).map(|mv| mv.to_string()).collect();
                forbidden.join(" ")
            }
            Err(e) => format!("error line {}: {e}", index + 1),
        };
        writeln!(out, "{answer}").and_then(|()| out.flush()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Nodes between two additions to a solved list.
const SOLVED_LIST_INTERVAL: u64 = 10_000_000;

/// Proves the start of a board or a set-up position (or, with `each_move`, the position after
/// each of its moves), resuming from and adding to a solved list when one is named; verdicts on
/// stdout, progress on stderr.
fn run_solve(
    (width, height): (usize, usize),
    position: Option<&str>,
    nodes: u64,
    solved: Option<&str>,
    each_move: bool,
) -> Result<(), String> {
    let start = Position::start(width, height).map_err(|e| format!("--size: {e}"))?;
    let pos = match position {
        Some(text) => start.set_up(text).map_err(|e| format!("--position: {e}"))?,
        None => start.clone(),
    };
    let mut solver = amazons::solve::Solver::new(&pos);
    if let Some(path) = solved {
        let learnt = read_solved_list(path, &start, &mut solver)?;
        eprintln!("{path}: {learnt} solved positions read");
    }
    if !each_move {
        let clock = Instant::now();
        let solution = solve_in_slices(&mut solver, nodes, solved)?;
        say!("{}", describe_solution(&solution, solution.nodes, clock));
        return Ok(());
    }
    let moves = pos.legal_moves();
    let mut wins = [0usize; 2];
    for &mv in &moves {
        let mut after = pos.clone();
        after.play(mv).map_err(|e| e.to_string())?;
        solver.set_root(&after);
        let (clock, before) = (Instant::now(), solver.run(0).nodes);
        let solution = solve_in_slices(&mut solver, before.saturating_add(nodes), solved)?;
        say!("{mv}: {}", describe_solution(&solution, solution.nodes - before, clock));
        if let Some(winner) = solution.winner {
            wins[usize::from(winner != pos.side_to_move())] += 1;
        }
    }
    let proved = wins[0] + wins[1];
    say!(
        "{} moves: {} win for {}, {} lose, {} unproved",
        moves.len(),
        wins[0],
        pos.side_to_move(),
        wins[1],
        moves.len() - proved
    );
    Ok(())
}

/// Runs `solver` until it settles its root or has spent `nodes` in all, adding to the solved
/// list at `solved` (when named) every [`SOLVED_LIST_INTERVAL`] nodes.
fn solve_in_slices(
    solver: &mut amazons::solve::Solver,
    nodes: u64,
    solved: Option<&str>,
) -> Result<amazons::solve::Solution, String> {
    let clock = Instant::now();
    let mut solution = solver.run(0);
    while solution.winner.is_none() && solution.nodes < nodes {
        solution = solver.run(SOLVED_LIST_INTERVAL.min(nodes - solution.nodes));
        if let Some(path) = solved {
            let added = append_solved_list(path, &solver.take_settled())?;
            eprintln!(
                "{} nodes, {:.0} s, {} positions in the table, {added} added to {path}",
                solution.nodes,
                clock.elapsed().as_secs_f64(),
                solver.table_len()
            );
        }
    }
    Ok(solution)
}

/// `white wins by b1-b3/d3 (N nodes, T s)`, `black wins (...)` or `unproved after ...`.
fn describe_solution(solution: &amazons::solve::Solution, nodes: u64, clock: Instant) -> String {
    let spent = format!("{nodes} nodes, {:.1} s", clock.elapsed().as_secs_f64());
    match (solution.winner, solution.best) {
        (Some(winner), Some(best)) => format!("{winner} wins by {best} ({spent})"),
        (Some(winner), None) => format!("{winner} wins ({spent})"),
        (None, _) => format!("unproved after {spent}"),
    }
}

/// Reads a solved list (`SETUP: white wins` lines; blank lines and `#` comments skipped) into
/// `solver`, positions set up on `board`'s size; a missing file is an empty list.
/// Reads the solved list at `path` into `solver`; how many positions. A last line without its
/// line end that does not read is what a run stopped while appending leaves: it is cut off the
/// file with a warning, so the run resumes; a bad line anywhere else is an error.
fn read_solved_list(path: &str, board: &Position, solver: &mut amazons::solve::Solver) -> Result<usize, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("{path}: {e}")),
    };
    let read = |line: &str| -> Result<(Position, amazons::Color), String> {
        let (setup, verdict) = line.rsplit_once(':').ok_or("no ': white wins' or ': black wins'")?;
        let winner = match verdict.trim() {
            "white wins" => amazons::Color::White,
            "black wins" => amazons::Color::Black,
            other => return Err(format!("'{other}' is not 'white wins' or 'black wins'")),
        };
        Ok((board.set_up(setup)?, winner))
    };
    let whole = text.rfind('\n').map_or(0, |end| end + 1);
    let mut learnt = 0;
    for (index, line) in text[..whole].lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos, winner) = read(line).map_err(|e| format!("{path} line {}: {e}", index + 1))?;
        solver.learn(&pos, winner);
        learnt += 1;
    }
    let torn = text[whole..].trim();
    if !torn.is_empty() && !torn.starts_with('#') {
        match read(torn) {
            Ok((pos, winner)) => {
                solver.learn(&pos, winner);
                learnt += 1;
            }
            Err(e) => {
                log::warn!("{path}: its last line is cut short ({e}); it is dropped");
                let file = std::fs::OpenOptions::new().write(true).open(path).map_err(|e| format!("{path}: {e}"))?;
                file.set_len(whole as u64).map_err(|e| format!("{path}: {e}"))?;
            }
        }
    }
    Ok(learnt)
}

/// Appends `settled` positions to the solved list at `path`; how many. A list whose last line
/// has no line end (written by hand) gets one first.
fn append_solved_list(path: &str, settled: &[(Position, amazons::Color)]) -> Result<usize, String> {
    use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{path}: {e}"))?;
    let mut last = [b'\n'];
    if file.seek(SeekFrom::End(0)).map_err(|e| format!("{path}: {e}"))? > 0 {
        file.seek(SeekFrom::End(-1)).and_then(|_| file.read_exact(&mut last)).map_err(|e| format!("{path}: {e}"))?;
    }
    let start = if last[0] == b'\n' { "" } else { "\n" };
    let lines: String = settled.iter().map(|(pos, winner)| format!("{}: {winner} wins\n", pos.setup_text())).collect();
    file.write_all(format!("{start}{lines}").as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(settled.len())
}

fn run_prove(size: usize, rule: gomoku::Rule, nodes: u64) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    // Lines are read as bytes so that one that is not UTF-8 gets its error line like any other.
    for (index, line) in std::io::stdin().lock().split(b'\n').enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let answer = match board_from_notation(size, rule, String::from_utf8_lossy(&line).trim()) {
            Err(e) => format!("error line {}: {e}", index + 1),
            Ok(board) if board.is_over() => format!("error line {}: the game is over", index + 1),
            Ok(mut board) => prove_line(&mut board, nodes),
        };
        writeln!(out, "{answer}").and_then(|()| out.flush()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn prove_line(board: &mut Board, nodes: u64) -> String {
    let side = match board.side_to_move() {
        Color::Black => "black",
        Color::White => "white",
    };
    let proof = board.find_vct(nodes);
    match proof.win {
        Some((mv, plies)) => format!("{side} wins by {} in {plies} plies ({} nodes)", format_move(mv), proof.nodes),
        None if proof.refuted => format!("{side} no threat win ({} nodes)", proof.nodes),
        None => format!("{side} no proof within {nodes} nodes ({} used)", proof.nodes),
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black (X)",
        Color::White => "White (O)",
    }
}

/// Exit status 1 when a transcript fails.
fn run_replay(engine: &[String], files: &[String], ending: LineEnding) -> ExitCode {
    let mut failures = 0;
    for file in files {
        match run_transcript(engine, &PathBuf::from(file), ending) {
            Ok(summary) => say!(
                "ok {file}: {} sent, {} checked, {} skipped, {} ms",
                summary.sent,
                summary.checked,
                summary.skipped,
                summary.elapsed.as_millis()
            ),
            Err(failure) => {
                failures += 1;
                say!("FAILED {failure}");
            }
        }
    }
    say!("{} passed, {failures} failed", files.len() - failures);
    if failures == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Reads finished games, one a line, and prints their positions' features for
/// `scripts/fit_eval.py` ([`scripts::game_features`]).
/// The feature rows of every good game line; a bad line is named on stderr and skipped, and the
/// run then fails after the rest are written, so a fit never silently loses games.
fn run_features(size: usize) -> Result<(), String> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut skipped = 0;
    for (index, line) in std::io::stdin().lock().split(b'\n').enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        match scripts::game_features(size, String::from_utf8_lossy(&line).trim()) {
            Ok(rows) => {
                for row in rows {
                    writeln!(out, "{row}").map_err(|e| e.to_string())?;
                }
            }
            Err(e) => {
                skipped += 1;
                eprintln!("arbor features: line {}: {e} (skipped)", index + 1);
            }
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    match skipped {
        0 => Ok(()),
        n => Err(format!("features: {n} bad line(s) skipped")),
    }
}
