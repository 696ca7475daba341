"""The home page."""

from __future__ import annotations

import ipaddress

from flask import Blueprint, render_template, request

from ..book import records
from ..games import access, service, sheetview
from ..links import base_url

bp = Blueprint("home", __name__)


@bp.get("/")
def index() -> str:
    """Show the join address and QR code, the past games and a button to start one."""
    join_url = base_url() + "/"
    games = service.list_games()
    host = is_host_laptop()
    if not host:
        known = access.known_game_ids()
        games = [game for game in games if game.id in known]
    winners = {}
    for game in games:
        view = sheetview.view_game(game)
        if view.finished:
            winners[game.id] = (view.winners, view.totals[view.winners[0]])
    return render_template(
        "home/index.html",
        leader=records.leader(),
        join_url=join_url,
        games=games,
        editable={game.id for game in games if access.can_edit(game)},
        winners=winners,
        host_laptop=host,
    )


def is_host_laptop() -> bool:
    """Whether the page is opened on the machine running the app (it may list every game);
    phones see only the games they started or opened, so a shared server keeps each family's
    games to itself."""
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False
