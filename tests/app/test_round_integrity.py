"""A round the rules would not allow is refused by the API and the pages alike."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import GameActions

FOUR = ["Ann", "Bob", "Cy", "Dee"]  # standard double-12: round 1's engine is 12-12


@pytest.mark.parametrize(
    ("scores", "field", "words"),
    [
        (
            {"Ann": {"went_out": True}, "Bob": {"went_out": True}},
            "scores.Bob.went_out",
            "only one player goes out",
        ),
        ({"Ann": {"went_out": True}, "Cy": {"tiles": []}}, "scores.Cy.went_out", "Ann and Cy"),
        ({"Bob": {"tiles": [[12, 12], [1, 2]]}}, "scores.Bob.tiles", "12-12 is this round"),
        (
            {"Ann": {"tiles": [[5, 6]]}, "Dee": {"tiles": [[6, 5]]}},
            "scores.Dee.tiles",
            "both Ann's and Dee's",
        ),
        ({"Cy": {"points": 999}}, "scores.Cy.points", "Did you mean 99?"),
    ],
)
def test_api_refuses_a_round_the_rules_do_not_allow(
    games: GameActions, scores: dict[str, Any], field: str, words: str
) -> None:
    created = games.create(FOUR)
    response = games.put_round(created, 1, scores, version=1)
    assert response.status_code == 400
    body = response.get_json()
    assert body["field"] == field
    assert words in body["error"]
    assert body["problems"][0]["field"] == field
    assert games.get(created["id"])["version"] == 1


def test_api_takes_an_unlikely_score_once_confirmed(
    client: FlaskClient, games: GameActions
) -> None:
    created = games.create(FOUR)
    refused = games.put_round(created, 1, {"Cy": {"points": 999}}, version=1).get_json()
    assert refused["problems"] == [
        {"field": "scores.Cy.points", "error": refused["error"], "confirm": True, "suggestion": 99}
    ]
    headers = {"Authorization": f"Bearer {created['edit_token']}"}
    url = f"/api/games/{created['id']}/rounds/1"
    body = {"scores": {"Cy": {"points": 999}}, "version": 1}
    assert client.put(url, json={**body, "confirm": "yes"}, headers=headers).status_code == 400
    saved = client.put(url, json={**body, "confirm": True}, headers=headers)
    assert saved.status_code == 200
    assert saved.get_json()["totals"]["Cy"] == 999
    # Once on the sheet it needs no confirming again when another score of the round is added.
    more = {"Cy": {"points": 999}, "Ann": {"went_out": True}}
    assert games.put_round(created, 1, more, version=2).status_code == 200
    # A confirmed score is never a way past a refusal.
    both_out = {**body, "scores": {"Ann": {"went_out": True}, "Bob": {"went_out": True}}}
    both_out["version"] = 3
    assert client.put(url, json={**both_out, "confirm": True}, headers=headers).status_code == 400


def owned(games: GameActions) -> dict[str, Any]:
    created = games.create(FOUR)
    games.claim(created)
    return created


def test_page_puts_each_problem_by_its_player_and_keeps_what_was_typed(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    response = client.post(
        f"/games/{created['id']}/rounds/1",
        data={"version": "1", "out-0": "on", "out-2": "on", "points-3": "17"},
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert '<p class="field-error" id="points-2-error">' in page
    assert "Ann and Cy are all marked as going out" in page
    assert "nothing was saved" in page
    assert 'value="17"' in page
    assert "Round 1 saved" not in page
    assert games.get(created["id"])["version"] == 1


def test_page_asks_did_you_mean_before_saving_an_unlikely_score(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    form = {"version": "1", "points-0": "999", "points-1": "12"}
    asked = client.post(f"/games/{created['id']}/rounds/1", data=form)
    assert asked.status_code == 400
    page = asked.get_data(as_text=True)
    assert "Did you mean 99?" in page
    assert 'name="confirm-0"' in page and "Yes, 999 is right for Ann" in page
    assert 'value="999"' in page and 'value="12"' in page
    assert games.get(created["id"])["version"] == 1
    fixed = client.post(f"/games/{created['id']}/rounds/1", data={**form, "points-0": "99"})
    assert fixed.status_code == 302
    assert games.get(created["id"])["totals"]["Ann"] == 99


def test_page_saves_an_unlikely_score_when_confirmed(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    form = {"version": "1", "points-0": "999", "confirm-0": "on"}
    assert client.post(f"/games/{created['id']}/rounds/1", data=form).status_code == 302
    assert games.get(created["id"])["totals"]["Ann"] == 999


def test_tile_picker_refuses_the_engine_and_a_tile_in_another_hand(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    games.put_round(created, 1, {"Ann": {"tiles": [[3, 4]]}}, version=1)
    url = f"/games/{created['id']}/rounds/1/tiles/1"
    engine = client.post(url, data={"version": "2", "tile": ["12-12", "1-2"]})
    assert engine.status_code == 400
    assert "it was on the table" in engine.get_data(as_text=True)
    twice = client.post(url, data={"version": "2", "tile": ["4-3"]})
    assert twice.status_code == 400
    assert "picked in both Ann&#39;s and Bob&#39;s hands" in twice.get_data(as_text=True)
    assert games.get(created["id"])["version"] == 2


def test_a_schedule_change_that_puts_an_engine_into_a_hand_is_refused(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    games.put_round(created, 1, {"Ann": {"tiles": [[9, 9]]}}, version=1)
    response = client.post(
        f"/games/{created['id']}/schedule",
        data={"version": "2", "schedule_kind": "start", "schedule_start": "9"},
    )
    assert response.status_code == 400
    assert "round 1 would not add up: The 9-9 is this round" in response.get_data(as_text=True)
    assert games.get(created["id"])["version"] == 2


@pytest.mark.parametrize(
    ("use_mine", "blanks"), [(False, "double_blank_50"), (True, "double_blank_25")]
)
def test_a_house_rules_conflict_shows_both_values_and_keeps_the_sheets(
    client: FlaskClient, games: GameActions, use_mine: bool, blanks: str
) -> None:
    created = owned(games)
    url = f"/games/{created['id']}/rules"
    first = {"version": "1", "preset": "standard", "rule-blank_scoring": "double_blank_50"}
    assert client.post(url, data=first).status_code == 302  # the other phone
    mine = {
        "version": "1",
        "preset": "standard",
        "rule-blank_scoring": "double_blank_25",
        "rule-going_out_bonus": "-10",
    }
    stale = client.post(url, data=mine)
    assert stale.status_code == 409
    page = stale.get_data(as_text=True)
    assert (
        "What blanks count: on the sheet now: the double-blank counts 50; other blanks count 0 "
        "— yours: the double-blank counts 25; other blanks count 0." in page
    )
    assert 'name="mine-value-blank_scoring" value="&#34;double_blank_25&#34;"' in page
    assert '<option value="double_blank_50" selected' in page  # the sheet's value is kept
    assert (
        "Bonus for going out"
        not in page.split("Changed on another phone")[1].split("</fieldset>")[0]
    )
    again = {**mine, "version": "2", "rule-blank_scoring": "double_blank_50"}
    if use_mine:
        again |= {"mine-blank_scoring": "on", "mine-value-blank_scoring": '"double_blank_25"'}
    assert client.post(url, data=again).status_code == 302
    rules = games.get(created["id"])["rules"]
    assert rules["blank_scoring"] == blanks
    assert rules["going_out_bonus"] == -10  # this phone's own change, untouched elsewhere


def test_a_schedule_conflict_names_both_schedules_and_keeps_the_sheets(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    url = f"/games/{created['id']}/schedule"
    other = {"version": "1", "schedule_kind": "start", "schedule_start": "9"}
    assert client.post(url, data=other).status_code == 302
    mine = {"version": "1", "schedule_kind": "short"}
    stale = client.post(url, data=mine)
    assert stale.status_code == 409
    page = stale.get_data(as_text=True)
    assert "On the sheet now: 9 8 7 6 5 4 3 2 1 0 — yours: 12 11 10 9 8 7 6." in page
    assert len(games.get(created["id"])["rounds"]) == 10


def test_a_hand_picked_on_two_phones_keeps_the_sheets_tiles_until_chosen_again(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    games.put_round(created, 1, {"Bob": {"tiles": [[3, 4]]}}, version=1)  # the other phone
    url = f"/games/{created['id']}/rounds/1/tiles/1"
    stale = client.post(url, data={"version": "1", "tile": ["5-5", "6-1"]})
    assert stale.status_code == 409
    page = stale.get_data(as_text=True)
    assert "On the sheet now: tiles 4-3 — yours: tiles 5-5 6-1." in page
    assert games.get(created["id"])["rounds"][0]["scores"]["Bob"]["tiles"] == [[3, 4]]
    assert client.post(url, data={"version": "2", "tile": ["5-5", "6-1"]}).status_code == 302
    assert games.get(created["id"])["totals"]["Bob"] == 17
