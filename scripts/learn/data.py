#!/usr/bin/env python3
"""Turns `arbor datagen` files (FORMAT.md) into the position set the trainer reads.

Every searched position of every game becomes one row: the board (0 empty, 1 black, 2 white),
the side to move, the game's result and the search's score from that side's view, the search's
best move, its depth and the ply. Whole games are held out (1 in --holdout, by a hash of the
file's seed and the game's number), since neighbouring positions of one game share its result
and look alike; a position of a held-out game is dropped from training wherever else it occurs,
under any of the board's eight symmetries, and each split keeps the first of its positions that
are symmetric images of each other. With --arbor, each kept position also gets the classical
evaluation's static score from the side to move's view (`arbor evaluate`), which train.py's
--mix needs.

Usage:
  target/learn-venv/bin/python scripts/learn/data.py target/data/*.bin --out target/learn/set.npz \\
      [--arbor target/release/arbor]
"""
import argparse
import sys
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True

from baseline import evaluate  # noqa: E402

HEADER_BYTES = 32
RULES = ["freestyle", "standard", "renju", "caro"]


def read_header(data, path):
    if len(data) < HEADER_BYTES or data[:4] != b"ARBD" or data[4] != 1 or data[5] >= len(RULES):
        sys.exit(f"data.py: {path} is not an arbor datagen file of version 1")
    return {"rule": RULES[data[5]], "size": data[6], "random_plies": data[7],
            "nodes": int.from_bytes(data[8:16], "little"), "seed": int.from_bytes(data[16:24], "little")}


def read_games(path):
    """The file's header and its whole games, each (result, unsearched, moves, scores, best, depth):
    result 0 draw, 1 black won, 2 white won; moves and best as (x, y) rows. Reading stops, as
    `arbor datagen` does, at the first game that is cut short, not of the file's rule and size, or
    whose moves leave the board, repeat a cell or differ from the search's best moves; what follows
    is left out with a warning."""
    data = Path(path).read_bytes()
    header = read_header(data, path)
    games, offset = [], HEADER_BYTES
    while offset + 6 <= len(data):
        rule, size, result, unsearched = data[offset:offset + 4]
        plies = int.from_bytes(data[offset + 4:offset + 6], "little")
        searched = plies - unsearched
        end = offset + 6 + 2 * plies + 5 * searched
        if searched < 0 or end > len(data) or result > 2 or (RULES[rule] if rule < 4 else None, size) != (
                header["rule"], header["size"]):
            break
        cells = np.frombuffer(data, "<u2", plies, offset + 6)
        entries = np.frombuffer(data, np.dtype([("score", "<i2"), ("best", "<u2"), ("depth", "u1")]), searched,
                                offset + 6 + 2 * plies)
        if (plies == 0 or (cells % 32 >= size).any() or (cells // 32 >= size).any()
                or len(np.unique(cells)) != plies or (entries["best"] != cells[unsearched:]).any()):
            break
        games.append((result, unsearched, np.stack([cells % 32, cells // 32], 1),
                      entries["score"].copy(), np.stack([entries["best"] % 32, entries["best"] // 32], 1),
                      entries["depth"].copy()))
        offset = end
    if offset < len(data):
        print(f"data.py: warning: {path}: {len(data) - offset} bytes after game {len(games)} are not a whole game"
              " and are left out (`arbor datagen` resumes the file there)", file=sys.stderr)
    return header, games


def game_rows(game, size):
    """The searched positions of one game as arrays."""
    result, unsearched, moves, scores, best, depth = game
    board = np.zeros((size, size), np.uint8)
    for ply, (x, y) in enumerate(moves[:unsearched]):
        board[y, x] = 1 + ply % 2
    boards = np.empty((len(scores), size, size), np.uint8)
    for j, (x, y) in enumerate(moves[unsearched:]):
        boards[j] = board
        board[y, x] = 1 + (unsearched + j) % 2
    plies = np.arange(unsearched, unsearched + len(scores))
    side = (plies % 2).astype(np.uint8)                       # 0: black to move
    won = np.where(result == 0, 0.5, (result - 1 == side).astype(np.float32))
    return {"board": boards, "side": side, "result": won.astype(np.float32), "score": scores,
            "best": (best[:, 1] * size + best[:, 0]).astype(np.int16), "depth": depth,
            "ply": plies.astype(np.int16)}


def canonical_hashes(boards, chunk=65536):
    """A 64-bit hash of each board that is the same for all eight of its symmetries."""
    size = boards.shape[1]
    keys = np.random.default_rng(12345).integers(0, 2**63, (3, size * size), dtype=np.uint64)
    keys[0] = 0
    cells = np.arange(size * size)
    hashes = np.empty(len(boards), np.uint64)
    for start in range(0, len(boards), chunk):
        part = boards[start:start + chunk]
        best = None
        for view in (part, part.transpose(0, 2, 1)):
            for turns in range(4):
                flat = np.rot90(view, turns, axes=(1, 2)).reshape(len(part), -1)
                hashed = np.bitwise_xor.reduce(keys[flat, cells], axis=1)
                best = hashed if best is None else np.minimum(best, hashed)
        hashes[start:start + chunk] = best
    return hashes


def held_out_game(seed, number, holdout):
    """Whether game `number` of the file of `seed` is held out (a multiplicative hash)."""
    mixed = (seed * 0x9E3779B97F4A7C15 + number) * 0xBF58476D1CE4E5B9 % 2**64
    return (mixed >> 32) % holdout == 0


def build(paths, holdout):
    sizes, rows, held = set(), [], []
    for path in paths:
        header, games = read_games(path)
        sizes.add((header["rule"], header["size"]))
        for number, game in enumerate(games):
            rows.append(game_rows(game, header["size"]))
            held.append(np.full(len(rows[-1]["side"]), held_out_game(header["seed"], number, holdout)))
        print(f"{path}: {len(games)} games, {header}", file=sys.stderr)
    if len(sizes) != 1:
        sys.exit(f"data.py: the files mix rules or sizes {sorted(sizes)}; make one set per rule and size")
    if not rows:
        sys.exit("data.py: the files hold no whole game")
    columns = {name: np.concatenate([row[name] for row in rows]) for name in rows[0]}
    held = np.concatenate(held)
    hashes = canonical_hashes(columns["board"])
    trainable = ~held & ~np.isin(hashes, hashes[held])
    kept = []
    for split in (held, trainable):
        rows_of_split = np.flatnonzero(split)
        _, first = np.unique(hashes[rows_of_split], return_index=True)
        kept.append(rows_of_split[first])
    kept = np.sort(np.concatenate(kept))
    columns = {name: column[kept] for name, column in columns.items()}
    columns["heldout"] = held[kept]
    rule, size = sizes.pop()
    for split, count in (("held-out", int(columns["heldout"].sum())), ("training", int((~columns["heldout"]).sum()))):
        if count == 0:
            print(f"data.py: warning: no {split} positions (change --holdout or add games)", file=sys.stderr)
    print(f"{len(hashes)} positions, {len(kept)} kept: {int(columns['heldout'].sum())} held out (from"
          f" {int(held.sum())} in held-out games), {int((~columns['heldout']).sum())} for training", file=sys.stderr)
    return columns, rule, size


def classical_scores(arbor, boards, rule):
    """The classical evaluation's static score of each board, from the side to move's view."""
    return evaluate(arbor, boards, boards.shape[1], rule, "none")[0].astype(np.int32)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", required=True, help=".npz file")
    ap.add_argument("--holdout", type=int, default=64, help="one game in this many is held out")
    ap.add_argument("--arbor", help="an arbor executable: add each position's classical evaluation")
    args = ap.parse_args()
    if args.holdout < 1:
        ap.error("--holdout must be 1 or more")
    columns, rule, size = build(args.files, args.holdout)
    if args.arbor:
        columns["classical"] = classical_scores(args.arbor, columns["board"], rule)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, rule=rule, size=size, **columns)


if __name__ == "__main__":
    main()
