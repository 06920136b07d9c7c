#!/usr/bin/env python3
"""Generates balanced Gomoku openings, judged by a Gomocup engine.

Fixed-node self-play is deterministic, so an SPRT can play only as many distinct games as it has
(opening, transform, colour) triples; the project needs thousands of openings of its own. Each
candidate is a random position of a few stones that looks like a real opening (every stone within
--spread cells of an earlier one, all inside a central square), black and white alternating. It is
kept when:
  - no five is on the board and the side to move cannot make one at once (a won position is no
    opening),
  - it is new up to the 8 symmetries of the board (a rotated copy would only repeat games, since
    sprt.sh already plays every opening rotated and mirrored),
  - the judge's evaluation for the side to move, after a fixed-node search, lies within
    [-window, window] (a mate score never does).
Renju: no test that a black stone stands on a forbidden point; with up to 6 stones (3 black)
none can, so more stones under --rule renju would need that test first.

The judge searches a fixed number of nodes on one thread with its hash cleared before each
position, so a given engine build, seed and options give the same file every time.

Output: one opening a line in the compact notation of the shared files (column letter, row
number, e.g. h8i9j10), the stones in the order black, white, black, ...

Example (the command behind scripts/openings/freestyle_15.txt):
  python3 scripts/make_openings.py --engine /path/pbrain-rapfi --rule freestyle --size 15 \\
      --count 1000 --nodes 100000 --window 80 --seed 1 --out scripts/openings/freestyle_15.txt
"""

import argparse
import queue
import random
import re
import subprocess
import sys
import threading
import time

RULES = {"freestyle": 0, "standard": 1, "renju": 4}
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def symmetries(size):
    """The 8 maps of the square board onto itself."""
    m = size - 1
    return (
        lambda x, y: (x, y),
        lambda x, y: (m - x, y),
        lambda x, y: (x, m - y),
        lambda x, y: (m - x, m - y),
        lambda x, y: (y, x),
        lambda x, y: (m - y, x),
        lambda x, y: (y, m - x),
        lambda x, y: (m - y, m - x),
    )


def canonical(stones, syms):
    """The smallest image of the position (its stones with their colours) under the symmetries."""
    return min(
        tuple(sorted((*f(x, y), i % 2) for i, (x, y) in enumerate(stones))) for f in syms
    )


def run_length(board, size, x, y, colour, dx, dy):
    """Length of the line of `colour` through (x, y) along (dx, dy), counting (x, y) itself."""
    n = 1
    for s in (1, -1):
        cx, cy = x + s * dx, y + s * dy
        while 0 <= cx < size and 0 <= cy < size and board.get((cx, cy)) == colour:
            n += 1
            cx, cy = cx + s * dx, cy + s * dy
    return n


def already_decided(stones, size):
    """True when a five (or longer) is on the board or the side to move can make one at once.
    Runs of six count too, so the test holds for every rule."""
    board = {p: i % 2 for i, p in enumerate(stones)}
    for (x, y), c in board.items():
        if any(run_length(board, size, x, y, c, dx, dy) >= 5 for dx, dy in DIRECTIONS):
            return True
    to_move = len(stones) % 2
    for x in range(size):
        for y in range(size):
            if (x, y) not in board and any(
                run_length(board, size, x, y, to_move, dx, dy) >= 5 for dx, dy in DIRECTIONS
            ):
                return True
    return False


def candidate(rng, size, stones, spread, radius):
    """A random plausible opening: the first stone near the centre, each later one within
    `spread` cells of an earlier one, all within `radius` of the centre."""
    c = size // 2
    lo, hi = c - radius, c + radius
    placed = [(rng.randint(c - 1, c + 1), rng.randint(c - 1, c + 1))]
    while len(placed) < stones:
        ax, ay = rng.choice(placed)
        x, y = ax + rng.randint(-spread, spread), ay + rng.randint(-spread, spread)
        if lo <= x <= hi and lo <= y <= hi and (x, y) not in placed:
            placed.append((x, y))
    return placed


def notation(stones):
    return "".join(f"{chr(ord('a') + x)}{y + 1}" for x, y in stones)


class Judge:
    """A Gomocup engine that evaluates positions with a fixed-node search (BOARD ... DONE, its
    last `MESSAGE ... Eval N` line read as the score for the side to move)."""

    def __init__(self, cmd, size, rule, nodes):
        self.proc = subprocess.Popen(
            cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )
        # A reader thread, so that waiting for a reply can time out.
        self.lines = queue.Queue()
        threading.Thread(target=self.read_all, daemon=True).start()
        self.send(f"START {size}")
        self.expect_ok()
        # Unlimited match and turn time (timeout_match 0): the node cap alone ends a search.
        for opt in ("thread_num 1", f"max_node {nodes}", "timeout_match 0",
                    "time_left 2147483647", "timeout_turn 600000", f"rule {rule}"):
            self.send(f"INFO {opt}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_all(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def readline(self, timeout=None):
        """The engine's next line; None when `timeout` seconds pass without one."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            sys.exit("make_openings.py: the engine quit")
        return line

    def wait_idle(self):
        """Returns once the engine takes commands again. Rapfi prints its move a moment before it
        leaves its thinking state and silently drops any command but END/STOP meanwhile, so
        ABOUT is sent until one is answered (a late second answer is ignored like any line)."""
        while True:
            self.send("ABOUT")
            line = self.readline(timeout=0.5)
            while line is not None and not line.startswith("name="):
                line = self.readline(timeout=0.5)
            if line is not None:
                return

    def expect_ok(self):
        line = self.readline()
        if line != "OK":
            sys.exit(f"make_openings.py: the engine answered START with {line!r}")

    def evaluate(self, stones):
        """The eval for the side to move as an int, or None for a mate score or no eval (an
        engine that sees a win at once plays it without a search)."""
        to_move = len(stones) % 2
        self.wait_idle()
        self.send("YXHASHCLEAR")
        self.send("BOARD")
        for i, (x, y) in enumerate(stones):
            self.send(f"{x},{y},{1 if i % 2 == to_move else 2}")
        self.send("DONE")
        ev, evaluated = None, False
        while True:
            line = self.readline()
            if re.fullmatch(r"\d+,\d+", line):
                if not evaluated:
                    sys.exit("make_openings.py: the engine printed no evaluation (Rapfi's `Eval N` or"
                             " Arbor's `ev N` in a MESSAGE line) before its move")
                return ev
            if line.startswith("ERROR"):
                sys.exit(f"make_openings.py: the engine said {line!r} to {notation(stones)}")
            # Rapfi's `Eval 35` / `Eval +M21`, Arbor's `ev 35` / `ev win in 5`: a mate is None.
            m = re.search(r"\b(?:Eval|ev) ([-+]?\d+|\S+)", line)
            if m:
                evaluated = True
                ev = int(m.group(1)) if re.fullmatch(r"[-+]?\d+", m.group(1)) else None

    def close(self):
        self.send("END")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True,
                    help="command of a Gomocup engine, e.g. pbrain-rapfi")
    ap.add_argument("--rule", choices=RULES, default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--count", type=int, default=1000, help="openings to keep")
    ap.add_argument("--max-candidates", type=int, default=100000,
                    help="stop after judging this many candidates even if short of --count")
    ap.add_argument("--min-stones", type=int, default=4)
    ap.add_argument("--max-stones", type=int, default=6)
    ap.add_argument("--spread", type=int, default=2,
                    help="each stone lies within this many cells (Chebyshev) of an earlier one")
    ap.add_argument("--radius", type=int, default=4,
                    help="all stones lie within this many cells of the centre")
    ap.add_argument("--window", type=int, default=80,
                    help="keep evaluations in [-window, window] (the judge's units)")
    ap.add_argument("--nodes", type=int, default=100000, help="the judge's nodes per position")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="output file (written as it goes)")
    ap.add_argument("--log", help="also write every judged candidate with its eval here")
    args = ap.parse_args()
    if not (1 <= args.min_stones <= args.max_stones and 2 * args.radius + 1 <= args.size):
        ap.error("need 1 <= --min-stones <= --max-stones and a --radius that fits the board")
    if args.spread < 1 or args.radius < 1 or args.max_stones > (2 * args.radius + 1) ** 2:
        ap.error("need --spread and --radius of 1 or more, and room for --max-stones within --radius")

    rng = random.Random(args.seed)
    syms = symmetries(args.size)
    seen = set()
    judge = Judge(args.engine, args.size, RULES[args.rule], args.nodes)
    judged = kept = decided = 0
    out_of_window = []
    start = time.time()
    log = open(args.log, "w") if args.log else None
    # Candidates drawn in a row that were seen before or already decided: past this many, the
    # settings have no new candidate left to give.
    fruitless, most_fruitless = 0, 10_000
    with open(args.out, "w") as out:
        while kept < args.count and judged < args.max_candidates and fruitless < most_fruitless:
            stones = candidate(rng, args.size, rng.randint(args.min_stones, args.max_stones),
                               args.spread, args.radius)
            key = canonical(stones, syms)
            fruitless += 1
            if key in seen:
                continue
            seen.add(key)
            if already_decided(stones, args.size):
                decided += 1
                continue
            fruitless = 0
            judged += 1
            ev = judge.evaluate(stones)
            if log:
                print(notation(stones), "mate" if ev is None else ev, file=log, flush=True)
            if ev is not None and abs(ev) <= args.window:
                kept += 1
                print(notation(stones), file=out, flush=True)
            else:
                out_of_window.append(ev)
            if judged % 100 == 0:
                print(f"judged {judged}, kept {kept}, {time.time() - start:.0f} s",
                      file=sys.stderr, flush=True)
    judge.close()
    if log:
        log.close()
    if fruitless >= most_fruitless:
        print(f"make_openings.py: {most_fruitless} candidates in a row were seen before or decided:"
              " no new ones left (widen --spread, --radius or the stone counts)", file=sys.stderr)
    mates = sum(e is None for e in out_of_window)
    print(f"make_openings.py: {args.rule} {args.size}, seed {args.seed}, {args.nodes} nodes, "
          f"window +/-{args.window}: judged {judged} candidates (skipped {decided} already "
          f"decided), kept {kept}; rejected {len(out_of_window)} ({mates} mate scores); "
          f"{time.time() - start:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
