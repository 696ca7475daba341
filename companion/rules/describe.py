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

from companion.rules.keys import RULE_KEYS, plain
from companion.rules.presets import PRESETS, SILENT_KEYS
from companion.rules.rules import KEYS

__all__ = [
    "book_title",
    "books_with",
    "preset_label",
    "rule_name",
    "rule_question",
    "rules_summary",
    "value_words",
    "where_from",
]

# --------------------------------------------------------------------------------------------
# Names and questions
# --------------------------------------------------------------------------------------------

_NAMES: dict[str, str] = {
    # Contract keys.
    "set_max": "The domino set",
    "hand_size": "Tiles dealt to each player",
    "engine_source": "Where the engine double comes from",
    "round_leader": "Who leads each round",
    "schedule": "The engine double of each round",
    "first_turn": "The first turn",
    "first_turn_may_end_on_double": "Ending the first turn on a double",
    "mexican_on_first_turn": "The Mexican Train on your first turn",
    "own_train_required_before_other_play": "Starting your own train first",
    "others_may_start_unstarted_marked_train": "Starting someone else's marked train",
    "double_followup": "Covering your own double",
    "satisfy_scope": "An open double stops play",
    "doubles_per_turn": "Doubles in one turn",
    "satisfy_order": "Which open double comes first",
    "draw_rule": "Drawing when you cannot play",
    "must_play_if_able": "Playing when you can",
    "marker_removal": "Taking your marker off",
    "go_out_on_double": "Going out on a double",
    "first_turn_out": "Going out on the first turn",
    "last_tile_call": "Announcing your last tile",
    "blocked_definition": "When a round is blocked",
    "blocked_scoring": "Scoring a blocked round",
    "blank_scoring": "What blanks count",
    "going_out_bonus": "Bonus for going out",
    "open_marker_penalty": "Penalty for markers left up",
    "blanks_wild": "Wild blanks",
    "dead_double": "A double nobody can cover",
    "double_branches": "Tiles a double takes",
    "mexican_trains": "How many Mexican Trains",
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

_QUESTIONS: dict[str, str] = {
    "set_max": "Which domino set do you play with, named by its highest double?",
    "hand_size": "How many tiles is each player dealt, for the number of players at the table?",
    "engine_source": "How does each round's engine double get to the centre of the table?",
    "round_leader": "Who plays first in each round?",
    "schedule": "Which double is the engine in each round, and how many rounds are there?",
    "first_turn": "On your first turn, may you lay a whole run on your own train, or one tile?",
    "double_followup": "After you play a double, what must your next tile do?",
    "satisfy_scope": "While a double is open, what play has to wait until it is covered?",
    "doubles_per_turn": "How many doubles may you play in one turn?",
    "draw_rule": "When you cannot play, how many tiles do you draw?",
    "marker_removal": "How does your marker come off your train?",
    "last_tile_call": "What happens if you do not announce (tap) your last tile in time?",
    "blocked_definition": "When is a round over because nobody can go on?",
    "blocked_scoring": "How is a blocked round scored?",
    "blank_scoring": "What do blanks count when a hand is scored?",
    "going_out_bonus": "Does the player who goes out get points taken off their total?",
    "open_marker_penalty": "Do you pay points for each of your markers still up at the end?",
    "dead_double": "If an open double can never be covered, does it still hold up play?",
    "double_branches": "How many tiles does a double take before its train goes on?",
    "mexican_trains": "How many Mexican Trains may be built in a round?",
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
    return _NAMES.get(key) or _words(key)


def rule_question(key: str) -> str:
    """One plain sentence asking what the rule decides (the registry's help line where it
    already asks plainly); core rules get a one-sentence statement of the rule. Unknown ids get
    a generic sentence naming the rule."""
    if key in _QUESTIONS:
        return _QUESTIONS[key]
    if key in RULE_KEYS:
        return RULE_KEYS[key].help
    return f"What does the rule “{rule_name(key)}” decide?"


# --------------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------------

_VALUE_WORDS: dict[str, dict[Any, str]] = {
    "engine_source": {
        "set_aside": "the engine double is set aside before the deal",
        "holder_plays_draw_all": "whoever is dealt the engine double lays it; if nobody has it, "
        "everyone draws at once until it turns up",
        "holder_plays_draw_in_turn": "whoever is dealt the engine double lays it; if nobody "
        "has it, players draw one tile each in turn until it turns up",
        "next_highest_double": "whoever is dealt the engine double lays it; if nobody has it, "
        "the highest double dealt becomes the engine",
    },
    "round_leader": {
        "rotate_left": "the lead moves one seat to the left each round",
        "engine_holder": "whoever holds or turns up the engine double leads",
    },
    "first_turn": {
        "multi_own_train": "you may lay a whole run of matching tiles on your own train",
        "single_tile": "one tile, like any other turn",
    },
    "first_turn_may_end_on_double": {
        True: "allowed; the double stays open for the table to cover",
        False: "not allowed; a first-turn run may not finish on a double",
    },
    "mexican_on_first_turn": {
        False: "not allowed; your first turn is for your own train only",
        True: "allowed; you may use the Mexican Train on your first turn",
    },
    "own_train_required_before_other_play": {
        False: "not required; you may play elsewhere before your own train has a tile",
        True: "required; until your own train has a tile, starting it is your only play",
    },
    "others_may_start_unstarted_marked_train": {
        True: "allowed; once your marker is up, others may lay the first tile of your train",
        False: "not allowed; only you may lay the first tile of your own train",
    },
    "double_followup": {
        "must_cover_own_if_able": "the tile after your double must cover it if you can",
        "anywhere": "the tile after a double may go anywhere",
        "none": "a double ends your turn, with no tile after it",
    },
    "satisfy_scope": {
        "table": "all play stops until it is covered",
        "train_only": "only that train waits; play goes on elsewhere",
        "none": "nothing stops; nobody has to cover it",
    },
    "doubles_per_turn": {
        "unlimited": "as many as you can, each followed by one more tile",
        1: "at most one double per turn",
    },
    "satisfy_order": {
        "oldest_first": "the oldest open double is covered first",
        "newest_first": "the newest open double is covered first",
        "any": "open doubles may be covered in any order",
    },
    "draw_rule": {
        "one_then_pass": "draw one tile; play it if it fits, otherwise put your marker up and pass",
        "until_playable": "keep drawing until you can play or the boneyard runs out",
    },
    "must_play_if_able": {
        True: "required; you may not draw or pass while you hold a tile you may play",
        False: "up to you; you may draw instead of playing",
    },
    "marker_removal": {
        "auto_on_own_train_play": "it comes off when you play on your own train",
        "owner_choice_after_any_play": "you may take it off after any play of yours",
    },
    "go_out_on_double": {
        "allowed": "allowed, and the round ends at once",
        "must_be_covered": "the round goes on until someone covers that double",
        "allowed_opponents_x2": "allowed, but the other players score double",
    },
    "first_turn_out": {
        "others_finish_first_turn": "the others still take their first turn before the round ends",
        "round_ends": "the round ends at once",
    },
    "last_tile_call": {
        "draw2": "forgetting costs two tiles from the boneyard",
        "none": "only a courtesy, with no penalty",
        "draw1": "forgetting costs one tile from the boneyard",
        "draw2_and_skip": "forgetting costs two tiles from the boneyard and your next turn",
    },
    "blocked_definition": {
        "no_legal_move_anywhere": "the boneyard is empty and nobody has a tile they may play",
        "full_lap_of_passes": "the boneyard is empty and every player has passed in a row",
    },
    "blocked_scoring": {
        "pips": "everyone counts the pips left in hand, as usual",
        "lowest_to_zero": "the lowest hand scores 0 and the others count their pips",
    },
    "blank_scoring": {
        "pips": "face value, so a blank counts 0",
        "double_blank_50": "the double-blank counts 50; other blanks count 0",
        "double_blank_25": "the double-blank counts 25; other blanks count 0",
        "blank_25_double_blank_50": "every blank half counts 25, and the double-blank 50",
    },
    "blanks_wild": {
        False: "no; a blank matches only a blank",
        True: "yes; a blank end matches any number",
    },
    "dead_double": {
        "frees_play": "it stops holding up play",
        "blocks_play": "it still holds up play, until the round is blocked",
    },
    "double_branches": {
        1: "one tile covers it and the train goes on from there",
        2: "two tiles branch from it before the train goes on",
        3: "three tiles branch from it before the train goes on",
    },
    "mexican_trains": {
        1: "one Mexican Train per round",
        2: "up to two Mexican Trains per round, for big tables",
    },
}

_DEAL_TABLE_NAMES: dict[str, str] = {
    "celko": "the Celko deal table",
    "fundex": "the Fundex deal table",
    "idaho_goodsam": "the Idaho Good Sam deal table",
    "ourpastimes": "the Our Pastimes deal table",
    "wikihow": "the wikiHow deal table",
}


def _lookup(table: Mapping[Any, str], value: object) -> str | None:
    """``table[value]`` compared type-sensitively (``True`` is not ``1``)."""
    value = plain(value)
    for choice, words in table.items():
        if type(choice) is type(value) and choice == value:
            return words
    return None


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
        return _DEAL_TABLE_NAMES.get(value, f"the {_words(value).lower()} deal table")
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
    if key in _VALUE_WORDS:
        words = _lookup(_VALUE_WORDS[key], value)
        if words is not None:
            return words
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

# Where in each book its preset's value is stated (docs/rules.md gives the detail). A value
# is a section name, a tuple of section names, an int (a wikiHow step), or a plain phrase
# starting with "its " for a place that is not a titled section. Keys absent here are the
# book's SILENT_KEYS.
_HUB_SHEET_SECTIONS: dict[str, str | tuple[str, ...]] = {
    "set_max": "Set Up",
    "hand_size": "Set Up",
    "engine_source": "Set Up",
    "round_leader": "Game Play",
    "schedule": "Game Play",
    "first_turn": "First Turn",
    "mexican_on_first_turn": "Mexican Train",
    "own_train_required_before_other_play": "Subsequent Turns",
    "others_may_start_unstarted_marked_train": "Boneyard",
    "double_followup": "Double Domino",
    "satisfy_scope": "Double Domino",
    "doubles_per_turn": ("Subsequent Turns", "Double Domino"),
    "draw_rule": "Boneyard",
    "must_play_if_able": "Boneyard",
    "marker_removal": "Boneyard",
    "go_out_on_double": "Game Play",
    "first_turn_out": "Boneyard",
    "blank_scoring": "Scoring",
    "dead_double": "Double Domino",
    "double_branches": "Double Domino",
    "mexican_trains": "Mexican Train",
}

_WIKIHOW_STEPS: dict[str, int | str] = {
    "set_max": "its opening paragraphs",
    "hand_size": 2,
    "engine_source": 3,
    "round_leader": 3,
    "schedule": 9,
    "first_turn": 5,
    "mexican_on_first_turn": 5,
    "own_train_required_before_other_play": 5,
    "double_followup": 6,
    "satisfy_scope": 6,
    "doubles_per_turn": 6,
    "satisfy_order": 6,
    "draw_rule": 6,
    "must_play_if_able": 6,
    "go_out_on_double": 6,
    "blocked_definition": 7,
    "blocked_scoring": 8,
    "blank_scoring": 8,
    "dead_double": 6,
    "double_branches": 6,
    "mexican_trains": 6,
}

_FUNDEX_SECTIONS: dict[str, str | tuple[str, ...]] = {
    "set_max": "its equipment list",
    "hand_size": "Set Up",
    "engine_source": "Playing in rounds",
    "schedule": "Playing in rounds",
    "first_turn": "Play",
    "mexican_on_first_turn": "Play",
    "own_train_required_before_other_play": ("Play", "Mexican Train"),
    "double_followup": "Doubles",
    "satisfy_scope": "Doubles",
    "doubles_per_turn": ("Play", "Doubles"),
    "draw_rule": "Box Cars",
    "must_play_if_able": "Play",
    "marker_removal": "Other Players Trains",
    "last_tile_call": "Last Tile",
    "blocked_definition": "Winning the Game",
    "blocked_scoring": "Winning the Game",
    "blank_scoring": "Winning the Game",
    "dead_double": "Doubles",
    "double_branches": "Doubles",
    "mexican_trains": "Mexican Train",
}

# The web compilation has no sections; a short quote from docs/rules.md locates the passage
# where there is one.
_WEB_CUES: dict[str, str] = {
    "dead_double": "does not restrict play",
}

# Sources for standard's values, best first (docs/rules.md, key by key). Keys are the survey's
# codes (shared/rules/variants.md B.1) or a preset name for one of the four rule books.
_SOURCE_TITLES: dict[str, str] = {
    "S-01": "the Wikipedia article on Mexican Train",
    "S-02": "Joe Celko's Mexican Trains rules",
    "S-03": "John McLeod's Mexican Train rules",
    "S-04": "a summary of the Cardinal Industries rules",
    "S-07": "the rules of the Mexican Train app (mexicantrain.com)",
    "S-08": "the Mexican Train Fun blog's advice on announcing your last tile",
    "S-09": "the Idaho Good Sam club's tournament rules",
    "S-12": "the formal numbered rules at thegreves.com",
    "S-13": "the rules page of the Mexican Train Score App",
    "S-14": "the Behar set maker's how-to-play guide",
    "S-15": "the eHow-style guides to Mexican Train",
    "S-16": "the wikiHow questions and answers on Mexican Train",
    "S-17": "the reference.com articles on Mexican Train",
    "S-18": "the Tanglewood club's rules",
    "S-19": "a boxed-set rule sheet by an unnamed publisher",
    "S-20": "a reprinted rules text that bars the Mexican Train on the first turn",
    "S-22": "the Netexl online Train Dominoes game",
    "S-23": "collected lists of house variants",
    "S-24": "question-and-answer pages on Mexican Train",
    "S-28": "a reprinted rules text that lets a last double end the round",
    "hub_sheet": _BOOK_TITLES["hub_sheet"],
    "wikihow": _BOOK_TITLES["wikihow"],
    "fundex": _BOOK_TITLES["fundex"],
    "web_compilation": _BOOK_TITLES["web_compilation"],
}

_ALL_TEXTS = "every rule text the app's authors surveyed, including all four rule books"

_STANDARD_SOURCES: dict[str, tuple[str, ...] | str] = {
    "set_max": "all four rule books behind the other presets, each written for a double-12 set",
    "hand_size": ("S-02", "S-13", "S-14"),
    "engine_source": ("S-01", "S-13", "S-22"),
    "round_leader": ("S-12", "hub_sheet", "web_compilation"),
    "schedule": _ALL_TEXTS,
    "first_turn": ("S-02", "S-04", "S-03"),
    "first_turn_may_end_on_double": ("S-03", "S-22"),
    "mexican_on_first_turn": ("S-20", "S-22", "hub_sheet", "wikihow"),
    "own_train_required_before_other_play": ("S-16", "S-20"),
    "others_may_start_unstarted_marked_train": ("S-19", "S-18"),
    "double_followup": ("S-02", "S-09"),
    "satisfy_scope": ("S-04", "S-09", "S-15"),
    "doubles_per_turn": ("S-07", "S-17", "S-28"),
    "satisfy_order": ("S-17", "wikihow", "web_compilation"),
    "draw_rule": ("S-09", "fundex", "S-14"),
    "must_play_if_able": ("fundex", "hub_sheet", "S-24"),
    "marker_removal": ("S-17", "S-09", "S-15"),
    "go_out_on_double": ("S-07", "S-24", "S-28"),
    "first_turn_out": ("hub_sheet", "S-23"),
    "last_tile_call": ("fundex", "S-08", "web_compilation"),
    "blocked_definition": ("S-07", "S-24", "fundex"),
    "blocked_scoring": _ALL_TEXTS,
    "blank_scoring": _ALL_TEXTS + ", which agree on counting face value",
    "going_out_bonus": "all four rule books, none of which gives a bonus "
    "(bonuses come only from scorekeeping apps)",
    "open_marker_penalty": "all four rule books, none of which charges for markers left up "
    "(only an online score calculator does)",
    "blanks_wild": ("S-16",),
    "dead_double": "the web compilation of Mexican Train rules (“does not restrict play”), "
    "the only rule text that covers the case",
    "double_branches": ("hub_sheet", "fundex"),
    "mexican_trains": ("S-15", "S-12", "fundex"),
}

_SECTIONS: dict[str, Mapping[str, object]] = {
    "hub_sheet": _HUB_SHEET_SECTIONS,
    "wikihow": _WIKIHOW_STEPS,
    "fundex": _FUNDEX_SECTIONS,
    "web_compilation": _WEB_CUES,
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
    if preset == "standard":
        sources = _STANDARD_SOURCES.get(key)
        if sources is None:
            return title
        if isinstance(sources, str):
            return sources
        return _join([_SOURCE_TITLES[code] for code in sources])
    if preset == "web_compilation":
        cue = _WEB_CUES.get(key)
        return f"{title}, where it says “{cue}”" if cue else title
    place = _SECTIONS.get(preset, {}).get(key)
    return f"{title}, {_place(place)}" if place is not None else title


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
    preset's own, where_from says 'changed by your table (the book says: <value words>)'.
    A key missing from ``rules_json`` is shown with the preset's value."""
    own = PRESETS.get(preset, {})
    changed = set(_changed_keys(rules_json, preset))
    summary: list[tuple[str, str, str]] = []
    for key in KEYS:
        value = rules_json.get(key, own.get(key))
        if key in changed:
            where = f"changed by your table (the book says: {value_words(key, own[key])})"
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
