"""Judging typed queries: a turn action by action, a round's status, a hand's score, a deal,
a missed last-tile call. Nothing here reads or writes JSON."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from companion.rules import legality
from companion.rules.actions import Action, End, Play, RemoveMarker, Status
from companion.rules.explain import Ruling, values_allowing
from companion.rules.keys import LastTileCall
from companion.rules.referee.reading import (
    LastTileCallQuery,
    QueryError,
    RoundStatusQuery,
    ScoreQuery,
    SetupQuery,
    TurnQuery,
    read_turn,
    turn_source,
)
from companion.rules.rules import KEYS, Rules, RulesError
from companion.rules.scoring import HandScore, score_hand
from companion.rules.setup import Deal, deal, leaders, schedule
from companion.rules.state import State
from companion.rules.table import FieldPath, PositionError, fault_within

# Keys that change how the table itself is read, so the query is read again for them.
_STRUCTURAL = frozenset({"blanks_wild", "double_branches", "mexican_trains", "set_max"})

_LEGAL = Ruling(True, None, "The turn is legal.")

# Keys that only set up a round or score it: no value of theirs changes whether a turn is
# legal, so a legal turn is not re-judged under them.
_NOT_TURN_KEYS = frozenset(
    {
        "set_max",
        "hand_size",
        "engine_source",
        "round_leader",
        "schedule",
        "blocked_scoring",
        "blank_scoring",
        "going_out_bonus",
        "open_marker_penalty",
        "last_tile_call",
    }
)
_TURN_KEYS = tuple(key for key in KEYS if key not in _NOT_TURN_KEYS)


@dataclasses.dataclass(frozen=True, slots=True)
class TurnRuling:
    """The referee's word on a turn: the first refused action, if any, and the table then."""

    ruling: Ruling
    step: int | None
    """The index in ``actions`` of the refused action (``None`` when all are legal)."""
    state: State
    """The position after the last accepted action."""
    ended: bool
    """Whether the player ended the turn (an accepted ``end``)."""
    checked: tuple[str, ...] | None = None
    """For a legal turn judged with ``name_checked``: the house rules it passed that another
    value would have refused it by (:func:`checked_rules`); else ``None``."""


def position(query: TurnQuery) -> State:
    """The position at the start of the turn, before ``turn.played``.

    :raises: :exc:`QueryError` (from the table's :exc:`PositionError`).
    """
    try:
        state = State.from_table(query.rules, query.table, query.seat)
    except PositionError as error:
        raise QueryError.of(error) from None
    state.begin_turn(state.seats.index(query.seat), first_turn=query.first_turn)
    state.end_if_over()
    return state


def judge_turn(
    query: TurnQuery, *, explain_alternatives: bool = True, name_checked: bool = False
) -> TurnRuling:
    """Judges the turn's actions in order, stopping at the first refused one; a refusal also
    lists the other values of the deciding key under which the whole turn, asked again from
    its start, is legal (:func:`~companion.rules.explain.values_allowing`).

    With ``name_checked``, a legal turn also names the house rules it passed
    (:func:`checked_rules`): that asks the turn again under other values, several times the
    cost of the ruling itself, so only a caller that shows them asks for it.

    :raises: :exc:`QueryError` if the table is impossible or ``turn.played`` is not legal.
    """
    state = position(query)
    refused, ended = _run(state, query.played, query.actions)
    if refused is None:
        checked = tuple(checked_rules(query)) if name_checked else None
        return TurnRuling(_LEGAL, None, state, ended, checked)
    step, rule, reason = refused
    allowed: tuple[Any, ...] = ()
    if explain_alternatives:
        allowed = tuple(_allowed_under(query, rule))
    return TurnRuling(Ruling(False, rule, reason, allowed), step, state, ended)


def _run(
    state: State, played: tuple[Action, ...], actions: tuple[Action, ...]
) -> tuple[tuple[int, str, str] | None, bool]:
    """Applies ``played`` then ``actions`` up to the first refused one: ``(step, rule,
    reason)`` for that (``None`` if all are legal), and whether the turn was ended."""
    seats = state.seats
    seat = state.turn
    ended = False
    for index, action in enumerate(played + actions):
        step = index - len(played)
        refused: tuple[str, str] | None = None
        noop = False
        if ended or state.outcome is not None:
            if type(action) is End:
                noop = True
            else:
                refused = (
                    "round_over" if state.outcome is not None else "turn_over",
                    "The round is over."
                    if state.outcome is not None
                    else f"{seats[seat]}'s turn is over.",
                )
        elif type(action) is RemoveMarker and not state.markers[seat] and state.played_own:
            noop = True  # playing on one's own train already took the marker down
        else:
            if type(action) is Play and state.drawn_unknown:
                state.resolve_draw(action.tile)
            refused = legality.refusal(state, action)
        if refused is not None:
            if step < 0:
                raise QueryError(("turn", "played", index), f"not a legal action: {refused[1]}")
            return (step, refused[0], refused[1]), ended
        if noop:
            continue
        state.apply(action)
        if type(action) is End:
            ended = True
    return None, ended


def _allowed_under(query: TurnQuery, rule: str) -> list[Any]:
    """The other values of ``rule`` under which the whole turn, asked again, is legal: only
    what the re-asked verdict supports (a value under which the refused action passes but a
    later one is refused, by this rule or another, is not claimed)."""
    again = _Again(query)
    return values_allowing(query.rules, rule, lambda other: again.legal_under(other) is True)


class _Again:
    """One turn query asked again under other rules, each time from its start."""

    def __init__(self, query: TurnQuery) -> None:
        self.query = query
        self.laid_out: State | None = None
        """The table laid out under the query's own rules, before the turn begins: the same
        under any value of a key that changes neither how the table reads nor who is out."""

    def legal_under(self, rules: Rules) -> bool | None:
        """Whether the turn, judged again from its start under ``rules``, is legal; ``None``
        when under those rules the query cannot be read or its position is impossible (then
        it is neither allowed nor refused there)."""
        query = self.query
        try:
            if _structural_change(query.rules, rules):
                other = read_turn(query.source or turn_source(query), rules=rules)
                state = position(other)
            elif query.table.out:
                other = dataclasses.replace(query, rules=rules)
                state = position(other)
            else:
                other = query
                if self.laid_out is None:
                    try:
                        self.laid_out = State.from_table(query.rules, query.table, query.seat)
                    except PositionError as error:
                        raise QueryError.of(error) from None
                state = self.laid_out.with_rules(rules)
                state.begin_turn(state.seats.index(query.seat), first_turn=query.first_turn)
                state.end_if_over()
            refused, _ = _run(state, other.played, other.actions)
        except (QueryError, RulesError):
            return None
        return refused is None


def _structural_change(before: Rules, after: Rules) -> bool:
    return any(getattr(before, key) != getattr(after, key) for key in _STRUCTURAL)


def checked_rules(query: TurnQuery) -> list[str]:
    """The house rules a legal turn was checked against and passed: the keys with another
    value under which the same turn, asked again, would be refused."""
    again = _Again(query)
    return [
        key
        for key in _TURN_KEYS
        if values_allowing(query.rules, key, lambda other: again.legal_under(other) is False)
    ]


def judge_round_status(query: RoundStatusQuery) -> tuple[State, Status]:
    """The position between turns (every seat with no tiles has gone out) and its status.

    :raises: :exc:`QueryError` if the table is impossible.
    """
    try:
        state = State.from_table(
            query.rules, query.table, query.next_seat, passes_in_a_row=query.passes_in_a_row
        )
    except PositionError as error:
        raise QueryError.of(error) from None
    seat = state.seats.index(query.next_seat)
    state.begin_turn(seat, first_turn=state.first_turn_left[seat])
    hands: Mapping[str, Any] = query.table.hands
    for index, name in enumerate(state.seats):
        if not hands[name]:
            state.mark_out(index)
    return state, state.status()


def judge_score(query: ScoreQuery) -> HandScore:
    """The hand's points and the reason."""
    return score_hand(
        list(query.hand),
        query.rules,
        went_out=query.went_out,
        markers_up=query.markers_up,
        round_end=query.round_end,
        lowest=query.lowest,
    )


def judge_setup(query: SetupQuery) -> tuple[Deal, tuple[int, ...], tuple[int | None, ...]]:
    """The deal, the engines of every round and each round's leader.

    :raises: :exc:`QueryError` if the rules cannot deal to that many players.
    """
    try:
        dealt = deal(query.rules, query.players)
    except RulesError as error:
        # Too few players, else a deal table without this many players.
        path: FieldPath = ("players",) if query.players < 2 else ("rules", "hand_size")
        detail, text = fault_within(path, str(error))
        raise QueryError(path, detail, text=text) from None
    try:
        engines = schedule(query.rules)
    except RulesError as error:
        detail, text = fault_within(("rules", "schedule"), str(error))
        raise QueryError(("rules", "schedule"), detail, text=text) from None
    return dealt, engines, leaders(query.rules, query.players)


_PENALTIES = {
    "none": (0, False),
    LastTileCall.DRAW1: (1, False),
    LastTileCall.DRAW2: (2, False),
    LastTileCall.DRAW2_AND_SKIP: (2, True),
}


def judge_last_tile_call(query: LastTileCallQuery) -> tuple[int, int, bool]:
    """``(tiles to draw, tiles the rule asks for, whether the next turn is lost)``."""
    if query.announced_in_time:
        return 0, 0, False
    wanted, skip = _PENALTIES[query.rules.last_tile_call]
    return min(wanted, query.boneyard), wanted, skip
