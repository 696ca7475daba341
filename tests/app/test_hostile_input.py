"""Input no player would send still gets a clean 400/404/413 with a message, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import GameActions

DEEP = "[" * 1000 + "]" * 1000
LONG = "7" * 5000


def owned(games: GameActions) -> dict[str, Any]:
    created = games.create(["Ann", "Bob"])
    games.claim(created)
    return created


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ('{"players": ' + DEEP + "}", 400, "nested too deeply"),
        ('{"players": ["Ann", "Bob"], "rules": {"set_max": ' + LONG + "}}", 400, "far too long"),
        ('{"players": ["Ann", "Bob"], "rules": {"set_max": NaN}}', 400, "NaN is not a number"),
        ("{not json", 400, "not valid JSON"),
        ("[1, 2]", 400, "must be a JSON object"),
        (json.dumps({"players": ["Ann", "Bob"], "junk": "x" * 10_000_000}), 413, "64 kB"),
        (json.dumps({"players": ["Ann", "Bob"], "rules": {"schedule": [1] * 130_000}}), 413, "kB"),
        (
            json.dumps({"players": ["Ann", "Bob"], "rules": {"schedule": [1] * 61}}),
            400,
            "at most 60",
        ),
        (json.dumps({"players": ["A"] * 65}), 400, "at most 64 players"),
    ],
)
def test_hostile_json_when_creating(
    client: FlaskClient, body: str, status: int, words: str
) -> None:
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == status
    assert words in response.get_json()["error"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ('{"version": ' + LONG + ', "scores": {}}', None, "far too long"),
        ('{"version": 1, "scores": {"Ann": {"points": 1e400}}}', "scores.Ann.points", "9 digits"),
        ('{"version": 1, "scores": {"Ann": {"points": Infinity}}}', None, "Infinity is not"),
        ('{"version": 1, "scores": {"Ann": {"points": 1234567890}}}', "scores.Ann.points",
         "9 digits"),
        ('{"version": 1e400, "scores": {}}', "version", "9 digits"),
        ('{"version": 1, "scores": {"Ann": {"tiles": [' + ", ".join(["[1, 2]"] * 92) + "]}}}",
         "scores.Ann.tiles", "only 91 tiles"),
        ('{"version": 1, "scores": {"Ann": {"points": 3}}, "confirm": ' + DEEP + "}", None,
         "nested too deeply"),
    ],
)  # fmt: skip
def test_hostile_json_when_writing_a_round(
    client: FlaskClient, games: GameActions, body: str, field: str | None, words: str
) -> None:
    created = games.create(["Ann", "Bob"])
    response = client.put(
        f"/api/games/{created['id']}/rounds/1",
        data=body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    assert response.status_code == 400
    answer = response.get_json()
    assert words in answer["error"]
    assert answer.get("field") == field
    assert games.get(created["id"])["version"] == 1


@pytest.mark.parametrize("path", ["/api/games/ab%00cd", "/games/ab%00cd", "/games/ab%00cd/view"])
def test_a_nul_in_a_game_id_is_a_404(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "no game at this address" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("rounds/1", {"version": LONG, "points-0": "3"}),
        ("rounds/1", {"version": "1", "points-0": LONG}),
        ("rounds/1/clear", {"version": LONG}),
        ("undo", {"version": LONG}),
        ("rules", {"version": LONG, "preset": "standard"}),
        ("rules", {"version": "1", "preset": "standard", "rule-set_max": LONG}),
        ("rules", {"version": "1", "preset": "standard", "rule-going_out_bonus": LONG}),
        ("schedule", {"version": "1", "schedule_kind": "start", "schedule_start": LONG}),
        ("schedule", {"version": "1", "schedule_kind": "custom", "schedule_custom": LONG}),
        ("schedule", {"version": "1", "schedule_kind": "custom", "schedule_custom": "1 " * 61}),
        ("rounds/1/tiles/0", {"version": LONG, "tile": "1-2"}),
    ],
)
def test_long_numbers_in_every_form_are_a_400(
    client: FlaskClient, games: GameActions, path: str, form: dict[str, str]
) -> None:
    created = owned(games)
    response = client.post(f"/games/{created['id']}/{path}", data=form)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert page.count(LONG) <= 1  # kept in its box to correct, never echoed in a message
    assert games.get(created["id"])["version"] == 1


@pytest.mark.parametrize(
    "query",
    [f"rule-set_max={LONG}", f"player-0=Ann&rule-hand_size=custom&rule-hand_size_custom=2:{LONG}"],
)
def test_long_numbers_in_the_new_game_form_are_refused(client: FlaskClient, query: str) -> None:
    assert client.get(f"/games/new/deal?{query}").status_code == 200  # the preview says why
    assert LONG not in client.get(f"/games/new/deal?{query}").get_data(as_text=True)
    form = dict(part.split("=", 1) for part in query.split("&"))
    response = client.post("/games/new", data={"player-0": "Ann", "player-1": "Bob", **form})
    assert response.status_code == 400
    assert response.get_data(as_text=True).count(LONG) <= 1  # only in its box


def test_a_long_round_number_in_the_address_is_ignored(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    assert client.get(f"/games/{created['id']}?round={LONG}").status_code == 200


@pytest.mark.parametrize(
    ("typed", "stored", "message"),
    [
        ("１２", 12, None),
        ("٣", 3, None),
        ("NaN", None, "typed in digits, not &#39;NaN&#39;"),
        ("Infinity", None, "typed in digits, not &#39;Infinity&#39;"),
        ("1e400", None, "not as a power of ten"),
        ("1234567890", None, "at most 9 digits"),
        ("2.5", None, "not a fraction"),
    ],
)
def test_typed_points_in_other_scripts_and_odd_numbers(
    client: FlaskClient, games: GameActions, typed: str, stored: int | None, message: str | None
) -> None:
    created = owned(games)
    response = client.post(
        f"/games/{created['id']}/rounds/1", data={"version": "1", "points-0": typed}
    )
    if stored is not None:
        assert response.status_code == 302
        assert games.get(created["id"])["totals"]["Ann"] == stored
    else:
        assert response.status_code == 400
        assert message in response.get_data(as_text=True)
