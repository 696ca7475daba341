"""Choose, on rendered scenes, which found tiles the pipeline keeps (never on real photos).

    python -m training.choose_keep_rule [--scenes 150]

Every outline the finder returns on held-out rendered scenes (the reader's validation seeds)
is read by the reader; each is then a real face-up tile (IoU >= 0.5 with a rendered face) or
not. For a few simple rules combining the finder's score and the reader's "is a tile"
probability, this prints how many real tiles each keeps and how many false ones, so the
pipeline's rule (vision/pipeline.py) is set on synthetic data with known answers.
"""

from __future__ import annotations

import argparse

import numpy as np

from training.finder_crops_data import MATCH_IOU, best_overlap, training_scene
from vision.finder import TileFinder
from vision.halves import HalfReader
from vision.rectify import rectify_tiles

FIRST_SEED = 3_900_000  # the reader's held-out finder-crop scenes


def collect(scenes: int) -> np.ndarray:
    """Rows of (finder score, reader is_tile, is a tile, read right)."""
    finder, reader = TileFinder(), HalfReader()
    rows: list[tuple[float, float, float, float]] = []
    for seed in range(FIRST_SEED, FIRST_SEED + scenes):
        scene = training_scene(seed)
        found = finder.find(scene.image)
        if not found:
            continue
        reads = reader.read(rectify_tiles(scene.image, [f.corners for f in found]), 12)
        for face, read in zip(found, reads, strict=True):
            best, overlap = best_overlap(face.corners, scene)
            real = overlap >= MATCH_IOU
            right = real and scene.tiles[best].pips == (max(read.pips), min(read.pips))
            rows.append((face.score, read.is_tile, float(real), float(right)))
    return np.array(rows, np.float64)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=150)
    args = parser.parse_args(argv)
    data = collect(args.scenes)
    score, is_tile, real, right = data.T
    print(f"{len(data)} outlines, {int(real.sum())} on real tiles, {int(right.sum())} read right")
    rules = {
        "is_tile >= 0.5, or finder >= 0.6 (v1 rule)": (is_tile >= 0.5) | (score >= 0.6),
        "is_tile >= 0.5": is_tile >= 0.5,
        "is_tile >= 0.7": is_tile >= 0.7,
        "is_tile >= 0.5, or finder >= 0.8": (is_tile >= 0.5) | (score >= 0.8),
    }
    for threshold in (0.2, 0.25, 0.3, 0.35, 0.4):
        rules[f"finder * is_tile >= {threshold}"] = score * is_tile >= threshold
    for threshold in (0.4, 0.5, 0.6):
        rules[f"mean(finder, is_tile) >= {threshold}"] = (score + is_tile) / 2 >= threshold
    print(f"{'rule':45} {'real kept':>9} {'false kept':>10} {'right kept':>10}")
    for name, kept in rules.items():
        print(
            f"{name:45} {int((kept & (real > 0)).sum()):9d} "
            f"{int((kept & (real == 0)).sum()):10d} {int((kept & (right > 0)).sum()):10d}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
