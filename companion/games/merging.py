"""Merging a form that was saved too late with what another phone saved meanwhile.

Both the round form (one cell per player) and the house-rules form (one value per rule) are a
set of named values. A phone read them at one version, changed some and sent them back after
another phone had saved: a three-way merge of what this phone *read*, what it *sent* and what
is on the sheet *now*. Only a value both phones changed, to different things, is a conflict;
a value only the other phone changed is simply taken (this phone never touched it).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True)
class Merged(Generic[K, V]):
    """The values to show the late phone, and the keys where both phones disagree."""

    values: dict[K, V]
    """What this phone sent, except where only the other phone changed a value (the sheet's
    value) or both did differently (the sheet's value, kept unless this phone picks its own)."""
    conflicts: list[K]
    """Keys both phones changed to different values, in the order given."""


def _same(value: object) -> object:
    return value


def merge(
    keys: Iterable[K],
    read: Mapping[K, V],
    sent: Mapping[K, V],
    now: Mapping[K, V],
    compare: Callable[[V], object] = _same,
) -> Merged[K, V]:
    """Three-way merge of one form; ``compare`` maps a value to what counts when comparing
    (e.g. a typed "08" and a stored 8 are the same score). A key missing from ``read`` or
    ``sent`` counts as unchanged on that side."""
    values: dict[K, V] = {}
    conflicts: list[K] = []
    for key in keys:
        current = now[key]
        before = read.get(key, current)
        mine = sent.get(key, before)
        changed_there = compare(current) != compare(before)
        changed_here = compare(mine) != compare(before)
        if changed_there and changed_here and compare(mine) != compare(current):
            conflicts.append(key)
            values[key] = current
        elif changed_there:
            values[key] = current
        else:
            values[key] = mine
    return Merged(values, conflicts)
