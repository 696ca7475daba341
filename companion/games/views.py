"""The game pages' blueprint and what every page shares.

The pages themselves are one module each: ``setup_page`` (start a game), ``sheet_page`` (the
scoresheet, its round form, schedule, undo, delete and CSV), ``picker_page`` (a hand's tiles,
picked or read from a photo) and ``rules_page`` (change the house rules); ``roundform`` reads
and re-shows the round form.
"""

from __future__ import annotations

from flask import Blueprint

from . import access, service
from .errors import RoundNotFound, ValidationFailed
from .models import Game
from .sheetview import GameView

bp = Blueprint("games", __name__, url_prefix="/games")


def editable_game(game_id: str) -> Game:
    """Load a game this browser may change, or raise 404/401/403."""
    game = service.get_game(game_id)
    access.require_edit(game)
    return game


def round_and_seat(view: GameView, n: int, seat: int) -> None:
    """Refuse a round or seat the game doesn't have."""
    if not 1 <= n <= len(view.rounds):
        raise RoundNotFound(f"This game has no round {n}.")
    if not 0 <= seat < len(view.players):
        raise ValidationFailed("There is no player in that seat.", "seat")
