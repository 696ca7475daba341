"""``satisfy_order`` holds for doubles laid in the same turn, not only across turns.

docs/rules.md: under ``oldest_first`` doubles are covered "in the order they were played";
``double_followup`` ``anywhere`` frees the follow-up tile from having to cover the player's
own new double, but not from that order when it does cover one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import Rules, legality
from companion.rules.actions import Action, Play
from companion.rules.keys import DeadDouble, SatisfyOrder, SatisfyScope
from companion.rules.referee import answer
from companion.rules.simulate import random_players, random_rules
from companion.rules.state import State


def two_doubles_turn(order: str, cover: list[int]) -> dict[str, Any]:
    """7-7 on one's own train, 4-4 on the Mexican Train, then a tile covering ``cover``."""
    return {
        "kind": "turn",
        "rules": {"preset": "standard", "double_followup": "anywhere", "satisfy_order": order},
        "table": {
            "set_max": 12,
            "engine": 12,
            "seats": ["A", "B"],
            "trains": {"A": {"end": 7}, "B": {"end": 5}, "mexican": {"end": 4}},
            "boneyard": 20,
        },
        "turn": {"seat": "A", "hand": [[7, 7], [4, 4], [4, 1], [7, 2], [3, 3]]},
        "actions": [
            {"play": [7, 7], "on": "A"},
            {"play": [4, 4], "on": "mexican"},
            {"play": cover, "on": "A" if 7 in cover else "mexican"},
        ],
    }


def test_oldest_first_refuses_covering_the_newer_double_of_the_same_turn() -> None:
    got, ok = answer(two_doubles_turn("oldest_first", [4, 1]))
    assert ok, got
    assert (got["legal"], got["step"], got["rule"]) == (False, 2, "satisfy_order")
    assert "A's train (7-7) comes first" in got["reason"]
    covered, _ = answer(two_doubles_turn("oldest_first", [7, 2]))
    assert covered["legal"] is True
    assert covered["after"]["open_doubles"] == ["mexican"]


def test_newest_first_refuses_covering_the_older_double_of_the_same_turn() -> None:
    got, _ = answer(two_doubles_turn("newest_first", [7, 2]))
    assert (got["legal"], got["rule"]) == (False, "satisfy_order")
    assert "the Mexican Train (4-4) comes first" in got["reason"]
    assert answer(two_doubles_turn("newest_first", [4, 1]))[0]["legal"] is True


@pytest.mark.parametrize("cover", [[7, 2], [4, 1]])
def test_any_order_lets_either_double_of_the_turn_be_covered(cover: list[int]) -> None:
    assert answer(two_doubles_turn("any", cover))[0]["legal"] is True


def test_a_follow_up_elsewhere_still_goes_anywhere() -> None:
    query = two_doubles_turn("oldest_first", [4, 1])
    query["table"]["trains"]["A"]["marker"] = False
    query["turn"]["hand"].append([5, 2])
    query["table"]["trains"]["B"]["marker"] = True
    query["actions"][2] = {"play": [5, 2], "on": "B"}
    assert answer(query)[0]["legal"] is True


def _live_doubles(state: State) -> list[int]:
    """The open doubles that still bind, in the order they were laid."""
    if state.rules.dead_double == DeadDouble.FREES_PLAY:
        return [t for t in state.open_doubles if not state.is_dead_double(t)]
    return list(state.open_doubles)


def _doubles_first(rng: random.Random, actions: list[Action]) -> Action:
    """Self-play that lays doubles whenever it can, so turns with several doubles are common."""
    doubles = [a for a in actions if type(a) is Play and a.tile.is_double]
    return rng.choice(doubles) if doubles and rng.random() < 0.9 else rng.choice(actions)


def _order_checked_round(rules: Rules, seed: int) -> int:
    """Plays a round; at every position checks that each legal cover of an open double covers
    the one ``satisfy_order`` designates. Returns how many positions had two or more doubles
    of the same turn open."""
    rng = random.Random(seed)
    state = State.deal(rules, random_players(rules, rng), rules.set_max, rng)
    same_turn = 0
    order = rules.satisfy_order
    while state.outcome is None:
        actions = legality.legal_actions(state)
        live = _live_doubles(state)
        if not state.is_first_turn and rules.satisfy_scope == SatisfyScope.TABLE and live:
            if len([t for t in live if t in state.turn_doubles]) >= 2:
                same_turn += 1
            for action in actions:
                if type(action) is not Play or action.train not in live:
                    continue
                if order == SatisfyOrder.OLDEST_FIRST:
                    assert action.train == live[0], (action, live, repr(state))
                elif order == SatisfyOrder.NEWEST_FIRST:
                    assert action.train == live[-1], (action, live, repr(state))
        state.apply(_doubles_first(rng, actions))
    return same_turn


def _doubles_rules(rng: random.Random, order: str) -> Rules:
    mixed = random_rules(rng).to_json()
    mixed.update(
        satisfy_scope="table",
        double_followup="anywhere",
        doubles_per_turn="unlimited",
        satisfy_order=order,
        double_branches=1,
    )
    return Rules.from_json(mixed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), order=st.sampled_from([o.value for o in SatisfyOrder]))
def test_every_legal_cover_follows_the_order_even_within_a_turn(seed: int, order: str) -> None:
    _order_checked_round(_doubles_rules(random.Random(seed), order), seed)


def test_self_play_reaches_turns_with_two_open_doubles_of_their_own() -> None:
    """The property above is not vacuous: such positions do arise in these rounds."""
    rng = random.Random(7)
    found = sum(
        _order_checked_round(_doubles_rules(rng, "oldest_first"), seed) for seed in range(30)
    )
    assert found > 0
