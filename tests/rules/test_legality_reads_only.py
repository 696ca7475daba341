"""Legality only reads a position: every check, over many simulated positions and every rule
preset, leaves the State exactly as it was, and assigns none of its attributes meanwhile
(not even to put one back, as a check that tried markers up once did)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from companion import rules_compiled
from companion.rules import PRESETS, Draw, Rules, State, Tile, legality
from companion.rules.simulate import random_rules


class _Watched(State):
    """A State that records every attribute assignment while ``watching``."""

    watching = False
    writes: list[str] = []

    def __setattr__(self, name: str, value: Any) -> None:
        if _Watched.watching:
            _Watched.writes.append(name)
        super().__setattr__(name, value)


# Compiled with mypyc, ``State`` has fixed slots that compiled code writes directly: no
# subclass can watch them. There the snapshot comparison alone checks the position, and
# ``make test`` runs this module again on the plain-Python engine, which the watcher sees.
WATCHABLE = not rules_compiled()


@contextmanager
def _watched(state: State) -> Iterator[None]:
    if not WATCHABLE:
        _Watched.writes = []
        yield
        return
    state.__class__ = _Watched
    _Watched.writes = []
    _Watched.watching = True
    try:
        yield
    finally:
        _Watched.watching = False
        state.__class__ = State


def _checks(state: State) -> list[tuple[str, Callable[[], object]]]:
    seat = state.turn
    checks: list[tuple[str, Callable[[], object]]] = [
        ("legal_actions", lambda: legality.legal_actions(state)),
        ("legal_plays", lambda: legality.legal_plays(state)),
        ("has_play", lambda: legality.has_play(state)),
        ("may_draw", lambda: legality.may_draw(state)),
        ("may_end", lambda: legality.may_end(state)),
        ("may_remove_marker", lambda: legality.may_remove_marker(state)),
        ("nobody_can_play", lambda: legality.nobody_can_play(state)),
        ("binding_doubles", lambda: legality.binding_doubles(state, False)),
        ("first_turn_cover_owed", lambda: legality.first_turn_cover_owed(state)),
        ("blocked_by", state.blocked_by),
        ("status", state.status),
        ("legal_actions view", lambda: list(state.legal_actions)),
    ]
    for other in range(state.n):
        checks.append((f"plays_for {other}", lambda o=other: legality.plays_for(state, o, True)))
        checks.append(
            (f"allowed_trains {other}", lambda o=other: legality.allowed_trains(state, o, True))
        )
    # Every legal action and a sample of illegal ones, through refusal and ``in``.
    tries: list[Any] = list(legality.legal_actions(state))
    hand = state.hands[seat] or []
    for tile in hand[:3]:
        tries.extend(legality.play_of(tile, train) for train in state.trains)
    tries.append(Draw(Tile(0, 0)))
    for action in tries:
        checks.append((f"refusal {action}", lambda a=action: legality.refusal(state, a)))
        checks.append((f"in {action}", lambda a=action: a in state.legal_actions))
    return checks


def _positions(rules: Rules, seed: int, limit: int) -> Iterator[State]:
    rng = random.Random(seed)
    state = State.deal(rules, 4 if rules.set_max >= 9 else 3, rules.set_max, rng)
    for _ in range(limit):
        if state.outcome is not None:
            return
        yield state
        state.apply(rng.choice(legality.legal_actions(state)))


def _assert_reads_only(state: State) -> None:
    for name, check in _checks(state):
        before = state._snapshot()
        with _watched(state):
            check()
        assert _Watched.writes == [], f"{name} assigned {_Watched.writes}"
        assert state._snapshot() == before, f"{name} changed the position"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_legality_leaves_every_position_unchanged(preset: str) -> None:
    try:
        rules = Rules.from_json({"preset": preset})
    except ValueError:
        pytest.skip(f"{preset} does not stand alone")
    for state in _positions(rules, seed=len(preset), limit=150):
        _assert_reads_only(state)


@pytest.mark.parametrize("seed", range(6))
def test_legality_leaves_positions_unchanged_under_random_rules(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3):
        rules = random_rules(rng)
        for state in _positions(rules, seed=rng.randrange(10**6), limit=100):
            _assert_reads_only(state)
