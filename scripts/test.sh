#!/usr/bin/env bash
# test.sh: every test Arbor has. Rust unit tests, protocol transcripts and the protocol fuzz run
# through `cargo test`; then a real third-party Gomocup client (pygomo-lib, from PyPI) plays whole
# games against the release brain. Run from anywhere: bash scripts/test.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo test --release

# The client lives in a virtual environment of its own so the system Python stays untouched.
venv=target/pygomo-venv
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tests/requirements.txt
"$venv/bin/python" tests/pygomo_client.py target/release/pbrain-arbor
