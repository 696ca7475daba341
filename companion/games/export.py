"""A game written out for other programs: the scoresheet API's JSON and a CSV for
spreadsheets."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .sheetview import GameView


def game_to_json(view: GameView) -> dict[str, Any]:
    """Give the game in the form of shared/spec/scoresheet-api.md."""
    next_round = view.next_round
    return {
        "id": view.game.id,
        "version": view.game.version,
        "players": view.players,
        "rules": view.rules.to_json(),
        "rounds": [
            {
                "n": round_.n,
                "engine": round_.engine,
                "leader": round_.leader,
                "hand_size": round_.hand_size,
                "scores": {
                    name: round_.entries[name].api_json(round_.points[name])
                    for name in view.players
                    if name in round_.points
                },
            }
            for round_ in view.rounds
        ],
        "totals": view.totals,
        "standings": view.standings,
        "next_round": (
            {"n": next_round.n, "engine": next_round.engine, "leader": next_round.leader}
            if next_round
            else None
        ),
        "finished": view.finished,
        "winners": view.winners,
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: str) -> str:
    """A CSV cell a spreadsheet will show as text: one that starts like a formula (``=``,
    ``+``, ``-``, ``@``, tab, return) gets a leading apostrophe, unless it is a plain number."""
    if cell.startswith(FORMULA_STARTS) and not re.fullmatch(r"-?\d+", cell):
        return "'" + cell
    return cell


def engine_cell(engine: int) -> str:
    """An engine double as the sheet writes it, "12|12".

    "12-12" is what a player might type, but Excel and LibreOffice read it as a date (12
    December) and show it as one. "12|12" is how the page shows an engine and how a double
    looks on the table, and no spreadsheet reads it as a number or a date."""
    return f"{engine}|{engine}"


def scoresheet_rows(view: GameView) -> Iterable[list[str]]:
    """Yield the scoresheet as CSV rows: one per round, then the totals and ranks.

    Player names are made spreadsheet-safe (:func:`spreadsheet_safe`); every other cell is a
    number, an engine double (:func:`engine_cell`) or a name.
    """
    yield [
        "round",
        "engine",
        "leader",
        "went out",
        *(spreadsheet_safe(name) for name in view.players),
    ]
    for round_ in view.rounds:
        out = [name for name, entry in round_.entries.items() if entry.went_out]
        yield [
            str(round_.n),
            engine_cell(round_.engine),
            spreadsheet_safe(round_.leader or ""),
            spreadsheet_safe(" and ".join(out)),
            *(str(round_.points[name]) if name in round_.points else "" for name in view.players),
        ]
    yield ["total", "", "", "", *(str(view.totals[name]) for name in view.players)]
    yield ["rank", "", "", "", *(str(view.ranks[name]) for name in view.players)]
