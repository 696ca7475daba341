"""Every rule, value and source has plain words a player can read, with no internal codes."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest

from companion.rules.describe import (
    CORE_RULES,
    book_title,
    books_with,
    preset_label,
    rule_name,
    rule_question,
    rules_summary,
    value_words,
    where_from,
)
from companion.rules.keys import plain
from companion.rules.presets import PRESETS, SILENT_KEYS
from companion.rules.rules import CHOICES, DEAL_TABLES, KEYS, Rules

# Survey codes (S-09, S-17a, P-JA), seed numbers and survey section numbers must never reach a
# player.
CODE = re.compile(r"\bS-\d|\bP-[A-Z]{2}|seed 0|seeds? \d|B\.\d|core \d", re.IGNORECASE)

REFUSAL_IDS = (
    "must_match",
    "tile_in_hand",
    "private_train",
    "drawn_tile_only",
    "round_over",
    "turn_over",
    "one_tile_per_turn",
    "illegal",
    "no_marker",
    "boneyard_empty",
    "no_draw_needed",
    "must_draw",
    "tile_accounting",
    "went_out",
)


def assert_plain(text: str) -> None:
    assert text, "empty text"
    assert "_" not in text, text
    assert not CODE.search(text), text
    assert text == text.strip() and "  " not in text, text


def sample_values(key: str) -> list[Any]:
    """Every listed value of a key, and representative values of the hand-checked ones."""
    choices = CHOICES[key]
    if choices is not None:
        return list(choices)
    samples: dict[str, list[Any]] = {
        "hand_size": [*DEAL_TABLES, {"2": 15, "3": 15, "4": 14}, ((2, 1), (3, 1))],
        "schedule": ["descend_from_max", [12, 11, 10], (6,)],
        "going_out_bonus": [0, -1, -10],
        "open_marker_penalty": [0, 1, 25],
    }
    return samples[key] + [value[key] for value in PRESETS.values()]


@pytest.mark.parametrize("key", KEYS)
def test_every_key_has_a_name_and_a_question(key: str) -> None:
    assert_plain(rule_name(key))
    assert_plain(rule_question(key))
    assert rule_question(key).endswith("?")
    assert rule_name(key)[0].isupper()


@pytest.mark.parametrize("key", KEYS)
def test_every_value_has_words(key: str) -> None:
    seen: dict[str, Any] = {}
    for value in sample_values(key):
        words = value_words(key, value)
        assert_plain(words)
        # Different values never read the same (an enum member is its contract string).
        value = plain(value)
        if words in seen:
            assert seen[words] == value and type(seen[words]) is type(value), (key, words)
        seen[words] = value


def test_names_are_distinct() -> None:
    names = [rule_name(key) for key in (*KEYS, *REFUSAL_IDS)]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("rule", REFUSAL_IDS)
def test_core_rules_have_names_and_statements(rule: str) -> None:
    assert rule in CORE_RULES
    assert_plain(rule_name(rule))
    statement = rule_question(rule)
    assert_plain(statement)
    assert statement.endswith(".")
    assert statement != rule_question("some_unknown_rule")


def test_unknown_ids_still_read() -> None:
    assert rule_name("some_new_rule") == "Some new rule"
    assert_plain(rule_question("some_new_rule"))
    assert_plain(value_words("some_new_rule", "odd_value"))
    assert_plain(book_title("house_book"))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("key", KEYS)
def test_every_source_is_in_words(preset: str, key: str) -> None:
    text = where_from(preset, key)
    assert_plain(text)
    assert "S-" not in text and "seed" not in text.lower()
    if key in SILENT_KEYS[preset]:
        assert (
            text == f"{book_title(preset)} says nothing on this; the app's standard value is used"
        )
    elif preset != "standard":
        assert text.startswith(book_title(preset))


@pytest.mark.parametrize("preset", PRESETS)
def test_book_titles(preset: str) -> None:
    assert_plain(book_title(preset))
    assert_plain(preset_label(preset, Rules.from_json({"preset": preset}).to_json()))


def test_spot_checks() -> None:
    assert rule_name("double_followup") == "Covering your own double"
    assert rule_name("satisfy_scope") == "An open double stops play"
    assert rule_name("must_match") == "Tiles must match"
    assert value_words("double_followup", "anywhere") == "the tile after a double may go anywhere"
    assert value_words("satisfy_scope", "table") == "all play stops until it is covered"
    assert value_words("going_out_bonus", -10) == "10 points off for going out"
    assert value_words("hand_size", "celko") == "the Celko deal table"
    assert value_words("hand_size", {"3": 12, "2": 15}).startswith("15 tiles each for 2 players")
    assert "12" in value_words("schedule", [12, 11]) and "11" in value_words("schedule", [12, 11])
    assert book_title("fundex") == "the Fundex Games Mexican Train instructions (2003)"
    assert book_title("standard") == "this app's standard rules"

    fundex = where_from("fundex", "double_followup")
    assert "Fundex" in fundex and "“Doubles”" in fundex
    assert where_from("fundex", "last_tile_call").endswith("section “Last Tile”")
    assert where_from("fundex", "engine_source").endswith("section “Playing in rounds”")
    assert where_from("hub_sheet", "double_followup").endswith("section “Double Domino”")
    assert where_from("hub_sheet", "first_turn").endswith("section “First Turn”")
    assert where_from("wikihow", "double_followup").endswith("step 6")
    assert where_from("wikihow", "hand_size").endswith("step 2")
    assert "does not restrict play" in where_from("web_compilation", "dead_double")
    standard = where_from("standard", "double_followup")
    assert "Joe Celko" in standard and "Idaho Good Sam" in standard
    assert "says nothing" in where_from("fundex", "round_leader")


@pytest.mark.parametrize("key", KEYS)
def test_books_with_matches_presets(key: str) -> None:
    for value in sample_values(key):
        expected = [
            book_title(name)
            for name, values in PRESETS.items()
            if key not in SILENT_KEYS[name]
            and type(plain(values[key])) is type(plain(value))
            and values[key] == value
        ]
        assert books_with(key, value) == expected
    for name, values in PRESETS.items():
        if key not in SILENT_KEYS[name]:
            assert book_title(name) in books_with(key, values[key])


def test_books_with_is_type_sensitive() -> None:
    assert books_with("doubles_per_turn", True) == []
    assert books_with("doubles_per_turn", 1) == [book_title("hub_sheet"), book_title("fundex")]
    assert books_with("double_followup", "anywhere") == [
        book_title("wikihow"),
        book_title("web_compilation"),
    ]
    # Silent presets are left out even when their borrowed value matches.
    assert book_title("fundex") not in books_with("round_leader", "rotate_left")
    # An explicit deal table in tuple form matches the same table in JSON form.
    table = tuple((int(p), t) for p, t in PRESETS["web_compilation"]["hand_size"].items())
    assert books_with("hand_size", table) == [book_title("web_compilation")]


@pytest.mark.parametrize("preset", PRESETS)
def test_summary_of_a_preset(preset: str) -> None:
    summary = rules_summary(Rules.from_json({"preset": preset}).to_json(), preset)
    assert [row[0] for row in summary] == [rule_name(key) for key in KEYS]
    for (_, words, where), key in zip(summary, KEYS, strict=True):
        assert words == value_words(key, PRESETS[preset][key])
        assert where == where_from(preset, key)
        assert_plain(words)
        assert_plain(where)
    label = preset_label(preset, Rules.from_json({"preset": preset}).to_json())
    assert "change" not in label


def test_summary_and_label_show_table_changes() -> None:
    rules = Rules.from_json(
        {"preset": "fundex", "double_followup": "anywhere", "hand_size": {"2": 15, "3": 14}}
    ).to_json()
    assert preset_label("fundex", rules) == "Fundex Games instructions, with 2 changes"
    rows = dict((name, (words, where)) for name, words, where in rules_summary(rules, "fundex"))
    words, where = rows[rule_name("double_followup")]
    assert words == "the tile after a double may go anywhere"
    assert where.startswith("changed by your table, as in the wikiHow step-by-step guide")
    assert where.endswith("(the book says: the tile after your double must cover it if you can)")
    assert "Fundex" not in where.split("(the book says")[0]
    assert rows[rule_name("hand_size")][1].startswith("changed by your table")
    assert rows[rule_name("satisfy_scope")][1] == where_from("fundex", "satisfy_scope")

    one = Rules.from_json({"preset": "standard", "blanks_wild": True}).to_json()
    assert preset_label("standard", one) == "Standard, with 1 change"
    assert preset_label("standard", Rules.from_json({}).to_json()) == "Standard"
    # Setting a key to the preset's own value is not a change.
    same = Rules.from_json({"preset": "wikihow", "double_followup": "anywhere"}).to_json()
    assert preset_label("wikihow", same) == "wikiHow guide"


def test_imports_only_the_standard_library_and_rules() -> None:
    code = (
        "import sys, companion.rules.describe\n"
        "bad = [m for m in sys.modules if m.startswith('companion.') "
        "and not m.startswith('companion.rules')]\n"
        "bad += [m for m in ('flask', 'numpy', 'werkzeug') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
