"""Whether one round's entries are a round the rules allow.

Every round a scoresheet saves goes through :func:`check_round`. It returns the problems it
finds, each naming the player and the part of their entry at fault with a sentence a player
can read. Most problems refuse the round; a typed score above what a dealt hand could hold
only asks to be confirmed (a player who drew many tiles can really hold that much).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from companion.rules.rules import Rules
from companion.rules.scoring import tile_points
from companion.rules.setup import deal
from companion.rules.tiles import Tile, full_set


class ProblemKind(Enum):
    """What is wrong with a round."""

    TWO_WENT_OUT = "two_went_out"
    ENGINE_IN_HAND = "engine_in_hand"
    TILE_IN_TWO_HANDS = "tile_in_two_hands"
    HAND_TOO_BIG = "hand_too_big"
    TOO_MANY_TILES = "too_many_tiles"
    POINTS_UNLIKELY = "points_unlikely"


@dataclass(frozen=True)
class HandEntry:
    """One player's entry for a round: the tiles left in hand, or the points typed."""

    tiles: tuple[Tile, ...] | None = None
    points: int | None = None
    went_out: bool = False

    @property
    def out(self) -> bool:
        """Whether this player went out (an empty hand is going out too)."""
        return self.went_out or (self.tiles is not None and not self.tiles)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a round's entries."""

    kind: ProblemKind
    player: str
    """The player whose entry is at fault (the later one when two entries clash)."""
    part: str
    """The part of the entry: ``went_out``, ``tiles`` or ``points``."""
    message: str
    """A plain sentence for the players."""
    suggestion: int | None = None
    """For :attr:`ProblemKind.POINTS_UNLIKELY`, a nearby plausible number, if there is one."""

    @property
    def field(self) -> str:
        """The input at fault, in the scoresheet API's terms (``scores.<name>.<part>``)."""
        return f"scores.{self.player}.{self.part}"

    @property
    def needs_confirmation(self) -> bool:
        """Whether the round may still be saved once a player confirms the entry."""
        return self.kind is ProblemKind.POINTS_UNLIKELY


def most_a_dealt_hand_holds(rules: Rules, players: int, engine: int) -> int:
    """The most points the tiles dealt to one player could count: the largest tiles of the
    set (the engine left out), as many as a hand is dealt, counted as the rules count them."""
    size = deal(rules, players).hand_size
    values = sorted(
        (
            tile_points(tile, rules.blank_scoring)
            for tile in full_set(rules.set_max)
            if tile is not Tile(engine, engine)
        ),
        reverse=True,
    )
    return sum(values[:size])


def _nearby(points: int, limit: int) -> int | None:
    """A plausible number one slip of the finger away from ``points`` (a digit typed twice
    or one digit too many), the largest such; ``None`` when there is none."""
    text = str(points)
    candidates = {int(text[:i] + text[i + 1 :]) for i in range(len(text)) if len(text) > 1}
    fitting = [value for value in candidates if 0 < value <= limit]
    return max(fitting) if fitting else None


def _names(players: Sequence[str]) -> str:
    if len(players) <= 2:
        return " and ".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def check_round(
    rules: Rules, players: Sequence[str], engine: int, entries: Mapping[str, HandEntry]
) -> list[Problem]:
    """Every problem with one round's entries (an empty list when the rules allow it).

    ``players`` are all the game's players in seat order; ``entries`` holds those entered so
    far (a round may be saved part-filled). ``engine`` is the round's engine double.
    """
    problems: list[Problem] = []
    seated = [name for name in players if name in entries]
    dealt = deal(rules, len(players))
    engine_tile = Tile(engine, engine)

    out = [name for name in seated if entries[name].out]
    if len(out) > 1:
        problems.append(
            Problem(
                ProblemKind.TWO_WENT_OUT,
                out[1],
                "went_out",
                f"{_names(out)} are all marked as going out; only one player goes out in a "
                "round (none when it is blocked).",
            )
        )

    holder: dict[Tile, str] = {}
    total_tiles = 0
    most_in_hand = dealt.hand_size + dealt.boneyard
    for name in seated:
        tiles = entries[name].tiles
        if tiles is None:
            continue
        total_tiles += len(tiles)
        if engine_tile in tiles:
            problems.append(
                Problem(
                    ProblemKind.ENGINE_IN_HAND,
                    name,
                    "tiles",
                    f"The {engine_tile} is this round's engine: it was on the table, so it "
                    f"can't be in {name}'s hand.",
                )
            )
        for tile in tiles:
            earlier = holder.get(tile)
            if earlier is not None and earlier != name:
                problems.append(
                    Problem(
                        ProblemKind.TILE_IN_TWO_HANDS,
                        name,
                        "tiles",
                        f"The {tile} is picked in both {earlier}'s and {name}'s hands; the set "
                        "has only one.",
                    )
                )
            holder.setdefault(tile, name)
        if len(tiles) > most_in_hand:
            problems.append(
                Problem(
                    ProblemKind.HAND_TOO_BIG,
                    name,
                    "tiles",
                    f"{name}'s hand lists {len(tiles)} tiles, but a hand can hold at most "
                    f"{most_in_hand} ({dealt.hand_size} dealt and the {dealt.boneyard} of the "
                    "boneyard).",
                )
            )
    after_engine = dealt.set_tiles - 1
    if total_tiles > after_engine:
        last = [name for name in seated if entries[name].tiles][-1]
        problems.append(
            Problem(
                ProblemKind.TOO_MANY_TILES,
                last,
                "tiles",
                f"The hands list {total_tiles} tiles, but a double-{rules.set_max} set holds "
                f"only {after_engine} besides the engine.",
            )
        )

    limit = most_a_dealt_hand_holds(rules, len(players), engine)
    for name in seated:
        points = entries[name].points
        if points is None or points <= limit:
            continue
        suggestion = _nearby(points, limit)
        guess = f"Did you mean {suggestion}? " if suggestion is not None else ""
        problems.append(
            Problem(
                ProblemKind.POINTS_UNLIKELY,
                name,
                "points",
                f"{guess}{points} is more than the {dealt.hand_size} tiles dealt to "
                f"{name} could hold (at most {limit}).",
                suggestion,
            )
        )
    return problems
