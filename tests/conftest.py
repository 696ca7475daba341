"""Shared fixtures: an app on a fresh database per test, a client, and a game helper."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

RULES = Path(__file__).resolve().parents[1] / "companion" / "rules"


class _RulesFromSource(importlib.abc.MetaPathFinder):
    """Imports the rules engine from its ``.py`` files even where ``make`` compiled it, so
    ``COMPANION_PURE_RULES=1`` tests the plain-Python engine too."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name != "companion.rules" and not name.startswith("companion.rules."):
            return None
        loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
        for entry in path or sys.path:
            spec = importlib.machinery.FileFinder(entry, *loaders).find_spec(name)
            if spec is not None:
                return spec
        return None


def _stale_compiled_rules() -> list[str]:
    """Compiled modules older than their source: Python would load them, not the edit."""
    shims = list(RULES.rglob("*.so"))
    if not shims:
        return []
    # The code itself is in the build's shared library beside the package; each module's own
    # file is a small shim that the build does not always rewrite.
    built = max(p.stat().st_mtime for p in [*shims, *RULES.parents[1].glob("*__mypyc*.so")])
    stale = []
    for compiled in shims:
        source = compiled.with_name(compiled.name.split(".")[0] + ".py")
        if source.exists() and source.stat().st_mtime > built:
            stale.append(str(source.relative_to(RULES.parents[1])))
    return stale


if os.environ.get("COMPANION_PURE_RULES"):
    sys.meta_path.insert(0, _RulesFromSource())
elif stale := _stale_compiled_rules():
    pytest.exit(
        f"{', '.join(stale)} changed since the rules engine was compiled: run `make test` "
        "(it compiles again) or delete companion/rules/**/*.so",
        returncode=4,
    )

from flask import Flask  # noqa: E402 - after the rules engine's import is settled
from flask.testing import FlaskClient  # noqa: E402

from companion import create_app  # noqa: E402
from companion.extensions import db  # noqa: E402


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
