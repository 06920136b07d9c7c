#!/usr/bin/env python3
"""fit_eval.py: fit the Gomoku evaluation's weights to game results (Texel's method).

The evaluation (src/gomoku/eval.rs) is linear in per-side counts of shapes, kill shapes and
two-line combinations, with one weight table for the side to move and one for the side
waiting. This script reads finished games from c-gomoku-cli SGF files, has `arbor features`
turn every position the search would evaluate statically into those counts, fits a logistic
regression of the side to move's result on them (a game repeated move for move counts once),
and prints the weights as the tuner's parameters (src/params.rs), one `NAME=VALUE` a line: the
defaults to write there, or `--param` arguments for a build with `--features tune`.

    python3 scripts/fit_eval.py --arbor target/release/arbor games1.sgf games2.sgf ...

With --holdout K every K-th distinct game is left out of the fit, and the held-out positions'
cross-entropy is printed for the fit and for the weights `arbor params` gives now: as they are, and at the
single scale that suits these games best (a scale alone is a calibration, which the search's
margins would not follow), so a refit is compared with the present weights on games neither saw.

Needs numpy (pip install numpy). Use freestyle 15x15 games between strong players from varied
openings; a few thousand games give tens of thousands of positions.
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True                   # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spsa import read_table  # noqa: E402

SHAPES = ["Dead", "SleepingOne", "LiveOne", "SleepingTwo", "LiveTwo", "SleepingThree", "JumpLiveThree",
          "LiveThree", "JumpFour", "RushFour", "LiveFour", "Five", "Overline", "DoubleFour"]
THREATS = ["Forbidden", "None", "Three", "Four", "DoubleThree", "FourThree", "LiveFour", "Five"]
COMBOS = ["None", "TwoTwos", "SleepingThreePlus", "ThreePlus", "FourPlus"]
SIDE = len(SHAPES) + len(THREATS) + len(COMBOS)
COMBO_START = len(SHAPES) + len(THREATS)
# Eval units per logit of the win probability: the calibration of the hand-made table this fit
# replaced, so the search's margins (reverse futility, null move) keep their meaning.
UNITS_PER_LOGIT = 628
# Features that carry nothing: the Dead shape, cells that are forbidden or make no threat, and
# cells that build no combination.
IGNORED = {0, len(SHAPES), len(SHAPES) + 1, COMBO_START}
# Shapes that must be worth strictly more than the one before (the unit test's ladder).
LADDER = [1, 2, 3, 4, 6, 7, 10, 11]


def games_from_sgf(paths):
    """Yields 'RESULT x,y x,y ...' lines from c-gomoku-cli SGF files."""
    for path in paths:
        with open(path) as f:
            text = f.read()
        for game in text.split("(;FF")[1:]:
            result = re.search(r"RE\[([^\]]*)\]", game)
            code = {"B+1": "B", "W+1": "W", "0": "D"}.get(result.group(1) if result else "")
            if code is None:
                continue
            moves = re.findall(r";[BW]\[([a-z])([a-z])\]", game)
            yield code + " " + " ".join(f"{ord(x) - 97},{ord(y) - 97}" for x, y in moves)


def fit(labels, features, l2):
    """Logistic regression by Newton's method on standardised features; returns weights per
    feature (in logits per count) and the intercept."""
    keep = [i for i in range(2 * SIDE) if i % SIDE not in IGNORED]
    x = features[:, keep]
    mean, spread = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mean) / spread, np.ones((len(labels), 1))])
    w = np.zeros(z.shape[1])
    penalty = l2 * np.eye(len(w))
    penalty[-1, -1] = 0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(z @ w)))
        gradient = z.T @ (p - labels) / len(labels) + penalty @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z / len(labels) + penalty
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    p = np.clip(1 / (1 + np.exp(-(z @ w))), 1e-9, 1 - 1e-9)
    loss = -np.mean(labels * np.log(p) + (1 - labels) * np.log(1 - p))
    full = np.zeros(2 * SIDE)
    full[keep] = w[:-1] / spread
    return full, w[-1] - (mean / spread) @ w[:-1], loss


def features_of(arbor, games):
    """The label and features of every position `arbor features` reads in `games`."""
    run = subprocess.run([arbor, "features"], input="\n".join(games) + "\n", capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"fit_eval.py: arbor features failed: {run.stderr.strip()}")
    return np.array([[float(v) for v in line.split()] for line in run.stdout.splitlines()]).reshape(-1, 2 * SIDE + 1)


def cross_entropy(weights, intercept, rows):
    """Mean cross-entropy of the results in `rows` under a linear model in logits."""
    p = np.clip(1 / (1 + np.exp(-(rows[:, 1:] @ weights + intercept))), 1e-9, 1 - 1e-9)
    labels = rows[:, 0]
    return -np.mean(labels * np.log(p) + (1 - labels) * np.log(1 - p))


def snake(name):
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


# The parameters of each table, per role, in feature order; the first kinds carry nothing.
PARAMS = {role: [f"gomoku_shape_{role}_{snake(s)}" for s in SHAPES[1:]]
          + [f"gomoku_threat_{role}_{snake(t)}" for t in THREATS[2:]]
          + [f"gomoku_combo_{role}_{snake(c)}" for c in COMBOS[1:]] for role in ("mover", "waiter")}


def weights_of(values):
    """The weights (in logits per count) and intercept of parameter values {NAME: VALUE}."""
    def side(role):
        named = iter(values[name] for name in PARAMS[role])
        return np.array([0.0 if i in IGNORED else float(next(named)) for i in range(SIDE)])
    return (np.concatenate([side("mover"), -side("waiter")]) / UNITS_PER_LOGIT,
            values["gomoku_tempo"] / UNITS_PER_LOGIT)


def tables(full, intercept):
    """The parameter values {NAME: VALUE} in eval units: each side's worth in its role, never negative, the
    shapes along the ladder increasing, and the shapes the fit never sees (decided positions
    are left out) large enough for the search."""
    units = full * UNITS_PER_LOGIT
    mover, waiter = np.maximum(units[:SIDE], 0), np.maximum(-units[SIDE:], 0)
    mover_shapes, mover_threats, mover_combos = np.split(mover, [len(SHAPES), COMBO_START])
    waiter_shapes, waiter_threats, waiter_combos = np.split(waiter, [len(SHAPES), COMBO_START])
    mover_shapes[10] = max(mover_shapes[10], 3 * mover_shapes[9])
    mover_shapes[11] = max(mover_shapes[11], 2 * mover_shapes[10])
    mover_threats[6] = max(mover_threats[6], 2 * mover_threats[5])
    mover_threats[7] = max(mover_threats[7], 2 * mover_threats[6])
    waiter_shapes[11] = max(waiter_shapes[11], 2 * waiter_shapes[10])
    waiter_threats[7] = max(waiter_threats[7], 2 * max(waiter_threats[6], waiter_threats[5]))
    for shapes in (mover_shapes, waiter_shapes):
        for weaker, stronger in zip(LADDER, LADDER[1:]):
            shapes[stronger] = max(shapes[stronger], shapes[weaker] + 1)
        shapes[13] = shapes[10]
    values = {"gomoku_tempo": int(round(intercept * UNITS_PER_LOGIT))}
    for role, side in (("mover", mover), ("waiter", waiter)):
        kept = [v for i, v in enumerate(side) if i not in IGNORED]
        values.update((name, int(round(v))) for name, v in zip(PARAMS[role], kept))
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sgf", nargs="+", help="c-gomoku-cli SGF files of freestyle 15x15 games")
    parser.add_argument("--arbor", default="target/release/arbor", help="the arbor binary")
    parser.add_argument("--l2", type=float, default=1e-3, help="ridge penalty on standardised weights")
    parser.add_argument("--holdout", type=int, metavar="K", help="leave every K-th distinct game out of the fit "
                        "and compare the fit with the present weights on them")
    args = parser.parse_args()
    games = list(dict.fromkeys(games_from_sgf(args.sgf)))
    held, fitted_games = [], []
    for i, game in enumerate(games):
        (held if args.holdout and i % args.holdout == 0 else fitted_games).append(game)
    rows = features_of(args.arbor, fitted_games)
    if len(rows) == 0:
        sys.exit("fit_eval.py: no positions in those games")
    full, intercept, loss = fit(rows[:, 0], rows[:, 1:], args.l2)
    table = read_table(args.arbor)
    values = tables(full, intercept)
    for name, value in values.items():
        low, high = table[name][1:3]
        if not low <= value <= high:
            print(f"# {name}: the fit's {value} is outside the range {low}..{high}, so it is clamped")
            values[name] = min(max(value, low), high)
    print(f"# {len(fitted_games)} distinct games, {len(rows)} positions, cross-entropy {loss:.4f}")
    if held:
        test = features_of(args.arbor, held)
        fitted, fitted_tempo = weights_of(values)
        present, tempo = weights_of({name: entry[0] for name, entry in table.items()})
        scales = np.arange(0.05, 2.001, 0.05)
        fit_scale = min(scales, key=lambda k: cross_entropy(k * present, k * tempo, rows))
        print(f"# held out: {len(held)} games, {len(test)} positions; cross-entropy of these weights "
              f"{cross_entropy(fitted, fitted_tempo, test):.4f}, of the present ones {cross_entropy(present, tempo, test):.4f}, "
              f"of the present ones x {fit_scale:.2f} (the fitted games' best scale) "
              f"{cross_entropy(fit_scale * present, fit_scale * tempo, test):.4f}")
    print("\n".join(f"{name}={value}" for name, value in values.items()))


if __name__ == "__main__":
    main()
