"""A full disk or a read-only scores file: a sentence saying so, and nothing typed is lost."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.exc import OperationalError

from companion import __main__ as entry
from companion import create_app
from companion.extensions import db
from companion.storage import storage_trouble
from tests.conftest import GameActions


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("database or disk is full", "disk is full"),
        ("could not extend file: No space left on device", "disk is full"),
        ("attempt to write a readonly database", "read-only"),
        ("unable to open database file", "read-only"),
        ("server closed the connection unexpectedly", "could not be reached"),
    ],
)
def test_database_errors_in_words(text: str, words: str) -> None:
    assert words in storage_trouble(sqlite3.OperationalError(text))


def fill_the_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every commit fails the way SQLite's does when the disk is full."""

    def full(*_args: Any, **_kwargs: Any) -> None:
        raise OperationalError("COMMIT", {}, sqlite3.OperationalError("database or disk is full"))

    monkeypatch.setattr(db.session, "commit", full)


def test_a_full_disk_keeps_the_typed_round_and_says_so(
    app: Flask, client: FlaskClient, games: GameActions, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = games.create(["Ann", "Bob"], {"preset": "standard"})
    games.claim(created)
    fill_the_disk(monkeypatch)
    long_round = {"version": "1", "points-0": "12", "points-1": "30"}
    response = client.post(f"/games/{created['id']}/rounds/1", data=long_round)
    page = response.get_data(as_text=True)
    assert "The laptop&#39;s disk is full: this change was not saved." in page
    assert 'value="12"' in page and 'value="30"' in page
    assert "Round 1 saved" not in page
    refused = games.put_round(created, 1, {"Ann": {"points": 3}}, version=1)
    assert refused.status_code == 503
    assert refused.get_json()["error"].startswith("The laptop's disk is full")


def test_a_read_only_scores_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite"
    sqlite3.connect(path).close()
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///file:{path}?mode=ro&uri=true",
        }
    )
    response = app.test_client().get("/")
    assert response.status_code == 503
    assert "read-only" in response.get_data(as_text=True)
    with app.app_context():
        db.engine.dispose()


def test_make_run_on_a_full_disk_exits_with_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'full.sqlite'}")
    monkeypatch.setenv("SECRET_KEY", "x")

    def full(*_args: Any, **_kwargs: Any) -> None:
        raise OperationalError(
            "PRAGMA journal_mode=WAL", {}, sqlite3.OperationalError("database or disk is full")
        )

    monkeypatch.setattr(entry, "upgrade", full)
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert str(stopped.value) == (
        "The database can't be opened or updated: the laptop's disk is full"
    )
