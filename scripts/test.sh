#!/usr/bin/env bash
# test.sh: every check Arbor has, cheapest first so a careless change fails fast. Formatting and
# lints; Rust unit tests, protocol transcripts and the protocol fuzz through `cargo test`; the
# bench signature; then a real third-party Gomocup client (pygomo-lib, from PyPI) plays whole
# games against the release brain; the game runner (scripts/games.py) plays the same games
# through a Dask cluster as directly; last, the Windows executables are cross-built and checked
# under Wine (scripts/test-windows.sh). Run from anywhere: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
cargo test --release
bash scripts/bench_signature.sh

# The client lives in a virtual environment of its own so the system Python stays untouched.
venv=target/pygomo-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tests/requirements.txt
"$venv/bin/python" tests/pygomo_client.py target/release/pbrain-arbor

# The game runner: a short fixed-node batch gives the same games through a Dask cluster (local,
# and a scheduler with two separate workers) as played directly.
runner=target/runner-venv
if [ ! -x "$runner/bin/python" ]; then
    python3 -m venv "$runner"
fi
"$runner/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/runner-requirements.txt
"$runner/bin/python" tests/games_cluster.py target/release/pbrain-arbor

bash scripts/test-windows.sh
