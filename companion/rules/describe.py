"""Every rule in plain words, for the players at the table.

The engine, presets and docs name rules by contract keys (``satisfy_scope``) or core rule ids
(``must_match``) and cite sources by survey codes (``S-09``, ``seed 003``). None of that means
anything to a player. This module turns them into words: a rule's name, what it decides, the
value in force, which rule book that value comes from (by its title and section), and which
books play it another way.

It is pure data and small functions; it imports nothing but the standard library and the
rules package, so any front end can use it. docs/rules.md is the long form of the same
information, and is where each section reference below was taken from.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.rules.keys import RULE_KEYS, SOURCE_TITLES, plain
from companion.rules.presets import PRESETS, SILENT_KEYS
from companion.rules.rules import KEYS

__all__ = [
    "book_title",
    "books_with",
    "played_by",
    "preset_label",
    "rule_name",
    "rule_question",
    "rules_summary",
    "source_title",
    "value_words",
    "where_from",
    "where_value_from",
]

# --------------------------------------------------------------------------------------------
# Names and questions
# --------------------------------------------------------------------------------------------

_CORE_NAMES: dict[str, str] = {
    # Core rules (the engine's refusals that no house rule changes).
    "must_match": "Tiles must match",
    "tile_in_hand": "Playing a tile you hold",
    "private_train": "Private trains",
    "drawn_tile_only": "Playing the tile you drew",
    "round_over": "The round is over",
    "turn_over": "The turn is over",
    "one_tile_per_turn": "One tile per turn",
    "illegal": "Not a legal play",
    "no_marker": "No marker to take off",
    "boneyard_empty": "An empty boneyard",
    "no_draw_needed": "No draw needed",
    "must_draw": "Draw before passing",
    "tile_accounting": "Every tile accounted for",
    "went_out": "A player went out",
}

CORE_RULES: tuple[str, ...] = (
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
"""Rule ids the engine may give for a refusal or a round's end that are not contract keys."""

_CORE_STATEMENTS: dict[str, str] = {
    # Core rules: one sentence stating the rule.
    "must_match": "A tile must match the open end it is laid on, and a new train must start "
    "with the engine's number.",
    "tile_in_hand": "You can only play a tile that is in your hand.",
    "private_train": "Another player's train is closed to you unless it carries a marker.",
    "drawn_tile_only": "After drawing, the only tile you may play is the one you just drew.",
    "round_over": "Once the round has ended, nobody may play or draw until the next one.",
    "turn_over": "When your turn is over, play passes to the next player.",
    "one_tile_per_turn": "You play one tile per turn, unless that tile is a double.",
    "illegal": "That move is not allowed at this point of the game.",
    "no_marker": "You can only take your marker off if it is up.",
    "boneyard_empty": "When the boneyard is empty there is nothing left to draw, so you pass.",
    "no_draw_needed": "You only draw when you still owe a tile and cannot play one.",
    "must_draw": "If you cannot play, you must draw from the boneyard before you may pass.",
    "tile_accounting": "Every tile is in exactly one place: a hand, the table or the boneyard.",
    "went_out": "A player who plays their last tile ends the round.",
}


def _words(identifier: str) -> str:
    text = " ".join(identifier.replace("_", " ").replace("-", " ").split())
    return text[:1].upper() + text[1:] if text else "Unnamed rule"


def rule_name(key: str) -> str:
    """Short title case-free name of a contract key or core rule id, e.g. 'double_followup' ->
    'Covering your own double', 'satisfy_scope' -> 'An open double stops play', 'must_match' ->
    'Tiles must match'. Unknown id -> a readable fallback (never underscores)."""
    rule = RULE_KEYS.get(key)
    if rule is not None and rule.title:
        return rule.title
    return _CORE_NAMES.get(key) or _words(key)


def rule_question(key: str) -> str:
    """One plain sentence asking what the rule decides (the registry's help line where it
    already asks plainly); core rules get a one-sentence statement of the rule. Unknown ids get
    a generic sentence naming the rule."""
    if key in _CORE_STATEMENTS:
        return _CORE_STATEMENTS[key]
    if key in RULE_KEYS:
        return RULE_KEYS[key].question or RULE_KEYS[key].help
    return f"What does the rule “{rule_name(key)}” decide?"


# --------------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------------


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _players(low: int, high: int) -> str:
    if low == high:
        return f"{low} player" if low == 1 else f"{low} players"
    if high == low + 1:
        return f"{low} or {high} players"
    return f"{low} to {high} players"


def _deal_pairs(value: object) -> list[tuple[int, int]] | None:
    """``(players, tiles)`` pairs of an explicit deal table in JSON or tuple form."""
    if isinstance(value, Mapping):
        items: Iterable[Any] = value.items()
    elif isinstance(value, list | tuple):
        items = value
    else:
        return None
    pairs: list[tuple[int, int]] = []
    for item in items:
        if not isinstance(item, list | tuple) or len(item) != 2:
            return None
        players, tiles = item
        if isinstance(players, str) and players.isdigit():
            players = int(players)
        if type(players) is not int or type(tiles) is not int:
            return None
        pairs.append((players, tiles))
    return sorted(pairs)


def _deal_words(value: object) -> str:
    if isinstance(value, str):
        named = RULE_KEYS["hand_size"].choice(value)
        return named.words if named else f"the {_words(value).lower()} deal table"
    pairs = _deal_pairs(value)
    if not pairs:
        return "a deal table of the table's own"
    runs: list[tuple[int, int, int]] = []  # (first players, last players, tiles)
    for players, tiles in pairs:
        if runs and runs[-1][2] == tiles and runs[-1][1] + 1 == players:
            runs[-1] = (runs[-1][0], players, tiles)
        else:
            runs.append((players, players, tiles))
    parts = [f"{tiles} for {_players(low, high)}" for low, high, tiles in runs]
    first_tiles = runs[0][2]
    unit = "tile" if first_tiles == 1 else "tiles"
    parts[0] = f"{first_tiles} {unit} each for {_players(runs[0][0], runs[0][1])}"
    return _join(parts)


def _schedule_words(value: object) -> str:
    if value == "descend_from_max":
        return "one round for each double, from the set's highest down to 0"
    if isinstance(value, list | tuple) and value and all(type(v) is int for v in value):
        doubles = [str(v) for v in value]
        if len(doubles) == 1:
            return f"the double {doubles[0]} only, in one round"
        return f"the doubles {_join(doubles)}, one round each, in that order"
    return _plain(value)


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return " ".join(value.replace("_", " ").split())
    return str(value).replace("_", " ")


def value_words(key: str, value: object) -> str:
    """A value in words that completes 'Under these house rules, <rule_name>: <value_words>'.

    For example ``('double_followup', 'anywhere')`` -> 'the tile after a double may go
    anywhere' and ``('satisfy_scope', 'table')`` -> 'all play stops until it is covered'.
    Numbers carry their units, deal tables and schedules are spelled out, and every value in
    ``CHOICES`` has its own words. Values the module does not know fall back to the value
    itself with underscores turned into spaces.
    """
    rule = RULE_KEYS.get(key)
    named = rule.choice(value) if rule is not None else None
    if named is not None:
        return named.words
    if key == "set_max" and type(value) is int:
        return f"a double-{value} set of {(value + 1) * (value + 2) // 2} tiles"
    if key == "hand_size":
        return _deal_words(value)
    if key == "schedule":
        return _schedule_words(value)
    if key == "doubles_per_turn" and type(value) is int:
        return f"at most {value} doubles per turn"
    if key == "double_branches" and type(value) is int:
        return f"{value} tiles branch from it before the train goes on"
    if key == "mexican_trains" and type(value) is int:
        return f"up to {value} Mexican Trains per round"
    if key == "going_out_bonus" and type(value) is int:
        if value == 0:
            return "no bonus"
        points = "point" if abs(value) == 1 else "points"
        if value < 0:
            return f"{-value} {points} off for going out"
        return f"{value} {points} added for going out"
    if key == "open_marker_penalty" and type(value) is int:
        if value == 0:
            return "no penalty"
        points = "point" if abs(value) == 1 else "points"
        return f"{value} {points} for each of your markers still up"
    return _plain(value)


# --------------------------------------------------------------------------------------------
# Rule books and sources
# --------------------------------------------------------------------------------------------

_BOOK_TITLES: dict[str, str] = {
    "standard": "this app's standard rules",
    "hub_sheet": "the “Mexican Train Rules” sheet that comes with a train-hub set",
    "wikihow": "the wikiHow step-by-step guide to Mexican Train",
    "fundex": "the Fundex Games Mexican Train instructions (2003)",
    "web_compilation": "the web compilation of Mexican Train rules",
}

_SHORT_TITLES: dict[str, str] = {
    "standard": "Standard",
    "hub_sheet": "Train-hub set rule sheet",
    "wikihow": "wikiHow guide",
    "fundex": "Fundex Games instructions",
    "web_compilation": "Web rules compilation",
}


def book_title(preset: str) -> str:
    """The rule book behind a preset as a player knows it, e.g. 'fundex' -> 'the Fundex Games
    Mexican Train instructions (2003)', 'standard' -> "this app's standard rules"."""
    return _BOOK_TITLES.get(preset) or f"the “{_words(preset)}” rules"


def _place(place: object) -> str:
    """A section reference in words: '“Doubles”', 'step 6', or a plain phrase."""
    if type(place) is int:
        return f"step {place}"
    if isinstance(place, tuple):
        return "sections " + _join([f"“{name}”" for name in place])
    if isinstance(place, str) and place.startswith("its "):
        return f"in {place}"
    return f"section “{place}”"


def where_from(preset: str, key: str) -> str:
    """Where the preset's value for this key comes from, in words.

    A rule book's preset gives the book's title and the section (or wikiHow step) that
    states the value, e.g. 'the Fundex Games Mexican Train instructions (2003), section
    “Doubles”'. The web compilation has no sections, so it gets its title and, where the docs
    quote one, a few words of the passage. Standard names its best-supported sources by their
    titles. A key the book is silent on says so and that standard's value is used.
    """
    title = book_title(preset)
    if key in SILENT_KEYS.get(preset, frozenset()):
        return f"{title} says nothing on this; the app's standard value is used"
    rule = RULE_KEYS.get(key)
    if rule is None:
        return title
    if preset == "standard":
        sources = rule.standard_sources
        if isinstance(sources, str):
            return sources
        return _join([source_title(code) for code in sources]) if sources else title
    place = rule.section(preset)
    if place is None:
        return title
    if preset == "web_compilation":  # no sections: a few words of the passage instead
        return f"{title}, where it says “{place}”"
    return f"{title}, {_place(place)}"


def source_title(code: str) -> str:
    """A source of the survey (``S-09``, ``P-CM``) or a preset's rule book by its title."""
    return SOURCE_TITLES.get(code) or book_title(code)


def played_by(key: str, value: object) -> list[str]:
    """Where ``value`` of ``key`` is played, for a player: each preset's rule book that plays
    it (with its section, or standard's reasons), then the other rule texts and programs of
    the survey that play it, without repeats."""
    places: list[str] = []
    for name, values in PRESETS.items():
        if key in SILENT_KEYS.get(name, frozenset()) or key not in values:
            continue
        if _same_value(key, values[key], value):
            places.append(where_from(name, key))
    rule = RULE_KEYS.get(key)
    named = rule.choice(value) if rule is not None else None
    for code in named.sources if named is not None else ():
        title = source_title(code)
        if not any(title in place for place in places):
            places.append(title)
    return places


def where_value_from(preset: str, key: str, value: object) -> str:
    """Where the value in force comes from, in words: :func:`where_from` when it is the
    preset's own value; when the table changed it, the texts that play the changed value
    (:func:`played_by`) and what the preset's book says instead."""
    own = PRESETS.get(preset, {})
    if key not in own or _same_value(key, own[key], value):
        return where_from(preset, key)
    places = played_by(key, value)
    book = f"{book_title(preset)}: {value_words(key, own[key])}"
    if key in SILENT_KEYS.get(preset, frozenset()):
        book = (
            f"the app's standard value, used where {book_title(preset)} says nothing: "
            f"{value_words(key, own[key])}"
        )
    if not places:
        return (
            f"a house rule of your table, played in none of the rule texts the app knows "
            f"(instead of {book})"
        )
    return f"{_join(places)} (your table's change; instead of {book})"


# --------------------------------------------------------------------------------------------
# Comparing values and summing up a game's rules
# --------------------------------------------------------------------------------------------


def _json_form(key: str, value: object) -> object:
    """A value as Rules.to_json() gives it (explicit deal tables as objects, lists not
    tuples), so preset values, JSON values and Rules values compare alike."""
    value = plain(value)
    if key == "hand_size" and not isinstance(value, str):
        pairs = _deal_pairs(value)
        if pairs is not None:
            return {str(players): tiles for players, tiles in pairs}
    if isinstance(value, tuple):
        return list(value)
    return value


def _same(a: object, b: object) -> bool:
    """Equality that tells ``True`` from ``1`` (also inside lists and objects)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def _same_value(key: str, a: object, b: object) -> bool:
    return _same(_json_form(key, a), _json_form(key, b))


def books_with(key: str, value: object) -> list[str]:
    """Titles (book_title) of the presets whose value for key equals value (type-sensitive:
    True is not 1), in PRESETS order; presets silent on the key are left out."""
    return [
        book_title(name)
        for name, values in PRESETS.items()
        if key not in SILENT_KEYS.get(name, frozenset())
        and key in values
        and _same_value(key, values[key], value)
    ]


def _changed_keys(rules_json: Mapping[str, Any], preset: str) -> list[str]:
    own = PRESETS.get(preset, {})
    return [
        key
        for key in KEYS
        if key in rules_json and key in own and not _same_value(key, rules_json[key], own[key])
    ]


def rules_summary(rules_json: dict[str, Any], preset: str) -> list[tuple[str, str, str]]:
    """(rule_name, value_words, where_from) for every contract key in KEYS order for a game's
    resolved rules (the JSON form from Rules.to_json()); for a value that differs from the
    preset's own, where_from says 'changed by your table, as in <the texts that play it> (the
    book says: <value words>)'.
    A key missing from ``rules_json`` is shown with the preset's value."""
    own = PRESETS.get(preset, {})
    changed = set(_changed_keys(rules_json, preset))
    summary: list[tuple[str, str, str]] = []
    for key in KEYS:
        value = rules_json.get(key, own.get(key))
        if key in changed:
            places = played_by(key, value)
            played = f", as in {_join(places)}" if places else ""
            where = f"changed by your table{played} (the book says: {value_words(key, own[key])})"
        else:
            where = where_from(preset, key)
        summary.append((rule_name(key), value_words(key, value), where))
    return summary


def preset_label(preset: str, rules_json: dict[str, Any]) -> str:
    """e.g. 'Standard' or 'Fundex Games instructions, with 2 changes' (count keys differing
    from the preset)."""
    name = _SHORT_TITLES.get(preset) or _words(preset)
    count = len(_changed_keys(rules_json, preset))
    if count == 0:
        return name
    return f"{name}, with {count} change" + ("" if count == 1 else "s")
