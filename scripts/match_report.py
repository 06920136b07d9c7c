#!/usr/bin/env python3
"""Summarise a c-gomoku-cli match from its SGF file and its console log (python3 stdlib only).

Prints, for engine1: W/L/D, score %, Elo +- 95% (see elo.py); then, per engine, the move times,
the moves over the time limit, time forfeits, illegal moves, crashes and renju forbidden moves.

Why move times are checked here: c-gomoku-cli does not forfeit an engine that stays silent past
its move time (see /work/scratch/NOTES.md 1.5), so overruns only show in the SGF, where every
engine move carries its wall time as a comment, e.g. ";B[hg]C[973ms]" (opening stones carry
"C[opening move]"). Results come from the SGF TE[...] reason, e.g. "White win by opponent crash";
the stdout lines "engine X crashed / timeout / output illegal move ..." are quoted as details.

Usage:  python3 scripts/match_report.py --sgf OUT/games.sgf --log OUT/match.log \
            --engine1 NAME --engine2 NAME --tc-move 1 [--tc-game 60] [--tc-move2 0.1 --tc-game2 6]
(--tc-move2 and --tc-game2: engine2's own limits in a time-odds match.)
"""
import argparse
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.dont_write_bytecode = True                   # no __pycache__ in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent))
from elo import format_elo  # noqa: E402

MOVE_RE = re.compile(r";([BW])\[[a-z]{2}\]C\[([^\]]*)\]")
DETAIL_RE = re.compile(r"^.*(?:engine \S+ (?:output illegal move|crashed|timeout|output error)"
                       r"|match.sh: watchdog).*$", re.M)
# An engine that did not answer START, in either c-gomoku-cli's older words or its newer ones
# (where an ERROR line in place of OK is the usual case): runner id, engine.
START_FAILURE_RE = re.compile(r"^\[(\d+)\] engine (\S+) (?:timeout at start|(?:timeout|crashed) before answering"
                              r" START|output error)")
# Words of c-gomoku-cli's end reason -> the loser's fault.
FAULTS = {"time forfeit": "forfeits", "opponent illegal move": "illegal",
          "opponent crash": "crashes", "forbidden move": "forbidden"}


def sgf_games(text):
    """Each game of an SGF collection, whole: from its `(` to the matching `)`, where brackets
    inside property values (an engine named `x(2)` in EV, PB or PW) do not count."""
    games, depth, start, in_value, escaped = [], 0, 0, False, False
    for i, c in enumerate(text):
        if in_value:
            escaped, in_value = (False, True) if escaped else (c == "\\", c != "]")
        elif c == "[":
            in_value = True
        elif c == "(":
            start = i if depth == 0 else start
            depth += 1
        elif c == ")" and depth:
            depth -= 1
            if depth == 0 and text.startswith("(;", start):
                games.append(text[start:i + 1])
    return games


def prop(game, key):
    """A property's value (escapes kept), or "" where the game has none."""
    m = re.search(r"\b" + key + r"\[((?:\\.|[^\]\\])*)\]", game)
    return m.group(1) if m else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sgf", required=True)
    ap.add_argument("--log", help="c-gomoku-cli stdout+stderr (score line, fault details)")
    ap.add_argument("--engine1", required=True)
    ap.add_argument("--engine2", required=True)
    ap.add_argument("--tc-move", type=float, default=1.0, help="seconds per move, 0 = no limit")
    ap.add_argument("--tc-game", type=float, default=0.0, help="seconds per game, 0 = no clock")
    ap.add_argument("--tc-move2", type=float, help="engine2's seconds per move; default --tc-move")
    ap.add_argument("--tc-game2", type=float, help="engine2's seconds per game; default --tc-game")
    a = ap.parse_args()
    e1, e2 = a.engine1, a.engine2
    tc = {e1: (a.tc_move, a.tc_game),
          e2: (a.tc_move if a.tc_move2 is None else a.tc_move2, a.tc_game if a.tc_game2 is None else a.tc_game2)}

    def limits_ms(name):
        """A player's (turn, game) limits in ms; a name the SGF gives otherwise has engine1's."""
        move, game = tc.get(name, tc[e1])
        return move * 1000 or math.inf, game * 1000 or math.inf

    wld = Counter()                              # engine1's wins / losses / draws
    never_began = Counter()                      # engine that failed START -> games
    endings = Counter()
    faults = defaultdict(Counter)                # engine -> fault -> count
    times = defaultdict(list)                    # engine -> [ms, ...]
    over = defaultdict(list)                     # engine -> [(game, stone, ms), ...]
    sgf = Path(a.sgf)
    games = sgf_games(sgf.read_text()) if sgf.exists() else []
    log = Path(a.log).read_text(errors="replace") if a.log and Path(a.log).exists() else ""
    # c-gomoku-cli names the wrong winner when an engine fails to answer START (Rapfi drops
    # commands that come while it still counts itself as thinking): trust its log. Lines carry
    # the game runner's id, and with concurrency the runners' lines interleave.
    start_failures, pending = {}, {}
    for line in log.splitlines():
        if m := START_FAILURE_RE.search(line):
            pending[m.group(1)] = m.group(2)
        elif (m := re.search(r"^\[(\d+)\] Finished game (\d+) ", line)) and m.group(1) in pending:
            start_failures[m.group(2)] = pending.pop(m.group(1))
    for g in games:
        gn, te, names = prop(g, "GN"), prop(g, "TE"), {"B": prop(g, "PB"), "W": prop(g, "PW")}
        moves = MOVE_RE.findall(g)
        # Only a game without an engine move never began: an error line read wrongly as a failed
        # START must not take a played game out of the score.
        failed_start = None if any(c.endswith("ms") for _, c in moves) else start_failures.get(gn)
        endings[re.sub(r"^(Black|White) ", "", te)] += 1
        if te.startswith(("Black", "White")):
            winner = "W" if "forbidden" in te else te[0]
            loser = failed_start or names["B" if winner == "W" else "W"]
            wld["wins" if loser == e2 else "losses" if loser == e1 else "other"] += 1
            if failed_start:
                never_began[failed_start] += 1
            for words, fault in FAULTS.items():
                faults[loser][fault] += words in te
        else:
            wld["draws" if te.startswith("Draw") else "unfinished"] += 1
        limits = {color: limits_ms(name) for color, name in names.items()}
        clock = {color: game for color, (_, game) in limits.items()}  # match time left
        for stone, (color, comment) in enumerate(moves, 1):
            if not comment.endswith("ms"):
                continue                         # an opening stone
            ms, allowed = int(comment[:-2]), min(limits[color][0], clock[color])
            clock[color] = max(clock[color] - ms, 0)
            times[names[color]].append(ms)
            if ms > allowed:
                over[names[color]].append((gn, stone, ms))

    score_lines = re.findall(r"^Score of .*$", log, re.M)

    w, l, d = wld["wins"], wld["losses"], wld["draws"]
    print(f"=== {e1} (engine1) vs {e2}: {len(games)} games ===")
    if score_lines:
        print(f"c-gomoku-cli: {score_lines[-1].strip()}")
    unfinished = f"  (unfinished {wld['unfinished']})" if wld["unfinished"] else ""
    print(f"{e1}: wins {w} - losses {l} - draws {d}{unfinished}")
    print(format_elo(w, l, d))
    if never_began:
        who = ", ".join(f"{name} {n}" for name, n in never_began.most_common())
        pw, pl = w - never_began[e2], l - never_began[e1]
        print(f"Never began (an engine failed START, scored as its loss): {sum(never_began.values())} ({who})")
        print(f"The games played: wins {pw} - losses {pl} - draws {d}; {format_elo(pw, pl, d)}")
    print("Endings: " + ", ".join(f"{r} {n}" for r, n in endings.most_common()))
    def limit(name):
        move, game = tc[name]
        return (f"{move * 1000:.0f} ms/move" if move else "none") + (f", {game:g} s/game clock" if game else "")
    odds = tc[e1] != tc[e2]
    print("Move times:" if odds else f"Move times (limit {limit(e1)}):")
    for name in (e1, e2):
        t, o = times[name], over[name]
        stats = f"{len(t)} moves, avg {sum(t) / len(t):.0f} ms, max {max(t)} ms" if t else "0 moves"
        eg = ", ".join(f"game {g} stone {s}: {ms} ms" for g, s, ms in o[:3])
        eg = f"  e.g. {eg}" if eg else ""
        own = f" (limit {limit(name)})" if odds else ""
        print(f"  {name}{own}: {stats}, over limit: {len(o)}{eg}")
    print("Faults (time forfeits / over-limit moves / illegal moves / crashes / renju forbidden):")
    for name in (e1, e2):
        f = faults[name]
        print(f"  {name}: {f['forfeits']} / {len(over[name])} / {f['illegal']} / {f['crashes']}"
              f" / {f['forbidden']}")
    for line in DETAIL_RE.findall(log):
        print(f"  log: {line.strip()}")
    m = re.search(r":\s*(\d+) - (\d+) - (\d+)", score_lines[-1]) if score_lines else None
    if m and tuple(map(int, m.groups())) != (w, l, d):
        print("WARNING: SGF results differ from c-gomoku-cli's score line")
    if not games:
        print(f"WARNING: no games found in {a.sgf}")
    print_pairs(games)


def print_pairs(games):
    """Each opening is played twice in a row with the colours swapped (c-gomoku-cli -repeat). Two
    different deterministic builds (fixed nodes) change most pairs; a pair replayed move for move
    means both sides chose alike all game, and every pair alike means one program on both sides
    (how a stale build showed in scripts/sprt.sh)."""
    moves = {int(prop(g, "GN") or 0): re.findall(r";[BW]\[(\w*)\]", g) for g in games}
    pairs = [(moves[k], moves[k + 1]) for k in range(1, max(moves, default=0), 2) if k in moves and k + 1 in moves]
    alike = sum(a == b for a, b in pairs)
    print(f"Pairs of games on one opening: {len(pairs)}, replayed move for move: {alike}")
    if len(pairs) >= 20 and alike == len(pairs):
        print("WARNING: the two sides played every pair alike; check that they are different programs")


if __name__ == "__main__":
    main()
