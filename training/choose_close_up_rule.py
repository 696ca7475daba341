"""Choose, on rendered scenes, when a photo is read again with the close-up finder.

    python -m training.choose_close_up_rule [--scenes 60]

The committed tile finder reads usual hands and the dev photos best; the close-up finder
(models/finder-close.onnx, trained with close-ups, printed backs and leaning tiles in its mix)
reads close-ups of one to three tiles far better. Every rendered photo of each class in
`training.score_classes` is read with both, from tuning seeds of their own (8,700,000 on,
neither trained on nor the seeds `score_classes` reports), and a few rules for picking one
reading per photo are scored on them: the pipeline's rule (vision.pipeline.CLOSE_UP_TILES) is
set here, with known answers, not on real photos.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from training.score_classes import class_photos
from training.score_pipeline import Tally
from vision.finder import DEFAULT_CLOSE_UP_MODEL
from vision.models import ModelPaths, ModelSet
from vision.pipeline import HandReader

FIRST_SEED = 8_700_000

Pairs = Counter[tuple[int, int]]


@dataclass(frozen=True)
class Readings:
    """One rendered photo: its class, its true tiles, and each finder's reading."""

    kind: str
    truth: Pairs
    usual: Pairs
    close_up: Pairs


Rule = Callable[[Readings], bool]
"""True when the close-up finder's reading is the one reported."""


def collect(scenes: int, close_up_model: Path = DEFAULT_CLOSE_UP_MODEL) -> list[Readings]:
    """Both readings of ``scenes`` rendered photos of each class."""
    # Each reader alone: the usual one without a close-up look, the other with only that.
    # (The rule was chosen before the outline fitter; both read along the finders' outlines.)
    usual = HandReader(ModelSet.load(ModelPaths(close_up_finder=None, outline_fitter=None)))
    close_up = HandReader(
        ModelSet.load(
            ModelPaths(tile_finder=close_up_model, close_up_finder=None, outline_fitter=None)
        )
    )
    rows: list[Readings] = []
    for kind, truth, photo in class_photos(scenes, FIRST_SEED):
        rows.append(
            Readings(
                kind=kind,
                truth=truth,
                usual=Counter(usual.read(photo, max_pips=12).pip_pairs),
                close_up=Counter(close_up.read(photo, max_pips=12).pip_pairs),
            )
        )
    return rows


def at_most(tiles: int, not_fewer: bool = False) -> Rule:
    """The close-up reading when the usual one keeps at most ``tiles`` tiles (and, with
    ``not_fewer``, only when the close-up one keeps at least as many)."""

    def rule(readings: Readings) -> bool:
        found = readings.usual.total()
        if found > tiles:
            return False
        return not not_fewer or readings.close_up.total() >= found

    return rule


RULES: dict[str, Rule] = {
    "usual finder only": lambda _: False,
    "close-up finder only": lambda _: True,
    **{f"close-up when at most {n} found": at_most(n) for n in (0, 1, 2, 3, 4)},
    **{
        f"close-up when at most {n} found, if not fewer": at_most(n, not_fewer=True)
        for n in (1, 2, 3, 4)
    },
}


def tally(rows: Sequence[Readings], rule: Rule) -> dict[str, Tally]:
    """Per class, the figures of the readings ``rule`` reports."""
    tallies: dict[str, Tally] = {}
    for row in rows:
        tally = tallies.setdefault(row.kind, Tally())
        read = row.close_up if rule(row) else row.usual
        tally.wanted += row.truth.total()
        tally.reported += read.total()
        tally.right += (row.truth & read).total()
        tally.exact += row.truth == read
        tally.scenes += 1
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m training.choose_close_up_rule", description=__doc__
    )
    parser.add_argument("--scenes", type=int, default=60, help="rendered photos per class")
    args = parser.parse_args(argv)
    rows = collect(args.scenes)
    for name, rule in RULES.items():
        tallies = tally(rows, rule)
        exact = sum(t.exact for t in tallies.values())
        print(f"{name}: {exact} of {len(rows)} photos exact")
        for kind, kind_tally in tallies.items():
            print("   ", kind_tally.line(kind))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
