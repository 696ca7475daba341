"""A round's score entry and the scoresheet view model, without a database."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.entry import ScoreEntry
from companion.games.export import game_to_json
from companion.games.models import Game, Round
from companion.games.parsing import parse_score
from companion.games.sheetview import view_game
from companion.rules import Rules

STANDARD = Rules.from_json({"preset": "standard"})


@pytest.mark.parametrize(
    "stored",
    [
        {"went_out": False, "markers_up": 0, "points": 17},
        {"went_out": True, "markers_up": 0, "points": 0},
        {"went_out": False, "markers_up": 1, "tiles": [[6, 5], [0, 0]]},
        {"went_out": True, "markers_up": 0, "tiles": []},
    ],
)
def test_the_stored_form_reads_back_unchanged(stored: dict[str, Any]) -> None:
    assert ScoreEntry.from_json(stored).to_json() == stored


def test_an_older_row_without_defaults_still_reads() -> None:
    assert ScoreEntry.from_json({"points": 9}) == ScoreEntry(points=9)


@pytest.mark.parametrize(
    ("raw", "rules", "points"),
    [
        ({"points": 17}, {}, 17),
        ({"points": 17, "markers_up": 1}, {"open_marker_penalty": 10}, 27),
        ({"went_out": True}, {"going_out_bonus": -10}, -10),
        ({"tiles": [[0, 0], [6, 5]]}, {}, 11),
        ({"tiles": [[0, 0], [6, 5]]}, {"blank_scoring": "double_blank_50"}, 61),
        ({"tiles": [[0, 3]]}, {"blank_scoring": "blank_25_double_blank_50"}, 28),
        ({"tiles": []}, {"going_out_bonus": -20}, -20),
    ],
)
def test_every_entry_is_scored_by_the_rules_engine(
    raw: dict[str, Any], rules: dict[str, Any], points: int
) -> None:
    table_rules = Rules.from_json({"preset": "standard", **rules})
    assert parse_score(raw, table_rules, "scores.Ann").score(table_rules) == points


def test_picked_tiles_keep_the_order_they_were_sent_in() -> None:
    entry = parse_score({"tiles": [[5, 6], [3, 1]]}, STANDARD, "scores.Ann")
    assert entry.api_json(15) == {"points": 15, "tiles": [[5, 6], [3, 1]]}
    assert [str(tile) for tile in entry.hand or ()] == ["6-5", "3-1"]


def test_the_scoresheet_is_worked_out_without_a_database() -> None:
    game = Game(
        id="g1",
        players=["Ann", "Bob"],
        rules=Rules.from_json({"preset": "standard", "blank_scoring": "double_blank_25"}).to_json(),
        preset="standard",
        version=3,
    )
    game.rounds = [
        Round(n=1, scores={"Ann": {"points": 7}, "Bob": {"tiles": [[0, 0], [5, 6]]}}),
        Round(n=2, scores={"Ann": {"went_out": True, "points": 0}}),
    ]
    view = view_game(game)
    assert view.rounds[0].points == {"Ann": 7, "Bob": 36}
    assert view.rounds[1].points == {"Ann": 0}
    assert view.totals == {"Ann": 7, "Bob": 36}
    assert view.next_round is not None and view.next_round.n == 2
    shown = game_to_json(view)
    assert shown["rounds"][0]["scores"]["Bob"] == {"points": 36, "tiles": [[0, 0], [5, 6]]}
    assert shown["rounds"][1]["scores"] == {"Ann": {"points": 0, "went_out": True}}
    assert shown["version"] == 3 and shown["standings"] == ["Ann", "Bob"]
