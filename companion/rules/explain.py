"""Rulings a player can read: why an action is refused, and under which house rules it would
not be."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

from companion.rules import legality
from companion.rules.actions import Action
from companion.rules.rules import CHOICES, Rules, RulesError
from companion.rules.state import State


@dataclasses.dataclass(frozen=True, slots=True)
class Ruling:
    """The referee's word on one action in one position."""

    legal: bool
    rule: str | None
    """The deciding contract key or core rule id (``None`` when legal)."""
    reason: str
    """One sentence a player can read aloud."""
    allowed_under: tuple[Any, ...] = ()
    """Other values of ``rule`` under which the action would be legal."""


def explain(state: State, action: Action) -> Ruling:
    """Judges ``action`` now; for a refusal, also re-judges it under each other value of the
    deciding key."""
    refused = legality.refusal(state, action)
    if refused is None:
        return Ruling(True, None, "Legal.")
    rule, reason = refused
    return Ruling(False, rule, reason, tuple(alternatives(state, action, rule)))


def alternatives(state: State, action: Action, rule: str) -> list[Any]:
    """Values of ``rule`` (other than the current one) under which ``action`` is legal here."""
    return values_allowing(
        state.rules, rule, lambda other: legality.refusal(state.with_rules(other), action) is None
    )


def values_allowing(rules: Rules, rule: str, legal_under: Callable[[Rules], bool]) -> list[Any]:
    """The values of ``rule`` other than the current one for which ``legal_under`` holds, in
    the contract's order; ``legal_under`` is given ``rules`` with just that key changed.

    :func:`alternatives` asks this of one action in one position; the referee asks it of a
    whole turn replayed from its start.
    """
    choices = CHOICES.get(rule)
    if not choices:
        return []
    current = getattr(rules, rule)
    allowed = []
    for value in choices:
        if value == current and type(value) is type(current):
            continue
        try:
            other = replaced(rules, rule, value)
        except RulesError:
            continue
        if legal_under(other):
            allowed.append(value)
    return allowed


def replaced(rules: Rules, rule: str, value: Any) -> Rules:
    """``rules.replace(rule=value)``, remembered by value: the same few rule sets recur, query
    after query.

    :raises: :exc:`RulesError` if that value is not allowed with the other keys.
    """
    # The value's type is part of the key: True and 1 are equal but different rule values.
    return _replaced(rules, rule, value, type(value).__name__)


@functools.lru_cache(maxsize=4096)
def _replaced(rules: Rules, rule: str, value: Any, kind: str) -> Rules:
    return rules.replace(**{rule: value})
