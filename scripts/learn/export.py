#!/usr/bin/env python3
"""Exports a trained network (train.py's model.npz) as the integer file the engine reads
(MODEL.md), and measures what the rounding costs: the integer network, computed here exactly as
MODEL.md prescribes, against the float one on a position set's held-out positions.

Usage:
  target/learn-venv/bin/python scripts/learn/export.py target/learn/run1/model.npz \\
      --out target/learn/run1/model.arbn [--check target/learn/set.npz]
"""
import argparse
import struct
import sys
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import train  # noqa: E402

ACTIVATION_ONE = 1023       # an activation of 1.0
WEIGHT_ONE = 1024           # a weight of 1.0 (a power of two: the engine shifts)
WEIGHT_SHIFT = 10
POOL_SHIFT = 5              # extra bits of the cells' mean: at most 1023 << 5, so it fits 16 bits
VERSION = 3
READS = (2, 3)              # version 2 is version 3 with one mean over the board (byte 20 zero)
RULES = ["freestyle", "standard", "renju", "caro"]
ENGINE_WIDTH = 32           # D and H, the only widths the engine reads


def quantise(model):
    """The integer arrays of MODEL.md from the float weights. Stops where a weight does not fit
    its integer or a sum could overflow: the engine refuses such a file."""
    def rounded(name, array, scale, dtype):
        info = np.iinfo(dtype)
        values = np.round(np.asarray(array, np.float64) * scale)
        if values.size and (values.min() < info.min or values.max() > info.max):
            raise SystemExit(f"{name} reaches {values.min():.0f}..{values.max():.0f}, past {np.dtype(dtype).name}")
        return values.astype(dtype)

    cell_layer = "cell_w" in model
    dim = model["codebook"].shape[1]
    hidden = model["v1_w"].shape[-1]
    if (dim, hidden) != (ENGINE_WIDTH, ENGINE_WIDTH):
        raise SystemExit(f"D = {dim}, hidden {hidden}: the engine takes D = H = {ENGINE_WIDTH} only (MODEL.md)")
    q = {
        "codebook": rounded("codebook", model["codebook"], ACTIVATION_ONE, np.int16),
        "bias0": rounded("bias0", model["bias0"], ACTIVATION_ONE, np.int16),
        "cell_w": rounded("cell_w", model["cell_w"] if cell_layer else np.zeros((dim, dim)), WEIGHT_ONE, np.int16),
        "cell_b": rounded("cell_b", model["cell_b"] if cell_layer else np.zeros(dim), ACTIVATION_ONE * WEIGHT_ONE,
                          np.int32),
        "v1_w": rounded("v1_w", model["v1_w"], WEIGHT_ONE, np.int16),
        "v1_b": rounded("v1_b", model["v1_b"], ACTIVATION_ONE * WEIGHT_ONE, np.int32),
        "v2_w": rounded("v2_w", model["v2_w"][..., 0], WEIGHT_ONE, np.int16),
        "v2_b": rounded("v2_b", model["v2_b"][:, 0], ACTIVATION_ONE * WEIGHT_ONE, np.int32),
        "p_w": rounded("p_w", model["p_w"][..., 0], WEIGHT_ONE, np.int16),
    }
    wide = {name: np.abs(array.astype(np.int64)) for name, array in q.items()}
    # A cell's sums are kept in 16 bits: its bias and the shapes of its four lines.
    cell_sum = (wide["bias0"] + 4 * wide["codebook"].max(0)).max()
    if cell_sum > np.iinfo(np.int16).max:
        raise SystemExit(f"a cell's sum could reach {cell_sum}, past 16 bits: the engine would refuse it")
    # The layers sum in 32 bits. A cell is in one pool only, so a feature's pools add up to at
    # most one activation: its largest weight bounds the value head's first layer.
    pools = q["v1_w"].shape[1] // dim
    per_feature = wide["v1_w"].reshape(2, pools, dim, -1).max(1)
    bounds = {
        "the per-cell layer": (wide["cell_w"].sum(0) * ACTIVATION_ONE + wide["cell_b"]).max(),
        "the value head's first layer": (per_feature.sum(1) * (ACTIVATION_ONE << POOL_SHIFT)
                                         + (wide["v1_b"] << POOL_SHIFT)).max(),
    }
    for name, largest in bounds.items():
        if largest > np.iinfo(np.int32).max:
            raise SystemExit(f"{name} could reach {largest}, past 32 bits: the engine would refuse it")
    return q, cell_layer


def write(path, q, cell_layer, model):
    shapes, dim = q["codebook"].shape
    rule = RULES.index(str(model["rule"]))
    pool = list(train.POOLS).index(train.pool_of(q))
    header = struct.pack("<4sBBBBHHfIB", b"ARBN", VERSION, int(cell_layer), rule, int(model["size"]), dim,
                         q["v1_w"].shape[2], float(model["score_scale"]), shapes, pool)
    header += bytes(32 - len(header))
    body = b"".join(np.ascontiguousarray(q[name]).astype(q[name].dtype.newbyteorder("<")).tobytes()
                    for name in ("codebook", "bias0", "cell_w", "cell_b", "v1_w", "v1_b", "v2_w", "v2_b", "p_w"))
    Path(path).write_bytes(header + body)


def read(path):
    """An exported file's weights as floats, in train.py's form (the integers over their
    scales), with its score scale, rule and size: a start for further training (train.py --init)."""
    data = Path(path).read_bytes()
    if len(data) < 32:
        raise SystemExit(f"{path}: {len(data)} bytes, shorter than a network file's header (MODEL.md)")
    magic, version, cell_layer, rule, size, dim, hidden, scale, shapes, pool = struct.unpack("<4sBBBBHHfIB", data[:21])
    if magic != b"ARBN" or version not in READS or pool >= len(train.POOLS):
        raise SystemExit(f"{path} is not a network file of version {' or '.join(map(str, READS))}")
    if cell_layer > 1 or rule >= len(RULES) or (version == 2 and pool != 0) or any(data[21:32]):
        raise SystemExit(f"{path}: a header that export.py does not write (MODEL.md)")
    pools = list(train.POOLS.values())[pool]
    layout = [("codebook", "<i2", (shapes, dim), ACTIVATION_ONE), ("bias0", "<i2", (dim,), ACTIVATION_ONE),
              ("cell_w", "<i2", (dim, dim), WEIGHT_ONE), ("cell_b", "<i4", (dim,), ACTIVATION_ONE * WEIGHT_ONE),
              ("v1_w", "<i2", (2, pools * dim, hidden), WEIGHT_ONE), ("v1_b", "<i4", (2, hidden), ACTIVATION_ONE * WEIGHT_ONE),
              ("v2_w", "<i2", (2, hidden, 1), WEIGHT_ONE), ("v2_b", "<i4", (2, 1), ACTIVATION_ONE * WEIGHT_ONE),
              ("p_w", "<i2", (2, dim, 1), WEIGHT_ONE)]
    expected = 32 + sum(int(np.prod(shape)) * np.dtype(dtype).itemsize for _, dtype, shape, _ in layout)
    if expected != len(data):
        raise SystemExit(f"{path}: {len(data)} bytes where its header implies {expected}")
    # float64 holds every i32 exactly, so a file read and written again is the same file.
    model, offset = {}, 32
    for name, dtype, shape, one in layout:
        count = int(np.prod(shape))
        model[name] = np.frombuffer(data, dtype, count, offset).reshape(shape).astype(np.float64) / one
        offset += count * np.dtype(dtype).itemsize
    if not cell_layer:
        del model["cell_w"], model["cell_b"]
    return model | {"score_scale": np.float64(scale), "size": np.int64(size), "rule": np.str_(RULES[rule])}


def integer_forward(q, cell_layer, board, side, table, levels):
    """MODEL.md's arithmetic: the value logit and the policy logits, both at the scale
    ACTIVATION_ONE * WEIGHT_ONE, as int64 arrays (`levels` from train.threat_levels)."""
    index = train.shape_indices(np, table, board)
    summed = q["codebook"][index].astype(np.int32).sum(1) + q["bias0"]          # (B, S, S, D)
    cell = np.clip(summed, 0, ACTIVATION_ONE)
    if cell_layer:
        cell = np.clip((cell @ q["cell_w"].astype(np.int64) + q["cell_b"]) >> WEIGHT_SHIFT, 0, ACTIVATION_ONE)
    cells = board.shape[1] * board.shape[2]
    side = np.asarray(side).astype(np.int64)
    member = train.memberships(np, train.pool_of(q), board, index, levels).reshape(len(board), cells, -1)
    totals = np.einsum("bnd,bnc->bcd", cell.reshape(len(board), cells, -1).astype(np.int64), member.astype(np.int64))
    pooled = (totals.reshape(len(board), -1) << POOL_SHIFT) // cells
    hidden = (np.einsum("bd,bdh->bh", pooled, q["v1_w"][side].astype(np.int64))
              + (q["v1_b"][side].astype(np.int64) << POOL_SHIFT))
    hidden = np.clip(hidden >> (WEIGHT_SHIFT + POOL_SHIFT), 0, ACTIVATION_ONE)
    value = np.einsum("bh,bh->b", hidden, q["v2_w"][side].astype(np.int64)) + q["v2_b"][side]
    policy = np.einsum("byxd,bd->byx", cell.astype(np.int64), q["p_w"][side].astype(np.int64))
    return value, policy.reshape(len(board), -1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="train.py's model.npz")
    ap.add_argument("--out", required=True)
    ap.add_argument("--check", help="a position set whose held-out positions to compare on")
    args = ap.parse_args()
    model = dict(np.load(args.model))
    q, cell_layer = quantise(model)
    write(args.out, q, cell_layer, model)
    print(f"{args.out}: {Path(args.out).stat().st_size} bytes, {q['codebook'].shape[0]} shapes,"
          f" D = {q['codebook'].shape[1]}, cell layer {'yes' if cell_layer else 'no'}")
    if args.check:
        data = np.load(args.check)
        held = data["heldout"]
        if not held.any():
            sys.exit(f"export.py: {args.check} holds no held-out position to compare on")
        figures = compare(model, data["board"][held], data["side"][held], data["best"][held])
        print(f"{figures['positions']} held-out positions: value logit |integer - float| mean {figures['mean_gap']:.4f},"
              f" max {figures['max_gap']:.4f} (mean in engine units {figures['mean_gap'] * float(model['score_scale']):.1f});"
              f" same sign {figures['same_sign']:.4f}, same best cell {figures['same_cell']:.4f}; move match float"
              f" {figures['float_match']:.4f}, integer {figures['integer_match']:.4f}")


def compare(model, board, side, best, batch=1024):
    """The integer network against the float one on positions: the value logits' gap, how often
    the value's sign and the policy's best cell agree, and each one's move match."""
    import jax
    import jax.numpy as jnp
    q, cell_layer = quantise(model)
    table, shapes = train.shape_index_table()
    levels = train.threat_levels(table, shapes)
    forward, _ = train.make_model(jax, jnp, table, cell_layer, train.pool_of(model))
    params = {name: jnp.asarray(value) for name, value in model.items() if name not in ("score_scale", "size", "rule")}
    gaps, counts = [], np.zeros(4)
    for start in range(0, len(board), batch):
        b, s, m = board[start:start + batch], side[start:start + batch], best[start:start + batch]
        float_value, float_policy = (np.asarray(x) for x in forward(params, b, s))
        int_value, int_policy = integer_forward(q, cell_layer, b, s, table, levels)
        int_policy = np.where(b.reshape(len(b), -1) == 0, int_policy, np.iinfo(np.int64).min)
        gaps.append(np.abs(int_value / (ACTIVATION_ONE * WEIGHT_ONE) - float_value))
        counts += [((int_value > 0) == (float_value > 0)).sum(), (int_policy.argmax(1) == float_policy.argmax(1)).sum(),
                   (float_policy.argmax(1) == m).sum(), (int_policy.argmax(1) == m).sum()]
    gaps = np.concatenate(gaps)
    n = len(board)
    return {"positions": n, "mean_gap": float(gaps.mean()), "max_gap": float(gaps.max()), "same_sign": counts[0] / n,
            "same_cell": counts[1] / n, "float_match": counts[2] / n, "integer_match": counts[3] / n}

if __name__ == "__main__":
    main()
