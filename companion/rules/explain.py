"""Rulings a player can read: why an action is refused, and under which house rules it would
not be."""

from __future__ import annotations

import dataclasses
from typing import Any

from companion.rules import legality
from companion.rules.actions import Action
from companion.rules.rules import CHOICES, RulesError
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
    choices = CHOICES.get(rule)
    if not choices:
        return []
    current = getattr(state.rules, rule)
    allowed = []
    for value in choices:
        if value == current and type(value) is type(current):
            continue
        try:
            other = state.with_rules(state.rules.replace(**{rule: value}))
        except RulesError:
            continue
        if legality.refusal(other, action) is None:
            allowed.append(value)
    return allowed
