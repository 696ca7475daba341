"""House-rule presets: each is only a bundle of values for the referee contract's keys.

``standard`` is the project's documented default (docs/rules.md says where each value comes
from). The other presets follow the rule books in shared/rules/seeds.
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

PRESETS: dict[str, dict[str, Any]] = {
    "standard": STANDARD,
}
