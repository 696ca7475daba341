"""Read real photos again under tinted and dimmed light (never run in CI).

    python -m training.score_tints [--tints none warm pink blue dark] [--no-white-balance]

Each labelled dev photo (shared/photos/dev) and each photo of the real corpus's fold of
"every other source" (phone photos of hands and close-ups: training.real_folds) is decoded as
the app decodes it, has a tint laid over it (the colour a kitchen bulb, a pink shade or a
cold window gives a phone that did not correct it; "dark": an underexposed shot), is saved as
a JPEG again and read by the app's reader with the photo's set known. Reported per tint: how
many photos are read exact, tiles read right of those labelled, and tiles reported that are
not there. Tile counts are compared as multisets, as training.evaluate and training.score_real
do (a frame-cut or half-hidden tile may be reported or not: training.score_real.forgiven).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from training.evaluate import DEFAULT_PHOTOS, larger_first, load_labels, set_max_of
from training.real_folds import fold_of
from training.real_photos import PHOTOS, load_manifest
from training.score_real import SET_MAX, forgiven
from vision.decode import decode_photo
from vision.models import ModelSet
from vision.pipeline import READ_LONG_SIDE, HandReader

Pair = tuple[int, int]

TINTS: dict[str, tuple[float, float, float]] = {
    "none": (1.0, 1.0, 1.0),
    "warm": (0.55, 0.85, 1.2),
    "pink": (0.85, 0.6, 1.25),
    "blue": (1.3, 0.95, 0.6),
}
"""Per-channel (B, G, R) factors: an incandescent bulb's orange, a pink lamp shade, a cold
blue daylight, each as strong as a phone leaves it when its own white balance gives up."""

DARK_GAMMA = 2.2
DARK_LEVEL = 0.6
""""dark": levels raised to this power and scaled by this (an underexposed photo)."""

OTHERS_FOLD = "every other source"


@dataclass(frozen=True)
class Labelled:
    group: str
    path: Path
    expected: Counter[Pair]
    optional: tuple[tuple[int | None, int | None], ...]
    """Tiles that may be reported or not (half hidden, cut by the frame: a half may be None)."""
    set_max: int | None


def _pairs(tiles: Sequence[Sequence[int]]) -> Counter[Pair]:
    return Counter(larger_first(tile) for tile in tiles)


def labelled_photos(dev: Path, corpus: Path) -> Iterator[Labelled]:
    """The dev photos, then the real corpus's fold of every other source."""
    for entry in load_labels(dev):
        yield Labelled(
            "dev",
            dev / entry["file"],
            _pairs(entry["tiles"]),
            tuple((a, b) for a, b in entry.get("partial_tiles") or []),
            set_max_of(entry),
        )
    for entry in load_manifest():
        if entry["label"] is None or fold_of(entry["source_repo"]) != OTHERS_FOLD:
            continue
        yield Labelled(
            "others",
            corpus / entry["file"],
            _pairs(entry["label"]["tiles"]),
            tuple((a, b) for a, b in entry["label"].get("cut_by_frame") or []),
            SET_MAX.get(entry["set"]),
        )


def tinted(pixels: NDArray[np.uint8], tint: str) -> NDArray[np.uint8]:
    """The photo under ``tint`` (a key of TINTS, or "dark")."""
    light = pixels.astype(np.float32) / 255.0
    if tint == "dark":
        light = light**DARK_GAMMA * DARK_LEVEL
    else:
        light = light * np.array(TINTS[tint], np.float32)
    return np.clip(np.round(light * 255.0), 0, 255).astype(np.uint8)


@dataclass
class TintTally:
    photos: int = 0
    exact: int = 0
    wanted: int = 0
    right: int = 0
    extra: int = 0

    def add(self, photo: Labelled, got: Counter[Pair]) -> None:
        expected = photo.expected
        extra = forgiven(got - expected, photo.optional)
        missed = expected - got
        self.photos += 1
        self.exact += not missed and not extra
        self.wanted += expected.total()
        self.right += (expected & got).total()
        self.extra += extra.total()

    def cell(self) -> str:
        tiles = f"{self.right} of {self.wanted} tiles"
        return f"{self.exact} of {self.photos}; {tiles}; {self.extra} extra"


def read_tinted(reader: HandReader, photos: Sequence[Labelled], tint: str) -> dict[str, TintTally]:
    """Each photo read under ``tint`` (after a JPEG round trip), tallied by its group."""
    tallies = {"dev": TintTally(), "others": TintTally()}
    for photo in photos:
        pixels = decode_photo(photo.path.read_bytes(), min_long_side=READ_LONG_SIDE).pixels
        ok, encoded = cv2.imencode(".jpg", tinted(pixels, tint), [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise RuntimeError(f"could not encode {photo.path}")
        reading = reader.read(encoded.tobytes(), max_pips=photo.set_max)
        tallies[photo.group].add(photo, Counter(reading.pip_pairs))
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.score_tints", description=__doc__)
    parser.add_argument("--tints", nargs="+", default=[*TINTS, "dark"], choices=[*TINTS, "dark"])
    parser.add_argument("--dev", type=Path, default=DEFAULT_PHOTOS)
    parser.add_argument("--photos", type=Path, default=PHOTOS, help="where the corpus was fetched")
    parser.add_argument(
        "--no-white-balance", action="store_true", help="read each photo in its own colours"
    )
    args = parser.parse_args(argv)
    reader = HandReader(ModelSet.load(), white_balance=not args.no_white_balance)
    photos = [photo for photo in labelled_photos(args.dev, args.photos) if photo.path.is_file()]
    if not photos:
        print("no labelled photos found", file=sys.stderr)
        return 2
    print("| tint | dev: exact; tiles right; extra | others: exact; tiles right; extra |")
    print("|---|---|---|")
    for tint in args.tints:
        tallies = read_tinted(reader, photos, tint)
        print(f"| {tint} | {tallies['dev'].cell()} | {tallies['others'].cell()} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
