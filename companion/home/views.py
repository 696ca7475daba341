"""The home page."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..games import access, service
from ..links import base_url

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    """Show the join address and QR code, the past games and a button to start one."""
    join_url = base_url() + "/"
    games = service.list_games()
    return render_template(
        "home/index.html",
        join_url=join_url,
        games=games,
        editable={game.id for game in games if access.can_edit(game)},
    )
