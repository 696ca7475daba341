"""A disputed position as a player enters it on the referee page, and the rules engine's typed
query it becomes (never contract JSON read back).

The page collects as few taps as it can: a train is one number (its open end) or "not
started"; a train whose end nobody entered is assumed to fit the tile laid on it, or, when
no tile is laid on it, to show a number that no tile of the question shows (so it cannot
change the ruling). Everything a player typed is kept as text in :attr:`DisputeForm.values`,
so a refused form comes back exactly as it was sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules import (
    END,
    MEXICAN,
    MEXICAN2,
    REMOVE_MARKER,
    Action,
    Draw,
    Rules,
    Table,
    Tile,
    TrainId,
    TrainSpec,
    full_set,
)
from ..rules.legality import play_of
from ..rules.referee import (
    LastTileCallQuery,
    QueryError,
    RoundStatusQuery,
    ScoreQuery,
    SetupQuery,
    TurnQuery,
    report_earlier_fault,
)
from ..rules.referee.reading import no_tile_twice, read_seats
from ..rules.scoring import ROUND_ENDS, RoundEnd

ASK_KINDS: dict[str, str] = {
    "turn": "Can I play this here?",
    "options": "What can I play?",
    "round": "Is the round over?",
    "score": "What does this hand score?",
    "call": "I forgot to call my last tile — what now?",
    "setup": "How many tiles do we deal, who leads?",
}

ACTION_ROWS = 5
"""Actions a player can enter for one turn (a long first-turn run fits)."""

ACTION_KINDS: dict[str, str] = {
    "play": "Play a tile",
    "draw": "Draw from the boneyard",
    "end": "End the turn or pass",
    "marker": "Take their marker down",
}

BONEYARD_CHOICES: dict[str, str] = {
    "some": "Has tiles",
    "0": "Empty",
    "1": "1 tile left",
    "2": "2 tiles left",
    "3": "3 tiles left",
}
# "Has tiles": enough for any draw a single turn can ask for.
BONEYARD_SOME = 10

ROUND_END_CHOICES: dict[str, str] = {
    "": "Not said",
    "went_out": "Someone went out",
    "went_out_on_double": "Someone went out on a double",
    "blocked": "The round was blocked",
}
_ROUND_END_VALUES: dict[str, RoundEnd] = {end: end for end in ROUND_ENDS}

MEXICAN_KEYS = ("m1", "m2")


class FormError(ValueError):
    """The question cannot be judged as entered; ``field`` is the form field the message
    belongs to (the rules engine's own ``PositionError`` is about a contract table)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class TrainRow:
    """One train as the form shows it."""

    key: str
    """The form's suffix: a seat index ("0", "1", ...) or "m1" / "m2"."""
    name: str
    """The contract's name: the owner's seat name, "mexican" or "mexican2"."""
    label: str
    """How a player says it: "Ann's train", "the Mexican Train"."""
    owner: int | None
    """The owner's seat index; ``None`` for a Mexican Train."""


@dataclass(frozen=True)
class TrainEntry:
    """What was entered for one train."""

    row: TrainRow
    started: bool
    end: int | None
    """The open end; ``None`` when started but not given."""
    marker: bool
    open_double: bool


@dataclass(frozen=True)
class ActionEntry:
    """One action of the disputed turn."""

    kind: str
    """A key of :data:`ACTION_KINDS`."""
    tile: Tile | None
    """The tile played, or drawn (``None`` when the drawn tile is unknown)."""
    against: int | None
    """For a play: the half laid against the train, as the player entered it first."""
    train: TrainRow | None
    """For a play: the train it goes on."""
    index: int
    """The form row (0-based) it came from."""


def train_rows(seats: Sequence[str], rules: Rules) -> list[TrainRow]:
    """Every train the table may have under ``rules``, seats first."""
    rows = [TrainRow(str(i), seat, f"{seat}'s train", i) for i, seat in enumerate(seats)]
    rows.append(TrainRow("m1", "mexican", "the Mexican Train", None))
    if rules.mexican_trains == 2:
        rows.append(TrainRow("m2", "mexican2", "the second Mexican Train", None))
    return rows


def tile_words(tile: Tile, against: int | None = None) -> str:
    """A tile as players say it, the half laid against the train first when known."""
    if against is not None and tile.has(against):
        return f"{against}-{tile.other_half(against)}"
    return str(tile)


_Laid = tuple[TrainRow, int | None, bool]
"""A train as the position gives it: its row, its open end (``None``: not started), marker."""


@dataclass
class DisputeForm:
    """The referee form of one question: what was entered, read and checked.

    ``values`` holds every field as sent (for showing the form again); the typed parts are
    filled by :meth:`read`, which collects each problem by field in ``errors``.
    """

    ask: str
    seats: tuple[str, ...]
    rules: Rules
    engine: int
    values: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    trains: list[TrainEntry] = field(default_factory=list)
    actions: list[ActionEntry] = field(default_factory=list)
    hand: list[Tile] = field(default_factory=list)
    hands: dict[int, list[Tile]] = field(default_factory=dict)
    seat: int | None = None

    # -- reading ---------------------------------------------------------------------------

    @classmethod
    def blank(cls, ask: str, seats: Sequence[str], rules: Rules, engine: int) -> DisputeForm:
        """A fresh form with the defaults: every train started, nothing marked or open."""
        form = cls(ask, tuple(seats), rules, engine)
        form.values = {"engine": str(engine), "boneyard": "some", "act0-kind": "play"}
        return form

    @classmethod
    def from_form(
        cls,
        ask: str,
        seats: Sequence[str],
        rules: Rules,
        engine: int,
        form: Mapping[str, str],
        lists: Mapping[str, list[str]],
    ) -> DisputeForm:
        """Reads a submitted form (``lists`` holds the multi-valued fields such as tiles)."""
        dispute = cls(ask, tuple(seats), rules, engine)
        dispute.values = {key: value for key, value in form.items() if key != "csrf_token"}
        for key, many in lists.items():
            dispute.values[key] = list(many)
        dispute.read()
        return dispute

    @property
    def set_max(self) -> int:
        return self.rules.set_max

    @property
    def rows(self) -> list[TrainRow]:
        return train_rows(self.seats, self.rules)

    @property
    def anyone_out(self) -> bool:
        """Whether a seat is marked as out of tiles."""
        return any(self.ticked(f"out-{seat}") for seat in range(len(self.seats)))

    def text(self, key: str) -> str:
        value = self.values.get(key, "")
        return value.strip() if isinstance(value, str) else ""

    def ticked(self, key: str) -> bool:
        return bool(self.text(key))

    def tile_list(self, key: str) -> list[str]:
        value = self.values.get(key, [])
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

    def number(self, key: str, low: int, high: int, what: str) -> int | None:
        """A whole number from ``low`` to ``high``, or ``None`` when left blank."""
        text = self.text(key)
        if not text:
            return None
        if not re.fullmatch(r"\d{1,3}", text) or not low <= int(text) <= high:
            self.errors[key] = f"{what} must be a number from {low} to {high}."
            return None
        return int(text)

    def read(self) -> None:
        """Reads and checks the fields this kind of question uses."""
        engine = self.number("engine", 0, self.set_max, "The engine")
        if engine is not None:
            self.engine = engine
        if self.ask in ("turn", "options", "round"):
            self._read_trains()
        if self.ask in ("turn", "options"):
            self._read_turn()
        elif self.ask == "round":
            self._read_round()
        elif self.ask == "score":
            self.hand = self._read_tiles("hand", "hand")
        self._check_tiles_once()

    @property
    def first_turn(self) -> bool:
        """Whether the question is about a player's first turn of the round."""
        return self.ask in ("turn", "options") and self.ticked("first")

    def _read_trains(self) -> None:
        for row in self.rows:
            key = row.key
            text = self.text(f"end-{key}")
            # A train left as it was is started, except on a first turn: then, as at the table,
            # the trains nobody has played on yet are the usual case.
            started = text == "started" or (text != "none" and not (text == "" and self.first_turn))
            end = None
            if started and text and text != "started":
                end = self.number(f"end-{key}", 0, self.set_max, f"The end of {row.label}")
            marker = self.ticked(f"marker-{key}") and row.owner is not None
            open_double = self.ticked(f"open-{key}")
            if open_double and not started:
                self.errors[f"end-{key}"] = (
                    f"{row.label[0].upper()}{row.label[1:]} is not started, so no double can be "
                    "open on it. Pick the number of the double at its end."
                )
            elif open_double and end is None and f"end-{key}" not in self.errors:
                self.errors[f"end-{key}"] = (
                    f"Which double is open on {row.label}? Pick its number as the train's end."
                )
            self.trains.append(TrainEntry(row, started, end, marker, open_double))
        self._check_mexicans()

    def _check_mexicans(self) -> None:
        if self.rules.mexican_trains == 1:
            for key in ("end-m2", "open-m2"):
                text = self.text(key)
                if text and text != "none":
                    # The form shows no second Mexican Train here, so the page says it on top.
                    self.errors["form"] = (
                        "These house rules allow only one Mexican Train, so there is no second one."
                    )

    def _read_tiles(self, key: str, error_key: str) -> list[Tile]:
        tiles: list[Tile] = []
        for text in self.tile_list(key):
            try:
                tile = Tile.parse(text)
            except ValueError:
                self.errors[error_key] = "One of the tiles sent is not a domino."
                return []
            if tile.high > self.set_max:
                self.errors[error_key] = f"{tile} is not in a double-{self.set_max} set."
                return []
            if tile not in tiles:
                tiles.append(tile)
        return tiles

    def _read_turn(self) -> None:
        seat_text = self.text("seat")
        if seat_text.isdigit() and int(seat_text) < len(self.seats):
            self.seat = int(seat_text)
        else:
            self.errors["seat"] = "Whose turn is it? Tap their name."
        if self.seat is not None and self.ticked(f"out-{self.seat}"):
            self.errors["seat"] = (
                f"{self.seats[self.seat]} is marked as out of tiles, so it can't be their turn."
            )
        self.hand = self._read_tiles("hand", "hand")
        if self.ask == "options":
            if not self.hand and "hand" not in self.errors:
                self.errors["hand"] = (
                    "Tick the tiles in their hand: what they can play depends on every tile."
                )
            return
        rows = {row.key: row for row in self.rows}
        for index in range(ACTION_ROWS):
            prefix = f"act{index}"
            kind = self.text(f"{prefix}-kind")
            if not kind and index > 0 and self.text(f"{prefix}-a"):
                kind = "play"  # a tile tapped in a later row without saying what was done
            if not kind:
                continue
            if kind not in ACTION_KINDS:
                self.errors[f"{prefix}-kind"] = "Choose what the player did."
                continue
            tile: Tile | None = None
            against: int | None = None
            train: TrainRow | None = None
            first = self.number(f"{prefix}-a", 0, self.set_max, "A half")
            second = self.number(f"{prefix}-b", 0, self.set_max, "A half")
            if kind in ("play", "draw") and first is not None and second is not None:
                tile = Tile(first, second)
                against = first
            if kind == "play":
                if tile is None and f"{prefix}-a" not in self.errors:
                    self.errors[f"{prefix}-a"] = "Which tile? Tap both of its numbers."
                on = self.text(f"{prefix}-on") or (str(self.seat) if self.seat is not None else "")
                if on not in rows:
                    self.errors[f"{prefix}-on"] = (
                        "There is no such train under these house rules."
                        if on == "m2"
                        else "Which train is the tile played on?"
                    )
                else:
                    train = rows[on]
            elif kind == "draw" and (first is None) != (second is None):
                self.errors[f"{prefix}-a"] = (
                    "Tap both numbers of the tile drawn, or neither if nobody knows it."
                )
            self.actions.append(ActionEntry(kind, tile, against, train, index))
        if not self.actions and not self.errors:
            self.errors["act0-kind"] = "Say what the player did or wants to do."

    def _read_round(self) -> None:
        next_text = self.text("next")
        if next_text.isdigit() and int(next_text) < len(self.seats):
            self.seat = int(next_text)
        else:
            self.errors["next"] = "Whose turn is next? Tap their name."
        self.number("passes", 0, 99, "Passes in a row")
        for seat in range(len(self.seats)):
            if self.ticked(f"out-{seat}"):
                self.hands[seat] = []
            else:
                tiles = self._read_tiles(f"hand-{seat}", f"hand-{seat}")
                if tiles:
                    self.hands[seat] = tiles

    # -- impossible positions --------------------------------------------------------------

    def _places(self) -> Iterable[tuple[Tile, str, str]]:
        """Every tile the question puts somewhere: (tile, where in words, form field)."""
        engine = Tile(self.engine, self.engine)
        yield engine, "the engine in the hub", "engine"
        for entry in self.trains:
            if entry.open_double and entry.end is not None:
                double = Tile(entry.end, entry.end)
                yield (
                    double,
                    f"the open double at the end of {entry.row.label}",
                    (f"end-{entry.row.key}"),
                )
        acting = self.seats[self.seat] if self.seat is not None else "the player"
        for tile in self.hand:
            yield tile, f"{acting}'s hand", "hand"
        for seat, tiles in self.hands.items():
            for tile in tiles:
                yield tile, f"{self.seats[seat]}'s hand", f"hand-{seat}"

    def _check_tiles_once(self) -> None:
        seen: dict[Tile, str] = {}
        for tile, where, key in self._places():
            if tile in seen and seen[tile] != where:
                self.errors.setdefault(
                    key, f"{tile} can't be in {where}: it is already {_placed(seen[tile])}."
                )
            seen.setdefault(tile, where)
        hand = set(self.hand)
        for action in self.actions:
            if action.tile is None:
                continue
            placed = seen.get(action.tile)
            if placed is not None and placed != f"{self.seats[self.seat or 0]}'s hand":
                self.errors.setdefault(
                    f"act{action.index}-a",
                    f"{action.tile} can't be {'played' if action.kind == 'play' else 'drawn'}: "
                    f"it is already {_placed(placed)}.",
                )
            if action.kind == "draw" and action.tile in hand:
                self.errors.setdefault(
                    f"act{action.index}-a",
                    f"{action.tile} is ticked in the hand, so it can't be the tile drawn.",
                )

    # -- the contract query ----------------------------------------------------------------

    def filler_end(self, taken: set[int]) -> int:
        """A number no tile of the question shows, for a train whose end doesn't matter."""
        for value in range(self.set_max, -1, -1):
            if value not in taken:
                return value
        raise FormError(
            "hand",
            "With this hand every number could matter: enter the end of every started train.",
        )

    def own_train_unplayed(self, entry: TrainEntry) -> bool:
        """On their first turn a player's own train is not started yet, unless they said
        where it ends."""
        return (
            self.ticked("first")
            and self.seat is not None
            and entry.row.owner == self.seat
            and entry.end is None
            and not entry.open_double
        )

    def shown_numbers(self) -> set[int]:
        numbers: set[int] = set()
        tiles = list(self.hand) + [t for h in self.hands.values() for t in h]
        tiles += [a.tile for a in self.actions if a.tile is not None]
        for tile in tiles:
            numbers.update((tile.high, tile.low))
        return numbers

    def _layout(self) -> tuple[list[_Laid], list[TrainRow], list[str], int]:
        """The position entered, as the engine takes it: each train given (its row, its open
        end or ``None`` when not started, its marker), the open doubles oldest first, the
        seats out of tiles, and the boneyard."""
        taken = self.shown_numbers()
        laid_against: dict[str, int] = {}
        for action in self.actions:
            if action.kind == "play" and action.train and action.against is not None:
                laid_against.setdefault(action.train.key, action.against)
        trains: list[_Laid] = []
        open_doubles: list[tuple[int, TrainRow]] = []
        oldest = self.text("oldest")
        for entry in self.trains:
            row = entry.row
            if self.own_train_unplayed(entry):
                continue
            if not entry.started:
                if entry.marker:
                    trains.append((row, None, True))
                continue
            end = entry.end
            if end is None:
                end = laid_against.get(row.key)
            if end is None:
                end = self.filler_end(taken)
            trains.append((row, end, entry.marker))
            if entry.open_double:
                open_doubles.append((0 if row.key == oldest else 1, row))
        out = [
            seat
            for i, seat in enumerate(self.seats)
            if self.ask in ("turn", "options") and self.ticked(f"out-{i}") and i != self.seat
        ]
        boneyard_text = self.text("boneyard") or "some"
        boneyard = BONEYARD_SOME if boneyard_text == "some" else int(boneyard_text)
        # Python's sort is stable: the oldest first, the rest in seat order.
        opened = [row for _, row in sorted(open_doubles, key=lambda p: p[0])]
        return trains, opened, out, boneyard

    def table(self, hands: Mapping[str, Sequence[Tile]]) -> Table:
        """The position entered, as the rules engine's typed table, with ``hands`` known."""
        rows, opened, out, boneyard = self._layout()
        trains = [
            TrainSpec(row.name, _train_id(row), marker, None, end, None)
            for row, end, marker in rows
        ]
        return Table(
            read_seats(list(self.seats)), self.engine, boneyard, trains, True,
            [(row.name, _train_id(row)) for row in opened], out, None, hands,
        )  # fmt: skip

    def open_ends(self) -> set[int]:
        """The open ends of the trains entered (a train with none given counted as laid out)."""
        return {end for _, end, _ in self._layout()[0] if end is not None}

    def laid_back(self) -> list[Tile]:
        """The tiles laid in the disputed turn that the hand entered lacks.

        At a real table the tiles are already down when someone objects, so the hand ticked (or
        photographed) is most often the one after the move. The engine judges the turn from its
        start, so these tiles go back into the hand. A tile laid straight after a draw is the one
        drawn, which was never in the hand.
        """
        if self.ask != "turn" or not self.hand:
            return []
        back: list[Tile] = []
        drew = False
        for action in self.actions:
            if action.kind == "draw":
                drew = True
                continue
            if action.kind == "play" and action.tile is not None:
                if not drew and action.tile not in self.hand and action.tile not in back:
                    back.append(action.tile)
            drew = False
        return back

    def hand_note(self) -> str:
        """Which hand the ruling took: the one after the move (laid tiles added back) or the
        one before it (it still holds every tile laid)."""
        if self.ask != "turn" or not self.hand or self.seat is None:
            return ""
        name = self.seats[self.seat]
        back = self.laid_back()
        if back:
            tiles = ", ".join(str(tile) for tile in back)
            verb = "was" if len(back) == 1 else "were"
            return (
                f"{name}'s hand was taken as it is now, after the move: {tiles}, already laid, "
                f"{verb} put back into it to judge the turn from its start."
            )
        laid = [a for a in self.actions if a.kind == "play" and a.tile is not None]
        if laid:
            return f"{name}'s hand was taken as it was before the move: it holds the tiles laid."
        return ""

    def turn_request(self) -> TurnQuery:
        """The disputed turn as the rules engine's own typed query, built straight from the
        form.

        :raises: :exc:`QueryError` naming the contract field at fault, as the contract would
            for the same query written as JSON.
        """
        assert self.seat is not None
        hand = list(self.hand) + self.laid_back()
        if not self.values.get("hand"):
            hand = self.assumed_hand(self.open_ends())
        name = self.seats[self.seat]
        table = self.table({name: hand})
        actions: list[Action] = []
        for action in self.actions:
            if action.kind == "play" and action.tile is not None and action.train is not None:
                actions.append(play_of(action.tile, _train_id(action.train)))
            elif action.kind == "draw":
                actions.append(Draw(action.tile))
            elif action.kind == "end":
                actions.append(END)
            elif action.kind == "marker":
                actions.append(REMOVE_MARKER)
        query = TurnQuery(self.rules, table, name, self.ticked("first"), (), tuple(actions))
        try:
            no_tile_twice((), query.actions)
        except QueryError as error:
            # As the contract does: a fault of the table itself is reported first.
            error.rules, error.table = self.rules, table
            report_earlier_fault(error)
            raise
        return query

    def assumed_hand(self, ends: set[int]) -> list[Tile]:
        """The hand when it was not given: the tiles played from it (a tile played straight
        after a draw is the one drawn), plus, unless these are the player's last tiles, one
        tile that fits nowhere, so the player is not taken to go out."""
        hand: list[Tile] = []
        drew = False
        for action in self.actions:
            if action.kind == "draw":
                drew = True
            elif action.kind == "play" and action.tile is not None:
                if not drew and action.tile not in hand:
                    hand.append(action.tile)
                drew = False
        if self.ticked("last"):
            return hand
        avoid = self.shown_numbers() | {self.engine}
        avoid |= ends
        taken = set(hand) | {Tile(self.engine, self.engine)}
        for tile in full_set(self.set_max):
            if tile.high not in avoid and tile.low not in avoid and tile not in taken:
                hand.append(tile)
                break
        return hand

    def round_requests(self) -> list[RoundStatusQuery]:
        """The engine's ``round_status`` questions for the position: one when every hand is
        known, else two (unknown hands filled with a tile that fits nowhere, then with one
        that fits), so the ruling can tell whether the unknown hands matter."""
        assert self.seat is not None
        passes = self.number("passes", 0, 99, "Passes in a row") or 0
        next_seat = self.seats[self.seat]

        def asked(filled: Mapping[int, list[Tile]]) -> RoundStatusQuery:
            hands = {**self.hands, **filled}
            known = {self.seats[seat]: hands.get(seat, []) for seat in range(len(self.seats))}
            return RoundStatusQuery(self.rules, self.table(known), next_seat, passes)

        unknown = [seat for seat in range(len(self.seats)) if seat not in self.hands]
        if not unknown:
            return [asked({})]
        used = {Tile(self.engine, self.engine)} | {t for h in self.hands.values() for t in h}
        ends = self.open_ends() | {self.engine}
        spare = [t for t in full_set(self.set_max) if t not in used]
        misses = [t for t in spare if t.high not in ends and t.low not in ends]
        fits = [t for t in spare if t.high in ends or t.low in ends]
        if len(misses) < len(unknown) or len(fits) < len(unknown):
            return [asked({})]
        return [
            asked({seat: [misses[i]] for i, seat in enumerate(unknown)}),
            asked({seat: [fits[i]] for i, seat in enumerate(unknown)}),
        ]

    def score_request(self) -> ScoreQuery:
        """The engine's ``score`` question for the hand entered."""
        markers = self.number("markers_up", 0, 9, "Markers still up") or 0
        return ScoreQuery(
            self.rules,
            tuple(self.hand),
            self.ticked("went_out"),
            markers,
            _ROUND_END_VALUES.get(self.text("round_end")),
            self.ticked("lowest"),
        )

    def call_request(self) -> LastTileCallQuery:
        """The engine's ``last_tile_call`` question: the boneyard left and whether the call
        came in time."""
        left = self.number("call_boneyard", 0, 200, "Tiles left in the boneyard")
        return LastTileCallQuery(
            self.rules, BONEYARD_SOME if left is None else left, self.ticked("in_time")
        )

    def setup_request(self) -> SetupQuery:
        """The engine's ``setup`` question for the players entered (the game's by default)."""
        players = self.number("players", 2, 12, "Players") or len(self.seats)
        return SetupQuery(self.rules, players)


def _train_id(row: TrainRow) -> TrainId:
    if row.owner is not None:
        return row.owner
    return MEXICAN2 if row.key == "m2" else MEXICAN


def _placed(where: str) -> str:
    return where if where.startswith("the ") else f"in {where}"
