#!/usr/bin/env python3
"""GTP referee for the Game of the Amazons (5x5 to 11x11; Python 3 standard library only).

Plays N games between two GTP engines, alternating colours (engine1 moves first in games 1, 3,
5, ...: White, or Black on 8x8, Botzone's board). Every move is checked with the referee's own move generator; the side to
move with no legal move loses. An engine loses a game when it:
  - replies `resign`,
  - sends an illegal or unparsable move (reported with the move),
  - answers `genmove` later than --time-per-move + --grace seconds (a time loss; the engine is
    then restarted, since its late reply would desynchronise the GTP stream),
  - dies, closes its output or answers `play` with an error (a crash; restarted for the next game).
Engines are told the limit with `time_settings 0 <secs> 1` and `time_left <colour> <secs> 1`
before each genmove (errors to those two are ignored).

Moves are sent as `d1-d7/g7` (queen d1 to d7, arrow to g7); engines may answer `d1-d7/g7`,
`d1d7g7`, `d1-d7-g7` or `d1-d7(g7)`, in any letter case.

--size WxH (default 10x10) picks the board, sent as `boardsize N` (square) or `boardsize W H`.
Each size starts as Arbor starts it (`arbor gtp --game amazons`, README): White's queens on
the first rank a third of the way in from each side and on the outer files a third of the way
up, Black's mirrored from the top: the standard 10x10 start, Mueller's 6x5 (a2 b1 e1 f2
against a4 b5 e5 f4), Botzone's 8x8 (a3 c1 f1 h3 against a6 c8 f8 h6, Black first).

Example:
  python3 scripts/amazons_match.py --games 10 --time-per-move 1 \\
      --engine1 "target/release/arbor gtp --game amazons" \\
      --engine2 "python3 /path/to/random_gtp.py" --log /tmp/amazons-games
"""
import argparse
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time

WIDTH = HEIGHT = 10                    # set from --size before any game
FILES = "abcdefghijk"
EMPTY, WHITE, BLACK, ARROW = 0, 1, 2, 3
COLOR_NAME = {WHITE: "white", BLACK: "black"}
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
SQUARE = r"([a-k])(1[01]|[1-9])"
MOVE_RE = re.compile(rf"^{SQUARE}-?{SQUARE}(?:[/\-,(]?){SQUARE}\)?$")


# ---------------------------------------------------------------- rules
def sq_name(sq):
    return FILES[sq % WIDTH] + str(sq // WIDTH + 1)


def parse_sq(file_ch, rank_str):
    """Square index, or None off the board."""
    file, rank = FILES.index(file_ch), int(rank_str) - 1
    return rank * WIDTH + file if file < WIDTH and rank < HEIGHT else None


def first_color():
    """Who moves first: White, but Black on Botzone's 8x8 board."""
    return BLACK if (WIDTH, HEIGHT) == (8, 8) else WHITE


def move_text(move):
    frm, to, arrow = move
    return f"{sq_name(frm)}-{sq_name(to)}/{sq_name(arrow)}"


def parse_move(text):
    """`d1-d7/g7` style text -> (from, to, arrow) square indices (None for a square off the
    board), or None."""
    m = MOVE_RE.match(text.strip().lower())
    if not m:
        return None
    g = m.groups()
    return parse_sq(g[0], g[1]), parse_sq(g[2], g[3]), parse_sq(g[4], g[5])


class Board:
    """Squares 0..WIDTH*HEIGHT-1, index = (rank - 1) * WIDTH + file; a1 = 0."""

    def __init__(self):
        self.cells = [EMPTY] * (WIDTH * HEIGHT)
        file, rank, top = (WIDTH - 1) // 3, (HEIGHT - 1) // 3, HEIGHT - 1
        for color, r_outer, r_inner in ((WHITE, rank, 0), (BLACK, top - rank, top)):
            for f, r in ((0, r_outer), (file, r_inner), (WIDTH - 1 - file, r_inner), (WIDTH - 1, r_outer)):
                self.cells[r * WIDTH + f] = color
        self.to_move = first_color()

    def rays(self, sq):
        """Yield, per direction, the empty squares a queen on sq reaches."""
        r0, f0 = divmod(sq, WIDTH)
        for dr, df in DIRS:
            ray, r, f = [], r0 + dr, f0 + df
            while 0 <= r < HEIGHT and 0 <= f < WIDTH and self.cells[r * WIDTH + f] == EMPTY:
                ray.append(r * WIDTH + f)
                r, f = r + dr, f + df
            yield ray

    def reachable(self, sq):
        return {s for ray in self.rays(sq) for s in ray}

    def has_move(self, color):
        """A queen can move iff a neighbour is empty (it can then shoot back where it stood)."""
        return any(ray for sq, c in enumerate(self.cells) if c == color for ray in self.rays(sq))

    def illegal_reason(self, move):
        """None if move is legal for the side to move, else why not."""
        frm, to, arrow = move
        if None in move:
            return f"a square is off the {WIDTH}x{HEIGHT} board"
        if self.cells[frm] != self.to_move:
            return f"no {COLOR_NAME[self.to_move]} queen on {sq_name(frm)}"
        if to not in self.reachable(frm):
            return f"queen cannot move {sq_name(frm)}-{sq_name(to)}"
        self.cells[frm], self.cells[to] = EMPTY, self.to_move
        ok = arrow in self.reachable(to)
        self.cells[frm], self.cells[to] = self.to_move, EMPTY
        return None if ok else f"arrow cannot fly {sq_name(to)}-{sq_name(arrow)}"

    def play(self, move):
        frm, to, arrow = move
        self.cells[frm], self.cells[to], self.cells[arrow] = EMPTY, self.to_move, ARROW
        self.to_move = BLACK if self.to_move == WHITE else WHITE


# ---------------------------------------------------------------- GTP engine process
class EngineError(Exception):
    """kind is 'timeout' or 'crash'."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


class Engine:
    def __init__(self, label, command, stderr_path):
        self.label, self.command, self.stderr_path = label, command, stderr_path
        self.proc, self.name = None, label

    def start(self, timeout):
        err = open(self.stderr_path, "ab") if self.stderr_path else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(shlex.split(self.command), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=err, text=True, bufsize=1)
        except OSError as e:
            raise EngineError("crash", f"cannot start '{self.command}': {e}")
        if err is not subprocess.DEVNULL:
            err.close()
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc, self.lines), daemon=True).start()
        ok, name = self.send("name", timeout)
        self.name = name if ok and name else self.label

    @staticmethod
    def _pump(proc, lines):
        for line in proc.stdout:
            lines.put(line.rstrip("\r\n"))
        lines.put(None)  # end of output

    def send(self, command, timeout):
        """Send one command; return (success, text). Raises EngineError."""
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError("crash", f"cannot write '{command}' (engine gone)")
        deadline, reply = time.monotonic() + timeout, []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineError("timeout", f"no complete reply to '{command}' in {timeout:.2f}s")
            if line is None:
                raise EngineError("crash", f"engine exited while answering '{command}'")
            if not reply and not line.strip():
                continue  # blank lines before a reply
            if not reply and line[:1] not in "=?":
                continue  # debugging chatter before the reply
            if reply and not line.strip():
                text = "\n".join(reply)
                return text[0] == "=", re.sub(r"^[=?]\d*\s?", "", text).strip()
            reply.append(line)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=2)
            except Exception:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None


# ---------------------------------------------------------------- one game
class Stats:
    def __init__(self):
        self.wins = self.wins_white = self.wins_black = self.games_white = self.games_black = 0
        self.time_losses = self.illegal = self.crashes = self.resigns = self.overruns = 0
        self.move_times = []


def play_game(white, black, args, stats, log):
    """Returns (winner_engine, loser_engine, reason, moves)."""
    board, moves = Board(), []
    engines = {WHITE: white, BLACK: black}
    boardsize = f"boardsize {WIDTH}" if WIDTH == HEIGHT else f"boardsize {WIDTH} {HEIGHT}"
    for eng in (white, black):
        for cmd in (boardsize, "clear_board", f"time_settings 0 {args.time_per_move:g} 1"):
            try:
                if not eng.alive():
                    eng.start(args.setup_timeout)
                ok, text = eng.send(cmd, args.setup_timeout)
            except EngineError as e:
                stats[eng].crashes += 1
                eng.stop()
                return (black if eng is white else white), eng, f"{eng.label} failed at setup: {e}", moves
            if not ok and cmd in (boardsize, "clear_board"):
                # An engine that cannot set the board up would play its moves on another one.
                stats[eng].crashes += 1
                return (black if eng is white else white), eng, f"{eng.label}: {cmd} failed: {text}", moves
    while True:
        color = board.to_move
        mover, other = engines[color], engines[WHITE if color == BLACK else BLACK]
        if not board.has_move(color):
            return other, mover, f"{COLOR_NAME[color]} has no legal move", moves
        genmove = False
        try:
            mover.send(f"time_left {COLOR_NAME[color]} {args.time_per_move:g} 1", args.setup_timeout)
            genmove, t0 = True, time.monotonic()
            ok, text = mover.send(f"genmove {COLOR_NAME[color]}", args.time_per_move + args.grace)
            elapsed = time.monotonic() - t0
        except EngineError as e:
            if genmove and e.kind == "timeout":
                stats[mover].time_losses += 1
                reason = f"{mover.label} ({COLOR_NAME[color]}) lost on time: {e}"
            else:
                stats[mover].crashes += 1
                reason = f"{mover.label} ({COLOR_NAME[color]}) crashed: {e}"
            mover.stop()
            return other, mover, reason, moves
        stats[mover].move_times.append(elapsed)
        if elapsed > args.time_per_move:
            stats[mover].overruns += 1
        if log:
            log.write(f"{len(moves) + 1:3d} {COLOR_NAME[color]:5s} {text:14s} {elapsed:7.3f}s\n")
        if ok and text.lower() == "resign":
            stats[mover].resigns += 1
            return other, mover, f"{mover.label} ({COLOR_NAME[color]}) resigned", moves
        move = parse_move(text) if ok else None
        why = board.illegal_reason(move) if move else f"unparsable reply '{'=' if ok else '?'} {text}'"
        if why:
            stats[mover].illegal += 1
            return other, mover, f"{mover.label} ({COLOR_NAME[color]}) illegal move '{text}': {why}", moves
        board.play(move)
        moves.append(move_text(move))
        try:
            ok, text = other.send(f"play {COLOR_NAME[color]} {moves[-1]}", args.setup_timeout)
        except EngineError as e:
            ok, text = False, str(e)
            other.stop()
        if not ok:
            stats[other].crashes += 1
            return mover, other, f"{other.label} rejected 'play {COLOR_NAME[color]} {moves[-1]}': {text}", moves


# ---------------------------------------------------------------- match
def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] + " Plays games between two GTP engines and reports "
        "wins, colours, time losses, illegal moves, crashes and move times.",
        epilog=__doc__[__doc__.index("Plays N"):], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine1", required=True,
                        help='first engine command line, e.g. "target/release/arbor gtp --game amazons"')
    parser.add_argument("--engine2", required=True, help="second engine command line")
    parser.add_argument("--games", type=int, default=2, help="number of games (default 2)")
    parser.add_argument("--size", default="10x10", metavar="WxH",
                        help="board, width first, 5 to 11 each (default 10x10; N for NxN)")
    parser.add_argument("--time-per-move", type=float, default=1.0, metavar="SECONDS",
                        help="time limit per genmove, sent as time_settings 0 SECONDS 1 (default 1)")
    parser.add_argument("--grace", type=float, default=0.5, metavar="SECONDS",
                        help="extra time before a late reply counts as a time loss (default 0.5)")
    parser.add_argument("--setup-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="limit for start-up and non-genmove commands (default 30)")
    parser.add_argument("--log", metavar="DIR", help="write game_NNN.txt (moves, times, result) and "
                        "each engine's stderr (engine1.stderr, engine2.stderr) into DIR")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    args = parser.parse_args()
    if args.games < 1 or args.time_per_move <= 0 or args.grace < 0:
        parser.error("--games must be >= 1, --time-per-move > 0, --grace >= 0")
    global WIDTH, HEIGHT
    size = re.fullmatch(r"(\d+)(?:x(\d+))?", args.size.lower())
    if not size:
        parser.error(f"--size {args.size!r} is not WxH or N")
    WIDTH, HEIGHT = int(size.group(1)), int(size.group(2) or size.group(1))
    if not (5 <= WIDTH <= 11 and 5 <= HEIGHT <= 11):
        parser.error(f"--size {args.size}: width and height must be from 5 to 11")
    if args.log:
        os.makedirs(args.log, exist_ok=True)
    e1 = Engine("engine1", args.engine1, args.log and os.path.join(args.log, "engine1.stderr"))
    e2 = Engine("engine2", args.engine2, args.log and os.path.join(args.log, "engine2.stderr"))
    stats = {e1: Stats(), e2: Stats()}
    started = time.monotonic()
    try:
        for eng in (e1, e2):
            try:
                eng.start(args.setup_timeout)
            except EngineError as e:
                sys.exit(f"amazons_match.py: {eng.label}: {e}")
        for game in range(1, args.games + 1):
            first, second = (e1, e2) if game % 2 == 1 else (e2, e1)
            white, black = (first, second) if first_color() == WHITE else (second, first)
            stats[white].games_white += 1
            stats[black].games_black += 1
            log = None
            if args.log:
                log = open(os.path.join(args.log, f"game_{game:03d}.txt"), "w", buffering=1)
                log.write(f"# game {game}: white {white.label} [{args.engine1 if white is e1 else args.engine2}]\n"
                          f"# black {black.label} [{args.engine1 if black is e1 else args.engine2}]\n"
                          f"# time per move {args.time_per_move:g}s + grace {args.grace:g}s\n")
            winner, _loser, reason, moves = play_game(white, black, args, stats, log)
            s = stats[winner]
            s.wins += 1
            if winner is white:
                s.wins_white += 1
            else:
                s.wins_black += 1
            line = (f"game {game:3d}: {white.label} (W, {white.name}) vs {black.label} (B, {black.name}): "
                    f"{winner.label} wins after {len(moves)} moves - {reason}")
            if log:
                log.write(f"# result: {winner.label} ({'white' if winner is white else 'black'}) wins - {reason}\n")
                log.write("# moves: " + " ".join(moves) + "\n")
                log.close()
            if not args.quiet:
                print(line, flush=True)
    finally:
        e1.stop()
        e2.stop()
    print_summary(e1, e2, stats, args, time.monotonic() - started)


def print_summary(e1, e2, stats, args, seconds):
    print(f"\n=== {WIDTH}x{HEIGHT}, {args.games} games, {args.time_per_move:g}s/move (+{args.grace:g}s grace), {seconds:.0f}s wall ===")
    print(f"{'engine':8s} {'wins':>5s} {'as W':>7s} {'as B':>7s} {'time':>5s} {'illeg':>5s} {'crash':>5s} "
          f"{'resgn':>5s} {'over':>5s} {'moves':>6s} {'avg s':>6s} {'max s':>6s}  name / command")
    for eng in (e1, e2):
        s = stats[eng]
        t = s.move_times
        avg, mx = (sum(t) / len(t), max(t)) if t else (0.0, 0.0)
        print(f"{eng.label:8s} {s.wins:5d} {s.wins_white:3d}/{s.games_white:<3d} "
              f"{s.wins_black:3d}/{s.games_black:<3d} {s.time_losses:5d} {s.illegal:5d} {s.crashes:5d} "
              f"{s.resigns:5d} {s.overruns:5d} {len(t):6d} {avg:6.3f} {mx:6.3f}  {eng.name} [{eng.command}]")
    print(f"score engine1 - engine2: {stats[e1].wins} - {stats[e2].wins}")
    print("(time = time losses, illeg = illegal/unparsable moves, crash = exits, hangs outside genmove or "
          "errors to play/boardsize/clear_board, over = genmoves slower than the limit but within the grace)")


if __name__ == "__main__":
    sys.exit(main())
