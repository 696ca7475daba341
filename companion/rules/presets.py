"""House-rule presets: each is only a bundle of values for the referee contract's keys.

``standard`` is the project's documented default (docs/rules.md says where each value comes
from). The other presets follow the rule books in shared/rules/seeds, one preset per book.
Where a book says nothing about a key the preset keeps standard's value; ``SILENT_KEYS`` lists
those keys so a table knows which values are the book's and which are ours.
"""

from __future__ import annotations

from typing import Any

from companion.rules.keys import (
    DESCEND_FROM_MAX,
    RULE_KEYS,
    UNLIMITED,
    BlankScoring,
    BlockedDefinition,
    BlockedScoring,
    DeadDouble,
    DealTable,
    DoubleFollowup,
    DrawRule,
    EngineSource,
    FirstTurn,
    FirstTurnOut,
    GoOutOnDouble,
    LastTileCall,
    MarkerRemoval,
    RoundLeader,
    SatisfyOrder,
    SatisfyScope,
)

STANDARD: dict[str, Any] = {
    "set_max": 12,
    "hand_size": DealTable.CELKO,
    "engine_source": EngineSource.SET_ASIDE,
    "round_leader": RoundLeader.ROTATE_LEFT,
    "schedule": DESCEND_FROM_MAX,
    "first_turn": FirstTurn.MULTI_OWN_TRAIN,
    "first_turn_may_end_on_double": True,
    "mexican_on_first_turn": False,
    "own_train_required_before_other_play": False,
    "others_may_start_unstarted_marked_train": True,
    "double_followup": DoubleFollowup.MUST_COVER_OWN_IF_ABLE,
    "satisfy_scope": SatisfyScope.TABLE,
    "doubles_per_turn": UNLIMITED,
    "satisfy_order": SatisfyOrder.OLDEST_FIRST,
    "draw_rule": DrawRule.ONE_THEN_PASS,
    "must_play_if_able": True,
    "marker_removal": MarkerRemoval.AUTO_ON_OWN_TRAIN_PLAY,
    "go_out_on_double": GoOutOnDouble.ALLOWED,
    "first_turn_out": FirstTurnOut.OTHERS_FINISH_FIRST_TURN,
    "last_tile_call": LastTileCall.DRAW2,
    "blocked_definition": BlockedDefinition.NO_LEGAL_MOVE_ANYWHERE,
    "blocked_scoring": BlockedScoring.PIPS,
    "blank_scoring": BlankScoring.PIPS,
    "going_out_bonus": 0,
    "open_marker_penalty": 0,
    "blanks_wild": False,
    "dead_double": DeadDouble.FREES_PLAY,
    "double_branches": 1,
    "mexican_trains": 1,
}

# Each rule book below is written as where it differs from standard.

# Seed 001: a boxed-set rule sheet written around a plastic train hub ("MEXICAN TRAIN RULES").
HUB_SHEET: dict[str, Any] = {
    **STANDARD,
    "hand_size": DealTable.OURPASTIMES,
    "doubles_per_turn": 1,
    "dead_double": DeadDouble.BLOCKS_PLAY,
}

# Seed 002: the wikiHow step-by-step guide (a translation), with its "Advice" variants left out.
WIKIHOW: dict[str, Any] = {
    **STANDARD,
    "hand_size": DealTable.WIKIHOW,
    "engine_source": EngineSource.HOLDER_PLAYS_DRAW_IN_TURN,
    "round_leader": RoundLeader.ENGINE_HOLDER,
    "double_followup": DoubleFollowup.ANYWHERE,
    "dead_double": DeadDouble.BLOCKS_PLAY,
}

# Seed 003: Fundex Games' boxed-game instructions (2003), played as its "Playing in rounds"
# alternate because this app keeps a 13-round scoresheet.
FUNDEX: dict[str, Any] = {
    **STANDARD,
    "hand_size": DealTable.FUNDEX,
    "first_turn": FirstTurn.SINGLE_TILE,
    "own_train_required_before_other_play": True,
    "doubles_per_turn": 1,
    "blank_scoring": BlankScoring.BLANK_25_DOUBLE_BLANK_50,
    "dead_double": DeadDouble.BLOCKS_PLAY,
}

# Seed 004: a scraped web page ("mexican train rules 4 players") stitched from several rule
# texts; where its fragments disagree, docs/rules.md says which one we followed and why.
WEB_COMPILATION: dict[str, Any] = {
    **STANDARD,
    "hand_size": {"2": 15, "3": 15, "4": 15, "5": 12, "6": 12, "7": 10, "8": 10, "9": 8, "10": 8},
    "double_followup": DoubleFollowup.ANYWHERE,
    "blank_scoring": BlankScoring.DOUBLE_BLANK_50,
    "blanks_wild": True,
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

# key -> (one line a player can read on the setup page, where the rule's variants come from);
# kept for callers that read both at once. Each key's own entry in RULE_KEYS is the source.
RULE_HELP: dict[str, tuple[str, str]] = {
    key: (rule.help, rule.sources) for key, rule in RULE_KEYS.items()
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
