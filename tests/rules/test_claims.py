"""Every "allowed under" and every "checked" claim holds when the query is asked again.

A refused turn lists the other values of its deciding rule under which it would be allowed
(``allowed_under``); a legal turn asked with ``"explain": true`` lists the house rules it
passed (``checked``). Both are
claims about what the referee would say under other values, so each is tested the way a
player would test it: ask the same query again with that one value changed.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import CHOICES
from companion.rules.actions import Action, Draw, End, Play
from companion.rules.keys import plain
from companion.rules.referee import answer, round_status_query, turn_query
from companion.rules.referee.reask import other_way
from companion.rules.simulate import random_players, random_rules
from companion.rules.state import State

CASES_FILE = Path(__file__).parent / "data" / "cases.jsonl"
CASES = [json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip()]


def asked_under(query: dict[str, Any], rule: str, value: Any) -> dict[str, Any]:
    """The query's answer with one rule changed, as any client would ask it."""
    again = copy.deepcopy(query)
    again["rules"] = {**query["rules"], rule: plain(value)}
    got, ok = answer(again)
    return got if ok else {"error": got["error"]}


def other_values(query: dict[str, Any], rule: str) -> list[Any]:
    current = query["rules"].get(rule)
    return [plain(v) for v in CHOICES.get(rule) or () if plain(v) != current]


def check_turn_claims(query: dict[str, Any], *, readable: bool = True) -> int:
    """Checks the answer's claims by asking again; returns how many claims were checked.
    Without ``readable``, a query its rules make unreadable (an error) checks nothing."""
    got, ok = answer({**query, "explain": True})
    if not ok and not readable:
        return 0
    assert ok, got
    claims = 0
    if not got["legal"]:
        rule = got["rule"]
        legal_under = [
            v for v in other_values(query, rule) if asked_under(query, rule, v).get("legal")
        ]
        # Every value claimed allows the turn, and no value that allows it is left out (so
        # "no other value of this rule would allow it" is true when the list is empty).
        assert got["allowed_under"] == legal_under, (got, query)
        claims += len(legal_under)
    else:
        for key in CHOICES:
            refusing = [
                v
                for v in other_values(query, key)
                if asked_under(query, key, v).get("legal") is False
            ]
            if key in got["checked"]:
                assert refusing, (key, got, query)
                claims += 1
            elif key not in ("set_max",):
                assert not refusing, (key, refusing, got, query)
    return claims


def with_one_rule_changed(query: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    key = rng.choice([k for k, values in CHOICES.items() if values and k != "set_max"])
    return {**query, "rules": {**query["rules"], key: rng.choice(other_values(query, key))}}


def test_turns_asked_under_a_changed_rule_make_many_claims() -> None:
    """The self-play property above is not vacuous: it checks allowed_under claims too."""
    claims = 0
    for seed in range(30):
        rng = random.Random(seed)
        rules = random_rules(rng)
        state = State.deal(rules, random_players(rules, rng), rules.set_max, rng)
        for _ in range(12):
            if state.outcome is not None:
                break
            query = with_one_rule_changed(turn_query(state, _a_turn(state, rng)), rng)
            got, ok = answer(query)
            if ok and got["legal"] is False:
                claims += len(got["allowed_under"])
            state.apply(rng.choice(list(state.legal_actions)))
    assert claims >= 5


def _a_turn(state: State, rng: random.Random) -> list[Action]:
    """Actions of one turn from ``state``: legal ones, then often one more chosen at random
    among every tile of the hand on every train (usually refused)."""
    copy_ = state.copy()
    seat = copy_.turn
    taken: list[Action] = []
    while copy_.outcome is None and copy_.turn == seat and not (taken and type(taken[-1]) is End):
        if taken and rng.random() < 0.3:
            break
        action = rng.choice(list(copy_.legal_actions))
        copy_.apply(action)
        if type(action) is Draw:
            action = Draw(copy_.drawn)
        taken.append(action)
    hand = copy_.hands[seat] or []
    if rng.random() < 0.6 and hand and copy_.outcome is None and copy_.turn == seat:
        taken.append(Play(rng.choice(hand), rng.choice(copy_.trains)))
    return taken


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_claim_over_self_play_holds_when_asked_again(seed: int) -> None:
    rng = random.Random(seed)
    rules = random_rules(rng)
    state = State.deal(rules, random_players(rules, rng), rules.set_max, rng)
    turns = 0
    while state.outcome is None and turns < 15:
        query = turn_query(state, _a_turn(state, rng))
        check_turn_claims(query)
        # The same turn under one rule changed: often refused by that rule, with the value it
        # was played under among the claims.
        check_turn_claims(with_one_rule_changed(query, rng), readable=False)
        seat = state.turn
        while state.outcome is None and state.turn == seat:
            action = rng.choice(list(state.legal_actions))
            state.apply(action)
            if type(action) is End:
                break
        turns += 1


def test_every_claim_over_the_worked_cases_holds_when_asked_again() -> None:
    claims = sum(check_turn_claims(c["query"]) for c in CASES if c["query"]["kind"] == "turn")
    assert claims > 20


def test_checked_rules_are_named_only_when_asked_for() -> None:
    case = next(c for c in CASES if c["id"] == "C01-anywhere")
    assert "checked" not in answer(case["query"])[0]
    assert answer({**case["query"], "explain": True})[0]["checked"] == ["double_followup"]


def test_a_single_tile_first_turn_is_not_claimed_allowed_under_a_multi_tile_first_turn() -> None:
    """The combination laid on two trains breaks the multi-tile first turn's own rule too."""
    case = next(c for c in CASES if c["id"] == "C11-mexican_true-single-combo")
    got, _ = answer(case["query"])
    assert got["rule"] == "first_turn" and got["allowed_under"] == []
    assert asked_under(case["query"], "first_turn", "multi_own_train")["legal"] is False


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_round_status_claims_hold_when_asked_again(seed: int) -> None:
    """ "Under these other values the round would (not) be over": asked again, it is."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    state = State.deal(rules, random_players(rules, rng), rules.set_max, rng)
    while state.outcome is None:
        state.apply(rng.choice(list(state.legal_actions)))
        if state.outcome is None and state.played == 0 and rng.random() < 0.2:
            query = round_status_query(state)
            got, ok = answer(query)
            assert ok, got
            for key in CHOICES:
                for value, other in other_way(query, got, key):
                    assert (
                        asked_under(query, key, value)["over"] is other["over"] is not got["over"]
                    )


def test_a_draw_then_a_hand_tile_is_not_claimed_allowed_if_you_need_not_play() -> None:
    """Under ``must_play_if_able`` false the draw passes, but then only the drawn tile may be
    played: the turn is still refused, so that value is not claimed."""
    query = {
        "kind": "turn",
        "rules": {"preset": "standard", "must_play_if_able": True},
        "table": {
            "set_max": 12,
            "engine": 12,
            "seats": ["A", "B"],
            "trains": {"A": {"end": 5}, "B": {"end": 9}},
            "boneyard": 10,
        },
        "turn": {"seat": "A", "hand": [[5, 3], [11, 10]]},
        "actions": [{"draw": [6, 1]}, {"play": [5, 3], "on": "A"}],
    }
    got, _ = answer(query)
    assert (got["rule"], got["step"], got["allowed_under"]) == ("must_play_if_able", 0, [])
    again = asked_under(query, "must_play_if_able", False)
    assert (again["legal"], again["rule"]) == (False, "drawn_tile_only")
