"""A table photo's trains read on past tiles the finder missed (HandReader.read_table).

The finder is replaced by one that outlines the rendered table's true tiles but a few, so
these say what reading on along the trains recovers, with the committed half reader, outline
fitter and face-down check doing the reading."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray
from vision_scenes import draw_tile, png_bytes
from vision_scenes import table as green_table

import vision.pipeline
from training.score_tables import match
from training.table_synth import TableScene, render_table
from vision.decode import Photo
from vision.geometry import outline_iou
from vision.halves import TileRead
from vision.models import ModelSet
from vision.pipeline import (
    HandReader,
    TableRead,
    best_fitting_reads,
    counted_on_table,
    laid_on_table,
    sized_like_neighbours,
)
from vision.table import Hub, TableLayout, Train, group_table, lone_tiles_towards_hub
from vision.types import DetectedTile

SEED = 800_000_000  # a tuning table with two long straight trains
CUT_SHORT = (0, 5)  # train 0's last tile: the train seems to end early
CUT_THROUGH = (1, 2, 3)  # train 1's third and fourth tiles: the train seems to come apart
CUT_FIRST = 3  # train 3's first two tiles: the train seems not to start at the hub


@dataclass(frozen=True)
class Outlined:
    corners: NDArray[np.float32]
    score: float


class OutlinesFinder:
    """Stands in for the tile finder: outlines the given shapes."""

    def __init__(self, outlines: list[NDArray[np.float32]]) -> None:
        self._outlines = [Outlined(np.asarray(outline, np.float32), 0.9) for outline in outlines]

    def find(self, image_bgr: NDArray[np.uint8]) -> list[Outlined]:
        return list(self._outlines)


def missing_some(scene: TableScene, missing: set[int]) -> OutlinesFinder:
    """A finder that outlines every true tile of the scene except the ones named."""
    return OutlinesFinder(
        [np.asarray(tile.corners) for index, tile in enumerate(scene.tiles) if index not in missing]
    )


@pytest.fixture(scope="module")
def models() -> ModelSet:
    return ModelSet.load()


def _missing(scene: TableScene) -> set[int]:
    train, last = CUT_SHORT
    first_cut, *more = CUT_THROUGH
    short = scene.trains[train].tiles
    assert len(short) == last + 1
    through = scene.trains[first_cut].tiles
    return {short[last], *(through[step] for step in more), *scene.trains[CUT_FIRST].tiles[:2]}


def _read(scene: TableScene, models: ModelSet) -> TableRead:
    finder = missing_some(scene, _missing(scene))
    reader = HandReader(replace(models, tile_finder=finder, close_up_finder=None))
    ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return reader.read_table(encoded.tobytes())


def _ends(scene: TableScene, read: TableRead) -> set[tuple[int, int]]:
    """(true train, end) for each true train the reading ends at its true last tile."""
    found = match(scene, read.layout.tiles, 1.0)
    right = set()
    for number, train in enumerate(scene.trains):
        last = found.get(train.tiles[-1])
        for read_train in read.layout.trains:
            if last is not None and read_train.tiles[-1] == last and read_train.end == train.end:
                right.add((number, train.end))
    return right


def test_tiles_the_finder_missed_along_a_train_are_read(models: ModelSet) -> None:
    scene = render_table(SEED)
    read = _read(scene, models)
    found = match(scene, read.layout.tiles, 1.0)
    # Once its second tile is read, train 3 is seen to start at the (bare) engine, two short
    # sides off, but without the engine's number: its first tile is looked for there too.
    for index in _missing(scene):
        assert index in found, f"the missed tile {scene.tiles[index].pips} was not read"
        assert read.layout.tiles[found[index]].pips == scene.tiles[index].pips
    assert {number for number, _ in _ends(scene, read)} >= {CUT_SHORT[0], CUT_THROUGH[0], CUT_FIRST}
    assert all(train.linked for train in read.layout.trains)
    assert read.layout.open_ends == scene.open_ends
    assert len(read.layout.tiles) == len(scene.tiles)  # nothing read where no tile is


def test_without_reading_on_those_trains_end_early(
    models: ModelSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vision.pipeline, "BEYOND_ROUNDS", 0)
    scene = render_table(SEED)
    read = _read(scene, models)
    assert read.layout.open_ends != scene.open_ends
    assert len(read.layout.tiles) == len(scene.tiles) - len(_missing(scene))


class ReadInOrder:
    """Reads the crops of the finder's outlines as the given tiles, in order."""

    def __init__(self, reads: list[TileRead]) -> None:
        self.reads = reads

    def read(self, crops: NDArray[np.uint8], max_pips: int | None = None) -> list[TileRead]:
        return self.reads[: len(crops)]


def test_a_tile_read_hardly_at_all_is_not_counted_on_a_table_but_hinted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An engine with three one-tile trains, and a face-down tile at the table's edge that the
    # reader could only read as a 1-0 it barely believes (the 0-0 taken by another back).
    monkeypatch.setattr(vision.pipeline, "BEYOND_ROUNDS", 0)
    image = green_table(900, 1200)
    centre, length = (600.0, 450.0), 90.0
    outlines = [draw_tile(image, centre, 0.3, length)]
    for k in range(3):
        angle = 2 * np.pi * k / 3
        reach = 1.1 * length
        middle = (centre[0] + np.cos(angle) * reach, centre[1] + np.sin(angle) * reach)
        outlines.append(draw_tile(image, middle, angle, length))
    back = draw_tile(image, (150.0, 820.0), 0.0, length, face_up=False)
    reads = [
        TileRead((9, 9), 0.99, 0.99),
        TileRead((9, 4), 0.99, 0.99),
        TileRead((9, 2), 0.99, 0.99),
        TileRead((9, 7), 0.99, 0.99),
        TileRead((1, 0), 0.01, 0.9),
    ]
    finder = OutlinesFinder([*outlines, back])
    reader = HandReader(ModelSet(tile_finder=finder, half_reader=ReadInOrder(reads)))
    read = reader.read_table(png_bytes(image))
    assert [tile.pips for tile in read.reading.tiles] == [(9, 9), (9, 4), (9, 2), (9, 7)]
    assert read.layout.open_ends == (2, 4, 7)
    (hint,) = read.reading.hints
    assert np.allclose(np.asarray(hint, np.float32).mean(axis=0), back.mean(axis=0), atol=3)


def _lying(pips: tuple[int, int], x: float, confidence: float = 0.95) -> DetectedTile:
    """A tile 80x40 px lying along the x axis, its middle at (x, 100)."""
    corners = ((x - 40, 80), (x + 40, 80), (x + 40, 120), (x - 40, 120))
    return DetectedTile(pips, confidence, tuple((int(a), int(b)) for a, b in corners))


def test_a_tile_read_on_is_laid_where_nothing_else_lies() -> None:
    train = [_lying((7, 3), 100), _lying((8, 3), 182)]
    assert laid_on_table(train, _lying((8, 2), 264, 0.6)) == [*train, _lying((8, 2), 264, 0.6)]
    # Not a tile already read (a set holds each once), nor on a surer tile.
    assert laid_on_table(train, _lying((8, 3), 264)) is train
    assert laid_on_table(train, _lying((8, 2), 182, 0.9)) is train


def test_a_sure_tile_read_on_replaces_an_outline_slid_half_onto_it() -> None:
    slid = _lying((2, 2), 240, 0.8)  # half on the next tile's place, half beyond
    train = [_lying((7, 3), 100), _lying((8, 3), 182), slid]
    sure = _lying((8, 2), 264, 0.95)
    assert laid_on_table(train, sure) == [*train[:2], sure]
    assert laid_on_table(train, replace(sure, confidence=0.85)) is train  # not sure enough


def test_a_tile_read_on_replaces_a_double_outlined_across_its_joint_however_sure() -> None:
    # The finder outlined the 3 half of the 8-3 and the 3 half of the 3-5 as one tile, and the
    # reader is sure it is the 3-3: the 8-3 read on past the 7-8 replaces it.
    across = _lying((3, 3), 223, 0.99)
    train = [_lying((7, 8), 100), across]
    sure = _lying((8, 3), 182, 0.95)
    assert laid_on_table(train, sure) == [train[0], sure]
    # A double of another number is a tile of its own: only a surer read replaces it.
    other = replace(across, pips=(6, 6))
    assert laid_on_table([train[0], other], sure) == [train[0], other]


def test_past_a_double_slid_over_the_tile_before_it_that_tile_is_read_on_from() -> None:
    # The train's last outline is a 3-3 lying half over the 8-3 before it: the finder slid it
    # across the joint of the 8-3 and a 3-5 it missed. The 3-5 is looked for past the 8-3.
    tiles = (_lying((7, 8), 100), _lying((8, 3), 182), _lying((3, 3), 223, 0.99))
    layout = TableLayout(tiles, None, (Train((0, 1, 2), 3, True, 0.95),), (3,), (), (), ())
    photo = Photo(np.zeros((400, 600, 3), np.uint8), 600, 400)
    wanted = vision.pipeline._where_trains_go_on(layout, set(), photo)
    past_the_8_3 = np.asarray(_lying((3, 5), 264).corners, np.float32)
    assert any(
        ends == (3,) and outline_iou(outline, past_the_8_3) > 0.7 for _, ends, outline in wanted
    )


def test_the_read_kept_for_a_place_fits_the_train_and_is_the_surest() -> None:
    places = [(1, (8,)), (1, (8,)), (2, (5,)), (3, (4,)), (4, (6,))]
    reads = [
        TileRead((8, 2), 0.7, 0.99),  # fits place 1
        TileRead((9, 8), 0.9, 0.99),  # fits place 1 better (a fitted outline, say)
        TileRead(
            (6, 1), 0.95, 0.99, alternatives=(((5, 1), 0.4),)
        ),  # its likely other reading fits
        TileRead((4, 0), 0.9, 0.99),  # a face-down back: no face up, however it reads
        TileRead((6, 6), 0.1, 0.99),  # fits, but too unsure
    ]
    face_up = [0.99, 0.99, 0.99, 0.1, 0.99]
    kept = best_fitting_reads(places, reads, face_up, shown={(9, 9)})
    assert [(pips, index) for _, pips, index in kept] == [((9, 8), 1), ((5, 1), 2)]
    assert kept[0][0] == pytest.approx(0.9 * 0.99)
    # A tile already read is no reading for a place.
    kept = best_fitting_reads(places[:2], reads[:2], face_up[:2], shown={(9, 8)})
    assert [(pips, index) for _, pips, index in kept] == [((8, 2), 0)]


def _crosswise(pips: tuple[int, int], x: float, confidence: float = 0.95) -> DetectedTile:
    """A double 40x80 px laid across the x axis, its middle at (x, 100)."""
    corners = ((x - 20, 60), (x + 20, 60), (x + 20, 140), (x - 20, 140))
    return DetectedTile(pips, confidence, tuple((int(a), int(b)) for a, b in corners))


def test_a_double_outlined_across_a_joint_is_no_tile_on_a_table() -> None:
    # 7-3 then 8-3 meet at their 3s: an outline slid across that joint shows 3 and 3.
    train = [_lying((7, 3), 100), _lying((8, 3), 182)]
    slid = _lying((3, 3), 141, 0.99)
    counted, hinted = counted_on_table([*train, slid])
    assert counted == train
    assert hinted == []
    # A double laid crosswise on the train's end touches it and is counted.
    crosswise = _crosswise((8, 8), 243)
    assert counted_on_table([*train, crosswise]) == ([*train, crosswise], [])


def test_a_tile_shown_twice_on_a_table_is_counted_once_and_the_other_hinted() -> None:
    # A hand laid face down side by side at the table's edge reads as blank doubles; the
    # train's own 0-0 is the surest.
    train = [_lying((5, 0), 100, 0.97), _lying((0, 0), 182, 0.99)]
    backs = [_lying((0, 0), 400, 0.8), _lying((0, 0), 482, 0.6)]
    counted, hinted = counted_on_table([backs[0], *train, backs[1]])
    assert counted == train
    assert hinted == backs


def test_a_tile_read_hardly_at_all_is_hinted_and_takes_nothing_from_the_others() -> None:
    faint = _lying((0, 0), 400, 0.01)
    sure = _lying((0, 0), 182, 0.6)
    assert counted_on_table([faint, sure]) == ([sure], [faint])


def test_an_outline_run_onto_its_neighbours_stays_in_its_train() -> None:
    # A 6-6 engine, then 6-1, 1-3, 3-5, 5-2, 2-4 end to end. The finder's outline of the 3-5
    # sat loose, well onto each neighbour's end: the train was grouped past it, as if the
    # 3-5 were a tile lying across it.
    engine = _crosswise((6, 6), 100)
    line = [
        _lying(pips, 162 + 82 * index)
        for index, pips in enumerate([(6, 1), (3, 1), (5, 3), (5, 2), (4, 2)])
    ]
    x = 162 + 82 * 2
    line[2] = DetectedTile((5, 3), 0.95, ((x - 66, 77), (x + 66, 77), (x + 66, 123), (x - 66, 123)))
    broken = group_table([engine, *line], round_engine=6)
    assert [(train.tiles, train.end) for train in broken.trains] == [((1, 2, 4, 5), 4)]
    mended = group_table(sized_like_neighbours([engine, *line]), round_engine=6)
    assert [(train.tiles, train.end) for train in mended.trains] == [((1, 2, 3, 4, 5), 4)]
    assert mended.tiles[3].pips == (5, 3)
    assert mended.tiles[3].corners == ((286, 80), (366, 80), (366, 120), (286, 120))


def _loose_beside_hub(loose: DetectedTile) -> TableLayout:
    """A 6-6 engine at (100, 100) with nothing joined to it, and one loose tile."""
    return TableLayout((_crosswise((6, 6), 100), loose), Hub(0, (100, 100)), (), (), (1,), (), ())


def test_before_a_loose_tile_pointing_at_the_hub_its_train_s_first_tile_is_looked_for() -> None:
    # The finder missed a train's first tile (a 6-4) and the tile past it lies alone, in line
    # with the hub a tile's length from it: the 6-4 is looked for between the two, showing a
    # number of the loose 4-3, and nothing is looked for past the 4-3's far end.
    layout = _loose_beside_hub(_lying((4, 3), 264))
    (lone,) = lone_tiles_towards_hub(layout)
    assert (lone.tiles, lone.linked) == ((1,), False)
    photo = Photo(np.zeros((400, 600, 3), np.uint8), 600, 400)
    wanted = vision.pipeline._where_trains_go_on(layout, set(), photo)
    between = np.asarray(_lying((6, 4), 182).corners, np.float32)
    assert wanted
    assert all(ends == (3, 4) for _, ends, _ in wanted)
    assert any(outline_iou(outline, between) > 0.7 for _, _, outline in wanted)
    assert all(outline[:, 0].max() < 264 for _, _, outline in wanted)


@pytest.mark.parametrize(
    "loose",
    [
        _crosswise((4, 3), 264),  # lying across the way to the hub
        _lying((4, 3), 600),  # beyond a train's reach of it
        _lying((4, 4), 264),  # a double: no train's next tile but the engine's own
    ],
)
def test_other_loose_tiles_start_no_train(loose: DetectedTile) -> None:
    assert lone_tiles_towards_hub(_loose_beside_hub(loose)) == []


def test_each_tile_read_on_a_table_says_which_half_shows_which_number(models: ModelSet) -> None:
    # The chains are checked half by half: a tile is laid with the number that matches
    # facing the tile before it, so the reading must place each number on its own half.
    scene = render_table(SEED)
    reader = HandReader(replace(models, tile_finder=missing_some(scene, set())))
    ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    read = reader.read_table(encoded.tobytes())
    found = match(scene, read.layout.tiles, 1.0)
    placed = right = 0
    for index, position in found.items():
        truth, tile = scene.tiles[index], read.layout.tiles[position]
        if truth.pips[0] == truth.pips[1] or tile.pips != truth.pips:
            continue
        assert truth.half_centres is not None
        places = tile.half_places(tile.pips)
        assert places is not None, f"the {tile.pips} was read without its halves' places"
        placed += 1
        where = dict(zip(truth.half_pips, np.asarray(truth.half_centres, np.float64), strict=True))
        right += all(
            np.linalg.norm(np.subtract(place, where[number]))
            < np.linalg.norm(np.subtract(place, where[other]))
            for place, number, other in zip(places, tile.pips, tile.pips[::-1], strict=True)
        )
    assert placed >= 10
    assert right == placed
