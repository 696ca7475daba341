"""Measure the pipeline on labelled real photos: `python -m training.evaluate [--photos DIR]`.

Labels carry no tile locations, so each photo's tiles are compared as multisets of pip
pairs. Tiles listed under `partial_tiles` (cut by the frame or half hidden) may be reported
or not without penalty.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from training.classical_finder import ClassicalTileFinder
from vision.decode import PhotoError, decode_photo
from vision.finder import DEFAULT_CLOSE_UP_MODEL, TileFinder
from vision.finding import MIN_SCORE, FoundTile
from vision.fitting import DEFAULT_FITTER_MODEL, OutlineFitter
from vision.halves import (
    DEFAULT_FACE_DOWN_MODEL,
    DEFAULT_HALF_MODEL,
    FaceDownCheck,
    HalfReader,
)
from vision.models import FoundTileLike, ModelSet, TileFinderLike
from vision.pipeline import READ_LONG_SIDE, HandReader

DEFAULT_PHOTOS = Path(__file__).resolve().parent.parent.parent / "shared" / "photos" / "dev"

Pair = tuple[int, int]


def larger_first(values: Sequence[int]) -> Pair:
    """A tile's two counts, the larger first: how every label and reading is compared."""
    high, low = max(values), min(values)
    return (int(high), int(low))


@dataclass(frozen=True)
class PhotoResult:
    """One photo's outcome against its label."""

    name: str
    expected: tuple[Pair, ...]
    partial: tuple[Pair, ...]
    got: tuple[Pair, ...]
    ms: float
    error: str | None = None
    located: int = 0
    """Tiles the finder located, before the reader dropped any as not a tile."""

    @property
    def count_right(self) -> bool:
        """The finder located as many tiles as the label has (partial tiles optional)."""
        return len(self.expected) <= self.located <= len(self.expected) + len(self.partial)

    @property
    def _split(self) -> tuple[Counter[Pair], Counter[Pair], Counter[Pair]]:
        """(matched, excused partial tiles, extras) among the reported tiles."""
        got = Counter(self.got)
        matched = got & Counter(self.expected)
        leftover = got - matched
        excused = leftover & Counter(self.partial)
        return matched, excused, leftover - excused

    @property
    def matched(self) -> int:
        """Reported tiles that are labelled tiles (same pips)."""
        return sum(self._split[0].values())

    @property
    def counted(self) -> int:
        """Reported tiles that count against precision (partial tiles excused)."""
        return len(self.got) - sum(self._split[1].values())

    @property
    def found(self) -> int:
        """Tiles found judged by number alone (read right or not)."""
        return min(self.counted, len(self.expected))

    @property
    def exact(self) -> bool:
        """The tile list is exactly right."""
        return self.error is None and self.matched == len(self.expected) == self.counted

    @property
    def total_right(self) -> bool:
        """The hand's pip total is right (excused partial tiles left out)."""
        if self.error is not None:
            return False
        excused = self._split[1]
        reported = sum(high + low for high, low in self.got)
        reported -= sum((high + low) * n for (high, low), n in excused.items())
        return reported == sum(high + low for high, low in self.expected)

    def misses(self) -> tuple[list[Pair], list[Pair]]:
        """(labelled tiles not reported, reported tiles that are not labelled)."""
        matched, _, extras = self._split
        missing = Counter(self.expected) - matched
        return sorted(missing.elements()), sorted(extras.elements())


@dataclass(frozen=True)
class Summary:
    """Aggregate figures over all labelled photos."""

    photos: int
    tile_precision: float
    tile_recall: float
    found_rate: float
    located_rate: float
    count_right_rate: float
    read_rate: float
    exact_rate: float
    total_rate: float
    median_ms: float


def summarise(results: Sequence[PhotoResult]) -> Summary:
    """Aggregate per-photo results."""
    matched = sum(r.matched for r in results)
    counted = sum(r.counted for r in results)
    expected = sum(len(r.expected) for r in results)
    found = sum(r.found for r in results)
    n = len(results)
    return Summary(
        photos=n,
        tile_precision=matched / counted if counted else 1.0,
        tile_recall=matched / expected if expected else 1.0,
        found_rate=found / expected if expected else 1.0,
        located_rate=(
            sum(min(r.located, len(r.expected)) for r in results) / expected if expected else 1.0
        ),
        count_right_rate=sum(r.count_right for r in results) / n if n else 0.0,
        read_rate=matched / found if found else 1.0,
        exact_rate=sum(r.exact for r in results) / n if n else 0.0,
        total_rate=sum(r.total_right for r in results) / n if n else 0.0,
        median_ms=statistics.median(r.ms for r in results) if results else 0.0,
    )


def set_max_of(entry: dict[str, Any]) -> int | None:
    """The highest half of the photo's labelled set ("double-12": 12), if it says."""
    name = entry.get("set")
    if isinstance(name, str) and name.startswith("double-") and name[7:].isdigit():
        return int(name[7:])
    return None


def load_labels(photos_dir: Path) -> list[dict[str, Any]]:
    """The labelled entries of the manifest (photos with `tiles: null` are skipped)."""
    manifest = json.loads((photos_dir / "manifest.json").read_text(encoding="utf-8"))
    return [entry for entry in manifest if entry.get("tiles") is not None]


class _CountingFinder:
    """Passes a photo to a finder and writes how many faces it located into ``located[0]``.
    Every finder of a reader shares one list, so it holds the last finder's count (the
    close-up finder's when a photo is read again). A photo cropped to one tile that the
    pipeline reads whole counts as none located: no finder outlined it."""

    def __init__(self, finder: TileFinderLike, located: list[int]) -> None:
        self._finder = finder
        self._located = located

    def find(self, image_bgr: NDArray[np.uint8]) -> Sequence[FoundTileLike]:
        found = self._finder.find(image_bgr)
        self._located[0] = len(found)
        return found


FINDERS = ("learned", "classical")


class PooledFinders:
    """Several finders' outlines of one photo pooled, e.g. a finder for usual shots and one
    for low shots. Outlines of one tile from two finders overlap; the pipeline keeps the one
    it believes most once the reader has looked at each."""

    def __init__(self, finders: Sequence[TileFinder]) -> None:
        if not finders:
            raise ValueError("pool at least one finder")
        self._finders = tuple(finders)

    def find(self, image_bgr: NDArray[np.uint8], min_score: float = MIN_SCORE) -> list[FoundTile]:
        """Every finder's faces, each finder's best first."""
        return [face for finder in self._finders for face in finder.find(image_bgr, min_score)]


def make_finder(
    name: str,
    threads: int = 1,
    models: Sequence[Path] | None = None,
    second_look: bool = True,
) -> TileFinderLike:
    """The tile finder called ``name`` in FINDERS (``models``: other learned finders' files,
    pooled when there are several; ``second_look``: the learned finder's zoomed second look
    at each face)."""
    if name == "classical":
        return ClassicalTileFinder()
    from vision.finder import DEFAULT_FINDER_MODEL

    paths = list(models) if models else [DEFAULT_FINDER_MODEL]
    finders = [TileFinder(path, threads=threads, second_look=second_look) for path in paths]
    return finders[0] if len(finders) == 1 else PooledFinders(finders)


def evaluate(
    photos_dir: Path,
    *,
    finder_only: bool = False,
    threads: int = 1,
    finder: str = "learned",
    finder_models: Sequence[Path] | None = None,
    reader_model: Path | None = None,
    second_look: bool = True,
    close_up_model: Path | None = DEFAULT_CLOSE_UP_MODEL,
    face_down_model: Path | None = DEFAULT_FACE_DOWN_MODEL,
    fitter_model: Path | None = DEFAULT_FITTER_MODEL,
    with_set: bool = False,
) -> list[PhotoResult]:
    """Run the pipeline on every labelled photo (``with_set``: each told its set's highest
    half, as the app reads a game's photos).

    With `finder_only`, tiles are only located (no reader): every found tile is reported as
    unread, so only the number-based figure (found rate) means anything. A photo with few
    tiles found is read again with the ``close_up_model`` finder, as the app does (None: not),
    and the ``face_down_model`` check keeps printed backs from counting (None: no check);
    the ``fitter_model`` fits the finders' outlines to the faces before they are read (None:
    read along the finders' outlines).
    """
    tile_finder = make_finder(finder, threads, finder_models, second_look)
    located_now = [0]
    close_up = (
        None
        if close_up_model is None
        else _CountingFinder(
            TileFinder(close_up_model, threads=threads, second_look=second_look), located_now
        )
    )
    face_down = None if face_down_model is None else FaceDownCheck(face_down_model, threads=threads)
    fitter = None if fitter_model is None else OutlineFitter(fitter_model, threads=threads)
    reader = (
        None
        if finder_only
        else HandReader(
            ModelSet(
                tile_finder=_CountingFinder(tile_finder, located_now),
                half_reader=HalfReader(reader_model or DEFAULT_HALF_MODEL, threads=threads),
                close_up_finder=close_up,
                face_down_check=face_down,
                outline_fitter=fitter,
            )
        )
    )
    results: list[PhotoResult] = []
    for entry in load_labels(photos_dir):
        data = (photos_dir / entry["file"]).read_bytes()
        expected = tuple(larger_first(t) for t in entry["tiles"])
        partial = tuple(larger_first(t) for t in entry.get("partial_tiles") or [])
        started = time.perf_counter()
        try:
            if reader is None:
                pixels = decode_photo(data, min_long_side=READ_LONG_SIDE).pixels
                quads = tile_finder.find(pixels)
                got: tuple[Pair, ...] = tuple((-1, -1) for _ in quads)
                located = len(quads)
            else:
                located_now[0] = 0
                top = set_max_of(entry) if with_set else None
                got = tuple(tile.pips for tile in reader.read(data, max_pips=top).tiles)
                located = located_now[0]
            error = None
        except PhotoError as exc:
            got, error, located = (), str(exc), 0
        ms = (time.perf_counter() - started) * 1000
        results.append(PhotoResult(entry["file"], expected, partial, got, ms, error, located))
    return results


def report(results: Sequence[PhotoResult], *, verbose: bool, finder_only: bool) -> str:
    """The printed report."""
    summary = summarise(results)
    lines: list[str] = []
    if verbose:
        for result in results:
            if finder_only:
                ok = (
                    len(result.expected)
                    <= len(result.got)
                    <= len(result.expected) + len(result.partial)
                )
                if not ok:
                    lines.append(
                        f"MISS {result.name}: expected {len(result.expected)} tiles"
                        f" (+{len(result.partial)} partial), found {len(result.got)}"
                    )
                continue
            if result.exact:
                continue
            missing, extra = result.misses()
            detail = result.error or f"missing {missing} extra {extra}"
            lines.append(
                f"MISS {result.name}: expected {sorted(result.expected)}"
                f" got {sorted(result.got)} ({detail})"
            )
    lines.append(f"photos labelled          {summary.photos}")
    if not finder_only:
        lines.append(f"tile precision           {summary.tile_precision:.3f}")
        lines.append(f"tile recall              {summary.tile_recall:.3f}")
    lines.append(f"tiles found (by count)   {summary.found_rate:.3f}")
    if not finder_only:
        lines.append(f"found tiles read right   {summary.read_rate:.3f}")
        lines.append(f"photos exactly right     {summary.exact_rate:.3f}")
        lines.append(f"hand total exactly right {summary.total_rate:.3f}")
    lines.append(f"finder: tiles located    {summary.located_rate:.3f}")
    lines.append(f"finder: right count      {summary.count_right_rate:.3f} of photos")
    lines.append(f"median ms per photo      {summary.median_ms:.0f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__)
    parser.add_argument("--photos", type=Path, default=DEFAULT_PHOTOS, help="labelled photo dir")
    parser.add_argument("--verbose", action="store_true", help="list every photo that is wrong")
    parser.add_argument(
        "--finder-only", action="store_true", help="measure tile finding alone (no model)"
    )
    parser.add_argument("--threads", type=int, default=1, help="model inference threads")
    parser.add_argument(
        "--finder", choices=FINDERS, default="learned", help="which tile finder to measure"
    )
    parser.add_argument(
        "--finder-model",
        type=Path,
        action="append",
        default=None,
        help="another finder .onnx (repeat to pool several finders)",
    )
    parser.add_argument("--reader-model", type=Path, default=None, help="another reader .onnx")
    parser.add_argument(
        "--first-look-only",
        action="store_true",
        help="without the learned finder's second look at each face",
    )
    parser.add_argument(
        "--close-up-model",
        type=Path,
        default=DEFAULT_CLOSE_UP_MODEL,
        help="the finder that reads photos with few tiles found again (default: the app's)",
    )
    parser.add_argument(
        "--no-close-up",
        action="store_true",
        help="without reading photos with few tiles found again",
    )
    parser.add_argument(
        "--face-down-model",
        type=Path,
        default=DEFAULT_FACE_DOWN_MODEL,
        help="the face-down check (default: the app's)",
    )
    parser.add_argument(
        "--no-face-down-check",
        action="store_true",
        help="without the face-down check (printed backs may then count as tiles)",
    )
    parser.add_argument(
        "--fitter-model",
        type=Path,
        default=DEFAULT_FITTER_MODEL,
        help="the model that fits outlines to the faces (default: the app's)",
    )
    parser.add_argument(
        "--no-outline-fitter",
        action="store_true",
        help="read along the finders' outlines as they are",
    )
    parser.add_argument(
        "--with-set",
        action="store_true",
        help="tell the reader each photo's set (as the app reads a game's photos)",
    )
    args = parser.parse_args(argv)
    if not (args.photos / "manifest.json").is_file():
        print(
            f"python -m training.evaluate: error: no manifest.json in {args.photos}",
            file=sys.stderr,
        )
        return 2
    results = evaluate(
        args.photos,
        finder_only=args.finder_only,
        threads=args.threads,
        finder=args.finder,
        finder_models=args.finder_model,
        reader_model=args.reader_model,
        second_look=not args.first_look_only,
        close_up_model=None if args.no_close_up else args.close_up_model,
        face_down_model=None if args.no_face_down_check else args.face_down_model,
        fitter_model=None if args.no_outline_fitter else args.fitter_model,
        with_set=args.with_set,
    )
    print(report(results, verbose=args.verbose, finder_only=args.finder_only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
