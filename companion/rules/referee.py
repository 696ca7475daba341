"""The referee contract (shared/spec/referee.md): JSON queries in, JSON answers out."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from companion.rules.actions import (
    END,
    MEXICAN,
    MEXICAN2,
    REMOVE_MARKER,
    Action,
    Draw,
    End,
    Play,
    RemoveMarker,
    TrainId,
)
from companion.rules.legality import nobody_can_play, play_of, plays_for, refusal, train_words
from companion.rules.rules import CHOICES, Rules, RulesError
from companion.rules.scoring import ROUND_ENDS, score_hand
from companion.rules.setup import deal, leaders, schedule
from companion.rules.state import State
from companion.rules.tiles import _BY_PAIR, InvalidTileError, Tile

Answer = dict[str, Any]


class QueryError(ValueError):
    """A query is malformed; the message names the field."""


# -- field readers -----------------------------------------------------------------------------


_MISSING = object()


def _get(obj: Mapping[str, Any], key: str, path: str, kind: type | tuple[type, ...]) -> Any:
    value = obj.get(key, _MISSING)
    if type(value) is kind:  # the usual case, decided without isinstance
        return value
    if key not in obj:
        raise QueryError(f"{path}{key}: missing")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise QueryError(f"{path}{key}: expected {_kind_words(kind)}, got {json.dumps(value)}")
    return value


def _opt(obj: Mapping[str, Any], key: str, path: str, kind: type, default: Any) -> Any:
    value = obj.get(key)
    if value is None:
        return default
    if type(value) is kind:
        return value
    return _get(obj, key, path, kind)


def _kind_words(kind: type | tuple[type, ...]) -> str:
    names = {
        int: "a whole number",
        bool: "true or false",
        str: "a string",
        list: "a list",
        dict: "an object",
    }
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)


def _count(obj: Mapping[str, Any], key: str, path: str, default: int | None = None) -> int:
    value = obj.get(key)
    if type(value) is int and value >= 0:  # the usual case
        return value
    if default is not None and key not in obj:
        return default
    value = _get(obj, key, path, int)
    if value < 0:
        raise QueryError(f"{path}{key}: must be 0 or more, got {value}")
    return int(value)


def _tile(value: Any, field: str, set_max: int) -> Tile:
    try:
        tile = from_json(value)
    except InvalidTileError as error:
        raise QueryError(f"{field}: {error}") from None
    if tile.high > set_max:
        raise QueryError(f"{field}: {tile} is not in a double-{set_max} set")
    return tile


_ROWS: dict[int, list[list[Tile]]] = {}


def _rows(set_max: int) -> list[list[Tile]]:
    """``rows[a][b]`` is the tile showing ``a`` and ``b``, for ``0 <= a, b <= set_max``:
    indexing lists is quicker than hashing a pair."""
    rows = _ROWS.get(set_max)
    if rows is None:
        rows = _ROWS[set_max] = [
            [_BY_PAIR[a, b] for b in range(set_max + 1)] for a in range(set_max + 1)
        ]
    return rows


def _tiles(value: Any, field: str, set_max: int) -> list[Tile]:
    if not isinstance(value, list):
        raise QueryError(f"{field}: expected a list of tiles, got {json.dumps(value)}")
    rows = _rows(set_max)
    tiles: list[Tile] = []
    append = tiles.append
    try:
        for a, b in value:
            if type(a) is not int or type(b) is not int or a < 0 or b < 0:
                raise TypeError
            append(rows[a][b])
    except (TypeError, ValueError, IndexError):
        tiles = [_tile(item, f"{field}[{i}]", set_max) for i, item in enumerate(value)]
    if len(set(tiles)) != len(tiles):
        raise QueryError(f"{field}: a tile is listed twice")
    return tiles


from_json = Tile.from_json


_RULES_CACHE: dict[object, Rules] = {}


def _rules_cached(data: dict[str, Any]) -> Rules:
    # Types are part of the key: True and 1 hash alike but are different rule values.
    try:
        key: object = (tuple(data.items()), tuple(map(type, data.values())))
        rules = _RULES_CACHE.get(key)
    except TypeError:  # a table or schedule given as a JSON object or list
        key = json.dumps(data, sort_keys=True)
        rules = _RULES_CACHE.get(key)
    if rules is None:
        rules = Rules.from_json(data)
        if len(_RULES_CACHE) > 1024:
            _RULES_CACHE.clear()
        _RULES_CACHE[key] = rules
    return rules


def _rules(query: Mapping[str, Any], set_max: int | None = None) -> Rules:
    if "rules" not in query:
        raise QueryError("rules: missing")
    data = query["rules"]
    if not isinstance(data, dict):
        raise QueryError('rules: expected an object such as {"preset": "standard"}')
    if set_max is not None and "set_max" not in data:
        data = {**data, "set_max": set_max}
    try:
        rules = _rules_cached(data)
    except RulesError as error:
        raise QueryError(str(error)) from None
    if set_max is not None and rules.set_max != set_max:
        raise QueryError(
            f"table.set_max: the table is a double-{set_max} set but rules.set_max is "
            f"{rules.set_max}"
        )
    return rules


# -- building a position -----------------------------------------------------------------------


def _train_id(name: Any, seats: tuple[str, ...], field: str) -> TrainId:
    if name == "mexican":
        return MEXICAN
    if name == "mexican2":
        return MEXICAN2
    if isinstance(name, str) and name in seats:
        return seats.index(name)
    raise QueryError(f'{field}: {json.dumps(name)} is not a seat, "mexican" or "mexican2"')


_NAMES_CACHE: dict[tuple[str, ...], dict[str, TrainId]] = {}


def _train_names(seats: tuple[str, ...]) -> dict[str, TrainId]:
    """Every train's contract name to its id (tables repeat their seats query after query)."""
    names = _NAMES_CACHE.get(seats)
    if names is None:
        names = {seat: i for i, seat in enumerate(seats)}
        names["mexican"] = MEXICAN
        names["mexican2"] = MEXICAN2
        if len(_NAMES_CACHE) > 1024:
            _NAMES_CACHE.clear()
        _NAMES_CACHE[seats] = names
    return names


def build_state(
    rules: Rules,
    table: Mapping[str, Any],
    hands: dict[str, list[Tile]],
    acting: str | None,
) -> State:
    """The position a query describes; hands not given stay unknown."""
    if not isinstance(table, dict):
        raise QueryError("table: expected an object")
    set_max = rules.set_max
    seats_raw = _get(table, "seats", "table.", list)
    if len(seats_raw) < 2 or set(map(type, seats_raw)) != {str} or "" in seats_raw:
        raise QueryError("table.seats: expected a list of at least two seat names")
    seats = tuple(seats_raw)
    if len(set(seats)) != len(seats) or "mexican" in seats or "mexican2" in seats:
        raise QueryError('table.seats: seat names must be distinct and not "mexican"')
    engine = _count(table, "engine", "table.")
    if engine > set_max:
        raise QueryError(f"table.engine: {engine} is not a double of a double-{set_max} set")
    boneyard = _count(table, "boneyard", "table.")
    hand_list = [hands.get(seat) for seat in seats]
    leader = seats.index(acting) if acting is not None else 0
    state = State(rules, seats, engine, hand_list, boneyard_count=boneyard, leader=leader)
    trains = _opt(table, "trains", "table.", dict, {})
    names = _train_names(seats)
    markers = state.markers
    one_mexican = rules.mexican_trains == 1
    placed: list[tuple[str, list[Tile]]] = []
    laid = 1  # the engine
    rows = _rows(set_max) if state.branches == 1 and not state.wild else None
    for name, spec in trains.items():
        train = names.get(name, -99)
        if train == -99:
            train = _train_id(name, seats, f"table.trains.{name}")
        if train == MEXICAN2 and one_mexican:
            raise QueryError(
                f"table.trains.{name}: only one Mexican Train is allowed under these rules"
            )
        if type(spec) is not dict:
            raise QueryError(f'table.trains.{name}: expected an object such as {{"end": 7}}')
        marker = spec.get("marker", False)
        if type(marker) is not bool:
            raise QueryError(f"table.trains.{name}.marker: expected true or false")
        if train >= 0:
            markers[train] = marker
        tiles_raw = spec.get("tiles")
        if tiles_raw is not None:
            tiles = _lay_plain_chain(state, train, tiles_raw, rows)
            if tiles is not None:
                placed.append((name, tiles))
                laid += len(tiles)
                continue
            tiles = _tiles(tiles_raw, f"table.trains.{name}.tiles", set_max)
            placed.append((name, tiles))
            laid += len(tiles)
            bad = state.place_chain(train, tiles)
            if bad >= 0:
                raise QueryError(
                    f"table.trains.{name}.tiles[{bad}]: {tiles[bad]} does not match the train's end"
                )
        elif "end" in spec:
            end = spec["end"]
            if type(end) is not int or not 0 <= end <= set_max:
                raise QueryError(
                    f"table.trains.{name}.end: expected a number from 0 to {set_max}, "
                    f"got {json.dumps(end)}"
                )
            state.start_with_end(train, end)
        elif _opt(spec, "started", f"table.trains.{name}.", bool, False):
            raise QueryError(f'table.trains.{name}: a started train needs "tiles" or "end"')
    # The table's tiles are all in ``on_table`` now, so a repeat shows as a shortfall there.
    on_table = state.on_table
    duplicate = len(on_table) != laid
    if not duplicate:
        in_hands = 0
        for hand in hands.values():
            in_hands += len(hand)
            if not on_table.isdisjoint(hand):
                duplicate = True
        if len(hands) > 1 and len(set().union(*hands.values())) != in_hands:
            duplicate = True
    if duplicate:
        _report_duplicate(engine, hands, placed)
    open_raw = _opt(table, "open_doubles", "table.", list, [])
    wanted = [
        names[n]
        if type(n) is str and n in names
        else _train_id(n, seats, f"table.open_doubles[{i}]")
        for i, n in enumerate(open_raw)
    ]
    if len(set(wanted)) != len(wanted):
        raise QueryError("table.open_doubles: a train is listed twice")
    for train in list(state.open_doubles):
        if train not in wanted:
            state.clear_open_double(train)
    for i, train in enumerate(wanted):
        if not state.started[train]:
            raise QueryError(f"table.open_doubles[{i}]: {open_raw[i]}'s train is not started")
        tiles = state.train_tiles[train]
        if tiles and state.double_value[train] < 0 and not tiles[-1].is_double:
            raise QueryError(f"table.open_doubles[{i}]: {open_raw[i]}'s last tile is not a double")
        state.set_open_double(train)
    out = _out_seats(table, seats, hands)
    if "first_turns_left" in table:
        left_raw = _get(table, "first_turns_left", "table.", list)
        left = {
            seats[
                names[n]
                if type(n) is str and n in names
                else _train_id(n, seats, "table.first_turns_left")
            ]
            for n in left_raw
        }
        for i, seat in enumerate(out):
            if seat in left:
                raise QueryError(
                    f"table.out[{i}]: {seat} is out, so cannot be in table.first_turns_left"
                )
        state.first_turn_left = [seat in left for seat in seats]
    else:
        # Without the list, a seat with an unstarted, unmarked train has not had a turn yet.
        started = state.started
        state.first_turn_left = [not started[i] and not markers[i] for i in range(len(seats))]
    for seat in out:
        state.mark_out(seats.index(seat))
    return state


def _out_seats(
    table: Mapping[str, Any], seats: tuple[str, ...], hands: dict[str, list[Tile]]
) -> list[str]:
    """``table.out``: the seats that have played their last tile this round (an extension of
    the contract, documented in docs/rules.md)."""
    out_raw = _opt(table, "out", "table.", list, [])
    out: list[str] = []
    for i, name in enumerate(out_raw):
        if type(name) is not str or name not in seats:
            raise QueryError(f"table.out[{i}]: {json.dumps(name)} is not one of table.seats")
        if name in out:
            raise QueryError(f"table.out[{i}]: {name} is listed twice")
        if hands.get(name):
            raise QueryError(f"table.out[{i}]: {name} is out but still holds tiles")
        out.append(name)
    return out


def _lay_plain_chain(
    state: State, train: TrainId, raw: Any, rows: list[list[Tile]] | None
) -> list[Tile] | None:
    """Reads and lays a train's tiles in one pass when nothing about it is unusual.

    The usual train: an unstarted train, single-branch doubles, no wild blanks, and tiles
    that are well formed, distinct and chain from the engine. Returns ``None`` (laying
    nothing) for anything else, which then takes the general path and its error messages.
    """
    if rows is None or type(raw) is not list or not raw or state.started[train]:
        return None
    end = state.engine
    tiles: list[Tile] = []
    append = tiles.append
    try:
        for a, b in raw:
            if type(a) is not int or type(b) is not int or a < 0 or b < 0:
                return None
            tile = rows[a][b]
            if a == end:
                end = b
            elif b == end:
                end = a
            else:
                return None
            append(tile)
    except (TypeError, ValueError, IndexError):  # not a pair, or not in the set
        return None
    if len(set(tiles)) != len(tiles):
        return None
    counts = state.table_count
    for a, b in raw:
        counts[a] += 1
        if a != b:
            counts[b] += 1
    state.train_tiles[train] = tiles
    state.started[train] = True
    if tiles[-1].is_double:
        state.ends[train] = []
        state.double_value[train] = end
        state.covers_left[train] = 1
        state.open_doubles.append(train)
    else:
        state.ends[train] = [end]
    state.on_table.update(tiles)
    return tiles


def _report_duplicate(
    engine: int, hands: dict[str, list[Tile]], placed: list[tuple[str, list[Tile]]]
) -> None:
    """Names the first tile that is in two places (in the order the query lists them)."""
    seen: dict[Tile, str] = {}
    places: list[tuple[str, list[Tile]]] = [("table.engine", [Tile(engine, engine)])]
    places.extend((f"the hand of {seat}", hand) for seat, hand in hands.items())
    places.extend((f"table.trains.{name}", tiles) for name, tiles in placed)
    for where, tiles in places:
        for tile in tiles:
            if tile in seen:
                raise QueryError(f"{where}: {tile} is also in {seen[tile]}")
            seen[tile] = where


# -- turn ----------------------------------------------------------------------------------


def _quick_play(raw: Any, names: dict[str, TrainId], rows: list[list[Tile]]) -> Action | None:
    """The usual action, a well-formed play, read without building field names for errors;
    ``None`` for anything else (left to :func:`_parse_action`)."""
    if type(raw) is not dict:
        return None
    tile_raw = raw.get("play")
    on = raw.get("on")
    if type(tile_raw) is not list or len(tile_raw) != 2 or type(on) is not str or on not in names:
        return None
    a, b = tile_raw
    if type(a) is not int or type(b) is not int or a < 0 or b < 0:
        return None
    try:
        tile = rows[a][b]
    except IndexError:
        return None
    return play_of(tile, names[on])


def _parse_action(raw: Any, field: str, seats: tuple[str, ...], set_max: int) -> Action:
    if not isinstance(raw, dict):
        raise QueryError(f'{field}: expected an object such as {{"play": [12, 5], "on": "A"}}')
    if "play" in raw:
        tile = _tile(raw["play"], field + ".play", set_max)
        if "on" not in raw:
            raise QueryError(f"{field}.on: missing")
        return play_of(tile, _train_id(raw["on"], seats, field + ".on"))
    if "draw" in raw:
        drawn = raw["draw"]
        return Draw(None if drawn is None else _tile(drawn, field + ".draw", set_max))
    if "end" in raw:
        if raw["end"] is not True:
            raise QueryError(f"{field}.end: expected true")
        return END
    if "remove_marker" in raw:
        if raw["remove_marker"] is not True:
            raise QueryError(f"{field}.remove_marker: expected true")
        return REMOVE_MARKER
    raise QueryError(f"{field}: expected one of play, draw, end, remove_marker")


def _after(state: State, turn_over: bool) -> Answer:
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


def _judge_turn(rules: Rules, query: Mapping[str, Any]) -> tuple[Answer, int | None, str]:
    state, played, actions = _prepare_turn(rules, query)
    return _run_turn(state, played, actions)


def _prepare_turn(
    rules: Rules, query: Mapping[str, Any]
) -> tuple[State, list[Action], list[Action]]:
    table = _get(query, "table", "", dict)
    turn = _get(query, "turn", "", dict)
    seats_raw = table.get("seats")
    seat_name = _get(turn, "seat", "turn.", str)
    if not isinstance(seats_raw, list) or seat_name not in seats_raw:
        raise QueryError(f"turn.seat: {json.dumps(seat_name)} is not one of table.seats")
    hand = _tiles(_get(turn, "hand", "turn.", list), "turn.hand", rules.set_max)
    out_raw = table.get("out")
    if isinstance(out_raw, list) and seat_name in out_raw:
        raise QueryError(
            f"turn.seat: {seat_name} is listed in table.out[{out_raw.index(seat_name)}]; "
            "a player who is out takes no turn"
        )
    state = build_state(rules, table, {seat_name: hand}, seat_name)
    seats = state.seats
    first = _opt(turn, "first_turn", "turn.", bool, False)
    state.begin_turn(seats.index(seat_name), first_turn=first)
    state.end_if_over()
    actions_raw = _get(query, "actions", "", list)
    played_raw = _opt(turn, "played", "turn.", list, [])
    played = [
        _parse_action(a, f"turn.played[{i}]", seats, rules.set_max)
        for i, a in enumerate(played_raw)
    ]
    names = _train_names(seats)
    rows = _rows(rules.set_max)
    actions = [
        _quick_play(a, names, rows) or _parse_action(a, f"actions[{i}]", seats, rules.set_max)
        for i, a in enumerate(actions_raw)
    ]
    return state, played, actions


def _run_turn(
    state: State, played: list[Action], actions: list[Action]
) -> tuple[Answer, int | None, str]:
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
                _resolve_unknown_draw(state, action.tile)
            refused = refusal(state, action)
        if refused is not None:
            if step < 0:
                raise QueryError(f"turn.played[{index}]: not a legal action: {refused[1]}")
            answer = {
                "legal": False,
                "step": step,
                "rule": refused[0],
                "reason": refused[1],
                "after": _after(state, ended),
            }
            return answer, step, refused[0]
        if noop:
            continue
        state.apply(action)
        if type(action) is End:
            ended = True
    last = "The turn is legal."
    return (
        {"legal": True, "step": None, "rule": None, "reason": last, "after": _after(state, ended)},
        None,
        "",
    )


def _resolve_unknown_draw(state: State, tile: Tile) -> None:
    hand = state.hands[state.turn]
    if hand is None or tile in hand or tile in state.on_table:
        return
    state.add_to_hand(state.turn, tile)
    state.drawn = tile
    state.drawn_unknown = False


def answer_turn(query: Mapping[str, Any], *, explain_alternatives: bool = True) -> Answer:
    """Judges a ``turn`` query."""
    table = query.get("table")
    set_max = table.get("set_max") if isinstance(table, dict) else None
    if set_max is not None and (type(set_max) is not int):
        raise QueryError("table.set_max: expected a whole number")
    rules = _rules(query, set_max)
    answer, step, rule = _judge_turn(rules, query)
    if step is not None and explain_alternatives:
        answer["allowed_under"] = allowed_under(rules, query, step, rule)
    return answer


# Keys that change how the table itself is read, so the position is rebuilt for them.
_STRUCTURAL = frozenset({"blanks_wild", "double_branches", "mexican_trains", "set_max"})


_REPLACED: dict[tuple[int, str, object, type], tuple[Rules, Rules]] = {}


def _replaced(rules: Rules, rule: str, value: Any) -> Rules:
    """``rules.replace(rule=value)``, remembered: the same few rule sets recur query after
    query. The key holds on to ``rules`` itself, so its id cannot be reused meanwhile."""
    key = (id(rules), rule, value, type(value))
    hit = _REPLACED.get(key)
    if hit is not None:
        return hit[1]
    other = rules.replace(**{rule: value})
    if len(_REPLACED) > 4096:
        _REPLACED.clear()
    _REPLACED[key] = (rules, other)
    return other


def allowed_under(rules: Rules, query: Mapping[str, Any], step: int, rule: str) -> list[Any]:
    """Other values of the deciding ``rule`` under which the refused step would be legal."""
    choices = CHOICES.get(rule)
    if not choices:
        return []
    current = getattr(rules, rule)
    values = []
    base: tuple[State, list[Action], list[Action]] | None = None
    for value in choices:
        if value == current and type(value) is type(current):
            continue
        try:
            other = _replaced(rules, rule, value)
            if rule in _STRUCTURAL:
                state, played, actions = _prepare_turn(other, query)
            else:
                if base is None:
                    base = _prepare_turn(rules, query)
                state, played, actions = base[0].with_rules(other), base[1], base[2]
            _, other_step, _ = _run_turn(state, played, actions)
        except (QueryError, RulesError):
            continue
        if other_step is None or other_step > step:
            values.append(value)
    return values


# -- other query kinds -----------------------------------------------------------------------


def answer_round_status(query: Mapping[str, Any]) -> Answer:
    """Judges a ``round_status`` query."""
    table = _get(query, "table", "", dict)
    set_max = table.get("set_max")
    rules = _rules(query, set_max if type(set_max) is int else None)
    hands_raw = _get(query, "hands", "", dict)
    seats = _get(table, "seats", "table.", list)
    if len(seats) < 2 or not all(isinstance(seat, str) and seat for seat in seats):
        raise QueryError("table.seats: expected a list of at least two seat names")
    hands: dict[str, list[Tile]] = {}
    for seat in seats:
        if seat not in hands_raw:
            raise QueryError(f"hands.{seat}: missing")
        hands[seat] = _tiles(hands_raw[seat], f"hands.{seat}", rules.set_max)
    for name in hands_raw:
        if name not in seats:
            raise QueryError(f"hands.{name}: not one of table.seats")
    next_seat = _opt(query, "next_seat", "", str, seats[0] if seats else None)
    if next_seat not in seats:
        raise QueryError(f"next_seat: {json.dumps(next_seat)} is not one of table.seats")
    state = build_state(rules, table, hands, next_seat)
    passes = _count(query, "passes_in_a_row", "", 0)
    state.passes_in_a_row = passes
    state.begin_turn(
        state.seats.index(next_seat), first_turn=state.first_turn_left[state.seats.index(next_seat)]
    )
    out = [seat for seat in state.seats if not hands[seat]]
    n = state.n
    if out:
        for seat in out:
            state.mark_out(state.seats.index(seat))
        who = " and ".join(out)
        if state.pending_out_doubles():
            return _waiting_on_double(state, who, passes)
        waiting = [
            s for i, s in enumerate(state.seats) if state.first_turn_left[i] and s not in out
        ]
        if (
            waiting
            and "first_turns_left" in table
            and rules.first_turn_out == ("others_finish_first_turn")
        ):
            return {
                "over": False,
                "rule": "first_turn_out",
                "reason": f"{who} went out on the first turn; {', '.join(waiting)} still take "
                "their first turn.",
            }
        return {"over": True, "rule": "went_out", "reason": f"{who} has played their last tile."}
    if rules.blocked_definition == "full_lap_of_passes":
        if passes >= n:
            return {
                "over": True,
                "rule": "blocked_definition",
                "reason": f"All {n} players have passed in a row: the round is blocked.",
            }
        return {
            "over": False,
            "rule": "blocked_definition",
            "reason": f"{passes} passes in a row; the round ends after a full lap of {n}.",
        }
    if state.boneyard_count > 0:
        return {
            "over": False,
            "rule": "blocked_definition",
            "reason": "The boneyard still has tiles to draw.",
        }
    if nobody_can_play(state):
        return {
            "over": True,
            "rule": "blocked_definition",
            "reason": "The boneyard is empty and no one can play anywhere: the round is blocked.",
        }
    for seat in range(n):
        plays = plays_for(state, seat, True)
        if plays:
            play = plays[0]
            return {
                "over": False,
                "rule": "blocked_definition",
                "reason": f"{state.seats[seat]} can still play {play.tile} on "
                f"{train_words(state, play.train)}.",
            }
    return {
        "over": False,
        "rule": "blocked_definition",
        "reason": "A player can still play once the passing players' markers go up.",
    }


def _waiting_on_double(state: State, who: str, passes: int) -> Answer:
    """``round_status`` when players are out on a double that must still be covered
    (``go_out_on_double`` ``must_be_covered``): the round goes on until it is covered, or
    ends blocked when it can no longer be (the same test as the engine's own play)."""
    n = state.n
    if state.rules.blocked_definition == "full_lap_of_passes":
        if passes >= n:
            return {
                "over": True,
                "rule": "blocked_definition",
                "reason": f"{who} went out on a double, and all {n} players have passed in a "
                "row since: the round is blocked.",
            }
    elif state.going_out_stuck():
        return {
            "over": True,
            "rule": "go_out_on_double",
            "reason": f"{who} went out on a double that no one can cover: the boneyard is empty "
            "and no hand holds a tile that fits it, so the round is blocked.",
        }
    elif state.boneyard_count == 0 and nobody_can_play(state):
        return {
            "over": True,
            "rule": "blocked_definition",
            "reason": "The boneyard is empty and no one can play anywhere: the round is blocked.",
        }
    return {
        "over": False,
        "rule": "go_out_on_double",
        "reason": f"{who} is out of tiles, but a double is still open and must be covered "
        "before the round ends.",
    }


def answer_score(query: Mapping[str, Any]) -> Answer:
    """Scores a hand (``score`` query)."""
    rules = _rules(query)
    hand = _tiles(_get(query, "hand", "", list), "hand", rules.set_max)
    went_out = _opt(query, "went_out", "", bool, False)
    markers_up = _count(query, "markers_up", "", 0)
    round_end = _opt(query, "round_end", "", str, None)
    if round_end is not None and round_end not in ROUND_ENDS:
        raise QueryError(
            f"round_end: {json.dumps(round_end)} is not one of {', '.join(ROUND_ENDS)}"
        )
    lowest = _opt(query, "lowest", "", bool, False)
    score = score_hand(
        hand, rules, went_out=went_out, markers_up=markers_up, round_end=round_end, lowest=lowest
    )
    return {"points": score.points, "reason": score.reason}


def answer_setup(query: Mapping[str, Any]) -> Answer:
    """Deal and schedule (``setup`` query)."""
    rules = _rules(query)
    players = _get(query, "players", "", int)
    try:
        dealt = deal(rules, players)
        engines = schedule(rules)
    except RulesError as error:
        raise QueryError(str(error)) from None
    return {
        "hand_size": dealt.hand_size,
        "set_tiles": dealt.set_tiles,
        "boneyard": dealt.boneyard,
        "rounds": len(engines),
        "engines": list(engines),
        "leaders": list(leaders(rules, players)),
    }


def answer_last_tile_call(query: Mapping[str, Any]) -> Answer:
    """The penalty for a missed last-tile call (``last_tile_call`` query)."""
    rules = _rules(query)
    boneyard = _count(query, "boneyard", "")
    in_time = _opt(query, "announced_in_time", "", bool, False)
    rule = rules.last_tile_call
    if in_time:
        return {"draw": 0, "skip_turn": False, "reason": "The call was made in time: no penalty."}
    wanted, skip = {
        "none": (0, False),
        "draw1": (1, False),
        "draw2": (2, False),
        "draw2_and_skip": (2, True),
    }[rule]
    draw = min(wanted, boneyard)
    if rule == "none":
        reason = "Calling the last tile is a courtesy here: no penalty."
    else:
        short = f" (only {boneyard} left in the boneyard)" if draw < wanted else ""
        reason = f"Missed call: draw {draw}{short}" + (" and lose the next turn." if skip else ".")
    return {"draw": draw, "skip_turn": skip, "reason": reason}


KINDS = {
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
            raise QueryError('query: expected an object with a "kind"')
        kind = query.get("kind")
        handler = KINDS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise QueryError(f"kind: {json.dumps(kind)} is not one of {', '.join(KINDS)}")
        return handler(query), True
    except (QueryError, RulesError, InvalidTileError) as error:
        return {"error": str(error)}, False
    except RecursionError:
        return {"error": "query: nested too deeply"}, False
    except Exception as error:  # noqa: BLE001 - the contract forbids tracebacks
        return {"error": f"could not judge this query ({type(error).__name__}: {error})"}, False


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
    parsing itself. Reference counting still frees everything."""
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
        return json.dumps(answers), ok


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
