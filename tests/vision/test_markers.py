"""Train markers found beside a train's start on drawn tables (no model), and what the
marker check is shown."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.markers import (
    VIEW_ACROSS,
    VIEW_ALONG,
    VIEW_CHANNELS,
    VIEW_SCALE,
    VIEW_SHAPE,
    MarkerCheck,
    marker_views,
    settled,
    train_markers,
    with_markers,
)
from vision.table import Hub, TableLayout, Train
from vision.types import DetectedTile

SHORT = 30  # a tile's short side in pixels
CENTRE = (400, 400)
HEADINGS = (0.0, 90.0, 180.0, 270.0)  # four trains round the hub, degrees


def _tile_outline(heading: float, step: int) -> tuple[tuple[int, int], ...]:
    """The outline of a train's ``step``-th tile going out from the hub at ``heading``."""
    along = np.array([math.cos(math.radians(heading)), math.sin(math.radians(heading))])
    across = np.array([-along[1], along[0]])
    inner = np.array(CENTRE, float) + along * (2.5 * SHORT + step * 2 * SHORT)
    corners = [
        inner - across * SHORT / 2,
        inner + along * 2 * SHORT - across * SHORT / 2,
        inner + along * 2 * SHORT + across * SHORT / 2,
        inner + across * SHORT / 2,
    ]
    return tuple((int(round(x)), int(round(y))) for x, y in corners)


def _table(
    background: np.ndarray, hub: bool = True, headings: tuple[float, ...] = HEADINGS
) -> tuple[np.ndarray, TableLayout, list[tuple[tuple[int, int], ...]]]:
    image = background.copy()
    tiles: list[DetectedTile] = []
    trains: list[Train] = []
    firsts = []
    for heading in headings:
        members = []
        for step in range(3):
            outline = _tile_outline(heading, step)
            cv2.fillConvexPoly(image, np.array(outline, np.int32), (235, 235, 235))
            members.append(len(tiles))
            tiles.append(DetectedTile(pips=(3, 3), confidence=0.95, corners=outline))
        firsts.append(tiles[members[0]].corners)
        trains.append(Train(tiles=tuple(members), end=3, open_double=False, confidence=0.95))
    layout = TableLayout(
        tiles=tuple(tiles),
        hub=Hub(None, CENTRE) if hub else None,
        trains=tuple(trains),
        open_ends=(3,) * len(trains),
        loose=(),
        unsure=(),
        mended=(),
    )
    return image, layout, firsts


def _beside(first: tuple[tuple[int, int], ...], heading: float) -> tuple[int, int]:
    """A spot 1.45 short sides to the side of a first tile's middle."""
    middle = np.mean(np.array(first, float), axis=0)
    across = np.array([-math.sin(math.radians(heading)), math.cos(math.radians(heading))])
    x, y = middle + across * 1.45 * SHORT
    return int(round(x)), int(round(y))


def _plain(colour: tuple[int, int, int] = (40, 90, 40)) -> np.ndarray:
    return np.full((800, 800, 3), colour, np.uint8)


def _checked() -> np.ndarray:
    """A cloth of two colours in squares three short sides wide."""
    image = _plain((60, 110, 60))
    square = 3 * SHORT
    for row in range(0, 800, square):
        for col in range(0, 800, square):
            if (row // square + col // square) % 2:
                image[row : row + square, col : col + square] = (20, 30, 20)
    return image


def test_a_coin_beside_one_train_marks_that_train_only() -> None:
    image, layout, firsts = _table(_plain())
    cv2.circle(image, _beside(firsts[1], HEADINGS[1]), int(0.5 * SHORT), (40, 140, 190), -1)
    assert train_markers(image, 1.0, layout) == (False, True, False, False)


def test_a_toy_train_counts_as_well_as_a_coin() -> None:
    image, layout, firsts = _table(_plain())
    x, y = _beside(firsts[2], HEADINGS[2])
    cv2.rectangle(image, (x - 20, y - 9), (x + 20, y + 9), (30, 30, 200), -1)
    assert train_markers(image, 1.0, layout)[2] is True


def test_a_plain_table_has_no_markers_at_any_scale() -> None:
    image, layout, _ = _table(_plain())
    half = cv2.resize(image, (400, 400), interpolation=cv2.INTER_AREA)
    assert train_markers(image, 1.0, layout) == (False,) * 4
    assert train_markers(half, 0.5, layout) == (False,) * 4


def test_a_checked_cloth_is_not_taken_for_markers() -> None:
    image, layout, _ = _table(_checked())
    assert True not in train_markers(image, 1.0, layout)


def test_a_faint_marker_is_asked_about_not_called_absent() -> None:
    image, layout, firsts = _table(_plain((150, 150, 150)))
    cv2.circle(image, _beside(firsts[0], HEADINGS[0]), int(0.5 * SHORT), (163, 163, 163), -1)
    assert train_markers(image, 1.0, layout)[0] is None


def test_a_marker_midway_between_two_trains_is_asked_about() -> None:
    # Round a bare engine the trains lie closer: here two of them an eighth of a turn apart.
    image, layout, firsts = _table(_plain(), headings=(0.0, 45.0, 180.0, 270.0))
    a = np.mean(np.array(firsts[0], float), axis=0)
    b = np.mean(np.array(firsts[1], float), axis=0)
    x, y = (a + b) / 2
    cv2.circle(image, (int(x), int(y)), int(0.5 * SHORT), (40, 140, 190), -1)
    found = train_markers(image, 1.0, layout)
    assert found[0] is None and found[1] is None


def test_without_a_hub_nobody_has_a_marker_to_find() -> None:
    image, layout, firsts = _table(_plain(), hub=False)
    cv2.circle(image, _beside(firsts[1], HEADINGS[1]), int(0.5 * SHORT), (40, 140, 190), -1)
    assert train_markers(image, 1.0, layout) == (None,) * 4


def test_markers_are_set_on_the_layouts_trains() -> None:
    _, layout, _ = _table(_plain())
    marked = with_markers(layout, (True, None, False, False))
    assert [train.marker for train in marked.trains] == [True, None, False, False]
    assert [train.tiles for train in marked.trains] == [train.tiles for train in layout.trains]


@pytest.mark.parametrize("heading_index", range(4))
def test_the_marker_is_found_whichever_way_the_train_points(heading_index: int) -> None:
    image, layout, firsts = _table(_plain())
    heading = HEADINGS[heading_index]
    cv2.circle(image, _beside(firsts[heading_index], heading), int(0.45 * SHORT), (200, 60, 60), -1)
    found = train_markers(image, 1.0, layout)
    assert found[heading_index] is True
    assert sum(1 for value in found if value) == 1


def test_a_marker_beside_one_of_two_close_trains_is_that_trains() -> None:
    # Trains leaving the hub 50 degrees apart: the coin lies beside the first train on the
    # side facing the second, a third nearer the first (as the renderer lays them, and as
    # players do at a crowded hub).
    image, layout, firsts = _table(_plain(), headings=(0.0, 50.0, 180.0, 270.0))
    x, y = _beside(firsts[0], 0.0)
    cv2.circle(image, (x, y), int(0.5 * SHORT), (40, 140, 190), -1)
    found = train_markers(image, 1.0, layout)
    assert found[0] is True and found[1] is False


def test_a_faint_ring_a_glass_left_is_not_taken_for_a_faint_marker() -> None:
    # A faint ring on a grey table beside a train's start: a marker's size, but hollow.
    image, layout, firsts = _table(_plain((150, 150, 150)))
    x, y = _beside(firsts[0], HEADINGS[0])
    cv2.circle(image, (x + SHORT // 2, y), int(0.65 * SHORT), (163, 163, 163), 10)
    assert train_markers(image, 1.0, layout)[0] is False


def _octagon(circumradius: float) -> np.ndarray:
    """An eight-sided hub's outline round the table's centre, in short sides."""
    return (
        np.array(
            [
                (
                    CENTRE[0] + circumradius * SHORT * math.cos(math.radians(22.5 + 45 * k)),
                    CENTRE[1] + circumradius * SHORT * math.sin(math.radians(22.5 + 45 * k)),
                )
                for k in range(8)
            ]
        )
        .round()
        .astype(np.int32)
    )


def test_an_eight_sided_hubs_rim_beside_the_trains_is_not_a_marker() -> None:
    # A plastic hub on a checked cloth, its top and its darker side standing out past the
    # first tiles' inner ends (the tiles lie in its slots, over the rim): four colours round
    # each train's start, and no marker anywhere.
    background = _checked()
    colour = np.array([160.0, 40.0, 150.0])
    cv2.fillConvexPoly(background, _octagon(3.3), (colour * 0.6).tolist())
    cv2.fillConvexPoly(background, _octagon(3.1), colour.tolist())
    image, layout, _ = _table(background)
    assert train_markers(image, 1.0, layout) == (False,) * 4


# --------------------------------------------------------------------------- the marker check


def _view_point(along_short: float, across_short: float) -> tuple[int, int]:
    """The view pixel (row, column) of a point so many short sides from a train's inner end."""
    row = int((along_short - VIEW_ALONG[0]) * VIEW_SCALE)
    column = int((across_short + VIEW_ACROSS) * VIEW_SCALE)
    return row, column


@pytest.mark.parametrize("heading_index", range(4))
def test_a_view_turns_the_train_to_run_down_from_the_hub(heading_index: int) -> None:
    image, layout, firsts = _table(_plain())
    heading = HEADINGS[heading_index]
    coin = (40, 140, 190)
    cv2.circle(image, _beside(firsts[heading_index], heading), int(0.5 * SHORT), coin, -1)
    view = marker_views(image, 1.0, layout)[heading_index]
    assert view is not None and view.shape == (*VIEW_SHAPE, VIEW_CHANNELS)
    colour = np.round(view[..., :3] * 255)
    # The first tile's middle lies one short side out from its inner end; the coin 1.45 to
    # the side the renderer's "across" points, which the view puts on its right.
    assert np.abs(colour[_view_point(1.0, 1.45)] - coin).max() <= 4
    assert np.abs(colour[_view_point(1.0, -1.45)] - (40, 90, 40)).max() <= 4
    assert view[(*_view_point(1.0, 0.0), 3)] == 1.0  # on the first tile
    assert view[(*_view_point(1.0, 1.45), 3)] == 0.0
    assert view[(*_view_point(-0.8, 0.0), 4)] == 1.0  # inside the hub's reach
    assert view[(*_view_point(3.5, 0.0), 4)] == 0.0


def test_a_view_is_the_same_from_a_smaller_photo() -> None:
    image, layout, firsts = _table(_plain())
    cv2.circle(image, _beside(firsts[0], HEADINGS[0]), int(0.5 * SHORT), (40, 140, 190), -1)
    half = cv2.resize(image, (400, 400), interpolation=cv2.INTER_AREA)
    full = marker_views(image, 1.0, layout)[0]
    small = marker_views(half, 0.5, layout)[0]
    assert full is not None and small is not None
    assert float(np.abs(full - small).mean()) < 0.03


def test_no_view_is_given_without_a_hub() -> None:
    image, layout, _ = _table(_plain(), hub=False)
    assert marker_views(image, 1.0, layout) == (None,) * 4


@pytest.mark.parametrize(
    ("blobs", "chance", "marker"),
    [
        (None, 0.9, True),  # a clear check answers a doubt
        (None, 0.1, False),
        (False, 0.9, True),  # and what the blobs saw
        (True, 0.1, False),
        (None, 0.5, None),  # an unclear one leaves the blobs' answer, a doubt included
        (True, 0.47, True),
        (False, 0.53, False),
        (True, None, True),  # no view: nothing was asked of the check
    ],
)
def test_a_clear_check_answers_and_an_unclear_one_leaves_the_blobs_answer(
    blobs: bool | None, chance: float | None, marker: bool | None
) -> None:
    assert settled(blobs, chance) is marker


class FixedCheck:
    """Gives every view it is shown the one chance; remembers which trains had a view."""

    def __init__(self, chance: float) -> None:
        self.chance = chance
        self.shown: list[bool] = []

    def chances(self, views: Sequence[NDArray[np.float32] | None]) -> tuple[float | None, ...]:
        self.shown = [view is not None for view in views]
        return tuple(None if view is None else self.chance for view in views)


def test_a_doubt_the_check_is_clear_about_is_settled() -> None:
    image, layout, firsts = _table(_plain((150, 150, 150)))
    cv2.circle(image, _beside(firsts[0], HEADINGS[0]), int(0.5 * SHORT), (163, 163, 163), -1)
    assert train_markers(image, 1.0, layout)[0] is None
    check = FixedCheck(0.99)
    assert train_markers(image, 1.0, layout, check) == (True,) * 4
    assert check.shown == [True] * 4


def test_an_unclear_check_leaves_the_blob_look_as_it_was() -> None:
    image, layout, firsts = _table(_plain((150, 150, 150)))
    cv2.circle(image, _beside(firsts[0], HEADINGS[0]), int(0.5 * SHORT), (163, 163, 163), -1)
    assert train_markers(image, 1.0, layout, FixedCheck(0.5)) == train_markers(image, 1.0, layout)


def test_without_a_hub_the_check_is_shown_nothing() -> None:
    image, layout, _ = _table(_plain(), hub=False)
    check = FixedCheck(0.99)
    assert train_markers(image, 1.0, layout, check) == (None,) * 4
    assert check.shown == [False] * 4


def test_a_missing_marker_check_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="marker check"):
        MarkerCheck(tmp_path / "markers.onnx")


def _tile_middle(outline: tuple[tuple[int, int], ...]) -> tuple[int, int]:
    x, y = np.mean(np.array(outline, float), axis=0)
    return int(round(x)), int(round(y))


def _pips(image: np.ndarray, outline: tuple[tuple[int, int], ...], heading: float) -> None:
    """Four pips on each half, crowded as an 8's are, in a dark colour."""
    along = np.array([math.cos(math.radians(heading)), math.sin(math.radians(heading))])
    across = np.array([-along[1], along[0]])
    middle = np.mean(np.array(outline, float), axis=0)
    for half in (-0.5, 0.5):
        for a in (-0.2, 0.2):
            for b in (-0.2, 0.2):
                x, y = middle + along * (half + a) * SHORT + across * b * SHORT
                cv2.circle(
                    image, (int(round(x)), int(round(y))), int(0.1 * SHORT), (30, 30, 30), -1
                )


def test_a_coin_laid_on_a_trains_last_tile_marks_that_train() -> None:
    image, layout, _ = _table(_plain())
    last = layout.tiles[layout.trains[3].tiles[-1]].corners
    cv2.circle(image, _tile_middle(last), int(0.5 * SHORT), (40, 140, 190), -1)
    assert train_markers(image, 1.0, layout) == (False, False, False, True)


def test_a_toy_train_laid_on_a_trains_first_tile_marks_that_train() -> None:
    image, layout, firsts = _table(_plain())
    x, y = _tile_middle(firsts[0])
    cv2.rectangle(image, (x - 20, y - 10), (x + 20, y + 10), (30, 30, 200), -1)
    assert train_markers(image, 1.0, layout)[0] is True


def test_a_coin_on_a_middle_tile_is_no_trains_marker() -> None:
    image, layout, _ = _table(_plain())
    middle = layout.tiles[layout.trains[1].tiles[1]].corners
    cv2.circle(image, _tile_middle(middle), int(0.5 * SHORT), (40, 140, 190), -1)
    assert train_markers(image, 1.0, layout) == (False,) * 4


def test_crowded_pips_are_not_a_marker_on_the_tile() -> None:
    image, layout, _ = _table(_plain())
    for train, heading in zip(layout.trains, HEADINGS, strict=True):
        for index in (train.tiles[0], train.tiles[-1]):
            _pips(image, layout.tiles[index].corners, heading)
    assert train_markers(image, 1.0, layout) == (False,) * 4


def test_glare_fading_over_a_tile_is_not_a_marker_on_it() -> None:
    image, layout, firsts = _table(_plain((40, 40, 40)))
    dark = np.zeros_like(image)
    for outline in (tile.corners for tile in layout.tiles):
        cv2.fillConvexPoly(dark, np.array(outline, np.int32), (25, 25, 25))
    image = np.where(dark > 0, dark, image).astype(np.uint8)
    x, y = _tile_middle(firsts[2])
    ys, xs = np.mgrid[0:800, 0:800]
    glow = np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * (0.6 * SHORT) ** 2)) * 150
    # On the tiles only: glare spilling onto the table is the blob look's business.
    glow = np.where(dark[..., 0] > 0, glow, 0)
    image = np.clip(image + glow[..., None], 0, 255).astype(np.uint8)
    assert train_markers(image, 1.0, layout)[2] is not True
