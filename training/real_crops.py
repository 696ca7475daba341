"""Mine real training crops from the real-photo corpus (issue 25).

    python -m training.real_crops [--out training/data/real_crops.npz] [--sheet DIR]

Each settled photo of training/data/real_photos.json is read by the committed pipeline as the
app reads it (the photo's set known). Every tile it reports is matched to the photo's label,
which lists tiles by their pips only (no outline):

- a reported tile whose pips are a labelled tile's (each labelled tile taken once, surest
  reading first) is a *positive*: its crop, halves labelled with their true counts;
- one that could be a tile cut by the frame is left out (neither kind);
- one that matches nothing, on a photo whose label is complete (no shape the counters could
  not read) and with no missed labelled tile it could be a misreading of (sharing a half's
  count), is a *negative*: both halves "not a face-up half". The boards' printed dominoes
  and the trays' unreadable tiles are what this is for;
- everything else is left out as unsure.

Matching by pips is noisy where a photo holds the same tile twice, or a printed domino with a
real tile's pips (the surer reading is taken for the real one). The crops are cut from the
photo along each reported outline as the pipeline cuts them, and the halves' order is found
by reading the crop again with the committed half reader. Output (git-ignored): an .npz with
``crops`` (N, 64, 128, 3) uint8 BGR, ``labels`` (N, 2) per half (19 = not a face-up half),
``sources`` and ``files`` per crop; ``--sheet`` writes contact sheets of a sample to look at.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from training.evaluate import larger_first
from training.real_folds import fold_of
from training.real_photos import MANIFEST, PHOTOS, load_manifest
from training.score_real import SET_MAX, PhotoScore, score_reading
from vision.decode import Photo, PhotoError, decode_photo
from vision.geometry import order_corners
from vision.halves import NOT_A_HALF
from vision.pipeline import READ_LONG_SIDE, HandReader
from vision.rectify import rectify_tiles
from vision.types import DetectedTile, HandReading

Pair = tuple[int, int]
OUT = Path(__file__).resolve().parent / "data" / "real_crops.npz"

POSITIVE = "tile"
NEGATIVE = "not a tile"
CUT = "cut by the frame"
UNSURE = "unsure"


@dataclass(frozen=True)
class Match:
    """What one reported tile is taken to be."""

    role: str  # POSITIVE, NEGATIVE, CUT or UNSURE
    truth: Pair | None = None  # the labelled tile (larger first), for a positive


def could_be_cut(pips: Pair, cut: Sequence[Sequence[int | None]]) -> bool:
    """Whether a reading could show one of the tiles the frame cuts (a half not seen may be
    anything)."""
    for tile in cut:
        known = [half for half in tile if half is not None]
        if all(half in pips for half in known) and (
            len(known) < 2 or sorted(known) == sorted(pips)
        ):
            return True
    return False


def match_readings(
    readings: Sequence[tuple[Pair, float]],
    tiles: Sequence[Sequence[int]],
    cut: Sequence[Sequence[int | None]],
    complete: bool,
) -> list[Match]:
    """Each reading (pips, confidence) matched to the labelled ``tiles``: see the module's
    docstring. ``complete``: the counters saw every tile-like shape (none unreadable)."""
    left: Counter[Pair] = Counter(larger_first(tile) for tile in tiles)
    matches: list[Match | None] = [None] * len(readings)
    for index in sorted(range(len(readings)), key=lambda index: -readings[index][1]):
        pips = larger_first(readings[index][0])
        if left[pips] > 0:
            left[pips] -= 1
            matches[index] = Match(POSITIVE, pips)
    missed = {half for pips in +left for half in pips}
    for index, (pips, _) in enumerate(readings):
        if matches[index] is not None:
            continue
        if could_be_cut(larger_first(pips), cut):
            matches[index] = Match(CUT)
        elif complete and not missed.intersection(pips):
            matches[index] = Match(NEGATIVE)
        else:
            matches[index] = Match(UNSURE)
    return [match for match in matches if match is not None]


def halves_in_order(truth: Pair, read_left: int, read_right: int) -> tuple[int, int] | None:
    """The true counts of a crop's (left, right) halves, from the reader's own counts of
    them; None when the reader's counts do not tell which end is which."""
    high, low = truth
    if high == low:
        return (high, low)
    if read_left == high or read_right == low:
        return (high, low)
    if read_left == low or read_right == high:
        return (low, high)
    return None


def label_is_complete(entry: dict[str, Any]) -> bool:
    """Both counters saw every tile-like shape: none they could not read."""
    counts = [count for count in entry["counts"].values() if count]
    return bool(counts) and all(count.get("unreadable", 0) == 0 for count in counts)


Reread = Callable[[NDArray[np.uint8]], NDArray[np.int64]]
"""(N, 64, 128, 3) crops -> (N, 2) counts of their (left, right) halves."""


@dataclass
class Mined:
    """The crops mined from photos, with their labels and where they came from."""

    crops: list[NDArray[np.uint8]]
    labels: list[tuple[int, int]]
    sources: list[str]
    files: list[str]
    roles: Counter[str]

    @classmethod
    def empty(cls) -> Mined:
        return cls([], [], [], [], Counter())


def mine_reading(
    pixels: NDArray[np.uint8],
    scale: float,
    tiles: Sequence[DetectedTile],
    entry: dict[str, Any],
    reread: Reread,
    into: Mined,
) -> None:
    """Add the positives and negatives among one photo's reported ``tiles`` to ``into``;
    ``pixels`` is the photo as the pipeline decoded it, ``scale`` its size over the full
    photo's (the tiles' corners are in full-photo pixels)."""
    label = entry["label"]
    matches = match_readings(
        [(tile.pips, tile.confidence) for tile in tiles],
        label["tiles"],
        label.get("cut_by_frame") or [],
        label_is_complete(entry),
    )
    kept = [
        (tile, match)
        for tile, match in zip(tiles, matches, strict=True)
        if match.role in (POSITIVE, NEGATIVE)
    ]
    into.roles.update(match.role for match in matches)
    if not kept:
        return
    quads = [
        order_corners(np.asarray(tile.corners, np.float32) * np.float32(scale)) for tile, _ in kept
    ]
    crops = rectify_tiles(pixels, quads)
    counts = reread(crops)
    for crop, (_, match), (left, right) in zip(crops, kept, counts, strict=True):
        if match.role == NEGATIVE:
            halves: tuple[int, int] | None = (NOT_A_HALF, NOT_A_HALF)
        else:
            assert match.truth is not None
            halves = halves_in_order(match.truth, int(left), int(right))
        if halves is None:
            into.roles["positive, ends unclear"] += 1
            continue
        into.crops.append(crop)
        into.labels.append(halves)
        into.sources.append(entry["source_repo"])
        into.files.append(entry["file"])


def read_settled(
    reader: HandReader, entries: Sequence[dict[str, Any]], photos: Path
) -> Iterator[tuple[int, dict[str, Any], tuple[HandReading, Photo] | None]]:
    """Each settled photo of ``entries`` that is in ``photos`` (with its place in the list),
    read as the app reads it (its set known), with the photo decoded at the reading's size;
    None for a photo whose bytes cannot be read."""
    for number, entry in enumerate(entries):
        path = photos / entry["file"]
        if entry["label"] is None or not path.is_file():
            continue
        data = path.read_bytes()
        try:
            reading = reader.read(data, max_pips=SET_MAX.get(entry["set"]))
            photo = decode_photo(data, min_long_side=READ_LONG_SIDE)
        except PhotoError:
            yield number, entry, None
            continue
        yield number, entry, (reading, photo)


def mine_corpus(
    reader: HandReader,
    entries: Sequence[dict[str, Any]],
    photos: Path,
    scores: list[PhotoScore] | None = None,
) -> Mined:
    """Read every settled photo and mine its crops (see the module's docstring); each
    photo's score (training.score_real) is added to ``scores`` when given."""
    mined = Mined.empty()

    def reread(crops: NDArray[np.uint8]) -> NDArray[np.int64]:
        logits = reader.models.half_reader.logits(crops)  # type: ignore[attr-defined]
        return np.asarray(logits[:, :NOT_A_HALF].argmax(axis=1).reshape(-1, 2), np.int64)

    for number, entry, read in read_settled(reader, entries, photos):
        if scores is not None:
            scores.append(score_reading(entry, read[0] if read else None))
        if read is None:
            continue
        reading, photo = read
        mine_reading(photo.pixels, photo.scale, reading.tiles, entry, reread, mined)
        if number % 25 == 0:
            print(f"{number} photos, {len(mined.crops)} crops", flush=True)
    return mined


def contact_sheet(crops: Sequence[NDArray[np.uint8]], captions: Sequence[str]) -> NDArray[Any]:
    """Crops in a grid of 8 across, each captioned, to look at by eye."""
    cell_h, cell_w, across = 64 + 14, 128 + 4, 8
    rows = (len(crops) + across - 1) // across
    sheet = np.full((max(1, rows) * cell_h, across * cell_w, 3), 255, np.uint8)
    for index, (crop, caption) in enumerate(zip(crops, captions, strict=True)):
        y, x = (index // across) * cell_h, (index % across) * cell_w
        sheet[y : y + 64, x : x + 128] = crop
        cv2.putText(sheet, caption, (x, y + 75), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (0, 0, 0), 1)
    return sheet


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.real_crops", description=__doc__)
    parser.add_argument("--photos", type=Path, default=PHOTOS, help="where the corpus was fetched")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--sheet", type=Path, help="write contact sheets of a sample here")
    parser.add_argument(
        "--scores", type=Path, help="also write each photo's score as score_real --out does"
    )
    args = parser.parse_args(argv)
    reader = HandReader()
    scores: list[PhotoScore] = []
    mined = mine_corpus(reader, load_manifest(args.manifest), args.photos, scores)
    if args.scores:
        args.scores.write_text(json.dumps([score.__dict__ for score in scores], indent=1))
    labels = np.asarray(mined.labels, np.int64).reshape(-1, 2)
    np.savez_compressed(
        args.out,
        crops=np.asarray(mined.crops, np.uint8).reshape(-1, 64, 128, 3),
        labels=labels,
        sources=np.asarray(mined.sources),
        files=np.asarray(mined.files),
    )
    per_source: dict[str, Counter[str]] = defaultdict(Counter)
    for source, (left, _) in zip(mined.sources, labels, strict=True):
        per_source[source][NEGATIVE if left == NOT_A_HALF else POSITIVE] += 1
    print("| source | fold | positives | negatives |")
    print("|---|---|---|---|")
    for source, tally in sorted(per_source.items(), key=lambda item: -item[1].total()):
        print(f"| {source} | {fold_of(source)} | {tally[POSITIVE]} | {tally[NEGATIVE]} |")
    print("readings by role:", json.dumps(dict(mined.roles)))
    if args.sheet:
        args.sheet.mkdir(parents=True, exist_ok=True)
        rng = np.random.default_rng(0)
        for kind, wanted in ((POSITIVE, False), (NEGATIVE, True)):
            chosen = [i for i, (left, _) in enumerate(labels) if (left == NOT_A_HALF) == wanted]
            sample = sorted(rng.choice(chosen, min(64, len(chosen)), replace=False).tolist())
            captions = [
                f"{mined.sources[i].split('/')[0][:10]} {labels[i][0]}-{labels[i][1]}"
                for i in sample
            ]
            sheet = contact_sheet([mined.crops[i] for i in sample], captions)
            cv2.imwrite(str(args.sheet / f"{kind.replace(' ', '-')}.png"), sheet)
    print(f"wrote {len(mined.crops)} crops to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
