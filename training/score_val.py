"""Score an exported half reader on the synthetic validation set of the current renderer.

    python -m training.score_val --model models/halves.onnx [--seed 0 --val-count 1500]

The set is the one train_halves holds out for that seed (rendered or read from the cache),
so two model versions can be compared on the same crops even when one was trained on an
older renderer.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import torch
import torch.nn.functional as F

from training import halves_data
from training.halves_data import DATA_VERSION, build_set
from training.train_halves import _expected_calibration_error, _halves_and_labels, _report
from vision.halves import DEFAULT_HALF_MODEL, HalfReader


def main(argv: Sequence[str] | None = None) -> int:
    """Print the validation figures of one ONNX model as JSON."""
    parser = argparse.ArgumentParser(prog="python -m training.score_val", description=__doc__)
    parser.add_argument("--model", type=Path, default=DEFAULT_HALF_MODEL)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--val-count", type=int, default=1500)
    parser.add_argument(
        "--data-version",
        type=int,
        default=DATA_VERSION,
        help="score on an older renderer's cached set instead (it is never re-rendered)",
    )
    args = parser.parse_args(argv)
    if not args.model.exists():
        parser.error(f"no model at {args.model}")
    first_seed = args.seed * 10_000_000
    if args.data_version != DATA_VERSION:
        halves_data.DATA_VERSION = args.data_version
        cached = halves_data.chunk_path((first_seed, args.val_count))
        if not cached.exists():
            parser.error(f"no cached set {cached}; older renderers cannot be re-run")

    crops, pairs = build_set(first_seed, args.val_count, chunk=args.val_count)
    _, labels = _halves_and_labels(crops, pairs)
    reader = HalfReader(args.model)
    # The reader splits each crop into left then right half, the order the labels use.
    logits = torch.from_numpy(reader.logits(crops))
    figures: dict[str, float] = _report("validation", logits, labels)
    figures["ece"] = _expected_calibration_error(F.softmax(logits, 1), labels)
    figures["data_version"] = args.data_version
    print(json.dumps({"model": str(args.model), **figures}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
