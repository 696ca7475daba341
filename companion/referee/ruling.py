"""Judging a disputed position and saying the ruling in words a table reads aloud.

The page is a typed client of the rules engine: every question becomes the engine's own query
object straight from the form (:class:`~companion.rules.referee.TurnQuery`,
``RoundStatusQuery``, ``ScoreQuery``, ``LastTileCallQuery``, ``SetupQuery``) and is judged by
the engine's typed functions (:mod:`~companion.rules.referee.judging`), the same ones
``python -m companion.rules check`` answers with, so the page rules exactly as the command
does; the contract's JSON of each query is only written, to keep with a ruling and to ask it
again under other house rules. An error comes back as a
:exc:`~companion.rules.referee.QueryError` with the field's path, which picks the form field
it is shown beside. This module adds the words around a ruling: the verdict, the rule's name,
the value in force and where it comes from, and which rule books would rule the other way.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..rules import (
    KEYS,
    MEXICAN,
    MEXICAN2,
    Draw,
    End,
    InvalidTileError,
    Play,
    Rules,
    RulesError,
    State,
)
from ..rules.describe import books_with, rule_name, source_title, value_words, where_value_from
from ..rules.keys import RULE_KEYS
from ..rules.referee import (
    QueryError,
    judge_turn,
    judging,
    last_tile_call_source,
    round_status_source,
    score_source,
    setup_source,
    turn_source,
    writing,
)
from ..rules.referee.contract import UNEXPECTED_FAULT
from ..rules.referee.reask import other_way
from ..rules.table import FieldError, FieldPath
from .dispute import DisputeForm, FormError, TrainRow, tile_words

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Alternative:
    """Another value of the deciding rule under which the ruling would go the other way."""

    value: str
    """The value in words."""
    books: tuple[str, ...]
    """The rule books (titles) that play it that way."""
    outcome: str | None = None
    """What the ruling would be under it, when that is more than the verdict's opposite
    ("The round is over", "2 points")."""


@dataclass(frozen=True)
class CheckedRule:
    """A house rule an allowed move was checked against and passed."""

    rule: str
    """The rule's name in words."""
    value: str
    """The value in force, in words."""
    source: str
    """Where that value comes from."""


@dataclass(frozen=True)
class RulingView:
    """A ruling as the page shows it and the scoresheet keeps it."""

    question: str
    """The question in words."""
    verdict: str
    """The large word or two: "Allowed", "Not allowed", "92 points", ..."""
    tone: str
    """"yes", "no" or "info", for the verdict's colour (the words say it too)."""
    sentence: str
    """One or two sentences to read aloud."""
    rule: str | None = None
    """The deciding rule's name in words."""
    value: str | None = None
    """The house-rule value in force, in words (``None`` for a core rule)."""
    source: str | None = None
    """Where that value comes from: the rule book's title and section."""
    alternatives: tuple[Alternative, ...] = ()
    alternatives_heading: str = "Under these other house rules it would be allowed:"
    no_alternative: str | None = None
    """Said when no other value of the deciding rule would change the ruling (only where the
    judge was asked again under each and none did)."""
    checked: tuple[CheckedRule, ...] = ()
    """For an allowed move: the house rules it passed, each of which another value would have
    made it break."""
    notes: tuple[str, ...] = ()
    """What the ruling assumed (an unknown hand, trains whose end was not given)."""
    options: tuple[str, ...] = ()
    """For "What can I play?": every legal action, in words."""
    query: dict[str, Any] = field(default_factory=dict)
    answer: dict[str, Any] = field(default_factory=dict)


def judge(form: DisputeForm, preset: str) -> RulingView:
    """Rules on the question ``form`` holds, under its rules (taken from ``preset``'s book).

    :raises: :exc:`FormError` naming the field when the position cannot be judged.
    """
    if form.errors:
        field_name, message = next(iter(form.errors.items()))
        raise FormError(field_name, message)
    if form.ask == "turn":
        return _judge_turn(form, preset)
    if form.ask == "options":
        return _judge_options(form)
    if form.ask == "round":
        return _judge_round(form, preset)
    if form.ask == "score":
        return _judge_score(form, preset)
    if form.ask == "call":
        return _judge_call(form, preset)
    return _judge_setup(form, preset)


@contextmanager
def _engine_errors(form: DisputeForm) -> Iterator[None]:
    """The rules engine's errors as the form's: each next to the field its path names."""
    try:
        yield
    except QueryError as error:
        raise form_error(error, form) from None
    except (RulesError, InvalidTileError) as error:  # pragma: no cover - the form checked them
        raise FormError("form", _sentence(str(error))) from None
    except FormError:
        raise
    except Exception:  # noqa: BLE001 - as the contract: a fault of the engine's, no traceback
        logger.exception("The referee could not judge a question from the page")
        raise FormError("form", _sentence(UNEXPECTED_FAULT)) from None


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _rule_parts(rules: Rules, preset: str, rule: str | None) -> dict[str, Any]:
    if not rule:
        return {}
    if rule in KEYS:
        value = getattr(rules, rule)
        return {
            "rule": rule_name(rule),
            "value": value_words(rule, value),
            "source": where_value_from(preset, rule, value),
        }
    return {
        "rule": rule_name(rule),
        "source": "A core rule of Mexican Train that every rule book shares.",
    }


def _played_in(rule: str, value: Any) -> tuple[str, ...]:
    """The rule books, then the other rule texts and programs, that play ``value``."""
    titles = books_with(rule, value)
    named = RULE_KEYS[rule].choice(value)
    for code in named.sources if named is not None else ():
        if source_title(code) not in titles:
            titles.append(source_title(code))
    return tuple(titles)


def _alternatives(rule: str | None, values: list[Any]) -> tuple[Alternative, ...]:
    if not rule or rule not in KEYS:
        return ()
    return tuple(Alternative(value_words(rule, value), _played_in(rule, value)) for value in values)


def _asked_again(
    query: dict[str, Any], result: dict[str, Any], rule: str | None, outcome: Any
) -> dict[str, Any]:
    """The values of ``rule`` under which the judge, asked the same question again, rules
    otherwise, with ``outcome(answer)`` in words; and, when none does, says so."""
    if not rule or rule not in KEYS:
        return {}
    others = other_way(query, result, rule)
    if not others:
        return {"no_alternative": "No other value of this rule would change this ruling."}
    return {
        "alternatives": tuple(
            Alternative(value_words(rule, value), _played_in(rule, value), outcome(got))
            for value, got in others
        ),
        "alternatives_heading": "Under these other house rules the ruling would be:",
    }


def _checked(rules: Rules, preset: str, keys: list[str]) -> tuple[CheckedRule, ...]:
    return tuple(
        CheckedRule(
            rule_name(key),
            value_words(key, getattr(rules, key)),
            where_value_from(preset, key, getattr(rules, key)),
        )
        for key in keys
        if key in KEYS
    )


# -- turns ------------------------------------------------------------------------------------


def actions_words(form: DisputeForm) -> str:
    """The disputed actions as a player says them: "play 2-11 on Cy's train, then pass"."""
    name = form.seats[form.seat] if form.seat is not None else "the player"
    parts: list[str] = []
    played = False
    for action in form.actions:
        if action.kind == "play" and action.tile is not None and action.train is not None:
            label = action.train.label
            if action.train.owner == form.seat:
                label = "their own train"
            parts.append(f"play {tile_words(action.tile, action.against)} on {label}")
            played = True
        elif action.kind == "draw":
            parts.append(f"draw {'the ' + str(action.tile) if action.tile else 'a tile'}")
        elif action.kind == "end":
            parts.append("end the turn" if played else "pass")
        elif action.kind == "marker":
            parts.append("take their marker down")
    del name
    if not parts:
        return "play"
    return ", then ".join(parts)


def _position_notes(form: DisputeForm) -> list[str]:
    notes: list[str] = []
    opened = [e for e in form.trains if e.open_double and e.end is not None]
    for entry in opened:
        notes.append(f"open double {entry.end}-{entry.end} on {entry.row.label}")
    marked = [e.row.label for e in form.trains if e.marker]
    if marked:
        notes.append("marker on " + ", ".join(marked))
    if form.ticked("first"):
        notes.append("their first turn")
    if form.text("boneyard") == "0":
        notes.append("boneyard empty")
    return notes


def _turn_question(form: DisputeForm) -> str:
    name = form.seats[form.seat] if form.seat is not None else "the player"
    question = f"May {name} {actions_words(form)}?"
    notes = _position_notes(form)
    return question + (f" ({'; '.join(notes)})" if notes else "")


def _assumptions(form: DisputeForm) -> list[str]:
    notes: list[str] = []
    name = form.seats[form.seat] if form.seat is not None else "the player"
    if not form.hand and form.ticked("last"):
        notes.append(f"{name}'s hand was not given: these are taken to be their last tiles.")
    elif not form.hand:
        notes.append(
            f"{name}'s hand was not given, so this assumes {name} holds other tiles, none of "
            "which fits anywhere."
        )
    unspecified = [
        e.row.label
        for e in form.trains
        if e.started and e.end is None and not form.own_train_unplayed(e)
    ]
    if unspecified:
        notes.append(
            "No end was entered for "
            + ", ".join(unspecified)
            + ": a tile played there is taken to fit, and otherwise the train is taken to show "
            "a number none of these tiles has."
        )
    return notes


def _judge_turn(form: DisputeForm, preset: str) -> RulingView:
    with _engine_errors(form):
        turn = form.turn_request()
        judged = judge_turn(turn, name_checked=True)
    query = turn_source(turn)
    result = writing.turn_answer(judged)
    verdict = judged.ruling
    name = form.seats[form.seat] if form.seat is not None else "the player"
    question = _turn_question(form)
    notes = tuple(_assumptions(form))
    if verdict.legal:
        checked = list(judged.checked or ())
        if not checked:
            notes = (
                "No house rule decides this: it follows the core rules every rule book "
                "shares (a tile must match the end it is laid on, and trains without a "
                "marker are private).",
                *notes,
            )
        return RulingView(
            question=question,
            verdict="Allowed",
            tone="yes",
            sentence=f"Yes: {name} may {actions_words(form)}."
            + (" That ends the round." if judged.state.outcome is not None else ""),
            checked=_checked(form.rules, preset, checked),
            notes=notes,
            query=query,
            answer=result,
        )
    step = judged.step
    sentence = verdict.reason
    if step:
        verb = "is" if step == 1 else "are"
        sentence = f"The first {_count_words(step)} {verb} fine, but then: {sentence}"
    rule = verdict.rule
    alternatives = _alternatives(rule, list(verdict.allowed_under))
    return RulingView(
        question=question,
        verdict="Not allowed",
        tone="no",
        sentence=sentence,
        alternatives=alternatives,
        no_alternative=(
            "No other value of this rule would allow it."
            if rule in KEYS and not alternatives
            else None
        ),
        notes=notes,
        query=query,
        answer=result,
        **_rule_parts(form.rules, preset, rule),
    )


def _count_words(step: int) -> str:
    return "action" if step == 1 else f"{step} actions"


def _judge_options(form: DisputeForm) -> RulingView:
    assert form.seat is not None
    name = form.seats[form.seat]
    with _engine_errors(form):
        turn = dataclasses.replace(form.turn_request(), actions=())
        judging.position(turn)  # the same checks and messages as a disputed turn
        state = State.from_table(turn.rules, turn.table, name)
    state.begin_turn(form.seat, first_turn=form.ticked("first"))
    rows = form.rows
    by_id: dict[int, TrainRow] = {i: row for i, row in enumerate(rows) if row.owner is not None}
    by_id[MEXICAN] = rows[len(form.seats)]
    if len(rows) > len(form.seats) + 1:
        by_id[MEXICAN2] = rows[len(form.seats) + 1]
    plays: list[str] = []
    others: list[str] = []
    for action in state.legal_actions:
        if type(action) is Play:
            row = by_id[action.train]
            end = state.open_end(action.train)
            label = "their own train" if row.owner == form.seat else row.label
            if not state.started[action.train]:
                label = f"{label} (starting it)"
                end = form.engine
            plays.append(f"play {tile_words(action.tile, end)} on {label}")
        elif type(action) is Draw:
            others.append("draw from the boneyard")
        elif type(action) is End:
            others.append("pass (their marker goes up)")
        else:
            others.append("take their marker down")
    if plays:
        verdict = f"{len(plays)} possible play{'' if len(plays) == 1 else 's'}"
        sentence = f"{name} may " + "; or ".join(plays) + "."
        if form.rules.must_play_if_able:
            sentence += f" {name} must play one of them."
    elif others:
        verdict = "No tile fits"
        sentence = f"No tile in {name}'s hand may be played now: {name} may " + (
            " or ".join(others) + "."
        )
    else:
        verdict = "Nothing to do"
        sentence = f"{name} has no legal action here."
    return RulingView(
        question=f"What can {name} play? ({len(form.hand)} tiles in hand)",
        verdict=verdict,
        tone="info",
        sentence=sentence,
        options=tuple(plays + others),
        notes=tuple(n for n in _assumptions(form) if "hand was not given" not in n),
        query=turn_source(turn),
        answer={"actions": plays + others},
    )


# -- the other questions ------------------------------------------------------------------------


def _judge_round(form: DisputeForm, preset: str) -> RulingView:
    with _engine_errors(form):
        requests = form.round_requests()
        results = [writing.status_answer(*judging.judge_round_status(r)) for r in requests]
    query = round_status_source(requests[0])
    if len(results) == 2 and results[0]["over"] != results[1]["over"]:
        unknown = [s for s in range(len(form.seats)) if s not in form.hands]
        names = " and ".join(form.seats[s] for s in unknown)
        raise FormError(
            f"hand-{unknown[0]}",
            f"Whether the round is over depends on what {names} "
            f"{'holds' if len(unknown) == 1 else 'hold'}: tick their tiles (or mark them out).",
        )
    result = results[0]
    out = [form.seats[s] for s, tiles in form.hands.items() if not tiles]
    notes = []
    if out:
        notes.append("out of tiles: " + ", ".join(out))
    if form.text("passes") and form.text("passes") != "0":
        notes.append(f"{form.text('passes')} passes in a row")
    if form.text("boneyard") == "0":
        notes.append("boneyard empty")
    question = "Is the round over?" + (f" ({'; '.join(notes)})" if notes else "")
    rule = result.get("rule")
    if rule == "went_out":
        rule = None
    return RulingView(
        question=question,
        verdict="The round is over" if result["over"] else "Not over yet",
        tone="yes" if result["over"] else "no",
        sentence=result["reason"],
        query=query,
        answer=result,
        **_rule_parts(form.rules, preset, rule),
        **_asked_again(query, result, rule, _round_words),
    )


def _round_words(result: dict[str, Any]) -> str:
    return "the round is over" if result["over"] else "the round is not over yet"


def _judge_score(form: DisputeForm, preset: str) -> RulingView:
    with _engine_errors(form):
        request = form.score_request()
        result = writing.score_answer(judging.judge_score(request))
    query = score_source(request)
    hand = " ".join(str(t) for t in form.hand) or "an empty hand"
    points = result["points"]
    return RulingView(
        question=f"What does {hand} score?",
        verdict=f"{points} point{'' if points in (1, -1) else 's'}",
        tone="info",
        sentence=result["reason"],
        query=query,
        answer=result,
        **_rule_parts(form.rules, preset, "blank_scoring"),
        **_asked_again(query, result, "blank_scoring", _points_words),
    )


def _points_words(result: dict[str, Any]) -> str:
    points = result["points"]
    return f"{points} point{'' if points in (1, -1) else 's'}"


def _judge_call(form: DisputeForm, preset: str) -> RulingView:
    with _engine_errors(form):
        request = form.call_request()
        result = writing.last_tile_call_answer(request, judging.judge_last_tile_call(request))
    query = last_tile_call_source(request)
    draw = result["draw"]
    if draw == 0 and not result["skip_turn"]:
        verdict = "No penalty"
    else:
        verdict = f"Draw {draw}" + (" and miss a turn" if result["skip_turn"] else "")
    in_time = " (called in time)" if form.ticked("in_time") else ""
    return RulingView(
        question=f"A player did not call their last tile{in_time}: what now?",
        verdict=verdict,
        tone="info",
        sentence=result["reason"],
        query=query,
        answer=result,
        **_rule_parts(form.rules, preset, "last_tile_call"),
        **_asked_again(query, result, "last_tile_call", _penalty_words),
    )


def _penalty_words(result: dict[str, Any]) -> str:
    draw = result["draw"]
    if draw == 0 and not result["skip_turn"]:
        return "no penalty"
    tiles = "tile" if draw == 1 else "tiles"
    return f"draw {draw} {tiles}" + (" and miss a turn" if result["skip_turn"] else "")


def _judge_setup(form: DisputeForm, preset: str) -> RulingView:
    with _engine_errors(form):
        request = form.setup_request()
        result = writing.setup_answer(*judging.judge_setup(request))
    query = setup_source(request)
    players = request.players
    engines = result["engines"]
    leaders = result["leaders"]
    schedule = ", ".join(str(e) for e in engines[:4])
    if len(engines) > 4:
        schedule += f" … {engines[-1]}"
    if leaders and leaders[0] is not None and players == len(form.seats):
        first = form.seats[leaders[0]]
        lead = f"{first} leads round 1 and the lead passes to the left each round."
    elif leaders and leaders[0] is not None:
        lead = "The first seat leads round 1 and the lead passes to the left each round."
    else:
        lead = "Whoever holds the round's engine double leads."
    sentence = (
        f"Deal {result['hand_size']} tiles to each of the {players} players; "
        f"{result['boneyard']} stay in the boneyard. {result['rounds']} rounds, engines "
        f"{schedule}. {lead}"
    )
    parts = _rule_parts(form.rules, preset, "hand_size")
    return RulingView(
        question=f"How many tiles do we deal to {players} players, and who leads?",
        verdict=f"{result['hand_size']} tiles each",
        tone="info",
        sentence=sentence,
        query=query,
        answer=result,
        **parts,
    )


# -- the engine's errors in words -------------------------------------------------------------


def field_for(path: FieldPath, form: DisputeForm) -> str:
    """The form field an engine error about the contract field ``path`` belongs to
    (``"form"``, the top of the page, when no field fits)."""
    head, rest = path[:1], path[1:]
    if head == ("table",) and rest[:1] == ("trains",) and len(rest) > 1:
        keys = {row.name: row.key for row in form.rows}
        return f"end-{keys[rest[1]]}" if rest[1] in keys else "form"
    if head == ("table",) and rest[:1] == ("open_doubles",):
        opened = [entry.row.key for entry in form.trains if entry.open_double]
        index = rest[1] if len(rest) > 1 else None
        if isinstance(index, int) and index < len(opened):
            return f"end-{opened[index]}"
        return "form"
    if path == ("table", "engine"):
        return "engine"
    if path[:2] == ("turn", "hand") or head == ("hand",):
        return "hand"
    if head == ("hands",) and rest:
        seat = rest[0]
        return f"hand-{form.seats.index(seat)}" if seat in form.seats else "form"
    if head == ("actions",) and rest:
        index = rest[0]
        if isinstance(index, int) and index < len(form.actions):
            return f"act{form.actions[index].index}-a"
        return "form"
    if head == ("rules",):
        return "change"
    if path == ("next_seat",):
        return "next"
    return "form"


def words_for(error: FieldError, form: DisputeForm) -> str:
    """An engine error in words: the message without its field (the field shows it), contract
    names of trains, hands and the engine said as a player says them."""
    text = error.detail if error.where is None else f"{error.where}: {error.detail}"
    for row in form.rows:
        text = text.replace(f"table.trains.{row.name}", row.label)
    for seat in form.seats:
        text = text.replace(f"the hand of {seat}", f"{seat}'s hand")
    return _sentence(text.replace("table.engine", "the engine"))


def form_error(error: FieldError, form: DisputeForm) -> FormError:
    """The form's error for an engine error: by its field, except one the message names
    otherwise (a tile "in the hand of Ann"), which goes on top of the page as today."""
    field_name = field_for(error.path, form) if error.where is None else "form"
    return FormError(field_name, words_for(error, form))
