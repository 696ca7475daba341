"""Every house rule, defined once: its values, its help line, its sources, and whether it
changes scores.

The referee contract (shared/spec/referee.md) names each rule by a key and each choice by a
string. Here each key with named choices gets a ``StrEnum`` of them, so code compares against
members (``SatisfyScope.TABLE``) rather than loose strings, while JSON still reads and writes
the contract's plain strings (a ``StrEnum`` member is a ``str``). ``RULE_KEYS`` lists every key in
the contract's order with its choices; :mod:`companion.rules.rules` builds and checks
:class:`~companion.rules.rules.Rules` from it.

It is also the one registry of what players read about each rule: its title, its question,
each value in words with the rule texts that play it, and where each preset's book states it.
:mod:`companion.rules.describe` only assembles sentences from it, so the book behind any value
(the preset's own or one a table changed) is found the same way. The sources are those of
docs/rules.md, checked against shared/rules/variants.md and the seed books.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class EngineSource(StrEnum):
    """How the round's engine double reaches the hub."""

    SET_ASIDE = "set_aside"
    HOLDER_PLAYS_DRAW_ALL = "holder_plays_draw_all"
    HOLDER_PLAYS_DRAW_IN_TURN = "holder_plays_draw_in_turn"
    NEXT_HIGHEST_DOUBLE = "next_highest_double"


class RoundLeader(StrEnum):
    """Who plays first in each round."""

    ROTATE_LEFT = "rotate_left"
    ENGINE_HOLDER = "engine_holder"


class FirstTurn(StrEnum):
    """What a player may lay on their first turn."""

    MULTI_OWN_TRAIN = "multi_own_train"
    SINGLE_TILE = "single_tile"


class DoubleFollowup(StrEnum):
    """What the extra tile after a double must do."""

    MUST_COVER_OWN_IF_ABLE = "must_cover_own_if_able"
    ANYWHERE = "anywhere"
    NONE = "none"


class SatisfyScope(StrEnum):
    """What an open double stops."""

    TABLE = "table"
    TRAIN_ONLY = "train_only"
    NONE = "none"


class SatisfyOrder(StrEnum):
    """Which of several open doubles must be covered first."""

    OLDEST_FIRST = "oldest_first"
    NEWEST_FIRST = "newest_first"
    ANY = "any"


class DrawRule(StrEnum):
    """What a player who cannot play does."""

    ONE_THEN_PASS = "one_then_pass"
    UNTIL_PLAYABLE = "until_playable"


class MarkerRemoval(StrEnum):
    """How a player's marker comes off their train."""

    AUTO_ON_OWN_TRAIN_PLAY = "auto_on_own_train_play"
    OWNER_CHOICE_AFTER_ANY_PLAY = "owner_choice_after_any_play"


class GoOutOnDouble(StrEnum):
    """Whether a double may be a player's last tile."""

    ALLOWED = "allowed"
    MUST_BE_COVERED = "must_be_covered"
    ALLOWED_OPPONENTS_X2 = "allowed_opponents_x2"


class FirstTurnOut(StrEnum):
    """What happens when someone goes out on their first turn."""

    OTHERS_FINISH_FIRST_TURN = "others_finish_first_turn"
    ROUND_ENDS = "round_ends"


class LastTileCall(StrEnum):
    """The penalty for not announcing one's last tile."""

    DRAW2 = "draw2"
    NONE = "none"
    DRAW1 = "draw1"
    DRAW2_AND_SKIP = "draw2_and_skip"


class BlockedDefinition(StrEnum):
    """When a round counts as blocked."""

    NO_LEGAL_MOVE_ANYWHERE = "no_legal_move_anywhere"
    FULL_LAP_OF_PASSES = "full_lap_of_passes"


class BlockedScoring(StrEnum):
    """How a blocked round is scored."""

    PIPS = "pips"
    LOWEST_TO_ZERO = "lowest_to_zero"


class BlankScoring(StrEnum):
    """What blank halves count at scoring."""

    PIPS = "pips"
    DOUBLE_BLANK_50 = "double_blank_50"
    DOUBLE_BLANK_25 = "double_blank_25"
    BLANK_25_DOUBLE_BLANK_50 = "blank_25_double_blank_50"


class DeadDouble(StrEnum):
    """Whether a double nobody can ever cover still holds up play."""

    FREES_PLAY = "frees_play"
    BLOCKS_PLAY = "blocks_play"


class DealTable(StrEnum):
    """The named deal tables (``hand_size`` may also be an explicit table)."""

    CELKO = "celko"
    FUNDEX = "fundex"
    IDAHO_GOODSAM = "idaho_goodsam"
    OURPASTIMES = "ourpastimes"
    WIKIHOW = "wikihow"


DESCEND_FROM_MAX = "descend_from_max"
"""The usual ``schedule``: every double from the set's highest down to 0."""

UNLIMITED = "unlimited"
"""The ``doubles_per_turn`` value with no limit."""


Place = str | int | tuple[str, ...]
"""Where in a rule book a value is stated: a section's title, several sections' titles, a
wikiHow step number, or a plain phrase starting with "its " for a place with no title."""


@dataclass(frozen=True)
class Choice:
    """One value of a house rule, in players' words, with the texts that play it."""

    value: str | int | bool
    """The value as the contract writes it (an enum member's string, a number, a boolean)."""
    words: str
    """The value in words, completing "<the rule's title>: <words>"."""
    sources: tuple[str, ...]
    """The rule texts and programs that play this value, as survey codes of
    shared/rules/variants.md (B.3); the rule books behind the presets are found through the
    presets themselves. Empty when only those books, or none, state it."""


@dataclass(frozen=True)
class RuleKey:
    """One key of the referee contract, with everything players read about it."""

    name: str
    choices: tuple[object, ...] | None
    """Every allowed value (members of the key's enum, booleans or numbers), or None for keys
    whose values are checked by hand: numbers, deal tables and schedules."""
    help: str
    """One line a player can read on the setup page."""
    sources: str
    """Where the variants come from, as survey codes of shared/rules/variants.md, for the
    setup page's short citation."""
    scoring: bool = False
    """Whether the key changes what a round scores (so the scoresheet shows it first)."""
    title: str = ""
    """The rule's short name, e.g. "Covering your own double"."""
    question: str | None = None
    """The plain question the rule answers (``help`` where that already asks it)."""
    values: tuple[Choice, ...] = ()
    """Each named value in words with its sources (for deal tables: the named tables)."""
    sections: tuple[tuple[str, Place], ...] = ()
    """For each preset's rule book that states this rule: where it does."""
    standard_sources: tuple[str, ...] | str = ()
    """Why standard plays its value: survey codes or preset names, best first, or a phrase
    when no short list says it."""

    def choice(self, value: object) -> Choice | None:
        """The named value equal to ``value`` (type-sensitive: ``True`` is not ``1``)."""
        value = plain(value)
        for choice in self.values:
            if type(choice.value) is type(value) and choice.value == value:
                return choice
        return None

    def section(self, book: str) -> Place | None:
        """Where the preset ``book``'s rule book states this rule, if it does."""
        for name, place in self.sections:
            if name == book:
                return place
        return None


def plain(value: object) -> object:
    """A value in the contract's JSON form: enum members become their strings."""
    return value.value if isinstance(value, Enum) else value


_YES_NO = (True, False)
_NO_YES = (False, True)

RULE_KEYS: dict[str, RuleKey] = {
    "set_max": RuleKey(
        "set_max",
        (12, 6, 9, 15, 18),
        "The highest double in the set: 12 means a double-12 set of 91 tiles.",
        "S-01, S-11; seeds 001-004 all use double-12",
        title="The domino set",
        question="Which domino set do you play with, named by its highest double?",
        values=(
            Choice(12, "a double-12 set of 91 tiles", ("S-01",)),
            Choice(6, "a double-6 set of 28 tiles", ("S-01",)),
            Choice(9, "a double-9 set of 55 tiles", ("S-01", "S-11", "S-29")),
            Choice(15, "a double-15 set of 136 tiles", ("S-01", "S-11")),
            Choice(18, "a double-18 set of 190 tiles", ("S-01",)),
        ),
        sections=(
            ("hub_sheet", "Set Up"),
            ("wikihow", "its opening paragraphs"),
            ("fundex", "its equipment list"),
        ),
        standard_sources=(
            "all four rule books behind the other presets, each written for a double-12 set"
        ),
    ),
    "hand_size": RuleKey(
        "hand_size",
        None,
        "How many tiles each player is dealt, by the number of players.",
        "S-02 (Celko), seed 003 (Fundex), S-09, seed 001, seed 002",
        title="Tiles dealt to each player",
        question="How many tiles is each player dealt, for the number of players at the table?",
        values=(
            Choice("celko", "the Celko deal table", ("S-02", "S-25", "S-13", "S-14")),
            Choice("fundex", "the Fundex deal table", ("S-05", "S-19", "P-JA")),
            Choice("idaho_goodsam", "the Idaho Good Sam deal table", ("S-09",)),
            Choice("ourpastimes", "the Our Pastimes deal table", ("S-27",)),
            Choice("wikihow", "the wikiHow deal table", ()),
        ),
        sections=(("hub_sheet", "Set Up"), ("wikihow", 2), ("fundex", "Set Up")),
        standard_sources=("S-02", "S-13", "S-14"),
    ),
    "engine_source": RuleKey(
        "engine_source",
        tuple(EngineSource),
        (
            "How the round's engine double gets to the hub: set aside before the deal, or laid by "
            "whoever holds it."
        ),
        "S-01, S-13, seed 001; S-02, seed 002; S-09; S-14",
        title="Where the engine double comes from",
        question="How does each round's engine double get to the centre of the table?",
        values=(
            Choice(
                "set_aside",
                "the engine double is set aside before the deal",
                ("S-01", "S-13", "S-03", "S-22"),
            ),
            Choice(
                "holder_plays_draw_all",
                (
                    "whoever is dealt the engine double lays it; if nobody has it, everyone draws "
                    "at once until it turns up"
                ),
                ("S-09", "S-03", "P-JA"),
            ),
            Choice(
                "holder_plays_draw_in_turn",
                (
                    "whoever is dealt the engine double lays it; if nobody has it, players draw "
                    "one tile each in turn until it turns up"
                ),
                ("S-02", "S-29"),
            ),
            Choice(
                "next_highest_double",
                (
                    "whoever is dealt the engine double lays it; if nobody has it, the highest "
                    "double dealt becomes the engine"
                ),
                ("S-14", "S-18", "S-12", "P-JET"),
            ),
        ),
        sections=(("hub_sheet", "Set Up"), ("wikihow", 3), ("fundex", "Playing in rounds")),
        standard_sources=("S-01", "S-13", "S-22"),
    ),
    "round_leader": RuleKey(
        "round_leader",
        tuple(RoundLeader),
        "Who plays first each round: the next seat to the left each round, or the engine holder.",
        "S-12, seeds 001, 004; S-02, seed 002",
        title="Who leads each round",
        question="Who plays first in each round?",
        values=(
            Choice(
                "rotate_left",
                "the lead moves one seat to the left each round",
                ("S-12", "P-JA", "P-CM", "P-CD"),
            ),
            Choice(
                "engine_holder",
                "whoever holds or turns up the engine double leads",
                ("S-07", "S-02", "S-09", "S-14"),
            ),
        ),
        sections=(("hub_sheet", "Game Play"), ("wikihow", 3)),
        standard_sources=("S-12", "hub_sheet", "web_compilation"),
    ),
    "schedule": RuleKey(
        "schedule",
        None,
        "Which double is the engine in each round, normally 12, 11, ... down to 0.",
        "variants B.2 core 7; seeds 001-004",
        title="The engine double of each round",
        question="Which double is the engine in each round, and how many rounds are there?",
        values=(),
        sections=(("hub_sheet", "Game Play"), ("wikihow", 9), ("fundex", "Playing in rounds")),
        standard_sources=(
            "every rule text the app's authors surveyed, including all four rule books"
        ),
    ),
    "first_turn": RuleKey(
        "first_turn",
        tuple(FirstTurn),
        "On your first turn, may you lay a whole run on your own train, or only one tile?",
        "S-02, seed 001; S-05, seed 003 (Fundex)",
        title="The first turn",
        question="On your first turn, may you lay a whole run on your own train, or one tile?",
        values=(
            Choice(
                "multi_own_train",
                "you may lay a whole run of matching tiles on your own train",
                ("S-02", "S-04", "S-15", "S-14", "S-03", "S-22", "P-DC"),
            ),
            Choice(
                "single_tile",
                "one tile, like any other turn",
                ("S-05", "S-19", "S-09", "P-JA", "P-JET", "P-CH"),
            ),
        ),
        sections=(("hub_sheet", "First Turn"), ("wikihow", 5), ("fundex", "Play")),
        standard_sources=("S-02", "S-04", "S-03"),
    ),
    "first_turn_may_end_on_double": RuleKey(
        "first_turn_may_end_on_double",
        _YES_NO,
        "May your first-turn run end on a double that is left open for the table to cover?",
        "S-03, S-22; P-DC, P-CM",
        title="Ending the first turn on a double",
        values=(
            Choice(True, "allowed; the double stays open for the table to cover", ("S-03", "S-22")),
            Choice(
                False, "not allowed; a first-turn run may not finish on a double", ("P-DC", "P-CM")
            ),
        ),
        standard_sources=("S-03", "S-22"),
    ),
    "mexican_on_first_turn": RuleKey(
        "mexican_on_first_turn",
        _NO_YES,
        "May you start or play on the Mexican Train on your very first turn?",
        "S-20, S-22, seeds 001-004; S-09, S-27",
        title="The Mexican Train on your first turn",
        values=(
            Choice(
                False,
                "not allowed; your first turn is for your own train only",
                ("S-20", "S-22", "P-JA", "P-CM"),
            ),
            Choice(
                True,
                "allowed; you may use the Mexican Train on your first turn",
                ("S-09", "S-27", "S-28"),
            ),
        ),
        sections=(("hub_sheet", "Mexican Train"), ("wikihow", 5), ("fundex", "Play")),
        standard_sources=("S-20", "S-22", "hub_sheet", "wikihow"),
    ),
    "own_train_required_before_other_play": RuleKey(
        "own_train_required_before_other_play",
        _NO_YES,
        "Must your own train have a tile before you may play anywhere else?",
        "S-18, seed 003 (Fundex, as read); S-16, seeds 002, 004",
        title="Starting your own train first",
        values=(
            Choice(
                False,
                "not required; you may play elsewhere before your own train has a tile",
                ("S-16", "S-20"),
            ),
            Choice(
                True,
                "required; until your own train has a tile, starting it is your only play",
                ("S-18", "P-CH"),
            ),
        ),
        sections=(
            ("hub_sheet", "Subsequent Turns"),
            ("wikihow", 5),
            ("fundex", ("Play", "Mexican Train")),
        ),
        standard_sources=("S-16", "S-20"),
    ),
    "others_may_start_unstarted_marked_train": RuleKey(
        "others_may_start_unstarted_marked_train",
        _YES_NO,
        "If a player with a marker up has not started a train, may others start it for them?",
        "S-19, seed 004",
        title="Starting someone else's marked train",
        values=(
            Choice(
                True,
                "allowed; once your marker is up, others may lay the first tile of your train",
                ("S-19", "S-18"),
            ),
            Choice(False, "not allowed; only you may lay the first tile of your own train", ()),
        ),
        sections=(("hub_sheet", "Boneyard"),),
        standard_sources=("S-19", "S-18"),
    ),
    "double_followup": RuleKey(
        "double_followup",
        tuple(DoubleFollowup),
        (
            "After you play a double, must your extra tile cover it, may it go anywhere, or is "
            "there no extra tile?"
        ),
        "S-09, seeds 001, 003; S-10, seeds 002, 004; P-JA",
        title="Covering your own double",
        question="After you play a double, what must your next tile do?",
        values=(
            Choice(
                "must_cover_own_if_able",
                "the tile after your double must cover it if you can",
                ("S-09", "S-15", "S-21", "S-02", "S-04", "P-CM", "P-DC"),
            ),
            Choice(
                "anywhere",
                "the tile after a double may go anywhere",
                ("S-10", "S-17", "S-24", "S-28"),
            ),
            Choice("none", "a double ends your turn, with no tile after it", ("P-JA",)),
        ),
        sections=(("hub_sheet", "Double Domino"), ("wikihow", 6), ("fundex", "Doubles")),
        standard_sources=("S-02", "S-09"),
    ),
    "satisfy_scope": RuleKey(
        "satisfy_scope",
        tuple(SatisfyScope),
        "While a double is open, does all other play stop, only play on that train, or nothing?",
        "S-04, S-09, seeds 001-004; P-JA; S-21",
        title="An open double stops play",
        question="While a double is open, what play has to wait until it is covered?",
        values=(
            Choice(
                "table",
                "all play stops until it is covered",
                ("S-04", "S-15", "S-09", "S-17", "S-24", "P-CM", "P-JET", "P-CH"),
            ),
            Choice("train_only", "only that train waits; play goes on elsewhere", ("P-JA",)),
            Choice("none", "nothing stops; nobody has to cover it", ("S-21",)),
        ),
        sections=(("hub_sheet", "Double Domino"), ("wikihow", 6), ("fundex", "Doubles")),
        standard_sources=("S-04", "S-09", "S-15"),
    ),
    "doubles_per_turn": RuleKey(
        "doubles_per_turn",
        (UNLIMITED, 1),
        "How many doubles you may play in one turn.",
        "S-07, S-28, seeds 002, 004; S-23, seeds 001, 003",
        title="Doubles in one turn",
        question="How many doubles may you play in one turn?",
        values=(
            Choice(
                "unlimited",
                "as many as you can, each followed by one more tile",
                ("S-07", "S-28", "S-17"),
            ),
            Choice(1, "at most one double per turn", ("S-23",)),
        ),
        sections=(
            ("hub_sheet", ("Subsequent Turns", "Double Domino")),
            ("wikihow", 6),
            ("fundex", ("Play", "Doubles")),
        ),
        standard_sources=("S-07", "S-17", "S-28"),
    ),
    "satisfy_order": RuleKey(
        "satisfy_order",
        tuple(SatisfyOrder),
        "With several open doubles, which one must be covered first?",
        "S-17c, seeds 002, 004; S-17a, S-23; P-JET",
        title="Which open double comes first",
        values=(
            Choice("oldest_first", "the oldest open double is covered first", ("S-17", "P-CH")),
            Choice("newest_first", "the newest open double is covered first", ("S-17", "S-23")),
            Choice("any", "open doubles may be covered in any order", ("P-JET",)),
        ),
        sections=(("wikihow", 6),),
        standard_sources=("S-17", "wikihow", "web_compilation"),
    ),
    "draw_rule": RuleKey(
        "draw_rule",
        tuple(DrawRule),
        "When you cannot play: draw one tile and play it or pass, or keep drawing until you can.",
        "S-05, S-09, seeds 001-004; S-17a",
        title="Drawing when you cannot play",
        question="When you cannot play, how many tiles do you draw?",
        values=(
            Choice(
                "one_then_pass",
                "draw one tile; play it if it fits, otherwise put your marker up and pass",
                ("S-05", "S-09", "S-15", "S-14", "S-04"),
            ),
            Choice(
                "until_playable",
                "keep drawing until you can play or the boneyard runs out",
                ("S-17",),
            ),
        ),
        sections=(("hub_sheet", "Boneyard"), ("wikihow", 6), ("fundex", "Box Cars")),
        standard_sources=("S-09", "fundex", "S-14"),
    ),
    "must_play_if_able": RuleKey(
        "must_play_if_able",
        _YES_NO,
        "Must you play when you hold a tile that fits somewhere you may play?",
        "S-05, seeds 001, 003, 004; P-DC",
        title="Playing when you can",
        values=(
            Choice(
                True,
                "required; you may not draw or pass while you hold a tile you may play",
                ("S-05", "S-24", "P-JA", "P-CH"),
            ),
            Choice(False, "up to you; you may draw instead of playing", ("P-DC",)),
        ),
        sections=(("hub_sheet", "Boneyard"), ("wikihow", 6), ("fundex", "Play")),
        standard_sources=("fundex", "hub_sheet", "S-24"),
    ),
    "marker_removal": RuleKey(
        "marker_removal",
        tuple(MarkerRemoval),
        (
            "How your marker comes off: by itself when you play on your own train, or at your "
            "choice after any play."
        ),
        "S-17b, seeds 001, 003, 004; P-JA",
        title="Taking your marker off",
        question="How does your marker come off your train?",
        values=(
            Choice(
                "auto_on_own_train_play",
                "it comes off when you play on your own train",
                ("S-17", "S-09", "S-15"),
            ),
            Choice(
                "owner_choice_after_any_play",
                "you may take it off after any play of yours",
                ("P-JA",),
            ),
        ),
        sections=(("hub_sheet", "Boneyard"), ("fundex", "Other Players Trains")),
        standard_sources=("S-17", "S-09", "S-15"),
    ),
    "go_out_on_double": RuleKey(
        "go_out_on_double",
        tuple(GoOutOnDouble),
        "May a double be your last tile, ending the round, and at what cost to the others?",
        "S-28, seeds 001, 002, 004; P-CM; S-23",
        scoring=True,
        title="Going out on a double",
        values=(
            Choice(
                "allowed",
                "allowed, and the round ends at once",
                ("S-07", "S-28", "S-24", "P-JA", "P-JET"),
            ),
            Choice(
                "must_be_covered", "the round goes on until someone covers that double", ("P-CM",)
            ),
            Choice(
                "allowed_opponents_x2", "allowed, but the other players score double", ("S-23",)
            ),
        ),
        sections=(("hub_sheet", "Game Play"), ("wikihow", 6)),
        standard_sources=("S-07", "S-24", "S-28"),
    ),
    "first_turn_out": RuleKey(
        "first_turn_out",
        tuple(FirstTurnOut),
        "If someone goes out on their first turn, do the others still get their first turn?",
        "seed 001, S-23, P-DC",
        title="Going out on the first turn",
        values=(
            Choice(
                "others_finish_first_turn",
                "the others still take their first turn before the round ends",
                ("S-23", "P-DC"),
            ),
            Choice("round_ends", "the round ends at once", ()),
        ),
        sections=(("hub_sheet", "Boneyard"),),
        standard_sources=("hub_sheet", "S-23"),
    ),
    "last_tile_call": RuleKey(
        "last_tile_call",
        tuple(LastTileCall),
        "The penalty for not announcing (tapping) your last tile in time.",
        "S-08, seeds 003, 004; S-25; S-07, S-24; S-10",
        title="Announcing your last tile",
        question="What happens if you do not announce (tap) your last tile in time?",
        values=(
            Choice("draw2", "forgetting costs two tiles from the boneyard", ("S-08",)),
            Choice("none", "only a courtesy, with no penalty", ("S-10",)),
            Choice("draw1", "forgetting costs one tile from the boneyard", ("S-25",)),
            Choice(
                "draw2_and_skip",
                "forgetting costs two tiles from the boneyard and your next turn",
                ("S-07", "S-24"),
            ),
        ),
        sections=(("fundex", "Last Tile"),),
        standard_sources=("fundex", "S-08", "web_compilation"),
    ),
    "blocked_definition": RuleKey(
        "blocked_definition",
        tuple(BlockedDefinition),
        "When a round counts as blocked: nobody has any legal move, or a full lap of passes.",
        "S-24, seeds 003, 004; P-CM; P-JA",
        title="When a round is blocked",
        question="When is a round over because nobody can go on?",
        values=(
            Choice(
                "no_legal_move_anywhere",
                "the boneyard is empty and nobody has a tile they may play",
                ("S-07", "S-24", "P-CM"),
            ),
            Choice(
                "full_lap_of_passes",
                "the boneyard is empty and every player has passed in a row",
                ("P-JA",),
            ),
        ),
        sections=(("wikihow", 7), ("fundex", "Winning the Game")),
        standard_sources=("S-07", "S-24", "fundex"),
    ),
    "blocked_scoring": RuleKey(
        "blocked_scoring",
        tuple(BlockedScoring),
        "Scoring a blocked round: everyone counts pips, or the lowest hand scores 0.",
        "variants B.2 core 6; P-GG",
        scoring=True,
        title="Scoring a blocked round",
        question="How is a blocked round scored?",
        values=(
            Choice("pips", "everyone counts the pips left in hand, as usual", ()),
            Choice(
                "lowest_to_zero",
                "the lowest hand scores 0 and the others count their pips",
                ("P-GG",),
            ),
        ),
        sections=(("wikihow", 8), ("fundex", "Winning the Game")),
        standard_sources=(
            "every rule text the app's authors surveyed, including all four rule books"
        ),
    ),
    "blank_scoring": RuleKey(
        "blank_scoring",
        tuple(BlankScoring),
        (
            "What blanks cost at scoring: face value (0), or extra for the double-blank or every "
            "blank half."
        ),
        "seed 001; S-16, seed 004; S-25; S-24, seed 003 (Fundex)",
        scoring=True,
        title="What blanks count",
        question="What do blanks count when a hand is scored?",
        values=(
            Choice("pips", "face value, so a blank counts 0", ("P-JET", "P-CH", "P-DC", "P-EP")),
            Choice(
                "double_blank_50",
                "the double-blank counts 50; other blanks count 0",
                ("S-16", "P-CM", "P-JA"),
            ),
            Choice(
                "double_blank_25",
                "the double-blank counts 25; other blanks count 0",
                ("S-16", "S-25"),
            ),
            Choice(
                "blank_25_double_blank_50",
                "every blank half counts 25, and the double-blank 50",
                ("S-24", "P-JA"),
            ),
        ),
        sections=(("hub_sheet", "Scoring"), ("wikihow", 8), ("fundex", "Winning the Game")),
        standard_sources=(
            "every rule text the app's authors surveyed, including all four rule books, which "
            "agree on counting face value"
        ),
    ),
    "going_out_bonus": RuleKey(
        "going_out_bonus",
        None,
        "Points given to the player who goes out (negative, so it lowers their total).",
        "P-GG, P-EP",
        scoring=True,
        title="Bonus for going out",
        question="Does the player who goes out get points taken off their total?",
        values=(),
        standard_sources=(
            "all four rule books, none of which gives a bonus (bonuses come only from "
            "scorekeeping apps)"
        ),
    ),
    "open_marker_penalty": RuleKey(
        "open_marker_penalty",
        None,
        "Points added for each of your markers still up when the round ends.",
        "S-26",
        scoring=True,
        title="Penalty for markers left up",
        question="Do you pay points for each of your markers still up at the end?",
        values=(),
        standard_sources=(
            "all four rule books, none of which charges for markers left up (only an online score "
            "calculator does)"
        ),
    ),
    "blanks_wild": RuleKey(
        "blanks_wild",
        _NO_YES,
        "May a blank end match any number?",
        "S-16 (no); S-24, seed 004 (yes)",
        title="Wild blanks",
        values=(
            Choice(False, "no; a blank matches only a blank", ("S-16",)),
            Choice(True, "yes; a blank end matches any number", ("S-24",)),
        ),
        standard_sources=("S-16",),
    ),
    "dead_double": RuleKey(
        "dead_double",
        tuple(DeadDouble),
        (
            "If a double can never be covered (all its tiles are already played), does play go on "
            "elsewhere?"
        ),
        "seed 004; seeds 001-003 (as read)",
        title="A double nobody can cover",
        question="If an open double can never be covered, does it still hold up play?",
        values=(
            Choice("frees_play", "it stops holding up play", ()),
            Choice("blocks_play", "it still holds up play, until the round is blocked", ("P-JET",)),
        ),
        sections=(
            ("hub_sheet", "Double Domino"),
            ("wikihow", 6),
            ("fundex", "Doubles"),
            ("web_compilation", "does not restrict play"),
        ),
        standard_sources=(
            "the web compilation of Mexican Train rules (“does not restrict play”), the only rule "
            "text that covers the case"
        ),
    ),
    "double_branches": RuleKey(
        "double_branches",
        (1, 2, 3),
        "How many tiles a double takes before its train goes on (2 or 3: Chicken Foot style).",
        "S-01, S-24, P-JA",
        title="Tiles a double takes",
        question="How many tiles does a double take before its train goes on?",
        values=(
            Choice(1, "one tile covers it and the train goes on from there", ()),
            Choice(
                2, "two tiles branch from it before the train goes on", ("S-01", "S-24", "P-JA")
            ),
            Choice(3, "three tiles branch from it before the train goes on", ("S-24", "P-JA")),
        ),
        sections=(("hub_sheet", "Double Domino"), ("wikihow", 6), ("fundex", "Doubles")),
        standard_sources=("hub_sheet", "fundex"),
    ),
    "mexican_trains": RuleKey(
        "mexican_trains",
        (1, 2),
        "How many public Mexican Trains may be built in a round.",
        "S-15, seeds 001, 003, 004; S-21",
        title="How many Mexican Trains",
        question="How many Mexican Trains may be built in a round?",
        values=(
            Choice(1, "one Mexican Train per round", ("S-15", "S-12", "P-DC")),
            Choice(2, "up to two Mexican Trains per round, for big tables", ("S-21",)),
        ),
        sections=(("hub_sheet", "Mexican Train"), ("wikihow", 6), ("fundex", "Mexican Train")),
        standard_sources=("S-15", "S-12", "fundex"),
    ),
}
"""Every contract key, in the order the contract lists them."""

SOURCE_TITLES: dict[str, str] = {
    "S-01": "the Wikipedia article on Mexican Train",
    "S-02": "Joe Celko's Mexican Trains rules",
    "S-03": "John McLeod's Mexican Train rules",
    "S-04": "a summary of the Cardinal Industries rules",
    "S-05": "the Fundex Games rules as published online",
    "S-07": "the rules of the Mexican Train app (mexicantrain.com)",
    "S-08": "the Mexican Train Fun blog's advice on announcing your last tile",
    "S-09": "the Idaho Good Sam club's tournament rules",
    "S-10": "the Florida Good Sam club's Mexican Train rules",
    "S-11": "the Texas Good Sam club's rule sheet",
    "S-12": "the formal numbered rules at thegreves.com",
    "S-13": "the rules page of the Mexican Train Score App",
    "S-14": "the Behar set maker's how-to-play guide",
    "S-15": "the eHow-style guides to Mexican Train",
    "S-16": "the wikiHow questions and answers on Mexican Train",
    "S-17": "the reference.com articles on Mexican Train",
    "S-18": "the Tanglewood club's rules",
    "S-19": "a boxed-set rule sheet by an unnamed publisher",
    "S-20": "a reprinted rules text that bars the Mexican Train on the first turn",
    "S-21": "a retirees' club's “Dual Mexican Train” rules",
    "S-22": "the Netexl online Train Dominoes game",
    "S-23": "collected lists of house variants",
    "S-24": "question-and-answer pages on Mexican Train",
    "S-25": "a club rule sheet for Mexican Train and Chickenfoot",
    "S-26": "an online Mexican Train score calculator",
    "S-27": "the Our Pastimes instructions for double-twelve dominoes",
    "S-28": "a reprinted rules text that lets a last double end the round",
    "S-29": "a Dutch club's rules with their list of variations",
    # Other people's software: evidence that a value is played, never a rule book.
    "P-GG": "a Mexican Train scorekeeping app for iPhone",
    "P-EP": "an online Mexican Train scorekeeper",
    "P-JA": "an online multiplayer Mexican Train game",
    "P-CM": "a networked Mexican Train game for the browser",
    "P-JET": "an online Mexican Train game with computer players",
    "P-CH": "a Mexican Train game for iPhone",
    "P-DC": "a Mexican Train game for programmed players",
    "P-CD": "a Mexican Train score keeper for the browser",
}
"""The survey's rule texts (S-) and programs (P-) of shared/rules/variants.md by a title a
player can follow."""
