"""Score exported tile finders on the held-out rendered scenes, each kind of scene apart.

    python -m training.score_finder models/finder.onnx training/runs/finder_v3.onnx

The scenes are the finder's validation set of the current scene data (seeds from 1,000,000,
rendered or read from the cache), so models trained on older data are compared on the same
pictures. A face counts as found when an outline overlaps it with IoU >= 0.5.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from training.scenes_data import MIX, build_scenes, decode_sample, scene_class
from vision.finder import TileFinder
from vision.geometry import outline_iou

VALIDATION_FIRST_SEED = 1_000_000


def match_faces(found: Sequence[np.ndarray], truth: np.ndarray) -> list[float]:
    """IoUs of the greedy one-to-one matches (IoU >= 0.5) of found outlines to true faces."""
    unused = list(range(len(truth)))
    matched: list[float] = []
    for outline in found:
        best, best_iou = -1, 0.5
        for index in unused:
            value = outline_iou(outline, truth[index])
            if value >= best_iou:
                best, best_iou = index, value
        if best >= 0:
            unused.remove(best)
            matched.append(best_iou)
    return matched


def score(model: Path, count: int, second_look: bool = True) -> dict[str, dict[str, float]]:
    """Precision, recall and mean IoU of one model on each kind of scene in the mix."""
    finder = TileFinder(model, second_look=second_look)
    samples = build_scenes(VALIDATION_FIRST_SEED, count)
    kinds = ("usual", "low_view", *dict.fromkeys(MIX.values()))
    tallies = {name: {"found": 0, "wanted": 0, "right": 0, "iou": 0.0} for name in kinds}
    for offset, sample in enumerate(samples):
        image, corners = decode_sample(sample)
        outlines = [face.corners for face in finder.find(image)]
        matched = match_faces(outlines, corners)
        # build_scenes numbers its scenes from the first seed it is given.
        tally = tallies[scene_class(VALIDATION_FIRST_SEED + offset)]
        tally["found"] += len(outlines)
        tally["wanted"] += len(corners)
        tally["right"] += len(matched)
        tally["iou"] += sum(matched)
    return {
        name: {
            "precision": round(t["right"] / max(t["found"], 1), 3),
            "recall": round(t["right"] / max(t["wanted"], 1), 3),
            "mean_iou": round(t["iou"] / max(t["right"], 1), 3),
            "faces": int(t["wanted"]),
        }
        for name, t in tallies.items()
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Print each model's figures as JSON."""
    parser = argparse.ArgumentParser(prog="python -m training.score_finder", description=__doc__)
    parser.add_argument("models", type=Path, nargs="+")
    parser.add_argument("--scenes", type=int, default=300)
    parser.add_argument(
        "--first-look-only", action="store_true", help="without the second look at each face"
    )
    args = parser.parse_args(argv)
    for model in args.models:
        figures = score(model, args.scenes, second_look=not args.first_look_only)
        print(json.dumps({"model": str(model), "second_look": not args.first_look_only, **figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
