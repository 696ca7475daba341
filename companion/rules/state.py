"""The table during a round: trains, markers, open doubles, hands, boneyard and whose turn.

Like python-chess's ``Board``: :meth:`State.apply` is fast and unchecked, :meth:`State.push`
also records an undo step (a :class:`Snapshot`) for :meth:`State.pop`, and
:meth:`State.push_checked` refuses an illegal action with an :exc:`IllegalActionError` saying
which rule decided and why. ``state.legal_actions`` is a live view supporting ``in``,
iteration and ``count()``. :meth:`State.status` is the one place that decides whether a round
is over; :mod:`~companion.rules.legality` only reads a state. :meth:`State.from_table` lays
out a position described as the referee contract does.

Where a referee query describes only part of the table, other players' hands are ``None``
and the boneyard is only a count.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Sequence
from typing import Any

from companion.rules import legality
from companion.rules.actions import (
    END,
    MEXICAN,
    MEXICAN2,
    Action,
    Draw,
    End,
    EndReason,
    IllegalActionError,
    Outcome,
    Play,
    RemoveMarker,
    RoundOverError,
    Status,
    StatusReason,
    TrainId,
)
from companion.rules.keys import (
    BlockedDefinition,
    DoubleFollowup,
    EngineSource,
    FirstTurn,
    FirstTurnOut,
    GoOutOnDouble,
    RoundLeader,
)
from companion.rules.rules import Rules
from companion.rules.scoring import HandScore, RoundEnd, score_hand, tile_points
from companion.rules.setup import hand_size
from companion.rules.table import FieldPath, PositionError, Table, path_text
from companion.rules.tiles import _BY_PAIR, Tile, full_set

# House-rule values bound once: on Python 3.11 every attribute lookup on an enum class
# goes through EnumType.__getattr__ (about 0.1 µs), which self-play felt as 5%.
_ROUND_LEADER_ENGINE_HOLDER = RoundLeader.ENGINE_HOLDER
_BLOCKED_DEFINITION_FULL_LAP_OF_PASSES = BlockedDefinition.FULL_LAP_OF_PASSES
_ENGINE_SOURCE_HOLDER_PLAYS_DRAW_IN_TURN = EngineSource.HOLDER_PLAYS_DRAW_IN_TURN
_FIRST_TURN_MULTI_OWN_TRAIN = FirstTurn.MULTI_OWN_TRAIN
_GO_OUT_ON_DOUBLE_MUST_BE_COVERED = GoOutOnDouble.MUST_BE_COVERED
_ENGINE_SOURCE_NEXT_HIGHEST_DOUBLE = EngineSource.NEXT_HIGHEST_DOUBLE
_DOUBLE_FOLLOWUP_NONE = DoubleFollowup.NONE
_BLOCKED_DEFINITION_NO_LEGAL_MOVE_ANYWHERE = BlockedDefinition.NO_LEGAL_MOVE_ANYWHERE
_FIRST_TURN_OUT_OTHERS_FINISH_FIRST_TURN = FirstTurnOut.OTHERS_FINISH_FIRST_TURN
_ENGINE_SOURCE_SET_ASIDE = EngineSource.SET_ASIDE


def match_end(end: int, tile: Tile, wild: bool) -> int:
    """The new open end after laying ``tile`` against ``end``, or -1 if it does not fit.

    With wild blanks a tile's blank half fits any end; a blank end takes any tile, leaving
    the tile's lower half open.
    """
    if tile.high == end:
        return tile.low
    if tile.low == end:
        return tile.high
    if wild:
        if tile.low == 0:
            return tile.high
        if end == 0:
            return tile.low
    return -1


_TURN_VALUES = (
    "passes_in_a_row",
    "outcome",
    "turn",
    "is_first_turn",
    "played",
    "played_own",
    "doubles_played",
    "owes_followup",
    "followup_optional",
    "followup_train",
    "first_train",
    "draws_since_play",
    "drawn",
    "drawn_unknown",
    "drawn_playable",
    "turn_over",
    "turn_over_rule",
    "failed_marker",
    "first_turns_known",
)
"""The plain values of a position (numbers, flags, tiles, ``None``): copied as they are."""

_FIELDS = _TURN_VALUES + (
    "rules",
    "seats",
    "n",
    "engine",
    "set_max",
    "wild",
    "branches",
    "mexicans",
    "hands",
    "hand_index",
    "boneyard",
    "boneyard_count",
    "train_tiles",
    "ends",
    "started",
    "markers",
    "double_value",
    "covers_left",
    "open_doubles",
    "on_table",
    "table_count",
    "first_turn_left",
    "going_out_double",
    "out_seats",
    "turn_doubles",
    "last_lay_satisfied",
    "_stack",
)
"""Every attribute of a :class:`State`: what a copy takes over (set out by name, as the class
compiles to fixed slots and has no ``__dict__``)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Snapshot:
    """A position's data at one moment, for :meth:`State.pop` and :meth:`State.copy`.

    The containers are private copies: restoring copies them again, so one snapshot can be
    restored any number of times.
    """

    hands: list[list[Tile] | None]
    hand_index: list[list[list[Tile]] | None]
    boneyard: list[Tile] | None
    boneyard_count: int
    train_tiles: list[list[Tile]]
    ends: list[list[int]]
    lists: list[list[Any]]
    """Per-train and per-seat lists: started, markers, double values, covers left, open
    doubles, first turns left, going-out doubles, out seats, turn doubles."""
    on_table: set[Tile]
    table_count: list[int] | None
    values: dict[str, Any]
    """Every name of ``_TURN_VALUES`` with its value."""


class State:
    """One round in progress. Seats are indices into ``seats``; trains are :data:`TrainId`."""

    # What the current turn has done so far (reset by ``_new_turn``).
    is_first_turn: bool
    played: int
    played_own: bool
    doubles_played: int
    turn_doubles: list[TrainId]
    owes_followup: bool
    followup_optional: bool
    followup_train: TrainId | None
    first_train: TrainId | None
    draws_since_play: int
    drawn: Tile | None
    drawn_unknown: bool
    drawn_playable: bool
    turn_over: bool
    turn_over_rule: str
    failed_marker: bool
    last_lay_satisfied: bool

    def __init__(
        self,
        rules: Rules,
        seats: Sequence[str],
        engine: int,
        hands: Sequence[Sequence[Tile] | None],
        *,
        boneyard: Sequence[Tile] | None = None,
        boneyard_count: int | None = None,
        leader: int = 0,
    ) -> None:
        self.rules = rules
        self.seats = tuple(seats)
        self.n = len(self.seats)
        self.engine = engine
        self.set_max = rules.set_max
        self.wild = rules.blanks_wild
        self.branches = int(rules.double_branches)
        self.mexicans: tuple[TrainId, ...] = (
            (MEXICAN,) if rules.mexican_trains == 1 else (MEXICAN, MEXICAN2)
        )
        slots = self.n + 2
        self.hands: list[list[Tile] | None] = [list(h) if h is not None else None for h in hands]
        # Each known hand indexed by pip value, so play generation looks only at tiles that fit.
        self.hand_index: list[list[list[Tile]] | None] = [
            self._index(h) if h is not None else None for h in self.hands
        ]
        self.boneyard: list[Tile] | None = list(boneyard) if boneyard is not None else None
        self.boneyard_count = (
            len(self.boneyard) if self.boneyard is not None else int(boneyard_count or 0)
        )
        self.train_tiles: list[list[Tile]] = [[] for _ in range(slots)]
        self.ends: list[list[int]] = [[] for _ in range(slots)]
        self.started = [False] * slots
        self.markers = [False] * slots
        self.double_value = [-1] * slots
        self.covers_left = [0] * slots
        self.open_doubles: list[TrainId] = []
        self.on_table: set[Tile] = {_BY_PAIR[engine, engine]}
        # How many tiles on the table show each value, kept up to date as tiles are laid;
        # ``None`` until first needed where a position is laid out whole (``from_table``).
        self.table_count: list[int] | None = [0] * (self.set_max + 1)
        self.table_count[engine] = 1
        self.first_turn_left = [True] * self.n
        self.going_out_double = [-99] * self.n
        self.out_seats: list[int] = []
        self.passes_in_a_row = 0
        self.outcome: Outcome | None = None
        # Whether ``first_turn_left`` is known rather than guessed from the trains (a referee
        # query may leave it out); only then does ``first_turn_out`` keep a round going.
        self.first_turns_known = True
        self.turn = leader
        self._stack: list[Snapshot] = []
        self._new_turn()

    # -- turn bookkeeping ---------------------------------------------------------------------

    def _new_turn(self) -> None:
        self.is_first_turn = self.first_turn_left[self.turn]
        self.played = 0
        self.played_own = False
        self.doubles_played = 0
        self.turn_doubles = []
        self.owes_followup = False
        self.followup_optional = False
        self.followup_train = None
        self.first_train = None
        self.draws_since_play = 0
        self.drawn = None
        self.drawn_unknown = False
        self.drawn_playable = False
        self.turn_over = False
        self.turn_over_rule = ""
        self.failed_marker = False
        self.last_lay_satisfied = False

    @property
    def trains(self) -> tuple[TrainId, ...]:
        """Every train that may exist under the rules."""
        mexicans = (MEXICAN,) if self.rules.mexican_trains == 1 else (MEXICAN, MEXICAN2)
        return tuple(range(self.n)) + mexicans

    def train_name(self, train: TrainId) -> str:
        """The contract's name: the owner's seat, ``"mexican"`` or ``"mexican2"``."""
        if train == MEXICAN:
            return "mexican"
        if train == MEXICAN2:
            return "mexican2"
        return self.seats[train]

    def train_id(self, name: str) -> TrainId:
        """The train named ``name`` (a seat, ``"mexican"`` or ``"mexican2"``).

        :raises: :exc:`KeyError` for any other name.
        """
        if name == "mexican":
            return MEXICAN
        if name == "mexican2":
            return MEXICAN2
        return self.seats.index(name) if name in self.seats else _raise_key(name)

    def open_end(self, train: TrainId) -> int | None:
        """The value a tile must match on ``train`` (newest branch); ``None`` if unstarted."""
        if self.double_value[train] >= 0:
            return self.double_value[train]
        ends = self.ends[train]
        return ends[-1] if ends else None

    def is_dead_double(self, train: TrainId) -> bool:
        """Whether the open double on ``train`` can never be covered from tiles off the table."""
        value = self.double_value[train]
        if value < 0:
            return False
        counts = self.table_count
        if counts is None:
            counts = self.table_count = self._count_table()
        off = self.set_max + 1 - counts[value]
        if self.wild and value != 0:
            off += sum(
                1 for x in range(self.set_max + 1) if x != value and Tile(x, 0) not in self.on_table
            )
            if Tile(value, 0) not in self.on_table:
                off -= 1
        return off < self.covers_left[train]

    def _count_table(self) -> list[int]:
        counts = [0] * (self.set_max + 1)
        for tile in self.on_table:
            counts[tile.high] += 1
            if not tile.is_double:
                counts[tile.low] += 1
        return counts

    def _index(self, hand: Sequence[Tile]) -> list[list[Tile]]:
        index: list[list[Tile]] = [[] for _ in range(self.set_max + 1)]
        for tile in hand:
            index[tile.high].append(tile)
            if not tile.is_double:
                index[tile.low].append(tile)
        return index

    def add_to_hand(self, seat: int, tile: Tile) -> None:
        """Puts ``tile`` in ``seat``'s (known) hand."""
        hand = self.hands[seat]
        assert hand is not None
        hand.append(tile)
        index = self.hand_index[seat]
        if index is not None:
            index[tile.high].append(tile)
            if not tile.is_double:
                index[tile.low].append(tile)

    # -- legality ---------------------------------------------------------------------------

    @property
    def legal_actions(self) -> LegalActions:
        """A live view of the legal actions for the player whose turn it is."""
        return LegalActions(self)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        return legality.refusal(self, action) is None

    def check(self, action: Action) -> None:
        """Raises :exc:`IllegalActionError` if ``action`` is not legal now."""
        refused = legality.refusal(self, action)
        if refused is not None:
            rule, reason = refused
            error = RoundOverError if rule == "round_over" else IllegalActionError
            raise error(rule, reason, action)

    # -- applying actions -------------------------------------------------------------------

    def push_checked(self, action: Action) -> None:
        """Checks ``action`` and applies it, recording an undo step.

        :raises: :exc:`IllegalActionError` (with ``rule`` and ``reason``) if it is illegal.
        """
        self.check(action)
        self.push(action)

    def push(self, action: Action) -> None:
        """Applies ``action`` without checking it, recording an undo step for :meth:`pop`."""
        self._stack.append(self._snapshot())
        self._apply(action)

    def pop(self) -> None:
        """Undoes the last :meth:`push`."""
        self._restore(self._stack.pop())

    def apply(self, action: Action) -> None:
        """Applies ``action`` without checking it and without an undo record (fastest)."""
        self._apply(action)

    def _apply(self, action: Action) -> None:
        if type(action) is Play:
            self._apply_play(action.tile, action.train)
        elif type(action) is Draw:
            self._apply_draw(action.tile)
        elif type(action) is End:
            self._apply_end()
        else:
            self.markers[self.turn] = False

    def _lay(self, tile: Tile, train: TrainId) -> int:
        """Puts ``tile`` on ``train``; returns the new open end."""
        wild = self.wild
        pending = self.double_value[train]
        ends = self.ends[train]
        if pending >= 0:
            new_end = match_end(pending, tile, wild)
            self.covers_left[train] -= 1
            if self.covers_left[train] == 0:
                self.double_value[train] = -1
                self.open_doubles.remove(train)
            ends.append(new_end)
        elif not self.started[train]:
            new_end = match_end(self.engine, tile, wild)
            self.started[train] = True
            ends.append(new_end)
        else:
            index = -1
            for i in range(len(ends) - 1, -1, -1):
                end = ends[i]
                if end == tile.high or end == tile.low:
                    index = i
                    break
            if index < 0:
                for i in range(len(ends) - 1, -1, -1):
                    if match_end(ends[i], tile, wild) >= 0:
                        index = i
                        break
            new_end = match_end(ends[index], tile, wild)
            ends[index] = new_end
        self.last_lay_satisfied = pending >= 0 and self.double_value[train] < 0
        if tile.is_double and self.double_value[train] < 0:
            ends.pop()
            self.double_value[train] = new_end
            self.covers_left[train] = self.branches
            self.open_doubles.append(train)
        self.train_tiles[train].append(tile)
        self.on_table.add(tile)
        counts = self.table_count
        if counts is not None:
            counts[tile.high] += 1
            if not tile.is_double:
                counts[tile.low] += 1
        return new_end

    def _apply_play(self, tile: Tile, train: TrainId) -> None:
        seat = self.turn
        rules = self.rules
        hand = self.hands[seat]
        if hand is not None:
            hand.remove(tile)
            index = self.hand_index[seat]
            if index is not None:
                index[tile.high].remove(tile)
                if not tile.is_double:
                    index[tile.low].remove(tile)
        if self.drawn is tile:
            self.drawn = None
        after_draw = self.draws_since_play > 0
        self._lay(tile, train)
        now_open = self.double_value[train] >= 0
        self.played += 1
        self.draws_since_play = 0
        self.drawn_playable = False
        self.owes_followup = False
        self.followup_optional = False
        self.followup_train = None
        if self.is_first_turn and self.first_train is None:
            self.first_train = train
        if train == seat:
            self.played_own = True
            if not now_open:
                self.markers[seat] = False
        double = tile.is_double and now_open
        if double:
            self.doubles_played += 1
            self.turn_doubles.append(train)

        # Someone's going-out double covered while they still have nothing in hand.
        if self.last_lay_satisfied and rules.go_out_on_double == _GO_OUT_ON_DOUBLE_MUST_BE_COVERED:
            for other in range(self.n):
                if self.going_out_double[other] == train:
                    self.going_out_double[other] = -99
                    other_hand = self.hands[other]
                    if other_hand is not None and not other_hand:
                        self._finish(EndReason.WENT_OUT, (other,), "go_out_on_double")
                        return

        if hand is not None and not hand:
            if double and rules.go_out_on_double == _GO_OUT_ON_DOUBLE_MUST_BE_COVERED:
                self.going_out_double[seat] = train
            else:
                reason = EndReason.WENT_OUT_ON_DOUBLE if double else EndReason.WENT_OUT
                self._went_out(seat, reason)
                return

        multi_first = self.is_first_turn and rules.first_turn == _FIRST_TURN_MULTI_OWN_TRAIN
        if double:
            if self.is_first_turn and rules.first_turn_may_end_on_double:
                self.followup_optional = True
                self.followup_train = train
                if rules.double_followup == _DOUBLE_FOLLOWUP_NONE and not multi_first:
                    self._close("double_followup")
            elif multi_first:
                self.owes_followup = True
                self.followup_train = train
            elif rules.double_followup == _DOUBLE_FOLLOWUP_NONE:
                self._close("double_followup")
            else:
                self.owes_followup = True
                self.followup_train = train
        elif multi_first and not after_draw:
            pass
        else:
            self._close("first_turn" if self.is_first_turn else "one_tile_per_turn")

    def _close(self, rule: str) -> None:
        self.turn_over = True
        self.turn_over_rule = rule

    def _went_out(self, seat: int, reason: EndReason) -> None:
        self.out_seats.append(seat)
        self._close("went_out")
        if (
            self.is_first_turn
            and self.rules.first_turn_out == _FIRST_TURN_OUT_OTHERS_FINISH_FIRST_TURN
            and any(left for s, left in enumerate(self.first_turn_left) if s != seat)
        ):
            return
        self._finish(reason, tuple(self.out_seats), "core")

    def _finish(self, reason: EndReason, out: tuple[int, ...], rule: str) -> None:
        self.outcome = Outcome(reason, out, rule)
        self.turn_over = True
        self.turn_over_rule = "round_over"

    def _apply_draw(self, tile: Tile | None) -> None:
        seat = self.turn
        hand = self.hands[seat]
        if tile is None and self.boneyard is not None:
            tile = self.boneyard.pop()
        elif tile is not None and self.boneyard is not None:
            self.boneyard.remove(tile)
        self.boneyard_count -= 1
        self.draws_since_play += 1
        if tile is None:
            self.drawn = None
            self.drawn_unknown = True
            self.drawn_playable = False
        else:
            self.drawn = tile
            self.drawn_unknown = False
            if hand is not None:
                self.add_to_hand(seat, tile)
            self.drawn_playable = legality.has_play(self)
        if self.going_out_double[seat] != -99:
            self.going_out_double[seat] = -99

    def _apply_end(self) -> None:
        seat = self.turn
        if not self.turn_over:
            if self.played == 0 or self.owes_followup:
                self.markers[seat] = True
                self.failed_marker = True
        self.passes_in_a_row = self.passes_in_a_row + 1 if self.played == 0 else 0
        self.first_turn_left[seat] = False
        if self.outcome is not None:
            return
        if self.out_seats and not any(self.first_turn_left):
            self._finish(EndReason.WENT_OUT, tuple(self.out_seats), "first_turn_out")
            return
        if self.out_seats and not self.first_turn_left[(seat + 1) % self.n]:
            # Only seats still owed a first turn play on after someone went out.
            self._finish(EndReason.WENT_OUT, tuple(self.out_seats), "first_turn_out")
            return
        if self._blocked():
            return
        self.turn = (seat + 1) % self.n
        self._new_turn()

    def _blocked(self) -> bool:
        rule = self.blocked_by()
        if rule is None:
            return False
        self._finish(EndReason.BLOCKED, (), rule)
        return True

    def blocked_by(self) -> str | None:
        """The rule under which the round is blocked as the table stands between turns
        (``"blocked_definition"`` or ``"go_out_on_double"``), or ``None`` if it is not.

        The one test for a blocked round: the end of every turn and :meth:`status` use it.
        """
        if self.rules.blocked_definition == _BLOCKED_DEFINITION_FULL_LAP_OF_PASSES:
            return "blocked_definition" if self.passes_in_a_row >= self.n else None
        if self.going_out_stuck():
            return "go_out_on_double"
        if self.boneyard_count > 0 or any(h is None for h in self.hands):
            return None
        return "blocked_definition" if legality.nobody_can_play(self) else None

    def status(self) -> Status:
        """Whether the round is over at the start of the current turn, the rule that decides
        and why; every seat with a known empty hand counts as out.

        Unlike :attr:`outcome`, which records how play ended a round, this judges a position
        as given (the referee's ``round_status``), and never changes it.
        """
        if self.outcome is not None:
            reason = (
                StatusReason.WENT_OUT
                if self.outcome.reason is not EndReason.BLOCKED
                else StatusReason.BLOCKED
            )
            return Status(True, self.outcome.rule, reason, self.outcome.out_seats)
        out = tuple(seat for seat, hand in enumerate(self.hands) if hand is not None and not hand)
        full_lap = self.rules.blocked_definition == _BLOCKED_DEFINITION_FULL_LAP_OF_PASSES
        if out:
            if self.pending_out_doubles():
                rule = self.blocked_by()
                if rule is None:
                    return Status(False, "go_out_on_double", StatusReason.DOUBLE_OPEN, out)
                if rule == "go_out_on_double":
                    return Status(True, rule, StatusReason.DOUBLE_UNCOVERABLE, out)
                reason = StatusReason.FULL_LAP if full_lap else StatusReason.BLOCKED
                return Status(True, rule, reason, out)
            waiting = tuple(
                seat for seat in range(self.n) if self.first_turn_left[seat] and seat not in out
            )
            if (
                waiting
                and self.first_turns_known
                and self.rules.first_turn_out == _FIRST_TURN_OUT_OTHERS_FINISH_FIRST_TURN
            ):
                return Status(False, "first_turn_out", StatusReason.FIRST_TURNS_LEFT, out, waiting)
            return Status(True, "went_out", StatusReason.WENT_OUT, out)
        rule = self.blocked_by()
        if rule is not None:
            reason = StatusReason.FULL_LAP if full_lap else StatusReason.BLOCKED
            return Status(True, rule, reason)
        if full_lap:
            return Status(False, "blocked_definition", StatusReason.PASSES)
        if self.boneyard_count > 0:
            return Status(False, "blocked_definition", StatusReason.BONEYARD_LEFT)
        for seat in range(self.n):
            plays = legality.plays_for(self, seat, True)
            if plays:
                return Status(
                    False, "blocked_definition", StatusReason.CAN_PLAY, seat=seat, play=plays[0]
                )
        return Status(False, "blocked_definition", StatusReason.MARKERS_UP)

    # -- going out on a double that must be covered ------------------------------------------

    def pending_out_doubles(self) -> list[TrainId]:
        """The doubles that players who are out of tiles still wait on (``go_out_on_double``
        ``must_be_covered``): one train per such player."""
        return [
            train
            for seat, train in enumerate(self.going_out_double)
            if train != -99 and not self.hands[seat]
        ]

    def cover_possible(self, train: TrainId) -> bool:
        """Whether the open double on ``train`` may still be covered (fully, every branch):
        the boneyard has tiles, or the hands hold enough tiles that fit it. A hand that is
        not known may hold any tile that is neither on the table nor in a known hand."""
        value = self.double_value[train]
        if value < 0:
            return False
        if self.boneyard_count > 0:
            return True
        need = self.covers_left[train]
        wild = self.wild
        known: set[Tile] = set()
        fitting = 0
        for hand in self.hands:
            for tile in hand or ():
                known.add(tile)
                if not tile.is_double and match_end(value, tile, wild) >= 0:
                    fitting += 1
        if fitting >= need:
            return True
        if all(hand is not None for hand in self.hands):
            return False
        for tile in full_set(self.set_max):
            if (
                not tile.is_double
                and tile not in self.on_table
                and tile not in known
                and match_end(value, tile, wild) >= 0
            ):
                fitting += 1
                if fitting >= need:
                    return True
        return False

    def going_out_stuck(self) -> bool:
        """Whether players are out on doubles that can never be covered (the boneyard is
        empty and no hand holds a tile that fits any of them): then the round is blocked,
        under ``blocked_definition`` ``no_legal_move_anywhere``."""
        if (
            self.boneyard_count > 0
            or self.rules.go_out_on_double != _GO_OUT_ON_DOUBLE_MUST_BE_COVERED
        ):
            return False
        pending = self.pending_out_doubles()
        return bool(pending) and not any(self.cover_possible(train) for train in pending)

    def mark_out(self, seat: int) -> None:
        """Declares that ``seat`` has played their last tile this round (setting up a
        position). Under ``go_out_on_double`` ``must_be_covered`` with a double open, the
        player waits on it (the open double on their own train, else the newest open
        double); otherwise they are out."""
        if seat in self.out_seats or self.going_out_double[seat] != -99:
            return
        self.hands[seat] = []
        self.hand_index[seat] = self._index([])
        self.first_turn_left[seat] = False
        if self.rules.go_out_on_double == _GO_OUT_ON_DOUBLE_MUST_BE_COVERED and self.open_doubles:
            own = self.double_value[seat] >= 0
            self.going_out_double[seat] = seat if own else self.open_doubles[-1]
        else:
            self.out_seats.append(seat)

    def end_if_over(self) -> None:
        """Ends the round if the position, as set up, is already over: a player is out and
        no one is still owed a first turn (``first_turn_out``), or players wait on doubles
        that can never be covered."""
        if self.outcome is not None:
            return
        if self.out_seats and not (
            self.rules.first_turn_out == _FIRST_TURN_OUT_OTHERS_FINISH_FIRST_TURN
            and self.first_turn_left[self.turn]
        ):
            self._finish(EndReason.WENT_OUT, tuple(self.out_seats), "core")
        elif (
            self.rules.blocked_definition == _BLOCKED_DEFINITION_NO_LEGAL_MOVE_ANYWHERE
            and self.going_out_stuck()
        ):
            self._finish(EndReason.BLOCKED, (), "go_out_on_double")

    # -- undo -------------------------------------------------------------------------------

    def _snapshot(self) -> Snapshot:
        return Snapshot(
            [list(h) if h is not None else None for h in self.hands],
            [[list(v) for v in i] if i is not None else None for i in self.hand_index],
            list(self.boneyard) if self.boneyard is not None else None,
            self.boneyard_count,
            [list(t) for t in self.train_tiles],
            [list(e) for e in self.ends],
            [
                list(self.started),
                list(self.markers),
                list(self.double_value),
                list(self.covers_left),
                list(self.open_doubles),
                list(self.first_turn_left),
                list(self.going_out_double),
                list(self.out_seats),
                list(self.turn_doubles),
            ],
            set(self.on_table),
            list(self.table_count) if self.table_count is not None else None,
            {name: getattr(self, name) for name in _TURN_VALUES},
        )

    def _restore(self, snap: Snapshot) -> None:
        self.hands = [list(h) if h is not None else None for h in snap.hands]
        self.hand_index = [[list(v) for v in i] if i is not None else None for i in snap.hand_index]
        self.boneyard = list(snap.boneyard) if snap.boneyard is not None else None
        self.boneyard_count = snap.boneyard_count
        self.train_tiles = [list(t) for t in snap.train_tiles]
        self.ends = [list(e) for e in snap.ends]
        (
            self.started,
            self.markers,
            self.double_value,
            self.covers_left,
            self.open_doubles,
            self.first_turn_left,
            self.going_out_double,
            self.out_seats,
            self.turn_doubles,
        ) = (list(values) for values in snap.lists)
        self.on_table = set(snap.on_table)
        self.table_count = list(snap.table_count) if snap.table_count is not None else None
        for name, value in snap.values.items():
            setattr(self, name, value)

    def _copy_containers(self) -> None:
        """Gives this object its own copy of every container it shares with another."""
        self.hands = [list(h) if h is not None else None for h in self.hands]
        self.hand_index = [[list(v) for v in i] if i is not None else None for i in self.hand_index]
        if self.boneyard is not None:
            self.boneyard = list(self.boneyard)
        self.train_tiles = [list(t) for t in self.train_tiles]
        self.ends = [list(e) for e in self.ends]
        self.started = list(self.started)
        self.markers = list(self.markers)
        self.double_value = list(self.double_value)
        self.covers_left = list(self.covers_left)
        self.open_doubles = list(self.open_doubles)
        self.first_turn_left = list(self.first_turn_left)
        self.going_out_double = list(self.going_out_double)
        self.out_seats = list(self.out_seats)
        self.turn_doubles = list(self.turn_doubles)
        self.on_table = set(self.on_table)
        if self.table_count is not None:
            self.table_count = list(self.table_count)

    def _shallow_copy(self) -> State:
        """A new state sharing every attribute's value with this one (containers included)."""
        # Built through ``__init__`` (a compiled class has no other way to make an instance),
        # then given this one's values.
        other = State(self.rules, self.seats, self.engine, ())
        for name in _FIELDS:
            setattr(other, name, getattr(self, name))
        return other

    def with_markers_up(self) -> State:
        """A read-only view of this position with every seat's marker up (what passing would
        lead to), sharing all other data with this state: for looking, never for playing."""
        other = self._shallow_copy()
        other.markers = [True] * self.n + self.markers[self.n :]
        other._stack = []
        return other

    def copy(self) -> State:
        """An independent copy of this position (without its undo history)."""
        return self.with_rules(self.rules)

    def with_rules(self, rules: Rules) -> State:
        """A copy of this position judged under other ``rules`` (same set and seats)."""
        other = self._shallow_copy()
        other._copy_containers()
        other._stack = []
        other.rules = rules
        other.wild = rules.blanks_wild
        other.branches = int(rules.double_branches)
        other.mexicans = (MEXICAN,) if rules.mexican_trains == 1 else (MEXICAN, MEXICAN2)
        return other

    # -- results ----------------------------------------------------------------------------

    def is_over(self) -> bool:
        """Whether the round has ended."""
        return self.outcome is not None

    def scores(self) -> list[HandScore]:
        """Each seat's score for a finished round (hands must be known)."""
        if self.outcome is None:
            raise ValueError("the round is not over")
        reason = self.outcome.reason
        round_end: RoundEnd = reason.value
        blanks = self.rules.blank_scoring
        raw = [
            sum(tile_points(t, blanks) for t in self.hands[seat] or []) for seat in range(self.n)
        ]
        lowest = min(raw)
        return [
            score_hand(
                self.hands[seat] or [],
                self.rules,
                went_out=seat in self.outcome.out_seats,
                markers_up=int(self.markers[seat]),
                round_end=round_end,
                lowest=reason is EndReason.BLOCKED and raw[seat] == lowest,
            )
            for seat in range(self.n)
        ]

    def __repr__(self) -> str:
        trains = ", ".join(
            f"{self.train_name(t)}={self.open_end(t)}{'*' if self.markers[t] else ''}"
            for t in self.trains
            if self.started[t] or self.markers[t]
        )
        return f"<State engine={self.engine} turn={self.seats[self.turn]} {trains}>"

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules,
        players: int,
        engine: int,
        rng: random.Random,
        *,
        leader: int = 0,
        seats: Sequence[str] | None = None,
    ) -> State:
        """Shuffles and deals a fresh round, finding the engine as ``engine_source`` says.

        With ``set_aside`` the engine never reaches a hand. Otherwise it is dealt like any
        tile and its holder puts it on the hub; if no one holds it, everyone draws a tile at
        once (``holder_plays_draw_all``) or one player at a time from ``leader``
        (``holder_plays_draw_in_turn``) until someone does; ``next_highest_double`` makes the
        highest double dealt the engine. With ``round_leader`` ``engine_holder`` the holder
        leads; otherwise ``leader`` does.
        """
        size = hand_size(rules, players)
        engine_tile = Tile(engine, engine)
        source = rules.engine_source
        if source == _ENGINE_SOURCE_SET_ASIDE:
            tiles = [t for t in full_set(rules.set_max) if t is not engine_tile]
        else:
            tiles = list(full_set(rules.set_max))
        rng.shuffle(tiles)
        hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
        boneyard = tiles[players * size :]
        holder: int | None = None
        if source != _ENGINE_SOURCE_SET_ASIDE:
            if source == _ENGINE_SOURCE_NEXT_HIGHEST_DOUBLE:
                held = [t for hand in hands for t in hand if t.is_double]
                if held:
                    engine_tile = max(held, key=lambda t: t.high)
                    engine = engine_tile.high
            holder = next((i for i, h in enumerate(hands) if engine_tile in h), None)
            seat = leader
            while holder is None and boneyard:
                # Draw (everyone at once, or one at a time) until the engine turns up.
                for drawer in (
                    range(players) if source != _ENGINE_SOURCE_HOLDER_PLAYS_DRAW_IN_TURN else [seat]
                ):
                    if boneyard:
                        tile = boneyard.pop()
                        hands[drawer].append(tile)
                        if tile is engine_tile:
                            holder = drawer
                seat = (seat + 1) % players
            if holder is not None:
                hands[holder].remove(engine_tile)
            else:  # cannot happen with a full set, but keep the set whole if it did
                boneyard = [t for t in boneyard if t is not engine_tile]
        if rules.round_leader == _ROUND_LEADER_ENGINE_HOLDER and holder is not None:
            leader = holder
        names = seats if seats is not None else [chr(ord("A") + i) for i in range(players)]
        return cls(rules, names, engine, hands, boneyard=boneyard, leader=leader)

    @classmethod
    def from_table(
        cls,
        rules: Rules,
        table: Table,
        acting: str | None = None,
        *,
        passes_in_a_row: int = 0,
    ) -> State:
        """The position ``table`` describes, with ``acting`` (else the first seat) to play;
        hands the table does not give stay unknown, and the boneyard is only a count.

        A table read only in part (see :class:`~companion.rules.table.Table`) is laid out as
        far as it goes, to find any fault in that part.

        :raises: :exc:`PositionError` naming the contract field of the first fault.
        """
        seats = table.seats
        hands = table.hands
        leader = seats.index(acting) if acting is not None else 0
        state = cls(
            rules,
            seats,
            table.engine,
            [hands.get(seat) for seat in seats],
            boneyard_count=table.boneyard,
            leader=leader,
        )
        state.passes_in_a_row = passes_in_a_row
        state.table_count = None  # counted from ``on_table`` if ever needed
        markers = state.markers
        laid = 1  # the engine
        # The lighter path: a chain the reader already followed from the engine is laid by
        # assignment (no train is started yet, and doubles take one branch without wild blanks).
        followed = state.branches == 1 and not state.wild
        train_tiles, ends, started = state.train_tiles, state.ends, state.started
        on_table = state.on_table
        for name, train, marker, tiles, end, chain_end in table.trains:
            if train >= 0:
                markers[train] = marker
            if tiles is not None:
                laid += len(tiles)
                if chain_end is not None and followed:
                    train_tiles[train] = list(tiles)
                    started[train] = True
                    if tiles[-1].is_double:
                        ends[train] = []
                        state.double_value[train] = chain_end
                        state.covers_left[train] = 1
                        state.open_doubles.append(train)
                    else:
                        ends[train] = [chain_end]
                    on_table.update(tiles)
                    continue
                bad = state.place_chain(train, tiles)
                if bad >= 0:
                    raise PositionError(
                        ("table", "trains", name, "tiles", bad),
                        f"{tiles[bad]} does not match the train's end",
                    )
            elif end is not None:
                state.start_with_end(train, end)
        if not table.trains_complete:
            return state
        # Every tile laid is in ``on_table`` now, so a repeat shows as a shortfall there.
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
            _report_duplicate(table)
        if table.open_doubles is None:
            return state
        if table.open_doubles or state.open_doubles:  # usually neither: no double waits
            state._declare_open_doubles(table.open_doubles)
        if table.out is None:
            return state
        left = table.first_turns_left
        if left is not None:
            state.first_turn_left = [seat in left for seat in seats]
        else:
            state.first_turns_known = False
            started = state.started
            state.first_turn_left = [not started[i] and not markers[i] for i in range(state.n)]
        for seat in table.out:
            state.mark_out(seats.index(seat))
        return state

    def _declare_open_doubles(self, named: Sequence[tuple[str, TrainId]]) -> None:
        """Leaves exactly the ``named`` trains' doubles open, oldest first (setting up a
        position from a table).

        :raises: :exc:`PositionError` if a named train does not end on a double.
        """
        wanted = [train for _, train in named]
        for train in list(self.open_doubles):
            if train not in wanted:
                self.clear_open_double(train)
        for i, (name, train) in enumerate(named):
            if not self.started[train]:
                raise PositionError(("table", "open_doubles", i), f"{name}'s train is not started")
            tiles = self.train_tiles[train]
            if tiles and self.double_value[train] < 0 and not tiles[-1].is_double:
                raise PositionError(
                    ("table", "open_doubles", i), f"{name}'s last tile is not a double"
                )
            self.set_open_double(train)

    def resolve_draw(self, tile: Tile) -> None:
        """Learns that an unseen draw this turn was ``tile`` (as the player now plays it), if
        it can have been: not already held nor on the table."""
        hand = self.hands[self.turn]
        if hand is None or tile in hand or tile in self.on_table:
            return
        self.add_to_hand(self.turn, tile)
        self.drawn = tile
        self.drawn_unknown = False

    def place(self, train: TrainId, tiles: Sequence[Tile]) -> None:
        """Lays ``tiles`` (from the hub outward) on ``train`` while setting up a position."""
        for tile in tiles:
            self._lay(tile, train)

    def place_chain(self, train: TrainId, tiles: Sequence[Tile]) -> int:
        """Lays a whole chain on an empty ``train`` while setting up a position.

        Returns the index of the first tile that does not fit (nothing is laid then), or -1.
        """
        if self.branches != 1 or self.started[train]:
            for index, tile in enumerate(tiles):
                if self.double_value[train] >= 0:
                    values = [self.double_value[train]]
                else:
                    values = self.ends[train] if self.started[train] else [self.engine]
                if not any(match_end(v, tile, self.wild) >= 0 for v in values):
                    return index
                self._lay(tile, train)
            return -1
        wild = self.wild
        end = self.engine
        for index, tile in enumerate(tiles):
            if tile.high == end:
                end = tile.low
            elif tile.low == end:
                end = tile.high
            else:
                end = match_end(end, tile, wild) if wild else -1
                if end < 0:
                    return index
        if not tiles:
            return -1
        self.train_tiles[train] = list(tiles)
        self.started[train] = True
        if tiles[-1].is_double:
            self.ends[train] = []
            self.double_value[train] = end
            self.covers_left[train] = 1
            self.open_doubles.append(train)
        else:
            self.ends[train] = [end]
        self.on_table.update(tiles)
        self.table_count = None  # recounted from ``on_table`` if ever needed
        return -1

    def start_with_end(self, train: TrainId, end: int) -> None:
        """Marks ``train`` started with open end ``end`` (tiles unknown)."""
        self.started[train] = True
        self.ends[train] = [end]

    def set_open_double(self, train: TrainId) -> None:
        """Declares the double at the end of ``train`` unsatisfied (newest so far)."""
        end = self.open_end(train)
        assert end is not None
        if self.double_value[train] < 0:
            if self.ends[train]:
                self.ends[train].pop()
            self.double_value[train] = end
            self.covers_left[train] = self.branches
        if train in self.open_doubles:
            self.open_doubles.remove(train)
        self.open_doubles.append(train)

    def clear_open_double(self, train: TrainId) -> None:
        """Declares the double at the end of ``train`` satisfied (setting up a position)."""
        if self.double_value[train] >= 0:
            self.ends[train].append(self.double_value[train])
            self.double_value[train] = -1
            self.covers_left[train] = 0
            self.open_doubles.remove(train)

    def begin_turn(self, seat: int, *, first_turn: bool) -> None:
        """Makes it ``seat``'s turn from the start (setting up a position)."""
        self.turn = seat
        self.first_turn_left[seat] = first_turn
        self._new_turn()


class LegalActions:
    """The legal actions of a position, generated on demand.

    >>> from companion.rules import Rules
    >>> import random
    >>> state = State.deal(Rules.from_json({}), 4, 12, random.Random(1))
    >>> END in state.legal_actions
    False
    """

    def __init__(self, state: State) -> None:
        self.state = state

    def __iter__(self) -> Iterator[Action]:
        return iter(legality.legal_actions(self.state))

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Play | Draw | End | RemoveMarker):
            return False
        return self.state.is_legal(action)

    def __bool__(self) -> bool:
        return bool(legality.legal_actions(self.state))

    def __len__(self) -> int:
        return len(legality.legal_actions(self.state))

    def count(self) -> int:
        """How many legal actions there are."""
        return len(legality.legal_actions(self.state))

    def __repr__(self) -> str:
        return f"<LegalActions ({', '.join(map(str, self))})>"


def _report_duplicate(table: Table) -> None:
    """Names the first tile that is in two places (in the order the query lists them)."""
    seen: dict[Tile, str] = {}
    # Each place: its field, and how the message names it (a hand is not a table field).
    places: list[tuple[FieldPath, str | None, Sequence[Tile]]] = [
        (("table", "engine"), None, [Tile(table.engine, table.engine)])
    ]
    places.extend(
        (("hands", seat), f"the hand of {seat}", hand) for seat, hand in table.hands.items()
    )
    places.extend(
        (("table", "trains", spec.name), None, spec.tiles)
        for spec in table.trains
        if spec.tiles is not None
    )
    for path, where, tiles in places:
        for tile in tiles:
            if tile in seen:
                raise PositionError(path, f"{tile} is also in {seen[tile]}", where=where)
            seen[tile] = path_text(path) if where is None else where


def _raise_key(name: str) -> int:
    raise KeyError(name)


__all__ = ["END", "LegalActions", "PositionError", "Snapshot", "State", "Table", "match_end"]
