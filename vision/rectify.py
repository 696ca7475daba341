"""Warp each found tile to the canonical upright crop the half reader expects."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

CROP_HEIGHT = 64
CROP_WIDTH = 128

_CANONICAL = np.array(
    [[0, 0], [CROP_WIDTH, 0], [CROP_WIDTH, CROP_HEIGHT], [0, CROP_HEIGHT]], dtype=np.float32
)
# warpPerspective treats INTER_AREA as bilinear, which aliases pips when a big tile shrinks
# to 128 px; a tile larger than this factor is first box-filtered down with cv2.resize.
_MAX_WARP_SHRINK = 1.5


def rectify_tiles(
    image_bgr: NDArray[np.uint8], quads: list[NDArray[np.float32]]
) -> NDArray[np.uint8]:
    """Return an (N, 64, 128, 3) uint8 stack, one upright crop per quad.

    Each quad is (4, 2), clockwise from top-left in image pixels, its first edge long, so
    the tile's long axis lands horizontal and its divider at x = 64.
    """
    crops = np.zeros((len(quads), CROP_HEIGHT, CROP_WIDTH, 3), dtype=np.uint8)
    for index, quad in enumerate(quads):
        source, corners = _shrunk_region(image_bgr, np.asarray(quad, dtype=np.float32))
        transform = cv2.getPerspectiveTransform(corners, _CANONICAL)
        crops[index] = cv2.warpPerspective(
            source,
            transform,
            (CROP_WIDTH, CROP_HEIGHT),
            flags=cv2.INTER_AREA,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return crops


def half_middles(quad: NDArray[np.float32]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The middles of the outline's first and second half as rectify_tiles cuts it: the
    crop's left half runs from the quad's last-to-first edge to its middle."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    start, finish = (q[0] + q[3]) / 2, (q[1] + q[2]) / 2
    return 0.75 * start + 0.25 * finish, 0.25 * start + 0.75 * finish


def _shrunk_region(
    image_bgr: NDArray[np.uint8], quad: NDArray[np.float32]
) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    """The quad's bounding region, area-downscaled when the tile is much larger than the crop."""
    corners = quad.reshape(4, 2).astype(np.float32)
    long_edge = max(
        float(np.linalg.norm(corners[1] - corners[0])),
        float(np.linalg.norm(corners[2] - corners[3])),
    )
    shrink = long_edge / CROP_WIDTH
    if shrink <= _MAX_WARP_SHRINK:
        return image_bgr, corners
    height, width = image_bgr.shape[:2]
    x0 = max(int(np.floor(corners[:, 0].min())) - 2, 0)
    y0 = max(int(np.floor(corners[:, 1].min())) - 2, 0)
    x1 = min(int(np.ceil(corners[:, 0].max())) + 3, width)
    y1 = min(int(np.ceil(corners[:, 1].max())) + 3, height)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return image_bgr, corners
    factor = 1.0 / shrink
    region = image_bgr[y0:y1, x0:x1]
    out_w = max(int(round((x1 - x0) * factor)), 1)
    out_h = max(int(round((y1 - y0) * factor)), 1)
    small = cv2.resize(region, (out_w, out_h), interpolation=cv2.INTER_AREA)
    scale = np.array([out_w / (x1 - x0), out_h / (y1 - y0)], dtype=np.float32)
    moved = (corners - np.array([x0, y0], dtype=np.float32)) * scale
    return np.asarray(small, dtype=np.uint8), moved.astype(np.float32)
