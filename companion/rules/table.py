"""A position as the referee contract describes a table, read but not yet laid out.

:meth:`State.from_table <companion.rules.state.State.from_table>` turns a :class:`Table` into a
position. Names and messages follow the contract's ``table`` object (shared/spec/referee.md),
so a :exc:`PositionError` can be shown to whoever sent the table as it is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from companion.rules.actions import TrainId
from companion.rules.tiles import Tile

FieldPath = tuple[str | int, ...]
"""A contract field, key by key: ``("table", "trains", "Ann", "tiles", 2)`` is the field the
contract writes ``table.trains.Ann.tiles[2]`` (whole numbers are list indexes)."""


def path_text(path: FieldPath) -> str:
    """``path`` as the contract's messages write it: ``table.trains.Ann.tiles[2]``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else part
    return text


class FieldError(ValueError):
    """An error about one field of a contract query: ``str(error)`` is the contract's message,
    the field first (``"table.trains.Ann.tiles[2]: 5-7 does not match 3"``); :attr:`path` and
    :attr:`detail` are its two parts, for a caller that shows the field its own way."""

    def __init__(
        self, path: FieldPath, detail: str, *, where: str | None = None, text: str | None = None
    ) -> None:
        shown = path_text(path) if where is None else where
        if text is None:
            text = f"{shown}: {detail}" if shown else detail
        super().__init__(text)
        self.path = path
        """The field at fault (``()`` when the message names none)."""
        self.detail = detail
        """The message without the field."""
        self.where = where
        """How the message names the field when not by its path ("the hand of Ann")."""


def fault_within(path: FieldPath, message: str) -> tuple[str, str | None]:
    """``(detail, text)`` for a :class:`FieldError` about ``path`` from another error's
    ``message``: the detail after the path when the message starts with it, else the message
    kept whole as the error's text (it names a field inside ``path``, "rules.hand_size")."""
    prefix = f"{path_text(path)}: "
    if message.startswith(prefix):
        return message[len(prefix) :], None
    return message, message


class PositionError(FieldError):
    """A table that no game could reach: a chain that does not match, a tile in two places,
    an open double that is not there. The message starts with the contract field at fault."""


class TrainSpec(NamedTuple):
    """One entry of ``table.trains`` (a named tuple: a table has several, read per query)."""

    name: str
    """The contract's name of the train (a seat, ``"mexican"`` or ``"mexican2"``)."""
    train: TrainId
    marker: bool
    tiles: Sequence[Tile] | None = None
    """The train's tiles from the hub outward, when given."""
    end: int | None = None
    """The open end, when only that is given."""
    chain_end: int | None = None
    """With ``tiles``, under single-branch doubles without wild blanks: the open end the
    reader already found by following the tiles from the engine (``None`` when it did not, or
    they do not chain). A lighter path for the referee: the position trusts it."""


@dataclasses.dataclass(slots=True)
class Table:
    """The contract's ``table`` object, each field read and checked on its own; read-only
    once made (not frozen only because one is made per referee query, and frozen ones cost).

    A table read only up to a malformed field leaves the later fields ``None`` (and
    ``trains_complete`` false): laying out such a prefix finds any error the table shows
    before that field, so errors are reported in the order the query lists them.
    """

    seats: tuple[str, ...]
    engine: int
    boneyard: int
    trains: Sequence[TrainSpec] = ()
    trains_complete: bool = True
    open_doubles: Sequence[tuple[str, TrainId]] | None = ()
    """Each named train with its id, in the order given."""
    out: Sequence[str] | None = ()
    """``table.out``: seats that have played their last tile this round."""
    first_turns_left: frozenset[str] | None = None
    """Seats still owed a first turn; ``None`` when the table does not say (then a seat with
    an unstarted, unmarked train is taken not to have had a turn yet)."""
    hands: Mapping[str, Sequence[Tile]] = dataclasses.field(default_factory=dict)
    """The hands that are known, by seat name."""
