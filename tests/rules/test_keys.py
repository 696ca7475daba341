"""The one registry of house rules: every key once, typed values, presets as differences."""

from __future__ import annotations

import json
from enum import StrEnum

import pytest

from companion.rules import KEYS, PRESETS, Rules
from companion.rules.keys import RULE_KEYS, BlankScoring, SatisfyScope, plain
from companion.rules.presets import STANDARD


def test_the_registry_lists_every_contract_key_in_order() -> None:
    assert tuple(RULE_KEYS) == KEYS
    assert all(rule.name == key and rule.help and rule.sources for key, rule in RULE_KEYS.items())


def test_scoring_keys_are_the_ones_that_change_a_rounds_points() -> None:
    scoring = {key for key, rule in RULE_KEYS.items() if rule.scoring}
    assert scoring == {
        "blank_scoring",
        "going_out_bonus",
        "open_marker_penalty",
        "go_out_on_double",
        "blocked_scoring",
    }


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rules_hold_enum_members_and_write_plain_json(preset: str) -> None:
    rules = Rules.from_json({"preset": preset})
    for key in KEYS:
        value = getattr(rules, key)
        choices = RULE_KEYS[key].choices or ()
        if any(isinstance(choice, StrEnum) for choice in choices) and isinstance(value, str):
            assert isinstance(value, StrEnum), key
    written = rules.to_json()
    assert all(type(value) in (str, int, bool, list, dict) for value in written.values())
    assert Rules.from_json(json.loads(json.dumps({"preset": preset, **written}))) == rules


def test_a_value_read_from_json_is_the_member() -> None:
    rules = Rules.from_json({"satisfy_scope": "train_only", "blank_scoring": "double_blank_25"})
    assert rules.satisfy_scope is SatisfyScope.TRAIN_ONLY
    assert rules.blank_scoring is BlankScoring.DOUBLE_BLANK_25
    assert plain(rules.blank_scoring) == "double_blank_25"


@pytest.mark.parametrize("preset", [name for name in PRESETS if name != "standard"])
def test_each_rule_book_differs_from_standard_somewhere(preset: str) -> None:
    differences = {key for key in KEYS if PRESETS[preset][key] != STANDARD[key]}
    assert differences, preset
