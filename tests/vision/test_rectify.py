"""Rectification to the canonical 64x128 crop."""

from __future__ import annotations

import cv2
import numpy as np

from vision.rectify import CROP_HEIGHT, CROP_WIDTH, half_middles, rectify_tiles


def _two_colour_tile(angle: float, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """A photo with one tile whose left half is red and right half blue; returns (photo, quad)."""
    image = np.zeros((int(800 * scale), int(800 * scale), 3), dtype=np.uint8)
    centre = np.array([400.0, 400.0]) * scale
    half_long, half_short = 150.0 * scale, 75.0 * scale
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    local = np.array(
        [
            [-half_long, -half_short],
            [half_long, -half_short],
            [half_long, half_short],
            [-half_long, half_short],
        ]
    )
    quad = (local @ rotation.T + centre).astype(np.float32)
    left = np.array([quad[0], (quad[0] + quad[1]) / 2, (quad[3] + quad[2]) / 2, quad[3]])
    right = np.array([(quad[0] + quad[1]) / 2, quad[1], quad[2], (quad[3] + quad[2]) / 2])
    cv2.fillConvexPoly(image, np.round(left).astype(np.int32), (0, 0, 255))
    cv2.fillConvexPoly(image, np.round(right).astype(np.int32), (255, 0, 0))
    return image, quad


def test_crop_shape_and_halves_land_left_and_right() -> None:
    for angle in (0.0, 0.6, 2.0, -1.2):
        for scale in (0.5, 4.0):  # small tiles are stretched up, large ones box-filtered down
            image, quad = _two_colour_tile(angle, scale)
            crops = rectify_tiles(image, [quad])
            assert crops.shape == (1, CROP_HEIGHT, CROP_WIDTH, 3)
            assert crops.dtype == np.uint8
            left, right = crops[0, 8:-8, 8:56], crops[0, 8:-8, 72:-8]
            assert left[..., 2].mean() > 200 and left[..., 0].mean() < 50, f"angle {angle}"
            assert right[..., 0].mean() > 200 and right[..., 2].mean() < 50, f"angle {angle}"


def test_no_quads_gives_an_empty_batch() -> None:
    crops = rectify_tiles(np.zeros((10, 10, 3), dtype=np.uint8), [])
    assert crops.shape == (0, CROP_HEIGHT, CROP_WIDTH, 3)


def test_the_half_middles_lie_on_the_halves_the_crop_shows_first_and_second() -> None:
    # The table's chains place each counted number where the crop's half was cut from.
    for angle in (0.0, 0.7, 2.0, -2.9):
        image, quad = _two_colour_tile(angle, 1.0)
        first, second = half_middles(quad)
        crop = rectify_tiles(image, [quad])[0]
        assert crop[:, : CROP_WIDTH // 2, 2].mean() > 200  # the first half shows red
        x, y = np.round(first).astype(int)
        assert tuple(image[y, x]) == (0, 0, 255)
        x, y = np.round(second).astype(int)
        assert tuple(image[y, x]) == (255, 0, 0)
