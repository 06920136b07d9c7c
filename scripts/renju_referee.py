#!/usr/bin/env python3
"""Cross-checks Arbor's renju forbidden-move detector against an independent referee.

The referee is the `renju` package on PyPI (Tianyi Hao's port of Piskvork's judge, which follows
the RIF definition, recursive three check included). Boards: random clusters of stones,
random game-like playouts, and optionally every position of game records (compact notation, one
game a line, e.g. from `arbor selfplay --rule renju`). For each board `arbor forbidden` lists
black's forbidden cells; the referee judges every empty cell where a forbidden move is possible
at all (see `candidate`), and any difference is printed with the board.

Usage (the package in a virtual environment of its own):
    python3 -m venv /tmp/renju-venv && /tmp/renju-venv/bin/pip install renju
    /tmp/renju-venv/bin/python scripts/renju_referee.py target/release/arbor COUNT SEED [GAMES_FILE]
"""

import random
import subprocess
import sys
import time
from collections import Counter

from renju.check_forbid import ForbidChecker

N = 15
DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]


def has_five(grid):
    for x in range(N):
        for y in range(N):
            c = grid[x][y]
            if not c:
                continue
            for dx, dy in DIRS:
                px, py = x - dx, y - dy
                if 0 <= px < N and 0 <= py < N and grid[px][py] == c:
                    continue
                k = 0
                while 0 <= x + k * dx < N and 0 <= y + k * dy < N and grid[x + k * dx][y + k * dy] == c:
                    k += 1
                if k >= 5:
                    return True
    return False


def candidate(grid, x, y):
    """Necessary condition for any forbidden move at (x, y): an overline needs five more stones
    within 5 in a line, two fours in one line four within 4, two threes or fours two lines with
    two stones within 4 each."""
    lines2 = 0
    for dx, dy in DIRS:
        n4 = n5 = 0
        for k in range(-5, 6):
            if k == 0:
                continue
            px, py = x + k * dx, y + k * dy
            if 0 <= px < N and 0 <= py < N and grid[px][py] == 1:
                n5 += 1
                if abs(k) <= 4:
                    n4 += 1
        if n5 >= 5 or n4 >= 4:
            return True
        if n4 >= 2:
            lines2 += 1
    return lines2 >= 2


def random_cluster(rng):
    r = rng.randint(6, 11)
    ox, oy = rng.randint(-2, N - r + 2), rng.randint(-2, N - r + 2)
    cells = [(x, y) for x in range(max(0, ox), min(N, ox + r)) for y in range(max(0, oy), min(N, oy + r))]
    rng.shuffle(cells)
    density = rng.uniform(0.2, 0.6)
    n = int(len(cells) * density)
    white = n // 2
    black = white + rng.randint(0, 1)
    grid = [[0] * N for _ in range(N)]
    for i, (x, y) in enumerate(cells[: black + white]):
        grid[x][y] = 1 if i < black else 2
    return grid


def playout(rng):
    grid = [[0] * N for _ in range(N)]
    grid[7][7] = 1
    stones = [(7, 7)]
    moves = rng.randint(8, 70)
    for m in range(1, moves):
        colour = 1 if m % 2 == 0 else 2
        near = set()
        for sx, sy in stones:
            for dx in range(-2, 3):
                for dy in range(-2, 3):
                    px, py = sx + dx, sy + dy
                    if 0 <= px < N and 0 <= py < N and not grid[px][py]:
                        near.add((px, py))
        if not near:
            break
        near = sorted(near)
        # Lean towards cells next to own stones, as players build lines.
        weights = []
        for px, py in near:
            w = 1
            for dx, dy in DIRS:
                for s in (-1, 1):
                    qx, qy = px + s * dx, py + s * dy
                    if 0 <= qx < N and 0 <= qy < N and grid[qx][qy] == colour:
                        w += 3
            weights.append(w)
        x, y = rng.choices(near, weights)[0]
        grid[x][y] = colour
        stones.append((x, y))
        if has_five(grid):
            grid[x][y] = 0
            stones.pop()
            break
    blacks = sum(row.count(1) for row in grid)
    whites = sum(row.count(2) for row in grid)
    if blacks not in (whites, whites + 1):
        return None
    return grid


def game_positions(path):
    letters = "abcdefghijklmnopqrstuvwxyz"
    for line in open(path):
        # A bare line of moves, or `arbor selfplay`'s `Game: h8h6...` line.
        text = line.strip().removeprefix("Game:").strip()
        moves, i = [], 0
        while i < len(text):
            x = letters.index(text[i])
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            moves.append((x, int(text[i + 1 : j]) - 1))
            i = j
        grid = [[0] * N for _ in range(N)]
        for k, (x, y) in enumerate(moves):
            grid[x][y] = 1 if k % 2 == 0 else 2
            if has_five(grid):
                break
            yield [row[:] for row in grid]


def text(grid):
    return "".join(".XO"[grid[x][y]] for y in range(N) for x in range(N))


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    arbor, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    boards = []
    if len(sys.argv) > 4:
        boards.extend(("game", g) for g in game_positions(sys.argv[4]))
    while len(boards) < count:
        kind = "random" if rng.random() < 0.5 else "playout"
        grid = random_cluster(rng) if kind == "random" else playout(rng)
        if grid is None or has_five(grid):
            continue
        boards.append((kind, grid))
    proc = subprocess.run([arbor, "forbidden"], input="\n".join(text(g) for _, g in boards) + "\n",
                          capture_output=True, text=True, check=True)
    answers = proc.stdout.split("\n")
    stats = Counter()
    fouls = Counter()
    disagreements = []
    start = time.time()
    for index, ((kind, grid), answer) in enumerate(zip(boards, answers)):
        ours = {tuple(map(int, c.split(","))) for c in answer.split()}
        checker = ForbidChecker(grid, 0, 0)
        stats["boards " + kind] += 1
        for (x, y) in ours:
            if not candidate(grid, x, y):
                disagreements.append((kind, text(grid), x, y, "arbor outside the candidate filter", -1))
        for x in range(N):
            for y in range(N):
                if grid[x][y] or not candidate(grid, x, y):
                    continue
                stats["cells"] += 1
                theirs = checker.foulr(x, y, 0)
                fouls[theirs] += 1
                if (theirs != 0) != ((x, y) in ours):
                    disagreements.append((kind, text(grid), x, y, "arbor" if (x, y) in ours else "referee", theirs))
        if index % 5000 == 0:
            print(f"{index} boards, {stats['cells']} cells, {len(disagreements)} disagreements, "
                  f"{time.time() - start:.0f} s", file=sys.stderr, flush=True)
    print(dict(stats))
    print("referee verdicts (0 none, 1 double three, 2 double four, 3 overline):", dict(fouls))
    print("disagreements:", len(disagreements))
    for d in disagreements:
        print("DISAGREE", *d)


if __name__ == "__main__":
    main()
