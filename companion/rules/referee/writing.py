"""Writing answers: the contract's JSON objects for rulings, and positions written as queries
(for tests, benchmarks and the simulator)."""

from __future__ import annotations

from typing import Any

from companion.rules.actions import (
    MEXICAN,
    MEXICAN2,
    Action,
    Draw,
    End,
    Play,
    Status,
    StatusReason,
)
from companion.rules.keys import LastTileCall
from companion.rules.legality import train_words
from companion.rules.referee.judging import TurnRuling
from companion.rules.referee.reading import LastTileCallQuery
from companion.rules.scoring import HandScore
from companion.rules.setup import Deal
from companion.rules.state import State

Answer = dict[str, Any]


def turn_answer(ruling: TurnRuling, *, explain_alternatives: bool = True) -> Answer:
    """The answer to a ``turn`` query."""
    verdict = ruling.ruling
    answer: Answer = {
        "legal": verdict.legal,
        "step": ruling.step,
        "rule": verdict.rule,
        "reason": verdict.reason,
        "after": after(ruling.state, ruling.ended),
    }
    if ruling.step is not None and explain_alternatives:
        answer["allowed_under"] = list(verdict.allowed_under)
    elif ruling.checked is not None:
        answer["checked"] = list(ruling.checked)
    return answer


def after(state: State, turn_over: bool) -> Answer:
    """The contract's ``after``: every train's open end(s) and marker, the open doubles, the
    boneyard, and whether the turn and the round are over."""
    trains: dict[str, Any] = {}
    started = state.started
    markers = state.markers
    ends = state.ends
    double_value = state.double_value
    for seat, name in enumerate(state.seats):
        if started[seat]:
            pending = double_value[seat]
            seat_ends = ends[seat]
            if pending >= 0:
                entry: dict[str, Any] = {"end": pending, "marker": markers[seat]}
                if seat_ends:
                    entry["ends"] = [*seat_ends, pending]
            else:
                entry = {"end": seat_ends[-1] if seat_ends else None, "marker": markers[seat]}
                if len(seat_ends) > 1:
                    entry["ends"] = list(seat_ends)
        else:
            entry = {"started": False, "marker": markers[seat]}
        trains[name] = entry
    if started[MEXICAN]:
        trains["mexican"] = {"end": state.open_end(MEXICAN)}
    if started[MEXICAN2]:
        trains["mexican2"] = {"end": state.open_end(MEXICAN2)}
    over = state.outcome is not None
    return {
        "trains": trains,
        "open_doubles": [state.train_name(t) for t in state.open_doubles],
        "boneyard": state.boneyard_count,
        "turn_over": turn_over or state.turn_over or over,
        "round_over": over,
    }


def status_answer(state: State, status: Status) -> Answer:
    """The answer to a ``round_status`` query: the status in words."""
    seats = state.seats
    n = state.n
    who = " and ".join(seats[seat] for seat in status.out)
    reason = status.reason
    passes = state.passes_in_a_row
    words: str
    if reason is StatusReason.WENT_OUT:
        words = f"{who} has played their last tile."
    elif reason is StatusReason.FIRST_TURNS_LEFT:
        waiting = ", ".join(seats[seat] for seat in status.waiting)
        words = f"{who} went out on the first turn; {waiting} still take their first turn."
    elif reason is StatusReason.DOUBLE_OPEN:
        words = (
            f"{who} is out of tiles, but a double is still open and must be covered before "
            "the round ends."
        )
    elif reason is StatusReason.DOUBLE_UNCOVERABLE:
        words = (
            f"{who} went out on a double that no one can cover: the boneyard is empty and no "
            "hand holds a tile that fits it, so the round is blocked."
        )
    elif reason is StatusReason.FULL_LAP:
        if status.out:
            words = (
                f"{who} went out on a double, and all {n} players have passed in a row since: "
                "the round is blocked."
            )
        else:
            words = f"All {n} players have passed in a row: the round is blocked."
    elif reason is StatusReason.PASSES:
        words = f"{passes} passes in a row; the round ends after a full lap of {n}."
    elif reason is StatusReason.BONEYARD_LEFT:
        words = "The boneyard still has tiles to draw."
    elif reason is StatusReason.BLOCKED:
        words = "The boneyard is empty and no one can play anywhere: the round is blocked."
    elif reason is StatusReason.CAN_PLAY:
        assert status.seat is not None and status.play is not None
        play = status.play
        words = (
            f"{seats[status.seat]} can still play {play.tile} on {train_words(state, play.train)}."
        )
    else:
        words = "A player can still play once the passing players' markers go up."
    return {"over": status.over, "rule": status.rule, "reason": words}


def score_answer(score: HandScore) -> Answer:
    """The answer to a ``score`` query."""
    return {"points": score.points, "reason": score.reason}


def setup_answer(dealt: Deal, engines: tuple[int, ...], leaders: tuple[int | None, ...]) -> Answer:
    """The answer to a ``setup`` query."""
    return {
        "hand_size": dealt.hand_size,
        "set_tiles": dealt.set_tiles,
        "boneyard": dealt.boneyard,
        "rounds": len(engines),
        "engines": list(engines),
        "leaders": list(leaders),
    }


def last_tile_call_answer(query: LastTileCallQuery, penalty: tuple[int, int, bool]) -> Answer:
    """The answer to a ``last_tile_call`` query, given its penalty (see
    :func:`~companion.rules.referee.judging.judge_last_tile_call`)."""
    if query.announced_in_time:
        return {"draw": 0, "skip_turn": False, "reason": "The call was made in time: no penalty."}
    draw, wanted, skip = penalty
    boneyard = query.boneyard
    if query.rules.last_tile_call == LastTileCall.NONE:
        reason = "Calling the last tile is a courtesy here: no penalty."
    else:
        short = f" (only {boneyard} left in the boneyard)" if draw < wanted else ""
        reason = f"Missed call: draw {draw}{short}" + (" and lose the next turn." if skip else ".")
    return {"draw": draw, "skip_turn": skip, "reason": reason}


# -- positions as queries (for tests and benchmarks) ---------------------------------------


def table_json(state: State, *, acting: int | None = None) -> dict[str, Any]:
    """The contract's ``table`` object for ``state`` (trains given tile by tile), with
    ``table.out`` when players are out (leaving out ``acting``, the seat whose turn it is)."""
    trains: dict[str, Any] = {}
    for train in state.trains:
        tiles = state.train_tiles[train]
        if tiles:
            entry: dict[str, Any] = {"tiles": [t.as_list() for t in tiles]}
            if train >= 0 and state.markers[train]:
                entry["marker"] = True
            trains[state.train_name(train)] = entry
        elif train >= 0:
            trains[state.train_name(train)] = {"started": False, "marker": state.markers[train]}
    table: dict[str, Any] = {
        "set_max": state.set_max,
        "engine": state.engine,
        "seats": list(state.seats),
        "trains": trains,
        "open_doubles": [state.train_name(t) for t in state.open_doubles],
        "boneyard": state.boneyard_count,
        "first_turns_left": [s for i, s in enumerate(state.seats) if state.first_turn_left[i]],
    }
    out = [
        name
        for seat, name in enumerate(state.seats)
        if seat != acting
        and (seat in state.out_seats or (state.going_out_double[seat] != -99))
        and not state.hands[seat]
    ]
    if out:
        table["out"] = out
    return table


def action_json(state: State, action: Action) -> dict[str, Any]:
    """The contract's form of one action."""
    if type(action) is Play:
        return {"play": action.tile.as_list(), "on": state.train_name(action.train)}
    if type(action) is Draw:
        return {"draw": action.tile.as_list() if action.tile is not None else None}
    if type(action) is End:
        return {"end": True}
    return {"remove_marker": True}


def turn_query(state: State, actions: list[Action]) -> dict[str, Any]:
    """A ``turn`` query asking about ``actions`` from the start of the current turn."""
    hand = state.hands[state.turn] or []
    return {
        "kind": "turn",
        "rules": state.rules.to_json(),
        "table": table_json(state, acting=state.turn),
        "turn": {
            "seat": state.seats[state.turn],
            "first_turn": state.is_first_turn,
            "hand": [t.as_list() for t in hand],
        },
        "actions": [action_json(state, a) for a in actions],
    }


def round_status_query(state: State) -> dict[str, Any]:
    """A ``round_status`` query for ``state`` between turns (every hand must be known)."""
    return {
        "kind": "round_status",
        "rules": state.rules.to_json(),
        "table": table_json(state),
        "hands": {
            name: [t.as_list() for t in state.hands[seat] or []]
            for seat, name in enumerate(state.seats)
        },
        "passes_in_a_row": state.passes_in_a_row,
        "next_seat": state.seats[state.turn],
    }
