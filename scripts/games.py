#!/usr/bin/env python3
"""Plays many Gomoku game pairs between two Gomocup engines as tasks of a Dask cluster.

SPRT, SPSA and training-data generation are many independent games. Each task here is one game
pair (an opening played twice, colours swapped); Dask spreads the tasks over its workers: by
default a local cluster of this machine (--workers, one game at a time per worker), or any
cluster named by --scheduler ADDRESS or --scheduler-file FILE, which workers on other machines
join with `dask worker ADDRESS --nthreads 1` (in a virtual environment made from
scripts/runner-requirements.txt). The engines' executables, and c-gomoku-cli's, travel with the
tasks (each worker keeps them in its temporary folder by content hash), so a worker needs
nothing else of this machine. --direct plays the same tasks here, one after the other, without
Dask.

Why Dask and not Ray: pure-Python wheels of a few megabytes that install in seconds on these
2-core machines, and a scheduler and workers that are plain commands (`dask scheduler`, `dask
worker ADDRESS`), which is all a batch of independent games needs; Ray's wheels bring a native
object store and daemons made for far larger jobs.

Referees (scripts/referee.py): c-gomoku-cli, the default where --cli or PATH has it, or `pygomo`,
which referees freestyle and exact five here through pygomo-lib's client (CI has no c-gomoku-cli).

Results: one JSON line per pair in --out, written as each pair ends: {"pair", "opening",
"games": [two games, see referee.py], "run": a signature of the engines, limits and openings}. A
run started again with the same --out plays only the pairs the file lacks, so an interrupted run
resumes; a file of another run is refused. Stop a run with Ctrl-C: killing only this process
leaves the workers' c-gomoku-cli games running to their end. A run started in the background
(`nohup ... &`) ignores SIGINT: start it with `setsid` and stop it with `kill -- -PGID`, which
ends its whole process group, games included. At the end: the first engine's W-L-D with
its Elo (scripts/elo.py) and the pair scores (pentanomial: how many pairs it scored 0, 0.5, 1,
1.5 and 2). With --sprt ELO0 ELO1 the run stops as soon as a pentanomial SPRT (alpha = beta =
0.05, logistic Elo, fishtest's normal approximation) accepts either hypothesis.

Usage:
  python3 -m venv target/runner-venv && target/runner-venv/bin/pip install -r scripts/runner-requirements.txt
  target/runner-venv/bin/python scripts/games.py --engine1 NEW --engine2 BASE --nodes 100000 \\
      --pairs 200 --out target/games/run.jsonl [--workers 2 | --scheduler tcp://HOST:8786]
"""
import argparse
import contextlib
import hashlib
import itertools
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True                   # no __pycache__ in the repository
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import referee  # noqa: E402
import elo  # noqa: E402


def program(path):
    """An executable as (content hash, bytes), the form in which it travels to workers."""
    data = Path(path).read_bytes()
    return hashlib.sha256(data).hexdigest(), data


def materialise(digest, data):
    """The executable's path on this worker: written once into the temporary folder by hash."""
    folder = Path(tempfile.gettempdir()) / f"arbor-games-{os.getuid()}"
    folder.mkdir(exist_ok=True)
    path = folder / digest
    if not path.exists():
        partial = folder / f"{digest}.{os.getpid()}"
        partial.write_bytes(data)
        partial.chmod(0o755)
        partial.replace(path)
    return str(path)


def play_pair(task, programs):
    """One task: the game pair of `task` ({pair, opening, size, rule, limits, cli, engines: two
    {name, program, args}}), with `programs` ({content hash: bytes}) holding the engines'
    executables and c-gomoku-cli's (`cli`: its hash, or None for pygomo-lib as referee)."""
    with tempfile.TemporaryDirectory(prefix="arbor-pair-") as folder:
        # An engine with arguments runs from a script, since the referees take one program path.
        local = []
        for number, engine in enumerate(task["engines"]):
            path = materialise(engine["program"], programs[engine["program"]])
            if engine["args"]:
                wrapper = Path(folder) / f"engine{number}"
                quoted = " ".join("'" + arg.replace("'", "'\\''") + "'" for arg in engine["args"])
                wrapper.write_text(f"#!/bin/sh\nexec '{path}' {quoted} \"$@\"\n")
                wrapper.chmod(0o755)
                path = str(wrapper)
            local.append({"name": engine["name"], "path": path})
        arguments = (local, task["opening"], task["size"], task["rule"], task["limits"])
        if task["cli"] is None:
            games = referee.pair_with_pygomo(*arguments)
        else:
            games = referee.pair_with_cli(materialise(task["cli"], programs[task["cli"]]), *arguments)
    return {"pair": task["pair"], "opening": task["opening"], "games": games}


def add_runner_arguments(ap, referee=True):
    """The options of where work runs, shared with scripts/spsa.py and scripts/amazons_solve.py;
    with `referee`, also how Gomoku games are refereed (a proof has no referee)."""
    if referee:
        ap.add_argument("--referee", choices=["c-gomoku-cli", "pygomo"], help="default: c-gomoku-cli if found")
        ap.add_argument("--cli", help="c-gomoku-cli's path; default $C_GOMOKU_CLI or PATH")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=os.cpu_count(), help="local cluster size")
    where.add_argument("--scheduler", help="address of a running Dask scheduler")
    where.add_argument("--scheduler-file", help="a running Dask scheduler's file")
    where.add_argument("--direct", action="store_true", help="play here, one pair after another")


def referee_program(ap, args):
    """c-gomoku-cli as a program, or None when pygomo-lib referees."""
    path = args.cli or os.environ.get("C_GOMOKU_CLI") or shutil.which("c-gomoku-cli")
    if args.referee == "pygomo" or (args.referee is None and not path):
        return None
    if not path:
        ap.error("c-gomoku-cli not found: give --cli, set C_GOMOKU_CLI, or use --referee pygomo")
    return program(path)


@contextlib.contextmanager
def runner(args, programs, work=play_pair):
    """Yields play(tasks, on_result, window=None), which runs work(task, programs) for each task
    (by default a game pair) here (--direct) or on the Dask cluster the arguments name and calls
    on_result with each answer as it comes; a true answer from on_result drops the tasks not yet
    run. With a window, at most that many tasks are out at once and the next one is taken from
    `tasks` (an iterable, read lazily) only after on_result has seen an answer, so a task can
    depend on the answers before it. A
    `work` defined in a script's main module travels by value; one of another module needs that
    module on the workers."""
    if args.direct:
        def play_here(tasks, on_result, window=None):
            for task in tasks:
                if on_result(work(task, programs)):
                    break

        yield play_here
        return
    from dask.distributed import Client, LocalCluster, as_completed

    with contextlib.ExitStack() as stack:
        if args.scheduler or args.scheduler_file:
            client = stack.enter_context(Client(args.scheduler, scheduler_file=args.scheduler_file))
        else:
            # A client does not close a cluster it is handed: the cluster closes itself last.
            cluster = stack.enter_context(LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                                                       host="127.0.0.1", dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        # Workers import each file as it arrives, so a module comes after those it imports.
        for module in ("elo.py", "match_report.py", "referee.py", "games.py"):
            client.upload_file(str(HERE / module))
        shared = client.scatter(programs, broadcast=True, hash=False)

        def play(tasks, on_result, window=None):
            tasks = iter(tasks)
            out = set(client.map(work, list(itertools.islice(tasks, window)), programs=shared, pure=False))
            pending = as_completed(out)
            for future in pending:
                out.discard(future)
                if on_result(future.result()):
                    client.cancel(list(out))
                    break
                for task in itertools.islice(tasks, 1 if window else 0):
                    following = client.submit(work, task, programs=shared, pure=False)
                    out.add(following)
                    pending.add(following)

        yield play


def transformed(opening, size, symmetry):
    """`opening` under one of the board's eight symmetries (0: as it is): bit 0 mirrors the
    columns, bit 1 the rows, bit 2 swaps them."""
    def image(x, y):
        x, y = (size - 1 - x if symmetry & 1 else x), (size - 1 - y if symmetry & 2 else y)
        return (y, x) if symmetry & 4 else (x, y)
    return "".join(f"{chr(ord('a') + x)}{y + 1}" for x, y in (image(*s) for s in referee.parse_opening(opening, size)))


def read_openings(path, size):
    """The openings of a file, one a line in c-gomoku-cli's pos notation (# starts a comment)."""
    openings = [line.split("#", 1)[0].strip() for line in Path(path).read_text().splitlines()]
    openings = [line for line in openings if line]
    for opening in openings:
        referee.parse_opening(opening, size)
    return openings


def read_done(out, run):
    """The pairs already in the results file, which must all be of the same `run`. A last line
    cut short (the run was killed while writing it) is dropped."""
    done = {}
    lines = out.read_text().splitlines() if out.exists() else []
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                break
            raise
        if record.get("run") != run:
            sys.exit(f"games.py: {out} holds pairs of another run (other engines, limits or openings)")
        done[record["pair"]] = record
    if lines and lines[-1] and not out.read_text().endswith("\n"):
        # Rewritten whole without the cut-short line, through a new file: a kill midway must
        # not lose the rest.
        repaired = out.with_suffix(out.suffix + ".repaired")
        repaired.write_text("".join(json.dumps(record) + "\n" for record in done.values()))
        os.replace(repaired, out)
    return done


def points(game, name):
    """What engine `name` scored in `game`."""
    black = {"1-0": 1.0, "0-1": 0.0}.get(game["result"], 0.5)
    return black if game["black"] == name else 1.0 - black


def pair_score(record, name):
    """What engine `name` scored in a pair, as a share of its two games."""
    return sum(points(game, name) for game in record["games"]) / 2


def sprt_verdict(records, name, elo0, elo1):
    """The SPRT's LLR over the pairs so far, and "H0" or "H1" once it crosses a bound."""
    llr = elo.pair_llr([pair_score(record, name) for record in records], elo0, elo1)
    lower, upper = elo.sprt_bounds()
    return llr, "H1" if llr >= upper else "H0" if llr <= lower else None


def summary(records, name, sprt=None):
    wins = losses = draws = 0
    pentanomial = [0] * 5
    for record in records:
        scores = [points(game, name) for game in record["games"]]
        wins += scores.count(1.0)
        losses += scores.count(0.0)
        draws += scores.count(0.5)
        pentanomial[int(sum(scores) * 2)] += 1
    scores = [pair_score(record, name) for record in records]
    text = (f"{name}: {len(records)} pairs, W-L-D {wins}-{losses}-{draws}, {elo.format_pairs(scores)};"
            f" pairs scoring 0/0.5/1/1.5/2: {'/'.join(map(str, pentanomial))}")
    if sprt:
        llr, verdict = sprt_verdict(records, name, *sprt)
        lower, upper = elo.sprt_bounds()
        text += (f"\nSPRT elo0={sprt[0]:g} elo1={sprt[1]:g} (pentanomial, alpha=beta=0.05): LLR {llr:.3f}"
                 f" [{lower:.3f}, {upper:.3f}] {verdict + ' accepted' if verdict else 'undecided'}")
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine1", required=True, help="Gomocup engine; the score is its")
    ap.add_argument("--engine2", required=True)
    ap.add_argument("--args1", default="", help="arguments for engine1, one string split on spaces (--args1='--hash 16')")
    ap.add_argument("--args2", default="")
    ap.add_argument("--name1", help="default: the file name without pbrain-")
    ap.add_argument("--name2")
    ap.add_argument("--openings", help="one opening a line in c-gomoku-cli's pos notation (h8i9j8); default"
                    " scripts/openings/RULE_SIZE.txt, else ../shared/openings/RULE_SIZE.txt beside the repository")
    ap.add_argument("--pairs", type=int, help="default: one per opening; at most eight per opening (each symmetry)")
    ap.add_argument("--rule", choices=sorted(referee.RULES), default="freestyle")
    ap.add_argument("--size", type=int, default=15)
    limit = ap.add_mutually_exclusive_group(required=True)
    limit.add_argument("--nodes", type=int, help="nodes per move (INFO max_node)")
    limit.add_argument("--turn-ms", type=int, help="milliseconds per move (INFO timeout_turn)")
    add_runner_arguments(ap)
    ap.add_argument("--sprt", nargs=2, type=float, metavar=("ELO0", "ELO1"),
                    help="stop once an SPRT of ELO1 against ELO0 (logistic Elo, engine1's) decides")
    ap.add_argument("--out", required=True, help="results, one JSON line a pair (resumed if present)")
    args = ap.parse_args()

    cli = referee_program(ap, args)
    if not args.openings:
        name = f"{args.rule}_{args.size}.txt"
        found = [path for path in (HERE / "openings" / name, HERE.parent.parent / "shared" / "openings" / name)
                 if path.exists()]
        if not found:
            ap.error(f"no {name} in scripts/openings or ../shared/openings: give --openings")
        args.openings = str(found[0])
    openings = read_openings(args.openings, args.size)
    if not openings:
        ap.error(f"{args.openings} holds no opening")
    pairs = len(openings) if args.pairs is None else args.pairs
    if not 1 <= pairs <= 8 * len(openings):
        # Past eight rounds the pairs would replay earlier ones, counted twice as if new.
        ap.error(f"--pairs {pairs}: from 1 to {8 * len(openings)} (eight symmetries of {len(openings)} openings)")
    limits = {"nodes": args.nodes} if args.nodes else {"turn_ms": args.turn_ms}
    names = [args.name1 or Path(args.engine1).name.removeprefix("pbrain-"),
             args.name2 or Path(args.engine2).name.removeprefix("pbrain-")]
    if names[0] == names[1]:
        names = [names[0] + "1", names[1] + "2"]
    programs = dict([program(args.engine1), program(args.engine2)] + ([cli] if cli else []))
    engines = [{"name": name, "program": program(path)[0], "args": extra.split()}
               for name, path, extra in zip(names, (args.engine1, args.engine2), (args.args1, args.args2))]
    def opening(k):
        # Past the file's end the openings come round again under another symmetry each time,
        # so that no pair repeats an earlier one (for the eight rounds --pairs allows; an
        # opening with a symmetry of its own repeats under that one).
        return transformed(openings[k % len(openings)], args.size, k // len(openings) % 8)

    tasks = [{"pair": k, "opening": opening(k), "size": args.size, "rule": args.rule,
              "limits": limits, "cli": cli and cli[0], "engines": engines} for k in range(pairs)]
    # What makes two runs the same, so that a resumed file holds one run's pairs only.
    run = hashlib.sha256(json.dumps([engines, limits, args.rule, args.size, openings, cli and cli[0]]).encode())
    run = run.hexdigest()[:16]

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = read_done(out, run)
    todo = [task for task in tasks if task["pair"] not in done]
    print(f"games.py: {names[0]} vs {names[1]}, {args.rule} {args.size}, {limits}, {pairs} pairs"
          f" ({len(done)} already in {out}), referee {'c-gomoku-cli' if cli else 'pygomo'}", flush=True)
    def decided():
        # On the pairs of this --pairs only, as the summary reads them.
        return args.sprt and sprt_verdict([done[k] for k in sorted(done) if k < pairs], names[0], *args.sprt)[1]

    if todo and not decided():
        with out.open("a") as sink, runner(args, programs) as play:
            def record(result):
                result["run"] = run
                sink.write(json.dumps(result) + "\n")
                sink.flush()
                done[result["pair"]] = result
                return decided()

            play(todo, record)
    print(summary([done[task["pair"]] for task in tasks if task["pair"] in done], names[0], args.sprt))


if __name__ == "__main__":
    main()
