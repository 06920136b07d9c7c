#!/usr/bin/env python3
"""The SPSA tuner (scripts/spsa.py) resumes exactly and steps θ as its history says.

A short run at 300 nodes a move (pygomo-lib referees; CI has no c-gomoku-cli) is played three
ways: 6 iterations straight, 4 then resumed to 6, and 4 on a local cluster of two workers. Fixed
nodes on one thread make every game deterministic, so the resumed run must end at the straight
run's θ, the cluster at the straight run's θ after 4, and replaying each history line's signs and
results through the update rule must give the θ it recorded. An asynchronous run (each pair
drawn around the latest θ) with one pair in flight must follow batches of one, here and on
the cluster, and on two workers its history must replay as well, whichever pair ended first. A
history line written just before a stop, which the state never took in, is dropped on resuming,
and a new run refuses to add to a history left by another. A run past its --deadline plays
its first batch only, and the state names the openings relative to the repository. Arguments for both engines
(--engine-args) are kept in the state, reach the engines (an unknown flag stops the run) and
cannot change on resuming, nor can the engine binary unless --new-engine says so (and the state
then records where it changed).

Run with the runner's environment, after building the tune feature (target/tune):
  target/runner-venv/bin/python tests/spsa_run.py
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "scripts"))
import spsa  # noqa: E402
from checks import report  # noqa: E402


def attempt(state, *extra):
    return subprocess.run([sys.executable, str(ROOT / "scripts/spsa.py"), "--state", str(state), "--iterations", "100",
                           "--nodes", "300", "--tune", "^(rfp_margin|nmp_base|gomoku_tempo|gomoku_order_four)$",
                           "--referee", "pygomo", "--batch", "2",
                           "--engine", str(ROOT / "target/tune/release/pbrain-arbor"),
                           "--arbor", str(ROOT / "target/tune/release/arbor"), *extra],
                          capture_output=True, text=True, timeout=300)


def run(state, *extra):
    done = attempt(state, *extra)
    if done.returncode != 0:
        sys.exit(f"spsa.py failed:\n{done.stdout}{done.stderr}")
    return json.loads(state.read_text())


def replayed(state, history):
    """θ after every line of the history, from the defaults through the update rule."""
    config = state["config"]
    theta = {name: float(entry[0]) for name, entry in config["params"].items()}
    for line in map(json.loads, history.read_text().splitlines()):
        for it in line["iterations"]:
            theta = spsa.step(config, theta, it["k"], [1 if s == "+" else -1 for s in it["signs"]], it["result"])
        if theta != line["theta"]:
            return False
    return theta == state["theta"]


def signals_told():
    """Four pairs whose results follow the first parameter's sign and not the second's: sums 6
    and -2 over a spread of √12; no signal from pairs that all end even."""
    iterations = [{"signs": signs, "result": result} for signs, result in (("++", 2), ("+-", 2), ("-+", -2), ("--", 0))]
    told = spsa.signals(["a", "b"], iterations)
    even = spsa.signals(["a"], [{"signs": "+", "result": 0}])
    return abs(told["a"] - 6 / 12 ** 0.5) < 1e-12 and abs(told["b"] + 2 / 12 ** 0.5) < 1e-12 and even == {"a": 0.0}


def main():
    with tempfile.TemporaryDirectory(prefix="arbor-spsa-test-") as folder:
        folder = Path(folder)
        straight = run(folder / "straight.json", "--direct", "--stop-after", "6")
        run(folder / "resumed.json", "--direct", "--stop-after", "4")
        resumed = run(folder / "resumed.json", "--direct", "--stop-after", "6")
        other = folder / "pbrain-arbor-rebuilt"
        other.write_bytes((ROOT / "target/tune/release/pbrain-arbor").read_bytes() + b"\0")
        other.chmod(0o755)
        refused = attempt(folder / "resumed.json", "--direct", "--stop-after", "8", "--engine", str(other))
        taken = run(folder / "resumed.json", "--direct", "--stop-after", "8", "--engine", str(other), "--new-engine")
        cluster = run(folder / "cluster.json", "--workers", "2", "--stop-after", "4")
        networked = run(folder / "network.json", "--direct", "--stop-after", "2", "--engine-args", "--network embedded")
        changed = attempt(folder / "network.json", "--direct", "--stop-after", "4", "--engine-args", "--hash 1")
        single = run(folder / "single.json", "--direct", "--batch", "1", "--stop-after", "4")
        one_by_one = run(folder / "async.json", "--direct", "--asynchronous", "--stop-after", "2")
        one_by_one = run(folder / "async.json", "--direct", "--asynchronous", "--stop-after", "4")
        spread = run(folder / "spread.json", "--workers", "2", "--asynchronous", "--stop-after", "4")
        queued = run(folder / "queued.json", "--workers", "2", "--asynchronous", "--batch", "1", "--stop-after", "4")
        # A stop between a history line and its state: the line is dropped on resuming.
        with (folder / "single.history.jsonl").open("a") as history:
            history.write(json.dumps({"k": 5, "theta": single["theta"], "iterations": []}) + "\n")
        run(folder / "single.json", "--direct", "--batch", "1", "--stop-after", "4")
        cut_back = len((folder / "single.history.jsonl").read_text().splitlines()) == 4
        (folder / "stray.history.jsonl").write_text("{}\n")
        stray = attempt(folder / "stray.json", "--direct", "--stop-after", "2")
        told = subprocess.run([sys.executable, str(ROOT / "scripts/spsa.py"), "--state", str(folder / "straight.json"),
                               "--summary"], capture_output=True, text=True, timeout=60).stdout.splitlines()
        deadline = run(folder / "deadline.json", "--direct", "--stop-after", "6", "--deadline", "0.001")
        unknown = attempt(folder / "unknown.json", "--direct", "--stop-after", "2", "--engine-args=--no-such-flag")
        history = (folder / "straight.history.jsonl").read_text().splitlines()
        after_four = json.loads(history[1])["theta"]
        results = [it["result"] for line in map(json.loads, history) for it in line["iterations"]]
        bounds = straight["config"]["params"]
        config = straight["config"]
        final = spsa.gains(config, config["iterations"])
        checks = {
            "at k = N each perturbation is the parameter's step and a/c^2 is r_end": all(
                abs(c - config["params"][name][3]) < 1e-9 and abs(a / c ** 2 - config["r_end"]) < 1e-12
                for name, (a, c) in final.items()),
            "the straight run reached k = 6 in three batches": straight["k"] == 6 and len(history) == 3,
            "the resumed run ended at the straight run's θ": resumed["k"] == 6 and resumed["theta"] == straight["theta"],
            "a resumed run refuses another engine binary": refused.returncode != 0 and "--new-engine" in refused.stderr,
            "--new-engine goes on with another binary and records at which k": taken["k"] == 8
                and taken["config"]["engine_sha256"] == spsa.digest(other)
                and taken["config"]["engine_changes"] == [{"k": 6, "sha256": spsa.digest(other)}],
            "the cluster's 4 iterations reached the straight run's θ after 4": cluster["theta"] == after_four,
            "each history line's θ follows from its signs and results": replayed(straight, folder / "straight.history.jsonl"),
            "θ stayed inside the ranges": all(bounds[n][1] <= v <= bounds[n][2] for n, v in straight["theta"].items()),
            "the engines' own arguments are kept in the state":
                networked["k"] == 2 and networked["config"]["engine_args"] == "--network embedded",
            "a resumed run refuses other engine arguments": changed.returncode != 0 and "engine_args" in changed.stderr,
            "asynchronous, one pair at a time, resumed: the θ of batches of one":
                one_by_one["k"] == 4 and one_by_one["theta"] == single["theta"] and one_by_one["lines"] == 4,
            "asynchronous on the cluster, one pair in flight: the θ of batches of one, each pair drawn after the last":
                queued["theta"] == single["theta"] and all(
                    it["around"] == it["k"] - 1 for line in (folder / "queued.history.jsonl").read_text().splitlines()
                    for it in json.loads(line)["iterations"]),
            "a history line the state never took in is dropped on resuming": cut_back,
            "a new run refuses a history left by another": stray.returncode != 0 and "history" in stray.stderr,
            "asynchronous on two workers: each history line's θ follows from its signs and results":
                spread["lines"] == 4 and replayed(spread, folder / "spread.history.jsonl"),
            "the state names the openings relative to the repository (it resumes in another checkout)":
                straight["config"]["openings"] == "scripts/openings/freestyle_15.txt",
            "--summary gives the pairs, their distance from chance and every parameter's move":
                told[0].startswith("k = 6 of 100, 300 nodes a move: 6 pairs (12 games)")
                and told[1].startswith("signals: sum of squares") and len(told) == 6,
            "a signal is the sum of R·Δ over the spread of that sum under chance": signals_told(),
            "past --deadline the first batch is played and no other": deadline["k"] == 2,
            "the engine arguments reach the engines": unknown.returncode != 0 and not (folder / "unknown.json").exists(),
        }
    print(f"results of the 6 pairs (wins - losses of θ+): {results}")
    report("spsa", checks)


if __name__ == "__main__":
    main()
