#!/usr/bin/env python3
"""Solve rate of any Gomocup (pbrain) engine on a suite of positions (python3 stdlib only).

A suite file (protocol-tests/long-wins/*.txt) holds one position a line:
    ID RULE SIZE MOVES GOOD PLIES NOTE...
RULE is the Gomocup rule code (0 freestyle, 1 exact five, 4 renju), MOVES the game so far in the
openings' "pos" notation (x letter from a, y number from 1, black first), GOOD the accepted
replies as Gomocup "x,y" joined by "|" (the form a transcript's `~` pattern takes), PLIES the
length of the forced win (or, in a safe-move suite, of the win the bad move walks into), and NOTE
where the position came from and how it was checked. `#` starts a comment.

Each position is given to a fresh engine process (so nothing is left in its hash table) with
BOARD, one thread and the turn time asked for, or a node budget (INFO max_node). A position
counts as solved when the reply is one of GOOD. A reply outside GOOD is shown, so that it can be
checked by hand: it may be another winning move the suite does not list yet.

Usage:
  python3 scripts/solve_rate.py --engine target/release/pbrain-arbor --time 1 \\
      protocol-tests/long-wins/freestyle-15.txt
  python3 scripts/solve_rate.py --engine "/path/pbrain-rapfi" --time 1 FILE...
  python3 scripts/solve_rate.py --engine target/release/pbrain-arbor --nodes 200000 \\
      --transcript protocol-tests/gomocup/long-wins.txt FILE
  python3 scripts/solve_rate.py --engine target/release/pbrain-arbor --nodes 700000 \\
      --judge /path/pbrain-rapfi protocol-tests/long-wins/safe-freestyle-15.txt
(--transcript writes a transcript of the positions solved under the node budget, for
`cargo test`; it needs --nodes, since a transcript must not depend on the clock. --judge, for a
safe-move suite, asks that engine (Rapfi) about every reply outside GOOD: it reads the position
after the reply at --judge-nodes, and the reply counts as safe when it finds no forced win.)
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

MOVE_RE = re.compile(r"^(\d+),(\d+)$")


def parse_pos(moves, size):
    """'h8i9' -> [(7, 7), (8, 8)]: Gomocup (x, y) from the openings' pos notation."""
    out = [(ord(m.group(1)) - ord("a"), int(m.group(2)) - 1)
           for m in re.finditer(r"([a-z])(\d+)", moves)]
    if format_pos(out) != moves:
        raise ValueError(f"bad moves {moves!r}")
    if any(not (0 <= x < size and 0 <= y < size) for x, y in out) or len(set(out)) != len(out):
        raise ValueError(f"moves off the board or repeated: {moves!r}")
    return out


def format_pos(moves):
    """[(7, 7), (8, 8)] -> 'h8i9': the openings' pos notation of Gomocup (x, y) moves."""
    return "".join(f"{chr(97 + x)}{y + 1}" for x, y in moves)


def read_suite(path):
    positions = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split(None, 6)
        if len(fields) < 6:
            sys.exit(f"{path}:{number}: expected ID RULE SIZE MOVES GOOD PLIES NOTE")
        ident, rule, size, moves, good, plies = fields[:6]
        size = int(size)
        positions.append(dict(id=ident, rule=int(rule), size=size, moves=parse_pos(moves, size),
                              pos=moves, good=set(good.split("|")), plies=int(plies),
                              note=fields[6] if len(fields) > 6 else ""))
    return positions


def board_commands(position, info):
    """The commands that set up `position` for the side to move (BOARD field 1 = own stones)."""
    moves = position["moves"]
    to_move = len(moves) % 2                       # 0: black to move
    lines = [f"START {position['size']}", *info, "BOARD"]
    lines += [f"{x},{y},{1 if i % 2 == to_move else 2}" for i, (x, y) in enumerate(moves)]
    lines.append("DONE")
    return lines


def engine_info(position, turn_ms, nodes):
    info = [f"INFO rule {position['rule']}", "INFO thread_num 1", "INFO timeout_match 0",
            f"INFO timeout_turn {turn_ms}", "INFO max_memory 67108864"]
    if nodes:
        info.append(f"INFO max_node {nodes}")
    return info


def ask(engine, position, turn_ms, nodes, wait):
    """Runs one fresh engine on one position; returns (move or None, seconds, last MESSAGE)."""
    move, took, messages = ask_all(engine, position, turn_ms, nodes, wait)
    return move, took, messages[-1] if messages else ""


def ask_all(engine, position, turn_ms, nodes, wait):
    """Runs one fresh engine on one position; returns (move or None, seconds, every MESSAGE and
    ERROR line). An engine that answers ERROR, or exits, has no move: it is not waited for."""
    proc = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)
    lines, done = [], threading.Event()

    def reader():
        for line in proc.stdout:
            lines.append(line.strip())
            if MOVE_RE.match(line.strip()) or line.startswith("ERROR"):
                done.set()
        done.set()

    threading.Thread(target=reader, daemon=True).start()
    # The turn's clock starts at DONE: START (table set-up) is answered first.
    start_lines = board_commands(position, engine_info(position, turn_ms, nodes))
    began = time.monotonic()
    try:
        proc.stdin.write(start_lines[0] + "\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while "OK" not in lines and time.monotonic() < deadline and proc.poll() is None and not done.is_set():
            time.sleep(0.01)
        began = time.monotonic()
        if not done.is_set():
            proc.stdin.write("\n".join(start_lines[1:]) + "\n")
            proc.stdin.flush()
            done.wait(wait)
    except BrokenPipeError:
        pass
    took = time.monotonic() - began
    try:
        proc.stdin.write("END\n")
        proc.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        proc.wait(2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    move = next((l for l in lines if MOVE_RE.match(l)), None)
    return move, took, [l for l in lines if l.startswith(("MESSAGE", "ERROR"))]


def read_value(engine, position, turn_ms, nodes):
    """An engine's move and its evaluation for the side to move from its last MESSAGE with one:
    ('win' | 'loss', plies) for Rapfi's `Eval +M<n>` / `-M<n>`, else an int (None if none)."""
    move, _, messages = ask_all(engine, position, turn_ms, nodes, turn_ms / 1000 + 10)
    value = None
    for line in messages:
        if m := re.search(r"Eval ([+-]?)(M?)(\d+)", line):
            sign, mate, number = m.groups()
            value = ("loss" if sign == "-" else "win", int(number)) if mate else int(sign + number)
    return move, value


def is_win(value):
    """Whether read_value's evaluation is a forced win for the side to move."""
    return isinstance(value, tuple) and value[0] == "win"


def is_loss(value):
    """Whether read_value's evaluation is a forced loss for the side to move."""
    return isinstance(value, tuple) and value[0] == "loss"


def show_value(value):
    """read_value's evaluation as Rapfi writes it: +M21, -M18, 35."""
    if isinstance(value, tuple):
        return f"{'+' if value[0] == 'win' else '-'}M{value[1]}"
    return str(value)


def write_transcript(path, solved, nodes, engine):
    out = [
        "# Long forced wins (15-45 plies) from Arbor's lost games against Rapfi: the positions of",
        "# protocol-tests/long-wins/ that Arbor solves within a node budget, so the test is",
        "# deterministic. Written by scripts/solve_rate.py --transcript; the rest of the suite is",
        "# measured at a time per move with the same script. A search change that loses one of these",
        "# wins fails the test: re-measure the suite and regenerate this file only if the new search",
        "# is stronger on the whole suite.",
        f"# Engine: {Path(engine[0]).name}, INFO max_node {nodes}, one thread.",
        f"! timeout {max(30, len(solved) * 3)}",
        "! skip MESSAGE",
        "! skip DEBUG",
    ]
    for position in solved:
        out += ["", f"# {position['id']}: {'black' if len(position['moves']) % 2 == 0 else 'white'}"
                f" to move wins in {position['plies']} plies: {position['pos']} ({position['note']})"]
        cmds = board_commands(position, engine_info(position, 60000, nodes))
        out += [f"> {cmds[0]}", "< OK", "> YXHASHCLEAR"] + [f"> {c}" for c in cmds[1:]]
        good = sorted(position["good"])
        out.append(f"< {good[0]}" if len(good) == 1 else f"~ ({'|'.join(good)})")
    out += ["", "> END", "! exit"]
    Path(path).write_text("\n".join(out) + "\n")


def command(text):
    """An engine command line as a list, its program made absolute when given as a path (on
    Windows, backslashes are the path's, not escapes)."""
    words = shlex.split(text, posix=os.name != "nt")
    words[0] = str(Path(words[0]).resolve()) if "/" in words[0] or os.sep in words[0] else words[0]
    return words


def legal(position, move):
    """Whether the reply `x,y` is an empty cell of the position's board."""
    x, y = map(int, move.split(","))
    return 0 <= x < position["size"] and 0 <= y < position["size"] and (x, y) not in position["moves"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suites", nargs="+", help="suite files")
    ap.add_argument("--engine", required=True, help="engine command (with its arguments)")
    ap.add_argument("--time", type=float, default=1.0, help="seconds per position (INFO timeout_turn)")
    ap.add_argument("--nodes", type=int, default=0, help="INFO max_node per position (0: none)")
    ap.add_argument("--transcript", help="write the positions solved to this transcript (needs --nodes)")
    ap.add_argument("--judge", help="engine (Rapfi) that judges replies outside GOOD in a safe-move suite")
    ap.add_argument("--judge-nodes", type=int, default=2_000_000, help="the judge's nodes per reply")
    a = ap.parse_args()
    if a.transcript and not a.nodes:
        ap.error("--transcript needs --nodes")
    if a.transcript and a.judge:
        ap.error("--transcript takes the suite's GOOD moves only, not --judge")
    engine = command(a.engine)
    judge = command(a.judge) if a.judge else None
    positions = [p for suite in a.suites for p in read_suite(suite)]
    turn_ms = 600000 if a.transcript else int(a.time * 1000)
    limit = f"{a.nodes} nodes" + (f" and {a.time:g} s" if not a.transcript else "") if a.nodes \
        else f"{a.time:g} s"
    print(f"{Path(engine[0]).name}: {len(positions)} positions, {limit} each, one thread")
    solved, times, judged = [], [], 0
    for p in positions:
        move, took, message = ask(engine, p, turn_ms, a.nodes, turn_ms / 1000 + 10)
        ok = move in p["good"]
        verdict = "solved" if ok else ("no reply" if move is None else "other move")
        if move and not ok and not legal(p, move):
            verdict = "illegal"
        elif not ok and move and judge:
            after = dict(p, moves=p["moves"] + [tuple(map(int, move.split(",")))])
            _, value = read_value(judge, after, 3_600_000, a.judge_nodes)
            ok = value is not None and not is_win(value)
            judged += ok
            verdict = "unjudged" if value is None else f"{'safe' if ok else 'unsafe'} {show_value(value)}"
        times.append(took)
        if ok:
            solved.append(p)
        print(f"  {p['id']:<12} {p['plies']:>2} plies  {verdict:<14} {move or '-':>6}  {took:5.2f} s"
              f"  {message[:70]}", flush=True)
    n = len(positions)
    if not n:
        sys.exit("solve_rate.py: the suites hold no position")
    print(f"Solved {len(solved)} of {n} ({100 * len(solved) / n:.0f} %) at {limit};"
          f" mean reply {sum(times) / n:.2f} s"
          + (f"; {judged} of them by a reply outside GOOD that the judge found safe"
             f" at {a.judge_nodes:,} nodes" if judge else ""))
    if a.transcript:
        write_transcript(a.transcript, solved, a.nodes, engine)
        print(f"wrote {len(solved)} positions to {a.transcript}")


if __name__ == "__main__":
    main()
