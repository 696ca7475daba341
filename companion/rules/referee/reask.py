"""Asking a query again under each other value of one house rule.

A ruling that says what other house rules would decide may claim only what the judge says
when asked again under them: the whole query, of any kind, re-judged, never a guess from the
refused action alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.keys import plain
from companion.rules.referee.contract import KINDS, Answer, answer_turn
from companion.rules.referee.reading import QueryError
from companion.rules.rules import CHOICES, Rules, RulesError
from companion.rules.tiles import InvalidTileError

# The answer fields that make up each kind's verdict: a value "goes the other way" when any
# of them differs.
VERDICT_FIELDS: dict[str, tuple[str, ...]] = {
    "turn": ("legal",),
    "round_status": ("over",),
    "score": ("points",),
    "last_tile_call": ("draw", "skip_turn"),
    "setup": ("hand_size", "boneyard", "rounds", "engines", "leaders"),
}


def answers_under(query: Mapping[str, Any], rule: str) -> list[tuple[Any, Answer]]:
    """``(value, answer)`` for each value of ``rule`` other than the query's own, in the
    contract's order, the rest of the query unchanged. Values that cannot go with the query's
    other rules, or under which the query cannot be judged, are left out. A turn is judged
    without its own alternatives (only its verdict is wanted)."""
    choices = CHOICES.get(rule)
    kind = query.get("kind")
    raw_rules = query.get("rules")
    if not choices or not isinstance(kind, str) or not isinstance(raw_rules, dict):
        return []
    handler = KINDS.get(kind)
    if handler is None:
        return []
    try:
        current = getattr(Rules.from_json(raw_rules), rule)
    except (RulesError, AttributeError):
        return []
    answers: list[tuple[Any, Answer]] = []
    for value in choices:
        if value == current and type(value) is type(current):
            continue
        other = {**query, "rules": {**raw_rules, rule: plain(value)}}
        try:
            if kind == "turn":
                got = answer_turn(other, explain_alternatives=False)
            else:
                got = handler(other)
        except (QueryError, RulesError, InvalidTileError):
            continue
        answers.append((value, got))
    return answers


def verdict(kind: str, got: Mapping[str, Any]) -> tuple[Any, ...]:
    """The fields of an answer that make up its verdict."""
    return tuple(got.get(name) for name in VERDICT_FIELDS.get(kind, ()))


def other_way(
    query: Mapping[str, Any], got: Mapping[str, Any], rule: str
) -> list[tuple[Any, Answer]]:
    """The values of ``rule`` under which the query, asked again, gets another verdict than
    ``got`` (its answer under the query's own rules), with those answers."""
    kind = str(query.get("kind"))
    mine = verdict(kind, got)
    return [
        (value, other)
        for value, other in answers_under(query, rule)
        if verdict(kind, other) != mine
    ]
