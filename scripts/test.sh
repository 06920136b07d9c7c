#!/usr/bin/env bash
# test.sh: every check Arbor has, cheapest first so a careless change fails fast. Formatting and
# lints; Rust unit tests, protocol transcripts and the protocol fuzz through `cargo test`; the
# bench signature; then a real third-party Gomocup client (pygomo-lib, from PyPI) plays whole
# games against the release brain; the game runner (scripts/games.py) plays the same games
# through a Dask cluster as directly, and the SPSA tuner (scripts/spsa.py) resumes exactly;
# training data comes out the same through the cluster, as do an Amazons proof's parts, and the learned evaluation's pipeline
# (scripts/learn/) runs end to end; last, the Windows executables are cross-built and checked under Wine
# (scripts/test-windows.sh). Run from anywhere: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
cargo test --release
bash scripts/bench_signature.sh

# The tuner's build (src/params.rs): at its defaults it searches exactly as the normal build, and
# a parameter set on the command line changes the search.
cargo clippy --release --all-targets --features tune --target-dir target/tune -- -D warnings
cargo build --release --quiet --features tune --target-dir target/tune --bins
bench_nodes() { "$@" | sed -n 's/^Nodes searched: //p'; }
default_nodes=$(bench_nodes target/release/arbor bench)
[ "$(bench_nodes target/tune/release/arbor bench)" = "$default_nodes" ] ||
    { echo "test.sh: the tune build at its defaults searches differently from the normal build" >&2; exit 1; }
changed_nodes=$(bench_nodes target/tune/release/arbor bench --param rfp_margin=60)
[ -n "$changed_nodes" ] && [ "$changed_nodes" != "$default_nodes" ] ||
    { echo "test.sh: --param rfp_margin=60 left the tune build's search unchanged" >&2; exit 1; }

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
# The SPSA tuner on it (with the tune build): resumes exactly, steps as its history says.
"$runner/bin/python" tests/spsa_run.py
# Training data through the same cluster: the same bytes as made directly, resumed exactly.
"$runner/bin/python" tests/generate_cluster.py target/release/arbor
# An Amazons proof split over the same cluster: the same verdicts as solved here.
"$runner/bin/python" tests/solve_cluster.py target/release/arbor

# The learned evaluation's pipeline (data, baseline, trainer) in its own environment.
learn=target/learn-venv
if [ ! -x "$learn/bin/python" ]; then
    python3 -m venv "$learn"
fi
"$learn/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/learn/requirements.txt
"$learn/bin/python" tests/learn_pipeline.py target/release/arbor

bash scripts/test-windows.sh
