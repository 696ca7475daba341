"""The last table read from a photo, kept with the game's round in progress, so that the next
dispute in that round starts from it. Only the position is kept (as the form's values), never
the photo; a newer read replaces it, and a round once scored no longer uses it. Whose the
photo's first train was (the one pointing nearest the photographer) is kept for the whole
game: photographed from the same place, the next round's photo starts from the same seat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..extensions import db
from ..games import sheetview
from ..games.models import Game, utc_now
from .dispute import TrainRow
from .models import TablePosition


@dataclass(frozen=True)
class Recalled:
    """A kept position, as form values, and where it came from."""

    values: dict[str, str]
    round_n: int
    at: datetime


def round_in_progress(game: Game) -> int | None:
    """The number of the round being played (the first not fully scored), if any."""
    view = sheetview.view_game(game)
    return view.next_round.n if view.next_round is not None else None


def remember(game: Game, values: Mapping[str, Any], rows: Sequence[TrainRow]) -> None:
    """Keep the position the form holds (engine, ends, open doubles) with the round in
    progress, replacing the one kept before, and whose the first train is when the player set
    any train's owner. Nothing is kept when no round is in progress."""
    round_n = round_in_progress(game)
    if round_n is None:
        return
    ends = {row.key: _text(values, f"end-{row.key}") for row in rows}
    position = {
        "engine": _text(values, "engine"),
        "ends": ends,
        "open": [row.key for row in rows if _text(values, f"open-{row.key}")],
    }
    # Only an owner the player set (or kept from the game's last photo) is the game's: the
    # seat order a fresh read starts from is a guess, and a second photo must not call it
    # "as in this game's last table photo".
    first = _text(values, "owner-0")
    if _text(values, "owners-set") and first in _seat_keys(rows):
        position["first_owner"] = first
    kept = db.session.get(TablePosition, game.id)
    if kept is None:
        db.session.add(TablePosition(game_id=game.id, round_n=round_n, position=position))
    else:
        kept.round_n, kept.position = round_n, position
        kept.at = utc_now()
    db.session.commit()


def recall(game: Game, rows: Sequence[TrainRow], set_max: int) -> Recalled | None:
    """The position kept with the round in progress, checked again, or None."""
    kept = db.session.get(TablePosition, game.id)
    if kept is None or kept.round_n != round_in_progress(game):
        return None
    position = kept.position if isinstance(kept.position, dict) else {}
    values: dict[str, str] = {}
    engine = position.get("engine")
    if isinstance(engine, str) and engine.isdigit() and int(engine) <= set_max:
        values["engine"] = engine
    ends = position.get("ends")
    opened = position.get("open")
    for row in rows:
        end = ends.get(row.key) if isinstance(ends, dict) else None
        if isinstance(end, str) and (end in ("none", "started") or _number(end, set_max)):
            values[f"end-{row.key}"] = end
        if isinstance(opened, list) and row.key in opened:
            values[f"open-{row.key}"] = "on"
    return Recalled(values, kept.round_n, kept.at)


def first_owner(game: Game, rows: Sequence[TrainRow]) -> str | None:
    """The seat whose train was the first train of the game's last table photo (any round),
    if it is still a seat of this game."""
    kept = db.session.get(TablePosition, game.id)
    position = kept.position if kept is not None and isinstance(kept.position, dict) else {}
    first = position.get("first_owner")
    return first if isinstance(first, str) and first in _seat_keys(rows) else None


def _seat_keys(rows: Sequence[TrainRow]) -> set[str]:
    return {row.key for row in rows if row.owner is not None}


def _text(values: Mapping[str, Any], key: str) -> str:
    value = values.get(key, "")
    return value.strip() if isinstance(value, str) else ""


def _number(text: str, set_max: int) -> bool:
    return text.isdigit() and int(text) <= set_max
