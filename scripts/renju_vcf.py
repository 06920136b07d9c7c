#!/usr/bin/env python3
"""Checks the expected moves of a renju tactics transcript with an independent VCF solver.

For every `BOARD` ... `DONE` position of the transcript (the brain to move: black when both
sides have as many stones) the solver finds every first four that starts a victory by
continuous fours within MAX_FOURS fours, and compares that set with the alternatives of the
`~ (x,y|...)` line that follows. Fives are judged here (black exactly five, white five or more);
black's forbidden moves by the `renju` package's referee, so nothing of Arbor's is trusted. A
comment line with "through a forbidden point" is checked too: without the forbidden-move rule
white must have no VCF there.

Usage (the package in a virtual environment of its own):
    python3 -m venv /tmp/renju-venv && /tmp/renju-venv/bin/pip install renju
    /tmp/renju-venv/bin/python scripts/renju_vcf.py protocol-tests/gomocup/tactics-renju.txt
"""

import re
import sys

from renju.check_forbid import ForbidChecker

N = 15
DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]
MAX_FOURS = 14


def run(grid, x, y, dx, dy, c):
    k = 1
    for s in (1, -1):
        px, py = x + s * dx, y + s * dy
        while 0 <= px < N and 0 <= py < N and grid[px][py] == c:
            k += 1
            px += s * dx
            py += s * dy
    return k


def makes_five(grid, x, y, c):
    for dx, dy in DIRS:
        r = run(grid, x, y, dx, dy, c)
        if r == 5 or (r > 5 and c == 2):
            return True
    return False


def forbidden(grid, x, y):
    if makes_five(grid, x, y, 1):
        return False
    return ForbidChecker(grid, 0, 0).foulr(x, y, 0) != 0


def five_points(grid, c, near=None):
    """Empty cells where `c` makes five (near: only on lines within 4 of that cell)."""
    cells = set()
    if near is None:
        scan = [(x, y) for x in range(N) for y in range(N)]
    else:
        nx, ny = near
        scan = [(nx + k * dx, ny + k * dy) for dx, dy in DIRS for k in range(-4, 5)]
    for x, y in scan:
        if 0 <= x < N and 0 <= y < N and grid[x][y] == 0 and makes_five(grid, x, y, c):
            cells.add((x, y))
    return cells


def four_moves(grid, c):
    """Empty cells where `c` makes a four (a new five point), with those five points."""
    out = []
    seen = set()
    for x in range(N):
        for y in range(N):
            if grid[x][y] != c:
                continue
            for dx, dy in DIRS:
                for k in range(-4, 5):
                    px, py = x + k * dx, y + k * dy
                    if 0 <= px < N and 0 <= py < N and grid[px][py] == 0 and (px, py) not in seen:
                        seen.add((px, py))
    for px, py in sorted(seen):
        grid[px][py] = c
        fives = five_points(grid, c, (px, py))
        grid[px][py] = 0
        if fives:
            out.append(((px, py), fives))
    return out


class Solver:
    def __init__(self, grid, attacker, forbid=True):
        self.grid = [row[:] for row in grid]
        self.a = attacker
        self.d = 3 - attacker
        self.forbid = forbid
        self.memo = {}

    def key(self):
        return tuple(tuple(r) for r in self.grid)

    def legal(self, x, y, c):
        return c == 2 or not self.forbid or not forbidden(self.grid, x, y)

    def win(self, fours_left):
        """Attacker to move: (wins, used a forbidden block)."""
        g = self.grid
        if five_points(g, self.a):
            return True, False
        if fours_left == 0:
            return False, False
        k = (self.key(), fours_left)
        if k in self.memo:
            return self.memo[k]
        result = (False, False)
        for mv, _ in self.moves():
            r = self.after_four(mv, fours_left)
            if r[0]:
                result = r
                break
        self.memo[k] = result
        return result

    def moves(self):
        g = self.grid
        opp_fives = five_points(g, self.d)
        if len(opp_fives) > 1:
            return []
        moves = [(mv, f) for mv, f in four_moves(g, self.a) if self.legal(mv[0], mv[1], self.a)]
        if opp_fives:
            moves = [(mv, f) for mv, f in moves if mv in opp_fives]
        return moves

    def after_four(self, mv, fours_left):
        g = self.grid
        x, y = mv
        g[x][y] = self.a
        try:
            if five_points(g, self.d):
                return False, False
            fives = five_points(g, self.a)
            if len(fives) >= 2:
                return True, False
            (bx, by), = fives
            if self.d == 1 and self.forbid and forbidden(g, bx, by):
                return True, True
            g[bx][by] = self.d
            try:
                return self.win(fours_left - 1)
            finally:
                g[bx][by] = 0
        finally:
            g[x][y] = 0


def solve(grid, colour, max_fours=MAX_FOURS):
    """Every winning first four of `colour`: {move: used_forbidden_block}."""
    s = Solver(grid, colour)
    wins = {}
    for mv, _ in s.moves():
        ok, used = s.after_four(mv, max_fours)
        if ok:
            wins[mv] = used
    return wins


def wins_without_forbidden(grid, colour, max_fours=MAX_FOURS):
    s = Solver(grid, colour, forbid=False)
    return any(s.after_four(mv, max_fours)[0] for mv, _ in s.moves())


def positions(path):
    """(comment, stones as (x, y, field), expected moves) for each position of a transcript."""
    comment, stones, inside = "", [], False
    expect_next = False
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("# "):
            comment = line
        elif line == "> BOARD":
            stones, inside = [], True
        elif line == "> DONE":
            inside, expect_next = False, True
        elif inside and line.startswith("> "):
            x, y, field = map(int, line[2:].split(","))
            stones.append((x, y, field))
        elif expect_next and line.startswith("~ "):
            expect_next = False
            yield comment, stones, set(re.fullmatch(r"~ \((.*)\)", line).group(1).split("|"))
        elif expect_next and line.startswith("< "):
            expect_next = False
            yield comment, stones, {line[2:].strip()}


def main():
    failures = count = 0
    for count, (comment, stones, expected) in enumerate(positions(sys.argv[1]), 1):
        own = sum(1 for s in stones if s[2] == 1)
        brain = 1 if own * 2 == len(stones) else 2
        grid = [[0] * N for _ in range(N)]
        for x, y, field in stones:
            grid[x][y] = brain if field == 1 else 3 - brain
        found = {f"{x},{y}" for x, y in solve(grid, brain)}
        problems = []
        if found != expected:
            problems.append(f"solver finds {sorted(found)}, transcript expects {sorted(expected)}")
        if "through a forbidden point" in comment and (brain != 2 or wins_without_forbidden(grid, 2)):
            problems.append("not a win that needs a forbidden point")
        print(f"{'ok' if not problems else 'FAILED'} {comment[2:60]}", *problems)
        failures += bool(problems)
    print(f"{count - failures} passed, {failures} failed")
    sys.exit(1 if failures or not count else 0)


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
