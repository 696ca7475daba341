"""Command line: `python -m vision score PHOTO [PHOTO ...] [--blank-scoring RULE] [--set-max N]`
and `python -m vision table PHOTO [PHOTO ...] [--set-max N]`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TextIO, TypeVar

import cv2

from companion.rules import CHOICES
from vision.decode import PhotoError
from vision.halves import MAX_PIPS
from vision.models import ModelPaths, ModelSet
from vision.pipeline import HandReader, TableRead, score_reading
from vision.table import TableLayout
from vision.types import HandReading

Read = TypeVar("Read", HandReading, TableRead)

BLANK_SCORING_CHOICES: tuple[str, ...] = tuple(
    str(choice) for choice in CHOICES["blank_scoring"] or ()
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for `python -m vision`."""
    parser = argparse.ArgumentParser(
        prog="python -m vision", description="Read dominoes from photos."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser(
        "score", help="print one JSON line per photo with its tiles and points"
    )
    score.add_argument("photos", nargs="+", metavar="PHOTO", help="image files to read")
    score.add_argument(
        "--blank-scoring",
        choices=BLANK_SCORING_CHOICES,
        default="pips",
        help="how blanks count in the hand's points (default: pips)",
    )
    score.add_argument(
        "--set-max",
        type=_set_max,
        default=None,
        metavar="N",
        help=(
            "the set's highest half (12 for double-12): no half above it is reported; a reading"
            " the set cannot hold is read as the likeliest one it can, or dropped"
        ),
    )
    score.add_argument(
        "--threads", type=int, default=1, help="inference threads for the model (default: 1)"
    )
    table = commands.add_parser(
        "table",
        help=(
            "print one JSON line per photo of the table: its tiles, the hub, the trains from it"
            " and the numbers their free ends offer"
        ),
    )
    table.add_argument("photos", nargs="+", metavar="PHOTO", help="image files to read")
    table.add_argument(
        "--set-max",
        type=_set_max,
        default=None,
        metavar="N",
        help="the set's highest half (12 for double-12): no half above it is reported",
    )
    table.add_argument(
        "--threads", type=int, default=1, help="inference threads for the model (default: 1)"
    )
    return parser


def _set_max(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if not 0 <= value <= MAX_PIPS:
        raise argparse.ArgumentTypeError(f"must be between 0 and {MAX_PIPS}")
    return value


def score_photo(
    reader: HandReader, path: str, blank_scoring: str, set_max: int | None = None
) -> dict[str, Any]:
    """The contract's JSON object for one photo (an error object if it cannot be read)."""
    started = time.perf_counter()
    reading = _read_photo(path, partial(reader.read, max_pips=set_max))
    if isinstance(reading, dict):
        return reading
    points = score_reading(reading, blank_scoring)
    return {
        "image": path,
        "width": reading.width,
        "height": reading.height,
        # Counted from before the file was read, so the figure includes loading the bytes.
        "ms": int(round((time.perf_counter() - started) * 1000)),
        "tiles": [tile.to_json() for tile in reading.tiles],
        "points": points,
    }


def table_photo(reader: HandReader, path: str, set_max: int | None = None) -> dict[str, Any]:
    """The contract's JSON object for one photo of the table (an error object if it cannot
    be read)."""
    started = time.perf_counter()
    read = _read_photo(path, partial(reader.read_table, max_pips=set_max))
    if isinstance(read, dict):
        return read
    reading, layout = read.reading, read.layout
    return {
        "image": path,
        "width": reading.width,
        "height": reading.height,
        "ms": int(round((time.perf_counter() - started) * 1000)),
        **table_json(layout),
    }


def table_json(layout: TableLayout) -> dict[str, Any]:
    """A table's position as the contract's fields (all but image, size and ms)."""
    hub = layout.hub
    return {
        "tiles": [tile.to_json() for tile in layout.tiles],
        "hub": None
        if hub is None
        else {"engine_tile": hub.engine_tile, "center": [hub.centre[0], hub.centre[1]]},
        "trains": [
            {
                "tiles": list(train.tiles),
                "end": train.end,
                "open_double": train.open_double,
                # null: not sure, or no hub (no train markers in block dominoes).
                "marker": train.marker,
                "confidence": round(train.confidence, 3),
            }
            for train in layout.trains
        ],
        "open_ends": list(layout.open_ends),
        "loose": list(layout.loose),
        # Face-down tiles are not counted yet: the reading's hints are shapes it doubted,
        # face-down tiles among them but not only those, so no honest count comes from them.
        "face_down": 0,
    }


def _read_photo(path: str, read: Callable[[bytes], Read]) -> Read | dict[str, Any]:
    """The photo at ``path`` as ``read`` reads its bytes, or the contract's error object."""
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        return {"image": path, "error": "is a directory, not a photo"}
    except FileNotFoundError:
        return {"image": path, "error": "no such file"}
    except OSError as exc:
        return {"image": path, "error": f"cannot open the file ({exc.strerror or exc})"}
    try:
        return read(data)
    except PhotoError as exc:
        return {"image": path, "error": str(exc)}
    except (cv2.error, MemoryError):
        return {"image": path, "error": "the image could not be processed"}


def main(
    argv: Sequence[str] | None = None,
    out: TextIO | None = None,
    reader: HandReader | None = None,
    paths: ModelPaths | None = None,
) -> int:
    """Run the command line; returns the exit status (1 if any photo could not be read).

    Without ``reader``, one is built from the models at ``paths`` (the committed ones)."""
    stream = out if out is not None else sys.stdout
    args = build_parser().parse_args(argv)
    if args.threads < 1:
        print("python -m vision: error: --threads must be 1 or more", file=sys.stderr)
        return 2
    if reader is None:
        try:
            # Every model is loaded before the first photo, so no photo's `ms` includes it.
            reader = HandReader(ModelSet.load(paths, threads=args.threads))
        except (FileNotFoundError, ImportError) as exc:
            print(
                f"python -m vision: error: the tile reader is not available ({exc})",
                file=sys.stderr,
            )
            return 2
    failed = False
    for path in args.photos:
        if args.command == "table":
            result = table_photo(reader, path, args.set_max)
        else:
            result = score_photo(reader, path, args.blank_scoring, args.set_max)
        failed = failed or "error" in result
        stream.write(json.dumps(result) + "\n")
        stream.flush()
    return 1 if failed else 0
