#!/usr/bin/env python3
"""Depth completed in a fixed time by Gomocup (pbrain) engines, side by side (python3 stdlib only).

Each position of a positions file (ID MOVES a line, as scripts/positions/middlegame-15.txt) is
given to a fresh process of each engine: BOARD, one thread, the turn time asked for. The table
shows, per engine, the last depth the engine reported as completed, its selective depth and its
nodes per second, read from the engine's MESSAGE lines; Arbor writes `MESSAGE depth D-S ... n N
n/s R`, Rapfi `MESSAGE Speed R | Depth D-S | ... | Node N`. The engines run one after the other,
so a busy machine slows both alike only roughly: compare engines within one run, and say the load.

Usage:
  python3 scripts/depth_table.py --time 1 --engine target/release/pbrain-arbor \\
      --engine /path/to/pbrain-rapfi scripts/positions/middlegame-15.txt
"""
import argparse
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solve_rate import ask_all, command, parse_pos  # noqa: E402

ARBOR_RE = re.compile(r"MESSAGE depth (\d+)-(\d+) .*\bn (\d+) n/s (\d+)")
RAPFI_RE = re.compile(r"MESSAGE Speed ([\d.]+)([KM]?) \| Depth (\d+)-(\d+) \|")
SCALE = {"": 1, "K": 1_000, "M": 1_000_000}


def read_positions(path):
    positions = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) != 2:
            sys.exit(f"{path}:{number}: expected ID MOVES")
        positions.append(dict(id=fields[0], rule=0, size=15, moves=parse_pos(fields[1], 15)))
    return positions


def depth_of(messages):
    """(depth, seldepth, nodes per second) of the last completed iteration reported, or None."""
    found = None
    for line in messages:
        if m := ARBOR_RE.search(line):
            found = (int(m[1]), int(m[2]), int(m[4]))
        elif m := RAPFI_RE.search(line):
            found = (int(m[3]), int(m[4]), int(float(m[1]) * SCALE[m[2]]))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("positions", help="positions file: ID MOVES a line")
    ap.add_argument("--engine", action="append", required=True,
                    help="engine command (with its arguments); give it once per engine")
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position (INFO timeout_turn)")
    a = ap.parse_args()
    engines = [command(e) for e in a.engine]
    for engine in engines:
        engine[0] = str(Path(engine[0]).resolve()) if "/" in engine[0] else engine[0]
    names = [Path(e[0]).name for e in engines]
    positions = read_positions(a.positions)
    turn_ms = int(a.time * 1000)
    print(f"{len(positions)} positions, {a.time:g} s each, one thread; depth-seldepth, kN/s")
    print(f"{'position':<10}" + "".join(f"{name:>24}" for name in names))
    depths = [[] for _ in engines]
    rates = [[] for _ in engines]
    for p in positions:
        row = f"{p['id']:<10}"
        for i, engine in enumerate(engines):
            _, _, messages = ask_all(engine, p, turn_ms, 0, turn_ms / 1000 + 10)
            found = depth_of(messages)
            if found is None:
                row += f"{'no depth reported':>24}"
                continue
            depth, seldepth, rate = found
            depths[i].append(depth)
            rates[i].append(rate)
            row += f"{f'{depth}-{seldepth}, {rate // 1000}k':>24}"
        print(row, flush=True)
    summary = f"{'median':<10}"
    for d, r in zip(depths, rates):
        summary += f"{f'{statistics.median(d):g}, {statistics.median(r) // 1000:.0f}k' if d else '-':>24}"
    print(summary)


if __name__ == "__main__":
    main()
