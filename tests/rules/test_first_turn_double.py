"""``first_turn_may_end_on_double`` false: a first-turn run never finishes on an open double.

Reading (docs/rules.md, after P-DC and P-CM): a double may be laid on a first turn only while
the hand still holds the tile(s) that cover it; the player must then cover it, and may not
draw or end the turn instead. Drawing never rescues a double laid without a cover.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.rules import END, Draw, IllegalActionError, Play, Rules, State, Tile
from companion.rules.referee import answer
from companion.rules.simulate import play_round

T = list[int]
END_TURN = {"end": True}


def first_turn(hand: list[T], actions: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    return {
        "kind": "turn",
        "rules": {"preset": "standard", "first_turn_may_end_on_double": False, **rules},
        "table": {
            "set_max": 12,
            "engine": 12,
            "seats": ["A", "B", "C", "D"],
            "trains": {},
            "open_doubles": [],
            "boneyard": 20,
        },
        "turn": {"seat": "A", "first_turn": True, "hand": hand},
        "actions": actions,
    }


def play(a: int, b: int, on: str = "A") -> dict[str, Any]:
    return {"play": [a, b], "on": on}


def ask(query: dict[str, Any]) -> dict[str, Any]:
    got, ok = answer(query)
    assert ok, got
    return got


NO_COVER = [[12, 5], [5, 5], [2, 3]]
WITH_COVER = [[12, 5], [5, 5], [5, 3], [2, 3]]


def test_double_without_a_cover_in_hand_is_refused_when_laid() -> None:
    # Before the fix the double was accepted, the draw missed, and the run ended on 5-5.
    got = ask(first_turn(NO_COVER, [play(12, 5), play(5, 5), {"draw": [3, 4]}, END_TURN]))
    assert (got["legal"], got["step"], got["rule"]) == (
        False,
        1,
        "first_turn_may_end_on_double",
    )
    assert got["after"]["open_doubles"] == []
    # Under true the double may stay open, but then nothing is owed and the draw is refused:
    # no value of this rule makes the whole turn legal, so none is claimed.
    assert got["allowed_under"] == []


def test_double_without_a_cover_is_refused_with_an_empty_boneyard() -> None:
    query = first_turn(NO_COVER, [play(12, 5), play(5, 5), END_TURN])
    query["table"]["boneyard"] = 0
    got = ask(query)
    assert (got["legal"], got["step"], got["rule"]) == (
        False,
        1,
        "first_turn_may_end_on_double",
    )


def test_a_drawn_tile_that_would_cover_does_not_make_the_double_legal() -> None:
    got = ask(first_turn(NO_COVER, [play(12, 5), play(5, 5), {"draw": [5, 9]}, play(5, 9)]))
    assert (got["legal"], got["step"]) == (False, 1)


def test_the_same_run_is_legal_when_the_rule_is_true() -> None:
    query = first_turn(NO_COVER, [play(12, 5), play(5, 5), END_TURN])
    query["rules"]["first_turn_may_end_on_double"] = True
    got = ask(query)
    assert got["legal"] is True and got["after"]["open_doubles"] == ["A"]


def test_double_with_a_cover_must_be_covered() -> None:
    covered = ask(first_turn(WITH_COVER, [play(12, 5), play(5, 5), play(5, 3), END_TURN]))
    assert covered["legal"] is True
    assert covered["after"]["open_doubles"] == [] and covered["after"]["trains"]["A"]["end"] == 3
    for escape in (END_TURN, {"draw": [3, 4]}):
        got = ask(first_turn(WITH_COVER, [play(12, 5), play(5, 5), escape]))
        assert (got["legal"], got["step"], got["rule"]) == (
            False,
            2,
            "first_turn_may_end_on_double",
        )


def test_may_not_draw_instead_of_covering_even_when_play_is_optional() -> None:
    got = ask(
        first_turn(WITH_COVER, [play(12, 5), play(5, 5), {"draw": [3, 4]}], must_play_if_able=False)
    )
    assert (got["legal"], got["step"], got["rule"]) == (
        False,
        2,
        "first_turn_may_end_on_double",
    )


def test_a_branching_double_needs_every_branch_in_hand() -> None:
    one_branch = first_turn(WITH_COVER, [play(12, 5), play(5, 5)], double_branches=2)
    assert ask(one_branch)["step"] == 1
    two = [[12, 5], [5, 5], [5, 3], [5, 1]]
    got = ask(first_turn(two, [play(12, 5), play(5, 5), play(5, 3), END_TURN], double_branches=2))
    assert (got["legal"], got["step"], got["rule"]) == (
        False,
        3,
        "first_turn_may_end_on_double",
    )
    done = ask(
        first_turn(
            two, [play(12, 5), play(5, 5), play(5, 3), play(5, 1), END_TURN], double_branches=2
        )
    )
    assert done["legal"] is True


def test_engine_state_offers_no_stranding_double() -> None:
    rules = Rules.from_json({"preset": "standard", "first_turn_may_end_on_double": False})
    hands = [[Tile(12, 5), Tile(5, 5), Tile(2, 3)], [Tile(12, 1)]]
    state = State(rules, ["A", "B"], 12, hands, boneyard=[Tile(6, 6), Tile(5, 9)])
    state.push_checked(Play(Tile(12, 5), 0))
    assert Play(Tile(5, 5), 0) not in state.legal_actions
    with pytest.raises(IllegalActionError) as caught:
        state.push_checked(Play(Tile(5, 5), 0))
    assert caught.value.rule == "first_turn_may_end_on_double"
    state.push_checked(END)
    assert state.open_doubles == [] and state.turn == 1


def test_engine_state_forces_the_cover() -> None:
    rules = Rules.from_json({"preset": "standard", "first_turn_may_end_on_double": False})
    hands = [[Tile(12, 5), Tile(5, 5), Tile(5, 3)], [Tile(12, 1)]]
    state = State(rules, ["A", "B"], 12, hands, boneyard=[Tile(6, 6)])
    state.push_checked(Play(Tile(12, 5), 0))
    state.push_checked(Play(Tile(5, 5), 0))
    assert list(state.legal_actions) == [Play(Tile(5, 3), 0)]
    assert END not in state.legal_actions and Draw() not in state.legal_actions


@pytest.mark.parametrize("branches", [1, 2, 3])
@pytest.mark.parametrize("wild", [False, True])
def test_self_play_never_ends_a_first_turn_on_a_double(branches: int, wild: bool) -> None:
    """The simulation's invariants include "no first turn ends on an uncovered double"."""
    rules = Rules.from_json(
        {
            "preset": "standard",
            "first_turn_may_end_on_double": False,
            "double_branches": branches,
            "blanks_wild": wild,
            "set_max": 9,
        }
    )
    rng = random.Random(branches * 10 + wild)
    for _ in range(40):
        result = play_round(rules, 4, 9, rng)
        assert result.failures == []
