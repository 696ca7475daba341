"""Kept rulings have a service of their own, as games do, and the scoresheet is handed them by
its view: no template global reaches into the database."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import service
from companion.referee.kept import KeptRulingNotFound, delete_ruling, keep_ruling, kept_rulings
from companion.referee.ruling import RulingView


def ruling(verdict: str) -> RulingView:
    return RulingView(
        question="May Ann play 5-3 on her train?",
        verdict=verdict,
        tone="yes" if verdict == "Allowed" else "no",
        sentence="x" * 5000,
        rule="A core rule",
    )


def test_keep_list_and_delete_rulings_of_one_game(app: Flask) -> None:
    with app.app_context():
        game, _token = service.create_game(["Ann", "Bob"], {"preset": "standard"})
        other, _ = service.create_game(["Cy", "Dee"], {"preset": "standard"})
        first = keep_ruling(game, ruling("Allowed"))
        second = keep_ruling(game, ruling("Not allowed"))
        keep_ruling(other, ruling("Allowed"))
        assert [kept.id for kept in kept_rulings(game.id)] == [second.id, first.id]  # newest first
        assert len(first.sentence) == 4000  # cut to the column, not refused
        with pytest.raises(KeptRulingNotFound):
            delete_ruling(other, first.id)  # another game's ruling is never touched
        delete_ruling(game, first.id)
        assert [kept.id for kept in kept_rulings(game.id)] == [second.id]
        with pytest.raises(KeptRulingNotFound):
            delete_ruling(game, first.id)


def test_no_template_global_reads_kept_rulings(app: Flask) -> None:
    with app.test_request_context():
        context: dict[str, object] = {}
        app.update_template_context(context)
    assert "kept_rulings" not in context
    assert "kept_rulings" not in app.jinja_env.globals


def test_deleting_a_ruling_twice_says_so_plainly(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/games", json={"players": ["Ann", "Bob"]}).get_json()
    client.get(urlsplit(created["edit_url"]).path)  # this phone holds the edit link
    with app.app_context():
        game = service.get_game(created["id"])
        kept = keep_ruling(game, ruling("Allowed"))
        ruling_id = kept.id
    url = f"/games/{created['id']}/rulings/{ruling_id}/delete"
    assert client.post(url).status_code == 302
    again = client.post(url)
    assert again.status_code == 404
    assert "no longer kept with this game" in again.get_data(as_text=True)
