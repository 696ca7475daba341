"""House-rule presets: each is only a bundle of values for the referee contract's keys.

``standard`` is the project's documented default (docs/rules.md says where each value comes
from). The other presets follow the rule books in shared/rules/seeds, one preset per book.
Where a book says nothing about a key the preset keeps standard's value; ``SILENT_KEYS`` lists
those keys so a table knows which values are the book's and which are ours.
"""

from __future__ import annotations

from typing import Any

STANDARD: dict[str, Any] = {
    "set_max": 12,
    "hand_size": "celko",
    "engine_source": "set_aside",
    "round_leader": "rotate_left",
    "schedule": "descend_from_max",
    "first_turn": "multi_own_train",
    "first_turn_may_end_on_double": True,
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": False,
    "others_may_start_unstarted_marked_train": True,
    "double_followup": "must_cover_own_if_able",
    "satisfy_scope": "table",
    "doubles_per_turn": "unlimited",
    "satisfy_order": "oldest_first",
    "draw_rule": "one_then_pass",
    "must_play_if_able": True,
    "marker_removal": "auto_on_own_train_play",
    "go_out_on_double": "allowed",
    "first_turn_out": "others_finish_first_turn",
    "last_tile_call": "draw2",
    "blocked_definition": "no_legal_move_anywhere",
    "blocked_scoring": "pips",
    "blank_scoring": "pips",
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": False,
    "dead_double": "frees_play",
    "double_branches": 1,
    "mexican_trains": 1,
}

# Seed 001: a boxed-set rule sheet written around a plastic train hub ("MEXICAN TRAIN RULES").
HUB_SHEET: dict[str, Any] = {
    "set_max": 12,
    "hand_size": "ourpastimes",
    "engine_source": "set_aside",
    "round_leader": "rotate_left",
    "schedule": "descend_from_max",
    "first_turn": "multi_own_train",
    "first_turn_may_end_on_double": True,
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": False,
    "others_may_start_unstarted_marked_train": True,
    "double_followup": "must_cover_own_if_able",
    "satisfy_scope": "table",
    "doubles_per_turn": 1,
    "satisfy_order": "oldest_first",
    "draw_rule": "one_then_pass",
    "must_play_if_able": True,
    "marker_removal": "auto_on_own_train_play",
    "go_out_on_double": "allowed",
    "first_turn_out": "others_finish_first_turn",
    "last_tile_call": "draw2",
    "blocked_definition": "no_legal_move_anywhere",
    "blocked_scoring": "pips",
    "blank_scoring": "pips",
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": False,
    "dead_double": "blocks_play",
    "double_branches": 1,
    "mexican_trains": 1,
}

# Seed 002: the wikiHow step-by-step guide (a translation), with its "Advice" variants left out.
WIKIHOW: dict[str, Any] = {
    "set_max": 12,
    "hand_size": "wikihow",
    "engine_source": "holder_plays_draw_in_turn",
    "round_leader": "engine_holder",
    "schedule": "descend_from_max",
    "first_turn": "multi_own_train",
    "first_turn_may_end_on_double": True,
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": False,
    "others_may_start_unstarted_marked_train": True,
    "double_followup": "anywhere",
    "satisfy_scope": "table",
    "doubles_per_turn": "unlimited",
    "satisfy_order": "oldest_first",
    "draw_rule": "one_then_pass",
    "must_play_if_able": True,
    "marker_removal": "auto_on_own_train_play",
    "go_out_on_double": "allowed",
    "first_turn_out": "others_finish_first_turn",
    "last_tile_call": "draw2",
    "blocked_definition": "no_legal_move_anywhere",
    "blocked_scoring": "pips",
    "blank_scoring": "pips",
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": False,
    "dead_double": "blocks_play",
    "double_branches": 1,
    "mexican_trains": 1,
}

# Seed 003: Fundex Games' boxed-game instructions (2003), played as its "Playing in rounds"
# alternate because this app keeps a 13-round scoresheet.
FUNDEX: dict[str, Any] = {
    "set_max": 12,
    "hand_size": "fundex",
    "engine_source": "set_aside",
    "round_leader": "rotate_left",
    "schedule": "descend_from_max",
    "first_turn": "single_tile",
    "first_turn_may_end_on_double": True,
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": True,
    "others_may_start_unstarted_marked_train": True,
    "double_followup": "must_cover_own_if_able",
    "satisfy_scope": "table",
    "doubles_per_turn": 1,
    "satisfy_order": "oldest_first",
    "draw_rule": "one_then_pass",
    "must_play_if_able": True,
    "marker_removal": "auto_on_own_train_play",
    "go_out_on_double": "allowed",
    "first_turn_out": "others_finish_first_turn",
    "last_tile_call": "draw2",
    "blocked_definition": "no_legal_move_anywhere",
    "blocked_scoring": "pips",
    "blank_scoring": "blank_25_double_blank_50",
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": False,
    "dead_double": "blocks_play",
    "double_branches": 1,
    "mexican_trains": 1,
}

# Seed 004: a scraped web page ("mexican train rules 4 players") stitched from several rule
# texts; where its fragments disagree, docs/rules.md says which one we followed and why.
WEB_COMPILATION: dict[str, Any] = {
    "set_max": 12,
    "hand_size": {"2": 15, "3": 15, "4": 15, "5": 12, "6": 12, "7": 10, "8": 10, "9": 8, "10": 8},
    "engine_source": "set_aside",
    "round_leader": "rotate_left",
    "schedule": "descend_from_max",
    "first_turn": "multi_own_train",
    "first_turn_may_end_on_double": True,
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": False,
    "others_may_start_unstarted_marked_train": True,
    "double_followup": "anywhere",
    "satisfy_scope": "table",
    "doubles_per_turn": "unlimited",
    "satisfy_order": "oldest_first",
    "draw_rule": "one_then_pass",
    "must_play_if_able": True,
    "marker_removal": "auto_on_own_train_play",
    "go_out_on_double": "allowed",
    "first_turn_out": "others_finish_first_turn",
    "last_tile_call": "draw2",
    "blocked_definition": "no_legal_move_anywhere",
    "blocked_scoring": "pips",
    "blank_scoring": "double_blank_50",
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": True,
    "dead_double": "frees_play",
    "double_branches": 1,
    "mexican_trains": 1,
}

PRESETS: dict[str, dict[str, Any]] = {
    "standard": STANDARD,
    "hub_sheet": HUB_SHEET,
    "wikihow": WIKIHOW,
    "fundex": FUNDEX,
    "web_compilation": WEB_COMPILATION,
}

PRESET_TITLES: dict[str, str] = {
    "standard": "Standard (this project's default)",
    "hub_sheet": "Train-hub set rule sheet (seed 001)",
    "wikihow": "wikiHow step-by-step guide (seed 002)",
    "fundex": "Fundex boxed game, played in 13 rounds (seed 003)",
    "web_compilation": "Web rules compilation (seed 004)",
}

# key -> (one line a player can read on the setup page, where the rule's variants come from).
# Source codes are those of shared/rules/variants.md; docs/rules.md gives the full story.
RULE_HELP: dict[str, tuple[str, str]] = {
    "set_max": (
        "The highest double in the set: 12 means a double-12 set of 91 tiles.",
        "S-01, S-11; seeds 001-004 all use double-12",
    ),
    "hand_size": (
        "How many tiles each player is dealt, by the number of players.",
        "S-02 (Celko), seed 003 (Fundex), S-09, seed 001, seed 002",
    ),
    "engine_source": (
        "How the round's engine double gets to the hub: set aside before the deal, "
        "or laid by whoever holds it.",
        "S-01, S-13, seed 001; S-02, seed 002; S-09; S-14",
    ),
    "round_leader": (
        "Who plays first each round: the next seat to the left each round, or the engine holder.",
        "S-12, seeds 001, 004; S-02, seed 002",
    ),
    "schedule": (
        "Which double is the engine in each round, normally 12, 11, ... down to 0.",
        "variants B.2 core 7; seeds 001-004",
    ),
    "first_turn": (
        "On your first turn, may you lay a whole run on your own train, or only one tile?",
        "S-02, seed 001; S-05, seed 003 (Fundex)",
    ),
    "first_turn_may_end_on_double": (
        "May your first-turn run end on a double that is left open for the table to cover?",
        "S-03, S-22; P-DC, P-CM",
    ),
    "mexican_on_first_turn": (
        "May you start or play on the Mexican Train on your very first turn?",
        "S-20, S-22, seeds 001-004; S-09, S-27",
    ),
    "own_train_required_before_other_play": (
        "Must your own train have a tile before you may play anywhere else?",
        "S-18, seed 003 (Fundex, as read); S-16, seeds 002, 004",
    ),
    "others_may_start_unstarted_marked_train": (
        "If a player with a marker up has not started a train, may others start it for them?",
        "S-19, seed 004",
    ),
    "double_followup": (
        "After you play a double, must your extra tile cover it, may it go anywhere, "
        "or is there no extra tile?",
        "S-09, seeds 001, 003; S-10, seeds 002, 004; P-JA",
    ),
    "satisfy_scope": (
        "While a double is open, does all other play stop, only play on that train, or nothing?",
        "S-04, S-09, seeds 001-004; P-JA; S-21",
    ),
    "doubles_per_turn": (
        "How many doubles you may play in one turn.",
        "S-07, S-28, seeds 002, 004; S-23, seeds 001, 003",
    ),
    "satisfy_order": (
        "With several open doubles, which one must be covered first?",
        "S-17c, seeds 002, 004; S-17a, S-23; P-JET",
    ),
    "draw_rule": (
        "When you cannot play: draw one tile and play it or pass, or keep drawing until you can.",
        "S-05, S-09, seeds 001-004; S-17a",
    ),
    "must_play_if_able": (
        "Must you play when you hold a tile that fits somewhere you may play?",
        "S-05, seeds 001, 003, 004; P-DC",
    ),
    "marker_removal": (
        "How your marker comes off: by itself when you play on your own train, "
        "or at your choice after any play.",
        "S-17b, seeds 001, 003, 004; P-JA",
    ),
    "go_out_on_double": (
        "May a double be your last tile, ending the round, and at what cost to the others?",
        "S-28, seeds 001, 002, 004; P-CM; S-23",
    ),
    "first_turn_out": (
        "If someone goes out on their first turn, do the others still get their first turn?",
        "seed 001, S-23, P-DC",
    ),
    "last_tile_call": (
        "The penalty for not announcing (tapping) your last tile in time.",
        "S-08, seeds 003, 004; S-25; S-07, S-24; S-10",
    ),
    "blocked_definition": (
        "When a round counts as blocked: nobody has any legal move, or a full lap of passes.",
        "S-24, seeds 003, 004; P-CM; P-JA",
    ),
    "blocked_scoring": (
        "Scoring a blocked round: everyone counts pips, or the lowest hand scores 0.",
        "variants B.2 core 6; P-GG",
    ),
    "blank_scoring": (
        "What blanks cost at scoring: face value (0), or extra for the double-blank "
        "or every blank half.",
        "seed 001; S-16, seed 004; S-25; S-24, seed 003 (Fundex)",
    ),
    "going_out_bonus": (
        "Points given to the player who goes out (negative, so it lowers their total).",
        "P-GG, P-EP",
    ),
    "open_marker_penalty": (
        "Points added for each of your markers still up when the round ends.",
        "S-26",
    ),
    "blanks_wild": (
        "May a blank end match any number?",
        "S-16 (no); S-24, seed 004 (yes)",
    ),
    "dead_double": (
        "If a double can never be covered (all its tiles are already played), "
        "does play go on elsewhere?",
        "seed 004; seeds 001-003 (as read)",
    ),
    "double_branches": (
        "How many tiles a double takes before its train goes on (2 or 3: Chicken Foot style).",
        "S-01, S-24, P-JA",
    ),
    "mexican_trains": (
        "How many public Mexican Trains may be built in a round.",
        "S-15, seeds 001, 003, 004; S-21",
    ),
}

# Keys on which a preset's rule book says nothing, so the preset keeps standard's value.
# The setup page can flag these; docs/rules.md marks them with a dagger.
SILENT_KEYS: dict[str, frozenset[str]] = {
    "standard": frozenset(),
    "hub_sheet": frozenset(
        {
            "first_turn_may_end_on_double",
            "satisfy_order",
            "last_tile_call",
            "blocked_definition",
            "blocked_scoring",
            "going_out_bonus",
            "open_marker_penalty",
            "blanks_wild",
        }
    ),
    "wikihow": frozenset(
        {
            "first_turn_may_end_on_double",
            "others_may_start_unstarted_marked_train",
            "marker_removal",
            "first_turn_out",
            "last_tile_call",
            "going_out_bonus",
            "open_marker_penalty",
            "blanks_wild",
        }
    ),
    "fundex": frozenset(
        {
            "round_leader",
            "first_turn_may_end_on_double",
            "others_may_start_unstarted_marked_train",
            "satisfy_order",
            "go_out_on_double",
            "first_turn_out",
            "going_out_bonus",
            "open_marker_penalty",
            "blanks_wild",
        }
    ),
    "web_compilation": frozenset(
        {
            "first_turn_may_end_on_double",
            "first_turn_out",
            "going_out_bonus",
            "open_marker_penalty",
        }
    ),
}
