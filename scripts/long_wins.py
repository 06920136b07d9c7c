#!/usr/bin/env python3
"""Collect long forced wins for a protocol-tests/long-wins/ suite from a match against Rapfi
(python3 stdlib only).

1. Candidates: in the games the other engine lost, every position where Rapfi, to move,
   announced a forced win (`Eval +M<plies>` in c-gomoku-cli's messages.txt) of --min to --max
   plies; per game the first such position, and a second one at least ten plies shorter.
2. A second engine checks each: Arbor searches the position to --nodes nodes (a win in its
   MESSAGE lines proves its move), and for Arbor's move and Rapfi's game move that Arbor has not
   proved, it searches the position after the move from the defender's side (a loss proves it).
   Rapfi re-reads each of those moves from the defender's side for --rapfi-time seconds.
3. Prints a suite line (see scripts/solve_rate.py) for every position Arbor proved, with every
   move either engine proved as GOOD; the others go to stderr.

Usage:
  bash scripts/match.sh --engine1 target/release/pbrain-arbor --engine2 /path/pbrain-rapfi \\
      --tc-move 0.5 --out /tmp/m -- -each thread=1
  python3 scripts/long_wins.py --match /tmp/m --arbor target/release/pbrain-arbor \\
      --rapfi /path/pbrain-rapfi --prefix fs15 > new-positions.txt
(The rule and the board size are the SGF's.)
"""
import argparse
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True                   # no __pycache__ in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent))
from match_report import prop, sgf_games  # noqa: E402
from solve_rate import ask, format_pos, read_value, show_value  # noqa: E402


def games(match):
    """Each numbered game of the match's SGF: its number, properties and moves. The SGF is split
    by its brackets (an engine named `x(2)` does not end a game); a game without a number
    (GN), which messages.txt could not name, is left out."""
    for g in sgf_games((match / "games.sgf").read_text()):
        props = {k: prop(g, k) for k in ("GN", "PB", "RE", "RU", "SZ")}
        if not props["GN"].isdigit():
            continue
        moves = [(ord(m[0]) - 97, ord(m[1]) - 97) for m in re.findall(r";[BW]\[([a-z]{2})\]", g)]
        yield int(props["GN"]), props, moves


def rapfi_won(props, rapfi_name):
    """Whether the game whose SGF properties are `props` was won by the engine `rapfi_name`."""
    winner = {"B+1": "B", "W+1": "W"}.get(props["RE"])
    return winner is not None and (props["PB"] == rapfi_name) == (winner == "B")


def candidates(match, rapfi_name, low, high):
    # The evaluation of each of Rapfi's plies is its last line's (the deepest iteration's).
    evals = {}
    game = None
    for line in (match / "messages.txt").open(errors="replace"):
        if line.startswith("Game ID:"):
            game = int(line.split(":")[1])
        elif m := re.match(r"(\d+)\) " + re.escape(rapfi_name) + r": .*Eval ([+-]?M?\d+)", line):
            evals.setdefault(game, {})[int(m.group(1))] = m.group(2)
    mates = {gn: [(ply, int(value[2:])) for ply, value in plies.items() if value.startswith("+M")]
             for gn, plies in evals.items()}
    for gn, props, moves in games(match):
        if not rapfi_won(props, rapfi_name):
            continue
        picks = []
        for ply, plies in sorted(mates.get(gn, [])):
            if low <= plies <= high and (not picks or (len(picks) == 1 and plies <= picks[0][1] - 10)):
                picks.append((ply, plies))
        for ply, plies in picks:
            yield dict(game=gn, ply=ply, plies=plies, rule=int(props["RU"]), size=int(props["SZ"]),
                       moves=moves[: ply - 1], rapfi_move=moves[ply - 1])


def arbor_verdict(engine, position, nodes):
    """Arbor's move and ('win' | 'loss', its own moves) from its last MESSAGE, or None."""
    move, _, message = ask(engine, position, 3_600_000, nodes, 3600)
    m = re.search(r"ev (win|loss) in (\d+)", message)
    return move, (m.group(1), int(m.group(2))) if m else None


def rapfi_eval(engine, position, seconds):
    """Rapfi's evaluation (e.g. '-M18', '35') of the position for the side to move."""
    _, value = read_value(engine, position, int(seconds * 1000), 0)
    return None if value is None else show_value(value)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--match", required=True, type=Path, help="match.sh output directory")
    ap.add_argument("--arbor", required=True, help="pbrain-arbor")
    ap.add_argument("--rapfi", required=True, help="pbrain-rapfi")
    ap.add_argument("--rapfi-name", default="rapfi", help="Rapfi's name in the match")
    ap.add_argument("--nodes", type=int, default=2_000_000, help="Arbor's nodes per check")
    ap.add_argument("--rapfi-time", type=float, default=3.0, help="Rapfi's seconds per check")
    ap.add_argument("--min", type=int, default=15, help="shortest win, plies")
    ap.add_argument("--max", type=int, default=45, help="longest win, plies")
    ap.add_argument("--prefix", default="pos", help="IDs are PREFIX-NN")
    ap.add_argument("--limit", type=int, default=0, help="check only the first N candidates")
    a = ap.parse_args()
    arbor, rapfi = [str(Path(a.arbor).resolve())], [str(Path(a.rapfi).resolve())]
    number = 0
    for i, c in enumerate(candidates(a.match, a.rapfi_name, a.min, a.max)):
        if a.limit and i >= a.limit:
            break
        pos = dict(moves=c["moves"], rule=c["rule"], size=c["size"])
        after = lambda mv: dict(pos, moves=c["moves"] + [tuple(map(int, mv.split(",")))])  # noqa: E731
        rapfi_move = "{},{}".format(*c["rapfi_move"])
        move, verdict = arbor_verdict(arbor, pos, a.nodes)
        arbor_ok, rapfi_ok, checks = set(), set(), []
        if verdict and verdict[0] == "win":
            arbor_ok.add(move)
            checks.append(f"Arbor {a.nodes:,} nodes: {move} wins in {2 * verdict[1] - 1} plies")
        for mv in dict.fromkeys(m for m in (move, rapfi_move) if m):
            if mv not in arbor_ok:
                _, defence = arbor_verdict(arbor, after(mv), a.nodes)
                if defence and defence[0] == "loss":
                    arbor_ok.add(mv)
                    checks.append(f"Arbor {a.nodes:,} nodes: after {mv} the defender loses in {2 * defence[1]}")
                else:
                    checks.append(f"Arbor after {mv}: no loss found")
            evaluation = rapfi_eval(rapfi, after(mv), a.rapfi_time)
            if evaluation and evaluation.startswith("-M"):
                rapfi_ok.add(mv)
            checks.append(f"Rapfi {a.rapfi_time:g} s after {mv}: {evaluation}")
        pos_text = format_pos(c["moves"])
        note = f"game {c['game']} ply {c['ply']}, Rapfi +M{c['plies']} in the game; " + "; ".join(checks)
        if not arbor_ok:
            print(f"not proved by Arbor: {pos_text} {rapfi_move} {c['plies']} {note}", file=sys.stderr)
            continue
        one = sorted((arbor_ok | rapfi_ok) - (arbor_ok & rapfi_ok))
        if one:
            note += f"; backed by one engine only: {' '.join(one)}"
        number += 1
        print(f"{a.prefix}-{number:02d} {c['rule']} {c['size']} {pos_text} "
              f"{'|'.join(sorted(arbor_ok | rapfi_ok))} {c['plies']} {note}", flush=True)


if __name__ == "__main__":
    main()
