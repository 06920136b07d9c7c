#!/usr/bin/env bash
# test-windows.sh: builds the Windows executables (scripts/build-windows.sh) and checks them as a
# Windows user would meet them, under Wine (scripts/wine.sh):
#   - they import only DLLs that every Windows 10 and Wine 8 has (no bcryptprimitives.dll, no
#     MinGW runtime DLL that would have to be shipped beside them);
#   - pbrain-arbor.exe answers every Gomocup transcript of protocol-tests/gomocup/ talked to as
#     piskvork talks on Windows (`arbor replay --crlf`: CR LF in, and CR LF required out);
#   - arbor.exe answers the GTP and terminal-game transcripts;
#   - ABOUT, --version and --help read the same as the Linux build's.
# The Linux build (target/release) is the referee. Run from anywhere: bash scripts/test-windows.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

started=$SECONDS
built_paths=$(bash scripts/build-windows.sh)
mapfile -t exes <<<"$built_paths"
PBRAIN=${exes[0]} ARBOR_EXE=${exes[1]}
built=$SECONDS
cargo build --release --quiet --bins
ARBOR=target/release/arbor

OBJDUMP=target/windows-toolchain/root/usr/bin/x86_64-w64-mingw32-objdump
ALLOWED=" kernel32.dll ntdll.dll msvcrt.dll api-ms-win-core-synch-l1-2-0.dll "
for exe in "$PBRAIN" "$ARBOR_EXE"; do
    dlls=$("$OBJDUMP" -p "$exe" | awk '/DLL Name:/ { print tolower($3) }' | sort -u)
    for dll in $dlls; do
        if [[ "$ALLOWED" != *" $dll "* ]]; then
            echo "test-windows.sh: $(basename "$exe") imports $dll, which is not among$ALLOWED(bcryptprimitives.dll: a HashMap or HashSet with the default hasher, which Wine 8 cannot load)" >&2
            exit 1
        fi
    done
    echo "$(basename "$exe"): $(stat -c %s "$exe") bytes, imports $(echo $dlls)"
done
checks=2

WINE=(bash scripts/wine.sh)
"${WINE[@]}" --prepare
tmp=$(mktemp -d)
# The server's -k fails when none runs; the folder goes all the same.
trap '"${WINE[@]}" --server -k || true; rm -rf "$tmp"' EXIT
"${WINE[@]}" --server -p
# replay LINE_ENDING_FLAG FOLDER PROGRAM ARG...: every transcript of protocol-tests/FOLDER.
replay() {
    local flag=$1 folder=$2 files
    shift 2
    files=(protocol-tests/"$folder"/*.txt)
    "$ARBOR" replay ${flag:+"$flag"} --engine "${WINE[@]}" "$@" -- "${files[@]}"
    checks=$((checks + ${#files[@]}))
}
replay --crlf gomocup "$PBRAIN"
replay "" gtp-tictactoe "$ARBOR_EXE" gtp --game tictactoe --threads 1
replay "" gtp-amazons "$ARBOR_EXE" gtp --game amazons --threads 1
replay "" play-tictactoe "$ARBOR_EXE" play tictactoe --threads 1

# Same words on both systems; the Gomocup reply differs only in its line ending.
same() {
    local what=$1 linux windows
    linux=$(cat "$2")
    windows=$(tr -d '\r' <"$3")
    if [ "$linux" != "$windows" ]; then
        echo "test-windows.sh: $what differs on Windows:" >&2
        diff <(echo "$linux") <(echo "$windows") >&2 || true
        exit 1
    fi
    checks=$((checks + 1))
}
for flag in --version --help; do
    target/release/pbrain-arbor "$flag" >"$tmp/linux"
    "${WINE[@]}" "$PBRAIN" "$flag" >"$tmp/windows"
    same "pbrain-arbor $flag" "$tmp/linux" "$tmp/windows"
    "$ARBOR" "$flag" >"$tmp/linux"
    "${WINE[@]}" "$ARBOR_EXE" "$flag" >"$tmp/windows"
    same "arbor $flag" "$tmp/linux" "$tmp/windows"
done
printf 'ABOUT\nEND\n' | target/release/pbrain-arbor >"$tmp/linux"
printf 'ABOUT\r\nEND\r\n' | "${WINE[@]}" "$PBRAIN" >"$tmp/windows"
same "ABOUT" "$tmp/linux" "$tmp/windows"
echo "Windows build: built in $((built - started)) s, checked under Wine in $((SECONDS - built)) s"
echo "windows: $checks passed, 0 failed"
