#!/usr/bin/env python3
"""End-to-end Gomocup protocol check of a pbrain engine, driven through pygomo-lib (`pygomo`).

Plays two 15x15 freestyle games and referees them here:
  1. the engine (black, BEGIN then TURN) against a seeded random mover that plays near the stones;
  2. the engine against itself: two processes, the second one entering through BOARD.
Every engine move must be a coordinate on an empty square, and must arrive within the per-move
limit (INFO timeout_turn, default 200 ms) plus a small margin. Each game must end with a five
(five or more in a row) or a full board. The whole run is bounded (default 60 s).
Exit status: 0 on success, 1 with a message on the first failure.

Setup:  python3 -m venv .venv && .venv/bin/pip install -r tests/requirements.txt
Run:    .venv/bin/python tests/pygomo_client.py [ENGINE] [--turn-ms 200] [--margin-ms 100]
ENGINE defaults to target/release/pbrain-arbor in the repository. It runs in the current directory
(Rapfi, for one, reads config.toml from there).
"""
import argparse
import collections
import random
import sys
import threading
import time
from pathlib import Path

from pygomo import BoardPosition, EngineClient, Move

sys.dont_write_bytecode = True                   # no __pycache__ in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from referee import Board  # noqa: E402

SIZE = 15
DEFAULT_ENGINE = Path(__file__).resolve().parent.parent / "target/release/pbrain-arbor"


class Failure(Exception):
    pass


class EnginePlayer:
    """One engine process, reused across games; asks for moves with BEGIN, BOARD or TURN."""

    def __init__(self, path, name, turn_ms, margin_ms):
        self.name, self.turn_ms, self.limit_ms = name, turn_ms, turn_ms + margin_ms
        self.client = EngineClient(str(path))
        self.client.connect()
        # pygomo pipes the engine's stderr but never reads it; drain it so the engine cannot block
        # on a full pipe, and keep the tail for error messages.
        self.stderr = collections.deque(maxlen=20)
        proc = self.client._transport._process
        threading.Thread(target=lambda: self.stderr.extend(proc.stderr), daemon=True).start()

    def new_game(self):
        # pygomo takes the first plain output line as the answer to START, so drop stale ones.
        junk = self.client.router.get_all("output")
        if junk:
            print(f"warning: {self.name} printed unexpected lines: {junk[:5]}")
        if not self.client.start(SIZE, timeout=5):
            raise Failure(f"{self.name}: no OK after START {SIZE}")
        # execute() sends the keys verbatim (configure() would upper-case them).
        for key, value in (("timeout_turn", self.turn_ms), ("timeout_match", 0), ("rule", 0),
                           ("max_memory", 64 << 20), ("game_type", 1)):
            self.client.execute("INFO", key, value)
        self.started = False
        return self

    def move(self, board, last):
        timeout = self.limit_ms / 1000 + 1.0
        t0 = time.monotonic()
        if self.started:
            # Sending an INFO first, as c-gomoku-cli does, also avoids Rapfi dropping a TURN sent
            # just after its own move.
            self.client.execute("INFO", "time_left", 2147483647)
            result = self.client.turn(last, timeout=timeout)
        elif not board.history:
            result = self.client.begin(timeout=timeout)
        else:
            position = BoardPosition()
            me = len(board.history) % 2
            for xy in board.history:
                owner = BoardPosition.SELF if board.stones[xy] == me else BoardPosition.OPPONENT
                position.add_move(Move(xy), owner)
            result = self.client.board(position, timeout=timeout)
        ms = (time.monotonic() - t0) * 1000
        self.started = True
        if result is None:
            state = "is alive" if self.client.is_connected else "has exited"
            said = {ch: self.client.router.get_all(ch)[-5:] for ch in ("error", "output", "message")
                    } if self.client.router else {}
            raise Failure(f"{self.name}: no move within {timeout:.1f} s at ply {len(board.history)}"
                          f" (process {state}); last lines: {said}; stderr: {list(self.stderr)}")
        if ms > self.limit_ms:
            raise Failure(f"{self.name}: move at ply {len(board.history)} took {ms:.0f} ms,"
                          f" limit {self.turn_ms} ms + margin")
        return result.move.to_tuple(), ms

    def close(self):
        try:
            self.client.quit()                       # END, then terminate the process
        except Exception:
            self.client.disconnect()


class RandomPlayer:
    """Deterministic random mover: a seeded pick among empty squares next to the stones."""

    def __init__(self, seed):
        self.name, self.rng = "random", random.Random(seed)

    def move(self, board, last):
        near = {(x + dx, y + dy) for x, y in board.stones for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        empty = [(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in board.stones]
        moves = sorted(p for p in near if p in empty) or empty or [(SIZE // 2, SIZE // 2)]
        return self.rng.choice(moves), 0.0

    def close(self):
        pass


def play_game(title, black, white, deadline):
    board, last, times = Board(SIZE, "freestyle"), None, collections.defaultdict(list)
    players = (black, white)
    while True:
        if time.monotonic() > deadline:
            raise Failure(f"{title}: total time limit exceeded at ply {len(board.history)}")
        player = players[len(board.history) % 2]
        last, ms = player.move(board, last)
        if not board.play(last):
            raise Failure(f"{player.name} played an illegal move {last[0]},{last[1]} at ply {len(board.history)}")
        times[player.name].append(ms)
        if board.wins(last) or board.full():
            break
    outcome = (f"{player.name} ({'black' if player is black else 'white'}) made five"
               if board.wins(last) else "board full, draw")
    stats = ", ".join(f"{n}: max {max(t):.0f} ms avg {sum(t) / len(t):.0f} ms"
                      for n, t in times.items() if n != "random")
    print(f"{title}: {outcome} after {len(board.history)} stones; {stats}")


def main():
    ap = argparse.ArgumentParser(description="pygomo end-to-end game check of a pbrain engine")
    ap.add_argument("engine", nargs="?", default=str(DEFAULT_ENGINE))
    ap.add_argument("--turn-ms", type=int, default=200, help="INFO timeout_turn (ms)")
    ap.add_argument("--margin-ms", type=int, default=100, help="allowed lateness per move (ms)")
    ap.add_argument("--total-s", type=float, default=60, help="limit for the whole run (s)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    engine = Path(a.engine).resolve()
    if not engine.is_file():
        sys.exit(f"FAIL: engine not found: {engine}")
    deadline = time.monotonic() + a.total_s
    players = []
    try:
        for name in ("engine", "engine#2"):
            players.append(EnginePlayer(engine, name, a.turn_ms, a.margin_ms))
        play_game("game 1 (engine vs random mover)", players[0].new_game(), RandomPlayer(a.seed),
                  deadline)
        play_game("game 2 (engine vs itself)", players[0].new_game(), players[1].new_game(),
                  deadline)
    except Failure as e:
        sys.exit(f"FAIL: {e}")
    finally:
        for p in players:
            p.close()
    print(f"OK: {engine.name} passed")


if __name__ == "__main__":
    main()
