"""The Mexican Train rules engine: tiles, house rules, scoring, setup and the referee.

Pure Python; it imports nothing else of the project.
"""

from __future__ import annotations

from companion.rules.actions import (
    END,
    MEXICAN,
    MEXICAN2,
    REMOVE_MARKER,
    Action,
    Draw,
    End,
    EndReason,
    IllegalActionError,
    Outcome,
    Play,
    RemoveMarker,
    RoundOverError,
    Status,
    StatusReason,
    TrainId,
)
from companion.rules.explain import Ruling, explain
from companion.rules.presets import PRESETS, STANDARD
from companion.rules.referee import QueryError, answer, answer_all
from companion.rules.rules import CHOICES, DEAL_TABLES, KEYS, Rules, RulesError
from companion.rules.scoring import (
    HandScore,
    max_hand_points,
    score_counted,
    score_hand,
    tile_points,
)
from companion.rules.setup import Deal, deal, hand_size, leaders, schedule
from companion.rules.state import LegalActions, Snapshot, State
from companion.rules.table import PositionError, Table, TrainSpec
from companion.rules.tiles import (
    HandStatus,
    InvalidTileError,
    Tile,
    check_hand,
    full_set,
    set_size,
)

__all__ = [
    "END",
    "MEXICAN",
    "MEXICAN2",
    "REMOVE_MARKER",
    "Action",
    "Draw",
    "End",
    "EndReason",
    "IllegalActionError",
    "LegalActions",
    "Outcome",
    "Play",
    "PositionError",
    "QueryError",
    "RemoveMarker",
    "RoundOverError",
    "Ruling",
    "Snapshot",
    "State",
    "Status",
    "StatusReason",
    "Table",
    "TrainId",
    "TrainSpec",
    "answer",
    "answer_all",
    "explain",
    "CHOICES",
    "DEAL_TABLES",
    "KEYS",
    "PRESETS",
    "STANDARD",
    "Deal",
    "HandScore",
    "HandStatus",
    "InvalidTileError",
    "Rules",
    "RulesError",
    "Tile",
    "check_hand",
    "deal",
    "full_set",
    "hand_size",
    "leaders",
    "max_hand_points",
    "schedule",
    "score_counted",
    "score_hand",
    "set_size",
    "tile_points",
]
