"""The people page: renaming someone everywhere, merging two names, and the forms' refusals
(bad input, a merge of two people who played each other, a second phone's stale page)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.extensions import db
from companion.games import people as people_module
from companion.games.people import Person
from tests.conftest import GameActions

SHORT = {"schedule": [2, 1, 0]}
OUT = {"points": 0, "went_out": True}


def seat_values(page: str) -> list[str]:
    """The player boxes' values on the setup page, in seat order."""
    return re.findall(r'name="player-\d+" type="text"[^>]*?value="([^"]*)"', page)


def person_ids(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {p.name: p.id for p in db.session.scalars(db.select(Person))}


def rename(client: FlaskClient, person: int, name: str, seen: str) -> Any:
    return client.post("/book/people/rename", data={"person": person, "name": name, "seen": seen})


def merge(client: FlaskClient, keep: tuple[int, str], gone: tuple[int, str]) -> Any:
    return client.post(
        "/book/people/merge",
        data={
            "keep": keep[0],
            "gone": gone[0],
            f"seen-{keep[0]}": keep[1],
            f"seen-{gone[0]}": gone[1],
        },
    )


def test_a_rename_reaches_every_game_its_rounds_and_its_history(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    first = games.create(["Ann", "Bob"], SHORT)
    assert games.put_round(first, 1, {"Ann": OUT, "Bob": {"points": 5}}).status_code == 200
    assert games.put_round(first, 1, {"Ann": OUT, "Bob": {"points": 6}}).status_code == 200
    second = games.create(["Cy", "ann"], SHORT)
    response = rename(client, person_ids(app)["Ann"], "  Annie   Lee ", "Ann")
    assert response.status_code == 302
    assert "Renamed to Annie Lee" in client.get("/book/people").get_data(as_text=True)
    # Both games, whatever case they typed, now say Annie Lee, scores and all.
    one = games.get(first["id"])
    assert one["players"] == ["Annie Lee", "Bob"]
    assert games.get(second["id"])["players"] == ["Cy", "Annie Lee"]
    assert one["rounds"][0]["scores"]["Annie Lee"]["went_out"] is True
    # The sheet's history reads the new name, and undo still takes back the last round edit.
    games.claim(first)
    sheet = client.get(f"/games/{first['id']}").get_data(as_text=True)
    assert "Changed a player&#39;s name" in sheet or "Changed a player's name" in sheet
    assert "Ann → Annie Lee" in sheet
    undo = client.post(f"/games/{first['id']}/undo", data={"version": one["version"]})
    assert undo.status_code == 302
    after = games.get(first["id"])
    assert after["rounds"][0]["scores"]["Bob"]["points"] == 5
    assert after["rounds"][0]["scores"]["Annie Lee"]["went_out"] is True
    # A phone that loaded the sheet before the rename is told the game changed.
    stale = games.put_round(first, 2, {"Annie Lee": OUT, "Bob": {"points": 1}}, one["version"] - 1)
    assert stale.status_code == 409


def test_a_rename_to_another_persons_name_is_refused_with_a_pointer_to_merge(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    games.create(["Ann", "Bob"])
    ids = person_ids(app)
    response = rename(client, ids["Ann"], "BOB", "Ann")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Bob is already in the book. If they are the same person, merge Ann into Bob" in page
    assert 'value="BOB"' in page  # what was typed stays in the box
    assert sorted(person_ids(app)) == ["Ann", "Bob"]


def test_bad_rename_input_gets_a_plain_message(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    games.create(["Ann", "Bob"])
    ann = person_ids(app)["Ann"]
    assert "Type the new name." in rename(client, ann, "   ", "Ann").get_data(as_text=True)
    too_long = rename(client, ann, "A" * 40, "Ann")
    assert too_long.status_code == 400
    assert "Keep names to 24 characters or fewer." in too_long.get_data(as_text=True)
    missing = client.post("/book/people/rename", data={"person": "abc", "name": "X"})
    assert missing.status_code == 404
    assert "no longer in the book" in missing.get_data(as_text=True)
    assert games.get(games.create(["Ann", "Cy"])["id"])["players"][0] == "Ann"


def test_a_stale_rename_from_a_second_phone_changes_nothing(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    created = games.create(["Ann", "Bob"])
    ann = person_ids(app)["Ann"]
    assert rename(client, ann, "Annie", "Ann").status_code == 302
    # The second phone's page still says Ann.
    late = rename(client, ann, "Anna", "Ann")
    assert late.status_code == 409
    assert "they are now Annie. Nothing was changed" in late.get_data(as_text=True)
    assert games.get(created["id"])["players"] == ["Annie", "Bob"]


def test_a_merge_makes_two_names_one_person_in_every_game(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    first = games.create(["Ann", "Bob"], SHORT)
    for n in (1, 2, 3):
        games.put_round(first, n, {"Ann": OUT, "Bob": {"points": 4}})
    second = games.create(["Annie", "Bob"], SHORT)
    for n in (1, 2, 3):
        games.put_round(second, n, {"Annie": OUT, "Bob": {"points": 2}})
    ids = person_ids(app)
    response = merge(client, (ids["Ann"], "Ann"), (ids["Annie"], "Annie"))
    assert response.status_code == 302
    assert sorted(person_ids(app)) == ["Ann", "Bob"]
    assert games.get(second["id"])["players"] == ["Ann", "Bob"]
    book = client.get("/book/").get_data(as_text=True)
    assert "Ann leads the book with 2 wins in 2 finished games." in book


def test_a_merge_of_two_people_who_played_each_other_is_refused(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    created = games.create(["Ann", "Bob"])
    games.create(["Ann", "Bob", "Cy"])
    ids = person_ids(app)
    response = merge(client, (ids["Ann"], "Ann"), (ids["Bob"], "Bob"))
    assert response.status_code == 400
    assert (
        "Ann and Bob played in the same game (2 games), so they are two people; nothing was "
        "merged." in response.get_data(as_text=True)
    )
    assert sorted(person_ids(app)) == ["Ann", "Bob", "Cy"]
    assert games.get(created["id"])["players"] == ["Ann", "Bob"]


def test_merge_refusals_for_bad_and_stale_forms(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    games.create(["Ann", "Bob"])
    games.create(["Annie", "Cy"])
    ids = person_ids(app)
    same = merge(client, (ids["Ann"], "Ann"), (ids["Ann"], "Ann"))
    assert "Pick two different people to merge." in same.get_data(as_text=True)
    blank = client.post("/book/people/merge", data={"keep": "", "gone": str(ids["Ann"])})
    assert blank.status_code == 400
    assert "Pick both people to merge." in blank.get_data(as_text=True)
    # Another phone renamed Annie after this page was loaded.
    assert rename(client, ids["Annie"], "Anne", "Annie").status_code == 302
    stale = merge(client, (ids["Ann"], "Ann"), (ids["Annie"], "Annie"))
    assert stale.status_code == 409
    assert "they are now Anne" in stale.get_data(as_text=True)
    # And another merged her away.
    assert merge(client, (ids["Ann"], "Ann"), (ids["Annie"], "Anne")).status_code == 302
    gone = merge(client, (ids["Cy"], "Cy"), (ids["Annie"], "Anne"))
    assert gone.status_code == 404
    assert "no longer in the book" in gone.get_data(as_text=True)
    assert sorted(person_ids(app)) == ["Ann", "Bob", "Cy"]


def test_setup_offers_the_people_in_the_book_and_seats_them_in_the_order_tapped(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    games.create(["Ann", "Bob", "Cy"])
    page = client.get("/games/new").get_data(as_text=True)
    for name in ("Ann", "Bob", "Cy"):
        assert f'name="add" value="{name}"' in page
    # Without script each tap is a round trip: Cy first, then Ann, then a new name typed.
    form = {"preset": "standard"}
    first = client.post("/games/new", data={**form, "add": "Cy"}).get_data(as_text=True)
    assert seat_values(first)[:2] == ["Cy", ""]
    second = client.post("/games/new", data={**form, "player-0": "Cy", "add": "Ann"})
    page = second.get_data(as_text=True)
    assert seat_values(page)[:3] == ["Cy", "Ann", ""]
    # Those seated can't be tapped again; Bob still can.
    assert re.search(r'value="Cy"\s+class="[^"]*"\s+data-person="Cy" disabled', page)
    assert not re.search(r'data-person="Bob" disabled', page)
    # Tapping someone already seated (whatever the case) changes nothing.
    again = client.post(
        "/games/new", data={**form, "player-0": "Cy", "player-1": "Ann", "add": "cy"}
    )
    assert seat_values(again.get_data(as_text=True))[:3] == ["Cy", "Ann", ""]
    started = client.post(
        "/games/new", data={**form, "player-0": "Cy", "player-1": "Ann", "player-2": "Dee"}
    )
    assert started.status_code == 302
    game_id = started.headers["Location"].rstrip("/").split("/")[-1]
    assert games.get(game_id)["players"] == ["Cy", "Ann", "Dee"]
    assert sorted(person_ids(app)) == ["Ann", "Bob", "Cy", "Dee"]


def test_setup_says_when_every_seat_is_taken(client: FlaskClient, games: GameActions) -> None:
    games.create(["Ann", "Bob"])
    full = {f"player-{seat}": f"P{seat}" for seat in range(16)}
    response = client.post("/games/new", data={"preset": "standard", **full, "add": "Ann"})
    assert "Every seat is taken; clear one to add someone." in response.get_data(as_text=True)


def test_two_phones_adding_the_same_new_name_at_once_get_a_plain_answer(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = people_module.people_for

    def racing(names: Any) -> list[Person]:
        # The other phone's "zed" lands between this phone's look-up and its insert.
        found = original(names)
        db.session.add(Person(name="zed", name_key="zed"))
        db.session.flush()
        return found

    monkeypatch.setattr(people_module, "people_for", racing)
    response = client.post("/api/games", json={"players": ["Zed", "Yan"]})
    assert response.status_code == 409
    assert "Start it again." in response.get_json()["error"]
    monkeypatch.undo()
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Person)) == 0
