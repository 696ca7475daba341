"""House rules: one frozen value per key of the referee contract (shared/spec/referee.md)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

from companion.rules import keys
from companion.rules.keys import RULE_KEYS, DealTable, plain
from companion.rules.presets import PRESETS


class RulesError(ValueError):
    """A rule key or value is unknown, or the rules cannot serve the request."""


# Every contract key with its allowed values (from RULE_KEYS); ``None`` marks keys checked by
# hand (numbers, tables, schedules). The first value listed is not necessarily the default:
# presets decide.
CHOICES: dict[str, tuple[object, ...] | None] = {
    key: rule.choices for key, rule in RULE_KEYS.items()
}

KEYS: tuple[str, ...] = tuple(RULE_KEYS)
"""The contract's rule keys, in the order the contract lists them."""

# Named deal tables: set_max -> {players: tiles each}.
DEAL_TABLES: dict[DealTable, dict[int, dict[int, int]]] = {
    DealTable.CELKO: {
        12: dict(zip(range(2, 9), (15, 15, 15, 12, 12, 11, 11), strict=True)),
        6: {2: 9, 3: 8, 4: 6},
        9: dict(zip(range(2, 9), (9, 9, 9, 7, 7, 7, 6), strict=True)),
        15: {**dict.fromkeys(range(2, 7), 15), 7: 13, 8: 13, **dict.fromkeys(range(9, 13), 11)},
    },
    DealTable.FUNDEX: {12: dict(zip(range(2, 9), (15, 15, 15, 11, 11, 8, 8), strict=True))},
    DealTable.IDAHO_GOODSAM: {
        12: dict(zip(range(2, 9), (16, 15, 14, 13, 12, 11, 10), strict=True))
    },
    DealTable.OURPASTIMES: {12: dict(zip(range(2, 9), (16, 16, 15, 14, 12, 10, 9), strict=True))},
    DealTable.WIKIHOW: {
        12: dict(zip(range(2, 11), (12, 12, 12, 12, 12, 10, 10, 8, 8), strict=True))
    },
}

HandSizeValue = DealTable | tuple[tuple[int, int], ...]
ScheduleValue = str | tuple[int, ...]


def _describe(value: object) -> str:
    return repr(value) if not isinstance(value, str) else f'"{value}"'


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """A complete, validated set of house rules (see shared/spec/referee.md for each key)."""

    set_max: int
    hand_size: HandSizeValue
    """A named deal table, or ``((players, tiles), ...)`` sorted by players."""
    engine_source: keys.EngineSource
    round_leader: keys.RoundLeader
    schedule: ScheduleValue
    """``"descend_from_max"`` or the engine value of each round."""
    first_turn: keys.FirstTurn
    first_turn_may_end_on_double: bool
    mexican_on_first_turn: bool
    own_train_required_before_other_play: bool
    others_may_start_unstarted_marked_train: bool
    double_followup: keys.DoubleFollowup
    satisfy_scope: keys.SatisfyScope
    doubles_per_turn: str | int
    satisfy_order: keys.SatisfyOrder
    draw_rule: keys.DrawRule
    must_play_if_able: bool
    marker_removal: keys.MarkerRemoval
    go_out_on_double: keys.GoOutOnDouble
    first_turn_out: keys.FirstTurnOut
    last_tile_call: keys.LastTileCall
    blocked_definition: keys.BlockedDefinition
    blocked_scoring: keys.BlockedScoring
    blank_scoring: keys.BlankScoring
    going_out_bonus: int
    open_marker_penalty: int
    blanks_wild: bool
    dead_double: keys.DeadDouble
    double_branches: Literal[1, 2, 3] | int
    mexican_trains: int

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Builds rules from ``{"preset": name, key: value, ...}`` (``preset`` defaults to
        ``"standard"``).

        :raises: :exc:`RulesError` naming the unknown preset, key or value.
        """
        if data is None:
            data = {}
        if not isinstance(data, Mapping):
            raise RulesError('rules must be an object such as {"preset": "standard"}')
        preset_name = data.get("preset", "standard")
        if not isinstance(preset_name, str) or preset_name not in PRESETS:
            names = ", ".join(sorted(PRESETS))
            raise RulesError(
                f"rules.preset: unknown preset {_describe(preset_name)} (known: {names})"
            )
        values: dict[str, Any] = dict(PRESETS[preset_name])
        for key, value in data.items():
            if key == "preset":
                continue
            if key not in CHOICES:
                raise RulesError(f"rules.{key}: unknown rule key")
            values[key] = value
        missing = [key for key in KEYS if key not in values]
        if missing:
            raise RulesError(f"rules.{missing[0]}: preset {preset_name!r} gives no value")
        return cls(**{key: _validate(key, values[key], values) for key in KEYS})

    def to_json(self) -> dict[str, Any]:
        """Every key with its value in the contract's JSON form."""
        out: dict[str, Any] = {}
        for key in KEYS:
            value = getattr(self, key)
            if key == "hand_size" and not isinstance(value, str):
                value = {str(players): tiles for players, tiles in value}
            elif key == "schedule" and not isinstance(value, str):
                value = list(value)
            out[key] = plain(value)
        return out

    def replace(self, **changes: Any) -> Rules:
        """A copy with some keys changed, given in their JSON form and validated."""
        for key in changes:
            if key not in CHOICES:
                raise RulesError(f"rules.{key}: unknown rule key")
        values = self.to_json()
        values.update(changes)
        return Rules(**{key: _validate(key, values[key], values) for key in KEYS})

    def hand_table(self) -> dict[int, int]:
        """Tiles per player count for this set (empty if the named table does not cover it)."""
        if isinstance(self.hand_size, str):
            return dict(DEAL_TABLES[self.hand_size].get(self.set_max, {}))
        return dict(self.hand_size)


def _validate(key: str, value: Any, values: Mapping[str, Any]) -> Any:
    choices = CHOICES[key]
    if choices is not None:
        for choice in choices:
            # A named choice (an enum member) is read from its string; 1 == True in Python, so
            # other values compare their types too.
            if isinstance(choice, str):
                if isinstance(value, str) and value == choice:
                    return choice
            elif value == choice and type(value) is type(choice):
                return value
        allowed = ", ".join(_describe(choice) for choice in choices)
        raise RulesError(f"rules.{key}: {_describe(value)} is not one of {allowed}")
    if key in ("going_out_bonus", "open_marker_penalty"):
        if type(value) is not int:
            raise RulesError(f"rules.{key}: must be a whole number, got {_describe(value)}")
        if key == "going_out_bonus" and value > 0:
            raise RulesError(f"rules.{key}: must be 0 or negative, got {value}")
        if key == "open_marker_penalty" and value < 0:
            raise RulesError(f"rules.{key}: must be 0 or positive, got {value}")
        return value
    if key == "hand_size":
        return _validate_hand_size(value)
    if key == "schedule":
        return _validate_schedule(value, values.get("set_max"))
    raise AssertionError(key)  # pragma: no cover


def _validate_hand_size(value: Any) -> HandSizeValue:
    if isinstance(value, str):
        if value not in DEAL_TABLES:
            names = ", ".join(sorted(DEAL_TABLES))
            raise RulesError(f"rules.hand_size: unknown deal table {value!r} (known: {names})")
        return DealTable(value)
    if isinstance(value, tuple):
        value = {str(p): t for p, t in value}
    if not isinstance(value, Mapping) or not value:
        raise RulesError(
            'rules.hand_size: must be a table name or an object such as {"2": 15, "3": 15}'
        )
    entries: list[tuple[int, int]] = []
    for players_text, tiles in value.items():
        players = (
            int(players_text) if isinstance(players_text, str) and players_text.isdigit() else None
        )
        if players is None or players < 1:
            raise RulesError(f"rules.hand_size: {players_text!r} is not a player count")
        if type(tiles) is not int or tiles < 1:
            raise RulesError(f"rules.hand_size: {_describe(tiles)} tiles for {players} players")
        entries.append((players, tiles))
    return tuple(sorted(entries))


def _validate_schedule(value: Any, set_max: Any) -> ScheduleValue:
    if value == "descend_from_max":
        return "descend_from_max"
    if isinstance(value, str) or not isinstance(value, list | tuple) or not value:
        raise RulesError('rules.schedule: must be "descend_from_max" or a list of engine values')
    top = set_max if type(set_max) is int else 18
    for engine in value:
        if type(engine) is not int or not 0 <= engine <= top:
            raise RulesError(f"rules.schedule: {_describe(engine)} is not a double of this set")
    return tuple(value)
