"""Whole real photos as tile-finder training scenes (issue 25, point 3; never run in CI).

    python -m training.real_scenes [--out training/data/real_scenes.pkl]

The corpus's labels list each photo's tiles by their pips only, with no outline. Each settled
photo of training/data/real_photos.json is read by the committed pipeline as the app reads
it (its set known), and every tile it reports is sorted by what the label says of it:

- *a tile*: its pips are a labelled tile's and no other reported tile has those pips more
  often than the label holds them (no printed domino or second reading it could be
  mistaken for): its outline is a face the finder must find;
- *not a tile*: its pips are no labelled tile's, share no count with a labelled tile the
  pipeline missed (it may be that tile misread), could not be a tile the frame cuts, and the
  photo's two counters saw every tile-like shape (none they could not read). The finder learns
  to find nothing there: the boards' printed score track is most of these;
- everything else, and every "not counted — a tile?" shape, is *left alone*: the finder is
  neither rewarded nor penalised there.

A photo on which the pipeline missed more labelled tiles than it has places left alone is
not used: a missed tile lies somewhere unknown, and the finder would be taught it is
background. The photos are kept at the fine look's size (1,536 pixels on the long side; a
smaller photo at its own size, never enlarged) as JPEG bytes; training.train_finder shows them
both whole and cut round a tile.
Output (git-ignored): a pickle of RealScene values.
"""

from __future__ import annotations

import argparse
import pickle
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from training.evaluate import larger_first
from training.real_crops import could_be_cut, label_is_complete, read_settled
from training.real_folds import fold_of
from training.real_photos import MANIFEST, PHOTOS, load_manifest
from vision.finding import FINE_LOOK_SIDE
from vision.geometry import order_corners
from vision.pipeline import HandReader
from vision.types import HandReading

OUT = Path(__file__).resolve().parent / "data" / "real_scenes.pkl"
Pair = tuple[int, int]


@dataclass(frozen=True)
class RealScene:
    """One real photo as a finder training scene."""

    jpeg: bytes
    """The photo, FINE_LOOK_SIDE pixels on its long side (a smaller photo at its own size)."""
    faces: NDArray[np.float32]
    """(N, 4, 2) outlines of tiles, in the stored photo's pixels."""
    left_alone: NDArray[np.float32]
    """(M, 4, 2) outlines where the finder is neither rewarded nor penalised."""
    not_tiles: int
    """How many reported outlines are taught as not a tile (they are background)."""
    source: str
    fold: str
    file: str


@dataclass(frozen=True)
class Sorted:
    faces: list[int]
    not_tiles: list[int]
    left_alone: list[int]
    missed: int


def sort_readings(
    pips: Sequence[Pair],
    tiles: Sequence[Sequence[int]],
    cut: Sequence[Sequence[int | None]],
    complete: bool,
) -> Sorted:
    """Which reported tiles (by index) are faces, not tiles or left alone (module docstring),
    and how many labelled tiles no reported tile matched."""
    wanted: Counter[Pair] = Counter(larger_first(tile) for tile in tiles)
    seen: Counter[Pair] = Counter(larger_first(p) for p in pips)
    missed_tiles = wanted - seen
    missed_counts = {half for pair in missed_tiles for half in pair}
    faces: list[int] = []
    not_tiles: list[int] = []
    left_alone: list[int] = []
    for index, raw in enumerate(pips):
        pair = larger_first(raw)
        if wanted[pair] and seen[pair] <= wanted[pair]:
            faces.append(index)
        elif (
            not wanted[pair]
            and complete
            and not missed_counts.intersection(pair)
            and not could_be_cut(pair, cut)
        ):
            not_tiles.append(index)
        else:
            left_alone.append(index)
    return Sorted(faces, not_tiles, left_alone, missed_tiles.total())


def scene_of(
    reading: HandReading, pixels: NDArray[np.uint8], entry: dict[str, Any]
) -> RealScene | None:
    """The training scene of one read photo (None when it cannot be used)."""
    label = entry["label"]
    result = sort_readings(
        [tile.pips for tile in reading.tiles],
        label["tiles"],
        label.get("cut_by_frame") or [],
        label_is_complete(entry),
    )
    if result.missed > len(result.left_alone) + len(reading.hints):
        return None
    height, width = pixels.shape[:2]
    # Never enlarged: the fine look sees a photo at most at its decoded size, so a small
    # photo's tiles are taught at the size the finder will meet them.
    stored_side = min(FINE_LOOK_SIDE, max(height, width))
    size = stored_side / max(height, width)
    # Corners are in full-photo pixels.
    to_stored = np.float32(stored_side / max(reading.width, reading.height))
    image = (
        cv2.resize(pixels, None, fx=size, fy=size, interpolation=cv2.INTER_AREA)
        if size < 1
        else pixels
    )
    outlines = [order_corners(np.asarray(t.corners, np.float32) * to_stored) for t in reading.tiles]
    # Every hint is an outline's four corners (vision.pipeline._photo_corners); one that was
    # not would fail the reshape below rather than be dropped unseen.
    hints = [np.asarray(hint, np.float32) * to_stored for hint in reading.hints]
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return RealScene(
        jpeg=jpeg.tobytes(),
        faces=np.asarray([outlines[i] for i in result.faces], np.float32).reshape(-1, 4, 2),
        left_alone=np.asarray([outlines[i] for i in result.left_alone] + hints, np.float32).reshape(
            -1, 4, 2
        ),
        not_tiles=len(result.not_tiles),
        source=entry["source_repo"],
        fold=fold_of(entry["source_repo"]),
        file=entry["file"],
    )


def load_scenes(path: Path = OUT) -> list[RealScene]:
    scenes = pickle.loads(path.read_bytes())
    assert all(isinstance(scene, RealScene) for scene in scenes)
    return list(scenes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.real_scenes", description=__doc__)
    parser.add_argument("--photos", type=Path, default=PHOTOS, help="where the corpus was fetched")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    reader = HandReader()
    scenes: list[RealScene] = []
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    for number, entry, read in read_settled(reader, load_manifest(args.manifest), args.photos):
        if read is None:
            continue
        reading, photo = read
        scene = scene_of(reading, photo.pixels, entry)
        fold = fold_of(entry["source_repo"])
        tally[fold]["photos"] += 1
        if scene is None:
            tally[fold]["not used"] += 1
            continue
        scenes.append(scene)
        tally[fold]["faces"] += len(scene.faces)
        tally[fold]["not tiles"] += scene.not_tiles
        tally[fold]["left alone"] += len(scene.left_alone)
        if number % 25 == 0:
            print(f"{number} photos, {len(scenes)} scenes", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(pickle.dumps(scenes))
    print("| fold | photos | not used | faces | not tiles | left alone |")
    print("|---|---|---|---|---|---|")
    for fold, counts in tally.items():
        print(
            f"| {fold} | {counts['photos']} | {counts['not used']} | {counts['faces']} "
            f"| {counts['not tiles']} | {counts['left alone']} |"
        )
    print(f"wrote {len(scenes)} scenes to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
