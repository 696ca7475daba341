"""Which player a phone holds ("This phone is Ann"), kept on the phone, never in the database.

Each game has its own signed cookie, sent only with that game's pages (its path is the game's),
so two phones at one table can hold two players and the session cookie, already carrying edit
tokens, does not grow. The cookie names the game as well as the player: one copied to another
game's path is refused. A value that no longer names a player of the game (renamed, removed,
tampered with) is dropped quietly.
"""

from __future__ import annotations

from typing import Any

from flask import after_this_request, current_app, request
from itsdangerous import BadSignature, URLSafeSerializer
from werkzeug.wrappers import Response

from .models import Game

COOKIE_PREFIX = "holds-"
SALT = "this-phone-holds"
MAX_AGE_SECONDS = 400 * 24 * 3600  # the longest Chrome keeps a cookie; a family plays for years


def cookie_name(game_id: str) -> str:
    """The cookie holding this game's player."""
    return COOKIE_PREFIX + game_id


def cookie_path(game_id: str) -> str:
    """The pages the cookie rides with: the game's own (sheet, read-only view, winner card)."""
    return f"/games/{game_id}"


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt=SALT)  # type: ignore[arg-type]


def signed_value(game_id: str, name: str) -> str:
    """The cookie's value for a phone holding ``name`` in game ``game_id``."""
    return _serializer().dumps({"game": game_id, "player": name})


def read_value(game_id: str, value: str) -> str | None:
    """The player a cookie value names for this game, or None when it is not a good value."""
    try:
        data: Any = _serializer().loads(value)
    except BadSignature:
        return None
    if not isinstance(data, dict) or data.get("game") != game_id:
        return None
    player = data.get("player")
    return player if isinstance(player, str) else None


def held_player(game: Game) -> str | None:
    """The player this phone holds in ``game``; a stale or bad cookie is dropped unseen."""
    value = request.cookies.get(cookie_name(game.id))
    if value is None:
        return None
    player = read_value(game.id, value)
    if player is not None and player in game.players:
        return player

    @after_this_request
    def drop(response: Any) -> Any:
        forget(response, game.id)
        return response

    return None


def remember(response: Response, game_id: str, name: str) -> None:
    """Keep on this phone that it holds ``name`` in game ``game_id``."""
    response.set_cookie(
        cookie_name(game_id),
        signed_value(game_id, name),
        max_age=MAX_AGE_SECONDS,
        path=cookie_path(game_id),
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )


def forget(response: Response, game_id: str) -> None:
    """Drop the player this phone held in game ``game_id``."""
    response.delete_cookie(
        cookie_name(game_id),
        path=cookie_path(game_id),
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )


def seats_holder_first(players: list[str], held: str | None) -> list[int]:
    """Seats in the order the round form lists them: the phone's own player first."""
    seats = list(range(len(players)))
    if held is not None and held in players:
        seat = players.index(held)
        seats.remove(seat)
        seats.insert(0, seat)
    return seats
