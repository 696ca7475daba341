"""Fine-tune a committed half classifier (the face-down check or the half reader) on rendered
crops plus real crops mined from the corpus, holding whole folds of sources out (issue 25).

    python -m training.finetune_halves --start models/face-down.onnx --hold-out boards \
        --minutes 8 --threads 1 --out training/runs/face-down-no-boards.onnx

The net starts from the ONNX file's weights: the exporter folded each batch norm into its
convolution, so the batch norms start as the identity with the folded bias and stay frozen
(their statistics are not re-estimated from the small real share). Each batch is mostly
rendered single-tile crops (training.halves_data, cached in training/data/), a share
(``--finder-scenes``, ``--finder-share``) crops cut along the app's finder's outlines on rendered
scenes (training.finder_crops_data, as the committed reader learnt from), the rest real crops of
the folds not held out (training.real_crops). The temperature is fitted again on
the rendered validation crops; the real crops of the held-out folds are never seen.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper
from torch import nn

from training import finder_crops_data, halves_data, table_crops_data
from training.exporting import command_line, export_onnx, write_sidecar
from training.halves_data import NOT_A_HALF, build_set
from training.real_crops import OUT as REAL_CROPS
from training.real_folds import FOLD_NAMES, fold_of, parse_fold
from training.train_halves import (
    Calibrated,
    HalfNet,
    _augment,
    _evaluate,
    _fit_temperature,
    _halves_and_labels,
    _report,
    to_float,
)


def halfnet_from_onnx(path: Path) -> tuple[HalfNet, float]:
    """The exported half classifier as a trainable HalfNet, and its temperature."""
    model = onnx.load(str(path))
    weights = {init.name: np.array(numpy_helper.to_array(init)) for init in model.graph.initializer}
    convs = [name for name in weights if weights[name].ndim == 4]
    width = int(weights[convs[0]].shape[0])
    net = HalfNet(width)
    blocks = [module for module in net.features]
    by_name = list(weights)
    with torch.no_grad():
        for block, conv_name in zip(blocks, convs, strict=True):
            conv, norm = block[0], block[1]
            bias = weights[by_name[by_name.index(conv_name) + 1]]
            conv.weight.copy_(torch.from_numpy(weights[conv_name]))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0)
            norm.weight.fill_(math.sqrt(1.0 + norm.eps))
            norm.bias.copy_(torch.from_numpy(bias))
        head = net.head[1]
        head.weight.copy_(torch.from_numpy(weights["net.head.1.weight"]))
        head.bias.copy_(torch.from_numpy(weights["net.head.1.bias"]))
    temperature = 1.0 / float(weights["inv_temperature"])
    return net, temperature


IGNORED = -100
"""A half left out of the loss (cross_entropy's ignore_index)."""


def blank_halves_unlabelled(
    net: nn.Module, halves: torch.Tensor, labels: torch.Tensor
) -> torch.Tensor:
    """``labels`` with each "not a face-up half" that ``net`` counts as blank left out.

    The face-down check counts a crop as a face when one half shows pips or both are face up
    (vision.halves.shows_a_face). A printed domino's plain end looks like a real tile's blank
    half: taught as "no half", it would teach the check to doubt every real blank, and double
    blanks would stop counting. Its end with pips is enough to reject it.
    """
    logits = _evaluate(net, halves, labels)
    blank = logits[:, :NOT_A_HALF].argmax(dim=1) == 0
    relabelled = labels.clone()
    relabelled[(labels == NOT_A_HALF) & blank] = IGNORED
    return relabelled


def freeze_norms(net: nn.Module) -> None:
    """Batch norms in eval mode and not trained: they hold the folded convolution biases."""
    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
            module.weight.requires_grad_(False)


def real_split(
    path: Path, held_out: set[str], negatives: bool = True
) -> tuple[tuple[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor], dict[str, int]]:
    """The real crops' halves of the folds trained on, and of those held out, and counts."""
    if not path.exists():
        # No mined crops: rendered crops only, every real source held out.
        crops = np.empty((0, 64, 128, 3), np.uint8)
        labels, sources = np.empty((0, 2), np.int64), np.empty(0, str)
    else:
        with np.load(path) as stored:
            crops, labels, sources = stored["crops"], stored["labels"], stored["sources"]
    out = np.array([fold_of(str(source)) in held_out for source in sources], bool)
    if not negatives:
        positive = labels[:, 0] != NOT_A_HALF
        crops, labels, out = crops[positive], labels[positive], out[positive]
    counts = {
        "train_crops": int((~out).sum()),
        "train_negative_crops": int(((labels[:, 0] == NOT_A_HALF) & ~out).sum()),
        "held_out_crops": int(out.sum()),
    }
    return (
        _halves_and_labels(crops[~out], labels[~out]),
        _halves_and_labels(crops[out], labels[out]),
        counts,
    )


def trained_on_folds(held_out: set[str], real_crops: int, real_share: float) -> list[str]:
    """The folds of real sources whose crops the model learnt from: none when no real crop was
    mined or none went into a batch, however many folds were not held out."""
    if not real_crops or real_share <= 0:
        return []
    return [fold for fold in FOLD_NAMES if fold not in held_out]


def finder_crops(first_seed: int, scenes: int, workers: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The halves of the usual rendered scenes first_seed.. cut along the app's finder's
    outlines, and their labels (none for no scenes)."""
    if not scenes:
        return _halves_and_labels(np.empty((0, 64, 128, 3), np.uint8), np.empty((0, 2), np.int64))
    return _halves_and_labels(
        *finder_crops_data.build_set(first_seed, scenes, workers=workers, classes=False)
    )


def printed_crops(first_seed: int, scenes: int, workers: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The halves of rendered scenes with printed dominoes first_seed.. cut along the app's
    finder's outlines, and their labels (none for no scenes)."""
    if not scenes:
        return _halves_and_labels(np.empty((0, 64, 128, 3), np.uint8), np.empty((0, 2), np.int64))
    return _halves_and_labels(*finder_crops_data.build_printed_set(first_seed, scenes, workers))


def table_crops(
    first_seed: int, tables: int, workers: int, max_half: int | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """The halves of rendered tables first_seed.. cut where the table pipeline reports its
    tiles, and their labels (none for no tables); with ``max_half``, tiles with a half above
    it are left out (a double-15 set's small 13 to 15s taught a reader to see 15s in a
    double-12 hand read without its set)."""
    if not tables:
        return _halves_and_labels(np.empty((0, 64, 128, 3), np.uint8), np.empty((0, 2), np.int64))
    crops, labels = table_crops_data.build_set(first_seed, tables, workers=workers)
    if max_half is not None:
        kept = ((labels <= max_half) | (labels == NOT_A_HALF)).all(axis=1)
        crops, labels = crops[kept], labels[kept]
    return _halves_and_labels(crops, labels)


def _report_each(
    net: HalfNet, checked: dict[str, tuple[torch.Tensor, torch.Tensor]], when: str
) -> dict[str, dict[str, float]]:
    """Each non-empty validation set's figures, printed as "NAME WHEN ..." ({} for an empty
    one)."""
    return {
        name: _report(f"{name} {when}", _evaluate(net, x, y), y) if len(y) else {}
        for name, (x, y) in checked.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=Path, default=Path("models/face-down.onnx"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--real", type=Path, default=REAL_CROPS, help="training.real_crops output")
    parser.add_argument(
        "--hold-out", action="append", default=[], help="a fold not to train on (repeatable)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-count", type=int, default=10000, help="rendered crops")
    parser.add_argument("--val-count", type=int, default=1500)
    parser.add_argument("--printed-backs", action="store_true")
    parser.add_argument(
        "--coloured-bodies",
        action="store_true",
        help="a fifth of the rendered crops from sets moulded in a strong colour (data version 7)",
    )
    parser.add_argument(
        "--high-count-share",
        type=float,
        default=halves_data.HIGH_COUNT_SHARE,
        help="the share of the rendered training crops' halves with 13 to 18 pips (the"
        " validation crops keep the usual share, so before and after compare)",
    )
    finders_outlines = "cut along the app's finder's outlines"
    for count, share, default_share, what in (
        ("--finder-scenes", "--finder-share", 0.3, f"usual scenes {finders_outlines}"),
        ("--table-tables", "--table-share", 0.2, "tables cut where the table pipeline reads tiles"),
        ("--printed-scenes", "--printed-share", 0.2, f"printed-domino scenes {finders_outlines}"),
    ):
        parser.add_argument(count, type=int, default=0, help=f"rendered {what} (0: none)")
        parser.add_argument(share, type=float, default=default_share, help="its share of a batch")
    parser.add_argument(
        "--table-max-half", type=int, default=None, help="leave out table tiles above this half"
    )
    parser.add_argument("--render-workers", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=8.0)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--real-share", type=float, default=0.3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--blank-negatives-unlabelled",
        action="store_true",
        help="leave out of the loss the negatives' halves the start model reads as blank",
    )
    parser.add_argument(
        "--no-negatives", action="store_true", help="learn the real tiles only, not what is none"
    )
    args = parser.parse_args(argv)
    held_out = {parse_fold(name) for name in args.hold_out}

    started = time.monotonic()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    generator = torch.Generator().manual_seed(args.seed)
    halves_data.use_printed_backs(args.printed_backs)
    halves_data.use_coloured_bodies(args.coloured_bodies)
    finder_crops_data.use_coloured_bodies(args.coloured_bodies)
    workers = args.render_workers
    val_x, val_y = _halves_and_labels(*build_set(0, args.val_count, workers=workers, chunk=1500))
    halves_data.use_high_counts(args.high_count_share)
    train_x, train_y = _halves_and_labels(*build_set(1_000_000, args.train_count, workers=workers))
    halves_data.use_high_counts()
    finder_x, finder_y = finder_crops(3_000_000, args.finder_scenes, workers)
    finder_val_x, finder_val_y = finder_crops(3_900_000, min(150, args.finder_scenes), workers)
    print(f"finder crops: {len(finder_y) // 2} halves", flush=True)
    table_x, table_y = table_crops(
        table_crops_data.FIRST_SEED, args.table_tables, workers, args.table_max_half
    )
    table_val_x, table_val_y = table_crops(
        table_crops_data.FIRST_SEED + 900_000,
        min(100, args.table_tables),
        workers,
        args.table_max_half,
    )
    print(f"table crops: {len(table_y) // 2} halves", flush=True)
    printed_x, printed_y = printed_crops(0, args.printed_scenes, workers)
    printed_val_x, printed_val_y = printed_crops(900_000, min(100, args.printed_scenes), workers)
    print(f"printed-scene crops: {len(printed_y) // 2} halves", flush=True)
    (real_x, real_y), (held_x, held_y), counts = real_split(
        args.real, held_out, negatives=not args.no_negatives
    )
    print(f"real crops: {counts}", flush=True)

    net, start_temperature = halfnet_from_onnx(args.start)
    if args.blank_negatives_unlabelled and len(real_y):
        real_y = blank_halves_unlabelled(net, real_x, real_y)
        counts["negative_halves_left_unlabelled"] = int((real_y == IGNORED).sum())
        print(f"real crops: {counts}", flush=True)
    before_val = _report("rendered validation before", _evaluate(net, val_x, val_y), val_y)
    checked = {
        "finder crops": (finder_val_x, finder_val_y),
        "table crops": (table_val_x, table_val_y),
        "printed crops": (printed_val_x, printed_val_y),
        "held-out real": (held_x, held_y),
    }
    _report_each(net, checked, "before")
    parameters = [p for p in net.parameters() if p.requires_grad]
    optimiser = torch.optim.AdamW(parameters, lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    train_start = time.monotonic()
    step, running = 0, 0.0
    while (elapsed := time.monotonic() - train_start) < budget:
        progress = elapsed / budget
        for group in optimiser.param_groups:
            group["lr"] = (
                args.lr * min(1.0, progress / 0.05) * 0.5 * (1 + math.cos(math.pi * progress))
            )
        net.train()
        freeze_norms(net)
        from_real = int(args.batch * args.real_share) if len(real_y) else 0
        from_finder = int(args.batch * args.finder_share) if len(finder_y) else 0
        from_table = int(args.batch * args.table_share) if len(table_y) else 0
        from_printed = int(args.batch * args.printed_share) if len(printed_y) else 0
        rendered = args.batch - from_real - from_finder - from_table - from_printed
        index = torch.randint(0, len(train_x), (rendered,), generator=generator)
        real_index = torch.randint(0, max(1, len(real_x)), (from_real,), generator=generator)
        finder_index = torch.randint(0, max(1, len(finder_x)), (from_finder,), generator=generator)
        table_index = torch.randint(0, max(1, len(table_x)), (from_table,), generator=generator)
        printed_index = torch.randint(
            0, max(1, len(printed_x)), (from_printed,), generator=generator
        )
        batch_x = torch.cat(
            [
                train_x[index],
                real_x[real_index],
                finder_x[finder_index],
                table_x[table_index],
                printed_x[printed_index],
            ]
        )
        batch_y = torch.cat(
            [
                train_y[index],
                real_y[real_index],
                finder_y[finder_index],
                table_y[table_index],
                printed_y[printed_index],
            ]
        )
        loss = F.cross_entropy(
            net(_augment(to_float(batch_x), generator)), batch_y, ignore_index=IGNORED
        )
        optimiser.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimiser.step()
        step += 1
        value = float(loss.detach())
        running = 0.98 * running + 0.02 * value if step > 1 else value
        if step % 100 == 0:
            print(f"step {step} loss {running:.4f} {elapsed:.0f}s", flush=True)

    net.eval()
    val_logits = _evaluate(net, val_x, val_y)
    after_val = _report("rendered validation after", val_logits, val_y)
    after = _report_each(net, checked, "after")
    temperature = _fit_temperature(val_logits, val_y)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export_onnx(
        Calibrated(net, temperature).eval(),
        args.out,
        ("halves", "logits"),
        to_float(val_x[:64]),
        atol=1e-3,
    )
    sidecar = {
        "model": args.out.name,
        "started_from": str(args.start),
        "start_temperature": start_temperature,
        "temperature": temperature,
        "held_out_folds": sorted(held_out),
        "trained_on_folds": trained_on_folds(held_out, counts["train_crops"], args.real_share),
        "real_crops": counts,
        "rendered_train_crops": args.train_count,
        "high_count_share": args.high_count_share,
        "printed_backs": args.printed_backs,
        "coloured_bodies": args.coloured_bodies,
        "finder_scenes": args.finder_scenes,
        "finder_share": args.finder_share if args.finder_scenes else 0.0,
        "finder_crop_data_version": finder_crops_data.data_version(),
        "finder_crop_validation_after": after["finder crops"],
        "table_tables": args.table_tables,
        "table_share": args.table_share if args.table_tables else 0.0,
        "table_max_half": args.table_max_half,
        "table_crop_data_version": table_crops_data.DATA_VERSION,
        "table_crop_validation_after": after["table crops"],
        "printed_scenes": args.printed_scenes,
        "printed_share": args.printed_share if args.printed_scenes else 0.0,
        "printed_crop_data_version": finder_crops_data.PRINTED_DATA_VERSION,
        "printed_crop_validation_after": after["printed crops"],
        "steps": step,
        "batch": args.batch,
        "real_share": args.real_share,
        "real_negatives": not args.no_negatives,
        "blank_negatives_unlabelled": args.blank_negatives_unlabelled,
        "lr": args.lr,
        "train_seconds": round(time.monotonic() - train_start),
        "torch": torch.__version__,
        "rendered_validation_before": before_val,
        "rendered_validation_after": after_val,
        "held_out_real_after": after["held-out real"],
        "command": command_line("training.finetune_halves", argv),
    }
    write_sidecar(args.out, sidecar)
    print(f"wrote {args.out} in {(time.monotonic() - started) / 60:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
