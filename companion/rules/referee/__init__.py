"""The referee contract (shared/spec/referee.md): JSON queries in, JSON answers out.

- :mod:`.reading` reads a query into a typed query object (:class:`TurnQuery`, ...), raising
  :exc:`QueryError` naming the field at fault;
- :mod:`.judging` judges it (:func:`judge_turn` returns a :class:`TurnRuling`);
- :mod:`.writing` writes the answer, and writes positions as queries;
- :mod:`.contract` puts them together: :func:`answer`, :func:`answer_all`, :func:`answer_text`.
"""

from __future__ import annotations

from companion.rules.referee.contract import (
    KINDS,
    Answer,
    answer,
    answer_all,
    answer_last_tile_call,
    answer_round_status,
    answer_score,
    answer_setup,
    answer_text,
    answer_turn,
    build_state,
    gc_paused,
    read_in_order,
    report_earlier_fault,
)
from companion.rules.referee.judging import TurnRuling, judge_round_status, judge_turn
from companion.rules.referee.reading import (
    LastTileCallQuery,
    QueryError,
    RoundStatusQuery,
    ScoreQuery,
    SetupQuery,
    TurnQuery,
    last_tile_call_source,
    read_round_status,
    read_turn,
    round_status_source,
    score_source,
    setup_source,
    turn_source,
)
from companion.rules.referee.writing import (
    action_json,
    round_status_query,
    table_json,
    turn_query,
)

__all__ = [
    "KINDS",
    "Answer",
    "LastTileCallQuery",
    "QueryError",
    "RoundStatusQuery",
    "ScoreQuery",
    "SetupQuery",
    "TurnQuery",
    "TurnRuling",
    "action_json",
    "answer",
    "answer_all",
    "answer_last_tile_call",
    "answer_round_status",
    "answer_score",
    "answer_setup",
    "answer_text",
    "answer_turn",
    "build_state",
    "gc_paused",
    "read_in_order",
    "report_earlier_fault",
    "judge_round_status",
    "judge_turn",
    "read_round_status",
    "read_turn",
    "turn_source",
    "round_status_source",
    "score_source",
    "setup_source",
    "last_tile_call_source",
    "round_status_query",
    "table_json",
    "turn_query",
]
