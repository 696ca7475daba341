"""Scoring the tiles left in a hand at the end of a round."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, NamedTuple, get_args

from companion.rules.keys import BlankScoring, BlockedScoring, GoOutOnDouble
from companion.rules.rules import Rules, RulesError
from companion.rules.setup import schedule
from companion.rules.tiles import Tile, full_set

RoundEnd = Literal["went_out", "went_out_on_double", "blocked"]
ROUND_ENDS: tuple[RoundEnd, ...] = get_args(RoundEnd)


class HandScore(NamedTuple):
    """Points a hand scores and a sentence saying how they were counted."""

    points: int
    reason: str


_DOUBLE_BLANK_POINTS = {
    BlankScoring.DOUBLE_BLANK_50: 50,
    BlankScoring.DOUBLE_BLANK_25: 25,
    BlankScoring.BLANK_25_DOUBLE_BLANK_50: 50,
}


def tile_points(tile: Tile, blank_scoring: str) -> int:
    """What one tile counts under ``blank_scoring``."""
    if tile.low != 0 or blank_scoring == BlankScoring.PIPS:
        return tile.pips
    if tile.high == 0:
        return _DOUBLE_BLANK_POINTS[BlankScoring(blank_scoring)]
    if blank_scoring == BlankScoring.BLANK_25_DOUBLE_BLANK_50:
        return tile.high + 25
    return tile.pips


_BLANK_WORDS = {
    BlankScoring.PIPS: "every tile counts its pips",
    BlankScoring.DOUBLE_BLANK_50: "the double blank counts 50, other tiles their pips",
    BlankScoring.DOUBLE_BLANK_25: "the double blank counts 25, other tiles their pips",
    BlankScoring.BLANK_25_DOUBLE_BLANK_50: "each blank half counts 25 and the double blank 50",
}


def score_hand(
    tiles: Iterable[Tile],
    rules: Rules,
    *,
    went_out: bool = False,
    markers_up: int = 0,
    round_end: RoundEnd | None = None,
    lowest: bool = False,
) -> HandScore:
    """Scores one player's hand at the end of a round.

    ``round_end`` and ``lowest`` matter only to ``go_out_on_double`` and ``blocked_scoring``.
    """
    hand = list(tiles)
    if type(markers_up) is not int or markers_up < 0:
        raise RulesError(f"markers_up: must be 0 or more, got {markers_up!r}")
    if round_end is not None and round_end not in ROUND_ENDS:
        raise RulesError(f"round_end: {round_end!r} is not one of {', '.join(ROUND_ENDS)}")
    penalty = rules.open_marker_penalty * markers_up
    penalty_words = (
        f" plus {penalty} for {markers_up} marker{'s' if markers_up != 1 else ''} left up"
        if penalty
        else ""
    )
    if went_out or not hand:
        points = rules.going_out_bonus + penalty
        bonus = (
            f" with a going-out bonus of {rules.going_out_bonus}" if rules.going_out_bonus else ""
        )
        return HandScore(points, f"Went out{bonus}{penalty_words}: {points} points.")
    if round_end == "blocked" and lowest and rules.blocked_scoring == BlockedScoring.LOWEST_TO_ZERO:
        return HandScore(0, "Lowest hand of a blocked round is recorded as 0 points.")
    tile_total = sum(tile_points(tile, rules.blank_scoring) for tile in hand)
    words = _BLANK_WORDS[rules.blank_scoring]
    if (
        round_end == "went_out_on_double"
        and rules.go_out_on_double == GoOutOnDouble.ALLOWED_OPPONENTS_X2
    ):
        points = 2 * tile_total + penalty
        return HandScore(
            points,
            f"{tile_total} in hand ({words}), doubled because the round ended on a double"
            f"{penalty_words}: {points} points.",
        )
    points = tile_total + penalty
    return HandScore(points, f"{tile_total} in hand ({words}){penalty_words}: {points} points.")


def score_counted(
    pips: int, rules: Rules, *, went_out: bool = False, markers_up: int = 0
) -> HandScore:
    """Scores a hand whose pips the table counted itself (points typed rather than tiles).

    The count already follows the table's blank rule, so only the going-out bonus and the
    penalty for markers left up are added, as :func:`score_hand` adds them.
    """
    if type(pips) is not int or pips < 0:
        raise RulesError(f"pips: must be 0 or more, got {pips!r}")
    if type(markers_up) is not int or markers_up < 0:
        raise RulesError(f"markers_up: must be 0 or more, got {markers_up!r}")
    bonus = rules.going_out_bonus if went_out else 0
    penalty = rules.open_marker_penalty * markers_up
    points = pips + bonus + penalty
    parts = [f"{pips} counted at the table"]
    if bonus:
        parts.append(f"a going-out bonus of {bonus}")
    if penalty:
        parts.append(f"{penalty} for {markers_up} marker{'s' if markers_up != 1 else ''} left up")
    return HandScore(points, f"{' plus '.join(parts)}: {points} points.")


def max_hand_points(rules: Rules) -> int:
    """The largest score any hand can reach: every tile but the smallest engine, one marker."""
    smallest_engine = min(schedule(rules))
    total = sum(
        tile_points(tile, rules.blank_scoring)
        for tile in full_set(rules.set_max)
        if tile != Tile(smallest_engine, smallest_engine)
    )
    if rules.go_out_on_double == GoOutOnDouble.ALLOWED_OPPONENTS_X2:
        total *= 2
    return total + rules.open_marker_penalty
