"""The JSON API of shared/spec/scoresheet-api.md: answers, and every error it can give."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import GameActions


def auth(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['edit_token']}"}


def test_create_returns_id_token_and_links(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["Ann", "Bob"], "rules": {}})
    assert response.status_code == 201
    body = response.get_json()
    assert set(body) == {"id", "edit_token", "view_url", "edit_url"}
    assert body["view_url"].endswith(f"/games/{body['id']}/view")
    assert body["edit_url"].endswith(f"/games/{body['id']}/edit/{body['edit_token']}")


def test_new_game_lists_every_round_of_the_schedule(games: GameActions) -> None:
    created = games.create(["Ann", "Bob", "Cy"], {"preset": "standard"})
    game = games.get(created["id"])
    assert game["id"] == created["id"]
    assert game["players"] == ["Ann", "Bob", "Cy"]
    assert [r["engine"] for r in game["rounds"]] == list(range(12, -1, -1))
    assert [r["leader"] for r in game["rounds"][:4]] == ["Ann", "Bob", "Cy", "Ann"]
    assert {r["hand_size"] for r in game["rounds"]} == {15}
    assert all(r["scores"] == {} for r in game["rounds"])
    assert game["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert game["next_round"] == {"n": 1, "engine": 12, "leader": "Ann"}
    assert game["finished"] is False
    assert game["winners"] == []
    assert game["rules"]["blank_scoring"] == "pips"
    assert "preset" not in game["rules"]


def test_the_spec_example_round(games: GameActions) -> None:
    created = games.create(
        ["Ann", "Bob", "Cy"], {"preset": "standard", "blank_scoring": "double_blank_50"}
    )
    scores = {
        "Ann": {"points": 0, "went_out": True},
        "Bob": {"tiles": [[0, 0], [5, 6]]},
        "Cy": {"points": 31},
    }
    response = games.put_round(created, 1, scores, version=1)
    assert response.status_code == 200
    game = response.get_json()
    assert game["rounds"][0]["scores"] == {
        "Ann": {"points": 0, "went_out": True},
        "Bob": {"points": 61, "tiles": [[0, 0], [5, 6]]},
        "Cy": {"points": 31},
    }
    assert game["totals"] == {"Ann": 0, "Bob": 61, "Cy": 31}
    assert game["standings"] == ["Ann", "Cy", "Bob"]
    assert game["next_round"] == {"n": 2, "engine": 11, "leader": "Bob"}
    assert game["version"] == 2


def test_get_answers_304_while_the_etag_is_current(client: FlaskClient, games: GameActions) -> None:
    created = games.create()
    first = client.get(f"/api/games/{created['id']}")
    etag = first.headers["ETag"]
    unchanged = client.get(f"/api/games/{created['id']}", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    games.put_round(created, 1, {"Ann": {"points": 5}})
    changed = client.get(f"/api/games/{created['id']}", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_delete_clears_the_round_and_history_keeps_it(
    client: FlaskClient, games: GameActions
) -> None:
    created = games.create()
    games.put_round(
        created,
        1,
        {"Ann": {"points": 5}, "Bob": {"points": 7}, "Cy": {"points": 0, "went_out": True}},
    )
    response = client.delete(
        f"/api/games/{created['id']}/rounds/1", json={"version": 2}, headers=auth(created)
    )
    assert response.status_code == 200
    game = response.get_json()
    assert game["rounds"][0]["scores"] == {}
    assert game["totals"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    page = client.get(f"/games/{created['id']}/view").get_data(as_text=True)
    assert "Cleared round 1" in page
    assert "Ann: 5 → —" in page


def test_all_rounds_entered_finishes_with_tied_winners(games: GameActions) -> None:
    created = games.create(["Ann", "Bob", "Cy"], {"schedule": [2, 1, 0]})
    rounds = [
        {"Ann": {"points": 10}, "Bob": {"points": 0, "went_out": True}, "Cy": {"points": 4}},
        {"Ann": {"points": 0, "went_out": True}, "Bob": {"points": 10}, "Cy": {"points": 9}},
        {"Ann": {"points": 3}, "Bob": {"points": 3}, "Cy": {"points": 0, "went_out": True}},
    ]
    for n, scores in enumerate(rounds, start=1):
        response = games.put_round(created, n, scores)
        assert response.status_code == 200
    game = response.get_json()
    assert game["totals"] == {"Ann": 13, "Bob": 13, "Cy": 13}
    assert game["finished"] is True
    assert game["winners"] == ["Ann", "Bob", "Cy"]
    assert game["next_round"] is None


def test_a_single_winner_is_the_lowest_total(games: GameActions) -> None:
    created = games.create(["Ann", "Bob"], {"schedule": [1, 0]})
    games.put_round(created, 1, {"Ann": {"points": 20}, "Bob": {"points": 0, "went_out": True}})
    response = games.put_round(
        created, 2, {"Ann": {"points": 0, "went_out": True}, "Bob": {"points": 5}}
    )
    game = response.get_json()
    assert game["winners"] == ["Bob"]
    assert game["standings"] == ["Bob", "Ann"]


def test_going_out_bonus_and_marker_penalty_apply(games: GameActions) -> None:
    created = games.create(
        ["Ann", "Bob", "Cy"], {"going_out_bonus": -10, "open_marker_penalty": 15}
    )
    response = games.put_round(
        created,
        1,
        {
            "Ann": {"went_out": True},
            "Bob": {"points": 20, "markers_up": 1},
            "Cy": {"tiles": [[6, 6]], "markers_up": 1},
        },
    )
    assert response.status_code == 200
    assert response.get_json()["totals"] == {"Ann": -10, "Bob": 35, "Cy": 27}


def test_stale_version_is_409_with_the_current_game(games: GameActions) -> None:
    created = games.create()
    assert games.put_round(created, 1, {"Ann": {"points": 5}}, version=1).status_code == 200
    second_phone = games.put_round(created, 1, {"Ann": {"points": 99}}, version=1)
    assert second_phone.status_code == 409
    body = second_phone.get_json()
    assert body["field"] == "version"
    assert body["game"]["rounds"][0]["scores"] == {"Ann": {"points": 5}}
    assert games.get(created["id"])["totals"]["Ann"] == 5


def test_stale_delete_is_409(client: FlaskClient, games: GameActions) -> None:
    created = games.create()
    games.put_round(created, 1, {"Ann": {"points": 5}})
    response = client.delete(
        f"/api/games/{created['id']}/rounds/1", json={"version": 1}, headers=auth(created)
    )
    assert response.status_code == 409
    assert games.get(created["id"])["totals"]["Ann"] == 5


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Bearer "}, 401),
        ({"Authorization": "Basic abc"}, 401),
        ({"Authorization": "Bearer not-the-token"}, 403),
    ],
)
def test_writes_need_the_edit_token(
    client: FlaskClient, games: GameActions, headers: dict[str, str], status: int
) -> None:
    created = games.create()
    put = client.put(
        f"/api/games/{created['id']}/rounds/1",
        json={"scores": {"Ann": {"points": 1}}, "version": 1},
        headers=headers,
    )
    delete = client.delete(
        f"/api/games/{created['id']}/rounds/1", json={"version": 1}, headers=headers
    )
    assert put.status_code == status
    assert delete.status_code == status
    assert "error" in put.get_json()
    assert games.get(created["id"])["version"] == 1


def test_another_games_token_is_refused(client: FlaskClient, games: GameActions) -> None:
    mine = games.create()
    theirs = games.create(["Zed", "Yan"])
    response = client.put(
        f"/api/games/{mine['id']}/rounds/1",
        json={"scores": {"Ann": {"points": 1}}, "version": 1},
        headers=auth(theirs),
    )
    assert response.status_code == 403


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/games/nosuchgame"),
        ("put", "/api/games/nosuchgame/rounds/1"),
        ("delete", "/api/games/nosuchgame/rounds/1"),
    ],
)
def test_unknown_game_is_404_json(client: FlaskClient, method: str, path: str) -> None:
    response = getattr(client, method)(
        path, json={"version": 1}, headers={"Authorization": "Bearer x"}
    )
    assert response.status_code == 404
    assert response.is_json
    assert "no game" in response.get_json()["error"]


@pytest.mark.parametrize("n", [0, 14, 99])
def test_rounds_outside_the_schedule_are_404(games: GameActions, n: int) -> None:
    created = games.create()
    response = games.put_round(created, n, {"Ann": {"points": 1}})
    assert response.status_code == 404
    assert response.get_json()["field"] == "n"


@pytest.mark.parametrize(
    ("score", "field", "words"),
    [
        ({"points": -1}, "scores.Ann.points", "negative"),
        ({"points": 2.5}, "scores.Ann.points", "whole number"),
        ({"points": "12"}, "scores.Ann.points", "whole number"),
        ({"points": "lots"}, "scores.Ann.points", "whole number"),
        ({"points": True}, "scores.Ann.points", "whole number"),
        ({"points": 10_000}, "scores.Ann.points", "more than any hand"),
        ({"points": 5, "went_out": True}, "scores.Ann.points", "went out"),
        ({"went_out": "yes"}, "scores.Ann.went_out", "true or false"),
        ({}, "scores.Ann.points", "Enter the points"),
        ({"tiles": [[0, 0], [0, 0]]}, "scores.Ann.tiles", "listed twice"),
        ({"tiles": [[13, 2]]}, "scores.Ann.tiles", "has no 13-2"),
        ({"tiles": [[1, 2, 3]]}, "scores.Ann.tiles", "Tile 1"),
        ({"tiles": [[-1, 2]]}, "scores.Ann.tiles", "Tile 1"),
        ({"tiles": "12-5"}, "scores.Ann.tiles", "list"),
        ({"tiles": [[6, 6]], "went_out": True}, "scores.Ann.tiles", "went out"),
        ({"tiles": [[6, 6]], "points": 12}, "scores.Ann.points", "not both"),
        ({"points": 3, "markers_up": 2}, "scores.Ann.markers_up", "between 0 and 1"),
        ({"points": 3, "markers_up": -1}, "scores.Ann.markers_up", "between 0 and 1"),
        ({"points": 3, "bonus": 1}, "scores.Ann.bonus", "Unknown score field"),
        (12, "scores.Ann", "must be an object"),
    ],
)
def test_bad_scores_are_refused_and_nothing_is_saved(
    games: GameActions, score: Any, field: str, words: str
) -> None:
    created = games.create()
    response = games.put_round(created, 1, {"Bob": {"points": 4}, "Ann": score})
    assert response.status_code == 400
    body = response.get_json()
    assert body["field"] == field
    assert words in body["error"]
    game = games.get(created["id"])
    assert game["version"] == 1
    assert game["rounds"][0]["scores"] == {}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"scores": {"Dan": {"points": 3}}, "version": 1}, "scores.Dan"),
        ({"scores": [], "version": 1}, "scores"),
        ({"scores": {"Ann": {"points": 3}}}, "version"),
        ({"scores": {"Ann": {"points": 3}}, "version": "one"}, "version"),
    ],
)
def test_bad_round_bodies_name_the_field(
    client: FlaskClient, games: GameActions, body: dict[str, Any], field: str
) -> None:
    created = games.create()
    response = client.put(f"/api/games/{created['id']}/rounds/1", json=body, headers=auth(created))
    assert response.status_code == 400
    assert response.get_json()["field"] == field


@pytest.mark.parametrize("raw", [b"not json", b"[1, 2]", b'"text"'])
def test_non_object_bodies_are_400(client: FlaskClient, games: GameActions, raw: bytes) -> None:
    created = games.create()
    response = client.put(
        f"/api/games/{created['id']}/rounds/1",
        data=raw,
        content_type="application/json",
        headers=auth(created),
    )
    assert response.status_code == 400
    assert "JSON" in response.get_json()["error"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["Ann", "ann"], "rules": {}}, "players.1"),
        ({"players": ["Ann", " "], "rules": {}}, "players.1"),
        ({"players": ["Ann"], "rules": {}}, "players"),
        ({"players": [f"P{i}" for i in range(9)], "rules": {}}, "players"),
        ({"players": ["Ann", 7], "rules": {}}, "players.1"),
        ({"players": "Ann, Bob", "rules": {}}, "players"),
        ({"players": ["A" * 25, "Bob"], "rules": {}}, "players.0"),
        ({"players": ["Ann", "Bob"], "rules": {"blank_scoring": "double"}}, "rules.blank_scoring"),
        ({"players": ["Ann", "Bob"], "rules": {"house": 1}}, "rules.house"),
        ({"players": ["Ann", "Bob"], "rules": "standard"}, "rules"),
        ({"players": [f"P{i}" for i in range(5)], "rules": {"set_max": 6}}, "players"),
    ],
)
def test_bad_new_games_are_refused(client: FlaskClient, body: dict[str, Any], field: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert response.get_json()["field"] == field
    assert client.get("/").get_data(as_text=True).count("game-item") == 0


def test_big_sets_seat_more_players(client: FlaskClient) -> None:
    players = [f"Player {i}" for i in range(10)]
    response = client.post("/api/games", json={"players": players, "rules": {"set_max": 15}})
    assert response.status_code == 201
    game = client.get(f"/api/games/{response.get_json()['id']}").get_json()
    assert len(game["rounds"]) == 16
    assert game["rounds"][0]["hand_size"] == 11


def test_unknown_api_path_and_wrong_method_answer_json(client: FlaskClient) -> None:
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404
    assert missing.is_json
    wrong = client.patch("/api/games")
    assert wrong.status_code == 405
    assert wrong.is_json
    assert "POST" in wrong.headers["Allow"]
