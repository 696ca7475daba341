"""Measure the half reader on the labelled real photos (measurement only, never training).

    python -m training.measure_real [--model models/halves.onnx] [--sheet training/runs/real.png]

Tiles are found and rectified as the pipeline does it (the learned finder, vision.rectify).
Labels carry no tile positions, so found tiles are paired with labelled tiles by the
assignment that agrees on the most halves; a half is right when its count matches its
partner's. The figures therefore mix reader errors with finder errors (a wrongly cut crop
counts against the reader); photos where the finder found nothing add nothing.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
from scipy.optimize import linear_sum_assignment

from training.evaluate import PhotoResult
from vision.decode import PhotoError, decode_photo
from vision.finder import DEFAULT_FINDER_MODEL, TileFinder
from vision.halves import DEFAULT_HALF_MODEL, HalfReader
from vision.pipeline import READ_LONG_SIDE
from vision.rectify import rectify_tiles

MIN_IS_TILE = 0.5  # the reader alone decides here: below this a crop is not a face-up tile
PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "photos" / "dev"


def _agreement(found: tuple[int, int], label: tuple[int, int]) -> int:
    a, b = found
    c, d = label
    return max(int(a == c) + int(b == d), int(a == d) + int(b == c))


def _found_crops(photos_dir: Path, cache: Path | None) -> dict[str, np.ndarray]:
    """The pipeline finder's rectified crops for every labelled photo."""
    if cache is not None and cache.exists():
        with np.load(cache) as stored:
            return {name: stored[name] for name in stored.files}
    manifest = json.loads((photos_dir / "manifest.json").read_text())
    found: dict[str, np.ndarray] = {}
    finder = TileFinder(DEFAULT_FINDER_MODEL)
    for entry in manifest:
        if entry.get("tiles") is None:
            continue
        try:
            data = (photos_dir / entry["file"]).read_bytes()
            photo = decode_photo(data, min_long_side=READ_LONG_SIDE)
        except PhotoError:
            continue
        quads = [tile.corners for tile in finder.find(photo.pixels)]
        found[entry["file"]] = (
            rectify_tiles(photo.pixels, quads) if quads else np.zeros((0, 64, 128, 3), np.uint8)
        )
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, **found)  # type: ignore[arg-type]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_HALF_MODEL)
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--sheet", type=Path, default=None, help="write wrong crops here")
    parser.add_argument(
        "--crops-cache",
        type=Path,
        default=None,
        help="reuse the finder's crops from this .npz (written on the first run)",
    )
    args = parser.parse_args(argv)
    crops_by_photo = _found_crops(args.photos, args.crops_cache)

    reader = HalfReader(args.model)
    manifest = json.loads((args.photos / "manifest.json").read_text())
    halves_right = halves_total = tiles_right = tiles_assigned = 0
    labelled = found_total = 0
    photos_exact = photos = 0
    wrong_crops: list[np.ndarray] = []
    for entry in manifest:
        if entry.get("tiles") is None:
            continue
        photos += 1
        labels = [(max(t), min(t)) for t in entry["tiles"]]
        partial = [(max(t), min(t)) for t in entry.get("partial_tiles") or []]
        labelled += len(labels)
        crops = crops_by_photo.get(entry["file"])
        if crops is None or len(crops) == 0:
            continue
        reads = reader.read(crops)
        kept = [(crop, r) for crop, r in zip(crops, reads, strict=True) if r.is_tile >= MIN_IS_TILE]
        found_total += len(kept)
        result = PhotoResult(
            entry["file"], tuple(labels), tuple(partial), tuple(r.pips for _, r in kept), 0.0
        )
        photos_exact += int(result.exact)
        if not kept or not labels:
            continue
        score = np.array([[_agreement(r.pips, label) for label in labels] for _, r in kept])
        rows, cols = linear_sum_assignment(-score)
        for row, col in zip(rows, cols, strict=True):
            halves_right += int(score[row, col])
            halves_total += 2
            tiles_assigned += 1
            tiles_right += int(score[row, col] == 2)
            if score[row, col] < 2 and args.sheet is not None:
                crop = kept[row][0].copy()
                text = f"{kept[row][1].pips} vs {labels[col]}"
                crop = cv2.copyMakeBorder(crop, 0, 14, 0, 0, cv2.BORDER_CONSTANT, value=0)
                cv2.putText(crop, text, (2, 75), 0, 0.35, (255, 255, 255), 1)
                wrong_crops.append(crop)
    print(f"photos {photos}, labelled tiles {labelled}, kept finds {found_total}")
    print(
        f"assigned tiles {tiles_assigned}: halves right {halves_right}/{halves_total} "
        f"= {halves_right / max(halves_total, 1):.3f}, tiles right {tiles_right}/"
        f"{tiles_assigned} = {tiles_right / max(tiles_assigned, 1):.3f}"
    )
    print(f"photos with the exact tile list: {photos_exact}/{photos}")
    if args.sheet is not None and wrong_crops:
        columns = 6
        blank = np.zeros_like(wrong_crops[0])
        padded = wrong_crops + [blank] * (-len(wrong_crops) % columns)
        rows_img = [np.hstack(padded[i : i + columns]) for i in range(0, len(padded), columns)]
        args.sheet.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(args.sheet), np.vstack(rows_img))
        print(f"wrong crops: {args.sheet}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
