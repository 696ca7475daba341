"""The house-rules part of the setup form: choices, help lines and form-to-JSON parsing."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from werkzeug.datastructures import MultiDict

from ..rules import CHOICES as RULE_CHOICES
from ..rules import DEAL_TABLES, PRESETS, describe
from ..rules.keys import RULE_KEYS
from . import merging
from .errors import ValidationFailed
from .parsing import MAX_SCHEDULE_ROUNDS

SET_SIZES = (6, 9, 12, 15, 18)

HAND_TABLES = tuple(DEAL_TABLES)
SHORT_GAME_ROUNDS = 7

# Keys with their own controls (set size, deal table, schedule) are left out here.
CHOICES: dict[str, tuple[Any, ...]] = {
    key: tuple(values)
    for key, values in RULE_CHOICES.items()
    if values is not None and key != "set_max"
}
NUMBER_KEYS = ("going_out_bonus", "open_marker_penalty")
# Scoring keys first: they are the ones families argue about at the scoresheet.
SCORING_KEYS = tuple(key for key, rule in RULE_KEYS.items() if rule.scoring)


@dataclass(frozen=True)
class RuleField:
    """One rule key as the form shows it."""

    key: str
    title: str
    help: str
    source: str
    choices: tuple[Any, ...]
    is_number: bool


def rule_title(key: str) -> str:
    """A rule's name as players say it ("An open double stops play")."""
    return describe.rule_name(key)


def value_label(value: Any, key: str | None = None) -> str:
    """A rule value in a player's words, for a select option and the scoresheet; without a
    key, a deal table's name."""
    return describe.value_words(key or "hand_size", value)


def value_token(value: Any) -> str:
    """Turn a rule value into the string a form carries."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rule_help(key: str) -> tuple[str, str]:
    """Return (one-line explanation, source) for a key, tolerating a missing entry."""
    rule = RULE_KEYS.get(key)
    if rule is None:
        return "", ""
    return rule.help, describe.where_from("standard", key)


def rule_fields() -> list[RuleField]:
    """Every rule key but set_max, hand_size and schedule (which get their own controls)."""
    keys = [
        *SCORING_KEYS,
        *(key for key in RULE_CHOICES if key not in SCORING_KEYS and key in CHOICES),
    ]
    fields = []
    for key in keys:
        help_line, source = rule_help(key)
        fields.append(
            RuleField(
                key, rule_title(key), help_line, source, CHOICES.get(key, ()), key in NUMBER_KEYS
            )
        )
    return fields


def preset_titles() -> dict[str, str]:
    """Preset name -> title, for every preset the engine knows (without survey codes)."""
    return {name: describe.preset_label(name, dict(PRESETS[name])) for name in PRESETS}


def form_value_words() -> dict[str, dict[str, str]]:
    """Rule key -> value token -> words, for the setup page's script."""
    words: dict[str, dict[str, str]] = {}
    for key, values in RULE_CHOICES.items():
        words[key] = {value_token(value): value_label(value, key) for value in values or ()}
    words["hand_size"] = {table: value_label(table) for table in DEAL_TABLES}
    return words


def form_context() -> dict[str, Any]:
    """What every house-rules form template needs besides the values and errors."""
    return {
        "rule_fields": rule_fields(),
        "preset_titles": preset_titles(),
        "presets": PRESETS,
        "set_sizes": SET_SIZES,
        "hand_tables": HAND_TABLES,
        "value_label": value_label,
        "value_token": value_token,
    }


def parse_token(text: str) -> Any:
    """Turn the string a form carries back into a rule value (the inverse of value_token)."""
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d{1,9}", text):
        return int(text)
    return text


def parse_hand_table(text: str) -> dict[str, int]:
    """Read a custom deal table typed as ``2:15, 3:15, 4:13``."""
    table: dict[str, int] = {}
    for part in re.split(r"[,;\s]+", text.strip()):
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,3})[:=](\d{1,4})", part)
        if match is None:
            raise ValidationFailed(
                "Write the custom deal as players:tiles pairs, e.g. 2:15, 3:15, 4:13.",
                "rules.hand_size",
            )
        table[match.group(1)] = int(match.group(2))
    if not table:
        raise ValidationFailed("The custom deal table is empty.", "rules.hand_size")
    return table


def schedule_value(kind: str, set_max: int, start: str, custom: str) -> Any:
    """Turn the schedule controls into the ``schedule`` rule value (None: keep the preset's)."""
    if kind in ("", "preset"):
        return None
    if kind == "descend_from_max":
        return "descend_from_max"
    if kind == "short":
        return list(range(set_max, max(-1, set_max - SHORT_GAME_ROUNDS), -1))
    if kind == "start":
        if not re.fullmatch(r"\d{1,3}", start.strip()):
            raise ValidationFailed("Choose the double to start from, e.g. 9.", "rules.schedule")
        first = int(start)
        if first > set_max:
            raise ValidationFailed(
                f"A double-{set_max} set has no double-{first} to start from.", "rules.schedule"
            )
        return list(range(first, -1, -1))
    if kind == "custom":
        values = [part for part in re.split(r"[,;\s]+", custom.strip()) if part]
        if not values or not all(re.fullmatch(r"\d{1,3}", value) for value in values):
            raise ValidationFailed(
                "List the engine doubles as numbers, e.g. 12 10 8 6.", "rules.schedule"
            )
        if len(values) > MAX_SCHEDULE_ROUNDS:
            raise ValidationFailed(
                f"A game has at most {MAX_SCHEDULE_ROUNDS} rounds; list fewer engines.",
                "rules.schedule",
            )
        return [int(value) for value in values]
    raise ValidationFailed("Unknown schedule choice.", "rules.schedule")


def rules_from_form(form: MultiDict[str, str]) -> dict[str, Any]:
    """Collect the rules JSON (preset plus overrides) from a submitted setup form."""
    raw: dict[str, Any] = {"preset": form.get("preset", "standard") or "standard"}
    set_max_text = form.get("rule-set_max", "")
    if set_max_text:
        raw["set_max"] = parse_token(set_max_text)
    for field in rule_fields():
        text = form.get(f"rule-{field.key}", "").strip()
        if text:
            raw[field.key] = parse_token(text)
    hand = form.get("rule-hand_size", "")
    if hand == "custom":
        raw["hand_size"] = parse_hand_table(form.get("hand_size_custom", ""))
    elif hand:
        raw["hand_size"] = hand
    set_max = raw.get("set_max")
    if not isinstance(set_max, int):
        preset_values = PRESETS.get(str(raw["preset"]), {})
        set_max = int(preset_values.get("set_max", 12))
    chosen = schedule_value(
        form.get("schedule_kind", ""),
        set_max,
        form.get("schedule_start", ""),
        form.get("schedule_custom", ""),
    )
    if chosen is not None:
        raw["schedule"] = chosen
    return raw


def form_defaults(rules_json: Mapping[str, Any] | None, preset: str) -> dict[str, str]:
    """The form's selected values: blank ("as the preset") for a new game, else the game's."""
    if rules_json is None:
        return {"preset": preset}
    values = {"preset": preset}
    for key, value in rules_json.items():
        if key == "hand_size" and isinstance(value, Mapping):
            values["rule-hand_size"] = "custom"
            values["hand_size_custom"] = ", ".join(f"{k}:{v}" for k, v in value.items())
        elif key == "schedule":
            if isinstance(value, list):
                values["schedule_kind"] = "custom"
                values["schedule_custom"] = " ".join(str(v) for v in value)
            else:
                values["schedule_kind"] = str(value)
        else:
            values[f"rule-{key}"] = value_token(value)
    return values


def merge_stale_rules(
    game: Any, base: Mapping[str, Any], mine: Mapping[str, Any], preset: str
) -> tuple[dict[str, str], list[dict[str, str]]]:
    """The house-rules form for a phone whose save came too late, and its conflicts.

    A rule another phone changed since ``base`` shows the sheet's value; if this phone changed
    it too, to another value, it is a conflict listed with both values and a "use mine" box.
    Every other rule keeps this phone's choice (:func:`merging.merge`).
    """
    now = dict(game.rules)
    result = merging.merge(now, base, mine, now)
    conflicts = [
        {
            "key": key,
            "title": rule_title(key),
            "sheet": value_label(now[key], key),
            "mine": value_label(mine[key], key),
            "value": json.dumps(mine[key]),
        }
        for key in result.conflicts
    ]
    merged = result.values
    return form_defaults(merged, preset), conflicts


def chosen_mine(form: MultiDict[str, str]) -> dict[str, Any]:
    """The rules a phone chose to keep its own value for after a conflict ("use mine")."""
    chosen: dict[str, Any] = {}
    for key in RULE_CHOICES:
        if form.get(f"mine-{key}") is None:
            continue
        try:
            chosen[key] = json.loads(form.get(f"mine-value-{key}", ""))
        except ValueError:
            raise ValidationFailed(
                "Your earlier choice could not be read; choose it again.", f"rules.{key}"
            ) from None
    return chosen
