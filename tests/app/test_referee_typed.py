"""The referee page builds the rules engine's typed turn query straight from the form: it
must say what the contract says for the JSON query the same form writes, ruling or error."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.referee.dispute import ACTION_KINDS, DisputeForm
from companion.rules import PRESETS, Rules
from companion.rules.referee import QueryError, answer, judge_turn, turn_source, writing

SEATS = ("Ann", "Bea Lou", "Cy", "Dee")


def random_fields(rng: random.Random, set_max: int, rows: list[str]) -> dict[str, str]:
    """A turn as a player might enter it: some ends, open doubles, markers, one to three
    actions, maybe a hand, a first turn, a seat out, an empty boneyard."""
    fields: dict[str, str] = {"engine": str(rng.randint(0, set_max)), "seat": str(rng.randrange(4))}
    for key in rows:
        pick = rng.random()
        if pick < 0.15:
            fields[f"end-{key}"] = "none"
        elif pick < 0.75:
            fields[f"end-{key}"] = str(rng.randint(0, set_max))
        if rng.random() < 0.2:
            fields[f"marker-{key}"] = "on"
        if rng.random() < 0.12:
            fields[f"open-{key}"] = "on"
    if rng.random() < 0.3:
        fields["oldest"] = rng.choice(rows)
    if rng.random() < 0.3:
        fields["first"] = "on"
    if rng.random() < 0.2:
        fields["last"] = "on"
    if rng.random() < 0.15:
        fields[f"out-{rng.randrange(4)}"] = "on"
    fields["boneyard"] = rng.choice(["some", "some", "0", "1", "2"])
    for index in range(rng.randint(1, 3)):
        kind = rng.choice([*ACTION_KINDS, "play", "play"])
        fields[f"act{index}-kind"] = kind
        if kind in ("play", "draw") and rng.random() < 0.9:
            fields[f"act{index}-a"] = str(rng.randint(0, set_max))
            fields[f"act{index}-b"] = str(rng.randint(0, set_max))
        if kind == "play":
            fields[f"act{index}-on"] = rng.choice(rows)
    if rng.random() < 0.15 and "act0-a" in fields:
        # The same tile laid twice: the engine's fault to name, not the form's.
        fields["act1-kind"] = "play"
        fields["act1-a"], fields["act1-b"] = fields["act0-a"], fields["act0-b"]
        fields["act1-on"] = rng.choice(rows)
    return fields


def forms(count: int, seed: int) -> list[DisputeForm]:
    rng = random.Random(seed)
    made: list[DisputeForm] = []
    while len(made) < count:
        data: dict[str, Any] = {"preset": rng.choice(sorted(PRESETS))}
        if rng.random() < 0.3:
            data["mexican_trains"] = 2
        try:
            rules = Rules.from_json({**data, "set_max": rng.choice([6, 9, 12])})
        except ValueError:
            continue
        rows = ["0", "1", "2", "3", "m1"] + (["m2"] if rules.mexican_trains == 2 else [])
        fields = random_fields(rng, rules.set_max, rows)
        hand: list[str] = []
        if rng.random() < 0.6:
            hand = [f"{rng.randint(0, rules.set_max)}-{rng.randint(0, rules.set_max)}"] * 1
            hand += [f"{rng.randint(0, rules.set_max)}-{rng.randint(0, rules.set_max)}"]
            fields["hand"] = "on"
        form = DisputeForm.from_form(
            "turn", SEATS, rules, rules.set_max, fields, {"hand": hand} if hand else {}
        )
        if not form.errors:
            made.append(form)
    return made


def typed_answer(form: DisputeForm) -> dict[str, Any]:
    try:
        turn = form.turn_request()
        return writing.turn_answer(judge_turn(turn, name_checked=True))
    except QueryError as error:
        return {"error": str(error)}


@pytest.mark.parametrize("seed", range(4))
def test_the_typed_turn_rules_as_the_contract_rules_the_same_form(seed: int) -> None:
    outcomes = {"legal": 0, "refused": 0, "error": 0}
    for form in forms(60, seed):
        query = form.turn_query()
        expected, _ok = answer({**query, "explain": True})
        got = typed_answer(form)
        assert got == expected, query
        if "error" in got:
            outcomes["error"] += 1
            continue
        outcomes["legal" if got["legal"] else "refused"] += 1
        # The typed query written back is the form's own query (rules compared as rules).
        written = turn_source(form.turn_request())
        assert Rules.from_json(written.pop("rules")) == Rules.from_json(query.pop("rules"))
        assert written == query
    # The forms reach every kind of outcome, so the comparison means something.
    assert all(outcomes.values()), outcomes


def test_a_seat_named_like_a_train_is_refused_as_the_contract_refuses_it() -> None:
    rules = Rules.from_json({"preset": "standard"})
    fields = {"seat": "0", "end-1": "5", "act0-kind": "play", "act0-a": "5", "act0-b": "2"}
    fields["act0-on"] = "1"
    form = DisputeForm.from_form("turn", ("Ann", "mexican"), rules, 12, fields, {})
    expected, ok = answer(form.turn_query())
    assert not ok
    assert typed_answer(form) == expected
    assert "seat names must be distinct" in expected["error"]
