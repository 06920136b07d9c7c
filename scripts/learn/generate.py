#!/usr/bin/env python3
"""Generates training data with `arbor datagen` as tasks of the game runner's cluster
(scripts/games.py: a local Dask cluster by default, --scheduler ADDRESS for machines joined to
one, --direct for none): one task per shard, a shard being --games games of one seed, written
to OUT/PREFIX-sSEED.bin as it ends.

A shard's games depend only on the settings, the openings and its seed, so shards made on any
machine add up to one data set, and a run started again plays only what is missing: a finished
shard comes back at once, and a shorter one (made with a smaller --games) travels with its task
and is played on from its last game. A shard is written only when its task ends, so an
interrupted run loses the shards in play: keep them small (the default, 200 games, is about a
minute of one core at 10,000 nodes).

Usage:
  target/runner-venv/bin/python scripts/learn/generate.py --arbor target/release/arbor \\
      --openings scripts/openings/freestyle_15.txt --seeds 1-400 --out target/data/freestyle15 \\
      [--nodes 10000] [--games 200] [--network embedded] \
      [--workers 2 | --scheduler tcp://HOST:8786 | --direct]

--network embedded plays the engine with the network built into the executable (a second
generation of data from the first network's games); a shard's header does not name the
network, so give such a run a prefix of its own.
"""
import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import games  # noqa: E402


def make_shard(task, programs):
    """One task on a worker: runs `arbor datagen` for the task's seed, from the partial file sent
    along if any, and answers with the finished file's bytes."""
    with tempfile.TemporaryDirectory(prefix="arbor-shard-") as folder:
        out, openings = Path(folder) / "shard.bin", Path(folder) / "openings.txt"
        out.write_bytes(task["partial"])
        openings.write_text(task["openings"])
        arbor = games.materialise(task["arbor"], programs[task["arbor"]])
        command = [arbor, "datagen", "--out", str(out), "--openings", str(openings), *task["arguments"],
                   "--seed", str(task["seed"])]
        started = time.time()
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"seed {task['seed']}: {' '.join(command)}: {run.stderr.strip()}")
        return {"seed": task["seed"], "bytes": out.read_bytes(), "seconds": time.time() - started,
                "report": run.stderr.strip().splitlines()[-1:]}


def seed_range(text):
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arbor", required=True, help="the arbor executable that plays the games")
    ap.add_argument("--openings", required=True)
    ap.add_argument("--seeds", required=True, type=seed_range, help="FIRST-LAST, one shard each")
    ap.add_argument("--out", required=True, help="folder and file-name prefix of the shards")
    ap.add_argument("--games", type=int, default=200, help="games a shard")
    ap.add_argument("--nodes", type=int, default=10_000)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--rule", default="freestyle")
    ap.add_argument("--random-plies", type=int, default=2)
    ap.add_argument("--network", choices=["none", "embedded"], default="none",
                    help="the evaluation the engine plays (embedded: the executable's network)")
    games.add_runner_arguments(ap)
    args = ap.parse_args()

    digest, program = games.program(args.arbor)
    arguments = ["--games", str(args.games), "--nodes", str(args.nodes), "--size", str(args.size),
                 "--rule", args.rule, "--random-plies", str(args.random_plies), "--network", args.network]
    openings = Path(args.openings).read_text()
    prefix = Path(args.out)
    prefix.parent.mkdir(parents=True, exist_ok=True)

    def shard_path(seed):
        return prefix.parent / f"{prefix.name}-s{seed}.bin"

    tasks = [{"seed": seed, "arbor": digest, "openings": openings, "arguments": arguments,
              "partial": shard_path(seed).read_bytes() if shard_path(seed).exists() else b""}
             for seed in args.seeds]
    started, done = time.time(), 0
    print(f"generate.py: {len(tasks)} shards of {args.games} games, {args.rule} {args.size}, {args.nodes} nodes,"
          f" network {args.network}", flush=True)

    def record(result):
        nonlocal done
        path = shard_path(result["seed"])
        partial = path.with_suffix(".part")
        partial.write_bytes(result["bytes"])
        partial.replace(path)
        done += 1
        print(f"shard {result['seed']}: {result['report'][0] if result['report'] else 'already whole'}"
              f" ({result['seconds']:.0f} s); {done} of {len(tasks)} after {time.time() - started:.0f} s", flush=True)
        return False

    with games.runner(args, {digest: program}, work=make_shard) as play:
        play(tasks, record)


if __name__ == "__main__":
    main()
