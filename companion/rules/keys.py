"""Every house rule, defined once: its values, its help line, its sources, and whether it
changes scores.

The referee contract (shared/spec/referee.md) names each rule by a key and each choice by a
string. Here each key with named choices gets a ``StrEnum`` of them, so code compares against
members (``SatisfyScope.TABLE``) rather than loose strings, while JSON still reads and writes
the contract's plain strings (a ``StrEnum`` member is a ``str``). ``RULE_KEYS`` lists every key in
the contract's order with its choices; :mod:`companion.rules.rules` builds and checks
:class:`~companion.rules.rules.Rules` from it, and :mod:`companion.rules.describe` puts it into
players' words.
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


@dataclass(frozen=True)
class RuleKey:
    """One key of the referee contract."""

    name: str
    choices: tuple[object, ...] | None
    """Every allowed value (members of the key's enum, booleans or numbers), or None for keys
    whose values are checked by hand: numbers, deal tables and schedules."""
    help: str
    """One line a player can read on the setup page."""
    sources: str
    """Where the variants come from, as survey codes of shared/rules/variants.md (players see
    them as titles through :mod:`companion.rules.describe`)."""
    scoring: bool = False
    """Whether the key changes what a round scores (so the scoresheet shows it first)."""


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
    ),
    "hand_size": RuleKey(
        "hand_size",
        None,
        "How many tiles each player is dealt, by the number of players.",
        "S-02 (Celko), seed 003 (Fundex), S-09, seed 001, seed 002",
    ),
    "engine_source": RuleKey(
        "engine_source",
        tuple(EngineSource),
        (
            "How the round's engine double gets to the hub: set aside before the deal, or laid by "
            "whoever holds it."
        ),
        "S-01, S-13, seed 001; S-02, seed 002; S-09; S-14",
    ),
    "round_leader": RuleKey(
        "round_leader",
        tuple(RoundLeader),
        "Who plays first each round: the next seat to the left each round, or the engine holder.",
        "S-12, seeds 001, 004; S-02, seed 002",
    ),
    "schedule": RuleKey(
        "schedule",
        None,
        "Which double is the engine in each round, normally 12, 11, ... down to 0.",
        "variants B.2 core 7; seeds 001-004",
    ),
    "first_turn": RuleKey(
        "first_turn",
        tuple(FirstTurn),
        "On your first turn, may you lay a whole run on your own train, or only one tile?",
        "S-02, seed 001; S-05, seed 003 (Fundex)",
    ),
    "first_turn_may_end_on_double": RuleKey(
        "first_turn_may_end_on_double",
        _YES_NO,
        "May your first-turn run end on a double that is left open for the table to cover?",
        "S-03, S-22; P-DC, P-CM",
    ),
    "mexican_on_first_turn": RuleKey(
        "mexican_on_first_turn",
        _NO_YES,
        "May you start or play on the Mexican Train on your very first turn?",
        "S-20, S-22, seeds 001-004; S-09, S-27",
    ),
    "own_train_required_before_other_play": RuleKey(
        "own_train_required_before_other_play",
        _NO_YES,
        "Must your own train have a tile before you may play anywhere else?",
        "S-18, seed 003 (Fundex, as read); S-16, seeds 002, 004",
    ),
    "others_may_start_unstarted_marked_train": RuleKey(
        "others_may_start_unstarted_marked_train",
        _YES_NO,
        "If a player with a marker up has not started a train, may others start it for them?",
        "S-19, seed 004",
    ),
    "double_followup": RuleKey(
        "double_followup",
        tuple(DoubleFollowup),
        (
            "After you play a double, must your extra tile cover it, may it go anywhere, or is "
            "there no extra tile?"
        ),
        "S-09, seeds 001, 003; S-10, seeds 002, 004; P-JA",
    ),
    "satisfy_scope": RuleKey(
        "satisfy_scope",
        tuple(SatisfyScope),
        "While a double is open, does all other play stop, only play on that train, or nothing?",
        "S-04, S-09, seeds 001-004; P-JA; S-21",
    ),
    "doubles_per_turn": RuleKey(
        "doubles_per_turn",
        (UNLIMITED, 1),
        "How many doubles you may play in one turn.",
        "S-07, S-28, seeds 002, 004; S-23, seeds 001, 003",
    ),
    "satisfy_order": RuleKey(
        "satisfy_order",
        tuple(SatisfyOrder),
        "With several open doubles, which one must be covered first?",
        "S-17c, seeds 002, 004; S-17a, S-23; P-JET",
    ),
    "draw_rule": RuleKey(
        "draw_rule",
        tuple(DrawRule),
        "When you cannot play: draw one tile and play it or pass, or keep drawing until you can.",
        "S-05, S-09, seeds 001-004; S-17a",
    ),
    "must_play_if_able": RuleKey(
        "must_play_if_able",
        _YES_NO,
        "Must you play when you hold a tile that fits somewhere you may play?",
        "S-05, seeds 001, 003, 004; P-DC",
    ),
    "marker_removal": RuleKey(
        "marker_removal",
        tuple(MarkerRemoval),
        (
            "How your marker comes off: by itself when you play on your own train, or at your "
            "choice after any play."
        ),
        "S-17b, seeds 001, 003, 004; P-JA",
    ),
    "go_out_on_double": RuleKey(
        "go_out_on_double",
        tuple(GoOutOnDouble),
        "May a double be your last tile, ending the round, and at what cost to the others?",
        "S-28, seeds 001, 002, 004; P-CM; S-23",
        scoring=True,
    ),
    "first_turn_out": RuleKey(
        "first_turn_out",
        tuple(FirstTurnOut),
        "If someone goes out on their first turn, do the others still get their first turn?",
        "seed 001, S-23, P-DC",
    ),
    "last_tile_call": RuleKey(
        "last_tile_call",
        tuple(LastTileCall),
        "The penalty for not announcing (tapping) your last tile in time.",
        "S-08, seeds 003, 004; S-25; S-07, S-24; S-10",
    ),
    "blocked_definition": RuleKey(
        "blocked_definition",
        tuple(BlockedDefinition),
        "When a round counts as blocked: nobody has any legal move, or a full lap of passes.",
        "S-24, seeds 003, 004; P-CM; P-JA",
    ),
    "blocked_scoring": RuleKey(
        "blocked_scoring",
        tuple(BlockedScoring),
        "Scoring a blocked round: everyone counts pips, or the lowest hand scores 0.",
        "variants B.2 core 6; P-GG",
        scoring=True,
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
    ),
    "going_out_bonus": RuleKey(
        "going_out_bonus",
        None,
        "Points given to the player who goes out (negative, so it lowers their total).",
        "P-GG, P-EP",
        scoring=True,
    ),
    "open_marker_penalty": RuleKey(
        "open_marker_penalty",
        None,
        "Points added for each of your markers still up when the round ends.",
        "S-26",
        scoring=True,
    ),
    "blanks_wild": RuleKey(
        "blanks_wild",
        _NO_YES,
        "May a blank end match any number?",
        "S-16 (no); S-24, seed 004 (yes)",
    ),
    "dead_double": RuleKey(
        "dead_double",
        tuple(DeadDouble),
        (
            "If a double can never be covered (all its tiles are already played), does play go on "
            "elsewhere?"
        ),
        "seed 004; seeds 001-003 (as read)",
    ),
    "double_branches": RuleKey(
        "double_branches",
        (1, 2, 3),
        "How many tiles a double takes before its train goes on (2 or 3: Chicken Foot style).",
        "S-01, S-24, P-JA",
    ),
    "mexican_trains": RuleKey(
        "mexican_trains",
        (1, 2),
        "How many public Mexican Trains may be built in a round.",
        "S-15, seeds 001, 003, 004; S-21",
    ),
}
"""Every contract key, in the order the contract lists them."""
