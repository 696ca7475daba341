"""The contract's entry points (shared/spec/referee.md): a query in, an answer out, never a
traceback. Each query kind is read (:mod:`.reading`), judged (:mod:`.judging`) and written
(:mod:`.writing`)."""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from companion.rules.referee import judging, reading, writing
from companion.rules.referee.reading import QueryError
from companion.rules.rules import Rules, RulesError
from companion.rules.state import State
from companion.rules.table import PositionError
from companion.rules.tiles import InvalidTileError, Tile

Answer = dict[str, Any]

UNEXPECTED_FAULT = "could not judge this query: the referee failed on it (the fault is logged)"

logger = logging.getLogger(__name__)


Q = TypeVar("Q")


def read_in_order(read: Callable[[Mapping[str, Any]], Q], query: Mapping[str, Any]) -> Q:
    """``read(query)``; when a field is malformed, a fault of the part of the table read
    before it is reported first (faults in the order the query lists them).

    :raises: :exc:`QueryError` naming the first field at fault.
    """
    try:
        return read(query)
    except QueryError as error:
        report_earlier_fault(error)
        raise


def answer_turn(query: Mapping[str, Any], *, explain_alternatives: bool = True) -> Answer:
    """Judges a ``turn`` query."""
    turn = read_in_order(reading.read_turn, query)
    # "explain": true (a field the contract leaves free) asks a legal turn to name the house
    # rules it passed; it costs several rulings, so batches that only want verdicts skip it.
    name_checked = explain_alternatives and query.get("explain") is True
    ruling = judging.judge_turn(
        turn, explain_alternatives=explain_alternatives, name_checked=name_checked
    )
    return writing.turn_answer(ruling, explain_alternatives=explain_alternatives)


def answer_round_status(query: Mapping[str, Any]) -> Answer:
    """Judges a ``round_status`` query."""
    status_query = read_in_order(reading.read_round_status, query)
    state, status = judging.judge_round_status(status_query)
    return writing.status_answer(state, status)


def report_earlier_fault(error: QueryError) -> None:
    """Raises the fault of the part of the table read before ``error``'s field, if that part
    has one: faults are reported in the order the query lists them."""
    if error.table is None or error.rules is None:
        return
    try:
        State.from_table(error.rules, error.table)
    except PositionError as fault:
        raise QueryError.of(fault) from None


def answer_score(query: Mapping[str, Any]) -> Answer:
    """Scores a hand (``score`` query)."""
    return writing.score_answer(judging.judge_score(reading.read_score(query)))


def answer_setup(query: Mapping[str, Any]) -> Answer:
    """Deal and schedule (``setup`` query)."""
    return writing.setup_answer(*judging.judge_setup(reading.read_setup(query)))


def answer_last_tile_call(query: Mapping[str, Any]) -> Answer:
    """The penalty for a missed last-tile call (``last_tile_call`` query)."""
    call = reading.read_last_tile_call(query)
    return writing.last_tile_call_answer(call, judging.judge_last_tile_call(call))


KINDS: dict[str, Callable[[Mapping[str, Any]], Answer]] = {
    "turn": answer_turn,
    "round_status": answer_round_status,
    "score": answer_score,
    "setup": answer_setup,
    "last_tile_call": answer_last_tile_call,
}


def answer(query: Any) -> tuple[Answer, bool]:
    """Answers one query; returns ``(answer, ok)``. Never raises."""
    try:
        if not isinstance(query, dict):
            raise QueryError(("query",), 'expected an object with a "kind"')
        kind = query.get("kind")
        handler = KINDS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise QueryError(("kind",), f"{json.dumps(kind)} is not one of {', '.join(KINDS)}")
        return handler(query), True
    except (QueryError, RulesError, InvalidTileError) as error:
        return {"error": str(error)}, False
    except RecursionError:
        return {"error": "query: nested too deeply"}, False
    except Exception:  # noqa: BLE001 - the contract forbids tracebacks
        # A fault of the engine's, not the asker's: the traceback goes to the log, and the
        # answer says no more (exception text can name files and internals).
        logger.exception("The referee could not judge a query")
        return {"error": UNEXPECTED_FAULT}, False


def answer_all(data: Any) -> tuple[Any, bool]:
    """Answers a query or a list of queries; ``ok`` is False if any was malformed."""
    if isinstance(data, list):
        results = [answer(item) for item in data]
        return [r for r, _ in results], all(ok for _, ok in results)
    return answer(data)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pauses the cyclic garbage collector: parsing and judging a batch allocates many small
    acyclic lists and dicts, and the collector's repeated passes over them cost more than the
    parsing itself. Reference counting still frees everything. The pause is process-wide: for
    the command, never inside a threaded server (the web API leaves the collector running)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def answer_text(text: str) -> tuple[str, bool]:
    """Answers JSON text (one query or a list) with JSON text; ``ok`` as for :func:`answer_all`.

    :raises: :exc:`json.JSONDecodeError` or :exc:`RecursionError` if ``text`` is not JSON.
    """
    with gc_paused():
        answers, ok = answer_all(json.loads(text))
        # Answers are fresh trees (no cycles to look for); the text is the same either way.
        return json.dumps(answers, check_circular=False), ok


def build_state(
    rules: Rules, table: Mapping[str, Any], hands: dict[str, list[Tile]], acting: str | None
) -> State:
    """The position a contract ``table`` object describes, with ``hands`` known and
    ``acting`` to play (hands not given stay unknown).

    :raises: :exc:`QueryError` naming the first field at fault.
    """
    try:
        read = reading.read_table(rules, table, hands)
    except QueryError as error:
        report_earlier_fault(error)
        raise
    try:
        return State.from_table(rules, read, acting)
    except PositionError as error:
        raise QueryError.of(error) from None
