"""The face-down check: a tile whose back carries a printed name is not counted as a tile,
and a face-up tile, blank halves included, still is."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_close_up import NumberingReader, PlacedFinder
from vision_scenes import png_bytes, table

from training.synth import render_scene, render_tile_crop
from vision.finder import DEFAULT_CLOSE_UP_MODEL, DEFAULT_FINDER_MODEL
from vision.halves import (
    DEFAULT_FACE_DOWN_MODEL,
    DEFAULT_HALF_MODEL,
    NOT_A_HALF,
    NUM_CLASSES,
    FaceDownCheck,
    HalfReader,
    shows_a_face,
)
from vision.models import ModelPaths, ModelSet
from vision.pipeline import MIN_TILE_BELIEF, HandReader

MODELS = (DEFAULT_FINDER_MODEL, DEFAULT_CLOSE_UP_MODEL, DEFAULT_HALF_MODEL, DEFAULT_FACE_DOWN_MODEL)
needs_models = pytest.mark.skipif(
    not all(path.is_file() for path in MODELS), reason="the models are not built"
)


def _logits(*halves: int) -> np.ndarray:
    """Sure logits, one row per half, for the given classes (NOT_A_HALF: not a face)."""
    logits = np.full((len(halves), NUM_CLASSES), -8.0, np.float32)
    for row, label in enumerate(halves):
        logits[row, label] = 8.0
    return logits


@pytest.mark.parametrize(
    ("left", "right", "a_face"),
    [
        (5, 3, True),
        (0, 0, True),  # a double blank: two face-up halves
        (NOT_A_HALF, 7, True),  # a blank half taken for a back, pips on the other
        (4, NOT_A_HALF, True),
        (NOT_A_HALF, NOT_A_HALF, False),  # a back
        (NOT_A_HALF, 0, False),  # a back printed on one end, plain on the other
        (0, NOT_A_HALF, False),
    ],
)
def test_a_face_shows_two_face_up_halves_or_pips_on_one(
    left: int, right: int, a_face: bool
) -> None:
    (shows,) = shows_a_face(_logits(left, right))
    assert (shows > 0.99) == a_face
    assert (shows < 0.01) == (not a_face)


@pytest.mark.parametrize("shape", [(3, NUM_CLASSES), (4, NUM_CLASSES - 1), (4,)])
def test_logits_of_the_wrong_shape_are_refused(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="logits must have shape"):
        shows_a_face(np.zeros(shape, np.float32))


class SaysFirstIsFaceDown:
    """A check that sees no face-up half on the first crop of every call."""

    def __init__(self, first: float = 0.12) -> None:
        self.calls = 0
        self.first = first

    def face_up(self, crops: np.ndarray) -> np.ndarray:
        self.calls += 1
        face_up = np.full(len(crops), 0.99)
        face_up[0] = self.first
        return face_up


PHOTO = png_bytes(table(400, 800))


# However sure the check is (0.0: a blank double of a coloured set looks like a back with a
# line), a shape the finder and the reader take for a tile is still shown to the player.
@pytest.mark.parametrize("face_up", [0.12, 0.0])
def test_a_crop_the_check_calls_face_down_is_not_counted_but_shown_as_a_hint(
    face_up: float,
) -> None:
    check = SaysFirstIsFaceDown(face_up)
    reader = HandReader(
        ModelSet(half_reader=NumberingReader(), tile_finder=PlacedFinder(5), face_down_check=check)
    )
    reading = reader.read(PHOTO)
    assert check.calls == 1
    # NumberingReader reads crop n as (n+1)-(n+1); the first one is face down.
    assert sorted(reading.pip_pairs) == [(2, 2), (3, 3), (4, 4), (5, 5)]
    assert len(reading.hints) == 1
    assert min(x for x, _ in reading.hints[0]) == 20  # where the first tile was outlined


def test_a_model_set_without_a_face_down_check_counts_every_read_tile() -> None:
    reader = HandReader(ModelSet(half_reader=NumberingReader(), tile_finder=PlacedFinder(5)))
    assert reader.models.face_down_check is None
    assert len(reader.read(PHOTO).tiles) == 5


def test_a_missing_face_down_model_is_reported_when_loading(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="face-down check model not found"):
        ModelSet.load(ModelPaths(face_down_check=tmp_path / "missing.onnx"))


def _counted(reader: HalfReader, check: FaceDownCheck | None, crops: np.ndarray) -> int:
    is_tile = np.array([read.is_tile for read in reader.read(crops, 12)])
    if check is not None:
        is_tile = np.minimum(is_tile, check.face_up(crops))
    return int((is_tile >= MIN_TILE_BELIEF).sum())


@needs_models
def test_printed_backs_stop_counting_and_faces_with_blank_halves_do_not() -> None:
    reader, check = HalfReader(), FaceDownCheck()
    # Seeds far from every training and measuring range.
    seeds = range(9_610_000, 9_610_060)
    backs = np.stack([render_tile_crop(s, (0, 0), kind="back", printed_back=True) for s in seeds])
    blanks = np.stack(
        [render_tile_crop(s, (s % 13, 0) if s % 2 else (0, 0), kind="face") for s in seeds]
    )
    backs_alone, backs_checked = _counted(reader, None, backs), _counted(reader, check, backs)
    assert backs_alone >= 10  # the reader alone takes many printed backs for tiles
    assert backs_checked <= backs_alone // 3
    assert _counted(reader, check, blanks) == _counted(reader, None, blanks)


@needs_models
def test_rendered_hands_among_printed_backs_get_fewer_false_tiles() -> None:
    checked = HandReader()
    unchecked = HandReader(ModelSet.load(ModelPaths(face_down_check=None)))
    false_checked = false_unchecked = right_checked = right_unchecked = 0
    for seed in range(9_620_000, 9_620_030):
        scene = render_scene(seed, size=(1280, 960), printed_backs=True, n_tiles=(2, 8))
        ok, encoded = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        truth = Counter(tile.pips for tile in scene.tiles)
        with_check = Counter(checked.read(encoded.tobytes(), max_pips=12).pip_pairs)
        without = Counter(unchecked.read(encoded.tobytes(), max_pips=12).pip_pairs)
        false_checked += (with_check - truth).total()
        false_unchecked += (without - truth).total()
        right_checked += (with_check & truth).total()
        right_unchecked += (without & truth).total()
    assert false_checked < false_unchecked
    assert right_checked >= right_unchecked
