#!/usr/bin/env python3
"""One-thread speed of two or more builds, measured in alternated runs (python3 stdlib only).

A change that only makes nodes cheaper cannot be seen at fixed nodes, and timed runs on a shared
machine vary by 10 % and more from one minute to the next, so this runs the builds back to back
on each item, round after round (the order rotates each round), and compares them pair by pair.
Each round runs, per build:
- `arbor bench DEPTH 1` and reads its `Nodes/second` (the search alone: no start-up, no table
  clearing);
- with `--positions`, each position of the file (ID MOVES a line, as
  scripts/positions/middlegame-15.txt) through a fresh `pbrain-arbor` from the same folder, one
  thread, `--nodes` nodes, and reads the nodes per second of its last MESSAGE line (a position
  the first build answers without a search, or with one of under a tenth of the nodes, such as
  a forced block or a win found early, is left out).
Per build it prints the median bench rate and the geometric mean over the positions of each
position's median rate; against the first build, the geometric mean of the paired ratios and in
how many pairs it was faster (so the ratio is not the quotient of the two printed rates). With `--network NET`
every build plays that evaluation (`arbor bench --network NET`, `pbrain-arbor --network NET`). Run it
on an idle machine and say so. The positions are read as freestyle 15x15; the filter compares
the nodes of the last iteration the probe completed, not all it searched.

Usage:
  python3 scripts/speed.py --rounds 10 --positions scripts/positions/middlegame-15.txt \\
      BASE/target/release NEW/target/release
"""
import argparse
import math
import re
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from depth_table import ARBOR_RE, read_positions  # noqa: E402
from solve_rate import ask_all  # noqa: E402

BENCH_RE = re.compile(r"^Nodes/second: (\d+)", re.M)


def bench_rate(folder, depth, network):
    command = [str(folder / "arbor"), "bench", *network, str(depth), "1"]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return int(BENCH_RE.search(out)[1])


def position_search(folder, position, nodes, network):
    """(nodes, nodes per second) of the last iteration reported, or None without a search."""
    _, _, messages = ask_all([str(folder / "pbrain-arbor"), *network], position, 600_000, nodes, 120)
    found = [m for m in map(ARBOR_RE.search, messages) if m]
    return (int(found[-1][3]), int(found[-1][4])) if found else None


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("builds", nargs="+", type=Path,
                    help="folders holding arbor and pbrain-arbor; the first is the reference")
    ap.add_argument("--rounds", type=int, default=10,
                    help="rounds (default 10: an even count lets two builds go first equally often)")
    ap.add_argument("--depth", type=int, default=13, help="bench depth (default 13)")
    ap.add_argument("--positions", help="positions file to search at fixed nodes as well")
    ap.add_argument("--nodes", type=int, default=1_000_000, help="nodes per position (default 1,000,000)")
    ap.add_argument("--network", help="the evaluation every build plays (none, embedded or a file), "
                    "passed to arbor bench and pbrain-arbor; default their own")
    a = ap.parse_args()
    if a.rounds < 1:
        ap.error("--rounds must be 1 or more")
    network = ["--network", a.network] if a.network else []
    builds = [b.resolve() for b in a.builds]
    positions = read_positions(a.positions) if a.positions else []
    # A position answered without a search (a forced reply) or by a short one (a win found
    # early) has no rate worth measuring.
    searched = []
    for p in positions:
        probe = position_search(builds[0], p, a.nodes, network)
        if probe and probe[0] >= a.nodes // 10:
            searched.append(p)
        else:
            print(f"{p['id']}: {'a short search' if probe else 'no search'}, left out")
    positions = searched
    bench = [[] for _ in builds]
    rates = [[[] for _ in positions] for _ in builds]
    for r in range(a.rounds):
        # The builds run back to back on each item, so that a slow drift of the machine's speed
        # hits them alike; the order rotates each round.
        order = [(r + k) % len(builds) for k in range(len(builds))]
        for b in order:
            bench[b].append(bench_rate(builds[b], a.depth, network))
        for p, position in enumerate(positions):
            for b in order:
                found = position_search(builds[b], position, a.nodes, network)
                if found is None:
                    print(f"round {r + 1}: {builds[b]} reported no search on {position['id']}; "
                          "that item of the round is left out for every build")
                rates[b][p].append(found[1] if found else None)
        for p in range(len(positions)):
            if any(rates[b][p][-1] is None for b in range(len(builds))):
                for b in range(len(builds)):
                    rates[b][p][-1] = None
        print(f"round {r + 1}: bench " + ", ".join(f"{bench[b][-1]}" for b in range(len(builds))), flush=True)
    print(f"{a.rounds} rounds, bench depth {a.depth}"
          + (f", {len(positions)} positions at {a.nodes} nodes" if positions else "") + ", one thread")
    print("per build: median bench n/s; geometric mean over positions of the median n/s; against the "
          "first build, the geometric mean of the paired ratios (same round, same item) and how "
          "often it was faster")
    for b, folder in enumerate(builds):
        line = f"{str(folder):<40} bench {statistics.median(bench[b]):>9.0f}"
        if b:
            ratios = [x / y for x, y in zip(bench[b], bench[0])]
            line += f" ({geomean(ratios):.3f}x, faster {sum(q > 1 for q in ratios)}/{len(ratios)})"
        if positions:
            medians = [statistics.median(x for x in r if x is not None) for r in rates[b]
                       if any(x is not None for x in r)]
            line += f"; positions {geomean(medians):>9.0f}"
            if b:
                ratios = [x / y for p in range(len(positions)) for x, y in zip(rates[b][p], rates[0][p])
                          if x is not None and y is not None]
                line += f" ({geomean(ratios):.3f}x, faster {sum(q > 1 for q in ratios)}/{len(ratios)})"
        print(line)


if __name__ == "__main__":
    main()
