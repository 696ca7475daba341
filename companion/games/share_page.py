"""What a phone keeps of a game for itself and what it shares: which player this phone holds,
and the winner card of a finished game (its page, its PNG)."""

from __future__ import annotations

from flask import Response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from . import access, holder, service, sheetview, winner_card
from .errors import GameNotFound, ValidationFailed
from .views import bp


@bp.post("/<game_id>/holder")
def hold(game_id: str) -> BaseResponse:
    """Say which player this phone holds (an empty choice drops it), then go back."""
    game = service.get_game(game_id)
    name = request.form.get("player", "")
    if name and name not in game.players:
        raise ValidationFailed(
            f"\u201c{name[:30]}\u201d is not playing in this game; choose one of "
            f"{winner_card.names_words(list(game.players))}.",
            "player",
        )
    page = "games.watch" if request.form.get("from") == "view" else "games.sheet"
    response = redirect(url_for(page, game_id=game.id))
    if name:
        holder.remember(response, game.id, name)
    else:
        holder.forget(response, game.id)
    return response


@bp.get("/<game_id>/winner")
def winner(game_id: str) -> str:
    """The winner card's page: the picture, its text and a Share button."""
    game = service.get_game(game_id)
    access.remember_seen(game.id)
    view = sheetview.view_game(game)
    return render_template(
        "games/winner.html",
        game=game,
        view=view,
        text=winner_card.share_text(view) if view.finished else "",
        back=url_for("games.sheet" if access.can_edit(game) else "games.watch", game_id=game.id),
    )


@bp.get("/<game_id>/winner.png")
def winner_png(game_id: str) -> BaseResponse:
    """The winner card as a PNG; a game still being played has none."""
    game = service.get_game(game_id)
    view = sheetview.view_game(game)
    if not view.finished:
        raise GameNotFound(
            "This game has no winner card yet: it is not finished. The card appears once "
            "every round is entered."
        )
    # Undo can reopen a finished game, so the card follows the game's version; a phone that
    # has this version's card already is not drawn another.
    etag = f"{game.id}-{game.version}-card"
    if etag in request.if_none_match:
        unchanged = Response(status=304)
        unchanged.set_etag(etag)
        unchanged.headers["Cache-Control"] = "no-cache"
        return unchanged
    response = Response(winner_card.render_png(view), mimetype="image/png")
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Disposition"] = (
        f'inline; filename="mexican-train-{game.id}-winner.png"'
    )
    return response
