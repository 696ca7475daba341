"""Real training crops mined from the corpus (issue 25): readings matched to the label by
pips, and the crops cut and labelled from a reading."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from training.real_crops import (
    CUT,
    NEGATIVE,
    POSITIVE,
    UNSURE,
    Match,
    Mined,
    halves_in_order,
    label_is_complete,
    match_readings,
    mine_reading,
)
from vision.halves import NOT_A_HALF
from vision.types import DetectedTile


def test_readings_of_labelled_tiles_are_positives_and_the_rest_negatives() -> None:
    matches = match_readings(
        [((6, 4), 0.9), ((3, 1), 0.8), ((2, 2), 0.7)],
        tiles=[[6, 4], [1, 3]],
        cut=[],
        complete=True,
    )
    assert matches == [Match(POSITIVE, (6, 4)), Match(POSITIVE, (3, 1)), Match(NEGATIVE)]


def test_a_tile_labelled_once_but_read_twice_gives_the_surer_reading() -> None:
    matches = match_readings([((5, 5), 0.4), ((5, 5), 0.95)], tiles=[[5, 5]], cut=[], complete=True)
    assert matches == [Match(NEGATIVE), Match(POSITIVE, (5, 5))]


def test_a_reading_that_may_be_a_misread_missed_tile_is_left_out() -> None:
    # 6-4 is labelled but not read; a reading of 6-3 may be that tile misread.
    matches = match_readings([((6, 3), 0.9)], tiles=[[6, 4]], cut=[], complete=True)
    assert matches == [Match(UNSURE)]


def test_an_incomplete_label_gives_no_negatives() -> None:
    matches = match_readings([((2, 0), 0.9)], tiles=[], cut=[], complete=False)
    assert matches == [Match(UNSURE)]


def test_a_reading_that_may_be_a_frame_cut_tile_is_neither_kind() -> None:
    matches = match_readings(
        [((4, 1), 0.9), ((6, 6), 0.9)], tiles=[], cut=[[4, None], [6, 6]], complete=True
    )
    assert matches == [Match(CUT), Match(CUT)]


def test_the_ends_of_a_positive_follow_the_readers_counts() -> None:
    assert halves_in_order((6, 2), read_left=6, read_right=3) == (6, 2)
    assert halves_in_order((6, 2), read_left=2, read_right=5) == (2, 6)
    assert halves_in_order((6, 2), read_left=1, read_right=0) is None
    assert halves_in_order((4, 4), read_left=1, read_right=0) == (4, 4)


def _entry(tiles: list[list[int]], unreadable: int = 0) -> dict[str, Any]:
    count = {"tiles": tiles, "cut_by_frame": [], "unreadable": unreadable}
    return {
        "file": "tiny/photo.jpg",
        "source_repo": "someone/tiny",
        "counts": {"first": count, "second": count},
        "label": {"tiles": tiles, "cut_by_frame": []},
    }


def _photo() -> NDArray[np.uint8]:
    """A 200x400 grey photo with one tile's face drawn as a white box, its left end darker."""
    pixels = np.full((200, 400, 3), 90, np.uint8)
    pixels[50:100, 50:150] = 250
    pixels[50:100, 50:100] = 200
    pixels[120:170, 250:350] = 30  # something else: a dark box
    return pixels


def test_mining_a_tiny_photo_cuts_each_crop_with_its_labels() -> None:
    # The photo was decoded at half size: outlines are in full-photo pixels (twice as big).
    face = DetectedTile(
        pips=(5, 1), confidence=0.9, corners=((100, 100), (300, 100), (300, 200), (100, 200))
    )
    box = DetectedTile(
        pips=(3, 0), confidence=0.5, corners=((500, 240), (700, 240), (700, 340), (500, 340))
    )

    def reread(crops: NDArray[np.uint8]) -> NDArray[np.int64]:
        # The darker end reads as 1, as a half reader counting the crop would.
        left_darker = crops[:, :, :64].mean(axis=(1, 2, 3)) < crops[:, :, 64:].mean(axis=(1, 2, 3))
        return np.array([[1, 5] if dark else [5, 1] for dark in left_darker], np.int64)

    mined = Mined.empty()
    mine_reading(_photo(), 0.5, [face, box], _entry([[5, 1]]), reread, mined)

    assert mined.labels == [(1, 5), (NOT_A_HALF, NOT_A_HALF)]
    assert mined.sources == ["someone/tiny", "someone/tiny"]
    face_crop, box_crop = mined.crops
    assert face_crop.shape == (64, 128, 3)
    assert face_crop[:, 8:56].mean() < face_crop[:, 72:120].mean()  # the 1 end is the darker
    assert face_crop.mean() > 190 and box_crop.mean() < 50
    assert mined.roles == {POSITIVE: 1, NEGATIVE: 1}


def test_nothing_is_mined_as_a_negative_from_a_photo_with_unreadable_shapes() -> None:
    box = DetectedTile(
        pips=(3, 0), confidence=0.5, corners=((500, 240), (700, 240), (700, 340), (500, 340))
    )
    mined = Mined.empty()
    entry = _entry([], unreadable=2)
    assert not label_is_complete(entry)
    mine_reading(
        _photo(), 0.5, [box], entry, lambda crops: np.zeros((len(crops), 2), np.int64), mined
    )
    assert mined.crops == [] and mined.roles == {UNSURE: 1}
