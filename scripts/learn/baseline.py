#!/usr/bin/env python3
"""The present evaluation's figures on a position set's held-out positions, to put beside the
network's (train.py): the value accuracy of the static evaluation's sign (positions whose game
was won or lost: the side it favours won) and the move-match rate of the search's move ordering
(the move it tries first is the search's best move), both through `arbor evaluate`.

Usage:
  target/learn-venv/bin/python scripts/learn/baseline.py target/learn/set.npz --arbor target/release/arbor
"""
import argparse
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="a position set made by data.py")
    ap.add_argument("--arbor", default="target/release/arbor")
    args = ap.parse_args()
    data = np.load(args.data)
    size, rule = int(data["size"]), str(data["rule"])
    held = data["heldout"]
    boards, result, best = data["board"][held], data["result"][held], data["best"][held]
    rows = "".join("".join(".XO"[c] for c in board.ravel()) + "\n" for board in boards)
    answer = subprocess.run([args.arbor, "evaluate", "--size", str(size), "--rule", rule], input=rows,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    if len(answer) != len(boards) or any(line.startswith("error") for line in answer):
        sys.exit(f"baseline.py: arbor evaluate answered {len(answer)} lines for {len(boards)} positions")
    scores = np.array([int(line.split()[0]) for line in answer])
    first = [line.split()[1] for line in answer]
    first = np.array([-1 if m == "none" else int(m.split(",")[1]) * size + int(m.split(",")[0]) for m in first])
    decided = result != 0.5
    accuracy = np.mean((scores[decided] > 0) == (result[decided] > 0.5))
    print(f"{len(boards)} held-out positions: value accuracy {accuracy:.4f} ({decided.sum()} decided),"
          f" move match {np.mean(first == best):.4f}")


if __name__ == "__main__":
    main()
