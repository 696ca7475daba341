"""Views of train starts on rendered tables, labelled marker or not, for the marker check.

    python -m training.marker_data --first-seed 320000000 --tables 1800 --workers 2 \
        --out training/data/marker_views.npz

Each table is rendered with its markers laid anywhere beside their trains' first tiles (most
tables) or at the renderer's usual spot, always clearly nearer their own train than any other
(training.table_synth.CLEARLY_OWN, so a view's label is what its photo shows); its own tiles,
each outline moved a little as a finder's would be, are grouped as the pipeline groups what it
reads (vision.table), and every train seen to start at the hub gives one view
(vision.markers.marker_views), labelled from the renderer's position: a marker lies beside that
train or not. Seeds 320,000,000 and 321,000,000 on are used for training and 330,000,000 on for
choosing; the tuning (800,000,000 on) and held-out (900,000,000 on) tables stay unseen.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from functools import partial
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from training.table_synth import render_table
from vision.markers import marker_views
from vision.table import group_table
from vision.types import DetectedTile

SCATTERED_SHARE = 0.75
LOOKS = 2
DRAWN_WIDTH = 2016
"""The renderer's own width; ``--widths`` draws tables at others too (a phone's 12-MP photo is
4032 wide: a sharper drawing than the usual one enlarged)."""


def jittered(scene_tiles: Sequence[object], rng: np.random.Generator) -> list[DetectedTile]:
    """The renderer's tiles with outlines as loose as a finder's: each moved, turned and
    grown a little, each corner a little more."""
    tiles = []
    for tile in scene_tiles:
        corners = np.asarray(tile.corners, np.float64)  # type: ignore[attr-defined]
        edges = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        short = float(np.sort(edges)[:2].mean())
        centre = corners.mean(axis=0)
        angle = rng.normal(0, 0.04)
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        grown = (corners - centre) @ turn.T * rng.uniform(0.95, 1.06)
        moved = grown + centre + rng.normal(0, 0.06 * short, 2)
        moved += rng.normal(0, 0.04 * short, moved.shape)
        tiles.append(
            DetectedTile(
                pips=tile.pips,  # type: ignore[attr-defined]
                confidence=0.99,
                corners=tuple((int(round(x)), int(round(y))) for x, y in moved),
            )
        )
    return tiles


def table_views(
    seed: int, widths: Sequence[int] = (DRAWN_WIDTH,)
) -> tuple[list[NDArray[np.uint8]], list[int]]:
    """Every train start's view on one rendered table, and its label (1: a marker). The table
    is drawn at one of ``widths`` (4:3), drawn from the seed."""
    rng = np.random.default_rng((seed, 7))
    scattered = bool(rng.random() < SCATTERED_SHARE)
    width = int(widths[int(np.random.default_rng((seed, 8)).integers(len(widths)))])
    scene = render_table(seed, size=(width, width * 3 // 4), scattered_markers=scattered)
    if scene.hub is None:
        return [], []
    owner = {train.tiles[0]: train.marker for train in scene.trains}
    views, labels = [], []
    # A table takes far longer to render than to look at: each is looked at through
    # LOOKS sets of loose outlines and JPEG qualities.
    for _ in range(LOOKS):
        image = scene.image
        if rng.random() < 0.7:  # a phone's JPEG
            quality = int(rng.integers(60, 96))
            ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
            assert ok
            image = np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR), np.uint8)
        layout = group_table(jittered(scene.tiles, rng))
        for train, view in zip(layout.trains, marker_views(image, 1.0, layout), strict=True):
            if view is None or train.tiles[0] not in owner:
                continue
            views.append(np.round(view * 255).astype(np.uint8))
            labels.append(int(owner[train.tiles[0]]))
    return views, labels


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first-seed", type=int, default=320_000_000)
    parser.add_argument("--tables", type=int, default=2400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--widths",
        type=int,
        nargs="+",
        default=[DRAWN_WIDTH],
        help="draw each table at one of these widths (4:3), drawn from its seed",
    )
    args = parser.parse_args(argv)
    seeds = range(args.first_seed, args.first_seed + args.tables)
    views: list[NDArray[np.uint8]] = []
    labels: list[int] = []
    with Pool(args.workers) as pool:
        look = partial(table_views, widths=args.widths)
        for done, (table, marks) in enumerate(pool.imap(look, seeds, chunksize=4), 1):
            views.extend(table)
            labels.extend(marks)
            if done % 100 == 0:
                print(f"{done} tables, {len(labels)} views, {sum(labels)} markers", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, views=np.stack(views), labels=np.asarray(labels, np.uint8))
    print(f"{len(labels)} views ({sum(labels)} with a marker) -> {args.out}")


if __name__ == "__main__":
    main()
