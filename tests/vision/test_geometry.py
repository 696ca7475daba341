"""Tile outlines: one corner order everywhere, overlap and cover measured on convex quads."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.geometry import Quad, order_corners


def box(left: float, top: float, width: float, height: float) -> np.ndarray:
    return np.array(
        [[left, top], [left + width, top], [left + width, top + height], [left, top + height]],
        np.float32,
    )


@pytest.mark.parametrize("order", list(itertools.permutations(range(4))))
def test_any_corner_order_comes_out_clockwise_from_top_left_long_edge_first(
    order: tuple[int, ...],
) -> None:
    lying = box(10, 20, 100, 50)
    standing = box(10, 20, 50, 100)
    assert np.array_equal(order_corners(lying[list(order)]), lying)
    # A standing tile starts at its top-right corner, so the first edge runs down its long side.
    assert np.array_equal(order_corners(standing[list(order)]), standing[[1, 2, 3, 0]])


def test_a_quad_knows_its_long_side_and_overlaps() -> None:
    tile = Quad.of(box(0, 0, 100, 50)[[2, 0, 3, 1]])
    assert tile.long_side == pytest.approx(100)
    assert tile.iou(tile) == pytest.approx(1.0)
    assert tile.iou(Quad.of(box(50, 0, 100, 50))) == pytest.approx(1 / 3)
    assert tile.iou(Quad.of(box(200, 0, 100, 50))) == 0.0


def test_covered_share_adds_the_others() -> None:
    tile = Quad.of(box(0, 0, 100, 50))
    halves = [Quad.of(box(0, 0, 25, 50)), Quad.of(box(75, 0, 25, 50))]
    assert tile.covered_share(halves) == pytest.approx(0.5)
    assert tile.covered_share([]) == 0.0
