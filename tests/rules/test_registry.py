"""One registry of house rules (companion/rules/keys.py): every key carries its words and
sources, and a value's sources are found the same way whether a book or a table chose it."""

from __future__ import annotations

import pytest

from companion.rules import KEYS, PRESETS
from companion.rules.describe import where_from, where_value_from
from companion.rules.keys import RULE_KEYS, SOURCE_TITLES, plain
from companion.rules.presets import SILENT_KEYS

ENUMERATED = [key for key in KEYS if RULE_KEYS[key].choices is not None]


@pytest.mark.parametrize("key", KEYS)
def test_every_key_has_its_words_and_known_sources(key: str) -> None:
    rule = RULE_KEYS[key]
    assert rule.title and rule.help
    assert rule.question is None or rule.question.endswith("?")
    if rule.choices is not None:
        assert [c.value for c in rule.values] == [plain(v) for v in rule.choices]
    for choice in rule.values:
        assert choice.words and "_" not in choice.words
        assert all(code in SOURCE_TITLES for code in choice.sources), choice
    if not isinstance(rule.standard_sources, str):
        assert all(c in SOURCE_TITLES or c in PRESETS for c in rule.standard_sources)
    for book, _ in rule.sections:
        assert book in PRESETS and key not in SILENT_KEYS.get(book, frozenset())


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("key", ENUMERATED)
def test_a_value_never_cites_a_book_that_plays_another(preset: str, key: str) -> None:
    own = PRESETS[preset][key]
    for value in RULE_KEYS[key].choices or ():
        text = where_value_from(preset, key, value)
        if plain(value) == plain(own) and type(plain(value)) is type(plain(own)):
            assert text == where_from(preset, key)
            continue
        cited = text.split(" (your table's change;")[0]
        for other, values in PRESETS.items():
            if key in SILENT_KEYS.get(other, frozenset()) or other == "standard":
                continue
            plays = plain(values[key]) == plain(value) and type(plain(values[key])) is type(
                plain(value)
            )
            if not plays and RULE_KEYS[key].section(other) is not None:
                assert where_from(other, key) not in cited, (preset, key, value, other)


def test_forgetting_costs_one_tile_cites_the_sheet_that_says_so_not_fundex() -> None:
    text = where_value_from("fundex", "last_tile_call", "draw1")
    assert text.startswith(SOURCE_TITLES["S-25"])
    assert "section “Last Tile”" not in text
    assert (
        "instead of the Fundex Games Mexican Train instructions (2003): forgetting costs two"
        in (text)
    )


def test_a_round_that_waits_for_the_double_cites_the_one_game_that_plays_it() -> None:
    text = where_value_from("standard", "go_out_on_double", "must_be_covered")
    assert text.startswith(SOURCE_TITLES["P-CM"] + " (your table's change;")
