"""Reading what a phone or an API client sends about a game: names, numbers, rules, tiles and
scores. Each function returns a checked value or raises :class:`ValidationFailed` naming the
field; none touches the database."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import (
    HandStatus,
    InvalidTileError,
    Rules,
    RulesError,
    Tile,
    check_hand,
    deal,
    max_hand_points,
    schedule,
    set_size,
)
from .entry import ScoreEntry
from .errors import ValidationFailed

MIN_PLAYERS = 2
# The deal tables go further for big sets; these caps keep a table playable on one sheet.
MAX_PLAYERS_BY_SET = {6: 4, 9: 8, 12: 8, 15: 12, 18: 16}
MAX_NAME_LENGTH = 24
MAX_MARKERS_UP = 1  # a player has one train, so at most one marker of their own left up
MAX_SCHEDULE_ROUNDS = 60  # a double-18 game played three times over; anything longer is a mistake
MAX_DIGITS = 9  # no score, version or rule value needs more; longer text is refused unread
MAX_LIST_ITEMS = 64  # players, deal-table entries: far more than any table seats


def parse_whole_number(
    value: Any, field_name: str, *, what: str = "Points", allow_text: bool = False
) -> int:
    """Turn a JSON number (or, from a form, its text) into a whole number, refusing the rest.

    Typed text may use the digits of any script (full-width "１２", Arabic-Indic "٣").
    """
    too_big = (
        f"{what} must be a whole number of at most {MAX_DIGITS} digits; that is far too large."
    )
    if isinstance(value, bool):
        raise ValidationFailed(f"{what} must be a whole number.", field_name)
    if isinstance(value, int):
        if abs(value) >= 10**MAX_DIGITS:
            raise ValidationFailed(too_big, field_name)
        return value
    if isinstance(value, float):
        if math.isnan(value):
            raise ValidationFailed(
                f"{what} must be a whole number; NaN is not a number.", field_name
            )
        if math.isinf(value) or abs(value) >= 10**MAX_DIGITS:
            raise ValidationFailed(too_big, field_name)
        if value.is_integer():
            return int(value)
        raise ValidationFailed(f"{what} must be a whole number, not a fraction.", field_name)
    if isinstance(value, str) and allow_text:
        text = value.strip()
        digits = text.removeprefix("-")
        if digits.isdecimal():
            if len(digits) > MAX_DIGITS:
                raise ValidationFailed(too_big, field_name)
            return int(text)
        shown = text if len(text) <= 20 else text[:20] + "…"
        lowered = text.casefold().lstrip("+-")
        if lowered in ("nan", "inf", "infinity", "∞"):
            raise ValidationFailed(
                f"{what} must be a whole number typed in digits, not {shown!r}.", field_name
            )
        if re.fullmatch(r"\d+(\.\d+)?e[+-]?\d+", lowered):
            raise ValidationFailed(
                f"{what} must be written out in digits, not as a power of ten ({shown!r}).",
                field_name,
            )
        if text.replace(".", "", 1).removeprefix("-").isdecimal() or "," in text:
            raise ValidationFailed(f"{what} must be a whole number, not a fraction.", field_name)
        raise ValidationFailed(f"{what} must be a whole number (you typed {shown!r}).", field_name)
    raise ValidationFailed(f"{what} must be a whole number.", field_name)


def parse_version(value: Any) -> int:
    """Read the ``version`` a write is based on."""
    if value is None or value == "":
        raise ValidationFailed(
            "The version of the game this change is based on is missing.", "version"
        )
    return parse_whole_number(value, "version", what="The version", allow_text=True)


def validate_players(names: Any, set_max: int) -> list[str]:
    """Return cleaned player names in seat order, or raise with the field at fault."""
    if not isinstance(names, Sequence) or isinstance(names, str):
        raise ValidationFailed("Players must be a list of names.", "players")
    if len(names) > MAX_LIST_ITEMS:
        raise ValidationFailed(f"A game seats at most {MAX_LIST_ITEMS} players.", "players")
    cleaned: list[str] = []
    seen: dict[str, int] = {}
    for seat, raw in enumerate(names):
        field_name = f"players.{seat}"
        if not isinstance(raw, str):
            raise ValidationFailed("Each player's name must be text.", field_name)
        name = " ".join(raw.split())
        if not name:
            raise ValidationFailed("A player's name is empty.", field_name)
        if len(name) > MAX_NAME_LENGTH:
            raise ValidationFailed(
                f"Keep names to {MAX_NAME_LENGTH} characters or fewer.", field_name
            )
        key = name.casefold()
        if key in seen:
            raise ValidationFailed(
                f"{name!r} is already the name of player {seen[key] + 1}; give each player a "
                "different name.",
                field_name,
            )
        seen[key] = seat
        cleaned.append(name)
    limit = MAX_PLAYERS_BY_SET.get(set_max, 8)
    if len(cleaned) < MIN_PLAYERS:
        raise ValidationFailed(f"A game needs at least {MIN_PLAYERS} players.", "players")
    if len(cleaned) > limit:
        raise ValidationFailed(f"A double-{set_max} set seats at most {limit} players.", "players")
    return cleaned


def rules_error_message(error: RulesError) -> str:
    """The engine's words about a rules value, for players: without the leading ``rules.key:``
    (the field says which rule) and with any long value shortened."""
    text = re.sub(r"^rules\.\w+:\s*", "", str(error))
    text = re.sub(r"([\"'])([^\"']{12})[^\"']{8,}\1", r"\1\2…\1", text)
    return text[:1].upper() + text[1:]


def rules_error_field(error: RulesError) -> str:
    """Name the rules field a :class:`RulesError` is about (its message starts "rules.key:")."""
    match = re.match(r"rules\.(\w+):", str(error))
    return f"rules.{match.group(1)}" if match else "rules"


def parse_rules(raw: Any) -> Rules:
    """Build a :class:`Rules` value from JSON, turning engine errors into field errors."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ValidationFailed('Rules must be an object such as {"preset": "standard"}.', "rules")
    for key, limit in (("schedule", MAX_SCHEDULE_ROUNDS), ("hand_size", MAX_LIST_ITEMS)):
        value = raw.get(key)
        if isinstance(value, list | Mapping) and len(value) > limit:
            raise ValidationFailed(f"rules.{key} may list at most {limit} entries.", f"rules.{key}")
    try:
        return Rules.from_json(dict(raw))
    except RulesError as error:
        raise ValidationFailed(rules_error_message(error), rules_error_field(error)) from error


@dataclass(frozen=True)
class Setup:
    """What the table needs to know before dealing."""

    hand_size: int
    set_tiles: int
    boneyard: int
    rounds: int


def check_setup(rules: Rules, players: int) -> Setup:
    """Check the rules can deal to this many players and describe the deal."""
    try:
        dealt = deal(rules, players)
        engines = schedule(rules)
    except RulesError as error:
        if rules_error_field(error) == "rules.hand_size" and "has no entry" in str(error):
            raise ValidationFailed(
                f"That deal gives no hand size for {players} players with a "
                f"double-{rules.set_max} set; choose another deal or type your own "
                "(players:tiles).",
                "rules.hand_size",
            ) from error
        raise ValidationFailed(rules_error_message(error), rules_error_field(error)) from error
    if dealt.boneyard < 0:
        raise ValidationFailed(
            f"A double-{rules.set_max} set has too few tiles to deal {dealt.hand_size} each to "
            f"{players} players.",
            "rules.hand_size",
        )
    return Setup(dealt.hand_size, dealt.set_tiles, dealt.boneyard, len(engines))


def parse_tiles(raw: Any, set_max: int, field_name: str) -> list[Tile]:
    """Parse a list of tiles, refusing duplicates and tiles the set does not have."""
    if not isinstance(raw, list):
        raise ValidationFailed("Tiles must be a list such as [[0, 0], [5, 6]].", field_name)
    if len(raw) > set_size(set_max):
        raise ValidationFailed(
            f"A double-{set_max} set has only {set_size(set_max)} tiles; {len(raw)} are listed.",
            field_name,
        )
    tiles: list[Tile] = []
    for index, item in enumerate(raw):
        try:
            tiles.append(Tile.from_json(item))
        except InvalidTileError as error:
            raise ValidationFailed(f"Tile {index + 1}: {error}", field_name) from error
    status = check_hand(tiles, set_max)
    if status & HandStatus.TILE_NOT_IN_SET:
        strangers = sorted({str(t) for t in tiles if t.high > set_max})
        raise ValidationFailed(f"A double-{set_max} set has no {', '.join(strangers)}.", field_name)
    if status & HandStatus.DUPLICATE_TILE:
        twice = sorted(str(tile) for tile, count in Counter(tiles).items() if count > 1)
        raise ValidationFailed(
            f"The set has only one {', '.join(twice)}; it is listed twice.", field_name
        )
    return tiles


def parse_score(raw: Any, rules: Rules, field_name: str) -> ScoreEntry:
    """Validate one player's score for a round."""
    if not isinstance(raw, Mapping):
        raise ValidationFailed(
            'A score must be an object such as {"points": 12} or {"tiles": [[0, 0]]}.',
            field_name,
        )
    unknown = set(raw) - {"points", "tiles", "went_out", "markers_up"}
    if unknown:
        raise ValidationFailed(
            f"Unknown score field {sorted(unknown)[0]!r}; use points, tiles, went_out or "
            "markers_up.",
            f"{field_name}.{sorted(unknown)[0]}",
        )
    went_out = raw.get("went_out", False)
    if not isinstance(went_out, bool):
        raise ValidationFailed("went_out must be true or false.", f"{field_name}.went_out")
    markers_up = parse_whole_number(
        raw.get("markers_up", 0), f"{field_name}.markers_up", what="Markers left up"
    )
    if not 0 <= markers_up <= MAX_MARKERS_UP:
        raise ValidationFailed(
            f"Markers left up must be between 0 and {MAX_MARKERS_UP}.", f"{field_name}.markers_up"
        )
    has_points = raw.get("points") is not None
    if "tiles" in raw and raw["tiles"] is not None:
        if has_points:
            raise ValidationFailed("Give either points or tiles, not both.", f"{field_name}.points")
        tiles = parse_tiles(raw["tiles"], rules.set_max, f"{field_name}.tiles")
        if went_out and tiles:
            raise ValidationFailed(
                "A player who went out has no tiles left in hand.", f"{field_name}.tiles"
            )
        # An empty hand is a player who went out; the engine scores it that way too.
        return ScoreEntry(
            tiles=tuple((a, b) for a, b in raw["tiles"]),
            went_out=not tiles,
            markers_up=markers_up,
        )
    if not has_points:
        if went_out:
            return ScoreEntry(points=0, went_out=True, markers_up=markers_up)
        raise ValidationFailed(
            "Enter the points, pick the tiles left in hand, or mark the player as out.",
            f"{field_name}.points",
        )
    points = parse_whole_number(raw["points"], f"{field_name}.points")
    largest = max_hand_points(rules)
    if points < 0:
        raise ValidationFailed("Points can't be negative.", f"{field_name}.points")
    if points > largest:
        raise ValidationFailed(
            f"{points} is more than any hand can hold in a double-{rules.set_max} set "
            f"(at most {largest}).",
            f"{field_name}.points",
        )
    if went_out and points:
        raise ValidationFailed(
            "A player who went out scores 0 before any bonus; clear the points or untick "
            "\u201cwent out\u201d.",
            f"{field_name}.points",
        )
    return ScoreEntry(points=points, went_out=went_out, markers_up=markers_up)


def parse_round_scores(
    players: Sequence[str], rules: Rules, raw_scores: Any
) -> dict[str, ScoreEntry]:
    """Validate the scores of one round for these players (in seat order) and rules."""
    if not isinstance(raw_scores, Mapping):
        raise ValidationFailed("scores must be an object keyed by player name.", "scores")
    players = list(players)
    scores: dict[str, ScoreEntry] = {}
    for name, raw in raw_scores.items():
        if name not in players:
            raise ValidationFailed(
                f"{name!r} is not playing in this game (players: {', '.join(players)}).",
                f"scores.{name}",
            )
        scores[name] = parse_score(raw, rules, f"scores.{name}")
    return scores
