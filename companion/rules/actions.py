"""What a player can do on a turn: hashable value objects, and the errors for refusing them."""

from __future__ import annotations

import dataclasses
from enum import Enum

from companion.rules.tiles import Tile

TrainId = int
"""A train: the owner's seat index (0, 1, ...), or :data:`MEXICAN` / :data:`MEXICAN2`."""

MEXICAN: TrainId = -2
"""The (first) Mexican Train."""
MEXICAN2: TrainId = -1
"""The second Mexican Train, where ``mexican_trains`` is 2."""


@dataclasses.dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` on ``train``."""

    tile: Tile
    """The tile laid."""
    train: TrainId
    """The train it goes on."""


@dataclasses.dataclass(frozen=True, slots=True)
class Draw:
    """Draw from the boneyard; ``tile`` is the tile drawn when known (the referee is told)."""

    tile: Tile | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class End:
    """End the turn (with nothing played this is a pass)."""


@dataclasses.dataclass(frozen=True, slots=True)
class RemoveMarker:
    """Take one's own marker off one's train."""


Action = Play | Draw | End | RemoveMarker

END = End()
REMOVE_MARKER = RemoveMarker()


class IllegalActionError(ValueError):
    """An action is against the rules; ``rule`` names the deciding key, ``reason`` says why."""

    def __init__(self, rule: str, reason: str, action: Action | None = None) -> None:
        super().__init__(reason)
        self.rule = rule
        """The contract key (or core rule id such as ``"must_match"``) that decided."""
        self.reason = reason
        """One sentence a player can read aloud."""
        self.action = action


class RoundOverError(IllegalActionError):
    """An action was tried after the round ended."""


class EndReason(Enum):
    """Why a round ended."""

    WENT_OUT = "went_out"
    WENT_OUT_ON_DOUBLE = "went_out_on_double"
    BLOCKED = "blocked"


@dataclasses.dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended."""

    reason: EndReason
    out_seats: tuple[int, ...]
    """Seats that played their last tile (empty when blocked)."""
    rule: str
    """The rule key that ended it (``"core"`` for an ordinary going out)."""


class StatusReason(Enum):
    """What decides whether a round goes on (see :meth:`State.status`)."""

    WENT_OUT = "went_out"
    """Players have played their last tile: the round is over."""
    FIRST_TURNS_LEFT = "first_turns_left"
    """Players went out on the first turn, and others still take theirs."""
    DOUBLE_OPEN = "double_open"
    """Players are out on a double that must still be covered."""
    DOUBLE_UNCOVERABLE = "double_uncoverable"
    """Players are out on a double that no one can cover any more: blocked."""
    FULL_LAP = "full_lap"
    """Every player has passed in a row: blocked."""
    PASSES = "passes"
    """Fewer passes in a row than players: the round goes on."""
    BONEYARD_LEFT = "boneyard_left"
    """The boneyard still has tiles to draw."""
    BLOCKED = "blocked"
    """The boneyard is empty and no one can play anywhere."""
    CAN_PLAY = "can_play"
    """A player can still play (``Status.play`` by ``Status.seat``)."""
    MARKERS_UP = "markers_up"
    """A player could play once the passing players' markers go up."""


@dataclasses.dataclass(frozen=True, slots=True)
class Status:
    """Whether a round is over as the table stands between turns, and why."""

    over: bool
    rule: str
    """The contract key (or ``"went_out"``, ``"core"``) that decides."""
    reason: StatusReason
    out: tuple[int, ...] = ()
    """Seats that have played their last tile."""
    waiting: tuple[int, ...] = ()
    """Seats still owed a first turn (with :attr:`StatusReason.FIRST_TURNS_LEFT`)."""
    seat: int | None = None
    """A seat that can still play (with :attr:`StatusReason.CAN_PLAY`)."""
    play: Play | None = None
    """A play that seat can make."""
