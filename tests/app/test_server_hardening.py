"""Links from the configured address, a Content-Security-Policy, spreadsheet-safe CSV."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import create_app, links
from companion.extensions import db
from tests.conftest import GameActions

PROJECT = Path(__file__).resolve().parents[2]


def app_without_public_url(tmp_path: Path, **config: Any) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'links.sqlite'}",
            **config,
        }
    )
    with app.app_context():
        db.create_all()
    return app


@pytest.mark.parametrize(
    ("config", "host", "expected"),
    [
        ({}, "evil.example", "http://192.168.7.7:5000"),
        ({}, "localhost:5000", "http://192.168.7.7:5000"),
        ({"TRUSTED_HOSTS": ["scores.example"]}, "scores.example", "http://scores.example"),
        ({"PUBLIC_URL": "https://table.example/"}, "evil.example", "https://table.example"),
    ],
)
def test_links_never_come_from_an_untrusted_host_header(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    config: dict[str, Any],
    host: str,
    expected: str,
) -> None:
    monkeypatch.setattr(links, "lan_ip", lambda: "192.168.7.7")
    app = app_without_public_url(tmp_path, **config)
    client = app.test_client()
    response = client.post(
        "/api/games",
        json={"players": ["Ann", "Bob"]},
        headers={"Host": host},
        environ_overrides={"SERVER_PORT": "5000"},
    )
    assert response.status_code == 201
    body = response.get_json()
    assert body["edit_url"].startswith(expected + "/games/")
    assert body["view_url"] == f"{expected}/games/{body['id']}/view"
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


def test_an_untrusted_host_is_refused_when_trusted_hosts_are_set(tmp_path: Path) -> None:
    app = app_without_public_url(tmp_path, TRUSTED_HOSTS=["scores.example"])
    response = app.test_client().get("/", headers={"Host": "evil.example"})
    assert response.status_code == 400
    with app.app_context():
        db.drop_all()
        db.engine.dispose()


def test_every_page_carries_a_content_security_policy(
    client: FlaskClient, games: GameActions
) -> None:
    created = games.create()
    games.claim(created)
    for path in ("/", "/games/new", f"/games/{created['id']}", f"/api/games/{created['id']}"):
        policy = client.get(path).headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy


def test_templates_need_no_inline_script_or_style() -> None:
    """What the policy would block: style attributes, inline handlers, script blocks that run."""
    for path in sorted((PROJECT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\sstyle=", text), path
        assert not re.search(r"\son[a-z]+=", text), path
        for block in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in block or 'type="application/json"' in block, (path, block)


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+Ann", "'+Ann"),
        ("-Bob", "'-Bob"),
        ("@Cy", "'@Cy"),
        ("Dee", "Dee"),
    ],
)
def test_csv_cells_a_spreadsheet_would_run_are_neutralised(
    client: FlaskClient, games: GameActions, name: str, cell: str
) -> None:
    created = games.create([name, "Zed"], {"going_out_bonus": -10})
    games.put_round(created, 1, {name: {"points": 4}, "Zed": {"went_out": True}})
    body = client.get(f"/games/{created['id']}/export.csv").get_data().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][4:] == [cell, "Zed"]
    assert rows[1][2] == cell  # the round's leader
    assert rows[1][5] == "-10"  # numbers stay numbers
