#!/usr/bin/env python3
"""Tunes Arbor's parameters (src/params.rs) together by SPSA, as fishtest does, on the game runner.

Every parameter moves at once. Iteration k draws a sign Δ_i = ±1 for each parameter and plays
one game pair (an opening from --openings, colours swapped) between the engine at θ + c_k·Δ and
the engine at θ - c_k·Δ; with R the wins minus the losses of the first, θ_i += a_k,i / c_k,i ·
R · Δ_i. The gains are fishtest's: c_k,i = c_i / k^γ and a_k,i = a_i / (A + k)^α with
γ = 0.101, α = 0.602, A = N / 10, c_i = step_i · N^γ and a_i = r_end · step_i² · (A + N)^α,
so that after N iterations the perturbation is each parameter's step and the learning rate
r_end (--r-end, fishtest's default 0.002).

The engine is a build with the tune feature (`cargo build --release --features tune
--target-dir target/tune`): its pbrain-arbor plays, each side with its own `--param NAME=VALUE`
(values rounded to integers, kept inside their ranges), and its `arbor params` gives the table.
--tune REGEX picks the parameters to move (the rest keep their defaults). --engine-args gives both
sides the same further arguments, for example '--network none' to tune around the classical
evaluation (the engines play the network by default).

Iterations run in batches of --batch from one θ, so the workers (scripts/games.py's options:
a local cluster, --scheduler, --direct) stay busy; the path is then the same on any cluster.
--asynchronous steps θ after each pair and draws the next pair around the new θ (fishtest's way),
so no worker waits for a batch's slowest pair; its path depends on which pair ends first, and
the pairs in flight when it stops are dropped (their iterations are not played again). After
each batch (or pair) the run appends one line to --history (k, θ, and each iteration's opening,
signs, R and the k of the θ it was drawn around) and then replaces its state (--state: the
settings, k, θ and the history's length), so a run stopped anywhere resumes from its last batch
(or pair) when started again with the same --state, which then supplies the settings (stop a
background run as games.py says: `setsid` to start it, `kill -- -PGID` to end it with its
games). The games are freestyle 15x15. The state keeps the engine binary's SHA-256: a resumed run
refuses another binary (a rebuild that changed the search would mix two engines' games in one
path) unless --new-engine is given, which records at which k the engine changed.
At the end it prints θ as NAME=VALUE lines, the tuned values.

Usage:
  target/runner-venv/bin/python scripts/spsa.py --state target/spsa/run1.json --iterations 20000 \\
      --nodes 100000 --tune '^(lmr|lmp|rfp|razor|nmp)_' [--workers 2 | --scheduler tcp://HOST:8786]
  On a machine lent for a fixed time (16 cores, 10 minutes a call), resuming a run:
  python3 scripts/spsa.py --state docs/tuning/joint-700k.json --workers 16 --asynchronous --deadline 480
"""
import argparse
import hashlib
import json
import os
import random
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True                   # no __pycache__ in the repository
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import games  # noqa: E402

ALPHA, GAMMA = 0.602, 0.101


def read_table(arbor):
    """The parameter table `arbor params` prints: {name: (default, min, max, step)}."""
    lines = subprocess.run([arbor, "params"], capture_output=True, text=True, check=True).stdout.splitlines()
    return {name: (int(default), int(low), int(high), float(step))
            for name, default, low, high, step in (line.split() for line in lines)}


def digest(path):
    """The SHA-256 of a binary, in hex: the engine a run's games were played by."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def stored(path):
    """A path as the state keeps it: relative to the repository where it lies inside, so that a
    run resumes from another checkout (a lent machine, a worker's copy)."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def gains(config, k):
    """{name: (a_k, c_k)} at iteration k (from 1)."""
    n = config["iterations"]
    big_a = n / 10
    out = {}
    for name, (_, _, _, step) in config["params"].items():
        c = step * n ** GAMMA
        a = config["r_end"] * step ** 2 * (big_a + n) ** ALPHA
        out[name] = (a / (big_a + k) ** ALPHA, c / k ** GAMMA)
    return out


def side(config, theta, ck, signs, sign):
    """The --param arguments of θ + sign·c_k·Δ, rounded and kept in range."""
    args = []
    for (name, (_, low, high, _)), delta in zip(config["params"].items(), signs):
        value = min(max(round(theta[name] + sign * ck[name][1] * delta), low), high)
        args += ["--param", f"{name}={value}"]
    return args


def plus_result(record):
    """Wins minus losses of the θ+ engine over the pair."""
    total = 0
    for game in record["games"]:
        won = {"1-0": game["black"], "0-1": game["white"]}.get(game["result"])
        total += (won == "plus") - (won == "minus")
    return total


def step(config, theta, k, signs, result):
    """θ after iteration k's result, each parameter kept in its range."""
    ck = gains(config, k)
    return {name: min(max(theta[name] + ck[name][0] / ck[name][1] * result * delta, low), high)
            for (name, (_, low, high, _)), delta in zip(config["params"].items(), signs)}


def signals(names, iterations):
    """Each parameter's signal: the sum of R·Δ_i over the pairs, divided by the spread that sum
    would have if R did not depend on Δ_i (the square root of the sum of R²). Each is about a
    standard normal while the pairs cannot yet tell the parameter's gradient from chance, so the
    sum of their squares near the parameter count says no parameter is known to have moved for
    a reason. All 0 while every pair is even."""
    spread = sum(it["result"] ** 2 for it in iterations) ** 0.5
    return {name: sum(it["result"] * (1 if it["signs"][i] == "+" else -1) for it in iterations) / spread if spread
            else 0.0 for i, name in enumerate(names)}


def summary(state, history_path):
    """Where a run stands: its pairs by result and how far the results are from chance
    ([`signals`]), then each parameter's move from its default in steps (the perturbation's size
    at the end) and its signal, largest move first."""
    config, theta = state["config"], state["theta"]
    lines = [line for line in history_path.read_text().splitlines() if line.strip()][:state.get("lines")]
    iterations = [it for line in lines for it in json.loads(line)["iterations"]]
    results = [it["result"] for it in iterations]
    signal = signals(list(config["params"]), iterations)
    counts = " ".join(f"{r:+d}: {results.count(r)}" for r in (-2, -1, 0, 1, 2))
    lines = [f"k = {state['k']} of {config['iterations']}, {config['nodes']} nodes a move: {len(results)} pairs "
             f"({2 * len(results)} games); pairs by θ+'s wins minus losses {counts}",
             f"signals: sum of squares {sum(z * z for z in signal.values()):.1f} against {len(signal)} from chance "
             f"alone; {sum(abs(z) > 2 for z in signal.values())} beyond 2 against {0.0455 * len(signal):.1f}"]
    moved = sorted(config["params"].items(), key=lambda item: -abs(theta[item[0]] - item[1][0]) / item[1][3])
    for name, (default, _, _, step) in moved:
        lines.append(f"{name:40} {default:>7} -> {theta[name]:10.2f}  {(theta[name] - default) / step:+.2f} steps"
                     f"  signal {signal[name]:+.2f}")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--state", required=True, help="the run's state file (JSON), created or resumed")
    ap.add_argument("--history", help="one JSON line a batch; default: the state file's name with .history.jsonl")
    ap.add_argument("--engine", default="target/tune/release/pbrain-arbor", help="pbrain-arbor of a tune build")
    ap.add_argument("--arbor", default="target/tune/release/arbor", help="arbor of the same build (its table)")
    ap.add_argument("--tune", default=".", help="regular expression: the parameters to move (default all)")
    ap.add_argument("--iterations", type=int, help="N, the planned length (needed to start a run)")
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--nodes", type=int, help="nodes per move (needed to start a run)")
    ap.add_argument("--openings", default=str(HERE / "openings" / "freestyle_15.txt"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, help="iterations played from one θ, default twice --workers; with"
                    " --asynchronous the pairs in flight, default --workers (give it for a cluster named by --scheduler)")
    ap.add_argument("--engine-args", help="arguments both sides take before their --param ones, for example"
                    " '--network none' (kept in the state)")
    ap.add_argument("--new-engine", action="store_true", help="resume with an engine binary other than the one"
                    " the state names (recorded in the state with the k it took over at)")
    ap.add_argument("--stop-after", type=int, help="stop once k reaches this (default N)")
    ap.add_argument("--asynchronous", action="store_true", help="step θ after each pair and draw the next pair"
                    " around the new θ, --batch pairs in flight (fishtest's way: no worker waits for a batch's"
                    " slowest pair, but the path depends on which pair ends first)")
    ap.add_argument("--summary", action="store_true", help="print where the run stands (pairs, their results, each"
                    " parameter's move from its default in SPSA steps, largest first, and how far each parameter's"
                    " results are from chance) and play nothing")
    ap.add_argument("--deadline", type=float, help="seconds: once a batch (or pair) has ended, start none that the"
                    " slowest so far says would end later than this after the start (a lent machine's time)")
    games.add_runner_arguments(ap)
    args = ap.parse_args()

    state_path = Path(args.state)
    history_path = Path(args.history or state_path.with_suffix(".history.jsonl"))
    if args.summary:
        print(summary(json.loads(state_path.read_text()), history_path))
        return
    if state_path.exists():
        state = json.loads(state_path.read_text())
        config, k, theta = state["config"], state["k"], state["theta"]
        # Settings given again must agree with the state's (a default left alone is not given).
        given = {name: getattr(args, name)
                 for name in ("iterations", "nodes", "r_end", "seed", "tune", "openings", "engine_args")}
        clash = [name for name, value in given.items()
                 if value is not None and value != ap.get_default(name)
                 and (stored(value) if name == "openings" else value) != config.get(name)]
        if clash:
            ap.error(f"{state_path} holds a run with other settings ({', '.join(clash)}); "
                     "a resumed run takes its settings from the state file")
        engine_digest = digest(args.engine)
        if config.get("engine_sha256") != engine_digest:
            if not args.new_engine:
                ap.error(f"{state_path} was played by another engine binary (SHA-256 "
                         f"{config.get('engine_sha256', 'not recorded')}, {args.engine} is {engine_digest}): "
                         "resume with the same build, or pass --new-engine to go on with this one")
            table = read_table(args.arbor)
            moved = [name for name, entry in config["params"].items() if list(table.get(name, ())) != list(entry)]
            if moved:
                ap.error(f"the new engine's table differs for {', '.join(moved)}: start a new run")
            config["engine_sha256"] = engine_digest
            config.setdefault("engine_changes", []).append({"k": k, "sha256": engine_digest})
        # A stop between the history line and the state leaves a line the state has not taken
        # in: the state counts its lines (a state written before it did, its k bounds them).
        if history_path.exists():
            lines = [line for line in history_path.read_text().splitlines() if line.strip()]
            kept = lines[:state["lines"]] if "lines" in state else [line for line in lines if json.loads(line)["k"] <= k]
            if len(kept) != len(lines):
                history_path.write_text("".join(line + "\n" for line in kept))
    else:
        if not (args.iterations and args.nodes):
            ap.error("a new run needs --iterations and --nodes")
        if history_path.exists() and history_path.read_text().strip():
            ap.error(f"{history_path} holds another run's history: move it away to start a new run")
        table = read_table(args.arbor)
        chosen = {name: entry for name, entry in table.items() if re.search(args.tune, name)}
        if not chosen:
            ap.error(f"--tune {args.tune!r} matches no parameter")
        config = {"iterations": args.iterations, "r_end": args.r_end, "nodes": args.nodes, "seed": args.seed,
                  "tune": args.tune, "openings": stored(args.openings), "engine_args": args.engine_args or "",
                  "engine_sha256": digest(args.engine), "params": chosen}
        k, theta = 0, {name: float(entry[0]) for name, entry in chosen.items()}
        state_path.parent.mkdir(parents=True, exist_ok=True)
    openings = games.read_openings(ROOT / config["openings"], 15)
    stop = min(args.stop_after or config["iterations"], config["iterations"])
    workers = 1 if args.direct else (args.workers or 2)
    batch = args.batch or (workers if args.asynchronous else 2 * workers)
    cli = games.referee_program(ap, args)
    engine = games.program(args.engine)
    shared_args = shlex.split(config.get("engine_args", ""))
    programs = dict([engine] + ([cli] if cli else []))
    print(f"spsa.py: {len(config['params'])} parameters, k = {k} of {config['iterations']}, "
          f"{config['nodes']} nodes a move, {'pairs in flight' if args.asynchronous else 'batches of'} {batch}, "
          f"state in {state_path}", flush=True)

    def make_task(kk, theta):
        """Iteration kk's game pair, played around θ, and its signs."""
        rng = random.Random(f"{config['seed']}:{kk}")
        signs = [rng.choice((-1, 1)) for _ in config["params"]]
        ck = gains(config, kk)
        engines = [{"name": name, "program": engine[0], "args": shared_args + side(config, theta, ck, signs, sign)}
                   for name, sign in (("plus", 1), ("minus", -1))]
        opening = rng.choice(openings)
        return {"pair": kk, "opening": opening, "size": 15, "rule": "freestyle",
                "limits": {"nodes": config["nodes"]}, "cli": cli and cli[0], "engines": engines}, signs

    lines = sum(1 for line in history_path.read_text().splitlines() if line.strip()) if history_path.exists() else 0

    def record(k, theta, iterations):
        """The history line, then the state (written whole and renamed: a stop leaves one or the other)."""
        nonlocal lines
        with history_path.open("a") as history:
            history.write(json.dumps({"k": k, "theta": theta, "iterations": iterations}) + "\n")
        lines += 1
        partial = state_path.with_suffix(".partial")
        partial.write_text(json.dumps({"config": config, "k": k, "theta": theta, "lines": lines}, indent=1) + "\n")
        os.replace(partial, state_path)

    def entry(kk, around, task, signs, result):
        """Iteration kk's record; `around` is the k of the θ its pair was drawn around."""
        return {"k": kk, "around": around, "opening": task["opening"],
                "signs": "".join("+" if s > 0 else "-" for s in signs), "result": result}

    started, slowest = time.monotonic(), 0.0

    live = {}

    def past_deadline():
        """Whether work as slow as the slowest so far (pairs still in flight counted at their age),
        started now, would end past --deadline."""
        now = time.monotonic()
        longest = max([slowest] + [now - begun for _, _, begun, _ in live.values()])
        return bool(args.deadline and slowest and now - started + longest > args.deadline)

    with games.runner(args, programs) as play:
        if args.asynchronous:
            # Fishtest's way: each pair is drawn around θ as it stands when a worker is free, and
            # its result steps θ as soon as it ends. k is the latest iteration applied; pairs in
            # flight at a stop are dropped, and their iterations are not played again.
            last, halted = k, False

            def pairs():
                nonlocal last, halted
                while last < stop:
                    if past_deadline():
                        halted = True
                        return
                    last += 1
                    task, signs = make_task(last, theta)
                    live[last] = (task, signs, time.monotonic(), k)
                    yield task

            def finished(answer):
                nonlocal theta, k, slowest
                kk = answer["pair"]
                task, signs, begun, around = live.pop(kk)
                result = plus_result(answer)
                theta = step(config, theta, kk, signs, result)
                k = max(k, kk)
                record(k, theta, [entry(kk, around, task, signs, result)])
                slowest = max(slowest, time.monotonic() - begun)
                print(f"k = {kk}: result {result}", flush=True)

            play(pairs(), finished, window=batch)
            if halted:
                print(f"spsa.py: stopped at k = {k}: another pair would pass the deadline", flush=True)
        else:
            while k < stop:
                if past_deadline():
                    print(f"spsa.py: stopped at k = {k}: another batch would pass the deadline", flush=True)
                    break
                batch_start = time.monotonic()
                ks = range(k + 1, min(k + batch, stop) + 1)
                drawn = {kk: make_task(kk, theta) for kk in ks}
                results = {}
                play([task for task, _ in drawn.values()],
                     lambda answer: results.__setitem__(answer["pair"], plus_result(answer)))
                for kk in ks:
                    theta = step(config, theta, kk, drawn[kk][1], results[kk])
                k = ks[-1]
                record(k, theta, [entry(kk, ks[0] - 1, task, signs, results[kk]) for kk, (task, signs) in drawn.items()])
                slowest = max(slowest, time.monotonic() - batch_start)
                print(f"k = {k}: results {[results[kk] for kk in ks]}", flush=True)
    for name, value in theta.items():
        print(f"{name}={round(value)}  # default {config['params'][name][0]}, now {value:.2f}")


if __name__ == "__main__":
    main()
