"""Every rule a round's entries must keep, one table row per case."""

from __future__ import annotations

import pytest

from companion.rules import Rules, Tile, full_set
from companion.rules.integrity import (
    HandEntry,
    ProblemKind,
    check_round,
    most_a_dealt_hand_holds,
)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
STANDARD = Rules.from_json({"preset": "standard"})  # double-12, 4 players get 15 tiles


def hand(*pairs: tuple[int, int]) -> HandEntry:
    return HandEntry(tiles=tuple(Tile(a, b) for a, b in pairs))


def typed(points: int, went_out: bool = False) -> HandEntry:
    return HandEntry(points=points, went_out=went_out)


OUT = HandEntry(points=0, went_out=True)
LIMIT = most_a_dealt_hand_holds(STANDARD, 4, 12)


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        ({"Ann": OUT, "Bob": typed(12), "Cy": hand((5, 6))}, []),
        ({"Ann": typed(3), "Bob": typed(12)}, []),  # a blocked round: nobody out
        ({"Ann": OUT, "Bob": OUT}, [(ProblemKind.TWO_WENT_OUT, "Bob", "went_out")]),
        ({"Ann": OUT, "Cy": hand()}, [(ProblemKind.TWO_WENT_OUT, "Cy", "went_out")]),
        ({"Ann": hand((12, 12), (3, 4))}, [(ProblemKind.ENGINE_IN_HAND, "Ann", "tiles")]),
        ({"Ann": hand((11, 11))}, []),  # another double is fine
        (
            {"Ann": hand((5, 6), (1, 1)), "Bob": hand((2, 2)), "Dee": hand((6, 5))},
            [(ProblemKind.TILE_IN_TWO_HANDS, "Dee", "tiles")],
        ),
        ({"Ann": typed(LIMIT)}, []),
        ({"Ann": typed(LIMIT + 1)}, [(ProblemKind.POINTS_UNLIKELY, "Ann", "points")]),
        ({"Bob": typed(999)}, [(ProblemKind.POINTS_UNLIKELY, "Bob", "points")]),
    ],
)
def test_check_round(entries: dict[str, HandEntry], expected: list[tuple[object, ...]]) -> None:
    problems = check_round(STANDARD, PLAYERS, 12, entries)
    assert [(p.kind, p.player, p.part) for p in problems] == expected
    for problem in problems:
        assert problem.field == f"scores.{problem.player}.{problem.part}"
        assert problem.player in problem.message or "engine" in problem.message


def test_the_limit_is_the_largest_dealt_hand_without_the_engine() -> None:
    # 15 tiles: 12-11, 12-10, 11-11, 12-9, 11-10, then 20s, 19s and four 18s.
    assert LIMIT == 23 + 22 * 2 + 21 * 2 + 20 * 3 + 19 * 3 + 18 * 4
    # With 11-11 as the engine, 12-12 can be in a hand and 11-11 can't.
    assert (
        most_a_dealt_hand_holds(STANDARD, 4, 11) == 24 + 23 + 22 + 21 * 2 + 20 * 3 + 19 * 3 + 18 * 4
    )


def test_a_typed_slip_gets_a_guess() -> None:
    (problem,) = check_round(STANDARD, PLAYERS, 12, {"Ann": typed(999)})
    assert problem.suggestion == 99
    assert problem.message.startswith("Did you mean 99?")
    assert problem.needs_confirmation
    (far,) = check_round(STANDARD, PLAYERS, 12, {"Ann": typed(5000)})
    assert far.suggestion is None  # 500 is too much as well, and 0 is no guess
    assert far.message.startswith("5000 is more than the 15 tiles dealt to Ann")


def test_hand_bigger_than_dealt_plus_boneyard_and_more_tiles_than_the_set() -> None:
    rules = Rules.from_json({"preset": "standard", "set_max": 6})
    two = ["Ann", "Bob"]
    tiles = [t for t in full_set(6) if t is not Tile(6, 6)]
    everything = HandEntry(tiles=tuple(tiles))  # all 27 tiles besides the engine
    kinds = {p.kind for p in check_round(rules, two, 6, {"Ann": everything})}
    assert kinds == {ProblemKind.HAND_TOO_BIG}
    both = check_round(rules, two, 6, {"Ann": everything, "Bob": everything})
    assert ProblemKind.TOO_MANY_TILES in {p.kind for p in both}
    assert ProblemKind.TILE_IN_TWO_HANDS in {p.kind for p in both}
    assert all(not p.needs_confirmation for p in both)
