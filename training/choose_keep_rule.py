"""Choose, on rendered scenes, which found tiles the pipeline keeps (never on real photos).

    python -m training.choose_keep_rule [--scenes 150]

Every outline the finder returns on held-out rendered scenes (the reader's validation seeds)
is read by the reader; each is then a real face-up tile (IoU >= 0.5 with a rendered face) or
not. For a few simple rules combining the finder's score and the reader's "is a tile"
probability, this prints how many real tiles each keeps and how many false ones, so the
pipeline's rule (vision/pipeline.py) is set on synthetic data with known answers.

A second table does the same for dropping a kept outline that lies mostly on better-believed
ones (vision.finding.COVERED_LIMIT): an outline spanning the ends of two touching tiles.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from training.finder_crops_data import MATCH_IOU, best_overlap, training_scene
from vision.finder import DEFAULT_FINDER_MODEL, TileFinder
from vision.halves import HalfReader
from vision.pipeline import MIN_TILE_BELIEF, believed_outlines
from vision.rectify import rectify_tiles

FIRST_SEED = 3_900_000  # the reader's held-out finder-crop scenes


def collect(
    scenes: int, finder_model: Path, second_look: bool = True
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Rows of (scene number, finder score, reader is_tile, is a tile, read right), and each
    row's outline."""
    finder, reader = TileFinder(finder_model, second_look=second_look), HalfReader()
    rows: list[tuple[float, float, float, float, float]] = []
    outlines: list[np.ndarray] = []
    for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + scenes)):
        scene = training_scene(seed)
        found = finder.find(scene.image)
        if not found:
            continue
        reads = reader.read(rectify_tiles(scene.image, [f.corners for f in found]), 12)
        for face, read in zip(found, reads, strict=True):
            best, overlap = best_overlap(face.corners, scene)
            real = overlap >= MATCH_IOU
            right = real and scene.tiles[best].pips == (max(read.pips), min(read.pips))
            rows.append((number, face.score, read.is_tile, float(real), float(right)))
            outlines.append(face.corners)
    return np.array(rows, np.float64), outlines


def kept_after_suppression(
    scene: np.ndarray, belief: np.ndarray, outlines: list[np.ndarray], covered_limit: float
) -> np.ndarray:
    """Which believed outlines survive the pipeline's same-place suppression, per scene."""
    kept = np.zeros(len(belief), bool)
    for number in np.unique(scene):
        rows = np.flatnonzero(scene == number)
        survivors = believed_outlines(
            [float(belief[i]) for i in rows], [outlines[i] for i in rows], covered_limit
        )
        kept[rows[survivors]] = True
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=150)
    parser.add_argument("--finder-model", type=Path, default=DEFAULT_FINDER_MODEL)
    parser.add_argument(
        "--first-look-only", action="store_true", help="without the finder's second look"
    )
    args = parser.parse_args(argv)
    data, outlines = collect(args.scenes, args.finder_model, not args.first_look_only)
    scene, score, is_tile, real, right = data.T
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
    print(f"\nthen dropping outlines lying on better ones (finder * is_tile >= {MIN_TILE_BELIEF})")
    print(f"{'covered share above':45} {'real kept':>9} {'false kept':>10} {'right kept':>10}")
    for limit in (1.0, 0.7, 0.6, 0.5, 0.4, 0.3):
        kept = kept_after_suppression(scene, score * is_tile, outlines, limit)
        print(
            f"{limit:<45} {int((kept & (real > 0)).sum()):9d} "
            f"{int((kept & (real == 0)).sum()):10d} {int((kept & (right > 0)).sum()):10d}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
