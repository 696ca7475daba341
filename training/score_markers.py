"""Compare marker checks on the same rendered tables (never run in CI).

    python -m training.score_markers models/markers.onnx training/runs/markers_c.onnx \
        [--tables 120] [--first-seed 800000000] [--native] [--markers-on-tiles]

Each table with a hub is drawn and sent as `training.score_tables` sends it (a 12-MP JPEG,
with ``--native`` drawn at that size) and decoded as the app decodes it. The renderer's own
tiles, read right, are grouped as the app groups them, so every check is asked about the same
train starts on the same pixels and the figures differ only by the checks' answers (what the
finder and reader lose is `training.score_tables`' business). The app's thresholds decide
(`vision.markers.settled`: a clear chance answers, an unclear one leaves the blob look's
answer). Seeds 800,000,000 on are the tuning tables the checks are chosen on; the held-out
ones (900,000,000 on) are for `training.score_tables` once a check is chosen.

Reported per check: tables read whole (the perfect tiles grouped rightly) with every train's
marker right, and markers right, wrong (said there when not, or not there when there) and
left to the player; and tables whole where a marker lying between two trains' starts, which a
player could not place by looking either (`training.score_tables.markers_in_doubt`), may be
left to the player.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from training.score_tables import Tally, perfect, round_engine, table_photo, tally
from vision.decode import decode_photo
from vision.markers import MarkerCheck, MarkerCheckLike, train_markers, with_markers
from vision.pipeline import READ_LONG_SIDE
from vision.table import group_table

TUNING_SEED = 800_000_000


def score_checks(
    checks: Sequence[MarkerCheckLike],
    seeds: Sequence[int],
    native: bool,
    markers_on_tiles: bool = False,
) -> list[Tally]:
    """One tally per check over the tables of ``seeds`` that have a hub."""
    tallies = [Tally() for _ in checks]
    for seed in seeds:
        scene, enlarged, data = table_photo(seed, native, markers_on_tiles=markers_on_tiles)
        if scene.hub is None:
            continue  # a block line has no train markers
        photo = decode_photo(data, min_long_side=READ_LONG_SIDE)
        layout = group_table(perfect(scene, enlarged), round_engine=round_engine(scene))
        for check, counts in zip(checks, tallies, strict=True):
            markers = train_markers(photo.pixels, photo.scale, layout, check)
            tally(counts, scene, with_markers(layout, markers), enlarged)
    return tallies


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checks", type=Path, nargs="+", help="marker checks (ONNX)")
    parser.add_argument("--tables", type=int, default=120)
    parser.add_argument("--first-seed", type=int, default=TUNING_SEED)
    parser.add_argument(
        "--native", action="store_true", help="draw each table at a 12-MP photo's own size"
    )
    parser.add_argument(
        "--markers-on-tiles",
        action="store_true",
        help="lay each marker on its train's first or last tile instead of beside its start",
    )
    args = parser.parse_args(argv)
    checks = [MarkerCheck(path) for path in args.checks]
    seeds = range(args.first_seed, args.first_seed + args.tables)
    for path, counts in zip(
        args.checks, score_checks(checks, seeds, args.native, args.markers_on_tiles), strict=True
    ):
        print(
            f"{path}: {counts.tables} tables with a hub, whole with every marker right"
            f" {counts.whole_right}; markers right {counts.markers_right},"
            f" wrong {counts.markers_wrong}, asked {counts.markers_asked}; whole where a marker"
            f" lying between two trains' starts may be asked {counts.whole_asking_between}"
            f" ({counts.markers_between} such markers)",
            flush=True,
        )


if __name__ == "__main__":
    main()
