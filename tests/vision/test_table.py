"""Grouping a table's tiles into the hub, trains and free ends (vision/table.py, no model)."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from training.table_synth import TableScene, render_table
from vision.geometry import outline_iou
from vision.table import (
    ACROSS,
    UNSURE_CONFIDENCE,
    TableLayout,
    continuing_reading,
    group_table,
    inner_numbers,
    lone_tiles_towards_hub,
    next_tile_outline,
    tile_before_outline,
)
from vision.types import DetectedTile, HalfSeen

SIZE = (1008, 756)


@functools.cache
def table(seed: int, block: bool = False) -> TableScene:
    return render_table(seed, size=SIZE, block=block)


def detections(scene: TableScene) -> list[DetectedTile]:
    """The renderer's true tiles as a perfect finder and reader would report them."""
    return [
        DetectedTile(
            pips=tile.pips,
            confidence=0.97,
            corners=tuple((int(round(x)), int(round(y))) for x, y in tile.corners),
        )
        for tile in scene.tiles
    ]


def trains_of(layout: TableLayout | TableScene) -> list[tuple[tuple[int, ...], int, bool]]:
    return sorted((train.tiles, train.end, train.open_double) for train in layout.trains)


def tile(
    pips: tuple[int, int],
    centre: tuple[float, float],
    angle: float,
    short: float = 40.0,
    confidence: float = 0.95,
    alternatives: tuple[tuple[tuple[int, int], float], ...] = (),
) -> DetectedTile:
    """A tile lying at ``centre``, its long side along ``angle`` (radians)."""
    ux, uy = math.cos(angle) * short, math.sin(angle) * short
    vx, vy = -uy / 2, ux / 2
    cx, cy = centre
    corners = [
        (cx - ux - vx, cy - uy - vy),
        (cx + ux - vx, cy + uy - vy),
        (cx + ux + vx, cy + uy + vy),
        (cx - ux + vx, cy - uy + vy),
    ]
    return DetectedTile(
        pips=(max(pips), min(pips)),
        confidence=confidence,
        corners=tuple((int(round(x)), int(round(y))) for x, y in corners),
        alternatives=alternatives,
    )


# --------------------------------------------------------------------------- rendered tables


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5, 6, 8, 9])
def test_perfect_detections_of_a_rendered_table_give_its_exact_position(seed: int) -> None:
    scene = table(seed)
    assert scene.hub is not None
    layout = group_table(detections(scene))
    assert layout.hub is not None
    assert layout.hub.engine_tile == scene.hub.engine_tile
    assert trains_of(layout) == trains_of(scene)
    assert layout.open_ends == scene.open_ends
    assert layout.loose == scene.loose
    assert layout.unsure == () and layout.mended == ()


@pytest.mark.parametrize("seed", [800_000_132, 800_000_163, 800_000_232, 800_000_306])
def test_a_double_inside_a_train_is_not_taken_for_the_engine_where_a_hub_is_expected(
    seed: int,
) -> None:
    # Tables of two trains where a double lying crosswise in one of them has the other
    # train's end pointing at it: the engine stays the engine, at the referee page too.
    # (Tuning tables of training.score_tables, rendered as it renders them.)
    scene = render_table(seed)
    assert scene.hub is not None
    layout = group_table(detections(scene), hub_expected=True)
    assert layout.hub is not None
    assert layout.hub.engine_tile == scene.hub.engine_tile
    assert trains_of(layout) == trains_of(scene)
    assert layout.open_ends == scene.open_ends


def test_a_train_bent_back_towards_the_hub_starts_at_its_tile_with_the_engines_number() -> None:
    # Tuning table 800,000,183 (rendered as training.score_tables renders it): the long train
    # turns back, and a 4-4 lying crosswise in it comes to face the hub nearer than the train's
    # first tile, a 6-0 in the round of 0s. Knowing the round, the train starts at the 6-0.
    scene = render_table(800_000_183)
    assert scene.hub is not None and scene.hub.engine_tile is not None
    engine = scene.tiles[scene.hub.engine_tile].pips[0]
    layout = group_table(detections(scene), round_engine=engine)
    assert trains_of(layout) == trains_of(scene)
    assert layout.open_ends == scene.open_ends


@pytest.mark.parametrize("seed", [25, 31, 40])
def test_a_rendered_block_line_gives_its_free_ends(seed: int) -> None:
    scene = table(seed, block=True)
    layout = group_table(detections(scene))
    assert layout.hub is None
    assert layout.open_ends == scene.open_ends
    chained = {index for train in layout.trains for index in train.tiles}
    assert chained == {index for train in scene.trains for index in train.tiles}
    assert layout.unsure == ()


def _misread_in_the_middle(scene: TableScene) -> tuple[int, tuple[int, int]]:
    """A plain tile inside the longest train, and a reading of it one pip off."""
    longest = max(scene.trains, key=lambda train: len(train.tiles))
    for index in longest.tiles[1:-1]:
        pips = scene.tiles[index].pips
        if pips[0] != pips[1]:
            wrong = (pips[0], (pips[1] + 1) % 10)
            if wrong[0] != wrong[1] and (max(wrong), min(wrong)) not in {
                t.pips for t in scene.tiles
            }:
                return index, (max(wrong), min(wrong))
    raise AssertionError("no plain tile to misread")  # pragma: no cover


@pytest.mark.parametrize("seed", [0, 4, 6])
def test_a_misread_tile_whose_other_reading_fits_its_joints_is_mended(seed: int) -> None:
    scene = table(seed)
    tiles = detections(scene)
    index, wrong = _misread_in_the_middle(scene)
    right = scene.tiles[index].pips
    tiles[index] = replace(tiles[index], pips=wrong, confidence=0.6, alternatives=((right, 0.3),))
    layout = group_table(tiles)
    assert layout.tiles[index].pips == right
    assert layout.mended == (index,)
    assert trains_of(layout) == trains_of(scene)
    assert layout.open_ends == scene.open_ends


@pytest.mark.parametrize("seed", [0, 4, 6])
def test_a_misread_tile_with_no_fitting_reading_marks_its_joint_unsure(seed: int) -> None:
    scene = table(seed)
    tiles = detections(scene)
    index, wrong = _misread_in_the_middle(scene)
    tiles[index] = replace(tiles[index], pips=wrong)
    layout = group_table(tiles)
    assert index in layout.unsure
    assert layout.tiles[index].confidence <= UNSURE_CONFIDENCE
    train = next(t for t in layout.trains if index in t.tiles)
    assert train.confidence <= UNSURE_CONFIDENCE
    # The tile on the other side of the broken joint is unsure too; the rest are not.
    assert 2 <= len(layout.unsure) <= 3


# --------------------------------------------------------------------------- drawn by hand


def test_a_single_tile_offers_both_its_numbers() -> None:
    layout = group_table([tile((6, 2), (300, 300), 0.3)])
    assert layout.hub is None
    assert layout.open_ends == (2, 6)
    assert layout.loose == ()


def test_tiles_apart_from_each_other_are_loose_and_no_photo_is_an_empty_table() -> None:
    layout = group_table([tile((6, 2), (100, 100), 0.0), tile((5, 1), (600, 400), 1.0)])
    assert layout.trains == () and layout.loose == (0, 1) and layout.open_ends == ()
    empty = group_table([])
    assert empty.trains == () and empty.hub is None and empty.open_ends == ()


def test_a_line_through_a_crosswise_double_and_round_a_bend() -> None:
    s = 40.0  # short side: a tile is 80 x 40 pixels
    tiles = [
        tile((3, 1), (100, 100), 0.0),  # 1 | 3
        tile((3, 3), (100 + 1.5 * s + 2, 100), math.pi / 2),  # crosswise 3-3
        tile((3, 5), (100 + 3 * s + 4, 100), 0.0),  # 3 | 5
        # Turned down at the edge: its 5 half beside the last half of the 3-5.
        tile((5, 4), (100 + 3.5 * s + 4, 100 + 1.5 * s + 2), math.pi / 2),
    ]
    layout = group_table(tiles)
    assert layout.hub is None
    assert layout.open_ends == (1, 4)
    assert layout.unsure == ()
    assert sorted(index for train in layout.trains for index in train.tiles) == [0, 1, 1, 2, 3]


def test_tiles_side_by_side_are_not_a_chain() -> None:
    s = 40.0
    # A hand laid in a column: long sides touching, no end against another tile.
    tiles = [tile((9, k), (500, 100 + k * (s + 2)), 0.0) for k in range(4)]
    layout = group_table(tiles)
    assert layout.trains == ()
    assert layout.loose == (0, 1, 2, 3)


def test_a_double_in_a_hand_laid_side_by_side_joins_no_chain() -> None:
    s = 40.0
    # A double's long side lies against its neighbours' long sides: nobody laid them end on.
    tiles = [
        tile(pips, (500, 100 + k * (s + 2)), 0.0) for k, pips in enumerate([(9, 1), (4, 4), (9, 2)])
    ]
    layout = group_table(tiles)
    assert layout.trains == ()
    assert layout.loose == (0, 1, 2)


def _hub_layout(
    centre: tuple[float, float],
    trains: Sequence[Sequence[tuple[int, int]]],
    halves_seen: bool = False,
) -> list[DetectedTile]:
    """Straight trains of plain tiles from a plastic hub's slots, 3.2 short sides out, each
    tile's first number towards the hub (``halves_seen``: and the reader said so)."""
    s = 30.0
    tiles: list[DetectedTile] = []
    for k, train in enumerate(trains):
        angle = k * 2 * math.pi / 8
        ux, uy = math.cos(angle), math.sin(angle)
        for step, pips in enumerate(train):
            reach = (3.2 + 1.0 + step * 2.05) * s
            middle = (centre[0] + ux * reach, centre[1] + uy * reach)
            laid = tile(pips, middle, angle, s)
            if halves_seen:
                inner = (middle[0] - ux * s / 2, middle[1] - uy * s / 2)
                outer = (middle[0] + ux * s / 2, middle[1] + uy * s / 2)
                laid = replace(laid, halves=(HalfSeen(pips[0], inner), HalfSeen(pips[1], outer)))
            tiles.append(laid)
    return tiles


def test_a_hub_seen_without_its_engine_is_found_from_the_centre_passed_in() -> None:
    centre = (500.0, 400.0)
    tiles = _hub_layout(centre, [[(12, 3), (3, 8)], [(12, 5)], [(12, 1), (1, 1), (1, 0)]])
    layout = group_table(tiles, hub_centre=centre)
    assert layout.hub is not None and layout.hub.engine_tile is None
    assert layout.hub.centre == (500, 400)
    assert trains_of(layout) == [((0, 1), 8, False), ((2,), 5, False), ((3, 4, 5), 0, False)]


def test_without_the_engine_the_hub_is_where_three_chains_point() -> None:
    centre = (500.0, 400.0)
    tiles = _hub_layout(centre, [[(12, 3), (3, 8)], [(12, 5)], [(12, 1), (1, 1), (1, 0)]])
    layout = group_table(tiles)
    assert layout.hub is not None and layout.hub.engine_tile is None
    assert math.dist(layout.hub.centre, centre) < 10
    assert trains_of(layout) == [((0, 1), 8, False), ((2,), 5, False), ((3, 4, 5), 0, False)]
    # Two chains are not enough to place a hub: a line with its two ends and a lone tile.
    two = group_table(tiles[:3])
    assert two.hub is None and two.open_ends == (8, 12) and two.loose == (2,)


def test_the_engine_in_a_hub_is_the_double_the_trains_face() -> None:
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(
        centre, [[(7, 3)], [(7, 5), (5, 5)], [(7, 1)]]
    )
    layout = group_table(tiles)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert trains_of(layout) == [((1,), 3, False), ((2, 3), 5, True), ((4,), 1, False)]
    assert layout.open_ends == (1, 3, 5)


def test_a_train_with_a_tile_not_seen_still_ends_where_it_ends() -> None:
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(
        centre, [[(7, 3), (3, 8), (8, 2), (2, 5)], [(7, 1)], [(7, 4)]]
    )
    del tiles[2]  # the 3-8: the finder missed it
    layout = group_table(tiles)
    assert trains_of(layout) == [((1, 2, 3), 5, False), ((4,), 1, False), ((5,), 4, False)]
    assert layout.open_ends == (1, 4, 5)
    gapped = next(train for train in layout.trains if train.end == 5)
    assert gapped.confidence <= 0.5 * 0.95  # its link was not seen: the player checks it
    # One tile past the gap could face either way: its end is a guess, marked unsure.
    del tiles[3]
    layout = group_table(tiles)
    assert layout.open_ends in {(1, 2, 4), (1, 4, 8)}
    assert 2 in layout.unsure


def test_a_train_seen_to_end_is_not_continued_across_tiles_not_seen() -> None:
    # Past the 7-3 the photo was looked at and shows no tile: the 8-2 and 2-5 farther on are
    # not the train's continuation (a tile laid down there, or another chain), and the train
    # ends at the 7-3's 3.
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(
        centre, [[(7, 3), (3, 8), (8, 2), (2, 5)], [(7, 1)], [(7, 4)]]
    )
    looked_at = np.asarray(tiles[2].corners, np.float32)
    del tiles[2]
    layout = group_table(tiles, seen_empty=[looked_at])
    assert ((1,), 3, False) in trains_of(layout)
    assert all(train.unseen is None for train in layout.trains)
    # Somewhere else seen empty changes nothing.
    elsewhere = looked_at + np.float32(300.0)
    assert ((1, 2, 3), 5, False) in trains_of(group_table(tiles, seen_empty=[elsewhere]))


def test_a_misread_engine_is_mended_from_its_other_reading_the_trains_start_with() -> None:
    centre = (500.0, 400.0)
    trains = [[(7, 3)], [(7, 5), (5, 5)], [(7, 1)]]
    engine = tile((8, 8), centre, 0.4, confidence=0.6, alternatives=(((7, 7), 0.3),))
    layout = group_table([engine, *_hub_layout(centre, trains)])
    assert layout.tiles[0].pips == (7, 7) and layout.mended == (0,)
    assert layout.open_ends == (1, 3, 5) and layout.unsure == ()
    # With no such reading the engine and every train's first tile are marked unsure.
    layout = group_table([replace(engine, alternatives=()), *_hub_layout(centre, trains)])
    assert layout.unsure == (0, 1, 2, 4)


def test_two_trains_whose_first_tiles_share_a_number_make_a_misread_double_their_hub() -> None:
    # Two chains pointing at a double need not be trains from it (a hand laid down round a
    # double is not), but two starting with one number are, whatever the engine was read as.
    centre = (500.0, 400.0)
    engine = tile((8, 8), centre, 0.4, confidence=0.6)
    layout = group_table([engine, *_hub_layout(centre, [[(7, 3)], [(7, 5), (5, 5)]])])
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert len(layout.trains) == 2 and 0 in layout.unsure


def _engine_in_a_line(s: float = 40.0) -> list[DetectedTile]:
    """A bare 4-4 engine laid crosswise with one train leaving each side in one straight
    line: the same tiles as a block line through a double."""
    c = (500.0, 300.0)
    return [
        tile((4, 4), c, math.pi / 2, s),
        tile((4, 2), (c[0] + 1.5 * s + 2, c[1]), 0.0, s),
        tile((2, 9), (c[0] + 3.5 * s + 4, c[1]), 0.0, s),
        tile((4, 6), (c[0] - 1.5 * s - 2, c[1]), 0.0, s),
    ]


def test_the_rounds_engine_makes_a_double_inside_a_line_the_hub() -> None:
    tiles = _engine_in_a_line()
    assert group_table(tiles).hub is None  # alone, it reads as a block line
    layout = group_table(tiles, round_engine=4)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert trains_of(layout) == [((1, 2), 9, False), ((3,), 6, False)]
    # A Mexican Train table always has a hub: told so, the page finds it without the round.
    expected = group_table(tiles, hub_expected=True)
    assert expected.hub is not None and expected.hub.engine_tile == 0
    assert trains_of(expected) == trains_of(layout)


def test_a_game_with_the_round_wrong_does_not_move_the_hub() -> None:
    # The game says 12 (scores not entered, or rounds played in another order); the hub holds
    # the 7-7 and one train ends in an open 12-12.
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(
        centre, [[(7, 3)], [(7, 12), (12, 12)], [(7, 1)]]
    )
    layout = group_table(tiles, round_engine=12)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert trains_of(layout) == [((1,), 3, False), ((2, 3), 12, True), ((4,), 1, False)]


def test_the_rounds_engine_mends_an_engine_misread_as_a_plain_tile() -> None:
    centre = (500.0, 400.0)
    trains = [[(12, 3)], [(12, 5), (5, 5)], [(12, 1)]]
    engine = tile((12, 9), centre, 0.4, confidence=0.7, alternatives=(((12, 12), 0.1),))
    tiles = [engine, *_hub_layout(centre, trains)]
    layout = group_table(tiles, round_engine=12)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert layout.tiles[0].pips == (12, 12) and 0 in layout.mended
    assert layout.tiles[0].confidence <= UNSURE_CONFIDENCE  # the player is asked to check it
    assert layout.open_ends == (1, 3, 5)
    # A train's tile that could be the engine's double is not taken for it.
    first = replace(tiles[1], alternatives=(((12, 12), 0.1),))
    without_engine = [first, *tiles[2:]]
    assert group_table(without_engine, round_engine=12).tiles[0].pips == (12, 3)


def test_the_rounds_engine_mends_an_engine_half_hidden_under_the_hub() -> None:
    # One half of the engine read as some other number, the double not among its readings:
    # where the game knows the engine, the unsure tile showing its number is the engine.
    centre = (500.0, 400.0)
    trains = [[(7, 3), (3, 8)], [(7, 5), (5, 5)], [(7, 1)], [(7, 0), (0, 4)]]
    engine = tile((7, 2), centre, 0.4, 30.0, confidence=0.6, alternatives=(((7, 1), 0.2),))
    layout = group_table([engine, *_hub_layout(centre, trains)], round_engine=7)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert layout.tiles[0].pips == (7, 7) and layout.mended == (0,)
    assert layout.tiles[0].confidence <= UNSURE_CONFIDENCE
    assert layout.open_ends == (1, 4, 5, 8) and layout.loose == ()
    # Without the game it is a tile the player is shown, not the engine.
    assert group_table([engine, *_hub_layout(centre, trains)]).loose == (0,)
    # With the engine not seen at all, a train's unsure first tile stays in its train.
    tiles = _hub_layout(centre, trains)
    tiles[0] = replace(tiles[0], confidence=0.6)
    layout = group_table(tiles, round_engine=7)
    assert layout.tiles[0].pips == (7, 3) and layout.mended == ()
    assert layout.open_ends == (1, 4, 5, 8)


def test_a_spinner_adds_an_end_for_each_branch() -> None:
    s = 40.0
    c = (400.0, 300.0)
    tiles = [
        tile((6, 6), c, math.pi / 2),  # the spinner, across the line
        tile((6, 2), (c[0] + 1.5 * s + 2, c[1]), 0.0),
        tile((6, 4), (c[0] - 1.5 * s - 2, c[1]), 0.0),
        tile((6, 1), (c[0], c[1] - 2 * s - 2), math.pi / 2),  # from the spinner's end
    ]
    layout = group_table(tiles)
    assert layout.hub is None
    assert layout.open_ends == (1, 2, 4)


def test_a_double_with_tiles_on_its_long_sides_is_a_hub_only_where_one_is_expected() -> None:
    # A spinner's line leaves it from both long sides, as a block game lays it; trains leave
    # an engine from its ends or across a gap. At a Mexican Train table the same tiles are
    # an engine with three trains.
    s = 40.0
    c = (400.0, 300.0)
    tiles = [
        tile((6, 6), c, math.pi / 2),
        tile((6, 2), (c[0] + 1.5 * s + 2, c[1]), 0.0),
        tile((6, 4), (c[0] - 1.5 * s - 2, c[1]), 0.0),
        tile((6, 1), (c[0], c[1] - 2 * s - 2), math.pi / 2),
    ]
    block = group_table(tiles)
    assert block.hub is None
    assert len(block.trains) == 3
    expected = group_table(tiles, hub_expected=True)
    assert expected.hub is not None and expected.hub.engine_tile == 0
    assert expected.open_ends == (1, 2, 4)
    assert sorted(train.tiles for train in expected.trains) == [(1,), (2,), (3,)]


def test_two_trains_off_one_end_of_a_crosswise_double_make_it_a_hub() -> None:
    # chrisstayte's real 12-12 engine: trains against both long sides, one off its lower end
    # and a second leaving that end aslant. A spinner's end carries one tile, so this is an
    # engine, though nothing says a hub is expected.
    s = 40.0
    c = (400.0, 300.0)
    aslant = math.pi / 2 + 0.7
    by_the_end = (c[0] - 12, c[1] + s + 4)
    tiles = [
        tile((12, 12), c, math.pi / 2),
        tile((12, 2), (c[0] + 1.5 * s + 2, c[1]), 0.0),
        tile((12, 11), (c[0] - 1.5 * s - 2, c[1]), 0.0),
        tile((12, 8), (c[0], c[1] + 2 * s + 2), math.pi / 2),
        tile(
            (12, 3),
            (by_the_end[0] + math.cos(aslant) * s, by_the_end[1] + math.sin(aslant) * s),
            aslant,
        ),
    ]
    layout = group_table(tiles)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert layout.open_ends == (2, 3, 8, 11)
    # Without the second tile at that end it is a block game's spinner.
    spinner = group_table(tiles[:4])
    assert spinner.hub is None
    assert spinner.open_ends == (2, 8, 11)


def test_a_spinners_long_side_with_nothing_against_it_is_an_end() -> None:
    s = 40.0
    c = (400.0, 300.0)
    tiles = [
        tile((6, 6), c, math.pi / 2),  # the spinner, across its line
        tile((6, 2), (c[0] + 1.5 * s + 2, c[1]), 0.0),  # its line, from one long side only
        tile((6, 1), (c[0], c[1] - 2 * s - 2), math.pi / 2),  # a branch from one end
        tile((6, 3), (c[0], c[1] + 2 * s + 2), math.pi / 2),  # and one from the other
    ]
    layout = group_table(tiles)
    assert layout.hub is None
    # The line's two ends (2, and the spinner's empty long side), and each branch's.
    assert layout.open_ends == (1, 2, 3, 6)


def test_a_hand_laid_down_round_a_double_beside_a_line_is_no_hub() -> None:
    # DomiBotUPM's phone photos: a block line, and a player's three tiles laid apart, two of
    # them pointing at the third, a 0-0. Neither the 4-3 (no 0) nor a lone 5-0 beside a line
    # of tiles is a train from that 0-0: every chain round a hub is a train from it.
    line = [
        tile((6, 3), (100.0, 300.0), 0.0),
        tile((3, 2), (182.0, 300.0), 0.0),
        tile((2, 4), (264.0, 300.0), 0.0),
    ]
    hand = [
        tile((0, 0), (700.0, 400.0), 0.0),
        tile((4, 3), (510.0, 400.0), 0.0),
        tile((5, 0), (700.0, 610.0), math.pi / 2),
    ]
    layout = group_table(line + hand)
    assert layout.hub is None
    assert layout.open_ends == (4, 6)
    assert set(layout.loose) == {3, 4, 5}


def test_a_double_where_a_line_turns_a_corner_adds_no_end() -> None:
    # A robot's block game (DomiBotUPM's CADENA photos): 4-2 comes down onto the long side of a
    # 2-2 laid along the bottom row, and the line goes on from the double's end. Both people
    # who counted the photo read the line's ends as 4 and 5 here: a double with a tile against
    # a long side and one at an end, and nothing else, is a corner, not a spinner.
    s = 40.0
    c = (400.0, 300.0)
    tiles = [
        tile((2, 2), c, 0.0),  # lengthwise, its long sides up and down
        tile((4, 2), (c[0], c[1] - 1.5 * s - 2), math.pi / 2),  # against its upper long side
        tile((5, 2), (c[0] + 2 * s + 2, c[1]), 0.0),  # on from its right end
    ]
    layout = group_table(tiles)
    assert layout.hub is None
    assert layout.open_ends == (4, 5)


# --------------------------------------------------------------------------- properties


@st.composite
def hub_tables(draw: st.DrawFn) -> tuple[list[DetectedTile], list[int], list[int]]:
    """A bare-engine table: straight trains of distinct tiles following the rules, drawn at any
    scale and turn, tiles in any order. Returns the tiles, the true ends and the order."""
    engine = draw(st.integers(0, 12))
    count = draw(st.integers(2, 6))
    lengths = draw(st.lists(st.integers(1, 6), min_size=count, max_size=count))
    used = {(engine, engine)}
    s = draw(st.floats(18, 60))
    turn = draw(st.floats(0, 2 * math.pi))
    centre = (draw(st.floats(400, 600)), draw(st.floats(300, 500)))
    tiles = [tile((engine, engine), centre, turn + draw(st.floats(0, math.pi)), s)]
    ends = []
    for k, length in enumerate(lengths):
        angle = turn + k * 2 * math.pi / count
        ux, uy = math.cos(angle), math.sin(angle)
        number = engine
        reach = max(1.3, 0.75 / math.sin(math.pi / count)) * s
        for _ in range(length):
            free = sorted(
                (max(number, n), min(number, n))
                for n in range(13)
                if (max(number, n), min(number, n)) not in used and n != number
            )
            if not free:
                break
            pips = draw(st.sampled_from(free))
            used.add(pips)
            middle = reach + s * 1.0
            tiles.append(tile(pips, (centre[0] + ux * middle, centre[1] + uy * middle), angle, s))
            reach += 2.04 * s
            number = pips[0] if pips[1] == number else pips[1]
        ends.append(number)
    order = draw(st.permutations(range(len(tiles))))
    return [tiles[i] for i in order], sorted(ends), list(order)


@settings(max_examples=60, deadline=None)
@given(hub_tables())
def test_any_legal_radial_table_at_any_scale_turn_and_order_gives_its_ends(
    case: tuple[list[DetectedTile], list[int], list[int]],
) -> None:
    tiles, ends, order = case
    layout = group_table(tiles)
    assert list(layout.open_ends) == ends
    assert layout.unsure == () and layout.loose == ()
    if layout.hub is None:
        # Two trains against the engine's two ends are a line through a double: the same
        # ends, read as a block line with the engine as its first tile.
        assert len(ends) == 2
        assert {train.tiles[0] for train in layout.trains} == {order.index(0)}
        return
    assert layout.hub.engine_tile == order.index(0)
    # Every tile but the engine is in exactly one train.
    chained = sorted(index for train in layout.trains for index in train.tiles)
    assert chained == sorted(set(range(len(tiles))) - {order.index(0)})


@settings(max_examples=60, deadline=None)
@given(hub_tables())
def test_a_radial_table_whose_engine_was_not_seen_still_has_its_hub_and_ends(
    case: tuple[list[DetectedTile], list[int], list[int]],
) -> None:
    tiles, ends, order = case
    engine = order.index(0)
    unseen = [t for i, t in enumerate(tiles) if i != engine]
    layout = group_table(unseen)
    if len(ends) >= 3:
        assert layout.hub is not None and layout.hub.engine_tile is None
        assert list(layout.open_ends) == ends
        assert layout.unsure == () and layout.loose == ()


@settings(max_examples=60, deadline=None)
@given(hub_tables(), st.data())
def test_whatever_the_tiles_each_one_is_in_a_train_or_loose_or_the_engine(
    case: tuple[list[DetectedTile], list[int], list[int]], data: st.DataObject
) -> None:
    tiles, _, _ = case
    # Drop some tiles, as a finder that misses some would.
    kept = [t for t in tiles if data.draw(st.booleans())]
    layout = group_table(kept)
    engine = layout.hub.engine_tile if layout.hub is not None else None
    roots = {train.tiles[0] for train in layout.trains} if layout.hub is None else set()
    seen: list[int] = [index for train in layout.trains for index in train.tiles]
    # Only a line's first tile heads more than one train.
    assert all(seen.count(index) == 1 for index in set(seen) - roots)
    everything = set(seen) | set(layout.loose) | ({engine} if engine is not None else set())
    assert everything == set(range(len(kept)))
    assert len(layout.open_ends) == len(layout.trains)


def test_a_hub_with_only_one_train_so_far_is_still_a_hub() -> None:
    # Early in a round one train has left the hub: it points at the engine across the slot's
    # gap, as trains do, so the engine is a hub's and its other sides are no free ends.
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4, 30.0)] + _hub_layout(centre, [[(7, 3), (3, 9)]])
    layout = group_table(tiles)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert trains_of(layout) == [((1, 2), 9, False)]
    assert layout.open_ends == (9,)


def test_a_lines_end_pointing_at_a_double_laid_down_near_it_makes_no_hub() -> None:
    # A hub's only train starts with the engine's number; a line's end tile without it that
    # happens to point at a double lying a slot's gap away is still a line's end.
    s = 30.0
    tiles = [
        tile((5, 2), (100, 300), 0.0, s),
        tile((2, 6), (100 + 2 * s + 2, 300), 0.0, s),
        tile((6, 1), (100 + 4 * s + 4, 300), 0.0, s),
        tile((9, 9), (100 + 7.2 * s + 4, 300), 0.3, s),
    ]
    layout = group_table(tiles)
    assert layout.hub is None
    assert layout.open_ends == (1, 5) and layout.loose == (3,)


def test_a_bare_engine_with_a_train_off_each_end_is_a_hub_without_the_game() -> None:
    # Round a bare engine the trains leave from any side, its ends too; a line's doubles lie
    # crosswise. So a double laid lengthwise with a train off each end is the engine.
    s = 30.0
    tiles = [
        tile((4, 4), (300, 300), 0.0, s),
        tile((4, 2), (300 + 2 * s + 2, 300), 0.0, s),
        tile((2, 6), (300 + 4 * s + 4, 300), 0.0, s),
        tile((4, 1), (300 - 2 * s - 2, 300), 0.0, s),
    ]
    layout = group_table(tiles)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert trains_of(layout) == [((1, 2), 6, False), ((3,), 1, False)]
    # A tile misread as a double inside a line, its neighbours without its number, is not.
    misread = [replace(tiles[0], pips=(5, 5)), *tiles[1:]]
    assert group_table(misread).hub is None


def test_a_line_with_tiles_against_one_side_of_its_first_double_stays_a_line() -> None:
    # Block dominoes after two plays: the tiles lie against the double, so it is no hub.
    s = 40.0
    tiles = [
        tile((5, 5), (100, 100), math.pi / 2),
        tile((5, 2), (100 + 1.5 * s + 2, 100), 0.0),
        tile((2, 6), (100 + 3.5 * s + 4, 100), 0.0),
    ]
    layout = group_table(tiles)
    assert layout.hub is None
    assert layout.open_ends == (5, 6)


def test_a_bend_seen_at_a_slant_still_joins_the_train() -> None:
    # Seen from a low corner a train's right-angle bend looks like 70 degrees, and the turned
    # tile's end lies against the last half's side a little behind that half's middle (as the
    # renderer draws long trains meeting the table's edge).
    s = 40.0
    back, across = -0.35, math.sqrt(1 - 0.35**2)
    contact = np.array([100 + 2 * s + 2 + s / 2, 100.0])  # the 3-5's last half's middle
    end = contact + 1.03 * s * np.array([back, across])
    heading = np.array([-back, -across])  # the turned tile's end faces back at it
    centre = end - heading * s / 2
    tiles = [
        tile((1, 3), (100, 100), 0.0),
        tile((3, 5), (100 + 2 * s + 2, 100), 0.0),
        tile((5, 4), (float(centre[0]), float(centre[1])), math.atan2(heading[1], heading[0])),
    ]
    layout = group_table(tiles)
    assert layout.hub is None
    assert sorted({index for train in layout.trains for index in train.tiles}) == [0, 1, 2]
    assert layout.open_ends == (1, 4) and layout.loose == ()


def test_a_line_turning_a_corner_joins_the_tile_pushed_along_the_last_ones_side() -> None:
    # A real block game round a corner: the 2-0 laid down across the 3-2's end was pushed
    # along its side, under the 3 half, though its 2 meets the 3-2's 2.
    s = 40.0
    tiles = [
        tile((1, 3), (100, 100), 0.0),  # 1 | 3
        tile((3, 2), (100 + 2 * s + 2, 100), 0.0),  # 3 | 2
        tile((2, 0), (100 + 1.6 * s + 2, 100 + 1.5 * s + 2), math.pi / 2),  # 2 over 0
        tile((0, 5), (100 + 1.6 * s + 2, 100 + 3.5 * s + 4), math.pi / 2),  # 0 over 5
    ]
    layout = group_table(tiles)
    assert layout.hub is None
    assert sorted({index for train in layout.trains for index in train.tiles}) == [0, 1, 2, 3]
    assert layout.open_ends == (1, 5) and layout.loose == () and layout.unsure == ()


REAL_BLOCK_GAME = Path(__file__).parent / "data" / "block_game_round_a_table.json"


def test_a_real_block_game_round_a_table_is_one_line_its_two_ends_and_a_stack_beside_it() -> None:
    # Read from a phone photo: a line of 23 tiles turning four corners, a crosswise 6-6 in it,
    # and a stack of five tiles laid down side by side beside it (two doubles among them). It
    # was taken for six trains off a hub nobody saw: the 6-6's bare end and the stack pointed
    # at one spot.
    data = json.loads(REAL_BLOCK_GAME.read_text())
    tiles = [
        DetectedTile(
            pips=(entry["pips"][0], entry["pips"][1]),
            confidence=0.95,
            corners=tuple((x, y) for x, y in entry["corners"]),
        )
        for entry in data["tiles"]
    ]
    stack = (1, 2, 5, 8, 13)
    layout = group_table(tiles)
    assert layout.hub is None
    in_trains = {index for train in layout.trains for index in train.tiles}
    assert in_trains == set(range(28)) - set(stack)
    assert layout.open_ends == (4, 4)
    assert layout.loose == stack


def _squashed(tiles: Sequence[DetectedTile], factor: float, middle: float) -> list[DetectedTile]:
    """The tiles as a camera at a slant sees them: distances up the photo shortened."""
    return [
        replace(
            t, corners=tuple((x, int(round(middle + (y - middle) * factor))) for x, y in t.corners)
        )
        for t in tiles
    ]


@pytest.mark.parametrize("factor", [1.0, 0.7, 0.55])
def test_a_table_seen_at_a_slant_reads_every_train(factor: float) -> None:
    # Seen at a slant, a tile lying across the view looks long and thin and one lying along
    # it short and wide: tiles touching end to end still touch, whatever the tile's width.
    centre = (500.0, 400.0)
    trains = [
        [(7, 3), (3, 8), (8, 2)],
        [(7, 5), (5, 1)],
        [(7, 1), (1, 4), (4, 4)],
        [(7, 0), (0, 6)],
    ]
    tiles = [tile((7, 7), centre, 0.4, 30.0)] + _hub_layout(centre, trains)
    layout = group_table(_squashed(tiles, factor, centre[1]))
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert trains_of(layout) == [
        ((1, 2, 3), 2, False),
        ((4, 5), 1, False),
        ((6, 7, 8), 4, True),
        ((9, 10), 6, False),
    ]


def test_a_tile_laid_down_by_the_hub_that_no_train_can_start_with_is_loose() -> None:
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4, 30.0)] + _hub_layout(
        centre, [[(7, 3), (3, 8)], [(7, 5)], [(7, 1)], [], [(2, 2)]]
    )
    for engine in (None, 7):
        layout = group_table(tiles, round_engine=engine)
        assert trains_of(layout) == [((1, 2), 8, False), ((3,), 5, False), ((4,), 1, False)]
        assert layout.loose == (5,) and layout.open_ends == (1, 5, 8)
        assert layout.unsure == ()


def test_a_tile_by_the_hub_with_the_engines_number_on_its_far_half_is_loose() -> None:
    # A 7-2 lying where a train would start, its 7 away from the hub: a tile put down there,
    # not a train (a train's first tile shows the engine's number towards it). Turned round,
    # it is a train ending in 2.
    centre = (500.0, 400.0)
    trains = [[(7, 3), (3, 8)], [(7, 5)], [(7, 1)], [], [(2, 7)]]
    for engine in (None, 7):
        tiles = [tile((7, 7), centre, 0.4, 30.0)] + _hub_layout(centre, trains, halves_seen=True)
        layout = group_table(tiles, round_engine=engine)
        assert trains_of(layout) == [((1, 2), 8, False), ((3,), 5, False), ((4,), 1, False)]
        assert layout.loose == (5,) and layout.open_ends == (1, 5, 8)
        turned = [*trains[:4], [(7, 2)]]
        tiles = [tile((7, 7), centre, 0.4, 30.0)] + _hub_layout(centre, turned, halves_seen=True)
        layout = group_table(tiles, round_engine=engine)
        assert ((5,), 2, False) in trains_of(layout) and layout.loose == ()


def test_a_lone_tile_past_a_gap_ends_the_train_where_its_halves_say() -> None:
    # Past tiles not seen, a lone 8-2 could face either way; the reader's halves say its 2
    # lies away from the hub, so the train ends in 2 and nothing about it is a guess.
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(
        centre, [[(7, 3), (3, 8), (8, 2), (2, 5)], [(7, 1)], [(7, 4)]], halves_seen=True
    )
    del tiles[4], tiles[2]  # the 3-8 and the 2-5: the finder missed them
    layout = group_table(tiles)
    assert trains_of(layout) == [((1, 2), 2, False), ((3,), 1, False), ((4,), 4, False)]
    assert layout.unsure == ()


def test_a_misread_half_is_mended_on_the_side_it_was_misread() -> None:
    # The 3-8 after the 7-3 was read 9-8 (its 3, facing the 7-3, taken for a 9); the reader's
    # other readings are 9-3 and 8-3. Only the 8-3 keeps the 8 on the half the reader saw it
    # on, so the train goes on from the 8, not from a 9 the reader never saw there.
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(
        centre, [[(7, 3), (9, 8)], [(7, 1)], [(7, 4)]], halves_seen=True
    )
    tiles[2] = replace(tiles[2], alternatives=(((9, 3), 0.3), ((8, 3), 0.2)))
    layout = group_table(tiles)
    assert layout.tiles[2].pips == (8, 3)
    assert trains_of(layout) == [((1, 2), 8, False), ((3,), 1, False), ((4,), 4, False)]


def test_a_line_with_a_double_at_each_end_has_two_open_doubles() -> None:
    # Either double could have been laid first; neither is likelier, so both ends are read
    # as the open doubles a line from its middle tile leaves.
    s = 30.0
    pips = [(6, 6), (6, 2), (2, 11), (11, 0), (0, 13), (13, 13)]
    tiles, x = [], 100.0
    for k, p in enumerate(pips):
        double = p[0] == p[1]
        if k:
            x += (0.5 if pips[k - 1][0] == pips[k - 1][1] else 1.0) * s + 2
            x += (0.5 if double else 1.0) * s
        tiles.append(tile(p, (x, 300.0), math.pi / 2 if double else 0.0, s))
    layout = group_table(tiles)
    assert layout.hub is None
    assert sorted((train.end, train.open_double) for train in layout.trains) == [
        (6, True),
        (13, True),
    ]


# --------------------------------------------------------------------------- the next tile


def _outline(detected: DetectedTile) -> np.ndarray:
    return np.asarray(detected.corners, np.float32)


@pytest.mark.parametrize("angle", [0.0, 0.7, 2.5, -1.9])
def test_the_next_tile_of_a_straight_train_is_looked_for_where_it_lies(angle: float) -> None:
    centre = (500.0, 400.0)
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(centre, [[], [(7, 4)], [(7, 1)]])
    ux, uy = math.cos(angle), math.sin(angle)
    train = [(7, 3), (3, 8), (8, 2)]
    s = 30.0
    laid = [
        tile(
            pips,
            (centre[0] + ux * (4.2 + k * 2.05) * s, centre[1] + uy * (4.2 + k * 2.05) * s),
            angle,
            s,
        )
        for k, pips in enumerate(train)
    ]
    for seen in (1, 2):  # from the hub, and from the tile before
        layout = group_table([*tiles, *laid[:seen]])
        (ours,) = [
            t for t in layout.trains if layout.tiles[t.tiles[-1]].pips == laid[seen - 1].pips
        ]
        outline = next_tile_outline(layout, ours)
        assert outline is not None
        assert outline_iou(outline, _outline(laid[seen])) > 0.75


def test_past_a_crosswise_double_the_next_tile_is_looked_for_beyond_its_long_side() -> None:
    centre, s = (500.0, 400.0), 30.0
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(centre, [[], [(7, 4)], [(7, 1)]])
    laid = [
        tile((7, 5), (centre[0] + 4.2 * s, centre[1]), 0.0, s),
        tile((5, 5), (centre[0] + 5.75 * s, centre[1]), math.pi / 2, s),
        tile((5, 1), (centre[0] + 7.3 * s, centre[1]), 0.0, s),
    ]
    layout = group_table([*tiles, *laid[:2]])
    (ours,) = [t for t in layout.trains if t.end == 5]
    assert ours.open_double
    outline = next_tile_outline(layout, ours)
    assert outline is not None
    assert outline_iou(outline, _outline(laid[2])) > 0.75


@pytest.mark.parametrize("angle", [0.0, 1.2, -2.2])
def test_past_a_plain_tile_a_double_laid_crosswise_is_looked_for_too(angle: float) -> None:
    centre, s = (500.0, 400.0), 30.0
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(centre, [[], [(7, 4)], [(7, 1)]])
    ux, uy = math.cos(angle), math.sin(angle)

    def at(reach: float) -> tuple[float, float]:
        return (centre[0] + ux * reach * s, centre[1] + uy * reach * s)

    laid = [tile((7, 5), at(4.2), angle, s), tile((5, 5), at(5.75), angle + math.pi / 2, s)]
    layout = group_table([*tiles, laid[0]])
    (ours,) = [t for t in layout.trains if t.end == 5]
    outline = next_tile_outline(layout, ours, turn=ACROSS)
    assert outline is not None
    assert outline_iou(outline, _outline(laid[1])) > 0.75
    # Past a double no double is laid crosswise.
    layout = group_table([*tiles, *laid])
    (ours,) = [t for t in layout.trains if t.end == 5]
    assert next_tile_outline(layout, ours, turn=ACROSS) is None


@pytest.mark.parametrize("side", [1, -1])
def test_where_a_train_turns_the_next_tile_is_looked_for_round_the_bend(side: int) -> None:
    centre, s = (500.0, 400.0), 30.0
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(centre, [[], [(7, 4)], [(7, 1)]])
    laid = [
        tile((7, 3), (centre[0] + 4.2 * s, centre[1]), 0.0, s),
        tile((3, 8), (centre[0] + 6.25 * s, centre[1]), 0.0, s),
    ]
    turned = tile((8, 2), (centre[0] + 6.75 * s, centre[1] + side * 1.55 * s), math.pi / 2, s)
    layout = group_table([*tiles, *laid])
    (ours,) = [t for t in layout.trains if t.end == 8]
    round_the_bend = next_tile_outline(layout, ours, turn=side)
    assert round_the_bend is not None
    assert outline_iou(round_the_bend, _outline(turned)) > 0.75
    other_way = next_tile_outline(layout, ours, turn=-side)
    assert other_way is not None and outline_iou(other_way, _outline(turned)) == 0
    # The whole train, bend and all, is one train.
    whole = group_table([*tiles, *laid, turned])
    assert [t.end for t in whole.trains if len(t.tiles) == 3] == [2]


def test_before_a_train_not_seen_at_the_hub_its_first_tile_is_looked_for() -> None:
    centre, s = (500.0, 400.0), 30.0
    tiles = [tile((7, 7), centre, 0.4)] + _hub_layout(centre, [[], [(7, 4)], [(7, 1)]])
    laid = [
        tile(pips, (centre[0], centre[1] - (4.2 + k * 2.05) * s), -math.pi / 2, s)
        for k, pips in enumerate([(7, 3), (3, 8), (8, 2)])
    ]
    layout = group_table([*tiles, *laid[1:]])
    (ours,) = [t for t in layout.trains if t.end == 2]
    assert not ours.linked
    outline = tile_before_outline(layout, ours)
    assert outline is not None
    assert outline_iou(outline, _outline(laid[0])) > 0.75
    assert inner_numbers(layout, ours) == (3,)
    (lone,) = [t for t in layout.trains if t.end == 4]
    assert inner_numbers(layout, lone) == (4, 7)
    whole = group_table([*tiles, *laid])
    assert all(train.linked for train in whole.trains)
    # A lone tile whose halves the reader placed offers only its number nearer the hub: a
    # 5-9 lying a tile out, its 5 towards the hub (the 7-5 before it missed), wants a 5
    # before it.
    stray = _hub_layout(centre, [[], [], [], [], [], [], [(7, 5), (5, 9)]], halves_seen=True)[1]
    layout = group_table([*tiles, stray])
    (lone,) = lone_tiles_towards_hub(layout)
    assert inner_numbers(layout, lone) == (5,)


def test_a_lone_tile_without_a_hub_has_no_way_on() -> None:
    layout = group_table([tile((5, 2), (100, 300), 0.0)])
    assert all(next_tile_outline(layout, train) is None for train in layout.trains)


@pytest.mark.parametrize("angle", [0.0, 1.1, -2.4])
def test_a_lines_first_double_is_looked_past_on_the_side_away_from_its_arm(angle: float) -> None:
    # A block line's first double, crosswise, with an arm from one long side only: the tile
    # missed against its other long side is looked for there.
    s = 30.0
    ux, uy = math.cos(angle), math.sin(angle)

    def at(distance: float) -> tuple[float, float]:
        return (500.0 + ux * distance * s, 400.0 + uy * distance * s)

    missed = tile((5, 3), at(-1.55), angle, s)
    seen = [
        tile((5, 5), at(0), angle + math.pi / 2, s),
        tile((5, 2), at(1.55), angle, s),
        tile((2, 6), at(3.6), angle, s),
    ]
    layout = group_table(seen)
    assert layout.hub is None
    (other_side,) = [train for train in layout.trains if len(train.tiles) == 1]
    assert other_side.end == 5
    outline = next_tile_outline(layout, other_side)
    assert outline is not None
    assert outline_iou(outline, _outline(missed)) > 0.75


def test_the_reading_laid_on_a_train_shows_its_end_and_no_tile_already_read() -> None:
    readings = [((10, 10), 0.5), ((10, 7), 0.3), ((7, 3), 0.15), ((9, 7), 0.05)]
    assert continuing_reading(readings, (7,), set()) == ((10, 7), 0.3)
    assert continuing_reading(readings, (7,), {(10, 7)}) == ((7, 3), 0.15)
    assert continuing_reading(readings, (10,), set()) == ((10, 10), 0.5)
    assert continuing_reading(readings, (12,), set()) is None
    assert continuing_reading(readings, (3, 9), set()) == ((7, 3), 0.15)


def test_a_train_bent_back_against_a_crosswise_doubles_end_stays_its_own() -> None:
    # The north train turns east and then down, ending with its 12 against the end of the
    # crosswise 3-3 in the east train. Mexican Train has no spinners: the 0-12 is not laid
    # on the 3-3, and the east train must not walk on into the north train's tiles.
    s = 30.0
    hub = (500.0, 400.0)
    down, across = math.pi / 2, 0.0
    tiles = [
        tile((7, 7), hub, 0.4, s),
        tile((7, 3), (626, 400), across, s),  # east: 7 | 3, then a crosswise 3-3, then 3 | 8
        tile((3, 3), (672, 400), down, s),
        tile((3, 8), (718, 400), across, s),
        tile((7, 5), (374, 400), across, s),  # west
        tile((7, 1), (486, 245), down, s),  # north, up from the hub
        tile((1, 2), (486, 183), down, s),
        tile((2, 5), (533, 168), across, s),  # turned east
        tile((5, 6), (595, 168), across, s),
        tile((6, 9), (657, 168), across, s),
        tile((9, 4), (672, 215), down, s),  # turned down
        tile((4, 0), (672, 277), down, s),
        tile((0, 12), (672, 339), down, s),  # its 12 against the 3-3's end
    ]
    layout = group_table(tiles, round_engine=7)
    assert layout.hub is not None and layout.hub.engine_tile == 0
    assert trains_of(layout) == [
        ((1, 2, 3), 8, False),
        ((4,), 5, False),
        ((5, 6, 7, 8, 9, 10, 11, 12), 12, False),
    ]
    assert layout.unsure == ()
