#!/usr/bin/env bash
# wine.sh: runs a Windows console program under Wine, for checking the Windows build on Linux.
#
# Debian's Wine 8 (wine64 and libwine, with the zlib1.dll its user32.dll loads) is taken from the
# package registry and unpacked under target/wine (nothing installed, no root needed once the
# package lists are current), with a Wine prefix of its own there. Standard input and output and
# the exit status pass through; Wine's own chatter is silenced (WINEDEBUG=-all).
#
# Each program starts the Wine server if none runs, and it stops when the last program ends; a
# program started just then may find it gone ("recvmsg: Connection reset by peer"), so scripts
# that start many in turn keep one running with --server -p and stop it with --server -k.
#
# Usage: bash scripts/wine.sh PROGRAM.exe [ARG...]
#        bash scripts/wine.sh --prepare        fetch and set up only (the first run takes seconds)
#        bash scripts/wine.sh --server ARG...  the Wine server with these arguments (-p, -k)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NAME=wine.sh
WINE_DIR="$ROOT/target/wine"
PRIVATE="$WINE_DIR/root/usr"

if [ ! -f "$WINE_DIR/versions" ]; then
    # shellcheck source=scripts/debs.sh
    source "$ROOT/scripts/debs.sh"
    echo "$NAME: fetching Debian's Wine into $WINE_DIR" >&2
    debs_unpack "$WINE_DIR" wine64 libwine libz-mingw-w64
    # Wine's DLLs come with their debug information: without it they and the prefix take a third.
    strip --strip-debug "$PRIVATE"/lib/x86_64-linux-gnu/wine/x86_64-windows/* 2>/dev/null || true
    # Debian's wineserver wrapper looks for the server under /usr only: point it beside itself.
    printf '#!/bin/sh\nexec "$(dirname "$0")/wineserver64" -p0 "$@"\n' >"$PRIVATE/lib/wine/wineserver"
fi

export LD_LIBRARY_PATH="$PRIVATE/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export WINEDLLPATH="$PRIVATE/x86_64-w64-mingw32/lib"
export WINEPREFIX="$WINE_DIR/prefix"
export WINEDEBUG=-all
WINE="$PRIVATE/lib/wine/wine64"

# The prefix's first set-up fails now and then on a fresh machine (seen once in CI); a second
# try has always worked, so it gets three.
for _ in 1 2 3; do
    [ -d "$WINEPREFIX/drive_c" ] && break
    "$WINE" wineboot --init >/dev/null 2>&1 || true
    "$PRIVATE/lib/wine/wineserver64" -w || true
done
[ -d "$WINEPREFIX/drive_c" ] || { echo "$NAME: Wine could not set up $WINEPREFIX" >&2; exit 1; }

case "${1:-}" in
    --prepare) exit 0 ;;
    --server) shift; exec "$PRIVATE/lib/wine/wineserver64" "$@" ;;
    "") echo "usage: bash scripts/wine.sh PROGRAM.exe [ARG...] | --prepare | --server ARG..." >&2; exit 2 ;;
esac
exec "$WINE" "$@"
