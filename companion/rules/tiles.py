"""Domino tiles and sets.

Tiles are interned: ``Tile(5, 12) is Tile(12, 5)``. Equality and hashing are therefore by
identity (fast, and done in C), and pickling or copying a tile returns the same object.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntFlag
from typing import Any, ClassVar

MAX_PIPS = 18
"""The largest pip value of any supported set (double-18)."""


class InvalidTileError(ValueError):
    """A tile was given in a shape or with values that no domino has."""


# Left out of the compiled build (Makefile): mypyc would make this a class of fixed slots,
# which loses the identity hash once ``__lt__`` is defined and refuses ``object.__new__``.
class Tile:
    """One domino, normalised so that ``high >= low``.

    >>> Tile(5, 12)
    Tile(12, 5)
    >>> str(Tile.parse("5|12")), Tile(6, 6).is_double
    ('12-5', True)
    """

    __slots__ = ("high", "low", "pips", "is_double", "code")

    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}

    high: int
    """The larger half."""
    low: int
    """The smaller half."""
    pips: int
    """The sum of both halves."""
    is_double: bool
    """Whether both halves are equal."""
    code: int
    """A small unique integer for this tile (``high * 32 + low``)."""

    def __new__(cls, a: int, b: int) -> Tile:
        key = (a, b) if a >= b else (b, a)
        tile = cls._interned.get(key)
        if tile is not None:
            return tile
        if (
            not (isinstance(a, int) and isinstance(b, int))
            or isinstance(a, bool)
            or isinstance(b, bool)
        ):
            raise InvalidTileError(f"a tile's halves must be whole numbers, got {a!r} and {b!r}")
        if key[1] < 0 or key[0] > MAX_PIPS:
            raise InvalidTileError(f"a tile's halves must be between 0 and {MAX_PIPS}, got {a}-{b}")
        tile = object.__new__(cls)
        object.__setattr__(tile, "high", key[0])
        object.__setattr__(tile, "low", key[1])
        object.__setattr__(tile, "pips", key[0] + key[1])
        object.__setattr__(tile, "is_double", key[0] == key[1])
        object.__setattr__(tile, "code", key[0] * 32 + key[1])
        cls._interned[key] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    def __lt__(self, other: Tile) -> bool:
        return (self.high, self.low) < (other.high, other.low)

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def as_list(self) -> list[int]:
        """The JSON form, ``[high, low]``."""
        return [self.high, self.low]

    def has(self, value: int) -> bool:
        """Whether either half shows ``value``."""
        return self.high == value or self.low == value

    def other_half(self, value: int) -> int:
        """The half opposite the one showing ``value`` (which must be on the tile)."""
        return self.low if self.high == value else self.high

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parses ``"12-5"``, ``"5|12"`` or ``"5 12"``.

        :raises: :exc:`InvalidTileError` if the text is not two numbers.
        """
        match = re.fullmatch(r"\s*(\d{1,2})\s*[-|:/, ]\s*(\d{1,2})\s*", text)
        if match is None:
            raise InvalidTileError(f"{text!r} is not a tile such as '12-5'")
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def from_json(cls, value: Any) -> Tile:
        """Reads the JSON form ``[a, b]`` (order free).

        :raises: :exc:`InvalidTileError` on a bad shape, a negative or a non-integer half.
        """
        if type(value) is list and len(value) == 2:
            a, b = value
            if type(a) is int and type(b) is int:
                tile = _BY_PAIR.get((a, b))
                if tile is not None:
                    return tile
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise InvalidTileError(
                f"a tile is a list of two numbers such as [12, 5], got {value!r}"
            )
        a, b = value
        if type(a) is not int or type(b) is not int:
            raise InvalidTileError(f"a tile's halves must be whole numbers, got {value!r}")
        return cls(a, b)


# Every tile up to double-18, reachable from either order of its halves.
_BY_PAIR: dict[tuple[int, int], Tile] = {}
for _high in range(MAX_PIPS + 1):
    for _low in range(_high + 1):
        _BY_PAIR[(_high, _low)] = _BY_PAIR[(_low, _high)] = Tile(_high, _low)

_FULL_SETS: dict[int, tuple[Tile, ...]] = {}


def full_set(set_max: int) -> tuple[Tile, ...]:
    """Every tile of a double-``set_max`` set, ``(n+1)(n+2)/2`` of them, doubles first per value."""
    tiles = _FULL_SETS.get(set_max)
    if tiles is None:
        if not 0 <= set_max <= MAX_PIPS:
            raise InvalidTileError(f"there is no double-{set_max} set")
        tiles = tuple(
            Tile(high, low) for high in range(set_max, -1, -1) for low in range(high, -1, -1)
        )
        _FULL_SETS[set_max] = tiles
    return tiles


def set_size(set_max: int) -> int:
    """How many tiles a double-``set_max`` set holds."""
    return (set_max + 1) * (set_max + 2) // 2


class HandStatus(IntFlag):
    """What is wrong with a list of tiles said to be one hand (``VALID`` when nothing)."""

    VALID = 0
    DUPLICATE_TILE = 1
    TILE_NOT_IN_SET = 2


def check_hand(tiles: Iterable[Tile], set_max: int) -> HandStatus:
    """Checks a hand for repeated tiles and tiles the set does not contain."""
    status = HandStatus.VALID
    seen: set[Tile] = set()
    for tile in tiles:
        if tile in seen:
            status |= HandStatus.DUPLICATE_TILE
        seen.add(tile)
        if tile.high > set_max:
            status |= HandStatus.TILE_NOT_IN_SET
    return status
