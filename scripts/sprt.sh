#!/usr/bin/env bash
# sprt.sh: self-play SPRT between two builds of Arbor, the working tree ("new") against a git ref
# ("base", default main), through c-gomoku-cli's -sprt, played by scripts/match.sh (watchdog,
# time and fault report). Each side searches a fixed number of nodes per move (INFO max_node) on
# one thread (INFO thread_num 1), so a busy machine slows the run down but cannot bias it. The
# openings are played with both colours and, from the second pass on, rotated and mirrored
# (c-gomoku-cli -transform): fixed-node games are deterministic, so each (opening, transform,
# colour) gives one game, and --games is capped at that many. The openings are the project's own
# scripts/openings/<rule>_<size>.txt when it exists (1,000 for freestyle 15: 16,000 distinct
# games, enough for an SPRT to resolve a few Elo; 500 for freestyle 20; made by
# scripts/make_openings.py), else the shared 20-30 of ../shared/openings/ (480 distinct games
# for freestyle 15).
#
# It ends with one line to quote in a strength commit and in docs/strength.md, e.g.
#   SPRT elo0=0 elo1=5 new=81f66ba base=34e8ca6 nodes=30000 freestyle15 openings=freestyle_15:
#   games 199, W-L-D 159-35-5, Elo +253.7 +/- 61.8, LLR 3.007 [-2.944, 2.944] H1 accepted (the
#   new build passes)
# (on one line; the new build's hash ends in + when the working tree has uncommitted changes).
#
# Run from anywhere inside the repository:
#   bash scripts/sprt.sh                         # working tree vs main, 30000 nodes, 2 games at a time
#   bash scripts/sprt.sh --base HEAD~1 --nodes 50000 --games 4000
#   bash scripts/sprt.sh --new my-branch --base main --tc-move 0.2   # time control instead of nodes
# c-gomoku-cli is taken from $C_GOMOKU_CLI, else from PATH (as match.sh does). A ref is built
# from its own copy of the tree under target/sprt/ (its binary kept there for later runs).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
    cat <<EOF
Usage: bash scripts/sprt.sh [options] [-- c-gomoku-cli args]
  --base REF          the reference build; default main
  --new REF           the build under test; default the working tree as it is (uncommitted
                      changes included)
  --nodes N           nodes per move for both sides (INFO max_node); default 30000
  --tc-move S         seconds per move instead of a node count (a busy machine biases this)
  --safety S          with --nodes, the per-move time limit c-gomoku-cli enforces as a safety
                      net (the node cap ends a move long before); default 5
  --elo0 E --elo1 E   SPRT hypotheses; default 0 and 5
  --alpha A --beta B  SPRT error rates; default 0.05 each
  --games N           stop after N games even without a verdict; default and maximum: every
                      distinct game, 2 x openings x 8 transforms
  --concurrency N     games at a time; default 2
  --rule R --size N   freestyle | standard | renju, 15 | 20; default freestyle 15
  --openings FILE     default scripts/openings/<rule>_<size>.txt when the project has one,
                      else the shared ../shared/openings/<rule>_<size>.txt
  --out DIR           where the games, logs and report go; default /tmp/arbor-sprt-<date>-<time>
  -h, --help          this help
EOF
}

die() { echo "sprt.sh: $*" >&2; exit 2; }

BASE=main NEW="" NODES=30000 TC_MOVE="" SAFETY=5 ELO0=0 ELO1=5 ALPHA=0.05 BETA=0.05 GAMES=""
CONCURRENCY=2 RULE=freestyle SIZE=15 OPENINGS=""
OUT="${TMPDIR:-/tmp}/arbor-sprt-$(date +%Y%m%d-%H%M%S)"
EXTRA=()
while (($#)); do
    case "$1" in
        --base) BASE="${2:?}"; shift 2 ;;
        --new) NEW="${2:?}"; shift 2 ;;
        --nodes) NODES="${2:?}"; shift 2 ;;
        --tc-move) TC_MOVE="${2:?}"; shift 2 ;;
        --safety) SAFETY="${2:?}"; shift 2 ;;
        --elo0) ELO0="${2:?}"; shift 2 ;;
        --elo1) ELO1="${2:?}"; shift 2 ;;
        --alpha) ALPHA="${2:?}"; shift 2 ;;
        --beta) BETA="${2:?}"; shift 2 ;;
        --games) GAMES="${2:?}"; shift 2 ;;
        --concurrency) CONCURRENCY="${2:?}"; shift 2 ;;
        --rule) RULE="${2:?}"; shift 2 ;;
        --size) SIZE="${2:?}"; shift 2 ;;
        --openings) OPENINGS="${2:?}"; shift 2 ;;
        --out) OUT="${2:?}"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; EXTRA=("$@"); break ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

# Paths on the command line are the caller's, not the repository's.
[[ -n "$OPENINGS" ]] && OPENINGS="$(realpath -m -- "$OPENINGS")"
OUT="$(realpath -m -- "$OUT")"
cd "$ROOT"
if [[ -z "$OPENINGS" ]]; then
    OPENINGS="$ROOT/scripts/openings/${RULE}_${SIZE}.txt"
    [[ -f "$OPENINGS" ]] || OPENINGS="$ROOT/../shared/openings/${RULE}_${SIZE}.txt"
fi
[[ -f "$OPENINGS" ]] || die "openings file not found: $OPENINGS (give --openings)"
# The name in the SPRT line: the path from the repository root for the project's own files (e.g.
# scripts/openings/freestyle_15), the bare name for the shared ones (freestyle_15).
OPENINGS_NAME="$(realpath --relative-base="$ROOT" "$OPENINGS")"
OPENINGS_NAME="${OPENINGS_NAME%.txt}"
[[ "$OPENINGS_NAME" == /* ]] && OPENINGS_NAME="$(basename "$OPENINGS_NAME")"
N_OPENINGS="$(grep -c '[^[:space:]]' "$OPENINGS" || true)"
DISTINCT=$((2 * N_OPENINGS * 8))
GAMES="${GAMES:-$DISTINCT}"
((GAMES <= DISTINCT)) || die "--games $GAMES is more than the $DISTINCT distinct games these openings give"

# Builds a ref from its own copy of the tree (git archive, so no worktree is registered) with a
# target dir shared by every build, and keeps the binary under target/sprt/cache/<commit>/ for
# the next run of the same commit. Prints the path of that pbrain-arbor. The copy's files are
# stamped with the time of extraction (tar -m): cargo rebuilds when a source file is newer than
# its last build, and with the commit's own times an older commit built after a newer one was
# taken as up to date, so "base" silently ran the "new" binary. Builds hold a lock on the shared
# target dir: two runs started together once cached one commit's binary under the other's name.
# Called in a command substitution, so the lock goes with the subshell.
build_ref() {
    local sha dir lock
    sha="$(git rev-parse --verify --quiet "$1^{commit}")" || die "unknown git ref: $1"
    dir="$ROOT/target/sprt/cache/$sha"
    mkdir -p "$ROOT/target/sprt"
    exec {lock}>"$ROOT/target/sprt/build.lock"
    flock "$lock"
    if [[ ! -x "$dir/pbrain-arbor" ]]; then
        echo "sprt.sh: building $1 ($sha) in $dir" >&2
        rm -rf "$dir/tree" && mkdir -p "$dir/tree"
        git archive "$sha" | tar -x -m -C "$dir/tree"
        (cd "$dir/tree" && cargo build --release --bin pbrain-arbor \
            --target-dir "$ROOT/target/sprt/build" >&2)
        cp "$ROOT/target/sprt/build/release/pbrain-arbor" "$dir/pbrain-arbor"
        rm -rf "$dir/tree"
    fi
    echo "$dir/pbrain-arbor"
}

# The name a ref gets in the SPRT line: the ref and its short hash; the working tree is its
# HEAD's hash, with a + when it has uncommitted changes.
describe_ref() {
    local short
    if [[ -z "$1" ]]; then
        short="$(git rev-parse --short HEAD)"
        git diff --quiet HEAD -- && echo "$short" || echo "$short+"
    else
        short="$(git rev-parse --short "$1^{commit}")"
        [[ "$1" == "$short" ]] && echo "$short" || echo "$1@$short"
    fi
}

mkdir -p "$OUT/bin"
OUT="$(realpath "$OUT")"
if [[ -z "$NEW" ]]; then
    echo "sprt.sh: building the working tree" >&2
    cargo build --release --bin pbrain-arbor >&2
    NEW_EXE="$ROOT/target/release/pbrain-arbor"
else
    NEW_EXE="$(build_ref "$NEW")"
fi
BASE_EXE="$(build_ref "$BASE")"
# Two builds of different sources that come out byte for byte the same mean a build was stale.
if cmp -s "$NEW_EXE" "$BASE_EXE" && ! git diff --quiet "$BASE" ${NEW:+"$NEW"} -- src Cargo.toml Cargo.lock; then
    die "the two builds are identical although their sources differ: a stale build; remove target/sprt and run again"
fi
# Copies, so that a rebuild during the run changes neither side.
cp "$NEW_EXE" "$OUT/bin/pbrain-new"
cp "$BASE_EXE" "$OUT/bin/pbrain-base"
NEW_NAME="$(describe_ref "$NEW")" BASE_NAME="$(describe_ref "$BASE")"

EACH=(thread=1)
if [[ -n "$TC_MOVE" ]]; then
    LIMIT="tc=${TC_MOVE}s/move"
    MOVE_TIME="$TC_MOVE"
else
    LIMIT="nodes=$NODES"
    MOVE_TIME="$SAFETY"
    EACH+=("nodes=$NODES")
fi
echo "sprt.sh: new = $NEW_NAME, base = $BASE_NAME, $LIMIT, elo0=$ELO0 elo1=$ELO1 alpha=$ALPHA" \
    "beta=$BETA, at most $GAMES games, $CONCURRENCY at a time"

STATUS=0
bash "$ROOT/scripts/match.sh" --engine1 "$OUT/bin/pbrain-new" --engine2 "$OUT/bin/pbrain-base" \
    --rule "$RULE" --size "$SIZE" --tc-move "$MOVE_TIME" --openings "$OPENINGS" --games "$GAMES" \
    --concurrency "$CONCURRENCY" --out "$OUT" -- -each "${EACH[@]}" -transform \
    -sprt "elo0=$ELO0" "elo1=$ELO1" "alpha=$ALPHA" "beta=$BETA" ${EXTRA[@]+"${EXTRA[@]}"} ||
    STATUS=$?

# Proof that the node cap reached both engines: the nodes of Arbor's last MESSAGE line of each
# move never exceed it (without INFO max_node a move would search its whole time budget).
NODE_CHECK=""
if [[ -z "$TC_MOVE" ]]; then
    NODE_CHECK="$(python3 - "$OUT/messages.txt" "$NODES" <<'EOF'
import re, sys
last = {}                                   # (game, ply, engine) -> nodes of its last line
game = 0
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("Game ID:"):
        game = int(line.split(":")[1])
    elif m := re.match(r"(\d+)\) (\S+): depth \S+ ev .* n (\d+) ", line):
        last[game, m.group(1), m.group(2)] = int(m.group(3))
cap = int(sys.argv[2])
for name in sorted({k[2] for k in last}):
    n = [v for k, v in last.items() if k[2] == name]
    # The cap is checked every few nodes, so a move may pass it by a little.
    flag = "" if max(n) <= 1.1 * cap else f"  FAR OVER THE CAP OF {cap}: max_node did not reach {name}"
    print(f"Nodes per move, {name}: {len(n)} moves, mean {sum(n) / len(n):.0f}, max {max(n)}{flag}")
EOF
)"
    echo "$NODE_CHECK"
fi

SCORE="$(sed -n -E 's/^Score of new vs base: ([0-9]+) - ([0-9]+) - ([0-9]+) .*/\1 \2 \3/p' "$OUT/match.log" | tail -1)"
[[ -n "$SCORE" ]] || die "no game finished, see $OUT/match.log"
read -r W L D <<<"$SCORE"
N=$((W + L + D))
ELO="$(python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from elo import elo_stats
_, e, err, _ = elo_stats(*map(int, sys.argv[2:])); print(f"{e:+.1f} +/- {err:.1f}")' \
    "$ROOT/scripts" "$W" "$L" "$D")"
SPRT="$(grep -E '^SPRT: LLR' "$OUT/match.log" | tail -1 || true)"
LLR="$(sed -n -E 's/^SPRT: LLR = (\S+) \[(\S+),(\S+)\].*/\1 [\2, \3]/p' <<<"$SPRT")"
case "$SPRT" in
    *"H1 accepted"*) VERDICT="H1 accepted (the new build passes)" ;;
    *"H0 accepted"*) VERDICT="H0 accepted (the new build fails)" ;;
    *) VERDICT="no verdict ($N of $GAMES games)" ;;
esac
[[ -n "$LLR" ]] || LLR="n/a (c-gomoku-cli needs two kinds of result)"
echo
echo "SPRT elo0=$ELO0 elo1=$ELO1 new=$NEW_NAME base=$BASE_NAME $LIMIT $RULE$SIZE" \
    "openings=$OPENINGS_NAME: games $N, W-L-D $W-$L-$D, Elo $ELO, LLR $LLR $VERDICT" |
    tee -a "$OUT/report.txt"
((STATUS == 0)) || die "match.sh failed (status $STATUS), see $OUT/match.log"
