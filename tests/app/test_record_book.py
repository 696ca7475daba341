"""The record book's figures on a small book worked out by hand, and how they follow the games.

Every game is three rounds (engines 2-2, 1-1, 0-0) under the standard rules: pips count, no
bonus for going out, so each round's points are simply the pips typed or picked.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.book import records
from companion.extensions import db
from companion.games import service
from companion.games.people import Person, ScoreLine, Seat
from tests.conftest import GameActions

SHORT = {"schedule": [2, 1, 0]}
OUT = {"points": 0, "went_out": True}


def pts(value: int) -> dict[str, Any]:
    return {"points": value}


def play(games: GameActions, players: list[str], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    created = games.create(players, SHORT)
    for n, scores in enumerate(rounds, start=1):
        response = games.put_round(created, n, scores)
        assert response.status_code == 200, response.get_json()
    return created


def small_book(games: GameActions) -> dict[str, dict[str, Any]]:
    """Four games, oldest first; the hand-worked totals are in the comments."""
    return {
        # Ann 0+7+4 = 11, Bob 10+0+6 = 16, Cy 5+3+0 = 8: Cy wins. Cy's 3 is 0-0 and 1-2.
        "A": play(
            games,
            ["Ann", "Bob", "Cy"],
            [
                {"Ann": OUT, "Bob": pts(10), "Cy": pts(5)},
                {"Ann": pts(7), "Bob": OUT, "Cy": {"tiles": [[0, 0], [1, 2]]}},
                {"Ann": pts(4), "Bob": pts(6), "Cy": OUT},
            ],
        ),
        # Ann 0+2+1 = 3, Bob 9+0+0 = 9: Ann wins. Ann's 2 is 0-0 and 0-2.
        "B": play(
            games,
            ["Ann", "Bob"],
            [
                {"Ann": OUT, "Bob": pts(9)},
                {"Ann": {"tiles": [[0, 0], [0, 2]]}, "Bob": OUT},
                {"Ann": pts(1), "Bob": OUT},
            ],
        ),
        # Ann 0+5+5 = 10, Bob 5+0+10 = 15, Cy 5+5+0 = 10: Ann and Cy tie, a win each.
        "C": play(
            games,
            ["Ann", "Bob", "Cy"],
            [
                {"Ann": OUT, "Bob": pts(5), "Cy": pts(5)},
                {"Ann": pts(5), "Bob": OUT, "Cy": pts(5)},
                {"Ann": pts(5), "Bob": pts(10), "Cy": OUT},
            ],
        ),
        # Not finished: its round counts for round figures, not for games or wins.
        "D": play(games, ["Ann", "Dee"], [{"Ann": pts(20), "Dee": OUT}]),
    }


def by_name(app: Flask) -> dict[str, records.PersonRecord]:
    with app.app_context():
        return {record.name: record for record in records.person_records()}


def ids(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {person.name: person.id for person in db.session.scalars(db.select(Person))}


def test_each_persons_figures_match_the_hand_worked_book(app: Flask, games: GameActions) -> None:
    small_book(games)
    book = by_name(app)
    ann, bob, cy, dee = book["Ann"], book["Bob"], book["Cy"], book["Dee"]
    # Ann: finished A, B, C; won B and C (one after the other); 11 + 3 + 10 = 24 over 3.
    assert (ann.games, ann.wins, ann.longest_run) == (3, 2, 2)
    assert ann.average_game == pytest.approx(8.0)
    # Ann's ten rounds: 0 7 4 | 0 2 1 | 0 5 5 | 20 = 44.
    assert (ann.rounds, ann.best_round, ann.worst_round, ann.went_out) == (10, 0, 20, 3)
    assert ann.average_round == pytest.approx(4.4)
    # Tiles were entered for one of Ann's rounds, and it held the 0-0.
    assert (ann.double_blank, ann.rounds_with_tiles) == (1, 1)
    assert ann.win_rate == pytest.approx(2 / 3)
    # Bob: 16 + 9 + 15 = 40 over 3 games, never won; went out in A2, B2, B3, C2.
    assert (bob.games, bob.wins, bob.longest_run) == (3, 0, 0)
    assert bob.average_game == pytest.approx(40 / 3)
    assert (bob.rounds, bob.best_round, bob.worst_round, bob.went_out) == (9, 0, 10, 4)
    assert (bob.double_blank, bob.rounds_with_tiles) == (0, 0)
    # Cy: won both finished games (A outright, C tied): 8 + 10 = 18 over 2.
    assert (cy.games, cy.wins, cy.longest_run) == (2, 2, 2)
    assert cy.average_game == pytest.approx(9.0)
    assert (cy.rounds, cy.worst_round, cy.went_out) == (6, 5, 2)
    assert cy.average_round == pytest.approx(3.0)
    assert (cy.double_blank, cy.rounds_with_tiles) == (1, 1)
    # Dee's only game is unfinished: a round, but no game.
    assert (dee.games, dee.wins, dee.rounds, dee.went_out) == (0, 0, 1, 1)
    assert dee.average_game is None and dee.win_rate is None
    # Most wins first; between Ann and Cy (two each) the better win rate.
    with app.app_context():
        assert [r.name for r in records.person_records()] == ["Cy", "Ann", "Bob", "Dee"]


def test_a_run_of_wins_is_broken_by_a_loss(app: Flask, games: GameActions) -> None:
    win = [{"Eve": OUT, "Fay": pts(3)}, {"Eve": OUT, "Fay": pts(3)}, {"Eve": OUT, "Fay": pts(3)}]
    loss = [{"Eve": pts(3), "Fay": OUT}, {"Eve": pts(3), "Fay": OUT}, {"Eve": OUT, "Fay": pts(1)}]
    # Eve: win, win, loss, win, win, win: runs of 2 and 3.
    for rounds in (win, win, loss, win, win, win):
        play(games, ["Eve", "Fay"], rounds)
    book = by_name(app)
    assert (book["Eve"].wins, book["Eve"].longest_run) == (5, 3)
    assert (book["Fay"].wins, book["Fay"].longest_run) == (1, 1)


def test_head_to_head_counts_only_the_games_both_finished(app: Flask, games: GameActions) -> None:
    small_book(games)
    people = ids(app)
    with app.app_context():
        ann_bob = records.head_to_head(people["Ann"], people["Bob"])
        ann_cy = records.head_to_head(people["Ann"], people["Cy"])
        ann_dee = records.head_to_head(people["Ann"], people["Dee"])
    # A, B, C: Ann 11/3/10 against Bob 16/9/15: margins -5, -6, -5.
    assert (ann_bob.games, ann_bob.wins_a, ann_bob.wins_b) == (3, 2, 0)
    assert (ann_bob.ahead_a, ann_bob.ahead_b) == (3, 0)
    assert ann_bob.average_margin == pytest.approx(-16 / 3)
    # A and C: Ann 11/10 against Cy 8/10: Cy ahead once, level once; margins +3, 0.
    assert (ann_cy.games, ann_cy.wins_a, ann_cy.wins_b) == (2, 1, 2)
    assert (ann_cy.ahead_a, ann_cy.ahead_b) == (0, 1)
    assert ann_cy.average_margin == pytest.approx(1.5)
    # D is not finished.
    assert ann_dee.games == 0 and ann_dee.average_margin is None


def test_the_page_shows_the_book_in_words(
    app: Flask, client: FlaskClient, games: GameActions
) -> None:
    small_book(games)
    people = ids(app)
    page = client.get("/book/").get_data(as_text=True)
    assert "Cy leads the book with 2 wins in 2 finished games." in page
    assert "Games and wins count finished games only" in page
    assert "1 of 1 round with tiles entered" in page
    assert "no round with tiles entered" in page  # Bob typed every score
    assert "2 (67% of games)" in page
    assert "4.4 points over 10 rounds" in page
    versus = client.get(f"/book/?a={people['Ann']}&b={people['Bob']}").get_data(as_text=True)
    assert "Ann and Bob finished 3 games together." in versus
    assert "Ann won 2 of them and Bob won 0." in versus
    assert "On average Ann finished 5.3 points below Bob (lower is better)." in versus
    chart = client.get(f"/book/?person={people['Bob']}").get_data(as_text=True)
    assert "Bob's total in each of 3 finished games" in chart
    assert "filled dots are the 0 games won" in chart


def test_the_home_page_says_who_leads_the_book_once_a_game_is_finished(
    client: FlaskClient, games: GameActions
) -> None:
    play(games, ["Ann", "Dee"], [{"Ann": pts(20), "Dee": OUT}])  # not finished
    assert "leads the record book" not in client.get("/").get_data(as_text=True)
    small_book(games)
    home = client.get("/").get_data(as_text=True)
    text = re.sub(r"<[^>]+>", "", home)
    assert "Cy leads the record book with 2 wins in 2 finished games." in text
    # The home page's short query agrees with the book's own order (Ann also has 2 wins).
    with client.application.app_context():
        first = records.person_records()[0]
        assert records.leader() == records.Leader(first.name, first.wins, first.games)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("a=1&b=1", "Pick two different people to compare."),
        ("a=999&b=1", "Pick two people from the lists to compare them."),
        ("a=x&b=", "Pick two people from the lists to compare them."),
    ],
)
def test_a_bad_head_to_head_says_what_to_pick(
    client: FlaskClient, games: GameActions, query: str, message: str
) -> None:
    small_book(games)
    response = client.get(f"/book/?{query}&person=nobody")
    assert response.status_code == 200
    assert message in response.get_data(as_text=True)


def test_the_book_follows_every_kind_of_write(app: Flask, games: GameActions) -> None:
    created = small_book(games)
    # Under "a double-blank counts 50", Ann's B2 hand (0-0, 0-2) is 52: B is Bob's, 53 to 9.
    with app.app_context():
        game = service.get_game(created["B"]["id"])
        rules = dict(game.rules) | {"blank_scoring": "double_blank_50"}
        service.change_rules(game, rules, game.version)
    book = by_name(app)
    assert (book["Ann"].wins, book["Ann"].worst_round) == (1, 52)
    assert (book["Bob"].wins, book["Bob"].longest_run) == (1, 1)
    # Undo puts the pips rule back.
    with app.app_context():
        game = service.get_game(created["B"]["id"])
        service.undo_last(game, game.version)
    book = by_name(app)
    assert (book["Ann"].wins, book["Ann"].worst_round) == (2, 20)
    # Clearing a round unfinishes the game: it drops out of games and wins.
    with app.app_context():
        game = service.get_game(created["C"]["id"])
        service.clear_round(game, 3, game.version)
    book = by_name(app)
    assert (book["Ann"].games, book["Ann"].wins, book["Ann"].rounds) == (2, 1, 9)
    assert (book["Cy"].games, book["Cy"].wins) == (1, 1)
    # A round written again finishes it again.
    response = games.put_round(created["C"], 3, {"Ann": pts(5), "Bob": pts(10), "Cy": OUT})
    assert response.status_code == 200
    assert by_name(app)["Ann"].wins == 2
    # Deleting a game takes its lines with it.
    with app.app_context():
        service.delete_game(service.get_game(created["D"]["id"]))
        assert db.session.scalar(db.select(db.func.count()).select_from(ScoreLine)) == 9 + 6 + 9
    assert by_name(app)["Dee"].rounds == 0


def test_names_become_people_ignoring_case(app: Flask, games: GameActions) -> None:
    first = games.create(["Ann", "Bob"])
    second = games.create(["ann", "  BOB ", "Cy"])
    with app.app_context():
        people = {p.name: p.id for p in db.session.scalars(db.select(Person))}
        assert sorted(people) == ["Ann", "Bob", "Cy"]  # spelt as first seen
        seats = db.session.execute(
            db.select(Seat.game_id, Seat.seat, Seat.person_id).order_by(Seat.game_id, Seat.seat)
        ).all()
    assert {(row.game_id, row.seat, row.person_id) for row in seats} == {
        (first["id"], 0, people["Ann"]),
        (first["id"], 1, people["Bob"]),
        (second["id"], 0, people["Ann"]),
        (second["id"], 1, people["Bob"]),
        (second["id"], 2, people["Cy"]),
    }
    # The game keeps the names as typed for this game.
    assert games.get(second["id"])["players"] == ["ann", "BOB", "Cy"]
