#!/usr/bin/env python3
"""The split proof (scripts/amazons_solve.py) gives the same verdicts through Dask as here.

A late 5x5 position's 84 moves are solved at a fixed node count three ways: directly (in two
runs, the second resuming the first's file), on a local cluster of two workers, and, for the
verdicts, by `arbor solve --each-move` in one process. Every task starts from the same solved
list, so node counts and verdicts do not depend on the order the workers take the tasks in.

Run with the runner's environment:  target/runner-venv/bin/python tests/solve_cluster.py ARBOR
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
from checks import report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
POSITION = "white d1 b2 b3 e3 black a4 e4 b5 c5 arrows a1 b1 c1 c2 c4 d4 tomove white"
NODES = "60000"


def split(arbor, folder, label, *where, solved=None):
    out = folder / f"{label}.jsonl"
    extra = ["--solved", str(solved)] if solved else []
    run = subprocess.run([PYTHON, str(ROOT / "scripts/amazons_solve.py"), "--arbor", arbor, "--size", "5x5",
                          "--position", POSITION, "--nodes", NODES, "--out", str(out), *extra, *where],
                         check=True, timeout=300, capture_output=True, text=True)
    records = {}
    for line in out.read_text().splitlines():
        record = json.loads(line)
        records[record["move"]] = (record["winner"], record["nodes"])
    return records, run.stdout


def main():
    arbor = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/arbor")
    with tempfile.TemporaryDirectory(prefix="arbor-solve-test-") as folder:
        folder = Path(folder)
        # A first run cut short: the file gets a few moves, then a second run adds the rest.
        partial = subprocess.run([PYTHON, str(ROOT / "scripts/amazons_solve.py"), "--arbor", arbor, "--size", "5x5",
                                  "--position", POSITION, "--nodes", NODES, "--out", str(folder / "direct.jsonl"),
                                  "--direct"], timeout=300, capture_output=True, text=True)
        lines = (folder / "direct.jsonl").read_text().splitlines()
        (folder / "direct.jsonl").write_text("\n".join(lines[:10]) + "\n")
        direct, direct_report = split(arbor, folder, "direct", "--direct")
        local, _ = split(arbor, folder, "local", "--workers", "2")
        listed, _ = split(arbor, folder, "listed", "--direct", solved=folder / "list.txt")
        list_lines = len((folder / "list.txt").read_text().splitlines())
        helped, _ = split(arbor, folder, "helped", "--direct", solved=folder / "list.txt")
        each = subprocess.run([arbor, "solve", "amazons", "--size", "5x5", "--position", POSITION, "--nodes", NODES,
                               "--each-move"], check=True, capture_output=True, text=True).stdout
    proved = {move: winner for move, (winner, _) in direct.items() if winner}
    one_table = {m.group(1): m.group(2) for m in re.finditer(r"^(\S+): (\w+) wins", each, re.MULTILINE)}
    checks = {
        "the first run solved all 84 moves": partial.returncode == 0 and len(lines) == 84,
        "the resumed run solved the 74 moves its file lacked": "10 solved before, 74 to solve" in direct_report,
        "84 moves, each once": len(direct) == 84,
        "the local cluster gave the same verdicts and node counts": local == direct,
        "a run writing the solved list gave the same verdicts": listed == direct,
        "the list got the positions settled at 10,000 nodes or more": list_lines > 0,
        "a run given the list took fewer nodes and proved no less": sum(n for _, n in helped.values()) < sum(
            n for _, n in direct.values()) and all(helped[m][0] == w for m, w in proved.items()),
        "the moves proved hold both verdicts": set(proved.values()) == {"white", "black"},
        "arbor solve --each-move agrees wherever both proved": all(
            one_table[move] == winner for move, winner in proved.items() if move in one_table),
    }
    report("solve", checks, f"({len(proved)} of {len(direct)} moves proved)")


if __name__ == "__main__":
    main()
