"""Tile outlines: one corner order everywhere, overlap and cover measured on convex quads."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.geometry import (
    Quad,
    covered_share,
    cut_to_neighbours,
    distance_outside,
    long_axis,
    order_corners,
)


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


def _tile(centre_x: float, centre_y: float, long: float, short: float) -> np.ndarray:
    """A tile lying along the x axis."""
    x, y = long / 2, short / 2
    corners = [(-x, -y), (x, -y), (x, y), (-x, y)]
    return np.array([(centre_x + a, centre_y + b) for a, b in corners], np.float32)


def _line_of_tiles(count: int) -> list[np.ndarray]:
    return [_tile(100.0 + 102.0 * index, 300.0, 100.0, 50.0) for index in range(count)]


def test_an_outline_run_onto_the_next_tile_is_cut_back_to_its_neighbours_size() -> None:
    outlines = _line_of_tiles(7)
    outlines[3] = _tile(100.0 + 102.0 * 3, 301.0, 140.0, 60.0)  # loose, over both joints
    cut = cut_to_neighbours(outlines)
    unit, long, short = long_axis(cut[3])
    assert long == pytest.approx(100.0, abs=0.5)
    assert short == pytest.approx(50.0, abs=0.5)
    assert abs(unit[0]) == pytest.approx(1.0)
    assert cut[3].mean(axis=0) == pytest.approx(outlines[3].mean(axis=0))
    # It no longer lies on the tiles either side of it.
    assert covered_share(cut[3], [outlines[2], outlines[4]]) == pytest.approx(0.0, abs=0.02)
    for index in (0, 1, 2, 4, 5, 6):
        assert cut[index] is outlines[index]


@pytest.mark.parametrize(
    "odd_one",
    [
        _tile(406.0, 300.0, 50.0, 100.0),  # a double laid crosswise: the tiles' own size
        _tile(406.0, 300.0, 100.0, 104.0),  # two tiles side by side, read as one outline
        _tile(406.0, 300.0, 115.0, 50.0),  # a little loose: left to the fitter's reading
    ],
)
def test_a_crosswise_double_two_tiles_side_by_side_and_a_little_looseness_are_kept(
    odd_one: np.ndarray,
) -> None:
    outlines = _line_of_tiles(7)
    outlines[3] = odd_one
    cut = cut_to_neighbours(outlines)
    assert all(new is old for new, old in zip(cut, outlines, strict=True))


def test_a_few_outlines_give_no_size_to_judge_by() -> None:
    outlines = _line_of_tiles(4)
    outlines[1] = _tile(202.0, 300.0, 150.0, 50.0)
    assert all(new is old for new, old in zip(cut_to_neighbours(outlines), outlines, strict=True))


def test_tiles_pointing_another_way_do_not_set_the_size() -> None:
    # Seen at a slant, tiles pointing away from the camera look shorter than those lying
    # across its view: a line across it is not cut to the others' length.
    across = _line_of_tiles(5)
    away = [_tile(60.0 * index, 420.0, 70.0, 50.0)[:, ::-1].copy() for index in range(6)]
    assert all(abs(long_axis(outline)[0][1]) == pytest.approx(1.0) for outline in away)
    outlines = [*across, *away]
    assert all(new is old for new, old in zip(cut_to_neighbours(outlines), outlines, strict=True))


def test_outlines_of_no_size_are_no_size_to_cut_to() -> None:
    outlines = [np.zeros((4, 2), np.float32) + 50.0 * index for index in range(6)]
    outlines.append(_tile(150.0, 150.0, 100.0, 50.0))
    cut = cut_to_neighbours(outlines)
    assert all(new is old for new, old in zip(cut, outlines, strict=True))


@pytest.mark.parametrize(
    ("point", "distance"),
    [((50.0, 20.0), 0.0), ((100.0, 20.0), 0.0), ((130.0, 20.0), 30.0), ((50.0, 0.0), 10.0)],
)
def test_how_far_a_point_lies_outside_an_outline(
    point: tuple[float, float], distance: float
) -> None:
    assert distance_outside(box(0, 10, 100, 20), point) == pytest.approx(distance)
