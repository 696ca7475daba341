"""The app factory: configuration defaults, database URL, secret key, migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from flask import Flask

from companion import create_app
from companion.app import database_url_from_env, persistent_secret_key
from companion.extensions import db


def test_default_app_is_not_in_testing_mode(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite'}")
    monkeypatch.setenv("SECRET_KEY", "from-env")
    app = create_app()
    assert not app.testing
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"] == {"pool_pre_ping": True}
    assert app.config["MAX_CONTENT_LENGTH"] > 0
    assert app.template_folder is not None and app.template_folder.endswith("templates")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ("", "sqlite:////inst/companion.sqlite"),
        ("postgres://u:p@db/c", "postgresql+psycopg://u:p@db/c"),
        ("postgresql://u:p@db/c", "postgresql+psycopg://u:p@db/c"),
        ("postgresql+psycopg://u@h/c", "postgresql+psycopg://u@h/c"),
        ("sqlite:////tmp/other.sqlite", "sqlite:////tmp/other.sqlite"),
    ],
)
def test_database_url(monkeypatch: pytest.MonkeyPatch, env: str, expected: str) -> None:
    monkeypatch.setenv("DATABASE_URL", env)
    assert database_url_from_env("/inst") == expected


def test_secret_key_is_random_and_kept_across_restarts(tmp_path: Path) -> None:
    first = persistent_secret_key(str(tmp_path))
    assert len(first) == 64 and first != "dev"
    assert persistent_secret_key(str(tmp_path)) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert persistent_secret_key(str(other)) != first


def test_sqlite_enforces_foreign_keys(app: Flask) -> None:
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("a SQLite pragma")
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_migrations_build_the_schema(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    database = tmp_path / "migrated.sqlite"
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "m", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"}
    )
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(database) as connection:
        tables = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    assert {"game", "round", "change", "alembic_version"} <= tables
    # The models and the migrations agree (a model change without a migration fails here).
    check = app.test_cli_runner().invoke(args=["db", "check"])
    assert check.exit_code == 0, check.output
    # The migrated schema is the one the models expect: a game can be created and scored.
    client = app.test_client()
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    response = client.put(
        f"/api/games/{created['id']}/rounds/1",
        json={"scores": {"Ann": {"points": 3}}, "version": 1},
        headers={"Authorization": f"Bearer {created['edit_token']}"},
    )
    assert response.status_code == 200
    with app.app_context():
        db.engine.dispose()
