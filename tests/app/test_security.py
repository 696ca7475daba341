"""CSRF protection on forms, and why the Bearer-token API does without it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app
from companion.extensions import db


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "csrf-test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}",
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.engine.dispose()


def csrf_token_from(page: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert match, "the form carries a CSRF token"
    return match.group(1)


def test_bare_post_without_token_is_refused(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    response = client.post("/games/new", data={"player-0": "Ann", "player-1": "Bob"})
    assert response.status_code == 400
    assert "form has expired" in response.get_data(as_text=True)
    assert "game-item" not in client.get("/").get_data(as_text=True)


def test_form_with_its_token_is_accepted(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    token = csrf_token_from(client.get("/games/new").get_data(as_text=True))
    response = client.post(
        "/games/new",
        data={"csrf_token": token, "player-0": "Ann", "player-1": "Bob", "preset": "standard"},
    )
    assert response.status_code == 302


def test_round_form_needs_the_token_even_for_the_owner(csrf_app: Flask) -> None:
    client: FlaskClient = csrf_app.test_client()
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    client.get(f"/games/{created['id']}/edit/{created['edit_token']}")
    response = client.post(
        f"/games/{created['id']}/rounds/1", data={"version": "1", "points-0": "3"}
    )
    assert response.status_code == 400
    assert client.get(f"/api/games/{created['id']}").get_json()["version"] == 1


def test_api_uses_bearer_tokens_not_csrf(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]})
    assert created.status_code == 201
    body = created.get_json()
    response = client.put(
        f"/api/games/{body['id']}/rounds/1",
        json={"scores": {"Ann": {"points": 3}}, "version": 1},
        headers={"Authorization": f"Bearer {body['edit_token']}"},
    )
    assert response.status_code == 200


def test_edit_token_is_stored_only_as_a_hash(app: Flask, client: FlaskClient) -> None:
    from companion.games.models import Game

    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    with app.app_context():
        game = db.session.get(Game, created["id"])
        assert game is not None
        assert created["edit_token"] not in game.edit_token_hash
        assert len(game.edit_token_hash) == 64


def test_answers_carry_hardening_headers(client: FlaskClient) -> None:
    for path in ("/", "/api/games/missing", "/static/css/app.css"):
        response = client.get(path)
        assert response.headers["Referrer-Policy"] == "same-origin", path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path
        assert response.headers["X-Frame-Options"] == "DENY", path
        response.close()  # a static file is streamed from an open file
