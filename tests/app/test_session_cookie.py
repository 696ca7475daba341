"""The sheet's background requests never put back an older session cookie."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.sessions import LIVE_REFRESH_HEADER
from tests.conftest import GameActions

LIVE = {LIVE_REFRESH_HEADER: "1"}


def background_paths(created: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """What an open sheet fetches by itself: the API poll and its own page, marked as live."""
    return [
        (f"/api/games/{created['id']}", {"Accept": "application/json", **LIVE}),
        (f"/games/{created['id']}", {"Accept": "text/html", **LIVE}),
        ("/static/js/sheet.js", {}),
    ]


def session_cookie(client: FlaskClient) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


@pytest.mark.parametrize("which", [0, 1, 2], ids=["api poll", "live page", "static file"])
def test_a_background_answer_sent_before_a_save_keeps_the_saved_message(
    app: Flask, client: FlaskClient, games: GameActions, which: int
) -> None:
    """A poll that left with the cookie of before a save, and is answered after it, must not
    overwrite the cookie the save set: the player still reads "Round 1 saved." next."""
    created = games.create(["Ann", "Bob"])
    games.claim(created)
    client.get(f"/games/{created['id']}")
    before_save = session_cookie(client)
    saved = client.post(
        f"/games/{created['id']}/rounds/1", data={"version": "1", "points-0": "5", "points-1": "6"}
    )
    assert saved.status_code == 302
    assert session_cookie(client) != before_save  # the message travels in the cookie

    path, headers = background_paths(created)[which]
    in_flight = app.test_client(use_cookies=False)
    with in_flight.get(path, headers={**headers, "Cookie": f"session={before_save}"}) as late:
        assert late.status_code == 200
        assert "session=" not in " ".join(late.headers.getlist("Set-Cookie"))

    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Round 1 saved." in page


def test_a_visit_still_renews_the_cookie(client: FlaskClient, games: GameActions) -> None:
    """Only background answers leave the cookie alone: opening the sheet renews its lifetime,
    so a phone in daily use keeps its edit rights."""
    created = games.create(["Ann", "Bob"])
    games.claim(created)
    visit = client.get(f"/games/{created['id']}")
    assert "session=" in " ".join(visit.headers.getlist("Set-Cookie"))
