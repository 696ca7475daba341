"""Score `python -m vision table` on held-out rendered tables (never run in CI).

    python -m training.score_tables [--tables 100] [--first-seed 900000000] [--threads 1]
        [--with-set] [--with-engine] [--native]

Each table (training/table_synth.py, seeds far from any a model learnt from) is drawn at
2016x1512, scaled up to a 12-MP-like 4032x3024 JPEG and read by the command's own code with
the committed models, as a phone's photo would be (with ``--native``, drawn at 4032x3024
itself: the same table with every pip drawn at a 12-MP photo's detail, where the enlarged
render is only as sharp as a 3-MP one): with ``--with-set`` knowing the set's
highest half, as the referee page does; without it, as `vision table` without ``--set-max``;
with ``--with-engine`` also knowing the round's engine where the table has a hub, as the
referee page does inside a game (the scoresheet knows the round).
Reported:

- tiles found (a read outline over a true one, IoU >= 0.5) and read right (its pips too);
- trains whose end is right (the reading has a train ending at the true last tile, with the
  true end number);
- photos whose whole position is right: the hub seen (or rightly not), every train's end and
  open double right, and the free ends as a multiset ("but markers"), and the same with every
  train's marker right too (a marker the reader leaves to the player, null, is not right),
  and the same where a marker lying between two trains' starts (markers_in_doubt) may be
  left to the player on either train;
- markers: of the trains whose end is right, how many markers were called right, called
  wrong (said there when not, or not there when there) or left to the player;
- time per photo, decode and grouping included.

The same figures with perfect detections (the renderer's own tiles, read right, their markers
looked for on the photo as the app decodes it) separate the grouping from the finding.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from training.score_tints import TINTS, tinted
from training.synth import table_tops_note
from training.table_synth import TableScene, render_table
from vision.decode import decode_photo
from vision.geometry import distance_outside, outline_iou
from vision.markers import SHARED, train_markers, with_markers
from vision.models import ModelPaths, ModelSet
from vision.pipeline import READ_LONG_SIDE, HandReader
from vision.table import TableLayout, group_table
from vision.types import DetectedTile, HalfSeen

FIRST_SEED = 900_000_000
SCALE = 2  # the 2016x1512 render shown as a 4032x3024 photo
NATIVE_SIZE = (4032, 3024)
"""``--native``: the table drawn at the photo's own size."""
MATCH_IOU = 0.5


@dataclass
class Tally:
    tables: int = 0
    tiles: int = 0
    found: int = 0
    read_right: int = 0
    extra: int = 0
    trains: int = 0
    ends_right: int = 0
    positions_right: int = 0
    whole_right: int = 0
    markers_right: int = 0
    markers_wrong: int = 0
    markers_asked: int = 0
    markers_between: int = 0
    whole_asking_between: int = 0
    ms: list[float] = field(default_factory=list)

    def line(self, name: str) -> str:
        share = _share
        timing = ""
        if self.ms:
            timing = (
                f"; ms per photo median {statistics.median(self.ms):.0f}, max {max(self.ms):.0f}"
            )
        return (
            f"{name}: tiles found {share(self.found, self.tiles)}, read right"
            f" {share(self.read_right, self.tiles)}, outlines on no tile {self.extra};"
            f" train ends right {share(self.ends_right, self.trains)}; whole position right"
            f" (but markers) {share(self.positions_right, self.tables)}, with markers"
            f" {share(self.whole_right, self.tables)}; markers right {self.markers_right},"
            f" wrong {self.markers_wrong}, asked {self.markers_asked}; markers lying between two"
            f" trains' starts {self.markers_between}, whole with markers where those may be asked"
            f" {share(self.whole_asking_between, self.tables)}{timing}"
        )


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / max(whole, 1):.1f}%)"


def perfect(scene: TableScene, scale: float = 1.0) -> list[DetectedTile]:
    """The renderer's tiles as a perfect finder and reader would report them, each half's
    count where it lies included (as the reader gives it)."""
    tiles = []
    for tile in scene.tiles:
        halves = None
        if tile.half_centres is not None:
            first, second = (
                (float(x * scale), float(y * scale)) for x, y in np.asarray(tile.half_centres)
            )
            halves = (HalfSeen(tile.half_pips[0], first), HalfSeen(tile.half_pips[1], second))
        tiles.append(
            DetectedTile(
                pips=tile.pips,
                confidence=0.99,
                corners=tuple(
                    (int(round(x * scale)), int(round(y * scale))) for x, y in tile.corners
                ),
                halves=halves,
            )
        )
    return tiles


def table_photo(
    seed: int, native: bool, tint: str = "none", markers_on_tiles: bool = False
) -> tuple[TableScene, int, bytes]:
    """The rendered table of ``seed``, how many photo pixels a drawn one became, and the
    12-MP JPEG a phone would send of it: drawn at 2016x1512 and enlarged, or with ``native``
    drawn at the photo's own size; under ``tint`` (training.score_tints.TINTS, or "dark");
    with ``markers_on_tiles``, each marker laid on its train's first or last tile."""
    if native:
        scene = render_table(seed, size=NATIVE_SIZE, markers_on_tiles=markers_on_tiles)
        enlarged = 1
        photo = scene.image
    else:
        scene, enlarged = render_table(seed, markers_on_tiles=markers_on_tiles), SCALE
        height, width = scene.image.shape[:2]
        photo = cv2.resize(
            scene.image, (width * SCALE, height * SCALE), interpolation=cv2.INTER_CUBIC
        )
    if tint != "none":
        photo = tinted(photo, tint)
    ok, encoded = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return scene, enlarged, encoded.tobytes()


def round_engine(scene: TableScene) -> int | None:
    """The round's engine, as a game knows it: the hub's double (none for a block line)."""
    if scene.hub is None:
        return None
    return scene.tiles[scene.hub.engine_tile].pips[0]


def match(scene: TableScene, tiles: Sequence[DetectedTile], scale: float) -> dict[int, int]:
    """True tile index -> read tile index, best IoU first, each used once."""
    pairs = []
    for i, truth in enumerate(scene.tiles):
        true_outline = np.asarray(truth.corners, np.float32) * scale
        centre = true_outline.mean(axis=0)
        for j, read in enumerate(tiles):
            outline = np.asarray(read.corners, np.float32)
            if np.linalg.norm(outline.mean(axis=0) - centre) > 60 * scale:
                continue
            iou = outline_iou(true_outline, outline)
            if iou >= MATCH_IOU:
                pairs.append((iou, i, j))
    pairs.sort(reverse=True)
    matched: dict[int, int] = {}
    used: set[int] = set()
    for _, i, j in pairs:
        if i not in matched and j not in used:
            matched[i] = j
            used.add(j)
    return matched


def markers_in_doubt(scene: TableScene) -> tuple[frozenset[int], int]:
    """The trains (indexes into ``scene.trains``) whose marker a player could not tell by
    looking, and how many markers lie so: a marker no nearer its own train's first tile than
    ``SHARED`` times its distance to another train's first tile lies between the two, and
    both trains are in doubt (the app's blob look asks about such a marker too)."""
    firsts = [scene.tiles[train.tiles[0]].corners for train in scene.trains]
    doubted: set[int] = set()
    between = 0
    for index, train in enumerate(scene.trains):
        if train.marker_at is None:
            continue
        own = distance_outside(np.asarray(firsts[index]), train.marker_at)
        others = [
            (distance_outside(np.asarray(first), train.marker_at), other)
            for other, first in enumerate(firsts)
            if other != index
        ]
        if not others:
            continue
        nearest, other = min(others)
        if nearest <= SHARED * own:
            between += 1
            doubted.update((index, other))
    return frozenset(doubted), between


def tally(tally: Tally, scene: TableScene, layout: TableLayout, scale: float) -> None:
    matched = match(scene, layout.tiles, scale)
    tally.tables += 1
    tally.tiles += len(scene.tiles)
    tally.found += len(matched)
    tally.read_right += sum(
        1 for i, j in matched.items() if layout.tiles[j].pips == scene.tiles[i].pips
    )
    tally.extra += len(layout.tiles) - len(matched)
    ends: dict[tuple[int, int, bool], list[bool | None]] = {}
    for read in layout.trains:
        ends.setdefault((read.tiles[-1], read.end, read.open_double), []).append(read.marker)
    whole = (scene.hub is None) == (layout.hub is None)
    markers_right = True
    fair = True  # markers right, or asked where one lies between two trains
    doubted, between = markers_in_doubt(scene) if scene.hub is not None else (frozenset(), 0)
    tally.markers_between += between
    for number, train in enumerate(scene.trains):
        tally.trains += 1
        last = matched.get(train.tiles[-1])
        key = (-1 if last is None else last, train.end, train.open_double)
        if ends.get(key):
            marker = ends[key].pop()
            tally.ends_right += 1
            if scene.hub is None:
                continue  # no train markers without a hub
            if marker is None:
                tally.markers_asked += 1
                markers_right = False
                fair = fair and number in doubted
            elif marker == train.marker:
                tally.markers_right += 1
            else:
                tally.markers_wrong += 1
                markers_right = fair = False
        else:
            whole = False
    if whole and tuple(layout.open_ends) == scene.open_ends:
        tally.positions_right += 1
        tally.whole_right += markers_right
        tally.whole_asking_between += fair


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None, help="write the photos here")
    parser.add_argument("--finder", type=Path, help="this tile finder instead")
    parser.add_argument("--halves", type=Path, help="this half reader instead")
    parser.add_argument("--markers", type=Path, help="this marker check instead")
    parser.add_argument(
        "--no-marker-check", action="store_true", help="markers from the blob look alone"
    )
    parser.add_argument(
        "--native",
        action="store_true",
        help=f"draw each table at {NATIVE_SIZE[0]}x{NATIVE_SIZE[1]} instead of enlarging it",
    )
    parser.add_argument(
        "--with-set",
        action="store_true",
        help="read each table with its set's highest half, as the referee page does",
    )
    parser.add_argument(
        "--with-engine",
        action="store_true",
        help="read each table with a hub knowing the round's engine, as a game's referee page does",
    )
    parser.add_argument(
        "--hub-expected",
        action="store_true",
        help="read as the referee page does: a Mexican Train table has a hub (block lines skipped)",
    )
    parser.add_argument(
        "--no-white-balance", action="store_true", help="read each photo in its own colours"
    )
    parser.add_argument(
        "--tint",
        default="none",
        choices=[*TINTS, "dark"],
        help="lay this tint over each photo (training.score_tints): a table under a coloured bulb",
    )
    parser.add_argument(
        "--markers-on-tiles",
        action="store_true",
        help="lay each marker on its train's first or last tile, not beside its start",
    )
    args = parser.parse_args(argv)

    paths = ModelPaths()
    if args.finder:
        paths = replace(paths, tile_finder=args.finder)
    if args.halves:
        paths = replace(paths, half_reader=args.halves)
    if args.markers:
        paths = replace(paths, marker_check=args.markers)
    if args.no_marker_check:
        paths = replace(paths, marker_check=None)
    reader = HandReader(
        ModelSet.load(paths, threads=args.threads), white_balance=not args.no_white_balance
    )
    print(table_tops_note())
    pipeline, grouping, dark = Tally(), Tally(), Tally()
    grouping_ms: list[float] = []
    kinds: Counter[str] = Counter()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    for seed in range(args.first_seed, args.first_seed + args.tables):
        scene, enlarged, data = table_photo(seed, args.native, args.tint, args.markers_on_tiles)
        if args.hub_expected and scene.hub is None:
            kinds["block line, skipped"] += 1
            continue
        if scene.hub is None:
            kinds["block line"] += 1
        else:
            kinds["plastic hub" if scene.hub.plastic else "bare engine"] += 1
        if args.keep is not None:
            (args.keep / f"table_{seed}.jpg").write_bytes(data)

        # What `python -m vision table` does with a photo's bytes.
        started = time.perf_counter()
        engine = round_engine(scene) if args.with_engine else None
        set_max = scene.set_max if args.with_set else None
        layout = reader.read_table(data, set_max, engine, args.hub_expected).layout
        elapsed = (time.perf_counter() - started) * 1000
        pipeline.ms.append(elapsed)
        tally(pipeline, scene, layout, enlarged)
        if scene.dark_tiles:
            tally(dark, scene, layout, enlarged)

        started = time.perf_counter()
        ideal = group_table(
            perfect(scene, enlarged), round_engine=engine, hub_expected=args.hub_expected
        )
        grouping_ms.append((time.perf_counter() - started) * 1000)
        # Markers looked for on the photo as the app decodes it (training.score_markers too).
        photo = decode_photo(data, min_long_side=READ_LONG_SIDE)
        ideal = with_markers(
            ideal, train_markers(photo.pixels, photo.scale, ideal, reader.models.marker_check)
        )
        tally(grouping, scene, ideal, enlarged)
        print(
            f"seed {seed}: {len(scene.tiles)} tiles, {len(scene.trains)} trains;"
            f" read {len(layout.tiles)} tiles, {len(layout.trains)} trains, {elapsed:.0f} ms",
            flush=True,
        )
    print(f"tables: {dict(kinds)}")
    print(pipeline.line("pipeline (12-MP JPEG, committed models)"))
    if dark.tables:
        print(dark.line("  of which black tiles with white pips"))
    print(grouping.line("grouping alone (perfect detections)"))
    print(f"grouping alone: ms per table median {statistics.median(grouping_ms):.1f}")


if __name__ == "__main__":
    main()
