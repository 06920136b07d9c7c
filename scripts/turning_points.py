#!/usr/bin/env python3
"""Find the move with which Arbor walked into a forced loss in each game it lost to Rapfi, and
write the positions before those moves as a safe-move suite (python3 stdlib only).

In a lost game the match's own MESSAGE lines bound the turn: Rapfi's last evaluation below
--balanced and its first announced win (`Eval +M<n>`). Rapfi re-reads each of Arbor's moves in
between at --rapfi-nodes nodes, from Arbor's side before the move (its evaluation and its own
choice) and from its own side after it. The turning point is the first of those moves after
which Rapfi has a forced win although before it Rapfi, in Arbor's seat, was not lost. Rapfi's
choice there is checked the same way (no forced win for the opponent after it) and becomes the
position's GOOD move; the game move is the BAD one in the note.

The output is a suite in scripts/solve_rate.py's format (ID RULE SIZE MOVES GOOD PLIES NOTE;
PLIES is the length of the win the game move walked into), to be measured with
`solve_rate.py --judge`, which asks Rapfi about every reply outside GOOD. A safe move is one
after which Rapfi finds no forced win at that budget, not an equal position.

Usage:
  python3 scripts/turning_points.py --match /tmp/m --arbor-name arbor-main \\
      --rapfi /path/pbrain-rapfi --prefix turn-fs15 > turns.txt
"""
import argparse
import sys
from pathlib import Path

sys.dont_write_bytecode = True                   # no __pycache__ in the repository
sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_wins import games, rapfi_won  # noqa: E402
from loss_timeline import evaluations, slide  # noqa: E402
from solve_rate import format_pos, is_loss, is_win, read_value, show_value  # noqa: E402


def gomocup(move):
    return "{},{}".format(*move)


def turning_point(rapfi, prop, moves, window, nodes):
    """The first Arbor move in `window` (plies) after which Rapfi wins by force and before which
    it was not lost, with the checks made; None if there is none."""
    def read(position):
        return read_value(rapfi, dict(rule=int(prop["RU"]), size=int(prop["SZ"]), moves=position),
                          3_600_000, nodes)

    for ply in window:
        before, bad = moves[: ply - 1], moves[ply - 1]
        _, after_bad = read(before + [bad])
        if not is_win(after_bad):
            continue
        good, value = read(before)
        if good is None or is_loss(value) or good == gomocup(bad):
            return None                          # lost already, or no other choice
        _, after_good = read(before + [tuple(map(int, good.split(",")))])
        if is_win(after_good):
            return None
        return dict(ply=ply, before=before, bad=gomocup(bad), plies=after_bad[1], good=good,
                    value=value, after_good=after_good)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--match", required=True, type=Path, help="match.sh output directory")
    ap.add_argument("--arbor-name", required=True, help="Arbor's name in the match")
    ap.add_argument("--rapfi-name", default="rapfi", help="Rapfi's name in the match")
    ap.add_argument("--rapfi", required=True, help="pbrain-rapfi")
    ap.add_argument("--rapfi-nodes", type=int, default=2_000_000, help="Rapfi's nodes per reading")
    ap.add_argument("--balanced", type=int, default=200, help="Rapfi's evaluation below this is balanced")
    ap.add_argument("--prefix", default="turn", help="IDs are PREFIX-NN")
    a = ap.parse_args()
    rapfi = [str(Path(a.rapfi).resolve())]
    evals = evaluations(a.match, a.arbor_name, a.rapfi_name)
    number = lost = 0
    for gn, prop, moves in games(a.match):
        if not rapfi_won(prop, a.rapfi_name):
            continue
        lost += 1
        rapfi_evals = sorted((p, v) for (p, who), v in evals.get(gn, {}).items() if who == "rapfi")
        first_win, balanced = slide(rapfi_evals, a.balanced)
        if balanced is None:
            print(f"game {gn}: no balanced point before Rapfi's first win", file=sys.stderr)
            continue
        window = range(balanced + 1, first_win[0], 2)   # Arbor's moves in between
        turn = turning_point(rapfi, prop, moves, window, a.rapfi_nodes)
        if turn is None:
            print(f"game {gn}: no single move between plies {balanced} and {first_win[0]} walked"
                  f" from a position Rapfi does not count lost into its forced win", file=sys.stderr)
            continue
        number += 1
        note = (f"game {gn} ply {turn['ply']}, BAD {turn['bad']} (Rapfi {a.rapfi_nodes:,} nodes:"
                f" +M{turn['plies']} after it); Rapfi here: {show_value(turn['value'])}, plays"
                f" {turn['good']}; after it Rapfi: {show_value(turn['after_good'])}")
        print(f"{a.prefix}-{number:02d} {prop['RU']} {prop['SZ']} {format_pos(turn['before'])}"
              f" {turn['good']} {turn['plies']} {note}", flush=True)
    print(f"{number} turning points in {lost} lost games", file=sys.stderr)


if __name__ == "__main__":
    main()
