"""A photo with few tiles found is read again with the close-up finder (a nearly empty hand
photographed close), and that reading wins only when it keeps at least as many tiles."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_scenes import png_bytes, table

from training.synth import render_scene
from vision.finder import DEFAULT_CLOSE_UP_MODEL, DEFAULT_FINDER_MODEL
from vision.finding import FoundTile
from vision.halves import DEFAULT_HALF_MODEL
from vision.models import ModelPaths, ModelSet
from vision.pipeline import CLOSE_UP_TILES, HandReader


@dataclass(frozen=True)
class Read:
    pips: tuple[int, int]
    confidence: float = 0.99
    is_tile: float = 0.99
    alternatives: tuple[tuple[tuple[int, int], float], ...] = ()
    halves: tuple[int, int] | None = None


class NumberingReader:
    """Reads the n-th crop of every call as the tile (n+1)-(n+1)."""

    def read(self, crops: np.ndarray, max_pips: int | None = None) -> list[Read]:
        return [Read((index + 1, index + 1)) for index in range(len(crops))]


class PlacedFinder:
    """Finds ``count`` tiles in a row, and remembers how often it was asked."""

    def __init__(self, count: int, top: int = 40) -> None:
        self.count = count
        self.top = top
        self.calls = 0

    def find(self, image_bgr: np.ndarray) -> list[FoundTile]:
        self.calls += 1
        return [
            FoundTile(
                corners=np.array(
                    [
                        [20 + 70 * i, self.top],
                        [80 + 70 * i, self.top],
                        [80 + 70 * i, self.top + 120],
                        [20 + 70 * i, self.top + 120],
                    ],
                    np.float32,
                ),
                score=0.95,
            )
            for i in range(self.count)
        ]


PHOTO = png_bytes(table(400, 800))


def _reader(usual: PlacedFinder, close_up: PlacedFinder) -> HandReader:
    return HandReader(
        ModelSet(half_reader=NumberingReader(), tile_finder=usual, close_up_finder=close_up)
    )


def test_a_photo_with_few_tiles_found_is_read_again_and_the_fuller_reading_kept() -> None:
    usual, close_up = PlacedFinder(1), PlacedFinder(2, top=240)
    reading = _reader(usual, close_up).read(PHOTO)
    assert close_up.calls == 1
    assert len(reading.tiles) == 2
    assert all(y >= 240 for tile in reading.tiles for _, y in tile.corners)


def test_the_close_up_reading_is_not_kept_when_it_finds_fewer_tiles() -> None:
    usual, close_up = PlacedFinder(CLOSE_UP_TILES), PlacedFinder(CLOSE_UP_TILES - 1, top=240)
    reading = _reader(usual, close_up).read(PHOTO)
    assert close_up.calls == 1
    assert len(reading.tiles) == CLOSE_UP_TILES
    assert all(y < 240 for tile in reading.tiles for _, y in tile.corners)


def test_a_fuller_hand_is_read_once() -> None:
    usual, close_up = PlacedFinder(CLOSE_UP_TILES + 1), PlacedFinder(CLOSE_UP_TILES + 3)
    reading = _reader(usual, close_up).read(PHOTO)
    assert close_up.calls == 0
    assert len(reading.tiles) == CLOSE_UP_TILES + 1


def test_a_model_set_without_a_close_up_finder_looks_once() -> None:
    reader = HandReader(ModelSet(half_reader=NumberingReader(), tile_finder=PlacedFinder(1)))
    assert reader.models.close_up_finder is None
    assert len(reader.read(PHOTO).tiles) == 1


def test_a_missing_close_up_model_is_reported_when_loading(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="missing.onnx"):
        ModelSet.load(ModelPaths(close_up_finder=tmp_path / "missing.onnx"))


def _close_ups(count: int) -> Sequence[tuple[bytes, Counter[tuple[int, int]]]]:
    # Seeds far from every training and measuring range.
    scenes = []
    for seed in range(9_400_000, 9_400_000 + count):
        scene = render_scene(seed, size=(1280, 960), close_up=True)
        ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        scenes.append((encoded.tobytes(), Counter(tile.pips for tile in scene.tiles)))
    return scenes


@pytest.mark.skipif(
    not all(
        p.is_file() for p in (DEFAULT_FINDER_MODEL, DEFAULT_CLOSE_UP_MODEL, DEFAULT_HALF_MODEL)
    ),
    reason="the models are not built",
)
def test_rendered_close_ups_are_read_better_with_the_close_up_look() -> None:
    with_look = HandReader()
    # The usual finder alone, along its own outlines, as when the close-up look was added.
    without = HandReader(ModelSet.load(ModelPaths(close_up_finder=None, outline_fitter=None)))
    right_with = right_without = wanted = 0
    for photo, truth in _close_ups(20):
        wanted += truth.total()
        right_with += (truth & Counter(with_look.read(photo, max_pips=12).pip_pairs)).total()
        right_without += (truth & Counter(without.read(photo, max_pips=12).pip_pairs)).total()
    assert right_with > right_without
    assert right_with >= 0.7 * wanted
