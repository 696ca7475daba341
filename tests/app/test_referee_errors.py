"""The rules engine's errors on the referee page: each goes next to the form field its path
names, in words (train names as players say them), never matched out of the message text."""

from __future__ import annotations

import pytest

from companion.referee.dispute import DisputeForm
from companion.referee.ruling import field_for, form_error, words_for
from companion.rules import Rules
from companion.rules.referee import QueryError
from companion.rules.table import FieldPath

SEATS = ("Ann", "Bea Lou", "Cy")


def turn_form() -> DisputeForm:
    """Cy's turn: Bea Lou's train ends in an open 9-9, Ann's in 4; two plays entered in the
    form's first and third action rows."""
    fields = {
        "engine": "12",
        "end-0": "4",
        "end-1": "9",
        "open-1": "on",
        "seat": "2",
        "act0-kind": "play",
        "act0-a": "9",
        "act0-b": "1",
        "act0-on": "1",
        "act2-kind": "play",
        "act2-a": "4",
        "act2-b": "3",
        "act2-on": "0",
    }
    rules = Rules.from_json({"preset": "standard"})
    return DisputeForm.from_form("turn", SEATS, rules, 12, fields, {})


FIELDS: list[tuple[FieldPath, str]] = [
    (("table", "trains", "Ann", "end"), "end-0"),
    (("table", "trains", "Bea Lou", "tiles", 3), "end-1"),  # a seat name with a space
    (("table", "trains", "mexican"), "end-m1"),
    (("table", "trains", "Dee"), "form"),  # no such train on the form
    (("table", "trains"), "form"),
    (("table", "open_doubles", 0), "end-1"),  # the first train marked open
    (("table", "open_doubles", 1), "form"),
    (("table", "open_doubles"), "form"),
    (("table", "engine"), "engine"),
    (("table", "boneyard"), "form"),
    (("turn", "hand", 1), "hand"),
    (("hand", 0), "hand"),
    (("hands", "Bea Lou"), "hand-1"),
    (("hands", "Dee"), "form"),
    (("actions", 0, "play"), "act0-a"),
    (("actions", 1), "act2-a"),  # the second action came from the form's third row
    (("actions", 2), "form"),
    (("rules",), "change"),
    (("rules", "hand_size"), "change"),
    (("next_seat",), "next"),
    (("turn", "seat"), "form"),
    ((), "form"),
]


@pytest.mark.parametrize(("path", "field"), FIELDS)
def test_each_kind_of_path_goes_to_its_form_field(path: FieldPath, field: str) -> None:
    assert field_for(path, turn_form()) == field


WORDS: list[tuple[QueryError, str]] = [
    (
        QueryError(("actions", 1, "play"), "4-3 is laid twice in one turn"),
        "4-3 is laid twice in one turn.",
    ),
    (
        QueryError(("table", "trains", "Bea Lou", "tiles", 0), "9-9 is also in table.engine"),
        "9-9 is also in the engine.",
    ),
    (
        QueryError(("table", "open_doubles", 0), "Bea Lou's train is not started"),
        "Bea Lou's train is not started.",
    ),
    (
        QueryError(("table", "trains", "mexican"), "12-5 is also in table.trains.Bea Lou"),
        "12-5 is also in Bea Lou's train.",
    ),
    (
        QueryError(("turn", "hand", 0), "5-5 is also in table.trains.mexican"),
        "5-5 is also in the Mexican Train.",
    ),
]


@pytest.mark.parametrize(("error", "words"), WORDS)
def test_the_message_is_said_without_its_path_and_in_players_words(
    error: QueryError, words: str
) -> None:
    assert words_for(error, turn_form()) == words
    assert form_error(error, turn_form()).message == words


def test_a_message_naming_a_hand_in_words_goes_on_top_of_the_form() -> None:
    error = QueryError(("hands", "Cy"), "12-5 is also in table.trains.Ann", where="the hand of Cy")
    assert str(error) == "the hand of Cy: 12-5 is also in table.trains.Ann"
    problem = form_error(error, turn_form())
    assert problem.field == "form"
    assert problem.message == "Cy's hand: 12-5 is also in Ann's train."
