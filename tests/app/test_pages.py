"""The HTML pages: set-up, the scoresheet and its forms, sharing, export, and error pages."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import GameActions

PLAYERS = ["Ann", "Bob", "Cy"]


def setup_form(names: list[str], **rules: str) -> dict[str, str]:
    form = {f"player-{seat}": name for seat, name in enumerate(names)}
    form.update({"preset": "standard", **rules})
    return form


def version_of(games: GameActions, created: dict[str, Any]) -> int:
    version: int = games.get(created["id"])["version"]
    return version


def owned_game(
    games: GameActions, players: list[str] | None = None, rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    created = games.create(players or PLAYERS, rules)
    games.claim(created)
    return created


def test_home_shows_join_address_qr_and_new_game_button(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "http://table.test:5000/" in page
    assert 'role="img" aria-label="QR code for http://table.test:5000/"' in page
    assert 'href="/games/new"' in page
    assert "No games yet." in page


def test_home_lists_games_with_resume_only_for_the_owner(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games)
    page = client.get("/").get_data(as_text=True)
    assert "Ann, Bob, Cy" in page
    assert f'href="/games/{created["id"]}"' in page
    assert f'action="/games/{created["id"]}/delete"' in page
    stranger = app.test_client().get("/").get_data(as_text=True)
    assert f'href="/games/{created["id"]}/view"' in stranger
    assert "/delete" not in stranger


def test_new_game_form_explains_every_rule(client: FlaskClient) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    for key in (
        "blank_scoring",
        "going_out_bonus",
        "open_marker_penalty",
        "double_followup",
        "satisfy_scope",
        "mexican_trains",
        "dead_double",
    ):
        assert f'id="rule-{key}"' in page
        assert f'id="rule-{key}-help"' in page
    assert page.count("Source:") >= 27
    assert "<strong>15</strong> tiles each for 4 players" in page
    for seat in range(8):
        assert f'<label for="player-{seat}">Player {seat + 1}</label>' in page


def test_creating_a_game_from_the_form_opens_its_scoresheet(client: FlaskClient) -> None:
    response = client.post(
        "/games/new",
        data=setup_form(["Ann", "Bob", "Cy", "Dee"], **{"rule-blank_scoring": "double_blank_50"}),
    )
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Save round 1" in page
    assert "the double-blank counts 50" in page  # the blank rule in words, not its setting
    game = client.get(f"/api/games/{game_id}").get_json()
    assert game["players"] == ["Ann", "Bob", "Cy", "Dee"]
    assert game["rules"]["blank_scoring"] == "double_blank_50"


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        (setup_form(["Ann", "Bob", "ann"]), "player-2", "already the name of player 1"),
        (
            {**setup_form(["Ann"]), "player-3": "Bob", "player-5": "BOB"},
            "player-5",
            "already the name of player 2",
        ),
        (setup_form(["Ann"]), "players", "at least 2 players"),
        (
            setup_form(["Ann", "Bob"], **{"rule-going_out_bonus": "5"}),
            "rule-going_out_bonus",
            "0 or negative",
        ),
        (
            setup_form(["Ann", "Bob"], **{"rule-hand_size": "custom", "hand_size_custom": "lots"}),
            "rule-hand_size",
            "players:tiles",
        ),
        (
            setup_form(["Ann", "Bob"], schedule_kind="start", schedule_start="13"),
            "schedule_kind",
            "no double-13",
        ),
    ],
)
def test_setup_errors_show_next_to_their_field(
    client: FlaskClient, form: dict[str, str], field: str, message: str
) -> None:
    response = client.post("/games/new", data=form)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert message in page
    if field != "players":
        assert re.search(rf'id="{field}"[^>]*aria-invalid="true"', page, re.S), field
    # What the user typed is still there.
    assert 'value="Ann"' in page
    assert client.get("/").get_data(as_text=True).count("game-item") == 0


def test_preview_button_shows_the_deal_without_creating(client: FlaskClient) -> None:
    form = setup_form(["A", "B", "C", "D", "E"], **{"rule-hand_size": "fundex"})
    response = client.post("/games/new", data={**form, "action": "preview"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "<strong>11</strong> tiles each for 5 players" in page
    assert "<strong>35</strong> in the boneyard" in page
    assert "game-item" not in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("player-0=A&player-1=B", {"hand_size": 15, "boneyard": 60, "rounds": 13}),
        ("player-0=A&player-1=B&rule-set_max=9", {"hand_size": 9, "boneyard": 36, "rounds": 10}),
        ("player-0=A&player-1=B&schedule_kind=short", {"rounds": 7}),
    ],
)
def test_deal_preview_json(client: FlaskClient, query: str, expected: dict[str, int]) -> None:
    data = client.get(f"/games/new/deal?{query}").get_json()
    for key, value in expected.items():
        assert data[key] == value


def test_deal_preview_reports_impossible_deals(client: FlaskClient) -> None:
    query = (
        "&".join(f"player-{i}=P{i}" for i in range(4)) + "&rule-set_max=6&rule-hand_size=wikihow"
    )
    data = client.get(f"/games/new/deal?{query}").get_json()
    assert "error" in data


def test_viewer_sees_no_forms_owner_sees_them(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games)
    owner_page = client.get(f"/games/{created['id']}").get_data(as_text=True)
    assert 'name="points-0"' in owner_page
    assert "Undo last change" in owner_page
    assert created["edit_token"] in owner_page  # the owner can pass the edit link on
    for page in (
        app.test_client().get(f"/games/{created['id']}").get_data(as_text=True),
        client.get(f"/games/{created['id']}/view").get_data(as_text=True),
    ):
        assert "points-0" not in page
        assert "Read-only view" in page
        assert created["edit_token"] not in page
        assert f"/games/{created['id']}/view" in page  # share link and its QR


def test_saving_a_round_with_typed_out_and_marker_scores(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games, rules={"open_marker_penalty": 10})
    response = client.post(
        f"/games/{created['id']}/rounds/1",
        data={"version": "1", "points-0": "12", "out-1": "on", "points-2": "7", "marker-2": "on"},
    )
    assert response.status_code == 302
    game = games.get(created["id"])
    assert game["totals"] == {"Ann": 12, "Bob": 0, "Cy": 17}
    page = client.get(f"/games/{created['id']}").get_data(as_text=True)
    assert "Round 1 saved." in page
    assert "Save round 2" in page
    assert "Entered round 1" in page


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("-3", "can&#39;t be negative"),
        ("2.5", "not a fraction"),
        ("12,5", "not a fraction"),
        ("ten", "whole number (you typed &#39;ten&#39;)"),
        ("5000", "more than any hand"),
    ],
)
def test_bad_typed_points_show_a_message_next_to_the_player(
    client: FlaskClient, games: GameActions, typed: str, message: str
) -> None:
    created = owned_game(games)
    response = client.post(
        f"/games/{created['id']}/rounds/1",
        data={"version": "1", "points-0": "4", "points-1": typed},
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert '<p class="field-error" id="points-1-error">' in page
    assert message in page
    assert f'value="{typed}"' in page  # the typed value is kept for correction
    assert games.get(created["id"])["version"] == 1


def test_stale_form_from_a_second_phone_is_refused_and_kept(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games)
    games.put_round(created, 1, {"Ann": {"points": 5}}, version=1)  # the first phone
    response = client.post(
        f"/games/{created['id']}/rounds/1",
        data={"version": "1", "points-0": "40", "points-1": "9"},
    )
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "changed on another phone" in page and "nothing was saved" in page
    # Ann's cell changed there: the sheet's 5 is in the box, this phone's 40 beside it.
    assert "On the sheet now: 5 — yours: 40." in page
    assert 'name="mine-points-0" value="40"' in page
    assert 'id="points-0" name="points-0"' in page and 'value="5"' in page
    assert 'value="9"' in page  # Bob's cell changed nowhere else: kept as typed
    assert 'name="version" value="2"' in page
    assert games.get(created["id"])["totals"]["Ann"] == 5


def test_forms_without_the_edit_token_are_refused(app: Flask, games: GameActions) -> None:
    created = games.create()
    stranger = app.test_client()
    for path in (
        f"/games/{created['id']}/rounds/1",
        f"/games/{created['id']}/rounds/1/clear",
        f"/games/{created['id']}/undo",
        f"/games/{created['id']}/delete",
        f"/games/{created['id']}/schedule",
    ):
        response = stranger.post(path, data={"version": "1", "points-0": "3"})
        assert response.status_code == 401, path
        assert "edit link" in response.get_data(as_text=True)
    assert stranger.get(f"/games/{created['id']}/rules").status_code == 401
    assert stranger.get(f"/games/{created['id']}/rounds/1/tiles/0").status_code == 401
    assert games.get(created["id"])["version"] == 1


def test_a_wrong_edit_link_is_403(client: FlaskClient, games: GameActions) -> None:
    created = games.create()
    response = client.get(f"/games/{created['id']}/edit/not-the-token")
    assert response.status_code == 403
    assert "<h1>" in response.get_data(as_text=True)


def test_picking_tiles_scores_them_and_keeps_them(client: FlaskClient, games: GameActions) -> None:
    created = owned_game(games, rules={"blank_scoring": "double_blank_50"})
    page = client.get(f"/games/{created['id']}/rounds/1/tiles/1").get_data(as_text=True)
    assert page.count('name="tile"') == 91
    response = client.post(
        f"/games/{created['id']}/rounds/1/tiles/1",
        data={"version": "1", "tile": ["0-0", "6-5"]},
    )
    assert response.status_code == 302
    game = games.get(created["id"])
    assert game["rounds"][0]["scores"]["Bob"] == {"points": 61, "tiles": [[0, 0], [6, 5]]}
    sheet = client.get(f"/games/{created['id']}?round=1").get_data(as_text=True)
    assert "Tiles kept: 0-0 6-5" in sheet
    # Saving the round form with Bob's points box empty keeps his tiles.
    client.post(
        f"/games/{created['id']}/rounds/1",
        data={"version": "2", "points-0": "3", "tiles-1": "0-0 6-5", "out-2": "on"},
    )
    assert games.get(created["id"])["totals"] == {"Ann": 3, "Bob": 61, "Cy": 0}


@pytest.mark.parametrize(
    ("tiles", "message"),
    [(["13-1"], "has no 13-1"), (["5-6", "6-5"], "listed twice"), (["five"], "not a tile")],
)
def test_bad_tiles_are_refused(
    client: FlaskClient, games: GameActions, tiles: list[str], message: str
) -> None:
    created = owned_game(games)
    response = client.post(
        f"/games/{created['id']}/rounds/1/tiles/0", data={"version": "1", "tile": tiles}
    )
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert games.get(created["id"])["version"] == 1


def test_changing_the_blank_rule_rescores_picked_tiles(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games)
    games.put_round(created, 1, {"Ann": {"tiles": [[0, 0], [3, 4]]}, "Bob": {"points": 9}})
    assert games.get(created["id"])["totals"]["Ann"] == 7
    response = client.post(
        f"/games/{created['id']}/rules",
        data={"version": "2", "preset": "standard", "rule-blank_scoring": "double_blank_25"},
    )
    assert response.status_code == 302
    game = games.get(created["id"])
    assert game["totals"] == {"Ann": 32, "Bob": 9, "Cy": 0}
    assert "Changed the house rules" in client.get(f"/games/{created['id']}").get_data(as_text=True)
    client.post(f"/games/{created['id']}/undo", data={"version": "3"})
    assert games.get(created["id"])["totals"]["Ann"] == 7


def test_rules_page_locks_the_set_once_scores_exist(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games)
    games.put_round(created, 1, {"Ann": {"points": 1}})
    page = client.get(f"/games/{created['id']}/rules").get_data(as_text=True)
    assert re.search(r'id="rule-set_max" name="rule-set_max" disabled', page)
    response = client.post(
        f"/games/{created['id']}/rules",
        data={"version": "2", "preset": "standard", "rule-set_max": "9"},
    )
    assert response.status_code == 400
    assert "can&#39;t change once scores are entered" in response.get_data(as_text=True)


def test_edit_clear_and_undo_a_past_round(client: FlaskClient, games: GameActions) -> None:
    created = owned_game(games)
    games.put_round(
        created, 1, {"Ann": {"points": 5}, "Bob": {"points": 6}, "Cy": {"went_out": True}}
    )
    games.put_round(
        created, 2, {"Ann": {"points": 1}, "Bob": {"points": 2}, "Cy": {"went_out": True}}
    )
    edit_page = client.get(f"/games/{created['id']}?round=1").get_data(as_text=True)
    assert "Save round 1" in edit_page and 'value="5"' in edit_page
    client.post(
        f"/games/{created['id']}/rounds/1",
        data={"version": "3", "points-0": "50", "points-1": "6", "out-2": "on"},
    )
    assert games.get(created["id"])["totals"]["Ann"] == 51
    client.post(f"/games/{created['id']}/rounds/2/clear", data={"version": "4"})
    assert games.get(created["id"])["totals"]["Ann"] == 50
    client.post(f"/games/{created['id']}/undo", data={"version": "5"})
    assert games.get(created["id"])["totals"]["Ann"] == 51
    client.post(f"/games/{created['id']}/undo", data={"version": "6"})
    assert games.get(created["id"])["totals"]["Ann"] == 6
    page = client.get(f"/games/{created['id']}").get_data(as_text=True)
    assert "Edited round 1" in page and "Ann: 5 → 50" in page
    assert "Cleared round 2" in page
    assert page.count("(undone)") == 2


def test_undo_with_nothing_to_undo_says_so(client: FlaskClient, games: GameActions) -> None:
    created = owned_game(games)
    response = client.post(f"/games/{created['id']}/undo", data={"version": "1"})
    assert response.status_code == 409
    assert "nothing to undo" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("form", "engines"),
    [
        ({"schedule_kind": "short"}, [12, 11, 10, 9, 8, 7, 6]),
        ({"schedule_kind": "start", "schedule_start": "9"}, list(range(9, -1, -1))),
        ({"schedule_kind": "custom", "schedule_custom": "12 10 8"}, [12, 10, 8]),
    ],
)
def test_schedule_can_be_shortened_or_restarted(
    client: FlaskClient, games: GameActions, form: dict[str, str], engines: list[int]
) -> None:
    created = owned_game(games)
    response = client.post(f"/games/{created['id']}/schedule", data={"version": "1", **form})
    assert response.status_code == 302
    game = games.get(created["id"])
    assert [r["engine"] for r in game["rounds"]] == engines


def test_schedule_cannot_drop_rounds_that_have_scores(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games)
    games.put_round(created, 10, {"Ann": {"points": 1}})
    response = client.post(
        f"/games/{created['id']}/schedule", data={"version": "2", "schedule_kind": "short"}
    )
    assert response.status_code == 400
    assert "Round 10 has scores" in response.get_data(as_text=True)
    assert len(games.get(created["id"])["rounds"]) == 13


def test_finished_game_names_the_winner(client: FlaskClient, games: GameActions) -> None:
    created = owned_game(games, rules={"schedule": [1, 0]})
    games.put_round(
        created, 1, {"Ann": {"points": 9}, "Bob": {"went_out": True}, "Cy": {"points": 3}}
    )
    games.put_round(
        created, 2, {"Ann": {"went_out": True}, "Bob": {"points": 4}, "Cy": {"points": 3}}
    )
    page = client.get(f"/games/{created['id']}/view").get_data(as_text=True)
    assert "Bob wins with 4!" in page
    assert "<polyline" in page


def test_csv_export(client: FlaskClient, games: GameActions) -> None:
    created = games.create()
    games.put_round(
        created, 1, {"Ann": {"points": 5}, "Bob": {"went_out": True}, "Cy": {"points": 8}}
    )
    response = client.get(f"/games/{created['id']}/export.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))
    assert rows[0] == ["round", "engine", "leader", "went out", "Ann", "Bob", "Cy"]
    assert rows[1] == ["1", "12|12", "Ann", "Bob", "5", "0", "8"]
    assert rows[2] == ["2", "11|11", "Bob", "", "", "", ""]
    assert rows[-2] == ["total", "", "", "", "5", "0", "8"]
    assert rows[-1] == ["rank", "", "", "", "2", "1", "3"]
    assert len(rows) == 1 + 13 + 2


def test_csv_opens_right_in_a_spreadsheet(client: FlaskClient, games: GameActions) -> None:
    """A byte-order mark, so a spreadsheet reads the accents as UTF-8, and no cell that a
    spreadsheet would turn into a date (an engine written "12-12" becomes 12 December)."""
    created = games.create(["Zoé", "Łukasz", "Bob"])
    games.put_round(created, 1, {"Zoé": {"went_out": True}, "Łukasz": {"points": 4}})
    body = client.get(f"/games/{created['id']}/export.csv").get_data()
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0][-3:] == ["Zoé", "Łukasz", "Bob"]
    assert rows[1][3] == "Zoé"
    date_like = re.compile(r"^\d{1,4}\s*[-/.]\s*\d{1,4}([-/.]\d{1,4})?$")
    assert not [cell for row in rows for cell in row if date_like.match(cell)]


def test_delete_removes_the_game(client: FlaskClient, games: GameActions) -> None:
    created = owned_game(games)
    games.put_round(created, 1, {"Ann": {"points": 5}})
    response = client.post(f"/games/{created['id']}/delete")
    assert response.status_code == 302
    assert client.get(f"/api/games/{created['id']}").status_code == 404
    assert "No games yet." in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    "path",
    ["/games/nosuchgame", "/games/nosuchgame/view", "/games/nosuchgame/export.csv", "/nowhere"],
)
def test_unknown_pages_are_friendly_404s(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "<h1>Not found</h1>" in page
    assert "Traceback" not in page


def test_wrong_method_is_a_friendly_405(client: FlaskClient) -> None:
    response = client.get("/games/abc/undo")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]
    assert "That can&#39;t be done here" in response.get_data(as_text=True)


def test_oversized_request_is_413(tmp_path: Any) -> None:
    from companion import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "s",
            "MAX_CONTENT_LENGTH": 100,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'big.sqlite'}",
        }
    )
    response = app.test_client().post(
        "/api/games", data=b"x" * 1000, content_type="application/json"
    )
    assert response.status_code == 413
    assert "error" in response.get_json()


def test_unexpected_errors_are_a_friendly_500(tmp_path: Any) -> None:
    from companion import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "s",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'boom.sqlite'}",
        }
    )

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("a bug")

    @app.get("/api/boom")
    def api_boom() -> str:
        raise RuntimeError("a bug")

    client = app.test_client()
    page = client.get("/boom")
    assert page.status_code == 500
    assert "a bug" not in page.get_data(as_text=True)
    assert "scores that were already saved are safe" in page.get_data(as_text=True)
    api = client.get("/api/boom")
    assert api.status_code == 500
    assert api.is_json and "a bug" not in api.get_json()["error"]


def test_a_partly_entered_round_says_who_is_missing(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games)
    response = client.post(
        f"/games/{created['id']}/rounds/1",
        data={"version": "1", "points-0": "4"},
        follow_redirects=True,
    )
    page = response.get_data(as_text=True)
    assert "Round 1 saved; still to enter: Bob, Cy." in page
    assert "Save round 1" in page  # round 1 stays the next to complete


@pytest.mark.parametrize(
    ("path", "status"), [("rounds/14/tiles/0", 404), ("rounds/1/tiles/3", 400)]
)
def test_tile_picker_for_no_such_round_or_seat(
    client: FlaskClient, games: GameActions, path: str, status: int
) -> None:
    created = owned_game(games)
    assert client.get(f"/games/{created['id']}/{path}").status_code == status


def test_engine_holder_leads_are_not_known_in_advance(
    client: FlaskClient, games: GameActions
) -> None:
    created = games.create(rules={"round_leader": "engine_holder"})
    game = games.get(created["id"])
    assert {r["leader"] for r in game["rounds"]} == {None}
    page = client.get(f"/games/{created['id']}/view").get_data(as_text=True)
    assert "holder of the engine" in page


def test_folded_house_rules_open_when_one_is_wrong(client: FlaskClient) -> None:
    assert '<details class="rules-details" >' in client.get("/games/new").get_data(as_text=True)
    response = client.post(
        "/games/new", data=setup_form(["Ann", "Bob"], **{"rule-open_marker_penalty": "-5"})
    )
    assert response.status_code == 400
    assert '<details class="rules-details" open>' in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("form", "ann", "bob"),
    [
        ({}, 5, 9),  # nothing chosen: the sheet's value stays
        ({"mine-0": "on"}, 40, 9),  # this phone picks its own value for that cell
    ],
)
def test_a_conflict_is_resolved_cell_by_cell(
    client: FlaskClient, games: GameActions, form: dict[str, str], ann: int, bob: int
) -> None:
    created = owned_game(games)
    games.put_round(created, 1, {"Ann": {"points": 5}}, version=1)
    url = f"/games/{created['id']}/rounds/1"
    stale = client.post(url, data={"version": "1", "points-0": "40", "points-1": "9"})
    assert stale.status_code == 409
    # What the re-shown form sends back: the sheet's value in the box, this phone's kept aside.
    resend = {"version": "2", "points-0": "5", "points-1": "9", "mine-points-0": "40", **form}
    assert client.post(url, data=resend).status_code == 302
    assert games.get(created["id"])["totals"] == {"Ann": ann, "Bob": bob, "Cy": 0}


def test_a_change_elsewhere_in_the_game_is_no_conflict_in_this_round(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned_game(games)
    games.put_round(created, 2, {"Ann": {"points": 5}}, version=1)
    response = client.post(
        f"/games/{created['id']}/rounds/1", data={"version": "1", "points-0": "7"}
    )
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "not the scores you typed for round 1" in page
    assert "On the sheet now" not in page
    assert 'value="7"' in page


def test_round_as_of_walks_back_through_the_history(app: Any, games: GameActions) -> None:
    created = games.create(PLAYERS)
    games.put_round(created, 1, {"Ann": {"points": 5}}, version=1)
    games.put_round(created, 2, {"Bob": {"points": 6}}, version=2)
    games.put_round(created, 1, {"Ann": {"points": 7}}, version=3)
    with app.app_context():
        from companion.games import service

        game = service.get_game(created["id"])
        assert service.round_as_of(game, 1, 1) is None
        assert service.round_as_of(game, 1, 2) == {
            "Ann": {"points": 5, "went_out": False, "markers_up": 0}
        }
        assert service.round_as_of(game, 1, 3) == service.round_as_of(game, 1, 2)
        assert service.round_as_of(game, 1, 4)["Ann"]["points"] == 7  # type: ignore[index]


def test_two_players_out_are_refused_with_the_reason_in_the_banner(
    client: FlaskClient, games: GameActions
) -> None:
    """Without the page script the refusal comes on save: the banner at the top says why, not
    only the player's box further down."""
    created = owned_game(games)
    response = client.post(
        f"/games/{created['id']}/rounds/1", data={"version": "1", "out-0": "on", "out-1": "on"}
    )
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    banner = page[page.index('id="form-error"') : page.index("</p>", page.index('id="form-error"'))]
    assert "only one player goes out" in banner


@pytest.mark.parametrize(
    ("mine", "clash"),
    [
        ({"schedule_kind": "custom", "schedule_custom": "12 10 8"}, True),
        ({"schedule_kind": "short"}, False),  # the same change as the other phone's
    ],
)
def test_a_late_schedule_change_is_a_conflict_only_when_it_differs(
    client: FlaskClient, games: GameActions, mine: dict[str, str], clash: bool
) -> None:
    created = owned_game(games)
    url = f"/games/{created['id']}/schedule"
    assert client.post(url, data={"version": "1", "schedule_kind": "short"}).status_code == 302
    late = client.post(url, data={"version": "1", **mine})
    assert late.status_code == 409
    page = late.get_data(as_text=True)
    assert ("On the sheet now: 12 11 10 9 8 7 6 — yours: 12 10 8." in page) is clash
    assert ("On the sheet now" in page) is clash
