#!/usr/bin/env python3
"""The classical evaluation's figures on a position set's held-out positions, to put beside the
network's (train.py): the value accuracy of the static evaluation's sign (positions whose game
was won or lost: the side it favours won) and the move-match rate of the search's move ordering
(the move it tries first is the search's best move), both through `arbor evaluate`.

With --network FILE (an exported network, such as the embedded
`src/gomoku/network/freestyle15.arbn`), also the figures of the engine's integer network
alone and of the mix the engine plays (network and classical evaluation at --share per cent
of the network, as `gomoku_network_share` mixes them): value accuracy, and value loss against
train.py's target (--lam of the result, the rest the search's score on the logistic scale
fitted to the set's training positions), so that networks trained on different sets compare
on one set of positions.

Usage:
  target/learn-venv/bin/python scripts/learn/baseline.py target/learn/set.npz --arbor target/release/arbor \\
      [--network FILE [--share 50] [--lam 0.5]]
"""
import argparse
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from train import fit_scale  # noqa: E402

# The integer of a value logit of 1.0 (MODEL.md: activations at 1023, weights at 1024).
LOGIT_ONE = 1023 * 1024


def evaluate(arbor, boards, size, rule, network):
    rows = "".join("".join(".XO"[c] for c in board.ravel()) + "\n" for board in boards)
    answer = subprocess.run([arbor, "evaluate", "--network", network, "--size", str(size), "--rule", rule],
                            input=rows, capture_output=True, text=True, check=True).stdout.splitlines()
    if len(answer) != len(boards) or any(line.startswith("error") for line in answer):
        sys.exit(f"baseline.py: arbor evaluate answered {len(answer)} lines for {len(boards)} positions")
    scores = np.array([int(line.split()[0]) for line in answer])
    first = [line.split()[1] for line in answer]
    first = np.array([-1 if m == "none" else int(m.split(",")[1]) * size + int(m.split(",")[0]) for m in first])
    return scores, first


def log_loss(logit, target):
    logit = np.clip(logit, -50, 50)
    return float(np.mean(np.logaddexp(0, logit) - target * logit))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="a position set made by data.py")
    ap.add_argument("--arbor", default="target/release/arbor")
    ap.add_argument("--network", help="an exported network file: add its figures and the mix's")
    ap.add_argument("--share", type=int, default=50, help="the network's share of the mix, per cent")
    ap.add_argument("--lam", type=float, default=0.5, help="share of the game result in the value target")
    args = ap.parse_args()
    data = np.load(args.data)
    size, rule = int(data["size"]), str(data["rule"])
    held = data["heldout"]
    boards, result, best = data["board"][held], data["result"][held], data["best"][held]
    classical, first = evaluate(args.arbor, boards, size, rule, "none")
    decided = result != 0.5

    def accuracy(logit):
        return np.mean((logit[decided] > 0) == (result[decided] > 0.5))

    print(f"{len(boards)} held-out positions: value accuracy {accuracy(classical):.4f} ({decided.sum()} decided),"
          f" move match {np.mean(first == best):.4f}")
    if args.network:
        scale = struct.unpack("<f", Path(args.network).read_bytes()[12:16])[0]
        fitted = fit_scale(data["score"][~held], data["result"][~held])
        target = args.lam * result + (1 - args.lam) / (1 + np.exp(-np.clip(data["score"][held] / fitted, -50, 50)))
        value, first = evaluate(args.arbor, boards, size, rule, args.network)
        logit = value / LOGIT_ONE
        mixed = (args.share * logit + (100 - args.share) * classical / scale) / 100
        print(f"network {args.network}: value accuracy {accuracy(logit):.4f}, value loss"
              f" {log_loss(logit, target):.4f}, move match {np.mean(first == best):.4f}; mixed at"
              f" {args.share} %: value accuracy {accuracy(mixed):.4f}, value loss {log_loss(mixed, target):.4f}"
              f" (the classical alone, on the network's scale {scale:.0f}: value loss"
              f" {log_loss(classical / scale, target):.4f})")


if __name__ == "__main__":
    main()
