"""The rules for when the close-up finder's reading is reported, scored on known readings."""

from __future__ import annotations

from collections import Counter

from training.choose_close_up_rule import RULES, Readings, at_most, tally

TRUTH = Counter({(5, 3): 1, (12, 0): 1})


def _readings(usual: list[tuple[int, int]], close_up: list[tuple[int, int]]) -> Readings:
    return Readings("close", TRUTH, Counter(usual), Counter(close_up))


def test_the_close_up_reading_is_taken_only_for_photos_with_few_tiles_kept() -> None:
    few = _readings([(5, 3)], [(5, 3), (12, 0)])
    many = _readings([(5, 3), (12, 0), (4, 4), (6, 1)], [(5, 3)])
    assert at_most(3)(few) and not at_most(3)(many)
    assert not at_most(0)(few)


def test_not_fewer_keeps_the_usual_reading_when_the_close_up_one_has_fewer_tiles() -> None:
    fewer = _readings([(5, 3), (12, 0)], [(5, 3)])
    assert at_most(3)(fewer)
    assert not at_most(3, not_fewer=True)(fewer)


def test_a_rule_is_scored_by_the_readings_it_reports() -> None:
    rows = [_readings([(5, 3)], [(5, 3), (12, 0)]), _readings([], [(5, 3), (12, 0)])]
    usual = tally(rows, RULES["usual finder only"])["close"]
    close_up = tally(rows, RULES["close-up finder only"])["close"]
    assert (usual.right, usual.exact, usual.wanted) == (1, 0, 4)
    assert (close_up.right, close_up.reported, close_up.exact) == (4, 4, 2)
