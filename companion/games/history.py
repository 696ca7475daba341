"""Plain-words descriptions of history entries for the scoresheet page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .entry import ScoreEntry
from .models import Change
from .ruleform import rule_title, value_label

NOTHING = "—"


def entry_summary(stored: Mapping[str, Any] | None) -> str:
    """Describe one player's stored entry as it was typed, tapped or picked."""
    if not stored:
        return NOTHING
    entry = ScoreEntry.from_json(stored)
    hand = entry.hand
    if hand is not None:
        text = "tiles " + " ".join(str(tile) for tile in hand) if hand else "no tiles (out)"
    elif entry.went_out:
        text = "went out"
    else:
        text = str(entry.points if entry.points is not None else "")
    if entry.markers_up:
        text += " + marker up"
    return text


def _value_words(value: Any, key: str) -> str:
    return NOTHING if value is None else value_label(value, key)


def _round_lines(
    old: Mapping[str, Any] | None, new: Mapping[str, Any] | None, players: Sequence[str]
) -> list[str]:
    old = old or {}
    new = new or {}
    return [
        f"{name}: {entry_summary(old.get(name))} → {entry_summary(new.get(name))}"
        for name in players
        if old.get(name) != new.get(name)
    ]


def _rules_lines(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> list[str]:
    old = old or {}
    new = new or {}
    return [
        f"{rule_title(key)}: {_value_words(old.get(key), key)} → {_value_words(new.get(key), key)}"
        for key in new
        if old.get(key) != new.get(key)
    ]


def describe(change: Change, players: Sequence[str]) -> tuple[str, list[str]]:
    """Return a heading and one line per changed value for a history entry."""
    if change.kind == "people":
        # A person renamed or merged in the record book: the old and new seat order.
        return "Changed a player's name", [
            f"{before} → {after}"
            for before, after in zip(change.old or (), change.new or (), strict=False)
            if before != after
        ]
    if change.round_n is not None:
        lines = _round_lines(change.old, change.new, players)
        subject = f"round {change.round_n}"
        if change.kind == "undo":
            return f"Undo of a change to {subject}", lines
        if change.new is None:
            return f"Cleared {subject}", lines
        if change.old is None:
            return f"Entered {subject}", lines
        return f"Edited {subject}", lines
    lines = _rules_lines(change.old, change.new)
    if change.kind == "undo":
        return "Undo of a house-rules change", lines
    return "Changed the house rules", lines


def undo_words(change: Change | None, players: Sequence[str]) -> str:
    """What "Undo" will take back, e.g. "Ann, round 4, 6 → 5" ("" when nothing)."""
    if change is None:
        return ""
    heading, lines = describe(change, players)
    if change.round_n is not None:
        if len(lines) == 1:
            name, _, values = lines[0].partition(": ")
            return f"{name}, round {change.round_n}, {values}"
        return (
            f"round {change.round_n} ({'; '.join(lines)})" if lines else f"round {change.round_n}"
        )
    return f"house rules ({'; '.join(lines)})" if lines else "the house-rules change"
