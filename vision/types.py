"""Result types of the camera pipeline (frozen, JSON-ready)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class HalfSeen:
    """One half of a tile as the reader counted it, and where it lies."""

    pips: int
    middle: tuple[float, float]
    """The half's middle in the photo's pixel coordinates."""


@dataclass(frozen=True)
class DetectedTile:
    """One face-up domino found in a photo."""

    pips: tuple[int, int]
    """Pip counts of the two halves, larger first."""
    confidence: float
    """The pipeline's belief (0..1) that this tile is read right."""
    corners: tuple[tuple[int, int], ...]
    """Outline in the photo's pixel coordinates (after EXIF orientation), clockwise on screen
    from the top-left corner."""
    alternatives: tuple[tuple[tuple[int, int], float], ...] = ()
    """Other tiles it may be, most probable first: (pips larger first, probability). Not part
    of the contract's JSON; the table's chains use them to mend a reading that breaks a
    joint."""
    halves: tuple[HalfSeen, HalfSeen] | None = None
    """What the reader counted on each half and where that half lies, where known. Not part
    of the contract's JSON; the table's chains use it to tell which number faces which way."""

    def half_places(
        self, pips: tuple[int, int]
    ) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """Where the halves showing ``pips[0]`` and ``pips[1]`` lie, for this reading or one
        of its others, when the halves as counted tell: the reading is laid the way that
        keeps more of the counted numbers on their halves (another reading of a misread tile
        nearly always keeps one). None for a double, or where either way keeps as many."""
        if self.halves is None or pips[0] == pips[1]:
            return None
        first, second = self.halves
        kept = (pips[0] == first.pips) + (pips[1] == second.pips)
        turned = (pips[1] == first.pips) + (pips[0] == second.pips)
        if kept == turned:
            return None
        if kept > turned:
            return first.middle, second.middle
        return second.middle, first.middle

    def to_json(self) -> dict[str, Any]:
        """The tile as the contract's JSON object."""
        return {
            "pips": [self.pips[0], self.pips[1]],
            "confidence": round(self.confidence, 3),
            "corners": [[x, y] for x, y in self.corners],
        }


@dataclass(frozen=True)
class HandReading:
    """Everything read from one photo."""

    width: int
    """Photo width in pixels after EXIF orientation."""
    height: int
    """Photo height in pixels after EXIF orientation."""
    tiles: tuple[DetectedTile, ...]
    """Every face-up tile found, in reading order (top to bottom, left to right)."""
    ms: int
    """Wall time spent on the photo, decoding included, in milliseconds."""
    hints: tuple[tuple[tuple[int, int], ...], ...] = ()
    """Outlines (photo pixels, like a tile's corners) of tile-like shapes the pipeline saw but
    did not count (too unsure it is a face-up tile, or cut by the photo's edge): places for
    the player to look at. Not part of the `vision score` contract."""

    @property
    def pip_pairs(self) -> list[tuple[int, int]]:
        """The pips of every tile, as (larger, smaller) pairs."""
        return [tile.pips for tile in self.tiles]
