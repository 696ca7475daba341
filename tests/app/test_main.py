"""``python -m companion``: migrate, print the LAN address, serve on every interface."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion import __main__ as entry


def test_main_migrates_then_serves_on_all_interfaces(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "run.sqlite"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.setenv("SECRET_KEY", "run-test")
    monkeypatch.setenv("PORT", "5123")
    monkeypatch.setattr(entry, "lan_ip", lambda: "192.168.7.7")
    served: dict[str, Any] = {}

    def fake_serve_app(app: Any, port: int) -> None:
        served.update(app=app, port=port)

    monkeypatch.setattr(entry, "serve_app", fake_serve_app)
    entry.main()
    assert served["port"] == 5123
    assert "http://192.168.7.7:5123/" in capsys.readouterr().out
    with sqlite3.connect(database) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert "game" in tables


@pytest.mark.parametrize("value", ["abc", "0", "70000", "-1"])
def test_bad_port_is_a_clear_message(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("PORT", value)
    with pytest.raises(SystemExit, match="PORT must be a number"):
        entry.port_from_env()


def test_serve_app_listens_on_every_interface(monkeypatch: pytest.MonkeyPatch) -> None:
    waitress = pytest.importorskip("waitress")
    calls: dict[str, Any] = {}

    def fake_serve(app: Any, **options: Any) -> None:
        calls.update(options)

    monkeypatch.setattr(waitress, "serve", fake_serve)
    entry.serve_app(object(), 5124)  # type: ignore[arg-type]
    assert calls["host"] == "0.0.0.0"
    assert calls["port"] == 5124
