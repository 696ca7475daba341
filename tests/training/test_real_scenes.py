"""Real photos as tile-finder scenes (issue 25, point 3): what the label says of each reported
outline, and which photos cannot be used."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from training.real_scenes import scene_of, sort_readings
from vision.types import DetectedTile, HandReading


def test_labelled_tiles_are_faces_and_unlabelled_ones_on_a_complete_photo_are_not() -> None:
    result = sort_readings([(6, 4), (1, 3), (2, 2)], tiles=[[6, 4], [3, 1]], cut=[], complete=True)
    assert (result.faces, result.not_tiles, result.left_alone, result.missed) == (
        [0, 1],
        [2],
        [],
        0,
    )


def test_a_tile_read_more_often_than_labelled_is_left_alone_every_time() -> None:
    # A printed domino and a real tile with the same pips: which is which is not known.
    result = sort_readings([(5, 5), (5, 5), (0, 0)], tiles=[[5, 5]], cut=[], complete=True)
    assert result.faces == [] and result.left_alone == [0, 1] and result.not_tiles == [2]


def test_a_reading_that_may_be_a_missed_tile_misread_is_left_alone() -> None:
    result = sort_readings([(6, 3), (2, 0)], tiles=[[6, 4]], cut=[], complete=True)
    assert result.left_alone == [0] and result.not_tiles == [1] and result.missed == 1


def test_nothing_is_taught_as_not_a_tile_on_a_photo_with_unreadable_shapes() -> None:
    result = sort_readings([(2, 0)], tiles=[], cut=[], complete=False)
    assert result.not_tiles == [] and result.left_alone == [0]


def test_a_reading_that_may_be_a_frame_cut_tile_is_left_alone() -> None:
    result = sort_readings([(4, 1)], tiles=[], cut=[[4, None]], complete=True)
    assert result.left_alone == [0]


def _entry(tiles: list[list[int]]) -> dict[str, Any]:
    count = {"tiles": tiles, "cut_by_frame": [], "unreadable": 0}
    return {
        "file": "tiny/photo.jpg",
        "source_repo": "jesperes/mexican",
        "counts": {"first": count, "second": count},
        "label": {"tiles": tiles, "cut_by_frame": []},
    }


def _tile(pips: tuple[int, int], x: int) -> DetectedTile:
    return DetectedTile(
        pips=pips, confidence=0.9, corners=((x, 100), (x + 200, 100), (x + 200, 200), (x, 200))
    )


def test_a_photo_stores_its_outlines_at_the_fine_looks_size() -> None:
    # A 3072-wide photo decoded at 2000: the stored photo is 1536 wide, half the photo's size.
    reading = HandReading(width=3072, height=2048, tiles=(_tile((5, 1), 100),), ms=1)
    pixels = np.zeros((1333, 2000, 3), np.uint8)
    scene = scene_of(reading, pixels, _entry([[5, 1]]))
    assert scene is not None
    assert scene.fold == "every other source"
    assert np.allclose(scene.faces[0].min(axis=0), (50, 50))
    assert len(scene.left_alone) == 0 and scene.not_tiles == 0


def test_a_small_photo_is_stored_at_its_own_size_not_enlarged() -> None:
    # karthik's 640x480 photos: a tile 200 pixels wide must stay 200 wide, as the finder meets it.
    reading = HandReading(width=640, height=480, tiles=(_tile((5, 1), 100),), ms=1)
    pixels = np.zeros((480, 640, 3), np.uint8)
    scene = scene_of(reading, pixels, _entry([[5, 1]]))
    assert scene is not None
    stored = cv2.imdecode(np.frombuffer(scene.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert stored.shape[:2] == (480, 640)
    assert np.allclose(scene.faces[0].min(axis=0), (100, 100))
    assert np.allclose(scene.faces[0].max(axis=0), (300, 200))


def test_a_photo_with_a_missed_tile_and_no_unsure_place_for_it_is_not_used() -> None:
    reading = HandReading(width=3072, height=2048, tiles=(_tile((5, 1), 100),), ms=1)
    pixels = np.zeros((1333, 2000, 3), np.uint8)
    assert scene_of(reading, pixels, _entry([[5, 1], [6, 6]])) is None
    hinted = HandReading(
        width=3072,
        height=2048,
        tiles=(_tile((5, 1), 100),),
        ms=1,
        hints=(((900, 100), (1100, 100), (1100, 200), (900, 200)),),
    )
    scene = scene_of(hinted, pixels, _entry([[5, 1], [6, 6]]))
    assert scene is not None and len(scene.left_alone) == 1
