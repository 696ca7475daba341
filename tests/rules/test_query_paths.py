"""A referee error carries the field it is about as a path, beside the contract's message.

The contract's messages (``str(error)``) are checked from outside and stay as they are; the
path and the message without it are for a caller that shows the field its own way (the
referee page puts each message next to its form field).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.rules.referee import KINDS, QueryError, answer
from companion.rules.table import FieldPath, path_text

TURN: dict[str, Any] = {
    "kind": "turn",
    "rules": {"preset": "standard", "set_max": 12},
    "table": {
        "set_max": 12,
        "engine": 12,
        "seats": ["Ann", "Bea Lou", "Cy"],
        "trains": {"Ann": {"tiles": [[12, 5], [5, 5]]}, "Bea Lou": {"end": 9}},
        "open_doubles": ["Ann"],
        "boneyard": 10,
    },
    "turn": {"seat": "Cy", "hand": [[5, 1], [7, 3]]},
    "actions": [{"play": [5, 1], "on": "Ann"}],
}

ROUND: dict[str, Any] = {
    "kind": "round_status",
    "rules": {"preset": "standard", "set_max": 12},
    "table": {"engine": 12, "seats": ["Ann", "Bea"], "trains": {}, "boneyard": 0},
    "hands": {"Ann": [[1, 2]], "Bea": [[3, 4]]},
    "next_seat": "Ann",
}


def changed(query: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    """``query`` with the field at ``path`` set to ``value`` (deleted for ``...``)."""
    query = copy.deepcopy(query)
    obj = query
    for key in path[:-1]:
        obj = obj[key]
    if value is ...:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value
    return query


# (query, the path the error names, the message without it)
ERRORS: list[tuple[dict[str, Any], FieldPath, str]] = [
    (changed(TURN, ("rules",), ...), ("rules",), "missing"),
    (changed(TURN, ("table", "engine"), 13), ("table", "engine"), "13 is not a double"),
    (changed(TURN, ("table", "boneyard"), -1), ("table", "boneyard"), "must be 0 or more"),
    (changed(ROUND, ("table", "seats"), ["Ann"]), ("table", "seats"), "at least two"),
    (
        changed(TURN, ("table", "trains", "Bea Lou", "end"), 14),
        ("table", "trains", "Bea Lou", "end"),
        "expected a number from 0 to 12",
    ),
    (
        changed(TURN, ("table", "trains", "Ann", "tiles"), [[12, 5], [4, 4]]),
        ("table", "trains", "Ann", "tiles", 1),
        "4-4 does not match the train's end",
    ),
    (
        changed(TURN, ("table", "trains", "Ann", "marker"), "yes"),
        ("table", "trains", "Ann", "marker"),
        "expected true or false",
    ),
    (
        changed(TURN, ("table", "open_doubles"), ["Cy"]),
        ("table", "open_doubles", 0),
        "Cy's train is not started",
    ),
    (changed(TURN, ("turn", "seat"), "Dee"), ("turn", "seat"), "is not one of table.seats"),
    (changed(TURN, ("turn", "hand"), [[5, 1], [13, 1]]), ("turn", "hand", 1), "not in a"),
    (changed(TURN, ("actions", 0, "on"), "Dee"), ("actions", 0, "on"), "is not a seat"),
    (
        changed(TURN, ("actions",), [{"play": [5, 1], "on": "Ann"}, {"play": [5, 1], "on": "Cy"}]),
        ("actions", 1, "play"),
        "5-1 is laid twice in one turn",
    ),
    (changed(ROUND, ("hands", "Bea"), ...), ("hands", "Bea"), "missing"),
    (changed(ROUND, ("next_seat",), "Cy"), ("next_seat",), '"Cy" is not one of table.seats'),
    (
        {"kind": "setup", "rules": {"preset": "standard", "set_max": 6}, "players": 12},
        ("rules", "hand_size"),
        "has no entry for 12 players",
    ),
]


@pytest.mark.parametrize(("query", "path", "detail"), ERRORS)
def test_an_error_names_its_field_by_path_and_keeps_the_contract_message(
    query: dict[str, Any], path: FieldPath, detail: str
) -> None:
    got, ok = answer(query)
    assert not ok
    with pytest.raises(QueryError) as raised:
        KINDS[query["kind"]](query)
    error = raised.value
    assert error.path == path
    assert detail in error.detail
    assert not error.detail.startswith(path_text(path))
    # The contract's message is the path, then the message without it.
    assert str(error) == got["error"] == f"{path_text(path)}: {error.detail}"


def test_a_tile_in_two_places_names_the_hand_in_words() -> None:
    query = changed(TURN, ("turn", "hand"), [[5, 1], [12, 5]])
    with pytest.raises(QueryError) as raised:
        KINDS["turn"](query)
    error = raised.value
    assert error.path == ("table", "trains", "Ann")
    assert str(error) == answer(query)[0]["error"]
    assert str(error) == "table.trains.Ann: 12-5 is also in the hand of Cy"


@pytest.mark.parametrize(
    ("path", "text"),
    [
        (("table", "trains", "Ann", "tiles", 2), "table.trains.Ann.tiles[2]"),
        (("actions", 0, "play"), "actions[0].play"),
        (("hands", "Bea Lou"), "hands.Bea Lou"),
        ((), ""),
    ],
)
def test_a_path_is_written_as_the_contract_writes_fields(path: FieldPath, text: str) -> None:
    assert path_text(path) == text


def test_every_worked_case_mutated_keeps_its_error_text_and_path() -> None:
    """Each field of each worked case removed or spoilt: the error's path is where its
    message says it is."""
    cases_file = Path(__file__).parent / "data" / "cases.jsonl"
    queries = [json.loads(line)["query"] for line in cases_file.read_text().splitlines()[:40]]
    seen = 0
    for query in queries:
        for key in ("table", "turn", "hands", "actions"):
            if key not in query:
                continue
            for field in list(query[key]) if isinstance(query[key], dict) else []:
                for value in (..., "x", -1):
                    spoilt = changed(query, (key, field), value)
                    try:
                        KINDS[spoilt["kind"]](spoilt)
                    except QueryError as error:
                        seen += 1
                        assert str(error) == answer(spoilt)[0]["error"]
                        if error.where is None:
                            assert str(error) == f"{path_text(error.path)}: {error.detail}"
                        else:
                            assert str(error) == f"{error.where}: {error.detail}"
    assert seen > 100
