"""Read the corpus's real photos of lines of play as `python -m vision table` does, and say
whether every open end comes out right (issue 28's real-photo target; never run in CI).

    python -m training.score_lines [--photos training/data/real_photos] [--finder PATH]
    python -m training.score_lines --all-lines [--finder PATH]

A photo takes part when its settled label (training.real_photos) gives the line's
``open_ends``: both counters saw a line of play whose touching halves match, and agreed on the
numbers its free ends offer. Each is read with its set known (``--set-max`` from the photo's
set) and no game behind it, so with no engine to look for. A photo is right when the reading's
open ends, sorted, are the label's; its tiles are scored as the hand reader's are
(training.score_real: exact when every labelled tile is read and nothing else).

With ``--all-lines`` every settled photo of tiles in lines (``scene``), open ends agreed or
not, is read the same way and only its tiles are scored, by fold: how well the table photo's
path (the fine look always taken) finds and reads the tiles of real tables.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from training.real_folds import fold_of
from training.real_photos import MANIFEST, PHOTOS, load_manifest
from training.score_real import (
    SET_MAX,
    TALLY_HEADER,
    TALLY_RULE,
    PhotoScore,
    Tally,
    score_reading,
)
from vision.decode import PhotoError
from vision.models import ModelPaths, ModelSet
from vision.pipeline import HandReader, TableRead


@dataclass(frozen=True)
class LineScore:
    """One photo of a line of play, as read."""

    file: str
    source: str
    truth: tuple[int, ...]
    read: tuple[int, ...] | None
    """The open ends read, sorted (None: the photo could not be read)."""
    tiles_exact: bool

    @property
    def ends_right(self) -> bool:
        return self.read == self.truth


def lines_of_play(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The settled photos whose label gives a line's open ends."""
    return [
        entry
        for entry in entries
        if entry["label"] is not None and entry["label"].get("open_ends") is not None
    ]


def tiles_in_lines(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The settled photos of tiles laid in lines, open ends agreed or not."""
    return [
        entry
        for entry in entries
        if entry["label"] is not None and entry["scene"] == "tiles in lines"
    ]


def read_as_table(reader: HandReader, entry: dict[str, Any], path: Path) -> TableRead | None:
    """The photo read as `python -m vision table` reads it, its set known (None: unreadable)."""
    try:
        return reader.read_table(path.read_bytes(), max_pips=SET_MAX.get(entry["set"]))
    except PhotoError:
        return None


def score_tiles(reader: HandReader, entry: dict[str, Any], photos: Path) -> PhotoScore | None:
    """A photo's tiles as the table photo's path reads them (None: the photo is not here)."""
    path = photos / entry["file"]
    if not path.is_file():
        return None
    read = read_as_table(reader, entry, path)
    return score_reading(entry, read.reading if read else None)


def tiles_report(scores: Sequence[tuple[str, PhotoScore]]) -> str:
    """Tiles read per fold and over all, from (fold, score) pairs."""
    by_fold: dict[str, Tally] = {}
    total = Tally()
    for fold, score in scores:
        by_fold.setdefault(fold, Tally()).add(score)
        total.add(score)
    lines = [TALLY_HEADER.format("fold"), TALLY_RULE]
    lines += [tally.row(fold) for fold, tally in sorted(by_fold.items())]
    lines.append(total.row("**all**"))
    return "\n".join(lines)


def score_line(reader: HandReader, entry: dict[str, Any], photos: Path) -> LineScore | None:
    path = photos / entry["file"]
    if not path.is_file():
        return None
    truth = tuple(sorted(entry["label"]["open_ends"]))
    read = read_as_table(reader, entry, path)
    if read is None:
        return LineScore(entry["file"], entry["source_repo"], truth, None, False)
    ends = tuple(sorted(read.layout.open_ends))
    exact = score_reading(entry, read.reading).exact
    return LineScore(entry["file"], entry["source_repo"], truth, ends, exact)


def report(scores: Sequence[LineScore]) -> str:
    lines = [
        "| photo | fold | open ends, truth | read | right | tiles exact |",
        "|---|---|---|---|---|---|",
    ]
    for score in scores:
        read = "not read" if score.read is None else ", ".join(map(str, score.read)) or "none"
        lines.append(
            f"| {score.file} | {fold_of(score.source)} | {', '.join(map(str, score.truth))} "
            f"| {read} | {'yes' if score.ends_right else 'no'} "
            f"| {'yes' if score.tiles_exact else 'no'} |"
        )
    right = sum(score.ends_right for score in scores)
    exact = sum(score.tiles_exact for score in scores)
    lines.append(
        f"\nEvery open end right on {right} of {len(scores)} photos "
        f"({right / max(1, len(scores)):.0%}; target 80%); tiles exact on {exact}."
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.score_lines", description=__doc__)
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--finder", type=Path, help="this tile finder instead")
    parser.add_argument(
        "--all-lines",
        action="store_true",
        help="score the tiles of every photo of tiles in lines, by fold, instead of open ends",
    )
    args = parser.parse_args(argv)
    paths = ModelPaths()
    if args.finder:
        paths = replace(paths, tile_finder=args.finder)
    reader = HandReader(ModelSet.load(paths))
    if args.all_lines:
        scored = [
            (fold_of(entry["source_repo"]), tiles)
            for entry in tiles_in_lines(load_manifest(args.manifest))
            if (tiles := score_tiles(reader, entry, args.photos)) is not None
        ]
        print(tiles_report(scored))
        return 0
    scores = [
        score
        for entry in lines_of_play(load_manifest(args.manifest))
        if (score := score_line(reader, entry, args.photos)) is not None
    ]
    print(report(scores))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
