"""This phone's player (a signed cookie per game) and the winner card of a finished game."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from companion.games import holder, service, sheetview, winner_card
from tests.conftest import GameActions

SHORT = {"preset": "standard", "schedule": [3, 2, 1]}
OUT = {"went_out": True}


def play(games: GameActions, created: dict[str, Any], rounds: list[dict[str, Any]]) -> None:
    for n, scores in enumerate(rounds, start=1):
        response = games.put_round(created, n, scores)
        assert response.status_code == 200, response.get_json()


def finished_game(games: GameActions, names: tuple[str, str, str] = ("Ann", "Bob", "Cy")) -> Any:
    """Three rounds: Bob wins with 8, then Cy 24, Ann 31."""
    a, b, c = names
    created = games.create(list(names), SHORT)
    play(
        games,
        created,
        [
            {a: {"points": 20}, b: OUT, c: {"points": 9}},
            {a: {"points": 11}, b: {"points": 7}, c: OUT},
            {a: OUT, b: {"points": 1}, c: {"points": 15}},
        ],
    )
    return created


def holder_cookie(client: FlaskClient, game_id: str) -> str | None:
    cookie = client.get_cookie(holder.cookie_name(game_id), path=holder.cookie_path(game_id))
    return cookie.value if cookie else None


# --- this phone is Ann ----------------------------------------------------------------------


def test_phone_holding_a_player_sees_them_marked_you_and_first_in_the_round_form(
    client: FlaskClient, games: GameActions
) -> None:
    created = games.create(["Ann", "Bob", "Cy"])
    games.claim(created)
    response = client.post(f"/games/{created['id']}/holder", data={"player": "Bob"})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{created['id']}"
    page = client.get(f"/games/{created['id']}").get_data(as_text=True)
    assert re.search(r'<li class="you">.*?Bob <span class="you-tag">you</span>', page, re.S)
    legends = re.findall(r'<legend data-name="([^"]+)"', page)
    assert legends == ["Bob", "Ann", "Cy"]
    # The seats keep their own fields: Bob's box is still seat 1's.
    assert re.search(r'<legend data-name="Bob">.*?name="points-1"', page, re.S)
    assert '<option value="Bob" selected>Bob</option>' in page


def test_the_choice_survives_on_the_phone_and_rejoining_by_link_keeps_it(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    created = games.create(["Ann", "Bob", "Cy"])
    client.post(f"/games/{created['id']}/holder", data={"player": "Ann", "from": "view"})
    value = holder_cookie(client, created["id"])
    assert value is not None
    with app.test_request_context():
        assert holder.read_value(created["id"], value) == "Ann"
        assert holder.read_value("othergame", value) is None
    # The read-only link (the QR code) opened again on the same phone.
    page = client.get(f"/games/{created['id']}/view").get_data(as_text=True)
    assert 'Ann <span class="you-tag">you</span>' in page
    # Another phone holds nobody, and its page marks nobody.
    other = app.test_client().get(f"/games/{created['id']}/view").get_data(as_text=True)
    assert 'class="you-tag"' not in other


def test_two_phones_hold_two_players(app: Flask, client: FlaskClient, games: GameActions) -> None:
    created = games.create(["Ann", "Bob", "Cy"])
    second = app.test_client()
    client.post(f"/games/{created['id']}/holder", data={"player": "Ann"})
    second.post(f"/games/{created['id']}/holder", data={"player": "Cy"})
    first_page = client.get(f"/games/{created['id']}/view").get_data(as_text=True)
    second_page = second.get(f"/games/{created['id']}/view").get_data(as_text=True)
    assert '<li class="you"><span class="rank">1</span><span class="name">Ann' in first_page
    assert '<li class="you"><span class="rank">1</span><span class="name">Cy' in second_page


def test_choosing_nobody_drops_the_player(client: FlaskClient, games: GameActions) -> None:
    created = games.create(["Ann", "Bob"])
    client.post(f"/games/{created['id']}/holder", data={"player": "Ann"})
    client.post(f"/games/{created['id']}/holder", data={"player": ""})
    assert holder_cookie(client, created["id"]) is None
    assert 'class="you-tag"' not in client.get(f"/games/{created['id']}").get_data(as_text=True)


def test_a_name_not_in_the_game_is_refused_in_words(
    client: FlaskClient, games: GameActions
) -> None:
    created = games.create(["Ann", "Bob"])
    response = client.post(f"/games/{created['id']}/holder", data={"player": "Zed"})
    assert response.status_code == 400
    assert (
        "\u201cZed\u201d is not playing in this game; choose one of Ann and Bob."
        in response.get_data(as_text=True)
    )
    assert holder_cookie(client, created["id"]) is None


@pytest.mark.parametrize(
    "value",
    ["garbage", "", "eyJnYW1lIjoieCJ9.bad-signature", "signed-for-another-game", "renamed"],
)
def test_a_stale_or_bad_cookie_is_dropped_quietly(
    app: Flask, client: FlaskClient, games: GameActions, value: str
) -> None:
    created = games.create(["Ann", "Bob"])
    game_id = created["id"]
    with app.test_request_context():
        if value == "signed-for-another-game":
            value = holder.signed_value("anothergame", "Ann")
        elif value == "renamed":  # Ann held before she became "Annie" (or left the game)
            value = holder.signed_value(game_id, "Annabel")
    client.set_cookie(holder.cookie_name(game_id), value, path=holder.cookie_path(game_id))
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    assert 'class="you-tag"' not in response.get_data(as_text=True)
    assert holder_cookie(client, game_id) is None  # dropped, so it is not read again


def test_a_player_removed_from_the_game_is_dropped_quietly(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    created = games.create(["Ann", "Bob", "Cy"])
    client.post(f"/games/{created['id']}/holder", data={"player": "Cy"})
    with app.app_context():
        game = service.get_game(created["id"])
        game.players = ["Ann", "Bob"]
        service.db.session.commit()
    page = client.get(f"/games/{created['id']}/view")
    assert page.status_code == 200
    assert 'class="you-tag"' not in page.get_data(as_text=True)
    assert holder_cookie(client, created["id"]) is None


# --- the winner card ------------------------------------------------------------------------


def test_winner_card_is_a_png_of_the_expected_size(client: FlaskClient, games: GameActions) -> None:
    created = finished_game(games)
    response = client.get(f"/games/{created['id']}/winner.png")
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    image.load()
    assert image.format == "PNG"
    assert image.size == (winner_card.WIDTH, winner_card.HEIGHT) == (1080, 1080)
    # Not a blank picture: the winner's row is drawn in the accent colour.
    assert winner_card.ACCENT in {colour for _, colour in image.getcolors(1_000_000) or []}
    again = client.get(
        f"/games/{created['id']}/winner.png", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304


def test_winner_page_has_the_card_the_text_and_the_share_button(
    client: FlaskClient, games: GameActions
) -> None:
    created = finished_game(games)
    page = client.get(f"/games/{created['id']}/winner").get_data(as_text=True)
    text = (
        "Mexican Train: Bob wins! 8 points after 3 rounds. Then Cy 24, Ann 31. Best round: "
        "0 points (Bob once, Cy once and Ann once)."
    )
    assert f">{text}</textarea>" in page
    assert f'src="/games/{created["id"]}/winner.png?v=' in page
    assert 'id="share-button"' in page
    assert "Download the picture" in page
    sheet = client.get(f"/games/{created['id']}/view").get_data(as_text=True)
    assert f'href="/games/{created["id"]}/winner">Share the winner card' in sheet


def test_unfinished_game_gets_a_message_not_a_card(client: FlaskClient, games: GameActions) -> None:
    created = games.create(["Ann", "Bob"], SHORT)
    play(games, created, [{"Ann": OUT, "Bob": {"points": 12}}])
    png = client.get(f"/games/{created['id']}/winner.png")
    assert png.status_code == 404
    assert png.mimetype == "text/html"
    assert "This game has no winner card yet: it is not finished." in png.get_data(as_text=True)
    page = client.get(f"/games/{created['id']}/winner").get_data(as_text=True)
    assert "This game is not finished yet: round 2 of 3 is next." in page
    assert "winner.png" not in page
    sheet = client.get(f"/games/{created['id']}/view").get_data(as_text=True)
    assert "Share the winner card" not in sheet


def test_tie_and_eight_long_names_fit_the_card(app: Flask, games: GameActions) -> None:
    names = [f"{'Bartholomew-Maximilian'[: 16 + i]}{i}" for i in range(8)]
    created = games.create(names, {"preset": "standard", "schedule": [1]})
    scores: dict[str, Any] = {name: {"points": 10} for name in names}
    scores[names[0]] = OUT
    scores[names[1]] = {"points": 0}  # blocked with no tiles left: 0 too, a tie
    response = games.put_round(created, 1, scores)
    assert response.status_code == 200, response.get_json()
    with app.app_context():
        view = sheetview.view_game(service.get_game(created["id"]))
        assert view.winners == names[:2]
        assert winner_card.headline(view).startswith(f"{names[0]} and {names[1]} tie")
        image = Image.open(io.BytesIO(winner_card.render_png(view)))
        assert image.size == (1080, 1080)


def test_fit_cuts_long_names_with_an_ellipsis() -> None:
    font = winner_card.load_font(40)
    cut = winner_card.fit("Wolfeschlegelsteinhausenbergerdorff Senior", font, 300)
    assert cut.endswith("…")
    assert font.getlength(cut) <= 300
    assert winner_card.fit("Ann", font, 300) == "Ann"


def test_the_font_falls_back_to_pillows_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(winner_card, "BOLD_FONTS", ("no-such-font.ttf",))
    winner_card.load_font.cache_clear()
    try:
        font = winner_card.load_font(50, bold=True)
        assert font.getlength("Ann") > 0
    finally:
        winner_card.load_font.cache_clear()


def test_undo_that_reopens_the_game_takes_the_card_away(
    client: FlaskClient, games: GameActions
) -> None:
    created = finished_game(games)
    card = client.get(f"/games/{created['id']}/winner.png")
    assert card.status_code == 200
    games.claim(created)
    version = games.get(created["id"])["version"]
    assert client.post(f"/games/{created['id']}/undo", data={"version": version}).status_code == 302
    again = client.get(
        f"/games/{created['id']}/winner.png", headers={"If-None-Match": card.headers["ETag"]}
    )
    assert again.status_code == 404


@pytest.mark.parametrize(
    ("who", "words"),
    [
        ((("Bob", 5),), "Best round: Bob, 0 points in round 5"),
        (
            (("Jo", 1), ("Ann", 2), ("Jo", 3), ("Cy", 4), ("Jo", 5), ("Ann", 6), ("Dee", 7)),
            "Best round: 0 points (Jo 3 times, Ann twice, Cy once and 1 more)",
        ),
        ((("Ann", 1), ("Bob", 1)), "Best round: 0 points (Ann once and Bob once)"),
    ],
)
def test_the_best_round_says_who_made_it_how_often(
    who: tuple[tuple[str, int], ...], words: str
) -> None:
    # Going out scores 0 most rounds: a list of every round would run on, a count does not.
    assert winner_card.best_round_words(winner_card.BestRound(0, who)) == words
