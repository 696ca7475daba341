"""The table renderer: a legal position, drawn where its truth says, the same for a seed."""

from __future__ import annotations

import functools

import cv2
import numpy as np
import pytest

from training.table_synth import TableScene, TableTrain, render_table
from vision.geometry import distance_outside

SIZE = (1008, 756)  # half a 12-MP-like frame's side: the same tables, drawn four times faster


@functools.cache
def table(seed: int, **options: bool) -> TableScene:
    return render_table(seed, size=SIZE, **options)


def _numbers_along(scene: TableScene, train_tiles: tuple[int, ...], start: int) -> list[int]:
    """The number each tile of a train offers onwards, laying it against ``start``."""
    offered = []
    number = start
    for index in train_tiles:
        pips = scene.tiles[index].pips
        assert number in pips, f"tile {pips} laid against a {number}"
        number = pips[0] if pips[1] == number else pips[1]
        offered.append(number)
    return offered


def _short_side(corners: np.ndarray) -> float:
    edges = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return float(min(edges[0] + edges[2], edges[1] + edges[3]) / 2)


def test_same_seed_same_table_and_another_seed_differs() -> None:
    first = render_table(3, size=SIZE)
    again = render_table(3, size=SIZE)
    assert np.array_equal(first.image, again.image)
    assert first.to_json() == again.to_json()
    assert not np.array_equal(first.image, table(4).image)


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_hub_trains_are_a_legal_game(seed: int) -> None:
    scene = table(seed, block=False)
    assert scene.hub is not None
    engine = scene.tiles[scene.hub.engine_tile].pips
    assert engine[0] == engine[1]
    assert 2 <= len(scene.trains) <= 9
    seen: set[int] = set()
    for train in scene.trains:
        assert 1 <= len(train.tiles) <= 15
        offered = _numbers_along(scene, train.tiles, engine[0])
        assert train.end == offered[-1]
        last = scene.tiles[train.tiles[-1]].pips
        assert train.open_double == (last[0] == last[1])
        assert not seen & set(train.tiles)
        seen |= set(train.tiles)
    assert scene.hub.engine_tile not in seen
    assert not seen & set(scene.loose)
    # Every face-up tile is the engine, in a train or loose; and a set holds each tile once.
    assert len(seen) + len(scene.loose) + 1 == len(scene.tiles)
    assert len({tile.pips for tile in scene.tiles}) == len(scene.tiles)
    assert scene.open_ends == tuple(sorted(train.end for train in scene.trains))


def test_a_scene_names_the_set_its_tiles_come_from() -> None:
    # The referee page reads a table photo knowing the game's set; scoring does the same.
    scenes = [table(seed, block=False) for seed in range(6)]
    for scene in scenes:
        assert max(tile.pips[0] for tile in scene.tiles) <= scene.set_max
    assert {scene.set_max for scene in scenes} == {9, 12, 15}


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_each_tile_touches_the_next_in_its_train(seed: int) -> None:
    scene = table(seed, block=False)
    for train in scene.trains:
        for before, after in zip(train.tiles, train.tiles[1:], strict=False):
            a, b = scene.tiles[before], scene.tiles[after]
            assert a.half_centres is not None and b.half_centres is not None
            unit = (_short_side(a.corners) + _short_side(b.corners)) / 2
            # The halves at a joint lie about one short side apart, straight on, at a bend
            # or across a double's long side (its middle).
            points_a = [*a.half_centres, a.corners.mean(axis=0)]
            points_b = [*b.half_centres, b.corners.mean(axis=0)]
            nearest = min(float(np.linalg.norm(p - q)) for p in points_a for q in points_b)
            assert nearest < 1.35 * unit


@pytest.mark.parametrize("seed", range(6))
def test_face_up_tiles_lie_wholly_in_the_picture(seed: int) -> None:
    scene = table(seed)
    height, width = scene.image.shape[:2]
    for tile in scene.tiles:
        assert np.all(tile.corners >= 0)
        assert np.all(tile.corners[:, 0] < width) and np.all(tile.corners[:, 1] < height)


def test_a_block_line_has_no_hub_and_every_arm_starts_at_the_first_tile() -> None:
    scene = table(7, block=True)
    assert scene.hub is None
    assert len(scene.trains) >= 2
    roots = {train.tiles[0] for train in scene.trains}
    assert len(roots) == 1
    (root,) = roots
    first = scene.tiles[root].pips
    for train in scene.trains:
        if len(train.tiles) > 1:
            offered = _numbers_along(scene, train.tiles[1:], train_start(scene, train, first))
            assert train.end == offered[-1]
        else:
            assert train.end in first
    assert len(scene.open_ends) == len(scene.trains)


def train_start(scene: TableScene, train: TableTrain, first: tuple[int, int]) -> int:
    """The root's number an arm is laid against: whichever of the root's halves its first
    tile holds (both, for a double root)."""
    pips = scene.tiles[train.tiles[1]].pips
    return first[0] if first[0] in pips else first[1]


def test_dark_tiles_have_white_pips() -> None:
    scene = table(2, dark_tiles=True)
    face = scene.tiles[0]
    inside = np.zeros(scene.image.shape[:2], np.uint8)
    middle = face.corners.mean(axis=0)
    cv2.fillConvexPoly(
        inside, np.round(middle + (face.corners - middle) * 0.85).astype(np.int32), 1
    )
    values = scene.image.astype(float).mean(axis=2)[inside > 0]
    body = float(np.percentile(values, 20))
    assert body < 90  # a black tile
    assert values.max() > body + 100  # with white pips on it (the engine has at least one)


def test_the_range_the_brief_asks_for() -> None:
    scenes = [table(seed) for seed in range(12)]
    assert any(s.hub is not None and s.hub.plastic for s in scenes)
    assert any(s.hub is not None and not s.hub.plastic for s in scenes)
    assert any(any(train.marker for train in s.trains) for s in scenes)
    assert any(any(train.open_double for train in s.trains) for s in scenes)
    assert any(s.face_down > 0 for s in scenes)
    assert any(s.loose for s in scenes)
    counts = sorted(len(s.tiles) for s in scenes)
    assert counts[len(counts) // 2] >= 20


@pytest.mark.parametrize("scattered", [False, True])
def test_a_marker_lies_nearer_its_own_train_than_any_other(scattered: bool) -> None:
    """Whose marker it is must be plain from the photo: a marker laid as near another train
    as its own could be either's, and a check taught or scored on it learns a coin toss."""
    seen = 0
    for seed in range(30):
        scene = table(seed, scattered_markers=scattered)
        for number, train in enumerate(scene.trains):
            if train.marker_at is None:
                continue
            seen += 1
            own = distance_outside(scene.tiles[train.tiles[0]].corners, train.marker_at)
            others = [
                distance_outside(scene.tiles[index].corners, train.marker_at)
                for other, rival in enumerate(scene.trains)
                if other != number
                for index in rival.tiles
            ]
            # Drawn at a slant, a little looser than on the table itself (CLEARLY_OWN).
            assert min(others, default=np.inf) > 1.1 * own, (seed, number)
    assert seen >= 10


def _long_side(corners: np.ndarray) -> float:
    edges = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return float(max(edges[0] + edges[2], edges[1] + edges[3]) / 2)


@pytest.mark.parametrize("block", [False, True])
def test_a_table_seen_low_shows_fewer_bigger_tiles_still_in_lines(block: bool) -> None:
    # A seated player's close, low shot of the lines in front of them: the finder learns
    # touching tiles seen that way from these (training.scenes_data's "low tables").
    from_above = [table(seed, block=block) for seed in range(4)]
    low = [table(seed, block=block, seen_low=True) for seed in range(4)]
    width = SIZE[0]
    above_sizes = [_long_side(t.corners) / width for s in from_above for t in s.tiles]
    low_sizes = [_long_side(t.corners) / width for s in low for t in s.tiles]
    assert np.median(low_sizes) > 2 * np.median(above_sizes)
    assert np.mean([len(s.tiles) for s in low]) < np.mean([len(s.tiles) for s in from_above])
    for scene in low:
        height, width_px = scene.image.shape[:2]
        assert scene.tiles
        for tile in scene.tiles:
            assert np.all(tile.corners >= 0)
            assert np.all(tile.corners[:, 0] < width_px) and np.all(tile.corners[:, 1] < height)
        if not block:
            assert scene.hub is not None
            engine = scene.tiles[scene.hub.engine_tile].pips[0]
            for train in scene.trains:
                _numbers_along(scene, train.tiles, engine)


def test_checks_under_a_table_change_nothing_on_it() -> None:
    plain = table(7, seen_low=True)
    checked = table(7, seen_low=True, check_patterns=True)
    assert [t.pips for t in plain.tiles] == [t.pips for t in checked.tiles]
    assert plain.trains == checked.trains
    assert not np.array_equal(plain.image, checked.image)


def test_markers_laid_on_tiles_lie_on_their_trains_first_or_last_tile() -> None:
    on_tiles = 0
    for seed in range(12):
        beside = table(seed)
        laid_on = table(seed, markers_on_tiles=True)
        assert [t.pips for t in beside.tiles] == [t.pips for t in laid_on.tiles]
        assert [(t.tiles, t.end, t.marker) for t in beside.trains] == [
            (t.tiles, t.end, t.marker) for t in laid_on.trains
        ]
        for train in laid_on.trains:
            if train.marker_at is None:
                continue
            ends = (train.tiles[0], train.tiles[-1])
            under = min(
                distance_outside(laid_on.tiles[index].corners, train.marker_at) for index in ends
            )
            assert under == 0.0, (seed, train.tiles)
            on_tiles += 1
        if any(train.marker for train in beside.trains):
            assert not np.array_equal(beside.image, laid_on.image)
    assert on_tiles >= 5
