#!/usr/bin/env python3
"""When each of Arbor's losses to Rapfi was decided, read from a match's own MESSAGE lines
(python3 stdlib only).

For every game Rapfi won, from the last iteration each engine reported on each of its moves
(c-gomoku-cli's messages.txt): the ply where Rapfi first announced a forced win (`Eval +M<n>`)
and how long it said it was, the ply where Arbor first announced its loss (`ev loss in <n>`),
and the slide: Rapfi's last move still judged balanced (below --balanced) before its first
announced win, with Arbor's own evaluation on the move after it. The medians say whether the
games are lost to long forced wins that only Rapfi sees, or to a slide both engines see coming.

Each engine is seen only on its own moves, at the match's time; replaying every position with
both engines (as the issue's first study did) is the finer instrument.

Usage:
  bash scripts/match.sh --engine1 target/release/pbrain-arbor --engine2 /path/pbrain-rapfi \\
      --out /tmp/m -- -each thread=1
  python3 scripts/loss_timeline.py --match /tmp/m --arbor-name arbor-main
"""
import argparse
import re
import statistics
import sys
from pathlib import Path

sys.dont_write_bytecode = True                   # no __pycache__ in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_wins import games, rapfi_won  # noqa: E402
from solve_rate import is_loss, is_win  # noqa: E402


def evaluations(match, arbor_name, rapfi_name):
    """{game: {(ply, 'arbor' | 'rapfi'): evaluation}}, the last one each engine reported on each
    of its moves: an int, or ('win' | 'loss', length) for a forced result (Rapfi counts plies,
    Arbor its own moves)."""
    out, game = {}, None
    for line in (match / "messages.txt").open(errors="replace"):
        if line.startswith("Game ID:"):
            game = int(line.split(":")[1])
            out[game] = {}
        elif m := re.match(r"(\d+)\) (\S+): (.*)", line):
            ply, name, text = int(m.group(1)), m.group(2), m.group(3)
            if name == rapfi_name and (e := re.search(r"Eval ([+-]?)(M?)(\d+)", text)):
                sign, mate, value = e.groups()
                if mate:
                    out[game][ply, "rapfi"] = ("win" if sign != "-" else "loss", int(value))
                else:
                    out[game][ply, "rapfi"] = int(sign + value)
            elif name == arbor_name and (e := re.search(r" ev (?:(win|loss) in (\d+)|(-?\d+))", text)):
                kind, moves, value = e.groups()
                out[game][ply, "arbor"] = (kind, int(moves)) if kind else int(value)
    return out


def slide(rapfi, balanced):
    """From Rapfi's evaluations of one game, (ply, plies) sorted by ply: its first announced win
    as (ply, length) and the ply of its last evaluation below `balanced` before it (each None
    when there is none)."""
    first_win = next(((p, v[1]) for p, v in rapfi if is_win(v)), None)
    if first_win is None:
        return None, None
    calm = [p for p, v in rapfi if p < first_win[0] and isinstance(v, int) and v < balanced]
    return first_win, calm[-1] if calm else None


def median(values):
    return f"{statistics.median(values):g} (range {min(values)}-{max(values)}, {len(values)} games)" if values else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--match", required=True, type=Path, help="match.sh output directory")
    ap.add_argument("--arbor-name", required=True, help="Arbor's name in the match")
    ap.add_argument("--rapfi-name", default="rapfi", help="Rapfi's name in the match")
    ap.add_argument("--balanced", type=int, default=200, help="Rapfi's evaluation below this is balanced")
    a = ap.parse_args()
    evals = evaluations(a.match, a.arbor_name, a.rapfi_name)
    lead, length, arbor_lead, seen_together, slides, arbor_then = [], [], [], 0, [], []
    lost = 0
    for gn, prop, moves in games(a.match):
        if not rapfi_won(prop, a.rapfi_name):
            continue
        lost += 1
        e = evals.get(gn, {})
        plies = len(moves)
        rapfi = sorted((p, v) for (p, who), v in e.items() if who == "rapfi")
        arbor = sorted((p, v) for (p, who), v in e.items() if who == "arbor")
        first_win, balanced = slide(rapfi, a.balanced)
        first_loss = next(((p, v[1]) for p, v in arbor if is_loss(v)), None)
        line = f"game {gn:4}  {plies:3} plies"
        if first_win:
            lead.append(plies - first_win[0] + 1)
            length.append(first_win[1])
            line += f"  Rapfi's win from ply {first_win[0]} (+M{first_win[1]})"
            if balanced is not None:
                slides.append(first_win[0] - balanced)
                after = e.get((balanced + 1, "arbor"))
                if isinstance(after, int):
                    arbor_then.append(after)
                line += f", balanced until ply {balanced} (Arbor then {after})"
        if first_loss:
            arbor_lead.append(plies - first_loss[0] + 1)
            line += f"  Arbor's loss from ply {first_loss[0]} (in {first_loss[1]} of its moves)"
        if first_win and first_loss and first_loss[0] <= first_win[0] + 1:
            seen_together += 1
        print(line)
    print(f"\n{lost} games lost to {a.rapfi_name}")
    print(f"Rapfi announced its win this many plies before the end: {median(lead)}")
    print(f"  the length it announced then, plies: {median(length)}")
    print(f"Arbor announced its loss this many plies before the end: {median(arbor_lead)}")
    print(f"Arbor saw the loss on its next move after Rapfi's first announcement (or before): {seen_together} of {lost}")
    print(f"Plies from Rapfi's last balanced evaluation (< {a.balanced}) to its announced win: {median(slides)}")
    print(f"Arbor's evaluation on the move after that balanced point: {median(arbor_then)}")


if __name__ == "__main__":
    main()
