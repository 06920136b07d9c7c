#!/usr/bin/env python3
"""The learned evaluation's pipeline end to end on a few games: `arbor datagen` writes them,
scripts/learn/data.py reads them into positions, baseline.py scores the present evaluation on
the held-out ones through `arbor evaluate`, train.py learns from them and export.py writes the
integer network.

What is checked: every position data.py rebuilds is a legal position in play with the right
side to move (`arbor evaluate` accepts each one, and the stone counts agree); the hash that
deduplicates and splits the positions is the same for a board's eight images, and no held-out
position is trained on under any symmetry; the network is exactly
symmetric (the value of a board and of its seven images agree, the policy moves with them), which
holds only if every line shape and its mirror image share one codebook entry, in every form (with
the per-cell layer, without, and with the value read as a mean per cell content, per threat
class or per four class); and two epochs of
training lower the held-out policy loss and write the history, its plot and the weights; the
classical scores data.py adds are the same for a board's eight images (train.py --mix sees
each batch under one of them), two epochs of --mix training lower the mix's held-out value loss,
and the loss it reports is the mix's (half the network's logit, half the classical score on
the fitted scale) against the blended target, recomputed here from the saved weights; the
exported file holds every array and reads back (export.read, where train.py --init starts) to
the same file, the integer network's value stays close to the float one's, and
the engine's reading of the file (`arbor evaluate --network`) computes exactly the integer
reference's values and best cells, for the network with its per-cell layer, without it, the
--mix run's, whose value reads a mean per cell content (--pool content), and that one read by
threat class (--pool threat) and by four class (--pool fours), each class's weights made
different.

Run with the trainer's environment:  target/learn-venv/bin/python tests/learn_pipeline.py ARBOR
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
# The only width the engine takes (src/gomoku/network/).
DIM = 32
sys.path.insert(0, str(ROOT / "scripts/learn"))
sys.dont_write_bytecode = True
from checks import report  # noqa: E402
import data  # noqa: E402
import export  # noqa: E402
import train  # noqa: E402


def symmetric_model_checks(boards, sides):
    """Whether every form of the network (with and without the per-cell layer, the value read
    as one mean, a mean per cell content, per threat class or per four class) gives the same
    value for a board and its seven images, and a policy that moves with them."""
    import jax
    import jax.numpy as jnp
    table, shapes = train.shape_index_table()
    same_value, same_policy = True, True
    for cell_layer, pool in ((True, "board"), (False, "board"), (False, "content"), (False, "threat"), (False, "fours")):
        forward, init = train.make_model(jax, jnp, table, cell_layer, pool)
        params = init(jax.random.PRNGKey(3), shapes, 8)
        params["codebook"] = params["codebook"] * 5            # large enough for every clip to matter
        value, policy = forward(params, boards, sides)
        policy = np.asarray(policy).reshape(boards.shape)
        for which in range(1, 8):
            images, _ = train.symmetric(boards, np.zeros(len(boards), np.int64), which)
            image_value, image_policy = forward(params, images, sides)
            same_value &= bool(np.allclose(value, image_value, atol=1e-4))
            same_policy &= bool(np.allclose(np.asarray(image_policy).reshape(boards.shape), image(policy, which),
                                            atol=1e-3))
    return shapes, same_value, same_policy


def mix_loss(path, columns):
    """The held-out value loss of a trained model mixed half and half with the classical
    evaluation, against train.py's default target, computed from the saved weights."""
    import jax
    import jax.numpy as jnp
    model = dict(np.load(path))
    scale = float(model["score_scale"])
    held = columns["heldout"]
    table, _ = train.shape_index_table()
    forward, _ = train.make_model(jax, jnp, table, cell_layer="cell_w" in model, pool=train.pool_of(model))
    params = {name: jnp.asarray(value) for name, value in model.items()
              if name not in ("score_scale", "size", "rule")}
    value, _ = forward(params, columns["board"][held], columns["side"][held])
    logit = 0.5 * np.asarray(value, np.float64) + 0.5 * columns["classical"][held] / scale
    target = 0.5 * columns["result"][held] + 0.5 / (1 + np.exp(-columns["score"][held] / scale))
    return float(np.mean(np.logaddexp(0, logit) - target * logit))


def image(maps, which):
    """Maps (B, S, S) under symmetry `which`, as train.symmetric moves boards."""
    if which & 4:
        maps = maps.transpose(0, 2, 1)
    return np.rot90(maps, which & 3, axes=(1, 2))


def refused_by(function, argument):
    """Whether `function(argument)` stops with export.py's refusal (SystemExit)."""
    try:
        function(argument)
    except SystemExit:
        return True
    return False


def main():
    arbor = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/release/arbor")
    with tempfile.TemporaryDirectory(prefix="arbor-learn-test-") as folder:
        folder = Path(folder)
        shard = folder / "shard.bin"
        subprocess.run([arbor, "datagen", "--out", str(shard), "--games", "40", "--nodes", "1500", "--seed", "7",
                        "--openings", str(ROOT / "scripts/openings/freestyle_15.txt")],
                       check=True, timeout=300, capture_output=True)
        header, games = data.read_games(shard)
        # What a crash can leave at a file's end (zeros) is not read as games.
        (folder / "torn.bin").write_bytes(shard.read_bytes() + bytes(60))
        torn_games = len(data.read_games(folder / "torn.bin")[1])
        searched = sum(len(game[3]) for game in games)
        columns, rule, size = data.build([shard], holdout=8)
        columns["classical"] = data.classical_scores(arbor, columns["board"], rule)
        np.savez(folder / "set.npz", rule=rule, size=size, **columns)
        boards, sides = columns["board"], columns["side"]
        rows = "".join("".join(".XO"[c] for c in board.ravel()) + "\n" for board in boards)
        answers = subprocess.run([arbor, "evaluate", "--size", str(size)], input=rows, capture_output=True, text=True,
                                 check=True).stdout.splitlines()
        black, white = (boards == 1).sum((1, 2)), (boards == 2).sum((1, 2))
        images = [train.symmetric(boards[:100], np.zeros(100, np.int64), which)[0] for which in range(8)]
        invariant = all((data.canonical_hashes(image) == data.canonical_hashes(images[0])).all() for image in images)
        baseline = subprocess.run([sys.executable, str(ROOT / "scripts/learn/baseline.py"), str(folder / "set.npz"),
                                   "--arbor", arbor], capture_output=True, text=True, check=True).stdout
        shapes, same_value, same_policy = symmetric_model_checks(boards[:64], sides[:64])
        subprocess.run([sys.executable, str(ROOT / "scripts/learn/train.py"), str(folder / "set.npz"), "--out",
                        str(folder / "run"), "--epochs", "2", "--dim", str(DIM), "--batch", "64", "--lr", "0.01", "--cell-layer"],
                       check=True, timeout=600, capture_output=True)
        history = json.loads((folder / "run/history.json").read_text())
        subprocess.run([sys.executable, str(ROOT / "scripts/learn/train.py"), str(folder / "set.npz"), "--out",
                        str(folder / "mix"), "--epochs", "2", "--batch", "64", "--lr", "0.01", "--mix", "50",
                        "--pool", "content"],
                       check=True, timeout=600, capture_output=True)
        mixed = json.loads((folder / "mix/history.json").read_text())
        recomputed = mix_loss(folder / "mix/model.npz", columns)
        classical_invariant = all((data.classical_scores(arbor, image, rule) == columns["classical"][:100]).all()
                                  for image in images[1:])
        written = all((folder / "run" / name).stat().st_size > 0 for name in ("history.png", "model.npz"))
        model = dict(np.load(folder / "run/model.npz"))
        q, cell_layer = export.quantise(model)
        export.write(folder / "model.arbn", q, cell_layer, model)
        exported = (folder / "model.arbn").read_bytes()
        back = export.read(folder / "model.arbn")
        (folder / "cut.arbn").write_bytes(exported[:-1])
        cut_refused = refused_by(export.read, folder / "cut.arbn")
        export.write(folder / "again.arbn", *export.quantise(back), back)
        read_back = (folder / "again.arbn").read_bytes() == exported
        pooled = dict(np.load(folder / "mix/model.npz"))
        export.write(folder / "pooled.arbn", *export.quantise(pooled), pooled)
        pooled_back = export.read(folder / "pooled.arbn")
        export.write(folder / "again.arbn", *export.quantise(pooled_back), pooled_back)
        read_back &= (folder / "again.arbn").read_bytes() == (folder / "pooled.arbn").read_bytes()
        # The content-pooled network read by threat class and by four class, every class's
        # first layer its own.
        empty_w, black_w, white_w = np.split(pooled["v1_w"], 3, axis=1)
        noise = np.random.default_rng(5)
        by_class = {}
        for pool in ("threat", "fours"):
            by_class[pool] = pooled | {"v1_w": np.concatenate(
                [empty_w + noise.normal(0, 0.05, empty_w.shape) for _ in range(train.POOLS[pool] - 2)]
                + [black_w, white_w], axis=1)}
            export.write(folder / f"{pool}.arbn", *export.quantise(by_class[pool]), by_class[pool])
            class_back = export.read(folder / f"{pool}.arbn")
            read_back &= train.pool_of(class_back) == pool
            export.write(folder / "again.arbn", *export.quantise(class_back), class_back)
            read_back &= (folder / "again.arbn").read_bytes() == (folder / f"{pool}.arbn").read_bytes()
        # What the engine would refuse, export.py refuses: a width other than 32, a weight past
        # its integer, a cell's sum past 16 bits, a layer's past 32.
        def refused(changed):
            return refused_by(export.quantise, changed)

        def filled(change):
            return model | {name: np.full_like(model[name], value) for name, value in change.items()}
        refuses = (refused(model | {"codebook": model["codebook"][:, :16]}) and not refused(model)
                   and refused(filled({"codebook": 40.0})) and refused(filled({"codebook": 10.0}))
                   and refused(filled({"cell_w": 31.0, "cell_b": 1100.0}))
                   and not refused(filled({"cell_w": 31.0, "cell_b": 1000.0})))
        # The codebook, bias0, the cell layer, then both sides' heads.
        expected_bytes = (32 + 2 * q["codebook"].size + 2 * DIM + 2 * DIM * DIM + 4 * DIM
                          + 2 * (2 * DIM * 32 + 4 * 32 + 2 * 32 + 4 + 2 * DIM))
        rounding = export.compare(model, boards[:256], sides[:256], columns["best"][:256])
        # Every form of the network: the trained one, the same without its per-cell layer, the
        # --mix run's, pooled by cell content, and that one pooled by threat and by four class.
        table, _ = train.shape_index_table()
        levels = train.threat_levels(table, shapes)
        same_values, same_cells = True, True
        for form in (model, {name: value for name, value in model.items() if not name.startswith("cell_")}, pooled,
                     by_class["threat"], by_class["fours"]):
            q, cell_layer = export.quantise(form)
            export.write(folder / "form.arbn", q, cell_layer, form)
            integer_value, integer_policy = export.integer_forward(q, cell_layer, boards, sides, table, levels)
            integer_policy = np.where(boards.reshape(len(boards), -1) == 0, integer_policy, np.iinfo(np.int64).min)
            engine = subprocess.run([arbor, "evaluate", "--size", str(size), "--network", str(folder / "form.arbn")],
                                    input=rows, capture_output=True, text=True, check=True).stdout.splitlines()
            engine_value = np.array([int(line.split()[0]) for line in engine])
            engine_cell = np.array([int(line.split()[1].split(",")[1]) * size + int(line.split()[1].split(",")[0])
                                    for line in engine])
            same_values &= bool((engine_value == integer_value).all())
            same_cells &= bool((engine_cell == integer_policy.argmax(1)).all())
        with_network = subprocess.run([sys.executable, str(ROOT / "scripts/learn/baseline.py"), str(folder / "set.npz"),
                                       "--arbor", arbor, "--network", str(folder / "model.arbn")],
                                      capture_output=True, text=True, check=True).stdout
    checks = {
        "datagen wrote 40 whole games of the asked settings": len(games) == 40 and header["nodes"] == 1500,
        "zeros after the last game are not read as games": torn_games == 40,
        "data.py kept every searched position but duplicates": 0 < len(boards) <= searched,
        "every position is in play for arbor evaluate": len(answers) == len(boards)
                                                         and not any(a.startswith("error") for a in answers),
        "the side to move follows the stone counts": bool(((black - white) == (sides == 1)).all()),
        "the deduplication hash is the same for a board's eight images": invariant,
        "some positions are held out, most are not": 0 < columns["heldout"].sum() < len(boards) / 2,
        "no held-out position is trained on, under any symmetry": not np.isin(
            data.canonical_hashes(boards[~columns["heldout"]]), data.canonical_hashes(boards[columns["heldout"]])).any(),
        "baseline.py reports both figures": "value accuracy" in baseline and "move match" in baseline,
        "22,143 line shapes": shapes == 22143,
        "the value is the same under the board's eight symmetries": same_value,
        "the policy moves with the board": same_policy,
        "two epochs lower the held-out policy loss": history[-1]["policy_loss"] < history[0]["policy_loss"],
        "the classical scores are the same for a board's eight images": classical_invariant,
        "two epochs of --mix lower the mix's held-out value loss": mixed[-1]["mix_value_loss"]
                                                                    < mixed[0]["mix_value_loss"],
        "the mix's loss is the network and the classical score mixed": abs(
            recomputed - mixed[-1]["mix_value_loss"]) < 1e-4,
        "baseline.py --network reports the network and the mix": "mixed at 50 %" in with_network,
        "the history's plot and the weights are written": written,
        "the exported file has its header and every array": exported[:4] == b"ARBN"
                                                              and len(exported) == expected_bytes,
        "read back (train.py --init) and written again, the same file, every pooling": read_back,
        "export.py refuses weights the engine would refuse": refuses,
        "export.read refuses a file cut short": cut_refused,
        "the integer network follows the float one": rounding["mean_gap"] < 0.05 and rounding["same_sign"] > 0.95,
        "the engine's network gives the integer reference's values exactly, every form": same_values,
        "and ranks the same cell first": same_cells,
    }
    report("learn", checks, f"({len(boards)} positions)")


if __name__ == "__main__":
    main()
