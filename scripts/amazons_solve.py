#!/usr/bin/env python3
"""Splits an Amazons proof over the game runner's Dask cluster: the position after each legal
move of a position is solved as one task (`arbor solve amazons`, N nodes), on a local cluster,
on any cluster named by --scheduler/--scheduler-file, or here one after another (--direct), as
scripts/games.py runs games (its runner, its options). This is how Müller's group split 6x5:
prove each of the opponent's replies to a first move lost.

A solved list (--solved, the `arbor solve --solved` format: `SETUP: white wins` lines) is
shared: every task starts from the list as it was when the run started, and the positions a
task settles at some cost come back with its answer and are appended to the list, so a later
run (here or on other machines) starts further on. Results: one JSON line per move in --out
({"move", "setup", "winner", "verdict", "nodes", "seconds", "run"}), written as tasks end; the same
command again solves only the moves the file lacks (raise --nodes for a new run with a new
file). At the end: how many moves win and lose for the side to move, and how many are unproved.

Usage:
  target/runner-venv/bin/python scripts/amazons_solve.py --arbor target/release/arbor --size 6x5 \\
      --position "white a2 b4 e1 f2 black a4 b5 e5 f4 arrows b3 tomove black" --nodes 10000000 \\
      --solved target/solve/6x5.txt --out target/solve/6x5-replies.jsonl [--workers 2 | --scheduler tcp://HOST:8786]
"""
import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import games  # noqa: E402

FILES = "abcdefghijk"
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def read_setup(text, width, height):
    """`white a2 b1 black a4 arrows c3 tomove black` -> ({square: 'white'|'black'|'arrow'},
    side to move); squares are (file, rank) from 0."""
    cells, side, section = {}, "white", None
    for token in re.split(r"[\s,]+", text.strip().lower()):
        if token in ("white", "black", "arrows", "tomove") and section != "tomove":
            section = token
        elif section == "tomove":
            side, section = token, None
        elif section:
            file, rank = FILES.index(token[0]), int(token[1:]) - 1
            if file >= width or not 0 <= rank < height:
                raise ValueError(f"{token} is off the {width}x{height} board")
            cells[(file, rank)] = "arrow" if section == "arrows" else section
        else:
            raise ValueError(f"'{token}' belongs to no section")
    return cells, side


def name(square):
    return f"{FILES[square[0]]}{square[1] + 1}"


def reach(cells, square, width, height):
    for df, dr in DIRECTIONS:
        file, rank = square[0] + df, square[1] + dr
        while 0 <= file < width and 0 <= rank < height and (file, rank) not in cells:
            yield file, rank
            file, rank = file + df, rank + dr


def moves_and_setups(cells, side, width, height):
    """Each legal move of `side` as (`b1-b3/d3`, the set-up text of the position after it)."""
    other = "black" if side == "white" else "white"
    for start in sorted(square for square, what in cells.items() if what == side):
        for to in reach(cells, start, width, height):
            after = {square: what for square, what in cells.items() if square != start}
            after[to] = side
            for arrow in reach(after, to, width, height):
                final = dict(after)
                final[arrow] = "arrow"
                setup = " ".join(
                    " ".join([section] + [name(sq) for sq, what in sorted(final.items()) if what == kind])
                    for section, kind in (("white", "white"), ("black", "black"), ("arrows", "arrow")))
                yield f"{name(start)}-{name(to)}/{name(arrow)}", f"{setup} tomove {other}"


def solve_one(task, programs):
    """One task: `arbor solve` on the position after one move ({move, setup, size, nodes, arbor,
    solved: the list's text}); the verdict line and the list lines it added."""
    arbor = games.materialise(task["arbor"], programs[task["arbor"]])
    with tempfile.TemporaryDirectory(prefix="arbor-solve-") as folder:
        listed = Path(folder) / "solved.txt"
        listed.write_text(task["solved"])
        began = time.monotonic()
        run = subprocess.run([arbor, "solve", "amazons", "--size", task["size"], "--position", task["setup"],
                              "--nodes", str(task["nodes"]), "--solved", str(listed)],
                             capture_output=True, text=True, check=True)
        added = listed.read_text()[len(task["solved"]):]
    verdict = run.stdout.strip()
    nodes = int(re.search(r"(\d+) nodes", verdict).group(1))
    winner = verdict.split()[0] if " wins" in verdict else None
    return {"move": task["move"], "setup": task["setup"], "winner": winner, "verdict": verdict.split(" (")[0],
            "nodes": nodes,
            "seconds": round(time.monotonic() - began, 3), "added": added}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arbor", required=True, help="the arbor executable")
    ap.add_argument("--size", default="10x10", help="WxH, as arbor takes it")
    ap.add_argument("--position", required=True, help="set-up text, as `arbor solve --position` takes it")
    ap.add_argument("--nodes", type=int, required=True, help="nodes for each move's position")
    ap.add_argument("--solved", help="the shared solved list (read, and appended to)")
    ap.add_argument("--out", required=True, help="results, one JSON line a move")
    games.add_runner_arguments(ap, referee=False)
    args = ap.parse_args()
    width, height = (int(n) for n in args.size.lower().split("x")) if "x" in args.size.lower() else (
        int(args.size), int(args.size))
    position = args.position
    cells, side = read_setup(position, width, height)
    arbor = games.program(args.arbor)
    run = hashlib.sha256(json.dumps([arbor[0], args.size, position, args.nodes]).encode()).hexdigest()[:16]
    out = Path(args.out)
    done = {}
    if out.exists():
        for line in out.read_text().splitlines():
            record = json.loads(line)
            if record["run"] != run:
                sys.exit(f"{out} holds another run (engine, position or nodes differ): use another --out")
            done[record["move"]] = record
    solved_path = Path(args.solved) if args.solved else None
    solved = solved_path.read_text() if solved_path and solved_path.exists() else ""
    moves = list(moves_and_setups(cells, side, width, height))
    tasks = [{"move": move, "setup": setup, "size": args.size, "nodes": args.nodes, "arbor": arbor[0],
              "solved": solved} for move, setup in moves if move not in done]
    print(f"amazons_solve.py: {len(moves)} moves, {len(done)} solved before, {len(tasks)} to solve", flush=True)

    def on_result(result):
        added = result.pop("added")
        if solved_path and added:
            with solved_path.open("a") as listed:
                listed.write(added)
        result["run"] = run
        done[result["move"]] = result
        with out.open("a") as results:
            results.write(json.dumps(result) + "\n")
        print(f"{result['move']}: {result['verdict']} ({result['nodes']} nodes, {result['seconds']} s)", flush=True)

    with games.runner(args, {arbor[0]: arbor[1]}, work=solve_one) as play:
        play(tasks, on_result)
    wins = sum(record["winner"] == side for record in done.values())
    losses = sum(record["winner"] not in (None, side) for record in done.values())
    print(f"{len(moves)} moves: {wins} win for {side}, {losses} lose, {len(moves) - wins - losses} unproved"
          + ("" if len(done) == len(moves) else f" ({len(moves) - len(done)} not run)"))


if __name__ == "__main__":
    main()
