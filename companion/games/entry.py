"""One player's score for one round, as the table entered it: typed points or the tiles left
in hand, whether they went out, and markers left up.

The database keeps an entry as JSON (:meth:`ScoreEntry.to_json`), and pages, the API and the
history read it back with :meth:`ScoreEntry.from_json`. Points always come from the rules
engine (:meth:`ScoreEntry.score`), so a change of house rules re-scores every round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rules import Rules, Tile, score_counted, score_hand
from ..rules.integrity import HandEntry

TilePair = tuple[int, int]


@dataclass(frozen=True)
class ScoreEntry:
    """A checked score (see :func:`.parsing.parse_score`): either ``points`` or ``tiles``.

    ``tiles`` keeps each pair as it was given, halves in the order sent, so an API client
    reads back exactly what it wrote.
    """

    points: int | None = None
    tiles: tuple[TilePair, ...] | None = None
    went_out: bool = False
    markers_up: int = 0

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScoreEntry:
        """Read an entry in its stored form (older rows may leave out the defaults)."""
        tiles = data.get("tiles")
        points = data.get("points")
        return cls(
            points=int(points) if points is not None and tiles is None else None,
            tiles=tuple((int(a), int(b)) for a, b in tiles) if tiles is not None else None,
            went_out=bool(data.get("went_out", False)),
            markers_up=int(data.get("markers_up", 0)),
        )

    def to_json(self) -> dict[str, Any]:
        """The stored form: ``went_out``, ``markers_up`` and one of ``points`` or ``tiles``."""
        stored: dict[str, Any] = {"went_out": self.went_out, "markers_up": self.markers_up}
        if self.tiles is not None:
            stored["tiles"] = [list(pair) for pair in self.tiles]
        elif self.points is not None:
            stored["points"] = self.points
        return stored

    @property
    def hand(self) -> tuple[Tile, ...] | None:
        """The tiles left in hand, or None when points were typed."""
        if self.tiles is None:
            return None
        return tuple(Tile.from_json(list(pair)) for pair in self.tiles)

    def score(self, rules: Rules) -> int:
        """What this entry scores under ``rules``: picked tiles are scored by the engine's
        blank rule, typed points get the engine's bonus and marker penalty."""
        hand = self.hand
        if hand is not None:
            return score_hand(
                hand, rules, went_out=self.went_out, markers_up=self.markers_up
            ).points
        return score_counted(
            self.points or 0, rules, went_out=self.went_out, markers_up=self.markers_up
        ).points

    def hand_entry(self) -> HandEntry:
        """The entry in the terms of the rules engine's round checks."""
        return HandEntry(tiles=self.hand, points=self.points, went_out=self.went_out)

    def api_json(self, points: int) -> dict[str, Any]:
        """The entry as the scoresheet API shows it, with the points it scored."""
        shown: dict[str, Any] = {"points": points}
        if self.went_out:
            shown["went_out"] = True
        if self.tiles is not None:
            shown["tiles"] = [list(pair) for pair in self.tiles]
        if self.markers_up:
            shown["markers_up"] = self.markers_up
        return shown
