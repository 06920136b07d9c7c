#!/usr/bin/env bash
# bench_signature.sh: the one-thread `arbor bench` node count must equal the newest `Bench: N`
# declared in the commit messages of main's own line (first parents, so a merge declares the
# count of what it merged). A change that alters how the engine searches must say so in its
# commit; one that lands undeclared fails here. Run from anywhere, after a release build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "bench signature: not a git checkout, so no declared count to check against; skipped"
    exit 0
fi
declared=$(git log --first-parent --format=%B HEAD | grep -oE 'Bench: [0-9]+' | head -n 1 | cut -d' ' -f2 || true)
if [ -z "$declared" ]; then
    echo "bench signature: no 'Bench: N' line in the history (a shallow clone?); fetch it whole" >&2
    exit 1
fi
measured=$(cargo run --quiet --release --bin arbor -- bench | sed -n 's/^Nodes searched: //p')
if [ "$measured" != "$declared" ]; then
    echo "bench signature: arbor bench searched $measured nodes, the newest commit message declares $declared" >&2
    echo "  (if the search is meant to change, say 'Bench: $measured' in the commit message)" >&2
    exit 1
fi
echo "bench signature: $measured nodes, as declared"
