"""Small things a table notices: undo words, saved messages, the home list, names, the deal
preview, the chart's ticks, the history's length, the web app manifest."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.chart import COLOURS, DASHES, axis_ticks, cumulative_chart
from tests.conftest import GameActions

PLAYERS = ["Ann", "Bob", "Cy"]


def owned(games: GameActions, players: list[str] | None = None) -> dict[str, Any]:
    created = games.create(players or PLAYERS)
    games.claim(created)
    return created


def test_undo_says_what_it_will_undo_and_asks_once(client: FlaskClient, games: GameActions) -> None:
    created = owned(games)
    games.put_round(created, 4, {"Ann": {"points": 6}}, version=1)
    games.put_round(created, 4, {"Ann": {"points": 5}}, version=2)
    page = client.get(f"/games/{created['id']}").get_data(as_text=True)
    assert "Undo last change: Ann, round 4, 6 → 5</button>" in page
    assert 'data-confirm="Undo this change? Ann, round 4, 6 → 5"' in page


def test_nothing_undoable_disables_undo(client: FlaskClient, games: GameActions) -> None:
    created = owned(games)
    page = client.get(f"/games/{created['id']}").get_data(as_text=True)
    assert re.search(r"<button[^>]*disabled>Undo last change</button>", page)


@pytest.mark.parametrize(
    ("form", "flashed"),
    [
        ({"points-0": "7"}, "Nothing new to save in round 1"),  # the same score again
        ({}, "Round 1 cleared."),
        ({"points-0": "8"}, "Round 1 saved; still to enter: Bob, Cy."),
    ],
)
def test_saved_is_said_only_when_something_was_saved(
    client: FlaskClient, games: GameActions, form: dict[str, str], flashed: str
) -> None:
    created = owned(games)
    games.put_round(created, 1, {"Ann": {"points": 7}}, version=1)
    response = client.post(
        f"/games/{created['id']}/rounds/1", data={"version": "2", **form}, follow_redirects=True
    )
    page = response.get_data(as_text=True)
    assert flashed in page
    if "saved;" not in flashed:
        assert "Round 1 saved" not in page


def test_home_lists_only_this_phones_games_but_the_host_sees_all(
    client: FlaskClient, app: Any, games: GameActions
) -> None:
    mine = owned(games, ["Ann", "Bob"])
    other = games.create(["Zoe", "Yan"])
    phone = {"REMOTE_ADDR": "192.168.1.23"}
    page = client.get("/", environ_base=phone).get_data(as_text=True)
    assert "Ann, Bob" in page and "Zoe, Yan" not in page
    stranger = app.test_client()
    assert "Ann, Bob" not in stranger.get("/", environ_base=phone).get_data(as_text=True)
    stranger.get(f"/games/{other['id']}/view", environ_base=phone)  # opened from its QR code
    listed = stranger.get("/", environ_base=phone).get_data(as_text=True)
    assert "Zoe, Yan" in listed and "Ann, Bob" not in listed
    laptop = app.test_client().get("/").get_data(as_text=True)  # loopback: the host laptop
    assert "Ann, Bob" in laptop and "Zoe, Yan" in laptop
    assert mine["id"] in laptop


def test_a_finished_game_in_the_list_names_its_winner(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games, ["Ann", "Bob"])
    rounds = len(games.get(created["id"])["rounds"])
    for n in range(1, rounds + 1):
        games.put_round(created, n, {"Ann": {"went_out": True}, "Bob": {"points": 3}})
    page = client.get("/").get_data(as_text=True)
    assert "Finished: Ann wins with 0." in page
    assert "Resume the game of Ann, Bob" not in page
    assert "Open the finished game of Ann, Bob" in page


def test_a_long_name_is_refused_not_cut(client: FlaskClient) -> None:
    form = {"player-0": "A" * 25, "player-1": "Bob", "preset": "standard"}
    page = client.get("/games/new").get_data(as_text=True)
    assert "maxlength" not in page
    response = client.post("/games/new", data=form)
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "Keep names to 24 characters or fewer." in text
    assert 'value="' + "A" * 25 + '"' in text


def test_the_deal_preview_speaks_plain_words(client: FlaskClient) -> None:
    query = "&".join(f"player-{i}=P{i}" for i in range(8)) + "&rule-set_max=6"
    data = client.get(f"/games/new/deal?{query}&rule-hand_size=celko").get_json()
    assert data["error"].startswith("That deal gives no hand size for 8 players")
    assert "rules." not in data["error"] and "celko" not in data["error"]
    assert "_" not in data["error"]


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (0, 1, [0, 1]),
        (0, 7, [0, 2, 4, 6, 8]),
        (0, 31, [0, 10, 20, 30, 40]),
        (0, 250, [0, 50, 100, 150, 200, 250]),
        (0, 999, [0, 200, 400, 600, 800, 1000]),
        (-30, 140, [-50, 0, 50, 100, 150]),
    ],
)
def test_chart_ticks_are_round_numbers(low: int, high: int, ticks: list[int]) -> None:
    assert axis_ticks(low, high) == ticks


def test_eight_players_lines_differ_in_colour_and_dash() -> None:
    names = [f"P{seat}" for seat in range(8)]
    svg = cumulative_chart(names, {name: [seat, 2 * seat] for seat, name in enumerate(names)}, 13)
    lines = re.findall(
        r'stroke="(#[0-9a-f]+)" stroke-width="2.5"(?: stroke-dasharray="([^"]+)")?', svg
    )
    assert len(lines) == 8
    assert len({colour for colour, _ in lines}) == 8
    assert len({dash for _, dash in lines}) == 8
    assert len(COLOURS) >= 8 and len(DASHES) >= 8


def test_history_shows_the_latest_changes_with_show_all(
    client: FlaskClient, games: GameActions
) -> None:
    created = owned(games)
    for version in range(1, 26):
        games.put_round(created, 1, {"Ann": {"points": version}}, version=version)
    page = client.get(f"/games/{created['id']}").get_data(as_text=True)
    assert "The latest 20 of 25 changes, newest first" in page
    assert page.count("Edited round 1") + page.count("Entered round 1") == 20
    assert f'href="/games/{created["id"]}?history=all#history"' in page
    everything = client.get(f"/games/{created['id']}?history=all").get_data(as_text=True)
    assert "25 changes, newest first" in everything
    assert everything.count("Edited round 1") + everything.count("Entered round 1") == 25


def test_web_app_manifest_and_icons(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'rel="manifest" href="/static/manifest.webmanifest"' in page
    assert 'rel="apple-touch-icon"' in page
    with client.get("/static/manifest.webmanifest") as response:
        assert response.mimetype == "application/manifest+json"
        manifest = json.loads(response.get_data(as_text=True))
    assert manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        with client.get(f"/static/{icon['src']}") as image:
            assert image.status_code == 200 and image.mimetype == "image/png"
            assert image.get_data()[:8] == b"\x89PNG\r\n\x1a\n"


def visible_text(html: str) -> str:
    """The page's words a player reads: tags, attributes and JSON data blocks removed."""
    html = re.sub(r'<script type="application/json".*?</script>', "", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("path", ["/games/new", "{sheet}", "{rules}"])
def test_rules_are_named_in_words_without_survey_codes(
    client: FlaskClient, games: GameActions, path: str
) -> None:
    created = games.create(PLAYERS, {"preset": "standard", "blank_scoring": "double_blank_50"})
    games.claim(created)
    url = path.format(sheet=f"/games/{created['id']}", rules=f"/games/{created['id']}/rules")
    text = visible_text(client.get(url).get_data(as_text=True))
    assert not re.search(r"\bS-\d\d|\bP-[A-Z]{2}|seeds? 00\d|variants B\.2", text)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), re.findall(r"\b[a-z]+_[a-z_]+\b", text)
    if path == "{sheet}":
        assert "Standard, with 1 change: the double-blank counts 50; other blanks count 0" in text


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/games/new", "The Celko deal table"),
        ("/games/new", "the Idaho Good Sam club"),
        ("/referee", "The Fundex Games Mexican Train instructions (2003)"),
    ],
)
def test_names_keep_their_capitals_and_no_file_paths_show(
    client: FlaskClient, path: str, words: str
) -> None:
    text = visible_text(client.get(path).get_data(as_text=True))
    assert words in text
    assert not re.search(r"shared/|\.md\b|variants B\.", text)
