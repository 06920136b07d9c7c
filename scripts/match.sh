#!/usr/bin/env bash
# match.sh: play a match between two Gomocup (pbrain) engines with c-gomoku-cli, then print the
# score, the Elo difference +- 95% (scripts/elo.py) and the time overruns, time forfeits, illegal
# moves and crashes per engine (scripts/match_report.py, which reads the SGF move times because
# c-gomoku-cli does not forfeit an engine that overruns silently).
#
# Run from the repository root, e.g.:
#   bash scripts/match.sh --engine1 target/release/pbrain-arbor \
#        --engine2 ../scratch/bin/pbrain-rapfi --rule freestyle --size 15 --tc-move 1 \
#        --games 20 --out /tmp/arbor-vs-rapfi
# c-gomoku-cli is taken from $C_GOMOKU_CLI, else from PATH. Anything after `--` is passed to
# c-gomoku-cli unchanged (e.g. `-- -each maxmemory=67108864 -drawafter 200`).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

usage() {
    cat <<EOF
Usage: bash scripts/match.sh --engine1 CMD --engine2 CMD [options] [-- c-gomoku-cli args]
  --engine1 CMD       first engine (path to a pbrain binary, may be followed by its arguments);
                      its name is the file name without "pbrain-"; results are given for it
  --engine2 CMD       second engine
  --rule R            freestyle | standard | renju (c-gomoku-cli -rule 0 | 1 | 4); default freestyle
  --size N            board size, 15 or 20; default 15
  --tc-move S         seconds per move; default 1
  --tc-game S         seconds per game and engine (match clock); default none
  --tc-move2 S        engine2's seconds per move, for a time-odds match; default --tc-move
  --tc-game2 S        engine2's seconds per game; default --tc-game
  --openings FILE     default ../shared/openings/<rule>_<size>.txt beside the repository (the
                      team's 30), else scripts/openings/<rule>_<size>.txt (1,000)
  --games N           default 2 x the number of openings (each opening twice, colours swapped)
  --concurrency N     parallel games; default 1
  --out DIR           where games.pgn, games.sgf, messages.txt, match.log and report.txt go
                      (these files are replaced); default /tmp/arbor-match-<date>-<time>
  -h, --help          this help
EOF
}

die() { echo "match.sh: $*" >&2; exit 2; }

ENGINE1="" ENGINE2="" RULE=freestyle SIZE=15 TC_MOVE=1 TC_GAME="" TC_MOVE2="" TC_GAME2="" OPENINGS=""
GAMES="" CONCURRENCY=1
OUT="${TMPDIR:-/tmp}/arbor-match-$(date +%Y%m%d-%H%M%S)"
EXTRA=()
while (($#)); do
    case "$1" in
        --engine1) ENGINE1="${2:?}"; shift 2 ;;
        --engine2) ENGINE2="${2:?}"; shift 2 ;;
        --rule) RULE="${2:?}"; shift 2 ;;
        --size) SIZE="${2:?}"; shift 2 ;;
        --tc-move) TC_MOVE="${2:?}"; shift 2 ;;
        --tc-game) TC_GAME="${2:?}"; shift 2 ;;
        --tc-move2) TC_MOVE2="${2:?}"; shift 2 ;;
        --tc-game2) TC_GAME2="${2:?}"; shift 2 ;;
        --openings) OPENINGS="${2:?}"; shift 2 ;;
        --games) GAMES="${2:?}"; shift 2 ;;
        --concurrency) CONCURRENCY="${2:?}"; shift 2 ;;
        --out) OUT="${2:?}"; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; EXTRA=("$@"); break ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done
[[ -n "$ENGINE1" && -n "$ENGINE2" ]] || { usage >&2; die "--engine1 and --engine2 are required"; }

case "$RULE" in
    freestyle) RULE_CODE=0 ;; standard) RULE_CODE=1 ;; renju) RULE_CODE=4 ;;
    *) die "--rule must be freestyle, standard or renju" ;;
esac
[[ "$SIZE" == 15 || "$SIZE" == 20 ]] || die "--size must be 15 or 20"
# A time-odds match gives engine2 its own limits; unset, they are engine1's.
TC_MOVE2="${TC_MOVE2:-$TC_MOVE}" TC_GAME2="${TC_GAME2:-$TC_GAME}"

CLI="${C_GOMOKU_CLI:-$(command -v c-gomoku-cli || true)}"
[[ -x "$CLI" ]] || die "c-gomoku-cli not found: put it on PATH or set C_GOMOKU_CLI"

# Make the engine's executable absolute (c-gomoku-cli runs it from its own directory) and
# derive its name from the file name: .../pbrain-arbor -> arbor.
resolve_engine() {
    local exe rest
    read -r exe rest <<<"$1"
    if [[ "$exe" == */* ]]; then exe="$(realpath "$exe")"
    else exe="$(command -v "$exe" || true)"; fi
    [[ -x "$exe" ]] || die "engine not found or not executable: $1"
    echo "$exe${rest:+ $rest}"
}
ENGINE1="$(resolve_engine "$ENGINE1")"
ENGINE2="$(resolve_engine "$ENGINE2")"
NAME1="$(basename "${ENGINE1%% *}")"; NAME1="${NAME1#pbrain-}"
NAME2="$(basename "${ENGINE2%% *}")"; NAME2="${NAME2#pbrain-}"
if [[ "$NAME1" == "$NAME2" ]]; then NAME1="${NAME1}1"; NAME2="${NAME2}2"; fi

if [[ -z "${OPENINGS:-}" ]]; then
    OPENINGS="$ROOT/../shared/openings/${RULE}_${SIZE}.txt"
    [[ -f "$OPENINGS" ]] || OPENINGS="$ROOT/scripts/openings/${RULE}_${SIZE}.txt"
fi
[[ -f "$OPENINGS" ]] || die "openings file not found: $OPENINGS"
OPENINGS="$(realpath "$OPENINGS")"
N_OPENINGS="$(grep -c '[^[:space:]]' "$OPENINGS" || true)"
GAMES="${GAMES:-$((2 * N_OPENINGS))}"
((GAMES % 2 == 0)) || echo "match.sh: warning: odd --games, the last opening is played once" >&2

mkdir -p "$OUT"
OUT="$(realpath "$OUT")"
rm -f "$OUT"/{games.pgn,games.sgf,messages.txt,match.log,report.txt}   # c-gomoku-cli appends

CMD=("$CLI"
    -engine "name=$NAME1" "cmd=$ENGINE1" "tc=${TC_GAME:-0}/$TC_MOVE"
    -engine "name=$NAME2" "cmd=$ENGINE2" "tc=${TC_GAME2:-0}/$TC_MOVE2"
    -rule "$RULE_CODE" -boardsize "$SIZE"
    -openings "file=$OPENINGS" type=pos order=sequential
    -games "$GAMES" -repeat -concurrency "$CONCURRENCY"
    -pgn "$OUT/games.pgn" -sgf "$OUT/games.sgf" -msg "$OUT/messages.txt"
    ${EXTRA[@]+"${EXTRA[@]}"})
ODDS=""
[[ "$TC_MOVE2/$TC_GAME2" == "$TC_MOVE/$TC_GAME" ]] ||
    ODDS=" ($NAME2: ${TC_MOVE2}s/move${TC_GAME2:+, ${TC_GAME2}s/game})"
echo "match.sh: $NAME1 vs $NAME2, $RULE $SIZE, ${TC_MOVE}s/move${TC_GAME:+, ${TC_GAME}s/game}$ODDS," \
    "$GAMES games, output in $OUT"

# Watchdog. c-gomoku-cli can wait for ever on an engine that stops answering (its own deadline
# kill is unreliable, see ../scratch/NOTES.md 1.5; seen with an engine that printed ERROR instead
# of a move). Every 2 s, look at each c-gomoku-cli thread: one that has sat in a single read()
# (no context switch) for STALL seconds is stuck on an engine; kill the engine whose stdout is the
# pipe being read. c-gomoku-cli then scores a crash for it and goes on with the next game.
STALL="$(python3 -c 'import sys; v = list(map(float, sys.argv[1:]))
print(int(max(m or g or 1e9 for m, g in (v[:2], v[2:])) + 15))' "$TC_MOVE" "${TC_GAME:-0}" "$TC_MOVE2" "${TC_GAME2:-0}")"
watchdog() {
    set +e
    local cli=$1 tid ctx fd pipe child now
    declare -A last since
    while kill -0 "$cli" 2>/dev/null; do
        sleep 2; now=$SECONDS
        for tid in $(ls "/proc/$cli/task" 2>/dev/null); do
            ctx=$(grep -s voluntary_ctxt "/proc/$cli/task/$tid/status" | head -1)
            [[ "$ctx" == "${last[$tid]:-}" ]] || { last[$tid]=$ctx; since[$tid]=$now; continue; }
            ((now - since[$tid] >= STALL)) || continue
            read -r nr fd _ <"/proc/$cli/task/$tid/syscall" && [[ "$nr" == 0 ]] || continue
            pipe=$(readlink "/proc/$cli/fd/$((fd))")
            for child in $(pgrep -P "$cli"); do
                [[ "$(readlink "/proc/$child/fd/1")" == "$pipe" ]] || continue
                echo "match.sh: watchdog: engine $(tr '\0' ' ' <"/proc/$child/cmdline")(pid $child)" \
                    "silent for ${STALL}s, killing it"
                kill -KILL "$child"; since[$tid]=$now
            done
        done
    done
}

# c-gomoku-cli block-buffers stdout into a pipe (static binary, so stdbuf cannot help); `script`
# gives it a terminal so the progress shows live. Its stderr (crash lines) goes into the log too.
# The terminal shows the log without c-gomoku-cli's dump of its options.
cd "$OUT"
run() {
    local pid cli
    if command -v script >/dev/null; then
        script -qfec "$(printf '%q ' "${CMD[@]}")" /dev/null </dev/null &
    else
        "${CMD[@]}" 2>&1 &
    fi
    pid=$! cli=$!
    for _ in 1 2 3 4 5; do                  # under `script`, c-gomoku-cli is a descendant
        [[ -n "$cli" && "$(readlink "/proc/$cli/exe")" != "$(realpath "$CLI")" ]] || break
        sleep 0.2; cli="$(pgrep -P "$cli" | head -1 || true)"
    done
    [[ -z "$cli" ]] || watchdog "$cli" &
    wait "$pid"
}
STATUS=0
run | sed -u 's/\r$//' | tee match.log |
    sed -u -E '/^([A-Za-z]+ = |-----|Global Options:|Engine [0-9]+ Options:|Engine number = )/d' ||
    STATUS=$?

[[ -s games.sgf ]] || die "no games played (status $STATUS), see $OUT/match.log"
echo
python3 "$ROOT/scripts/match_report.py" --sgf games.sgf --log match.log --engine1 "$NAME1" \
    --engine2 "$NAME2" --tc-move "$TC_MOVE" --tc-game "${TC_GAME:-0}" --tc-move2 "$TC_MOVE2" \
    --tc-game2 "${TC_GAME2:-0}" | tee report.txt
# The match is complete when c-gomoku-cli's last running score counts every game asked for
# (its `Tournament update` table is only printed for more than two engines), or when an SPRT
# (-sprt) reached its verdict.
PLAYED="$(sed -n -E 's/^Score of .* ([0-9]+)$/\1/p' match.log | tail -1)"
{ [[ "${PLAYED:-0}" == "$GAMES" ]] || grep -q -E '^SPRT: .* H[01] accepted' match.log; } && ((STATUS == 0)) ||
    die "c-gomoku-cli failed or stopped before the end of the match (status $STATUS, ${PLAYED:-0} of $GAMES games)"
