"""Deal sizes, engine schedule and round leaders: what the rules fix before play starts."""

from __future__ import annotations

from typing import NamedTuple

from companion.rules.keys import DESCEND_FROM_MAX, EngineSource, RoundLeader
from companion.rules.rules import Rules, RulesError
from companion.rules.tiles import set_size


class Deal(NamedTuple):
    """How a round is dealt."""

    hand_size: int
    """Tiles dealt to each player."""
    set_tiles: int
    """Tiles in the whole set."""
    boneyard: int
    """Tiles left face down after the deal (the engine already set aside when it is)."""


def hand_size(rules: Rules, players: int) -> int:
    """Tiles dealt to each of ``players``.

    :raises: :exc:`RulesError` if the deal table has no entry for this set and player count.
    """
    if type(players) is not int or players < 2:
        raise RulesError(f"players: Mexican Train needs at least 2 players, got {players!r}")
    table = rules.hand_table()
    size = table.get(players)
    if size is None:
        where = (
            f"the {rules.hand_size} table"
            if isinstance(rules.hand_size, str)
            else "the hand_size table given"
        )
        raise RulesError(
            f"rules.hand_size: {where} has no entry for {players} players with a "
            f'double-{rules.set_max} set; give an explicit table such as {{"{players}": 10}}'
        )
    return size


def deal(rules: Rules, players: int) -> Deal:
    """The deal for ``players``: hand size, set size and what is left in the boneyard.

    :raises: :exc:`RulesError` if there is no hand size or not enough tiles.
    """
    size = hand_size(rules, players)
    tiles = set_size(rules.set_max)
    engine_aside = 1 if rules.engine_source == EngineSource.SET_ASIDE else 0
    boneyard = tiles - engine_aside - size * players
    if boneyard < 0:
        raise RulesError(
            f"rules.hand_size: {players} hands of {size} need {size * players + engine_aside} "
            f"tiles, but a double-{rules.set_max} set has {tiles}"
        )
    return Deal(size, tiles, boneyard)


def schedule(rules: Rules) -> tuple[int, ...]:
    """The engine of each round, first round first."""
    if rules.schedule == DESCEND_FROM_MAX:
        return tuple(range(rules.set_max, -1, -1))
    assert not isinstance(rules.schedule, str)
    for engine in rules.schedule:
        if engine > rules.set_max:
            raise RulesError(
                f"rules.schedule: {engine}-{engine} is not in a double-{rules.set_max} set"
            )
    return rules.schedule


def leaders(rules: Rules, players: int) -> tuple[int | None, ...]:
    """The seat (from 0) leading each round, or ``None`` where the deal decides it."""
    rounds = len(schedule(rules))
    if rules.round_leader == RoundLeader.ROTATE_LEFT:
        return tuple(number % players for number in range(rounds))
    return (None,) * rounds
