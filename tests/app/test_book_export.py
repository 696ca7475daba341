"""The whole book out and in: every game as JSON and CSV, and a JSON export imported on
another host, all or nothing per game, duplicates and bad files refused in words."""

from __future__ import annotations

import copy
import csv
import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import all_games, service
from companion.games.models import utc_now
from tests.conftest import GameActions

OUT = {"went_out": True}
# A going-out bonus and a marker penalty: the API shows typed points with both added, so an
# import must take them off again.
BONUS_RULES = {
    "preset": "standard",
    "schedule": [5, 4],
    "going_out_bonus": -10,
    "open_marker_penalty": 10,
}


def move_to_another_host(app: Flask) -> None:
    """Empty the database, as a laptop that has never seen these games (the same test
    database serves SQLite and PostgreSQL alike)."""
    with app.app_context():
        for game in all_games.every_game():
            service.delete_game(game)


def make_book(games: GameActions) -> list[dict[str, Any]]:
    """Three games: typed points and a finished one, tiles and bonuses, one barely begun."""
    first = games.create(["Ann", "Bob", "Cy"], {"preset": "standard", "schedule": [3, 2]})
    assert games.put_round(first, 1, {"Ann": OUT, "Bob": {"points": 14}, "Cy": {"points": 30}})
    games.put_round(first, 2, {"Ann": {"points": 5}, "Bob": OUT, "Cy": {"points": 8}})
    second = games.create(["Zoé", "=Eve", "Dan", "Fay"], BONUS_RULES)
    response = games.put_round(
        second,
        1,
        {
            "Zoé": {"went_out": True, "markers_up": 0},
            "=Eve": {"tiles": [[0, 0], [5, 6], [12, 3]], "markers_up": 1},
            "Dan": {"points": 22, "markers_up": 1},
            "Fay": {"points": 4},
        },
    )
    assert response.status_code == 200, response.get_json()
    third = games.create(["Hal", "Ivy"])
    games.put_round(third, 1, {"Hal": {"points": 9}})
    return [first, second, third]


def import_file(client: FlaskClient, body: bytes, name: str = "games.json") -> Any:
    return client.post(
        "/games/import",
        data={"file": (io.BytesIO(body), name)},
        content_type="multipart/form-data",
    )


def exported(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/games/export.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    document: dict[str, Any] = json.loads(response.data)
    return document


def comparable(game: dict[str, Any]) -> dict[str, Any]:
    """A game as the API gives it, without what each host chooses for itself."""
    return {key: value for key, value in game.items() if key not in ("id", "version")}


def test_export_is_every_game_in_the_apis_format_under_a_header(
    client: FlaskClient, games: GameActions
) -> None:
    created = make_book(games)
    document = exported(client)
    assert document["format"] == "mexican-train-companion/games"
    assert document["version"] == 1
    by_id = {game["id"]: game for game in document["games"]}
    assert set(by_id) == {game["id"] for game in created}
    for game in created:
        assert by_id[game["id"]] == games.get(game["id"])


def test_a_phone_exports_only_the_games_it_knows(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    created = make_book(games)
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.168.1.30"
    assert json.loads(phone.get("/games/export.json").data)["games"] == []
    phone.get(f"/games/{created[2]['id']}/view")
    ids = [game["id"] for game in json.loads(phone.get("/games/export.json").data)["games"]]
    assert ids == [created[2]["id"]]


def test_csv_has_a_row_per_game_round_and_player(client: FlaskClient, games: GameActions) -> None:
    created = make_book(games)
    response = client.get("/games/export.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows[0] == all_games.CSV_HEADER
    # 3 + 3 scores in the first game, 4 in the second, 1 in the third.
    assert len(rows) == 1 + 6 + 4 + 1
    eve = next(row for row in rows if row[5] == "'=Eve")  # a formula-like name stays text
    assert eve[0] == created[1]["id"]
    assert eve[2:5] == ["1", "5|5", "2"]
    assert eve[8:] == ["1", "0|0 5|6 12|3"]
    assert eve[6] == str(0 + 11 + 15 + 10)  # tiles scored, plus one marker left up
    zoe = next(row for row in rows if row[5] == "Zoé")
    assert zoe[6:8] == ["-10", "yes"]


def test_export_then_import_on_another_host_reproduces_every_game(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    make_book(games)
    document = exported(client)
    move_to_another_host(app)
    there = app.test_client()
    response = import_file(there, json.dumps(document).encode())
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Imported 3 games." in page
    again = json.loads(there.get("/games/export.json").data)
    mine = sorted((comparable(g) for g in document["games"]), key=lambda g: g["players"])
    theirs = sorted((comparable(g) for g in again["games"]), key=lambda g: g["players"])
    assert theirs == mine  # players, rules, every round's scores, totals, standings, winners
    assert [g["totals"] for g in theirs] == [g["totals"] for g in mine]
    # Each game keeps the day it was started, and the export lists them in that order.
    assert list(again["started"].values()) == list(document["started"].values())
    assert [g["players"] for g in again["games"]] == [g["players"] for g in document["games"]]
    # The importing phone may keep score in the games it brought.
    new_id = again["games"][0]["id"]
    assert "Delete this game" in there.get(f"/games/{new_id}").get_data(as_text=True)


def test_a_second_import_of_the_same_file_is_refused_as_duplicates(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    make_book(games)
    body = json.dumps(exported(client)).encode()
    move_to_another_host(app)
    there = app.test_client()
    assert import_file(there, body).status_code == 200
    response = import_file(there, body)
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Imported 0 games; skipped 3." in page
    assert (
        "Game 1 (Ann, Bob, Cy): it is already here (the same players, house rules and scores), "
        "so it was skipped." in page
    )
    assert len(json.loads(there.get("/games/export.json").data)["games"]) == 3


def test_import_back_into_the_same_host_finds_every_game_already_here(
    client: FlaskClient, games: GameActions
) -> None:
    make_book(games)
    response = import_file(client, json.dumps(exported(client)).encode())
    assert "Imported 0 games; skipped 3." in response.get_data(as_text=True)


def test_the_same_game_twice_in_one_file_is_imported_once(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    make_book(games)
    document = exported(client)
    document["games"].append(copy.deepcopy(document["games"][0]))
    move_to_another_host(app)
    page = import_file(client, json.dumps(document).encode()).get_data(as_text=True)
    assert "Imported 3 games; skipped 1." in page
    assert "Game 4 (" in page and "already here" in page


def test_a_changed_game_is_not_a_duplicate(client: FlaskClient, games: GameActions) -> None:
    make_book(games)
    document = exported(client)
    there = client
    first = next(g for g in document["games"] if g["players"] == ["Hal", "Ivy"])
    first["rounds"][0]["scores"]["Ivy"] = {"points": 3}
    first["totals"]["Ivy"] = 3
    page = import_file(there, json.dumps({**document, "games": [first]}).encode())
    assert "Imported 1 game." in page.get_data(as_text=True)


def document_with(game_change: Any) -> dict[str, Any]:
    """A one-game export whose game is changed by ``game_change``."""
    game: dict[str, Any] = {
        "id": "abcdefgh23",
        "version": 3,
        "players": ["Ann", "Bob"],
        "rules": {"preset": "standard", "schedule": [2, 1]},
        "rounds": [
            {"n": 1, "scores": {"Ann": {"points": 0, "went_out": True}, "Bob": {"points": 7}}},
            {"n": 2, "scores": {"Ann": {"points": 4}, "Bob": {"points": 0, "went_out": True}}},
        ],
        "totals": {"Ann": 4, "Bob": 7},
    }
    game_change(game)
    return {"format": all_games.FORMAT, "version": 1, "games": [game]}


def set_path(path: list[Any], value: Any) -> Any:
    def change(game: dict[str, Any]) -> None:
        target: Any = game
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


BAD_FILES = [
    ("not JSON", b"round,player\n1,Ann\n", "can't be read as JSON"),
    ("empty", b"", "The file is empty."),
    ("JSON, not an export", b'{"players": ["Ann"]}', "not an export of this app's games"),
    ("a list, not an export", b"[1, 2]", "not an export of this app's games"),
    (
        "a later version",
        json.dumps({"format": all_games.FORMAT, "version": 2, "games": []}).encode(),
        "version 2 of the format; this app reads version 1",
    ),
    (
        "games not a list",
        json.dumps({"format": all_games.FORMAT, "version": 1, "games": {}}).encode(),
        "is not a list of games",
    ),
    ("too big", b"{" + b" " * 3000 + b"}", "The file is larger than 1 MB"),
    ("NaN", b'{"format": NaN}', "can't be read as JSON"),
]


@pytest.mark.parametrize(
    ("body", "message"), [case[1:] for case in BAD_FILES], ids=[case[0] for case in BAD_FILES]
)
def test_a_bad_file_is_refused_whole_in_words(
    app: Flask, client: FlaskClient, body: bytes, message: str
) -> None:
    app.config["IMPORT_MAX_BYTES"] = 2048
    response = import_file(client, body)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert message in page.replace("&#39;", "'")
    assert "Nothing was imported." in page
    assert json.loads(client.get("/games/export.json").data)["games"] == []


BAD_GAMES = [
    ("no players or rules", lambda g: g.clear() or g.update(x=1), "no list of players"),
    ("one player", set_path(["players"], ["Ann"]), "A game needs at least 2 players."),
    ("unknown rule value", set_path(["rules", "blank_scoring"], "lots"), "its house rules:"),
    (
        "a score for someone not playing",
        set_path(["rounds", 0, "scores", "Cy"], {"points": 3}),
        "round 1, Cy: 'Cy' is not playing in this game",
    ),
    (
        "two players went out",
        set_path(["rounds", 1, "scores", "Ann"], {"points": 0, "went_out": True}),
        "round 2: ",
    ),
    (
        "points past any hand",
        set_path(["rounds", 1, "scores", "Ann"], {"points": 5000}),
        "round 2, Ann: 5000 is more than any hand can hold",
    ),
    ("a round the schedule lacks", set_path(["rounds", 1, "n"], 7), "there is no round 7"),
    ("points as text", set_path(["rounds", 0, "scores", "Bob"], {"points": "7"}), "not a whole"),
    ("totals changed by hand", set_path(["totals", "Bob"], 1), "totals in the file don't add up"),
]


@pytest.mark.parametrize(
    ("change", "message"), [case[1:] for case in BAD_GAMES], ids=[case[0] for case in BAD_GAMES]
)
def test_a_game_the_rules_refuse_is_skipped_whole_and_named(
    client: FlaskClient, change: Any, message: str
) -> None:
    document = document_with(change)
    good = document_with(lambda game: game.update(players=["Kim", "Lou"]) or None)["games"][0]
    good["rounds"] = []
    good.pop("totals")
    document["games"].append(good)
    response = import_file(client, json.dumps(document).encode())
    page = response.get_data(as_text=True).replace("&#39;", "'")
    assert "Imported 1 game; skipped 1." in page
    assert "Game 1" in page
    assert message in page
    left = json.loads(client.get("/games/export.json").data)["games"]
    assert [game["players"] for game in left] == [["Kim", "Lou"]]  # nothing of game 1 is left


def test_no_file_chosen_is_said(client: FlaskClient) -> None:
    response = client.post("/games/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Choose the JSON file to import first." in response.get_data(as_text=True)


def test_home_links_to_the_export_and_import_page(client: FlaskClient) -> None:
    assert 'href="/games/import"' in client.get("/").get_data(as_text=True)
    page = client.get("/games/import").get_data(as_text=True)
    assert 'href="/games/export.json"' in page
    assert 'href="/games/export.csv"' in page


def test_start_times_come_back_and_a_bad_or_future_one_is_left_out(
    app: Flask, client: FlaskClient
) -> None:
    document = document_with(lambda game: None)
    second = document_with(
        lambda game: game.update(id="secondgame", players=["Kim", "Lou"], rounds=[], totals=None)
    )
    third = document_with(
        lambda game: game.update(id="thirdgame2", players=["Max", "Ned"], rounds=[], totals=None)
    )
    document["games"] += second["games"] + third["games"]
    document["started"] = {
        "abcdefgh23": "2019-12-24T18:30:00+00:00",
        "secondgame": "not a time",
        "thirdgame2": "2999-01-01T00:00:00+00:00",
    }
    page = import_file(client, json.dumps(document).encode()).get_data(as_text=True)
    assert "Imported 3 games." in page
    again = exported(client)
    by_players = {tuple(game["players"]): again["started"][game["id"]] for game in again["games"]}
    assert by_players[("Ann", "Bob")] == "2019-12-24T18:30:00+00:00"
    assert by_players[("Kim", "Lou")].startswith(str(utc_now().year))
    assert by_players[("Max", "Ned")].startswith(str(utc_now().year))
    assert [game["players"][0] for game in again["games"]] == ["Ann", "Kim", "Max"]
