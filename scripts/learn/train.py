#!/usr/bin/env python3
"""Trains the learned pattern evaluation: a codebook of line shapes, a per-cell layer, a value
head and a move-policy head per side to move, on the position set of data.py.

The model. Each cell sees, in each of the four directions, a line shape: its own state (empty,
black, white) and the four cells on either side (empty, black, white, wall). Colours are read
as they are, not as "own" and "opponent", so that one set of cell features serves both sides to
move and the engine keeps one copy of them, not one per side; the side to move picks the heads.
A shape and its mirror image along the line are one shape, so the same vector serves a line
read either way and no direction has an orientation to agree on with the engine; the valid
shapes (walls only at a line's far ends) are numbered densely (`shape_index_table`), 22,143 of
them. The model sums the four codebook vectors of each cell (D numbers), clips the sum to
[0, 1], optionally applies one per-cell layer (D to D, clipped the same way), and reads the
value from the cells' mean (D to 32 to 1, a logit of the side to move's winning chance) and the
policy from each empty cell (D to 1 with no bias, which a softmax over the empty cells would
ignore), with the heads of the side to move. With --pool content the value reads three means
instead of one, each a sum over the cells of one content (empty, black, white) divided by all
the board's cells (3 D to 32 to 1): the empty cells' features say where threats can be made,
the stones' what shapes stand, and one mean mixes the two. With --pool threat the empty cells
are split further by each colour's threat level there (what a stone of that colour would make
along its best line: a four or five, a three, or less), 11 means (11 D to 32 to 1). With --pool
fours the empty cells are split only by whether each colour makes a four or five there, 6 means:
most of what the threat classes add to the value's fit, with about half their pools. The engine
can keep the per-cell sums incrementally: a stone changes the shapes of only the cells in its
four lines.

The targets. Value: the game's result blended with the search's score (`--lam` of the result),
the score turned into a winning chance by a logistic curve whose scale is fitted to the results
first. Policy: the search's best move. With --mix SHARE the value is trained as the engine plays
it: the network's logit and the classical evaluation's score (the set's `classical` column, on
the same logistic scale) mixed with the network at SHARE per cent, as `gomoku_network_share`
mixes them, so that the network learns what the classical evaluation gets wrong rather than
what it already knows. With --init FILE training starts from an exported network's weights (its
integers over their scales) instead of random ones: a next generation can refine the last one
on new data or a new target. Every batch is seen under one of the board's eight
symmetries, drawn at random, and (under every rule but renju, whose forbidden points are
black's alone) half its positions with the colours swapped, the side to move with them, so that
both sides' heads learn from every position.

Each epoch reports, on the held-out positions: the value loss, the value accuracy (positions
whose game was won or lost, not drawn, where the side the model favours won) and the policy's
move-match rate (its best cell is the search's best move); where the set has the classical
evaluation, also the loss and accuracy of that mix (`mix_value_loss`, `mix_value_accuracy`, at
--mix's share or the engine's default of 50), whatever the training; the history goes to
OUT/history.json and a plot to OUT/history.png, the weights (float) to OUT/model.npz.

Usage:
  target/learn-venv/bin/python scripts/learn/train.py target/learn/set.npz --out target/learn/run1 \\
      [--epochs 10] [--dim 32] [--batch 512] [--cell-layer] [--pool content|threat|fours] [--mix 50] [--seed 1]
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True

WALL = 3
REACH = 4
DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def mirror(key):
    """The shape read the other way along its line: neighbour slot i and 7 - i swap."""
    centre, out = key >> 16, 0
    for slot in range(8):
        out |= ((key >> (2 * slot)) & 3) << (2 * (7 - slot))
    return centre << 16 | out


def valid(key):
    """Whether a shape can occur: the centre is on the board, and a side's walls run from its far
    end inwards (slots 0..3 are the cells 4..1 before the centre, slots 4..7 those 1..4 after)."""
    if key >> 16 == WALL:
        return False
    cells = [(key >> (2 * slot)) & 3 for slot in range(8)]
    before, after = cells[:4], cells[4:][::-1]          # both read from the far end inwards
    for side in (before, after):
        walls = 0
        while walls < len(side) and side[walls] == WALL:
            walls += 1
        if WALL in side[walls:]:
            return False
    return True


def shape_index_table():
    """For every 18-bit key (centre << 16 | neighbour slots), the dense index of its shape, or -1
    where the key cannot occur; shapes numbered in increasing order of their smaller reading."""
    keys = np.arange(1 << 18)
    table = np.full(1 << 18, -1, np.int32)
    canonical = {}
    for key in keys:
        if valid(int(key)):
            canonical[int(key)] = min(int(key), mirror(int(key)))
    numbers = {shape: n for n, shape in enumerate(sorted(set(canonical.values())))}
    for key, shape in canonical.items():
        table[key] = numbers[shape]
    return table, len(numbers)


def fit_scale(score, result):
    """The logistic scale K for which sigmoid(score / K) best predicts the results (log loss)."""
    keep = (np.abs(score) < 20000) & (result != 0.5)
    s, r = score[keep].astype(np.float64), result[keep]
    best = None
    for k in np.geomspace(50, 20000, 200):
        p = np.clip(1 / (1 + np.exp(-s / k)), 1e-6, 1 - 1e-6)
        loss = -np.mean(r * np.log(p) + (1 - r) * np.log(1 - p))
        if best is None or loss < best[0]:
            best = (loss, k)
    return best[1]


def symmetric(board, best, which):
    """The batch under symmetry `which` (0..7): boards (B, S, S) and best-move cells y * S + x."""
    size = board.shape[1]
    marks = np.zeros_like(board, dtype=np.uint8).reshape(len(board), -1)
    marks[np.arange(len(board)), best] = 1
    marks = marks.reshape(board.shape)
    if which & 4:
        board, marks = board.transpose(0, 2, 1), marks.transpose(0, 2, 1)
    board, marks = np.rot90(board, which & 3, axes=(1, 2)), np.rot90(marks, which & 3, axes=(1, 2))
    return np.ascontiguousarray(board), np.ascontiguousarray(marks).reshape(len(board), size * size).argmax(1)


def shape_indices(xp, table, board):
    """The shape numbers (B, 4, S, S) of a batch of boards (0/1/2 for empty/black/white), with
    `xp` numpy or jax.numpy and `table` from shape_index_table in it."""
    size = board.shape[1]
    view = board.astype(xp.int32)
    padded = xp.pad(view, ((0, 0), (REACH, REACH), (REACH, REACH)), constant_values=WALL)
    out = []
    for dx, dy in DIRECTIONS:
        key = view << 16
        for slot, offset in enumerate([-4, -3, -2, -1, 1, 2, 3, 4]):
            y0, x0 = REACH + offset * dy, REACH + offset * dx
            key = key | padded[:, y0:y0 + size, x0:x0 + size] << (2 * slot)
        out.append(table[key])
    return xp.stack(out, 1)


def swap_colours(board, side, which):
    """The boards and sides to move with black and white swapped where `which` is set."""
    swapped = np.where(board == 0, 0, 3 - board).astype(board.dtype)
    return np.where(which[:, None, None], swapped, board), np.where(which, 1 - side, side).astype(side.dtype)


POOLS = {"board": 1, "content": 3, "threat": 11, "fours": 6}
# Threat levels: what a stone at an empty cell would make along one of its lines.
LEVELS = 3


def contents(xp, board):
    """Each cell's content (B, S, S, 3) one-hot, empty, black, white: the pools of a value head
    that reads a mean per content, with `xp` numpy or jax.numpy."""
    return xp.stack([board == 0, board == 1, board == 2], -1)


def threat_levels(table, shapes):
    """By shape number and colour (black, white): what a stone of that colour at the shape's
    centre, where empty, makes in the five-cell windows through it that hold no wall and no
    stone of the other colour: 2 four or five of its stones, 1 three, else 0 (and 0 where the
    centre holds a stone). A shape read the other way along its line has the same levels."""
    keys = np.arange(1 << 18)
    line = np.zeros((len(keys), 9), np.int64)
    for slot, offset in enumerate([-4, -3, -2, -1, 1, 2, 3, 4]):
        line[:, REACH + offset] = (keys >> (2 * slot)) & 3
    empty_centre = (table >= 0) & (keys >> 16 == 0)
    levels = np.zeros((shapes, 2), np.int32)
    for c, colour in enumerate((1, 2)):
        line[:, REACH] = colour
        most = np.zeros(len(keys), np.int64)
        for first in range(5):
            window = line[:, first:first + 5]
            clean = ((window == 0) | (window == colour)).all(1)
            most = np.maximum(most, np.where(clean, (window == colour).sum(1), 0))
        levels[table[empty_centre], c] = np.clip(most[empty_centre] - 2, 0, LEVELS - 1)
    return levels


def memberships(xp, pool, board, index, levels):
    """Each cell's pool of the value head (B, S, S, P) one-hot, with `xp` numpy or jax.numpy:
    all in one ("board"), by content ("content"), or ("threat") an empty cell by its black and
    white threat levels, the most over its four lines (`levels` from threat_levels, read by
    the shape numbers `index`, (B, 4, S, S)), in pool 3 x black's + white's, or ("fours") in pool
    2 x (black's is a four) + (white's is a four), and stones by colour in the last two."""
    if pool == "board":
        return xp.ones(board.shape + (1,), bool)
    if pool == "content":
        return contents(xp, board)
    level = levels[index].max(1)
    if pool == "fours":
        level = level // (LEVELS - 1)
    classes = 2 if pool == "fours" else LEVELS
    empty_pools = classes * classes
    pool_index = xp.where(board == 0, level[..., 0] * classes + level[..., 1], board + empty_pools - 1)
    return pool_index[..., None] == xp.arange(empty_pools + 2)


def pool_of(params):
    """The value head's pooling of a model's weights: its first layer reads D numbers a pool."""
    pools = params["v1_w"].shape[1] // params["codebook"].shape[1]
    return next(name for name, count in POOLS.items() if count == pools)


def make_model(jax, jnp, table, cell_layer=False, pool="board"):
    """The network's functions over a batch: boards (B, S, S) 0/1/2 for empty/black/white and
    the side to move (0 black, 1 white). Without `cell_layer` the clipped sums feed the heads
    directly, which an engine can keep up to date with additions alone. With `pool` "content"
    or "threat" the value head reads a mean per pool of cells (memberships). The heads' weights
    have a leading axis of 2, by side to move."""
    levels = jnp.asarray(threat_levels(table, int(table.max()) + 1))
    table = jnp.asarray(table)

    def forward(params, board, side):
        index = shape_indices(jnp, table, board)
        summed = params["codebook"][index].sum(1)                   # (B, S, S, D)
        cell = jnp.clip(summed + params["bias0"], 0, 1)
        if cell_layer:
            cell = jnp.clip(cell @ params["cell_w"] + params["cell_b"], 0, 1)
        if pool == "board":
            pooled = cell.mean((1, 2))
        else:
            member = memberships(jnp, pool, board, index, levels).astype(cell.dtype)
            pooled = jnp.einsum("byxd,byxc->bcd", cell, member).reshape(len(board), -1) / (board.shape[1] * board.shape[2])
        side = jnp.asarray(side).astype(jnp.int32)
        hidden = jnp.clip(jnp.einsum("bd,bdh->bh", pooled, params["v1_w"][side]) + params["v1_b"][side], 0, 1)
        value = jnp.einsum("bh,bh->b", hidden, params["v2_w"][side][..., 0]) + params["v2_b"][side][:, 0]
        policy = jnp.einsum("byxd,bd->byx", cell, params["p_w"][side][..., 0])
        policy = jnp.where(board == 0, policy, -1e9).reshape(len(board), -1)
        return value, policy

    def init(key, shapes, dim):
        k = jax.random.split(key, 5)
        return {
            "codebook": jax.random.normal(k[0], (shapes, dim)) * 0.1,
            "bias0": jnp.full((dim,), 0.1),
            "cell_w": jax.random.normal(k[1], (dim, dim)) / np.sqrt(dim),
            "cell_b": jnp.zeros(dim),
            "v1_w": jax.random.normal(k[2], (2, POOLS[pool] * dim, 32)) / np.sqrt(dim),
            "v1_b": jnp.zeros((2, 32)),
            "v2_w": jax.random.normal(k[3], (2, 32, 1)) / np.sqrt(32),
            "v2_b": jnp.zeros((2, 1)),
            "p_w": jax.random.normal(k[4], (2, dim, 1)) / np.sqrt(dim),
        }

    return forward, init


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="a position set made by data.py")
    ap.add_argument("--out", required=True, help="folder for the history, its plot and the weights")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--dim", type=int, default=32, help="numbers per shape and per cell")
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lam", type=float, default=0.5, help="share of the game result in the value target")
    ap.add_argument("--policy-weight", type=float, default=1.0)
    ap.add_argument("--cell-layer", action="store_true",
                    help="add the per-cell layer (about 0.3 points of value accuracy for a much slower engine)")
    ap.add_argument("--pool", choices=list(POOLS), default="board",
                    help="what the value head reads: one mean over the board, a mean per cell content,"
                         " a mean per threat class (empty cells by both colours' threat levels, stones by colour),"
                         " or a mean per four class (empty cells by whether each colour makes a four there)")
    ap.add_argument("--mix", type=int, metavar="SHARE",
                    help="train the value mixed with the classical evaluation, the network at SHARE per cent")
    ap.add_argument("--init", help="an exported network file (.arbn) to start from")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, help="train on at most this many positions (a quick run)")
    args = ap.parse_args()

    import jax
    import jax.numpy as jnp
    import optax

    data = np.load(args.data)
    size = int(data["size"])
    heldout = data["heldout"]
    names = ["board", "side", "result", "score", "best"]
    has_classical = "classical" in data.files
    if args.mix is not None:
        if not has_classical:
            sys.exit("train.py: --mix needs a set made by data.py --arbor (its classical column)")
        if not 0 < args.mix <= 100:
            sys.exit("train.py: --mix takes a share from 1 to 100")
    names += ["classical"] if has_classical else []
    swaps = str(data["rule"]) != "renju"
    share = (args.mix if args.mix is not None else 50) / 100
    columns = {name: data[name] for name in names}
    train = {name: column[~heldout] for name, column in columns.items()}
    test = {name: column[heldout] for name, column in columns.items()}
    if args.limit:
        train = {name: column[:args.limit] for name, column in train.items()}
    if len(train["board"]) < args.batch:
        sys.exit(f"train.py: {len(train['board'])} training positions, fewer than one batch (--batch {args.batch})")
    if not len(test["board"]):
        sys.exit("train.py: the set holds no held-out position to measure on (data.py --holdout)")
    scale = fit_scale(train["score"], train["result"])
    for part in (train, test):
        chance = 1 / (1 + np.exp(-np.clip(part["score"] / scale, -50, 50)))
        part["target"] = (args.lam * part["result"] + (1 - args.lam) * chance).astype(np.float32)
        # The classical part of the mix's logit; zero where the set has none (it is then unused).
        part["offset"] = ((1 - share) * part["classical"] / scale if has_classical
                          else np.zeros(len(part["board"]))).astype(np.float32)
    table, shapes = shape_index_table()
    print(f"{len(train['board'])} training and {len(test['board'])} held-out positions, size {size};"
          f" {shapes} shapes; score scale {scale:.0f}; devices {jax.devices()}", flush=True)

    forward, init = make_model(jax, jnp, table, cell_layer=args.cell_layer, pool=args.pool)
    params = init(jax.random.PRNGKey(args.seed), shapes, args.dim)
    if not args.cell_layer:
        del params["cell_w"], params["cell_b"]
    if args.init:
        from export import read
        start = read(args.init)
        if args.pool != "board" and start["v1_w"].shape[1] == args.dim:
            # A board-mean network read as a mean per pool: the same value, since the pools'
            # means add up to the board's.
            start["v1_w"] = np.tile(start["v1_w"], (1, POOLS[args.pool], 1))
        elif args.pool in ("threat", "fours") and start["v1_w"].shape[1] == POOLS["content"] * args.dim:
            # A network pooled by content read by threat or four class: every empty cells' pool
            # takes the empty cells' weights, the same value.
            empty, black, white = np.split(start["v1_w"], 3, axis=1)
            start["v1_w"] = np.concatenate([empty] * (POOLS[args.pool] - 2) + [black, white], axis=1)
        if (set(start) - {"score_scale", "size", "rule"} != set(params) or start["codebook"].shape != (shapes, args.dim)
                or start["v1_w"].shape != params["v1_w"].shape):
            sys.exit(f"train.py: {args.init} is not a network of this form (--dim, --cell-layer, --pool)")
        params = {name: jnp.asarray(start[name]) for name in params}
    steps = args.epochs * (len(train["board"]) // args.batch)
    optimiser = optax.adam(optax.cosine_decay_schedule(args.lr, max(steps, 1), 0.05))
    state = optimiser.init(params)

    def losses(params, board, side, target, best, offset):
        value, policy = forward(params, board, side)
        mixed = share * value + offset
        trained = value if args.mix is None else mixed
        value_loss = optax.sigmoid_binary_cross_entropy(trained, target).mean()
        policy_loss = optax.softmax_cross_entropy_with_integer_labels(policy, best).mean()
        return value_loss, policy_loss, value, mixed, policy

    @jax.jit
    def step(params, state, board, side, target, best, offset):
        def objective(p):
            value_loss, policy_loss, _, _, _ = losses(p, board, side, target, best, offset)
            return value_loss + args.policy_weight * policy_loss

        loss, grads = jax.value_and_grad(objective)(params)
        updates, state = optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss

    @jax.jit
    def measure(params, board, side, target, best, offset, result):
        _, policy_loss, value, mixed, policy = losses(params, board, side, target, best, offset)
        decided = result != 0.5
        return (optax.sigmoid_binary_cross_entropy(value, target).sum(), policy_loss * len(board),
                (decided & ((value > 0) == (result > 0.5))).sum(), decided.sum(), (policy.argmax(1) == best).sum(),
                optax.sigmoid_binary_cross_entropy(mixed, target).sum(),
                (decided & ((mixed > 0) == (result > 0.5))).sum())

    def evaluate(params):
        totals = np.zeros(7)
        n = len(test["board"])
        for start in range(0, n, args.batch):
            part = {name: column[start:start + args.batch] for name, column in test.items()}
            totals += np.array([float(x) for x in measure(params, part["board"], part["side"], part["target"],
                                                          part["best"].astype(np.int32), part["offset"],
                                                          part["result"])])
        figures = {"value_loss": totals[0] / n, "policy_loss": totals[1] / n,
                   "value_accuracy": totals[2] / max(totals[3], 1), "move_match": totals[4] / n}
        if has_classical:
            figures |= {"mix_value_loss": totals[5] / n, "mix_value_accuracy": totals[6] / max(totals[3], 1)}
        return figures

    rng = np.random.default_rng(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    history = [{"epoch": 0, **evaluate(params)}]
    print(json.dumps(history[-1]), flush=True)
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(train["board"]))
        started, seen, running = time.time(), 0, []
        for start in range(0, len(order) - args.batch + 1, args.batch):
            pick = order[start:start + args.batch]
            board, best = symmetric(train["board"][pick], train["best"][pick].astype(np.int64), int(rng.integers(8)))
            board, side = swap_colours(board, train["side"][pick], (rng.random(len(pick)) < 0.5) & swaps)
            params, state, loss = step(params, state, board, side, train["target"][pick],
                                       best.astype(np.int32), train["offset"][pick])
            seen += len(pick)
            running.append(loss)
        rate = seen / (time.time() - started)
        history.append({"epoch": epoch, "train_loss": float(np.mean([float(x) for x in running])),
                        "positions_per_second": rate, **evaluate(params)})
        print(json.dumps(history[-1]), flush=True)
        (out / "history.json").write_text(json.dumps(history, indent=1))
        np.savez(out / "model.npz", **{name: np.asarray(value) for name, value in params.items()},
                 score_scale=scale, size=size, rule=str(data["rule"]))
    plot(history, out / "history.png")


def plot(history, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    epochs = [h["epoch"] for h in history]
    figure, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for axis, (name, title) in zip(axes, [("value_loss", "held-out value loss"),
                                          ("value_accuracy", "held-out value accuracy"),
                                          ("move_match", "held-out move match")]):
        axis.plot(epochs, [h[name] for h in history], marker="o", label="network")
        if "mix_" + name in history[0]:
            axis.plot(epochs, [h["mix_" + name] for h in history], marker="s", label="mixed with the classical")
            axis.legend()
        axis.set_title(title)
        axis.set_xlabel("epoch")
        axis.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
