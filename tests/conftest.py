"""Shared fixtures: an app on a fresh database per test, a client, and a game helper."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app, stale_sources
from companion.extensions import db

# Importing the package settled the rules engine's build (companion/__init__.py): with
# COMPANION_PURE_RULES=1 the tests run on the plain source. A stale compiled build is quietly
# replaced by the source there too; here it stops the run, so `make test` tests what it built.
if not os.environ.get("COMPANION_PURE_RULES") and (stale := stale_sources()):
    pytest.exit(
        f"{', '.join(p.name for p in stale)} changed since the rules engine was compiled: run "
        "`make test` (it compiles again) or `make uncompile`",
        returncode=4,
    )


@pytest.fixture(autouse=True)
def _rendered_scenes_as_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    """The renderer's table tops without scikit-image's sample photographs, as CI renders them:
    with the train extra installed a fifth of the tops would be photos and every rendered scene
    after the first such top would differ from the one a test's figures were measured on."""
    synth = sys.modules.get("training.synth")
    if synth is not None:
        monkeypatch.setattr(synth, "_with_sample_photos", False)  # synth.use_sample_photos


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """An app on a temporary SQLite file, or on TEST_DATABASE_URL (PostgreSQL in CI)."""
    url = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'test.sqlite'}"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
            "PUBLIC_URL": "http://table.test:5000",
        }
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for ``app``."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> Any:
    """A CLI runner for ``app``."""
    return app.test_cli_runner()


class GameActions:
    """Multi-step flows through the JSON API, for tests that need a game to exist."""

    def __init__(self, client: FlaskClient) -> None:
        self._client = client

    def create(
        self, players: list[str] | None = None, rules: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """Create a game and return the API's answer (id, edit_token, urls)."""
        response = self._client.post(
            "/api/games",
            json={"players": players or ["Ann", "Bob", "Cy"], "rules": rules or {}},
        )
        assert response.status_code == 201, response.get_json()
        created: dict[str, Any] = response.get_json()
        return created

    def get(self, game_id: str) -> dict[str, Any]:
        """Return the game as the API gives it."""
        response = self._client.get(f"/api/games/{game_id}")
        assert response.status_code == 200
        game: dict[str, Any] = response.get_json()
        return game

    def put_round(
        self, created: dict[str, Any], n: int, scores: dict[str, Any], version: int | None = None
    ) -> Any:
        """PUT a round's scores with the game's token; returns the response."""
        if version is None:
            version = self.get(created["id"])["version"]
        return self._client.put(
            f"/api/games/{created['id']}/rounds/{n}",
            json={"scores": scores, "version": version},
            headers={"Authorization": f"Bearer {created['edit_token']}"},
        )

    def claim(self, created: dict[str, Any]) -> None:
        """Open the edit link so this client's session may use the edit pages."""
        response = self._client.get(f"/games/{created['id']}/edit/{created['edit_token']}")
        assert response.status_code == 302


@pytest.fixture
def games(client: FlaskClient) -> GameActions:
    """The game helper bound to ``client``."""
    return GameActions(client)
