"""The referee page builds the rules engine's typed queries straight from the form: each must
be judged as the contract judges the same query written as JSON, and read back from that JSON
unchanged."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.referee.dispute import ACTION_KINDS, ROUND_END_CHOICES, DisputeForm
from companion.rules import PRESETS, Rules, Tile
from companion.rules.referee import (
    QueryError,
    answer,
    judge_turn,
    judging,
    last_tile_call_source,
    round_status_source,
    score_source,
    setup_source,
    turn_source,
    writing,
)
from companion.rules.referee.reading import (
    read_last_tile_call,
    read_round_status,
    read_score,
    read_setup,
    read_turn,
)
from companion.rules.scoring import ROUND_ENDS

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
def test_the_typed_turn_rules_as_the_contract_rules_the_same_query(seed: int) -> None:
    outcomes = {"legal": 0, "refused": 0, "error": 0}
    for form in forms(60, seed):
        got = typed_answer(form)
        if "error" in got:
            outcomes["error"] += 1
            continue
        query = turn_source(form.turn_request())
        expected, _ok = answer({**query, "explain": True})
        assert got == expected, query
        outcomes["legal" if got["legal"] else "refused"] += 1
        # Read back from its JSON, the query writes the same JSON again.
        assert turn_source(read_turn(query)) == query
    # The forms reach every kind of outcome, so the comparison means something.
    assert all(outcomes.values()), outcomes


def test_a_tile_laid_twice_is_the_engines_fault_to_name() -> None:
    rules = Rules.from_json({"preset": "standard"})
    fields = {"seat": "0", "end-0": "5", "end-1": "2", "act0-kind": "play", "act0-a": "5",
              "act0-b": "2", "act0-on": "0", "act1-kind": "play", "act1-a": "5", "act1-b": "2",
              "act1-on": "1"}  # fmt: skip
    form = DisputeForm.from_form("turn", SEATS, rules, 12, fields, {})
    with pytest.raises(QueryError) as raised:
        form.turn_request()
    assert raised.value.path[:2] == ("actions", 1)


def test_a_seat_named_like_a_train_is_refused_as_the_contract_refuses_it() -> None:
    rules = Rules.from_json({"preset": "standard"})
    fields = {"seat": "0", "end-1": "5", "act0-kind": "play", "act0-a": "5", "act0-b": "2"}
    fields["act0-on"] = "1"
    form = DisputeForm.from_form("turn", ("Ann", "mexican"), rules, 12, fields, {})
    assert "seat names must be distinct" in typed_answer(form)["error"]


# -- the other questions ---------------------------------------------------------------------


def other_forms(ask: str, count: int, seed: int) -> list[DisputeForm]:
    """Forms of ``ask`` ("round", "score", "call", "setup") as a player might fill them in."""
    rng = random.Random(seed)
    made: list[DisputeForm] = []
    while len(made) < count:
        try:
            rules = Rules.from_json(
                {"preset": rng.choice(sorted(PRESETS)), "set_max": rng.choice([6, 9, 12])}
            )
        except ValueError:
            continue
        top = rules.set_max
        fields: dict[str, str] = {"ask": ask, "engine": str(rng.randint(0, top))}
        lists: dict[str, list[str]] = {}
        if ask == "round":
            fields["next"] = str(rng.randrange(4))
            fields["passes"] = str(rng.choice([0, 0, 1, 3, 4]))
            fields["boneyard"] = rng.choice(["some", "0"])
            for key in ("0", "1", "2", "3", "m1"):
                if rng.random() < 0.7:
                    fields[f"end-{key}"] = str(rng.randint(0, top))
            for seat in range(4):
                pick = rng.random()
                if pick < 0.2:
                    fields[f"out-{seat}"] = "on"
                elif pick < 0.7:
                    tiles = {(rng.randint(0, top), rng.randint(0, top)) for _ in range(2)}
                    lists[f"hand-{seat}"] = [f"{a}-{b}" for a, b in tiles]
        elif ask == "score":
            tiles = {(rng.randint(0, top), rng.randint(0, top)) for _ in range(rng.randint(0, 5))}
            lists["hand"] = [f"{a}-{b}" for a, b in tiles]
            fields["markers_up"] = str(rng.randint(0, 3))
            fields["round_end"] = rng.choice(["", "went_out", "went_out_on_double", "blocked"])
            for box in ("went_out", "lowest"):
                if rng.random() < 0.3:
                    fields[box] = "on"
        elif ask == "call":
            fields["call_boneyard"] = str(rng.choice([0, 1, 2, 5]))
            if rng.random() < 0.3:
                fields["in_time"] = "on"
        else:
            fields["players"] = str(rng.randint(2, 12))
        form = DisputeForm.from_form(ask, SEATS, rules, top, fields, lists)
        if not form.errors:
            made.append(form)
    return made


def judged(form: DisputeForm) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each of the form's typed queries written as JSON, with the typed judge's answer."""
    if form.ask == "round":
        return [
            (round_status_source(q), writing.status_answer(*judging.judge_round_status(q)))
            for q in form.round_requests()
        ]
    if form.ask == "score":
        score = form.score_request()
        return [(score_source(score), writing.score_answer(judging.judge_score(score)))]
    if form.ask == "call":
        call = form.call_request()
        penalty = judging.judge_last_tile_call(call)
        return [(last_tile_call_source(call), writing.last_tile_call_answer(call, penalty))]
    setup = form.setup_request()
    return [(setup_source(setup), writing.setup_answer(*judging.judge_setup(setup)))]


READ_BACK = {
    "round_status": (read_round_status, round_status_source),
    "score": (read_score, score_source),
    "last_tile_call": (read_last_tile_call, last_tile_call_source),
    "setup": (read_setup, setup_source),
}


@pytest.mark.parametrize("ask", ["round", "score", "call", "setup"])
def test_the_other_typed_questions_rule_as_the_contract_rules_them(ask: str) -> None:
    verdicts: set[str] = set()
    for form in other_forms(ask, 40, seed=len(ask)):
        try:
            pairs = judged(form)
        except QueryError as error:
            verdicts.add("error")
            assert str(error)
            continue
        for query, got in pairs:
            expected, ok = answer(query)
            assert ok and got == expected, query
            read, write = READ_BACK[query["kind"]]
            assert write(read(query)) == query
            verdicts.add(json.dumps(got, sort_keys=True))
    # The forms reach more than one answer, so the comparison means something.
    assert len(verdicts) > 3, verdicts


def test_the_score_form_asks_what_the_player_ticked() -> None:
    rules = Rules.from_json({"preset": "standard"})
    fields = {"ask": "score", "went_out": "on", "markers_up": "2", "round_end": "blocked"}
    form = DisputeForm.from_form("score", SEATS, rules, 12, fields, {"hand": ["12-0", "0-0"]})
    score = form.score_request()
    assert set(score.hand) == {Tile(12, 0), Tile(0, 0)}
    assert (score.went_out, score.markers_up, score.round_end, score.lowest) == (
        True, 2, "blocked", False,
    )  # fmt: skip


@pytest.mark.parametrize("end", ROUND_ENDS)
def test_every_way_a_round_can_end_is_offered_and_asked_as_itself(end: str) -> None:
    rules = Rules.from_json({"preset": "standard"})
    fields = {"ask": "score", "round_end": end}
    form = DisputeForm.from_form("score", SEATS, rules, 12, fields, {"hand": ["12-0"]})
    assert form.score_request().round_end == end
    words = ROUND_END_CHOICES[end]
    assert words[0].isupper() and "_" not in words
