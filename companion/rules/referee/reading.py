"""Reading the contract's JSON queries into typed query objects.

Each reader checks the fields of one query kind in the order the contract lists them and
raises :exc:`QueryError` naming the first field at fault. A ``turn`` or ``round_status`` query
also describes a table; :func:`read_table` reads it into a :class:`~companion.rules.table.Table`
without laying anything out (that is :meth:`State.from_table`). When a field after part of the
table is malformed, the error carries the part read so far (:attr:`QueryError.table`), so the
referee can report a fault of that part first, in the order the query lists them.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping
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
    TrainId,
)
from companion.rules.legality import play_of
from companion.rules.rules import Rules, RulesError
from companion.rules.scoring import ROUND_ENDS, RoundEnd
from companion.rules.table import FieldError, FieldPath, Table, TrainSpec, fault_within
from companion.rules.tiles import _BY_PAIR, InvalidTileError, Tile


class QueryError(FieldError):
    """A query is malformed; the message names the field, and :attr:`path` is that field
    (:class:`~companion.rules.table.FieldError`)."""

    def __init__(
        self, path: FieldPath, detail: str, *, where: str | None = None, text: str | None = None
    ) -> None:
        super().__init__(path, detail, where=where, text=text)
        self.table: Table | None = None
        """The part of the query's table read before the malformed field (for the order in
        which faults are reported); ``None`` if the error came first."""
        self.rules: Rules | None = None
        """The rules the table was read under, with :attr:`table`."""

    @classmethod
    def of(cls, fault: FieldError) -> QueryError:
        """The query error for a fault of the table it describes (a
        :exc:`~companion.rules.table.PositionError`): the same field and message."""
        return cls(fault.path, fault.detail, where=fault.where, text=str(fault))


# -- typed queries -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class TurnQuery:
    """A ``turn`` query: the actions a seat takes from a position."""

    rules: Rules
    table: Table
    seat: str
    first_turn: bool
    played: tuple[Action, ...]
    """Actions already taken this turn (``turn.played``), which must all be legal."""
    actions: tuple[Action, ...]
    """The actions to judge, in order."""
    source: Mapping[str, Any] = dataclasses.field(default_factory=dict, compare=False, repr=False)
    """The query as sent, read again where another value of a rule changes how it reads."""


@dataclasses.dataclass(frozen=True, slots=True)
class RoundStatusQuery:
    """A ``round_status`` query: is the round over, between turns?"""

    rules: Rules
    table: Table
    next_seat: str
    passes_in_a_row: int


@dataclasses.dataclass(frozen=True, slots=True)
class ScoreQuery:
    """A ``score`` query: one hand's points at the end of a round."""

    rules: Rules
    hand: tuple[Tile, ...]
    went_out: bool
    markers_up: int
    round_end: RoundEnd | None
    lowest: bool


@dataclasses.dataclass(frozen=True, slots=True)
class SetupQuery:
    """A ``setup`` query: the deal and the round schedule."""

    rules: Rules
    players: int


@dataclasses.dataclass(frozen=True, slots=True)
class LastTileCallQuery:
    """A ``last_tile_call`` query: the penalty for a missed call."""

    rules: Rules
    boneyard: int
    announced_in_time: bool


# -- field readers -----------------------------------------------------------------------------


_MISSING = object()


def _get(obj: Mapping[str, Any], key: str, path: FieldPath, kind: type | tuple[type, ...]) -> Any:
    value = obj.get(key, _MISSING)
    if type(value) is kind:  # the usual case, decided without isinstance
        return value
    if key not in obj:
        raise QueryError((*path, key), "missing")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise QueryError((*path, key), f"expected {_kind_words(kind)}, got {json.dumps(value)}")
    return value


def _opt(obj: Mapping[str, Any], key: str, path: FieldPath, kind: type, default: Any) -> Any:
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


def _count(obj: Mapping[str, Any], key: str, path: FieldPath, default: int | None = None) -> int:
    value = obj.get(key)
    if type(value) is int and value >= 0:  # the usual case
        return value
    if default is not None and key not in obj:
        return default
    value = _get(obj, key, path, int)
    if value < 0:
        raise QueryError((*path, key), f"must be 0 or more, got {value}")
    return int(value)


def read_tile(value: Any, field: FieldPath, set_max: int) -> Tile:
    """One tile ``[a, b]`` of a double-``set_max`` set."""
    try:
        tile = Tile.from_json(value)
    except InvalidTileError as error:
        raise QueryError(field, str(error)) from None
    if tile.high > set_max:
        raise QueryError(field, f"{tile} is not in a double-{set_max} set")
    return tile


@functools.cache
def _rows(set_max: int) -> list[list[Tile]]:
    """``rows[a][b]`` is the tile showing ``a`` and ``b``, for ``0 <= a, b <= set_max``:
    indexing lists is quicker than hashing a pair."""
    return [[_BY_PAIR[a, b] for b in range(set_max + 1)] for a in range(set_max + 1)]


def read_tiles(value: Any, field: FieldPath, set_max: int) -> list[Tile]:
    """A list of distinct tiles of a double-``set_max`` set."""
    if type(value) is not list:
        if not isinstance(value, list):
            raise QueryError(field, f"expected a list of tiles, got {json.dumps(value)}")
    rows = _rows(set_max)
    tiles: list[Tile] = []
    append = tiles.append
    try:
        for a, b in value:
            if type(a) is not int or type(b) is not int or a < 0 or b < 0:
                raise TypeError
            append(rows[a][b])
    except (TypeError, ValueError, IndexError):
        tiles = [read_tile(item, (*field, i), set_max) for i, item in enumerate(value)]
    if len(set(tiles)) != len(tiles):
        raise QueryError(field, "a tile is listed twice")
    return tiles


_RULES_CACHE: dict[object, Rules] = {}


def _rules_cached(data: dict[str, Any]) -> Rules:
    # Keyed on the rules object's contents; types are part of the key, as True and 1 hash
    # alike but are different rule values.
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


def read_rules(query: Mapping[str, Any], set_max: int | None = None) -> Rules:
    """``query.rules``; ``set_max`` is the table's set, when the table gives one."""
    if "rules" not in query:
        raise QueryError(("rules",), "missing")
    data = query["rules"]
    if not isinstance(data, dict):
        raise QueryError(("rules",), 'expected an object such as {"preset": "standard"}')
    if set_max is not None and "set_max" not in data:
        data = {**data, "set_max": set_max}
    try:
        rules = _rules_cached(data)
    except RulesError as error:
        detail, text = fault_within(("rules",), str(error))
        raise QueryError(("rules",), detail, text=text) from None
    if set_max is not None and rules.set_max != set_max:
        raise QueryError(
            ("table", "set_max"),
            f"the table is a double-{set_max} set but rules.set_max is {rules.set_max}",
        )
    return rules


def _table_set_max(query: Mapping[str, Any]) -> int | None:
    table = query.get("table")
    set_max = table.get("set_max") if isinstance(table, dict) else None
    if set_max is not None and type(set_max) is not int:
        raise QueryError(("table", "set_max"), "expected a whole number")
    return set_max


# -- the table -------------------------------------------------------------------------------


def _train_id(name: Any, seats: tuple[str, ...], field: FieldPath) -> TrainId:
    if name == "mexican":
        return MEXICAN
    if name == "mexican2":
        return MEXICAN2
    if isinstance(name, str) and name in seats:
        return seats.index(name)
    raise QueryError(field, f'{json.dumps(name)} is not a seat, "mexican" or "mexican2"')


@functools.lru_cache(maxsize=1024)
def train_names(seats: tuple[str, ...]) -> dict[str, TrainId]:
    """Every train's contract name to its id (tables repeat their seats query after query).
    The dictionary is shared: read it, never change it."""
    names = {seat: i for i, seat in enumerate(seats)}
    names["mexican"] = MEXICAN
    names["mexican2"] = MEXICAN2
    return names


def read_seats(seats_raw: list[Any]) -> tuple[str, ...]:
    """``table.seats``, checked (once per distinct list: tables repeat their seats)."""
    try:
        key = tuple(seats_raw)
        if key in _GOOD_SEATS:
            return key
    except TypeError:  # an unhashable item, refused below
        pass
    if len(seats_raw) < 2 or set(map(type, seats_raw)) != {str} or "" in seats_raw:
        raise QueryError(("table", "seats"), "expected a list of at least two seat names")
    seats = tuple(seats_raw)
    if len(set(seats)) != len(seats) or "mexican" in seats or "mexican2" in seats:
        raise QueryError(("table", "seats"), 'seat names must be distinct and not "mexican"')
    if len(_GOOD_SEATS) > 1024:
        _GOOD_SEATS.clear()
    _GOOD_SEATS.add(seats)
    return seats


_GOOD_SEATS: set[tuple[str, ...]] = set()


def _name_id(
    name: Any, names: dict[str, TrainId], seats: tuple[str, ...], field: FieldPath
) -> TrainId:
    if type(name) is str and name in names:
        return names[name]
    return _train_id(name, seats, field)


def read_table(rules: Rules, table: Any, hands: Mapping[str, list[Tile]] | None = None) -> Table:
    """The contract's ``table`` object, with the ``hands`` already read from the query."""
    if not isinstance(table, dict):
        raise QueryError(("table",), "expected an object")
    hands = hands if hands is not None else {}
    set_max = rules.set_max
    seats = read_seats(_get(table, "seats", ("table",), list))
    engine = _count(table, "engine", ("table",))
    if engine > set_max:
        raise QueryError(("table", "engine"), f"{engine} is not a double of a double-{set_max} set")
    boneyard = _count(table, "boneyard", ("table",))
    trains: list[TrainSpec] = []
    try:
        _read_trains(rules, table, seats, trains)
    except QueryError as error:
        error.rules = rules
        error.table = Table(seats, engine, boneyard, trains, False, None, None, None, hands)
        raise
    names = train_names(seats)
    try:
        open_raw = _opt(table, "open_doubles", ("table",), list, [])
        wanted = [
            (n, _name_id(n, names, seats, ("table", "open_doubles", i)))
            for i, n in enumerate(open_raw)
        ]
        if len({train for _, train in wanted}) != len(wanted):
            raise QueryError(("table", "open_doubles"), "a train is listed twice")
    except QueryError as error:
        error.rules = rules
        error.table = Table(seats, engine, boneyard, trains, True, None, None, None, hands)
        raise
    try:
        out = _out_seats(table, seats, hands)
        left: frozenset[str] | None = None
        if "first_turns_left" in table:
            left_raw = _get(table, "first_turns_left", ("table",), list)
            left = frozenset(
                seats[_name_id(n, names, seats, ("table", "first_turns_left"))] for n in left_raw
            )
            for i, seat in enumerate(out):
                if seat in left:
                    raise QueryError(
                        ("table", "out", i),
                        f"{seat} is out, so cannot be in table.first_turns_left",
                    )
    except QueryError as error:
        error.rules = rules
        error.table = Table(seats, engine, boneyard, trains, True, wanted, None, None, hands)
        raise
    return Table(seats, engine, boneyard, trains, True, wanted, out, left, hands)


# ``TrainSpec`` made from a tuple of all its fields in one C call (a table has several trains,
# and the named tuple's own constructor is Python code).
_spec: Callable[[tuple[Any, ...]], TrainSpec] = functools.partial(tuple.__new__, TrainSpec)


def _read_trains(
    rules: Rules, table: Mapping[str, Any], seats: tuple[str, ...], trains: list[TrainSpec]
) -> None:
    """Appends each train of ``table.trains`` to ``trains`` as it is read."""
    set_max = rules.set_max
    raw_trains = _opt(table, "trains", ("table",), dict, {})
    names = train_names(seats)
    one_mexican = rules.mexican_trains == 1
    rows = _rows(set_max)
    # Under single-branch doubles without wild blanks the usual chain's open end is found
    # while reading it, sparing the position a second walk along it.
    plain = rules.double_branches == 1 and not rules.blanks_wild
    engine = table["engine"]  # read and checked already
    for name, spec in raw_trains.items():
        train = names.get(name, -99)
        if train == -99:
            train = _train_id(name, seats, ("table", "trains", name))
        if train == MEXICAN2 and one_mexican:
            raise QueryError(
                ("table", "trains", name), "only one Mexican Train is allowed under these rules"
            )
        if type(spec) is not dict:
            raise QueryError(("table", "trains", name), 'expected an object such as {"end": 7}')
        marker = spec.get("marker", False)
        if type(marker) is not bool:
            raise QueryError(("table", "trains", name, "marker"), "expected true or false")
        tiles_raw = spec.get("tiles")
        if tiles_raw is not None:
            # The usual train, well-formed distinct tiles, read in one pass; anything else is
            # read again by ``read_tiles``, for its error messages.
            tiles: list[Tile] | None = []
            end = engine if plain else -1
            if type(tiles_raw) is list:
                append = tiles.append  # type: ignore[union-attr]
                try:
                    for a, b in tiles_raw:
                        if type(a) is not int or type(b) is not int or a < 0 or b < 0:
                            tiles = None
                            break
                        append(rows[a][b])
                        if a == end:
                            end = b
                        elif b == end:
                            end = a
                        else:
                            end = -1
                except (TypeError, ValueError, IndexError):  # not a pair, or not in the set
                    tiles = None
                if tiles is not None and len(set(tiles)) != len(tiles):
                    tiles = None
            else:
                tiles = None
            if tiles is None:
                tiles = read_tiles(tiles_raw, ("table", "trains", name, "tiles"), set_max)
                end = -1
            chain_end = end if end >= 0 and tiles else None
            trains.append(_spec((name, train, marker, tiles, None, chain_end)))
        elif "end" in spec:
            end = spec["end"]
            if type(end) is not int or not 0 <= end <= set_max:
                raise QueryError(
                    ("table", "trains", name, "end"),
                    f"expected a number from 0 to {set_max}, got {json.dumps(end)}",
                )
            trains.append(_spec((name, train, marker, None, end, None)))
        elif _opt(spec, "started", ("table", "trains", name), bool, False):
            raise QueryError(("table", "trains", name), 'a started train needs "tiles" or "end"')
        else:
            trains.append(_spec((name, train, marker, None, None, None)))


def _out_seats(
    table: Mapping[str, Any], seats: tuple[str, ...], hands: Mapping[str, list[Tile]]
) -> list[str]:
    """``table.out``: the seats that have played their last tile this round (an extension of
    the contract, documented in docs/rules.md)."""
    out_raw = _opt(table, "out", ("table",), list, [])
    out: list[str] = []
    for i, name in enumerate(out_raw):
        if type(name) is not str or name not in seats:
            raise QueryError(("table", "out", i), f"{json.dumps(name)} is not one of table.seats")
        if name in out:
            raise QueryError(("table", "out", i), f"{name} is listed twice")
        if hands.get(name):
            raise QueryError(("table", "out", i), f"{name} is out but still holds tiles")
        out.append(name)
    return out


# -- actions -----------------------------------------------------------------------------------


def _quick_play(raw: Any, names: dict[str, TrainId], rows: list[list[Tile]]) -> Action | None:
    """The usual action, a well-formed play, read without building field names for errors;
    ``None`` for anything else (left to :func:`read_action`)."""
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


def read_action(raw: Any, field: FieldPath, seats: tuple[str, ...], set_max: int) -> Action:
    """One action: ``{"play": [a, b], "on": train}``, ``{"draw": tile or null}``,
    ``{"end": true}`` or ``{"remove_marker": true}``."""
    if not isinstance(raw, dict):
        raise QueryError(field, 'expected an object such as {"play": [12, 5], "on": "A"}')
    if "play" in raw:
        tile = read_tile(raw["play"], (*field, "play"), set_max)
        if "on" not in raw:
            raise QueryError((*field, "on"), "missing")
        return play_of(tile, _train_id(raw["on"], seats, (*field, "on")))
    if "draw" in raw:
        drawn = raw["draw"]
        return Draw(None if drawn is None else read_tile(drawn, (*field, "draw"), set_max))
    if "end" in raw:
        if raw["end"] is not True:
            raise QueryError((*field, "end"), "expected true")
        return END
    if "remove_marker" in raw:
        if raw["remove_marker"] is not True:
            raise QueryError((*field, "remove_marker"), "expected true")
        return REMOVE_MARKER
    raise QueryError(field, "expected one of play, draw, end, remove_marker")


def no_tile_twice(played: tuple[Action, ...], actions: tuple[Action, ...]) -> None:
    """A set holds each tile once, so a turn that lays one tile twice describes no real
    position: it is a fault of the query, not a question for the rules.

    :raises: :exc:`QueryError` naming the second play.
    """
    fields: list[FieldPath] = [("turn", "played", i) for i in range(len(played))]
    fields += [("actions", i) for i in range(len(actions))]
    laid: set[Tile] = set()
    for field, action in zip(fields, played + actions, strict=True):
        if type(action) is not Play:
            continue
        if action.tile in laid:
            raise QueryError(
                (*field, "play"),
                f"{action.tile} is laid twice in one turn, and a set has only one {action.tile}",
            )
        laid.add(action.tile)


# -- queries -----------------------------------------------------------------------------------


def read_turn(query: Mapping[str, Any], *, rules: Rules | None = None) -> TurnQuery:
    """A ``turn`` query; with ``rules``, read under those instead of ``query.rules``."""
    if rules is None:
        rules = read_rules(query, _table_set_max(query))
    table_raw = _get(query, "table", (), dict)
    turn = _get(query, "turn", (), dict)
    seats_raw = table_raw.get("seats")
    seat = _get(turn, "seat", ("turn",), str)
    if not isinstance(seats_raw, list) or seat not in seats_raw:
        raise QueryError(("turn", "seat"), f"{json.dumps(seat)} is not one of table.seats")
    hand = read_tiles(_get(turn, "hand", ("turn",), list), ("turn", "hand"), rules.set_max)
    out_raw = table_raw.get("out")
    if isinstance(out_raw, list) and seat in out_raw:
        raise QueryError(
            ("turn", "seat"),
            f"{seat} is listed in table.out[{out_raw.index(seat)}]; "
            "a player who is out takes no turn",
        )
    table = read_table(rules, table_raw, {seat: hand})
    try:
        first = _opt(turn, "first_turn", ("turn",), bool, False)
        actions_raw = _get(query, "actions", (), list)
        played_raw = _opt(turn, "played", ("turn",), list, [])
        seats = table.seats
        set_max = rules.set_max
        played = tuple(
            read_action(a, ("turn", "played", i), seats, set_max) for i, a in enumerate(played_raw)
        )
        names = train_names(seats)
        rows = _rows(set_max)
        actions = tuple(
            [
                _quick_play(a, names, rows) or read_action(a, ("actions", i), seats, set_max)
                for i, a in enumerate(actions_raw)
            ]
        )
        no_tile_twice(played, actions)
    except QueryError as error:
        error.rules = rules
        error.table = table
        raise
    return TurnQuery(rules, table, seat, first, played, actions, query)


def read_round_status(query: Mapping[str, Any]) -> RoundStatusQuery:
    """A ``round_status`` query."""
    table_raw = _get(query, "table", (), dict)
    set_max = table_raw.get("set_max")
    rules = read_rules(query, set_max if type(set_max) is int else None)
    hands_raw = _get(query, "hands", (), dict)
    seats = _get(table_raw, "seats", ("table",), list)
    if len(seats) < 2 or not all(isinstance(seat, str) and seat for seat in seats):
        raise QueryError(("table", "seats"), "expected a list of at least two seat names")
    hands: dict[str, list[Tile]] = {}
    for seat in seats:
        if seat not in hands_raw:
            raise QueryError(("hands", seat), "missing")
        hands[seat] = read_tiles(hands_raw[seat], ("hands", seat), rules.set_max)
    for name in hands_raw:
        if name not in seats:
            raise QueryError(("hands", name), "not one of table.seats")
    next_seat = _opt(query, "next_seat", (), str, seats[0] if seats else None)
    if next_seat not in seats:
        raise QueryError(("next_seat",), f"{json.dumps(next_seat)} is not one of table.seats")
    table = read_table(rules, table_raw, hands)
    try:
        passes = _count(query, "passes_in_a_row", (), 0)
    except QueryError as error:
        error.rules = rules
        error.table = table
        raise
    return RoundStatusQuery(rules, table, next_seat, passes)


def read_score(query: Mapping[str, Any]) -> ScoreQuery:
    """A ``score`` query."""
    rules = read_rules(query)
    hand = read_tiles(_get(query, "hand", (), list), ("hand",), rules.set_max)
    went_out = _opt(query, "went_out", (), bool, False)
    markers_up = _count(query, "markers_up", (), 0)
    round_end = _opt(query, "round_end", (), str, None)
    if round_end is not None and round_end not in ROUND_ENDS:
        raise QueryError(
            ("round_end",), f"{json.dumps(round_end)} is not one of {', '.join(ROUND_ENDS)}"
        )
    lowest = _opt(query, "lowest", (), bool, False)
    return ScoreQuery(rules, tuple(hand), went_out, markers_up, round_end, lowest)


def read_setup(query: Mapping[str, Any]) -> SetupQuery:
    """A ``setup`` query."""
    rules = read_rules(query)
    return SetupQuery(rules, _get(query, "players", (), int))


def read_last_tile_call(query: Mapping[str, Any]) -> LastTileCallQuery:
    """A ``last_tile_call`` query."""
    rules = read_rules(query)
    boneyard = _count(query, "boneyard", ())
    in_time = _opt(query, "announced_in_time", (), bool, False)
    return LastTileCallQuery(rules, boneyard, in_time)


# -- typed queries written back --------------------------------------------------------------


def _train_name(train: TrainId, seats: tuple[str, ...]) -> str:
    if train == MEXICAN:
        return "mexican"
    if train == MEXICAN2:
        return "mexican2"
    return seats[train]


def _action_source(action: Action, seats: tuple[str, ...]) -> dict[str, Any]:
    if type(action) is Play:
        return {"play": action.tile.as_list(), "on": _train_name(action.train, seats)}
    if type(action) is Draw:
        return {"draw": action.tile.as_list() if action.tile is not None else None}
    if type(action) is End:
        return {"end": True}
    return {"remove_marker": True}


def _table_source(rules: Rules, table: Table) -> dict[str, Any]:
    """The contract's ``table`` object for a typed table (its hands are written apart)."""
    seats = table.seats
    trains: dict[str, Any] = {}
    for spec in table.trains:
        entry: dict[str, Any]
        if spec.tiles is not None:
            entry = {"tiles": [tile.as_list() for tile in spec.tiles]}
        elif spec.end is not None:
            entry = {"end": spec.end}
        else:
            entry = {"started": False}
        if spec.marker:
            entry["marker"] = True
        trains[spec.name] = entry
    source: dict[str, Any] = {
        "set_max": rules.set_max,
        "engine": table.engine,
        "seats": list(seats),
        "trains": trains,
        "open_doubles": [name for name, _ in table.open_doubles or ()],
        "boneyard": table.boneyard,
    }
    if table.out:
        source["out"] = list(table.out)
    if table.first_turns_left is not None:
        source["first_turns_left"] = [s for s in seats if s in table.first_turns_left]
    return source


def turn_source(query: TurnQuery) -> dict[str, Any]:
    """The contract's ``turn`` query for a typed one made without reading JSON (a client that
    builds :class:`TurnQuery` itself): what :func:`read_turn` reads back into ``query``, and
    reads again under other rules where those change how a table reads."""
    table = query.table
    seats = table.seats
    table_source = _table_source(query.rules, table)
    turn: dict[str, Any] = {
        "seat": query.seat,
        "first_turn": query.first_turn,
        "hand": [tile.as_list() for tile in table.hands.get(query.seat) or ()],
    }
    if query.played:
        turn["played"] = [_action_source(action, seats) for action in query.played]
    return {
        "kind": "turn",
        "rules": query.rules.to_json(),
        "table": table_source,
        "turn": turn,
        "actions": [_action_source(action, seats) for action in query.actions],
    }


def round_status_source(query: RoundStatusQuery) -> dict[str, Any]:
    """The contract's ``round_status`` query that :func:`read_round_status` reads back into
    ``query`` (every seat's hand written, an empty one for a seat that went out)."""
    table = query.table
    return {
        "kind": "round_status",
        "rules": query.rules.to_json(),
        "table": _table_source(query.rules, table),
        "hands": {
            seat: [tile.as_list() for tile in table.hands.get(seat) or ()] for seat in table.seats
        },
        "next_seat": query.next_seat,
        "passes_in_a_row": query.passes_in_a_row,
    }


def score_source(query: ScoreQuery) -> dict[str, Any]:
    """The contract's ``score`` query that :func:`read_score` reads back into ``query``."""
    source: dict[str, Any] = {
        "kind": "score",
        "rules": query.rules.to_json(),
        "hand": [tile.as_list() for tile in query.hand],
        "went_out": query.went_out,
        "markers_up": query.markers_up,
    }
    if query.round_end is not None:
        source["round_end"] = query.round_end
    if query.lowest:
        source["lowest"] = True
    return source


def setup_source(query: SetupQuery) -> dict[str, Any]:
    """The contract's ``setup`` query that :func:`read_setup` reads back into ``query``."""
    return {"kind": "setup", "rules": query.rules.to_json(), "players": query.players}


def last_tile_call_source(query: LastTileCallQuery) -> dict[str, Any]:
    """The contract's ``last_tile_call`` query that :func:`read_last_tile_call` reads back
    into ``query``."""
    return {
        "kind": "last_tile_call",
        "rules": query.rules.to_json(),
        "boneyard": query.boneyard,
        "announced_in_time": query.announced_in_time,
    }
