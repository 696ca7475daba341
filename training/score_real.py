"""Score the pipeline on the labelled real-photo corpus, per source and per kind of scene.

    python -m training.score_real [--photos training/data/real_photos] [--verbose]
    python -m training.score_real --fold boards --face-down CANDIDATE.onnx   # held-out fold

Every settled photo of training/data/real_photos.json (see training.real_photos) is read as
the app reads it: the game's set known (--set-max from the photo's set), the committed
models, or a candidate in place of one (--face-down, --halves). --fold reads only one fold's
sources (training.real_folds): a candidate trained without that fold meets them for the first
time. A tile
the frame cuts may be reported or not (neither is an error); a missed tile counts as hinted
when the photo shows at least one "not counted — a tile?" shape.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from training.real_folds import FOLD_NAMES, fold_of, parse_fold
from training.real_photos import MANIFEST, PHOTOS, load_manifest
from vision.decode import PhotoError
from vision.finder import TileFinder
from vision.models import ModelPaths, ModelSet
from vision.pipeline import HandReader
from vision.types import HandReading

Pair = tuple[int, int]
SET_MAX = {"double-6": 6, "double-9": 9, "double-12": 12, "double-15": 15}


TALLY_HEADER = "| {} | photos | exact | tile recall | precision | F1 | misses hinted | median ms |"
TALLY_RULE = "|---|---|---|---|---|---|---|---|"
"""The head of a table of Tally.row lines, the first column named by format()."""


@dataclass
class Tally:
    """Figures over a group of photos."""

    photos: int = 0
    exact: int = 0
    wanted: int = 0
    reported: int = 0
    right: int = 0
    missed_photos: int = 0
    missed_hinted: int = 0
    ms: list[float] = field(default_factory=list)

    def add(self, other: PhotoScore) -> None:
        self.photos += 1
        self.exact += other.exact
        self.wanted += other.wanted
        self.reported += other.reported
        self.right += other.right
        self.missed_photos += other.missed > 0
        self.missed_hinted += other.missed > 0 and other.hinted
        self.ms.append(other.ms)

    def row(self, name: str) -> str:
        recall = self.right / max(1, self.wanted)
        precision = self.right / max(1, self.reported)
        f1 = 2 * recall * precision / max(1e-9, recall + precision)
        return (
            f"| {name} | {self.photos} | {self.exact} ({self.exact / max(1, self.photos):.0%}) "
            f"| {recall:.3f} | {precision:.3f} | {f1:.3f} "
            f"| {self.missed_hinted} of {self.missed_photos} "
            f"| {statistics.median(self.ms) if self.ms else 0:.0f} |"
        )


@dataclass(frozen=True)
class PhotoScore:
    """How one photo was read against its label."""

    file: str
    exact: bool
    wanted: int
    reported: int
    right: int
    missed: int
    hinted: bool
    ms: float
    got: tuple[Pair, ...]
    expected: tuple[Pair, ...]


def forgiven(extra: Counter[Pair], cut: Sequence[Sequence[int | None]]) -> Counter[Pair]:
    """The extra tiles left once each one matching a frame-cut tile is taken off."""
    left = Counter(extra)
    for tile in cut:
        known = [half for half in tile if half is not None]
        for pair in sorted(left.elements()):
            if all(half in pair for half in known) and (
                len(known) < 2 or sorted(known) == sorted(pair)
            ):
                left[pair] -= 1
                break
    return +left


def score_photo(reader: HandReader, entry: dict[str, Any], photos: Path) -> PhotoScore | None:
    label = entry["label"]
    path = photos / entry["file"]
    if label is None or not path.is_file():
        return None
    try:
        reading = reader.read(path.read_bytes(), max_pips=SET_MAX.get(entry["set"]))
    except PhotoError:
        reading = None
    return score_reading(entry, reading)


def score_reading(entry: dict[str, Any], reading: HandReading | None) -> PhotoScore:
    """How a settled photo's reading (None: the photo could not be read) fares against its
    label."""
    label = entry["label"]
    truth: Counter[Pair] = Counter((max(a, b), min(a, b)) for a, b in label["tiles"])
    got: Counter[Pair] = Counter(reading.pip_pairs) if reading else Counter()
    right = (truth & got).total()
    extra = forgiven(got - truth, label.get("cut_by_frame") or [])
    reported = right + extra.total()
    missed = truth.total() - right
    return PhotoScore(
        file=entry["file"],
        exact=missed == 0 and extra.total() == 0,
        wanted=truth.total(),
        reported=reported,
        right=right,
        missed=missed,
        hinted=bool(reading and reading.hints),
        ms=float(reading.ms) if reading else 0.0,
        got=tuple(sorted(got.elements())),
        expected=tuple(sorted(truth.elements())),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.score_real", description=__doc__)
    parser.add_argument("--photos", type=Path, default=PHOTOS, help="where the corpus was fetched")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--verbose", action="store_true", help="list every photo read wrong")
    parser.add_argument("--out", type=Path, help="write every photo's reading as JSON here")
    parser.add_argument(
        "--no-fine-look", action="store_true", help="read as before the fine look for small tiles"
    )
    parser.add_argument(
        "--fold",
        type=parse_fold,
        help=f"read only this fold's photos ({', '.join(FOLD_NAMES)}; short: boards, karthik, "
        "webcam, others)",
    )
    parser.add_argument("--finder", type=Path, help="this tile finder instead")
    parser.add_argument("--face-down", type=Path, help="this face-down check instead")
    parser.add_argument("--halves", type=Path, help="this half reader instead")
    parser.add_argument(
        "--no-white-balance", action="store_true", help="read each photo in its own colours"
    )
    args = parser.parse_args(argv)
    paths = ModelPaths()
    if args.finder:
        paths = replace(paths, tile_finder=args.finder)
    if args.face_down:
        paths = replace(paths, face_down_check=args.face_down)
    if args.halves:
        paths = replace(paths, half_reader=args.halves)
    models = ModelSet.load(paths)
    if args.no_fine_look:
        models = replace(models, tile_finder=TileFinder(fine_look=False))
    reader = HandReader(models, white_balance=not args.no_white_balance)
    by_source: dict[str, Tally] = defaultdict(Tally)
    by_scene: dict[str, Tally] = defaultdict(Tally)
    total = Tally()
    scores: list[PhotoScore] = []
    for entry in load_manifest(args.manifest):
        if args.fold and fold_of(entry["source_repo"]) != args.fold:
            continue
        score = score_photo(reader, entry, args.photos)
        if score is None:
            continue
        scores.append(score)
        for tally in (by_source[entry["source_repo"]], by_scene[entry["scene"]], total):
            tally.add(score)
        if args.verbose and not score.exact:
            missing = Counter(score.expected) - Counter(score.got)
            extra = Counter(score.got) - Counter(score.expected)
            print(
                f"MISS {score.file}: missing {sorted(missing.elements())}"
                f" extra {sorted(extra.elements())}"
            )
    for title, groups in (("source", by_source), ("scene", by_scene)):
        print(TALLY_HEADER.format(title))
        print(TALLY_RULE)
        for name, tally in sorted(groups.items(), key=lambda item: -item[1].photos):
            print(tally.row(name))
        print(total.row("**all**"))
        print()
    if args.out:
        args.out.write_text(json.dumps([score.__dict__ for score in scores], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
