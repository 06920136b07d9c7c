"""Referees for one Gomoku game pair between two Gomocup engines: an opening played twice, the
colours swapped, as c-gomoku-cli's -repeat plays it.

- `pair_with_cli`: c-gomoku-cli referees (every rule it knows; its SGF is read back).
- `pair_with_pygomo`: this module referees, talking to the engines through pygomo-lib's client
  (freestyle and exact five), for machines without c-gomoku-cli, such as CI.

The first engine has black in the first game. A game comes back as a dict: `black` and `white`
(the engines' names), `moves` (every stone, opening included, as "x,y"), `opening` (how many of
them were given), `result` ("1-0", "0-1" or "1/2-1/2", for black) and `reason`.
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True                   # no __pycache__ in the repository

RULES = {"freestyle": 0, "standard": 1, "renju": 4}


def parse_opening(text, size):
    """The stones of a c-gomoku-cli `pos` opening ("h8i9j8": column letter, row from 1)."""
    stones = [(ord(col) - ord("a"), int(row) - 1) for col, row in re.findall(r"([a-z])(\d+)", text)]
    if "".join(f"{chr(ord('a') + x)}{y + 1}" for x, y in stones) != text or not all(
            0 <= x < size and 0 <= y < size for x, y in stones):
        raise ValueError(f"not an opening on a {size}x{size} board: {text!r}")
    return stones


class Board:
    """The referee's board: five or more in a row wins (freestyle), or exactly five (standard)."""

    def __init__(self, size, rule):
        if rule not in ("freestyle", "standard"):
            raise ValueError(f"this referee plays freestyle and standard, not {rule}")
        self.size, self.exact = size, rule == "standard"
        self.stones, self.history = {}, []

    def play(self, xy):
        x, y = xy
        if not (0 <= x < self.size and 0 <= y < self.size) or xy in self.stones:
            return False
        self.stones[xy] = len(self.history) % 2
        self.history.append(xy)
        return True

    def wins(self, xy):
        """The stone at `xy` made a winning line."""
        colour, (x, y) = self.stones[xy], xy
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                k = 1
                while self.stones.get((x + sign * k * dx, y + sign * k * dy)) == colour:
                    run, k = run + 1, k + 1
            if run == 5 or (run > 5 and not self.exact):
                return True
        return False

    def full(self):
        return len(self.stones) == self.size * self.size


class Player:
    """One engine process for one game, asked with BOARD for its first move and TURN after."""

    def __init__(self, engine, size, rule, limits):
        from pygomo import EngineClient

        self.name = engine["name"]
        self.client = EngineClient(engine["path"])
        self.client.connect()
        # START builds the pattern tables and the hash table: seconds on a loaded 2-core machine.
        if not self.client.start(size, timeout=60):
            self.close()
            raise RuntimeError(f"{self.name}: no OK after START {size}")
        settings = {"rule": RULES[rule], "thread_num": 1, "max_memory": 64 << 20, "timeout_match": 0,
                    "timeout_turn": limits.get("turn_ms", 0) or 2147483647}
        if "nodes" in limits:
            settings["max_node"] = limits["nodes"]
        for key, value in settings.items():
            self.client.execute("INFO", key, value)
        self.started = False

    def move(self, board):
        from pygomo import BoardPosition, Move

        if self.started:
            result = self.client.turn(Move(board.history[-1]), timeout=600)
        elif not board.history:
            result = self.client.begin(timeout=600)
        else:
            position = BoardPosition()
            me = len(board.history) % 2
            for xy in board.history:
                position.add_move(Move(xy), BoardPosition.SELF if board.stones[xy] == me else BoardPosition.OPPONENT)
            result = self.client.board(position, timeout=600)
        self.started = True
        return None if result is None else result.move.to_tuple()

    def close(self):
        try:
            self.client.quit()
        except Exception:
            self.client.disconnect()


def game_with_pygomo(black, white, opening, size, rule, limits):
    board = Board(size, rule)
    for xy in opening:
        if not board.play(xy):
            raise ValueError(f"the opening repeats or leaves the board at {xy}")
    game = {"black": black["name"], "white": white["name"], "opening": len(opening)}
    players = []
    try:
        players += [Player(black, size, rule, limits)]
        players += [Player(white, size, rule, limits)]
        while True:
            side = len(board.history) % 2
            xy = players[side].move(board)
            winner = "1-0" if side == 0 else "0-1"
            loser = "0-1" if side == 0 else "1-0"
            if xy is None:
                result, reason = loser, f"{players[side].name} gave no move"
            elif not board.play(xy):
                result, reason = loser, f"{players[side].name} played an illegal move {xy[0]},{xy[1]}"
            elif board.wins(xy):
                result, reason = winner, "five"
            elif board.full():
                result, reason = "1/2-1/2", "full board"
            else:
                continue
            break
    finally:
        for player in players:
            player.close()
    return {**game, "moves": [f"{x},{y}" for x, y in board.history], "result": result, "reason": reason}


def pair_with_pygomo(engines, opening_text, size, rule, limits):
    opening = parse_opening(opening_text, size)
    first, second = engines
    return [game_with_pygomo(first, second, opening, size, rule, limits),
            game_with_pygomo(second, first, opening, size, rule, limits)]


def sgf_games(text):
    """The games of c-gomoku-cli's SGF file, in the shape above."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from match_report import prop, sgf_games as split_games

    results = {"B+1": "1-0", "W+1": "0-1", "0": "1/2-1/2"}
    games = []
    for game in sorted(split_games(text), key=lambda g: int(prop(g, "GN") or 0)):
        if prop(game, "RE") not in results:
            # Counted as anything, a game whose result cannot be read would bias the run.
            raise ValueError(f"c-gomoku-cli game {prop(game, 'GN') or '?'} has no result c-gomoku-cli writes")
        nodes = re.findall(r";[BW]\[([a-z])([a-z])\](?:C\[([^\]]*)\])?", game)
        games.append({
            "black": prop(game, "PB"), "white": prop(game, "PW"),
            "moves": [f"{ord(x) - ord('a')},{ord(y) - ord('a')}" for x, y, _ in nodes],
            "opening": sum(comment == "opening move" for _, _, comment in nodes),
            "result": results[prop(game, "RE")], "reason": prop(game, "TE")})
    return games


def pair_with_cli(cli, engines, opening_text, size, rule, limits):
    parse_opening(opening_text, size)
    with tempfile.TemporaryDirectory(prefix="arbor-pair-") as folder:
        folder = Path(folder)
        (folder / "opening.txt").write_text(opening_text + "\n")
        tc = f"tc=0/{limits['turn_ms'] / 1000}" if "turn_ms" in limits else "tc=0/3600"
        command = [cli]
        for engine in engines:
            command += ["-engine", f"name={engine['name']}", f"cmd={engine['path']}"]
        command += ["-each", tc, "thread=1", f"maxmemory={64 << 20}"]
        if "nodes" in limits:
            command.append(f"nodes={limits['nodes']}")
        command += ["-rule", str(RULES[rule]), "-boardsize", str(size), "-games", "2", "-repeat",
                    "-openings", f"file={folder / 'opening.txt'}", "type=pos", "-sgf", str(folder / "games.sgf")]
        run = subprocess.run(command, cwd=folder, capture_output=True, text=True)
        sgf = folder / "games.sgf"
        if run.returncode != 0 or not sgf.exists():
            raise RuntimeError(f"c-gomoku-cli failed ({run.returncode}): {run.stdout[-500:]} {run.stderr[-500:]}")
        # c-gomoku-cli gives the first game to either colour; the first engine is black first here.
        return sorted(sgf_games(sgf.read_text()), key=lambda game: game["black"] != engines[0]["name"])
