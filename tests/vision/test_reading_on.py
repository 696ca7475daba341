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

import vision.pipeline
from training.score_tables import match
from training.table_synth import TableScene, render_table
from vision.models import ModelSet
from vision.pipeline import HandReader, TableRead

SEED = 800_000_000  # a tuning table with two long straight trains
CUT_SHORT = (0, 5)  # train 0's last tile: the train seems to end early
CUT_THROUGH = (1, 2, 3)  # train 1's third and fourth tiles: the train seems to come apart
CUT_FIRST = 3  # train 3's first two tiles: the train seems not to start at the hub


@dataclass(frozen=True)
class Outlined:
    corners: NDArray[np.float32]
    score: float


class MissingSomeFinder:
    """Outlines every true tile of the scene except the ones named."""

    def __init__(self, scene: TableScene, missing: set[int]) -> None:
        self._outlines = [
            Outlined(np.asarray(tile.corners, np.float32), 0.9)
            for index, tile in enumerate(scene.tiles)
            if index not in missing
        ]

    def find(self, image_bgr: NDArray[np.uint8]) -> list[Outlined]:
        return list(self._outlines)


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
    finder = MissingSomeFinder(scene, _missing(scene))
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
    # sides off: nothing is looked for before it, and its first tile stays missed.
    for index in _missing(scene) - {scene.trains[CUT_FIRST].tiles[0]}:
        assert index in found, f"the missed tile {scene.tiles[index].pips} was not read"
        assert read.layout.tiles[found[index]].pips == scene.tiles[index].pips
    assert {number for number, _ in _ends(scene, read)} >= {CUT_SHORT[0], CUT_THROUGH[0], CUT_FIRST}
    assert all(train.linked for train in read.layout.trains)
    assert read.layout.open_ends == scene.open_ends
    assert len(read.layout.tiles) == len(scene.tiles) - 1  # nothing read where no tile is


def test_without_reading_on_those_trains_end_early(
    models: ModelSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vision.pipeline, "BEYOND_ROUNDS", 0)
    scene = render_table(SEED)
    read = _read(scene, models)
    assert read.layout.open_ends != scene.open_ends
    assert len(read.layout.tiles) == len(scene.tiles) - len(_missing(scene))
