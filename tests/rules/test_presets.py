"""Presets hold exactly the contract's rule keys, with allowed values, and are documented."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.rules.presets import PRESET_TITLES, PRESETS, RULE_HELP, SILENT_KEYS, STANDARD

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

# The rule keys and value sets of shared/spec/referee.md (contract version 1), written out here
# so that a preset drifting from the contract fails even if the engine's own copy drifts too.
CONTRACT_VALUES: dict[str, set[Any]] = {
    "set_max": {12, 6, 9, 15, 18},
    "engine_source": {
        "set_aside",
        "holder_plays_draw_all",
        "holder_plays_draw_in_turn",
        "next_highest_double",
    },
    "round_leader": {"rotate_left", "engine_holder"},
    "first_turn": {"multi_own_train", "single_tile"},
    "first_turn_may_end_on_double": {True, False},
    "mexican_on_first_turn": {False, True},
    "own_train_required_before_other_play": {False, True},
    "others_may_start_unstarted_marked_train": {True, False},
    "double_followup": {"must_cover_own_if_able", "anywhere", "none"},
    "satisfy_scope": {"table", "train_only", "none"},
    "doubles_per_turn": {"unlimited", 1},
    "satisfy_order": {"oldest_first", "newest_first", "any"},
    "draw_rule": {"one_then_pass", "until_playable"},
    "must_play_if_able": {True, False},
    "marker_removal": {"auto_on_own_train_play", "owner_choice_after_any_play"},
    "go_out_on_double": {"allowed", "must_be_covered", "allowed_opponents_x2"},
    "first_turn_out": {"others_finish_first_turn", "round_ends"},
    "last_tile_call": {"draw2", "none", "draw1", "draw2_and_skip"},
    "blocked_definition": {"no_legal_move_anywhere", "full_lap_of_passes"},
    "blocked_scoring": {"pips", "lowest_to_zero"},
    "blank_scoring": {"pips", "double_blank_50", "double_blank_25", "blank_25_double_blank_50"},
    "blanks_wild": {False, True},
    "dead_double": {"frees_play", "blocks_play"},
    "double_branches": {1, 2, 3},
    "mexican_trains": {1, 2},
}
# Keys whose values are open-ended; checked by their own tests below.
OPEN_KEYS = {"hand_size", "schedule", "going_out_bonus", "open_marker_penalty"}
CONTRACT_KEYS = set(CONTRACT_VALUES) | OPEN_KEYS

# Named double-12 deal tables of the contract, players 2..8 (wikihow also 9-10).
NAMED_DEAL_TABLES: dict[str, list[int]] = {
    "celko": [15, 15, 15, 12, 12, 11, 11],
    "fundex": [15, 15, 15, 11, 11, 8, 8],
    "idaho_goodsam": [16, 15, 14, 13, 12, 11, 10],
    "ourpastimes": [16, 16, 15, 14, 12, 10, 9],
    "wikihow": [12, 12, 12, 12, 12, 10, 10],
}
SET_TILES = {6: 28, 9: 55, 12: 91, 15: 136, 18: 190}

PRESET_NAMES = sorted(PRESETS)


def is_strict_bool(value: Any) -> bool:
    return isinstance(value, bool)


def is_int_not_bool(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def test_standard_is_the_standard_preset() -> None:
    assert PRESETS["standard"] is STANDARD


def test_one_preset_per_seed_rule_book_plus_standard() -> None:
    assert len(PRESETS) == 5
    for name in PRESETS:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_has_exactly_the_contract_keys(name: str) -> None:
    assert set(PRESETS[name]) == CONTRACT_KEYS


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_values_are_allowed_by_the_contract(name: str) -> None:
    preset = PRESETS[name]
    for key, allowed in CONTRACT_VALUES.items():
        value = preset[key]
        # True == 1 in Python, so a bool must not pass for 1, nor 1 for True.
        bool_key = any(is_strict_bool(option) for option in allowed)
        assert is_strict_bool(value) == bool_key, (name, key, value)
        assert value in allowed, (name, key, value)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_scoring_extras_have_the_contract_sign(name: str) -> None:
    bonus = PRESETS[name]["going_out_bonus"]
    penalty = PRESETS[name]["open_marker_penalty"]
    assert is_int_not_bool(bonus) and bonus <= 0
    assert is_int_not_bool(penalty) and penalty >= 0


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_schedule_is_descending_or_an_explicit_list_within_the_set(name: str) -> None:
    schedule = PRESETS[name]["schedule"]
    if schedule != "descend_from_max":
        assert isinstance(schedule, list) and schedule
        assert all(is_int_not_bool(v) and 0 <= v <= PRESETS[name]["set_max"] for v in schedule)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_hand_size_names_a_table_or_deals_a_fitting_explicit_table(name: str) -> None:
    preset = PRESETS[name]
    hand_size = preset["hand_size"]
    if isinstance(hand_size, str):
        assert hand_size in NAMED_DEAL_TABLES
        assert preset["set_max"] == 12, "named tables other than celko cover double-12 only"
        return
    assert isinstance(hand_size, dict) and hand_size
    tiles_in_set = SET_TILES[preset["set_max"]]
    for players, per_player in hand_size.items():
        assert players.isdigit() and int(players) >= 2, players
        assert is_int_not_bool(per_player) and per_player > 0
        # The engine double comes out of the set, and the deal must leave it possible.
        assert int(players) * per_player <= tiles_in_set - 1, (players, per_player)
    as_list = [hand_size.get(str(n)) for n in range(2, 9)]
    assert as_list not in NAMED_DEAL_TABLES.values(), "use the table's name instead"


def test_presets_are_distinct() -> None:
    bundles = [sorted(map(repr, preset.items())) for preset in PRESETS.values()]
    assert all(bundles.count(bundle) == 1 for bundle in bundles)


def test_silent_keys_keep_standard_values() -> None:
    assert set(SILENT_KEYS) == set(PRESETS)
    assert SILENT_KEYS["standard"] == frozenset()
    for name, keys in SILENT_KEYS.items():
        assert keys <= CONTRACT_KEYS, name
        for key in keys:
            assert PRESETS[name][key] == STANDARD[key], (name, key)


def test_every_key_has_one_line_help_and_a_citation() -> None:
    assert set(RULE_HELP) == CONTRACT_KEYS
    for key, (explanation, citation) in RULE_HELP.items():
        assert explanation.strip() and "\n" not in explanation, key
        assert len(explanation) <= 120, key
        assert re.search(r"S-\d\d|seed \d|seeds? 0\d\d|P-[A-Z]+|B\.2", citation), key


def test_every_preset_has_a_title() -> None:
    assert set(PRESET_TITLES) == set(PRESETS)
    assert all(title.strip() for title in PRESET_TITLES.values())


def test_rules_doc_mentions_every_key_and_preset() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    for key in CONTRACT_KEYS:
        assert f"#### `{key}`" in text, f"docs/rules.md has no section for {key}"
    for name in PRESETS:
        assert f"`{name}`" in text, f"docs/rules.md never names preset {name}"


def render_cell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "explicit"
    return str(value)


def test_rules_doc_overview_table_matches_the_presets() -> None:
    """The presets-by-keys table in docs/rules.md must say what the code does."""
    text = RULES_DOC.read_text(encoding="utf-8")
    header = next(line for line in text.splitlines() if line.startswith("| key | standard"))
    columns = [cell.strip() for cell in header.strip("|").split("|")][1:]
    assert sorted(columns) == PRESET_NAMES
    rows: dict[str, list[str]] = {}
    for line in text.splitlines():
        match = re.fullmatch(r"\| `(\w+)` \|(.*)\|", line)
        if match and match.group(1) in CONTRACT_KEYS:
            rows[match.group(1)] = [cell.strip() for cell in match.group(2).split("|")]
    assert set(rows) == CONTRACT_KEYS
    for key, cells in rows.items():
        for name, cell in zip(columns, cells, strict=True):
            silent_mark = cell.endswith("†")
            shown = cell.removesuffix("†").strip().strip("`")
            assert shown == render_cell(PRESETS[name][key]), (key, name)
            assert silent_mark == (key in SILENT_KEYS[name]), (key, name)
