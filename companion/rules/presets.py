"""House-rule presets: each is only a bundle of values for the referee contract's keys.

``standard`` is the project's documented default (docs/rules.md says where each value comes
from). The other presets follow the rule books in shared/rules/seeds, one preset per book.
Where a book says nothing about a key the preset keeps standard's value; docs/rules.md lists
those keys as "silent" so a table knows which values are the book's and which are ours.
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
    "first_turn_may_end_on_double": True,  # silent
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": False,
    "others_may_start_unstarted_marked_train": True,
    "double_followup": "must_cover_own_if_able",
    "satisfy_scope": "table",
    "doubles_per_turn": 1,
    "satisfy_order": "oldest_first",  # silent
    "draw_rule": "one_then_pass",
    "must_play_if_able": True,
    "marker_removal": "auto_on_own_train_play",
    "go_out_on_double": "allowed",
    "first_turn_out": "others_finish_first_turn",
    "last_tile_call": "draw2",  # silent
    "blocked_definition": "no_legal_move_anywhere",  # silent
    "blocked_scoring": "pips",
    "blank_scoring": "pips",
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": False,  # silent
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
    "first_turn_may_end_on_double": True,  # silent
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": False,
    "others_may_start_unstarted_marked_train": True,  # silent
    "double_followup": "anywhere",
    "satisfy_scope": "table",
    "doubles_per_turn": "unlimited",
    "satisfy_order": "oldest_first",
    "draw_rule": "one_then_pass",
    "must_play_if_able": True,
    "marker_removal": "auto_on_own_train_play",  # silent
    "go_out_on_double": "allowed",
    "first_turn_out": "others_finish_first_turn",  # silent
    "last_tile_call": "draw2",  # silent
    "blocked_definition": "no_legal_move_anywhere",
    "blocked_scoring": "pips",
    "blank_scoring": "pips",
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": False,  # silent
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
    "round_leader": "rotate_left",  # silent for the rounds game
    "schedule": "descend_from_max",
    "first_turn": "single_tile",
    "first_turn_may_end_on_double": True,  # silent
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": True,
    "others_may_start_unstarted_marked_train": True,  # silent
    "double_followup": "must_cover_own_if_able",
    "satisfy_scope": "table",
    "doubles_per_turn": 1,
    "satisfy_order": "oldest_first",  # silent
    "draw_rule": "one_then_pass",
    "must_play_if_able": True,
    "marker_removal": "auto_on_own_train_play",
    "go_out_on_double": "allowed",  # silent
    "first_turn_out": "others_finish_first_turn",  # silent
    "last_tile_call": "draw2",
    "blocked_definition": "no_legal_move_anywhere",
    "blocked_scoring": "pips",
    "blank_scoring": "blank_25_double_blank_50",
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": False,  # silent
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
    "first_turn_may_end_on_double": True,  # silent
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
    "first_turn_out": "others_finish_first_turn",  # silent
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
