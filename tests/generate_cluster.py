#!/usr/bin/env python3
"""Training data made through the game runner's cluster (scripts/learn/generate.py) is the same,
byte for byte, as made directly, and a shard cut short resumes to the same bytes; with the
embedded network (--network embedded) the engine plays other games, the same each time.

Three shards of a few fixed-node games are made directly, then again on a local cluster of two
workers, one of them from a copy cut short in the middle of a game whose first game has a depth
byte changed: the byte must survive, or the shard was made again rather than resumed.

Run with the runner's environment:  target/runner-venv/bin/python tests/generate_cluster.py ARBOR
"""
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
from checks import report  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def generate(arbor, prefix, *where):
    subprocess.run([sys.executable, str(ROOT / "scripts/learn/generate.py"), "--arbor", arbor, "--openings",
                    str(ROOT / "scripts/openings/freestyle_15.txt"), "--seeds", "1-3", "--games", "4", "--nodes", "2000",
                    "--out", str(prefix), *where], check=True, timeout=300, capture_output=True)
    return [Path(f"{prefix}-s{seed}.bin").read_bytes() for seed in (1, 2, 3)]


def main():
    arbor = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/arbor")
    with tempfile.TemporaryDirectory(prefix="arbor-generate-test-") as folder:
        folder = Path(folder)
        direct = generate(arbor, folder / "direct", "--direct")
        cut = bytearray(direct[1][:len(direct[1]) * 2 // 3])
        unsearched, plies = cut[32 + 3], int.from_bytes(cut[32 + 4:32 + 6], "little")
        marked = 32 + 6 + 2 * plies + 4                  # the first searched position's depth
        cut[marked] = 250
        (folder / "cluster-s2.bin").write_bytes(cut)
        cluster = generate(arbor, folder / "cluster", "--workers", "2")
        resumed = cluster[1][marked] == 250 and cluster[1][marked + 1:] == direct[1][marked + 1:]
        cluster[1] = direct[1] if resumed else cluster[1]
        networked = [generate(arbor, folder / f"network{run}", "--direct", "--network", "embedded") for run in (1, 2)]
    checks = {
        "three shards of whole games were made": all(len(shard) > 32 for shard in direct),
        "the shards differ by seed": len(set(direct)) == 3,
        "the cut shard was resumed, not made again": resumed and plies > unsearched,
        "the cluster made the same bytes": cluster == direct,
        "the network's games are whole, their own, and the same each time":
            all(len(shard) > 32 for shard in networked[0]) and networked[0] != direct and networked[0] == networked[1],
    }
    report("generate", checks)


if __name__ == "__main__":
    main()
