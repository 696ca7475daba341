"""Who may change a game from a browser: phones whose session holds its edit token."""

from __future__ import annotations

from flask import session

from .errors import TokenMissing, TokenWrong
from .models import Game
from .service import token_matches

SESSION_KEY = "edit_tokens"
SEEN_KEY = "seen_games"
MAX_REMEMBERED_GAMES = 40  # keeps the signed cookie well under browsers' 4 KB limit


def remembered_tokens() -> dict[str, str]:
    """Game id -> edit token, as kept in this browser's session."""
    tokens = session.get(SESSION_KEY)
    return dict(tokens) if isinstance(tokens, dict) else {}


def remember_token(game_id: str, token: str) -> None:
    """Give this browser edit rights to a game (the newest games are kept)."""
    tokens = remembered_tokens()
    tokens.pop(game_id, None)
    tokens[game_id] = token
    session[SESSION_KEY] = dict(list(tokens.items())[-MAX_REMEMBERED_GAMES:])
    session.permanent = True


def forget_token(game_id: str) -> None:
    """Drop a game from this browser's session (after it is deleted)."""
    tokens = remembered_tokens()
    if tokens.pop(game_id, None) is not None:
        session[SESSION_KEY] = tokens


def token_for(game: Game) -> str | None:
    """The edit token this browser holds for ``game``, if it is still the right one."""
    token = remembered_tokens().get(game.id)
    return token if token and token_matches(game, token) else None


def can_edit(game: Game) -> bool:
    """Say whether this browser may change ``game``."""
    return token_for(game) is not None


def require_edit(game: Game) -> None:
    """Refuse (401/403) a browser without this game's edit token."""
    token = remembered_tokens().get(game.id)
    if not token:
        raise TokenMissing(
            "Only a phone opened from this game's edit link can change it; ask the owner for "
            "the link."
        )
    if not token_matches(game, token):
        raise TokenWrong("The edit link this phone holds is not this game's.")


def remember_seen(game_id: str) -> None:
    """Note that this browser opened a game (its home page then lists it)."""
    seen = session.get(SEEN_KEY)
    ids = [str(item) for item in seen] if isinstance(seen, list) else []
    if ids and ids[-1] == game_id:
        return
    if game_id in ids:
        ids.remove(game_id)
    ids.append(game_id)
    session[SEEN_KEY] = ids[-MAX_REMEMBERED_GAMES:]
    session.permanent = True


def known_game_ids() -> set[str]:
    """The games this browser started, was given the edit link of, or opened."""
    seen = session.get(SEEN_KEY)
    return set(remembered_tokens()) | (
        {str(item) for item in seen} if isinstance(seen, list) else set()
    )
