"""The house-rules part of the setup form: choices, help lines and form-to-JSON parsing."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from werkzeug.datastructures import MultiDict

from ..rules import CHOICES as RULE_CHOICES
from ..rules import DEAL_TABLES, PRESETS
from ..rules.presets import PRESET_TITLES, RULE_HELP
from .service import MAX_SCHEDULE_ROUNDS, ValidationFailed

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
SCORING_KEYS = (
    "blank_scoring",
    "going_out_bonus",
    "open_marker_penalty",
    "go_out_on_double",
    "blocked_scoring",
)


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
    """Turn a rule key into a short heading."""
    return key.replace("_", " ").capitalize()


# Rule values in a player's words. The referee's own plain-words layer will replace this.
VALUE_WORDS: dict[str, str] = {
    "set_aside": "set aside before the deal",
    "holder_plays_draw_all": "laid by its holder; if nobody has it, everyone draws",
    "holder_plays_draw_in_turn": "laid by its holder; if nobody has it, draw one at a time",
    "next_highest_double": "the highest double dealt",
    "rotate_left": "the next seat to the left each round",
    "engine_holder": "whoever holds the engine",
    "multi_own_train": "a whole run on your own train",
    "single_tile": "one tile",
    "must_cover_own_if_able": "the extra tile must cover it if it can",
    "anywhere": "the extra tile may go anywhere",
    "table": "all other play stops",
    "train_only": "only that train waits",
    "unlimited": "as many as you can",
    "oldest_first": "the oldest first",
    "newest_first": "the newest first",
    "any": "any of them",
    "one_then_pass": "draw one, then play it or pass",
    "until_playable": "keep drawing until you can play",
    "auto_on_own_train_play": "by itself when you play on your own train",
    "owner_choice_after_any_play": "at your choice after any play",
    "allowed": "allowed",
    "must_be_covered": "not allowed: a last double must be covered",
    "allowed_opponents_x2": "allowed, and the others' hands count double",
    "others_finish_first_turn": "the others still take their first turn",
    "round_ends": "the round ends at once",
    "draw2": "draw 2 tiles",
    "draw1": "draw 1 tile",
    "draw2_and_skip": "draw 2 tiles and miss a turn",
    "no_legal_move_anywhere": "nobody has any legal move",
    "full_lap_of_passes": "a full lap of passes",
    "lowest_to_zero": "the lowest hand scores 0",
    "double_blank_50": "the double blank counts 50",
    "double_blank_25": "the double blank counts 25",
    "blank_25_double_blank_50": "each blank half 25, the double blank 50",
    "frees_play": "play goes on elsewhere",
    "blocks_play": "play stays stuck",
    "celko": "Joe Celko's table",
    "fundex": "the Fundex table",
    "idaho_goodsam": "the Idaho Good Sam club table",
    "ourpastimes": "the ourpastimes.com table",
    "wikihow": "wikiHow's table",
    "descend_from_max": "from the highest double down to 0",
}
# Where one word means different things for different rules.
KEY_VALUE_WORDS: dict[tuple[str, str], str] = {
    ("blank_scoring", "pips"): "face value (a blank counts 0)",
    ("blocked_scoring", "pips"): "everyone counts their pips",
    ("double_followup", "none"): "no extra tile",
    ("satisfy_scope", "none"): "nothing waits",
    ("last_tile_call", "none"): "no penalty",
}


def value_label(value: Any, key: str | None = None) -> str:
    """Turn a rule value into words for a select option and the scoresheet."""
    if value is True:
        return "yes"
    if value is False:
        return "no"
    text = str(value)
    if key is not None and (key, text) in KEY_VALUE_WORDS:
        return KEY_VALUE_WORDS[(key, text)]
    return VALUE_WORDS.get(text, text.replace("_", " "))


# Sources as a player knows them: the rule book or site, not the survey's codes.
SOURCE_TITLES: dict[str, str] = {
    "S-01": "Wikipedia's Mexican Train article",
    "S-02": "Joe Celko's rules (pagat.com)",
    "S-03": "John McLeod's rules (pagat.com)",
    "S-04": "the Cardinal Industries rules",
    "S-05": "the Fundex rules",
    "S-06": "the Puremco (Parsons) rules",
    "S-07": "mexicantrain.com's rules",
    "S-08": "mexicantrainfun.com",
    "S-09": "the Idaho Good Sam club rules",
    "S-10": "the Florida Good Sam club rules",
    "S-11": "the Texas Good Sam rule sheet",
    "S-12": "David Greve's numbered rules",
    "S-13": "the Mexican Train Score App's rules",
    "S-14": "Behar's how-to-play guide",
    "S-15": "an eHow-style guide",
    "S-16": "wikiHow's questions and answers",
    "S-17": "reference.com's rule answers",
    "S-18": "the Tanglewood club rules",
    "S-19": "a boxed-set rule sheet",
    "S-20": "a re-hosted rules text",
    "S-21": "a retirees' club's Dual Mexican Train",
    "S-22": "netexl.com's online game",
    "S-23": "variant lists found online",
    "S-24": "question-and-answer sites",
    "S-25": "a club sheet for Mexican Train and Chickenfoot",
    "S-26": "tablegameshub.com's score calculator",
    "S-27": "ourpastimes.com's instructions",
    "S-28": "a rules text from didcotphoenix.co.uk",
    "S-29": "a Dutch club's rules",
    "001": "the train-hub set's rule sheet",
    "002": "wikiHow's step-by-step guide",
    "003": "the Fundex Games instructions",
    "004": "a web rules compilation",
}


def source_words(source: str) -> str:
    """A rule's sources named as a player knows them ("S-16, seed 004" -> titles)."""
    text = re.sub(r"variants B\.2 core \d+", "what every rule book agrees on", source)
    text = text.replace("seeds 001-004 all use", "all four starting rule books use")
    text = re.sub(r"seeds 001-004", "all four starting rule books", text)
    text = re.sub(r"seeds 001-003", "three starting rule books", text)

    def seeds(match: re.Match[str]) -> str:
        return ", ".join(SOURCE_TITLES[number] for number in re.findall(r"\d{3}", match.group(0)))

    text = re.sub(r"seeds? \d{3}(?:(?:,| and) \d{3})*", seeds, text)
    text = re.sub(
        r"S-(\d\d)[a-c]?",
        lambda match: SOURCE_TITLES.get(f"S-{match.group(1)}", "a rule text"),
        text,
    )
    text = re.sub(r"P-[A-Z]+(?:, P-[A-Z]+)*", "other scoring apps", text)
    text = re.sub(r" \((?:Celko|Fundex)(, )?", lambda match: " (" if match.group(1) else " (", text)
    text = text.replace(" ()", "")
    parts: list[str] = []
    for part in re.split(r"(?<=[,;]) ", text):
        if part.rstrip(",;") not in (earlier.rstrip(",;") for earlier in parts):
            parts.append(part)
    return " ".join(parts).rstrip(",;")


def preset_summary(preset: str, rules_json: Mapping[str, Any]) -> str:
    """The preset's title, and how many rules the game changed from it ("Standard, with 2
    changes")."""
    title = preset_titles().get(preset, preset)
    base = PRESETS.get(preset)
    if base is None:
        return title
    changed = sum(1 for key, value in rules_json.items() if base.get(key, value) != value)
    if not changed:
        return title
    return f"{title}, with {changed} change{'' if changed == 1 else 's'}"


def value_token(value: Any) -> str:
    """Turn a rule value into the string a form carries."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rule_help(key: str) -> tuple[str, str]:
    """Return (one-line explanation, source) for a key, tolerating a missing entry."""
    entry = RULE_HELP.get(key)
    if isinstance(entry, tuple) and len(entry) == 2:
        return str(entry[0]), source_words(str(entry[1]))
    return "", ""


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
    return {
        name: re.sub(r" \(seed \d{3}\)", "", PRESET_TITLES.get(name, rule_title(name)))
        for name in PRESETS
    }


def value_words() -> dict[str, dict[str, str]]:
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


def _parse_scalar(text: str) -> Any:
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
        raw["set_max"] = _parse_scalar(set_max_text)
    for field in rule_fields():
        text = form.get(f"rule-{field.key}", "").strip()
        if text:
            raw[field.key] = _parse_scalar(text)
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


def _rule_words(key: str, value: Any) -> str:
    if key == "schedule" and isinstance(value, list):
        return " ".join(str(engine) for engine in value)
    if key == "hand_size" and isinstance(value, Mapping):
        return ", ".join(f"{players} players: {tiles}" for players, tiles in value.items())
    return value_label(value, key)


def merge_stale_rules(
    game: Any, base: Mapping[str, Any], mine: Mapping[str, Any], preset: str
) -> tuple[dict[str, str], list[dict[str, str]]]:
    """The house-rules form for a phone whose save came too late, and its conflicts.

    A rule another phone changed since ``base`` shows the sheet's value; if this phone chose
    differently, it is a conflict listed with both values and a "use mine" box. Every other
    rule keeps this phone's choice.
    """
    now = dict(game.rules)
    merged: dict[str, Any] = {}
    conflicts: list[dict[str, str]] = []
    for key, value in now.items():
        changed_there = base.get(key) != value
        merged[key] = value if changed_there else mine.get(key, value)
        if changed_there and key in mine and mine[key] != value:
            conflicts.append(
                {
                    "key": key,
                    "title": rule_title(key),
                    "sheet": _rule_words(key, value),
                    "mine": _rule_words(key, mine[key]),
                    "value": json.dumps(mine[key]),
                }
            )
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
