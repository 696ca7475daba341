"""White balance judged by the tiles outlined (vision.balance): pure numpy, no model."""

from __future__ import annotations

import numpy as np
import pytest
from vision_scenes import draw_tile

from vision.balance import (
    GAIN_LIMITS,
    TAUGHT_TINT,
    light_colour,
    white_balanced,
    white_gains,
)

WARM_BULB = np.array([0.55, 0.85, 1.2], np.float32)
"""B, G, R: an orange kitchen bulb a phone did not correct for."""


def _tinted(image: np.ndarray, tint: np.ndarray) -> np.ndarray:
    return np.clip(np.round(image.astype(np.float32) * tint), 0, 255).astype(np.uint8)


def _hand_on(cloth: tuple[int, int, int], tile_body: tuple[int, int, int], ink=(20, 20, 20)):
    """Four tiles on a cloth, and their outlines."""
    image = np.full((600, 800, 3), cloth, np.uint8)
    outlines = [
        draw_tile(image, (150 + 170 * k, 300), 0.2 * k, 150, body=tile_body, ink=ink).astype(
            np.float32
        )
        for k in range(4)
    ]
    return image, outlines


def _tint_left(colour: np.ndarray) -> float:
    """How far white of this colour is from grey: the largest gain, less one, that would
    make it grey."""
    return float(np.abs(colour.mean() / np.maximum(colour, 1.0) - 1.0).max())


WITHIN_TAUGHT = TAUGHT_TINT + 0.03
"""What a balanced photo's white may keep: the tint the models were taught, and rounding."""


def test_tiles_under_a_warm_bulb_come_out_white_on_a_pale_board_brighter_than_they_are() -> None:
    # The pale board is brighter than the tiles: balanced by the photo's brightest pixels,
    # the tiles would stay far from white.
    image, outlines = _hand_on(cloth=(255, 255, 200), tile_body=(200, 205, 208))
    warm = _tinted(image, WARM_BULB)
    face_before = light_colour(warm, outlines)
    assert face_before is not None and _tint_left(face_before) > 0.3
    height, width = warm.shape[:2]
    whole_photo = [np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)]
    by_brightest = light_colour(white_balanced(warm, whole_photo), outlines)
    assert by_brightest is not None and _tint_left(by_brightest) > 0.2, by_brightest
    balanced = white_balanced(warm, outlines)
    face_after = light_colour(balanced, outlines)
    assert face_after is not None
    assert _tint_left(face_after) <= WITHIN_TAUGHT, face_after
    # The tiles keep their brightness: nothing is stretched, only made neutral.
    assert abs(float(face_after.mean()) - float(face_before.mean())) < 12


def test_black_tiles_are_balanced_by_their_white_pips() -> None:
    image, outlines = _hand_on(cloth=(60, 90, 50), tile_body=(25, 25, 25), ink=(240, 240, 240))
    warm = _tinted(image, WARM_BULB)
    balanced = white_balanced(warm, outlines)
    pips = light_colour(balanced, outlines)
    assert pips is not None and _tint_left(pips) <= WITHIN_TAUGHT, pips


def test_a_neutral_photo_is_left_as_it_is_not_copied() -> None:
    image, outlines = _hand_on(cloth=(60, 90, 50), tile_body=(230, 232, 233))
    assert white_balanced(image, outlines) is image


def test_a_tint_the_models_were_taught_is_left_alone() -> None:
    # Ivory tiles under a slightly warm light: the renderer tints its scenes as much.
    image, outlines = _hand_on(cloth=(60, 90, 50), tile_body=(205, 225, 240))
    assert _tint_left(light_colour(image, outlines)) < TAUGHT_TINT  # type: ignore[arg-type]
    assert white_balanced(image, outlines) is image


def test_outlines_that_cover_almost_nothing_leave_the_photo_alone() -> None:
    image, _ = _hand_on(cloth=(60, 90, 50), tile_body=(230, 232, 233))
    warm = _tinted(image, WARM_BULB)
    speck = [np.array([[10, 10], [12, 10], [12, 12], [10, 12]], np.float32)]
    assert light_colour(warm, speck) is None
    assert white_balanced(warm, speck) is warm
    assert white_balanced(warm, []) is warm


def test_gains_stay_within_their_limits_for_a_set_moulded_in_strong_red() -> None:
    image, outlines = _hand_on(cloth=(60, 90, 50), tile_body=(30, 30, 220))
    gains = white_gains(image, outlines)
    assert gains.min() >= GAIN_LIMITS[0] - 1e-6
    assert gains.max() <= GAIN_LIMITS[1] + 1e-6


def test_outlines_in_the_photos_own_pixels_are_read_at_any_photo_size() -> None:
    image, outlines = _hand_on(cloth=(250, 235, 60), tile_body=(232, 236, 238))
    small = light_colour(_tinted(image, WARM_BULB), outlines)
    big_image = np.repeat(np.repeat(image, 2, axis=0), 2, axis=1)
    big = light_colour(_tinted(big_image, WARM_BULB), [outline * 2 for outline in outlines])
    assert small is not None and big is not None
    assert np.abs(small - big).max() <= 3


def test_a_photo_that_is_not_three_channels_is_refused() -> None:
    with pytest.raises(ValueError, match="expected an"):
        light_colour(np.zeros((10, 10), np.uint8), [])
