"""Points counted at the table get the same bonus and penalty as a scored hand."""

from __future__ import annotations

import pytest

from companion.rules import Rules, RulesError, Tile, score_counted, score_hand


@pytest.mark.parametrize("went_out", [False, True])
@pytest.mark.parametrize("markers_up", [0, 1, 2])
def test_typed_points_match_a_hand_of_the_same_pips(went_out: bool, markers_up: int) -> None:
    rules = Rules.from_json(
        {"preset": "standard", "going_out_bonus": -10, "open_marker_penalty": 5}
    )
    hand = [] if went_out else [Tile(6, 5), Tile(3, 1)]
    pips = sum(tile.pips for tile in hand)
    counted = score_counted(pips, rules, went_out=went_out, markers_up=markers_up)
    assert (
        counted.points == score_hand(hand, rules, went_out=went_out, markers_up=markers_up).points
    )
    assert str(counted.points) in counted.reason


@pytest.mark.parametrize(("pips", "markers_up"), [(-1, 0), (3, -1)])
def test_a_negative_count_is_refused(pips: int, markers_up: int) -> None:
    with pytest.raises(RulesError):
        score_counted(pips, Rules.from_json({"preset": "standard"}), markers_up=markers_up)
