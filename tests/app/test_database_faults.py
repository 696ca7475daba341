"""A database that goes away mid-request (PostgreSQL restarted, its backends killed): every
answer is still the app's own page or JSON, never the server's bare 500.

With SQLite the failures are made by hand: the session's rollback and close raise what
psycopg raises on a dropped connection. With TEST_DATABASE_URL naming PostgreSQL, the last
test kills the request's own backend with pg_terminate_backend."""

from __future__ import annotations

import os
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from companion.extensions import db
from companion.games import service
from tests.conftest import GameActions

DROPPED = "server closed the connection unexpectedly"


def dropped(*_args: Any, **_kwargs: Any) -> None:
    raise OperationalError("ROLLBACK", {}, Exception(DROPPED))


@pytest.fixture
def served(app: Flask) -> Flask:
    """The app as a server runs it: an error that escapes becomes the server's bare 500
    (the test client would raise it instead)."""
    app.config["PROPAGATE_EXCEPTIONS"] = False
    return app


@pytest.fixture
def connection_lost(served: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on every rollback and close of a session fails as on a dropped connection."""
    with served.app_context():
        session_class = type(db.session())  # Flask-SQLAlchemy's Session class
    monkeypatch.setattr(session_class, "rollback", dropped)
    monkeypatch.setattr(session_class, "close", dropped)


def lose_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a game fails as on a dropped connection."""
    monkeypatch.setattr(service, "get_game", dropped)


def test_a_failing_close_after_a_good_answer_keeps_the_answer(
    client: FlaskClient, games: GameActions, connection_lost: None
) -> None:
    created = games.create(["Ann", "Bob"], {"preset": "standard"})
    response = client.get(f"/api/games/{created['id']}")
    assert response.status_code == 200
    assert response.get_json()["id"] == created["id"]


def test_a_dropped_connection_answers_the_apps_page(
    client: FlaskClient,
    games: GameActions,
    connection_lost: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    created = games.create(["Ann", "Bob"], {"preset": "standard"})
    lose_the_database(monkeypatch)
    response = client.get(f"/games/{created['id']}")
    assert response.status_code == 503
    page = response.get_data(as_text=True)
    assert "The database could not be reached" in page
    assert "The laptop can&#39;t save right now" in page and "Back to the games" in page


def test_a_dropped_connection_answers_the_apis_json(
    client: FlaskClient,
    games: GameActions,
    connection_lost: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    created = games.create(["Ann", "Bob"], {"preset": "standard"})
    lose_the_database(monkeypatch)
    response = client.get(f"/api/games/{created['id']}")
    assert response.status_code == 503
    assert response.get_json()["error"].startswith("The database could not be reached")


def test_a_write_on_a_dropped_connection_keeps_what_was_typed(
    client: FlaskClient,
    games: GameActions,
    served: Flask,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    created = games.create(["Ann", "Bob"], {"preset": "standard"})
    games.claim(created)
    with served.app_context():
        session_class = type(db.session())
    monkeypatch.setattr(session_class, "commit", dropped)
    monkeypatch.setattr(session_class, "rollback", dropped)
    monkeypatch.setattr(session_class, "close", dropped)
    response = client.post(
        f"/games/{created['id']}/rounds/1",
        data={"version": "1", "points-0": "12", "points-1": "30"},
    )
    page = response.get_data(as_text=True)
    assert "The database could not be reached: this change was not saved." in page
    assert 'value="12"' in page and 'value="30"' in page


@pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL", "").startswith("postgresql"),
    reason="needs PostgreSQL (TEST_DATABASE_URL)",
)
def test_a_killed_postgresql_backend_still_gets_the_apps_json(
    served: Flask, client: FlaskClient, games: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = games.create(["Ann", "Bob"], {"preset": "standard"})
    real_get_game = service.get_game

    def killed_midway(game_id: str) -> Any:
        game = real_get_game(game_id)
        # Another connection kills this request's backend while its transaction is open:
        # the rollback that ends the request is the first to find it gone.
        pid = db.session.execute(text("SELECT pg_backend_pid()")).scalar_one()
        with db.engine.connect() as other:
            other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            other.commit()
        return game

    monkeypatch.setattr(service, "get_game", killed_midway)
    response = client.get(f"/api/games/{created['id']}")
    # The game was read before the backend died: it is answered (or, had the answer needed
    # the database again, the app's 503 JSON would say so), never a bare server error.
    assert response.status_code in (200, 503)
    assert response.get_json()["id" if response.status_code == 200 else "error"]
    monkeypatch.setattr(service, "get_game", real_get_game)
    again = client.get(f"/api/games/{created['id']}")
    assert again.status_code == 200
