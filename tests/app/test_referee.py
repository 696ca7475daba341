"""The referee page and API: rulings as the command gives them, in words; bad positions named."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.referee.models import KeptRuling
from companion.rules import Tile
from companion.rules.referee import answer, answer_text
from tests.app.test_photo import needs_model, scene_jpeg

PLAYERS = ["Ann", "Bea", "Cy", "Dee"]


def make_game(client: FlaskClient, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post(
        "/api/games", json={"players": PLAYERS, "rules": rules or {"preset": "standard"}}
    )
    assert response.status_code == 201
    created: dict[str, Any] = response.get_json()
    return created


def page_text(body: bytes) -> str:
    text = re.sub(r"<[^>]+>", " ", body.decode())
    return re.sub(r"\s+", " ", html.unescape(text))


def ruling_text(body: bytes) -> str:
    match = re.search(r'<section id="ruling".*?</section>', body.decode(), re.S)
    assert match, "no ruling on the page"
    return page_text(match.group(0).encode())


def field_error(body: bytes, field: str) -> str:
    match = re.search(rf'id="{re.escape(field)}-error"[^>]*>(.*?)</p>', body.decode(), re.S)
    assert match, f"no error shown for {field}"
    return html.unescape(match.group(1))


OPEN_DOUBLE_SKIPPED = {
    "ask": "turn",
    "engine": "12",
    "end-1": "9",
    "open-1": "on",
    "seat": "2",
    "act0-kind": "play",
    "act0-a": "2",
    "act0-b": "11",
}


def test_anyone_at_the_table_can_open_the_referee_of_a_game(client: FlaskClient) -> None:
    game = make_game(client)
    # No edit token in this client's session: a read-only phone.
    sheet = client.get(f"/games/{game['id']}/view")
    assert f'href="/games/{game["id"]}/referee"' in sheet.data.decode()
    page = client.get(f"/games/{game['id']}/referee")
    assert page.status_code == 200
    text = page_text(page.data)
    assert "Settle a dispute" in text
    for name in PLAYERS:
        assert f"{name}'s train ends in" in text
    assert "Engine double in the hub" in text


def test_the_home_page_offers_the_referee_without_a_game(client: FlaskClient) -> None:
    home = client.get("/")
    assert 'href="/referee"' in home.data.decode()
    page = client.get("/referee?set_max=9&players=3&book=fundex")
    text = page_text(page.data)
    assert "Player 3's train ends in" in text and "Player 4's train" not in text
    assert "9|9" in text and "12|12" not in text


def test_a_skipped_open_double_is_ruled_as_the_command_rules_it(client: FlaskClient) -> None:
    game = make_game(client)
    response = client.post(f"/games/{game['id']}/referee", data=OPEN_DOUBLE_SKIPPED)
    assert response.status_code == 200
    shown = ruling_text(response.data)
    query = {
        "kind": "turn",
        "rules": {"preset": "standard"},
        "table": {
            "set_max": 12,
            "engine": 12,
            "seats": PLAYERS,
            "trains": {"Ann": {"end": 12}, "Bea": {"end": 9}, "Cy": {"end": 2},
                       "Dee": {"end": 12}, "mexican": {"end": 12}},
            "open_doubles": ["Bea"],
            "boneyard": 10,
        },
        "turn": {"seat": "Cy", "first_turn": False, "hand": [[2, 11]]},
        "actions": [{"play": [2, 11], "on": "Cy"}],
    }  # fmt: skip
    expected, ok = answer(query)
    assert ok and expected["legal"] is False
    assert "Not allowed" in shown
    assert expected["reason"] in shown
    # The rule in words, the value in force, and the other values that would allow it.
    assert "satisfy_scope" not in shown and "_" not in shown
    assert "Under these other house rules it would be allowed" in shown


def test_a_legal_play_says_yes_in_words(client: FlaskClient) -> None:
    game = make_game(client)
    data = {**OPEN_DOUBLE_SKIPPED, "act0-on": "1", "act0-a": "9", "act0-b": "4"}
    shown = ruling_text(client.post(f"/games/{game['id']}/referee", data=data).data)
    assert "Allowed" in shown and "Not allowed" not in shown
    assert "Yes: Cy may play 9-4 on Bea's train." in shown


def test_the_game_rules_decide_and_another_book_can_be_asked(client: FlaskClient) -> None:
    # A double followed by a tile elsewhere: refused under standard, allowed under wikiHow.
    game = make_game(client)
    data = {
        "ask": "turn",
        "engine": "10",
        "end-1": "9",
        "end-m1": "3",
        "seat": "1",
        "hand": ["9-9", "9-1", "3-8", "5-5"],
        "act0-kind": "play", "act0-a": "9", "act0-b": "9", "act0-on": "1",
        "act1-kind": "play", "act1-a": "3", "act1-b": "8", "act1-on": "m1",
    }  # fmt: skip
    standard = ruling_text(client.post(f"/games/{game['id']}/referee", data=data).data)
    assert "Not allowed" in standard
    assert "wikiHow" in standard  # named among the books that allow it
    wikihow = ruling_text(
        client.post(f"/games/{game['id']}/referee", data={**data, "book": "wikihow"}).data
    )
    assert "Allowed" in wikihow and "Not allowed" not in wikihow
    changed = ruling_text(
        client.post(
            f"/games/{game['id']}/referee", data={**data, "change": "double_followup=anywhere"}
        ).data
    )
    assert "Not allowed" not in changed


def test_what_can_i_play_lists_the_engines_legal_plays(client: FlaskClient) -> None:
    game = make_game(client)
    data = {
        "ask": "options",
        "engine": "12",
        "end-0": "5",
        "end-1": "7",
        "marker-1": "on",
        "end-2": "9",
        "end-3": "4",
        "end-m1": "none",
        "seat": "0",
        "hand": ["5-3", "7-2", "4-4", "12-6"],
    }
    shown = ruling_text(client.post(f"/games/{game['id']}/referee", data=data).data)
    assert "3 possible plays" in shown
    assert "play 5-3 on their own train" in shown
    assert "play 7-2 on Bea's train" in shown
    assert "play 12-6 on the Mexican Train (starting it)" in shown
    assert "4-4" not in shown  # Dee's train carries no marker


def test_score_call_setup_and_round_questions(client: FlaskClient) -> None:
    game = make_game(client, {"preset": "fundex"})
    url = f"/games/{game['id']}/referee"
    score = ruling_text(client.post(url, data={"ask": "score", "hand": ["0-0", "5-0"]}).data)
    expected, _ = answer({"kind": "score", "rules": {"preset": "fundex"},
                          "hand": [[0, 0], [5, 0]]})  # fmt: skip
    assert f"{expected['points']} points" in score
    call = ruling_text(client.post(url, data={"ask": "call", "call_boneyard": "1"}).data)
    assert "Draw 1" in call
    setup = ruling_text(client.post(url, data={"ask": "setup", "players": "6"}).data)
    assert "11 tiles each" in setup  # Fundex deals 11 to six players
    over = ruling_text(client.post(url, data={"ask": "round", "next": "1", "out-0": "on"}).data)
    assert "The round is over" in over


def test_round_status_asks_for_hands_only_when_they_matter(client: FlaskClient) -> None:
    game = make_game(client)
    url = f"/games/{game['id']}/referee"
    # Boneyard empty, nobody out: whether anyone can still play decides.
    response = client.post(
        url, data={"ask": "round", "next": "0", "boneyard": "0", "end-m1": "none"}
    )
    assert response.status_code == 400
    assert "depends on what" in field_error(response.data, "hand-0")
    # Boneyard not empty: not over, whatever they hold.
    response = client.post(url, data={"ask": "round", "next": "0"})
    assert "Not over yet" in ruling_text(response.data)


def test_covering_the_double_someone_went_out_on_ends_the_round(client: FlaskClient) -> None:
    game = make_game(client, {"preset": "standard", "go_out_on_double": "must_be_covered"})
    data = {
        "ask": "turn",
        "end-0": "7",
        "open-0": "on",
        "out-0": "on",
        "seat": "2",
        "act0-kind": "play", "act0-a": "7", "act0-b": "3", "act0-on": "0",
    }  # fmt: skip
    shown = ruling_text(client.post(f"/games/{game['id']}/referee", data=data).data)
    assert "Yes: Cy may play 7-3 on Ann's train. That ends the round." in shown
    # The one who is out can't be the one whose turn it is.
    response = client.post(f"/games/{game['id']}/referee", data={**data, "seat": "0"})
    assert "Ann is marked as out of tiles" in field_error(response.data, "seat")


BAD_POSITIONS = [
    (
        {**OPEN_DOUBLE_SKIPPED, "hand": ["9-9", "2-11"]},
        "hand",
        "9-9 can't be in Cy's hand: it is already the open double at the end of Bea's train.",
    ),
    ({**OPEN_DOUBLE_SKIPPED, "hand": ["12-12"]}, "hand", "12-12 can't be in Cy's hand"),
    ({**OPEN_DOUBLE_SKIPPED, "hand": ["13-2"]}, "hand", "13-2 is not in a double-12 set."),
    ({**OPEN_DOUBLE_SKIPPED, "end-0": "15"}, "end-0", "from 0 to 12"),
    (
        {**OPEN_DOUBLE_SKIPPED, "end-1": "none"},
        "end-1",
        "Bea's train is not started, so no double can be open on it.",
    ),
    (
        {**OPEN_DOUBLE_SKIPPED, "end-m2": "4"},
        "form",
        "These house rules allow only one Mexican Train",
    ),
    ({**OPEN_DOUBLE_SKIPPED, "seat": ""}, "seat", "Whose turn is it?"),
    ({**OPEN_DOUBLE_SKIPPED, "act0-b": ""}, "act0-a", "Which tile?"),
    ({**OPEN_DOUBLE_SKIPPED, "act0-a": "9", "act0-b": "9"}, "act0-a", "9-9 can't be played"),
    (
        {
            **OPEN_DOUBLE_SKIPPED,
            "open-1": "",
            "end-2": "4",
            "act0-a": "4",
            "act0-b": "4",
            "act1-kind": "play",
            "act1-a": "4",
            "act1-b": "4",
            "act1-on": "m1",
        },
        "act1-a",
        "4-4 is laid twice in one turn, and a set has only one 4-4.",
    ),
]


@pytest.mark.parametrize(("data", "field", "message"), BAD_POSITIONS)
def test_an_impossible_position_is_named_next_to_its_field_and_kept(
    client: FlaskClient, data: dict[str, Any], field: str, message: str
) -> None:
    game = make_game(client)
    response = client.post(f"/games/{game['id']}/referee", data=data)
    assert response.status_code == 400
    assert message in field_error(response.data, field)
    body = response.data.decode()
    assert "Traceback" not in body and '<section id="ruling"' not in body
    # What was entered comes back: the acting seat and the tile's halves stay ticked.
    if data.get("seat"):
        assert re.search(r'name="seat" value="2" checked', body)


def test_a_kept_ruling_shows_on_the_sheet_and_only_the_scorekeeper_deletes_it(
    app: Flask, client: FlaskClient
) -> None:
    game = make_game(client)
    url = f"/games/{game['id']}/referee"
    kept = client.post(url, data={**OPEN_DOUBLE_SKIPPED, "keep": "1"})
    assert kept.status_code == 302
    sheet = page_text(client.get(f"/games/{game['id']}/view").data)
    assert "May Cy play 2-11 on their own train?" in sheet
    assert "Not allowed." in sheet
    with app.app_context():
        ruling_id = db.session.execute(db.select(KeptRuling.id)).scalar_one()
    delete_url = f"/games/{game['id']}/rulings/{ruling_id}/delete"
    assert client.post(delete_url).status_code == 401  # no edit token on this phone
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    assert client.post(delete_url).status_code == 302
    assert "May Cy play" not in page_text(client.get(f"/games/{game['id']}").data)
    # Scores never change because of a ruling.
    assert client.get(f"/api/games/{game['id']}").get_json()["version"] == 1


# -- the API -------------------------------------------------------------------------------


def contract_query() -> dict[str, Any]:
    return {
        "kind": "turn",
        "rules": {"preset": "standard"},
        "table": {"set_max": 12, "engine": 10, "seats": ["A", "B"],
                  "trains": {"A": {"end": 4}, "B": {"end": 6}}, "boneyard": 5},
        "turn": {"seat": "A", "first_turn": False, "hand": [[4, 1]]},
        "actions": [{"play": [4, 1], "on": "A"}],
    }  # fmt: skip


def test_the_api_answers_one_query_or_a_list_exactly_as_the_command(client: FlaskClient) -> None:
    one = client.post("/api/referee", json=contract_query())
    assert one.status_code == 200
    assert one.data.decode() == answer_text(json.dumps(contract_query()))[0]
    many = client.post("/api/referee", json=[contract_query(), {"kind": "setup",
                       "rules": {"preset": "standard"}, "players": 4}])  # fmt: skip
    assert many.status_code == 200
    assert [a.get("hand_size") for a in many.get_json()] == [None, 15]


API_ERRORS = [
    ({**contract_query(), "rules": {"preset": "nope"}}, "rules.preset"),
    ({**contract_query(), "kind": "dance"}, "kind"),
    ({k: v for k, v in contract_query().items() if k != "table"}, "table: missing"),
    ({**contract_query(), "actions": [{"play": [13, 1], "on": "A"}]}, "actions[0].play"),
    ({**contract_query(), "actions": [{"play": [4, 1], "on": "Z"}]}, "actions[0].on"),
    ({**contract_query(), "turn": {"seat": "A", "hand": [[4, 1], [1, 4]]}}, "turn.hand"),
    ({"kind": "score", "rules": {"preset": "standard"}, "hand": "0-0"}, "hand"),
    ({"kind": "setup", "rules": {"preset": "standard"}, "players": 40}, "hand_size"),
    ({"kind": "last_tile_call", "rules": {"preset": "standard"}, "boneyard": -1}, "boneyard"),
    ({"kind": "round_status", "rules": {"preset": "standard"},
      "table": contract_query()["table"], "hands": {"A": []}}, "hands.B"),
]  # fmt: skip


@pytest.mark.parametrize(("query", "named"), API_ERRORS)
def test_the_api_answers_a_malformed_query_with_400_naming_the_field(
    client: FlaskClient, query: dict[str, Any], named: str
) -> None:
    response = client.post("/api/referee", json=query)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert named in error
    assert response.data.decode() == answer_text(json.dumps(query))[0]


def test_the_api_keeps_good_answers_beside_a_bad_one(client: FlaskClient) -> None:
    response = client.post("/api/referee", json=[contract_query(), {"kind": "dance"}])
    assert response.status_code == 400
    good, bad = response.get_json()
    assert good["legal"] is True and "error" in bad


@pytest.mark.parametrize(
    ("body", "named"),
    [(b"{not json", "not valid JSON"), (b"\xff\xfe", "not UTF-8"), (b"[" * 5000, "nested")],
)
def test_the_api_refuses_a_body_that_is_not_json(
    client: FlaskClient, body: bytes, named: str
) -> None:
    response = client.post("/api/referee", data=body, content_type="application/json")
    assert response.status_code == 400
    assert named in response.get_json()["error"]


# -- photographs -------------------------------------------------------------------------------


@needs_model
def test_a_photo_of_the_hand_ticks_the_tiles_read(client: FlaskClient) -> None:
    from vision.pipeline import read_hand

    photo = scene_jpeg()
    read = {str(Tile(*tile.pips)) for tile in read_hand(photo).tiles}
    assert read
    game = make_game(client)
    response = client.post(
        f"/games/{game['id']}/referee/photo?ask=options",
        data={"ask": "options", "seat": "1", "photo-target": "hand",
              "photo": (io.BytesIO(photo), "hand.jpg")},
        content_type="multipart/form-data",
    )  # fmt: skip
    assert response.status_code == 200
    ticked = set(re.findall(r'name="hand" value="([0-9-]+)" checked', response.data.decode()))
    assert ticked == {t for t in read if Tile.parse(t).high <= 12}
    assert 'name="seat" value="1" checked' in response.data.decode()  # the rest is kept


@pytest.mark.parametrize(
    ("photo", "status", "message"),
    [
        (b"not a picture at all", 400, "can't be read"),
        (b"", 400, "Choose a photo"),
    ],
)
def test_a_bad_photo_is_named_next_to_the_photo_field_and_keeps_the_form(
    client: FlaskClient, photo: bytes, status: int, message: str
) -> None:
    game = make_game(client)
    response = client.post(
        f"/games/{game['id']}/referee/photo?ask=turn",
        data={**OPEN_DOUBLE_SKIPPED, "photo-target": "tiles",
              "photo": (io.BytesIO(photo), "hand.jpg" if photo else "")},
        content_type="multipart/form-data",
    )  # fmt: skip
    assert response.status_code == status
    assert message in field_error(response.data, "photo")
    assert 'name="act0-a" value="2" checked' in response.data.decode()


def test_a_photo_over_the_size_limit_is_refused_next_to_the_field(
    app: Flask, client: FlaskClient
) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 50_000
    game = make_game(client)
    response = client.post(
        f"/games/{game['id']}/referee/photo?ask=turn",
        data={"ask": "turn", "photo": (io.BytesIO(b"x" * 80_000), "big.jpg")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413
    assert "too large" in field_error(response.data, "photo")
