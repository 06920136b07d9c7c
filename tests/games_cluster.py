#!/usr/bin/env python3
"""The game runner (scripts/games.py) gives the same games through Dask as played directly.

A short fixed-node batch, refereed by pygomo-lib (CI has no c-gomoku-cli), is played three ways:
directly in one process (in two runs, the second resuming the first's file), on a local cluster
of two workers, and through a scheduler with two workers started as separate processes, as on
separate machines. Fixed nodes on one thread make every game deterministic, so the three result
files must hold the same games move for move. The second engine is the same brain held to depth
3, so the games are not all alike. Besides: c-gomoku-cli's SGF is read whole where an engine's
name holds a bracket and refused where a game has no result, results without spread get no
finite error bar, and games.py refuses what would count a pair twice or play no opening.

Run with the runner's environment:  target/runner-venv/bin/python tests/games_cluster.py ENGINE
"""
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True
from checks import report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import elo  # noqa: E402
import referee  # noqa: E402

# Two games as c-gomoku-cli writes them, the engines named with brackets.
SGF = ("(;FF[4]GM[4]GN[2]EV[a(2) x b]SZ[15]PB[a(2)]PW[b]RE[W+1]TE[White win]\n;B[hh]C[opening move];W[ii]C[3ms])\n\n"
       "(;FF[4]GM[4]GN[1]EV[b x a(2)]SZ[15]PB[b]PW[a(2)]RE[B+1]TE[Black win]\n;B[hh]C[opening move];W[ij]C[1ms]"
       ";B[jj]C[2ms])\n")


def refusal(*arguments):
    """games.py's complaint (stderr) for arguments it must refuse before playing."""
    run = subprocess.run([PYTHON, str(ROOT / "scripts/games.py"), "--engine1", "x", "--engine2", "y", "--nodes", "1",
                          "--referee", "pygomo", "--direct", "--out", "/nonexistent/never.jsonl", *arguments],
                         capture_output=True, text=True, timeout=60)
    return run.returncode == 2 and run.stderr


def sgf_read_whole():
    games = referee.sgf_games(SGF)
    return ([(g["black"], g["result"], len(g["moves"])) for g in games] == [("b", "1-0", 3), ("a(2)", "0-1", 2)])


def sgf_without_result_refused():
    try:
        referee.sgf_games(SGF.replace("RE[W+1]", ""))
    except ValueError:
        return True
    return False
PYTHON = sys.executable
DASK = Path(PYTHON).parent / "dask"


def games(engine, out, *where, pairs=4):
    run = subprocess.run([PYTHON, str(ROOT / "scripts/games.py"), "--engine1", engine, "--engine2", engine,
                          "--args2=--max-depth 3", "--nodes", "3000", "--pairs", str(pairs), "--referee", "pygomo",
                          "--out", str(out), *where], check=True, timeout=300, capture_output=True, text=True)
    print(run.stdout, end="")
    return {record["pair"]: record for record in map(json.loads, out.read_text().splitlines())}, run.stdout


def main():
    engine = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/pbrain-arbor")
    with tempfile.TemporaryDirectory(prefix="arbor-games-test-") as folder:
        folder = Path(folder)
        games(engine, folder / "direct.jsonl", "--direct", pairs=2)
        direct, _ = games(engine, folder / "direct.jsonl", "--direct")
        local, _ = games(engine, folder / "local.jsonl", "--workers", "2")
        # Against a brain held to depth 3, an SPRT of +300 Elo against 0 decides within a few pairs.
        sprt, sprt_report = games(engine, folder / "sprt.jsonl", "--direct", "--sprt", "0", "300", pairs=30)
        scheduler_file = folder / "scheduler.json"
        processes = [subprocess.Popen([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                       "--scheduler-file", scheduler_file], stderr=subprocess.DEVNULL)]
        try:
            deadline = time.monotonic() + 60
            while not scheduler_file.exists() and time.monotonic() < deadline:
                time.sleep(0.1)
            processes += [subprocess.Popen([DASK, "worker", "--scheduler-file", scheduler_file, "--host", "127.0.0.1",
                                            "--nthreads", "1", "--no-dashboard"], stderr=subprocess.DEVNULL)
                          for _ in range(2)]
            remote, _ = games(engine, folder / "remote.jsonl", "--scheduler-file", str(scheduler_file))
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
    results = [game["result"] for record in direct.values() for game in record["games"]]
    with tempfile.TemporaryDirectory(prefix="arbor-games-test-") as folder:
        one, empty = Path(folder) / "one.txt", Path(folder) / "empty.txt"
        one.write_text("h8i9j8\n")
        empty.write_text("# nothing\n\n")
        repeats = refusal("--openings", str(one), "--pairs", "9")
        nothing = refusal("--openings", str(empty))
    checks = {
        "4 pairs played directly, the second run resuming the first": sorted(direct) == [0, 1, 2, 3],
        "the local cluster played the same games": local == direct,
        "the scheduler's two workers played the same games": remote == direct,
        "the SPRT accepted H1 and stopped early": "H1 accepted" in sprt_report and len(sprt) < 30,
        "the two engines played different games": any(len(set(map(str, (g["moves"] for g in r["games"])))) > 1
                                                      for r in direct.values()),
        "every game ended in a five or a full board": all(game["reason"] in ("five", "full board")
                                                          for record in direct.values() for game in record["games"]),
        "c-gomoku-cli's SGF is read whole where an engine's name holds a bracket": sgf_read_whole(),
        "a game without a result is refused, not counted as a draw": sgf_without_result_refused(),
        "results without any spread have no finite error bar": elo.elo_stats(0, 0, 10)[2] == float("inf")
                                                                and elo.pair_stats([1.0] * 9)[2] == float("inf"),
        "games.py refuses a ninth round of one opening": bool(repeats) and "--pairs 9" in repeats,
        "games.py refuses an openings file without an opening": bool(nothing) and "no opening" in nothing,
    }
    report("games", checks, f"({len(results)} games)")


if __name__ == "__main__":
    main()
