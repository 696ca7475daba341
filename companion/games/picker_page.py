"""The tile picker: the tiles left in one player's hand, picked on the grid or read from a
photo and fixed on it."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from .. import photos
from ..photo_overlay import Overlay
from ..photos import PhotoTiles
from ..rules import Tile, full_set, tile_points
from . import merging, parsing, service, sheetview
from .errors import ServiceError, StaleVersion, ValidationFailed
from .models import Game
from .roundform import (
    cell_key,
    cell_words,
    entry_form_values,
    picked,
    scores_from_form,
    stored_entry,
)
from .sheet_page import render_sheet
from .sheetview import GameView
from .views import bp, editable_game, round_and_seat


@bp.route("/<game_id>/rounds/<int:n>/tiles/<int:seat>", methods=["GET", "POST"])
def pick_tiles(game_id: str, n: int, seat: int) -> BaseResponse | tuple[str, int]:
    """Pick the tiles left in one player's hand; the engine scores them under the rules."""
    game = editable_game(game_id)
    view = sheetview.view_game(game)
    round_and_seat(view, n, seat)
    name = view.players[seat]
    round_ = view.rounds[n - 1]
    chosen, marker = picked(round_.entries.get(name))
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        chosen = set(request.form.getlist("tile"))
        marker = request.form.get("marker") is not None
        raw_entries = {other: entry.to_json() for other, entry in round_.entries.items()}
        try:
            tiles = [Tile.parse(text).as_list() for text in request.form.getlist("tile")]
        except ValueError:
            tiles = None
            errors["tiles"] = "One of the tiles sent is not a tile."
            status = 400
        if tiles is not None:
            raw_entries[name] = {"tiles": tiles, "markers_up": 1 if marker else 0}
            try:
                service.set_round(game, n, raw_entries, request.form.get("version"))
            except StaleVersion as stale:
                errors["form"] = stale.message
                status = 409
                game = stale.game
                view = sheetview.view_game(game)
                base = service.round_as_of(
                    game, n, parsing.parse_version(request.form.get("version"))
                )
                before = entry_form_values(stored_entry(base, name))
                now = entry_form_values(view.rounds[n - 1].entries.get(name))
                yours = {"tiles": " ".join(sorted(chosen)), "marker": marker}
                clash = merging.merge([name], {name: before}, {name: yours}, {name: now}, cell_key)
                if clash.conflicts:
                    # Another phone changed this very hand: its tiles stay ticked until this
                    # phone ticks its own again.
                    errors["form"] = (
                        f"{name}'s hand in round {n} was changed on another phone; nothing was "
                        f"saved yet. On the sheet now: {cell_words(now)} — yours: "
                        f"{cell_words(yours)}. The sheet's tiles are ticked below; tick yours "
                        "again to use them instead."
                    )
                    chosen, marker = picked(view.rounds[n - 1].entries.get(name))
            except ValidationFailed as error:
                errors["tiles"] = error.message
                status = 400
            else:
                points = sheetview.view_game(game).rounds[n - 1].points[name]
                flash(f"{name}'s tiles saved for round {n}: {points} points.")
                return redirect(url_for("games.sheet", game_id=game.id, round=n))
    return render_picker(game, view, n, seat, chosen, marker, errors, status)


def render_picker(
    game: Game,
    view: GameView,
    n: int,
    seat: int,
    chosen: set[str],
    marker: bool,
    errors: dict[str, str],
    status: int = 200,
    photo: PhotoTiles | None = None,
    overlay: Overlay | None = None,
) -> tuple[str, int]:
    """Render the tile picker for one player's hand (pre-filled from a photo when given,
    with what was read drawn over it in ``overlay``)."""
    set_tiles = sorted(full_set(view.rules.set_max), key=lambda t: (-t.high, -t.low))
    return render_template(
        "games/tiles.html",
        game=game,
        view=view,
        n=n,
        seat=seat,
        name=view.players[seat],
        engine=view.rounds[n - 1].engine,
        tiles=set_tiles,
        chosen=chosen,
        marker=marker,
        errors=errors,
        photo=photo,
        overlay=overlay,
        photo_key=url_for("games.read_photo", game_id=game.id, n=n, seat=seat),
        tile_points={str(tile): tile_points(tile, view.rules.blank_scoring) for tile in set_tiles},
        photo_reading=photos.reading_available(),
        max_upload_bytes=current_app.config.get("MAX_CONTENT_LENGTH") or "",
    ), status


@bp.post("/<game_id>/rounds/<int:n>/tiles/<int:seat>/photo")
def read_photo(game_id: str, n: int, seat: int) -> tuple[str, int]:
    """Read a photo of one player's tiles and show them in the picker to confirm or fix.

    Sent from the round form or from the picker itself (``?from=picker``). Nothing is saved
    here: the picker's own save does that once the player has checked the tiles. On a bad photo
    the form it came from comes back as it was sent, the error by the photo field.
    """
    game = editable_game(game_id)
    view = sheetview.view_game(game)
    round_and_seat(view, n, seat)
    field = f"photo-{seat}"
    from_picker = request.args.get("from") == "picker"
    upload = request.files.get(field)
    try:
        if upload is None or not upload.filename:
            raise photos.PhotoUnreadable("Choose a photo of the tiles first.")
        read = photos.read_photo(upload.read(), set_max=view.rules.set_max)
    except photos.PhotoUnreadable as error:
        status = 503 if isinstance(error, photos.PhotoReadingUnavailable) else 400
        if from_picker:
            ticked = set(request.form.getlist("tile"))
            marker = request.form.get("marker") is not None
            return render_picker(
                game, view, n, seat, ticked, marker, {"photo": error.message}, status
            )
        _raw_scores, _errors, shown = scores_from_form(game)
        return render_sheet(
            game,
            editable=True,
            form_round=n,
            form_values=shown,
            errors={field: error.message},
            status=status,
        )
    reading = photos.tiles_for_picker(read.found, view.rules)
    marker = request.form.get("marker" if from_picker else f"marker-{seat}") is not None
    chosen = {str(tile) for tile in reading.tiles}
    return render_picker(
        game, view, n, seat, chosen, marker, {}, photo=reading, overlay=read.overlay(view.rules)
    )


@bp.errorhandler(RequestEntityTooLarge)
def upload_too_large(error: RequestEntityTooLarge) -> tuple[Any, int]:
    """A photo over the size limit: say so next to the photo field, not on an error page."""
    from ..errors import FRIENDLY_DEFAULTS, error_response  # errors imports this package

    args = request.view_args or {}
    if request.endpoint != "games.read_photo":
        return error_response(413, FRIENDLY_DEFAULTS[413])
    limit = int(current_app.config.get("MAX_CONTENT_LENGTH") or 0)
    shown_limit = f"{limit // 2**20} MB" if limit >= 2**20 else f"{-(-limit // 1024)} kB"
    message = (
        f"This photo is too large to send (the limit is {shown_limit}). "
        "Take it again at a lower resolution or choose a smaller file."
    )
    try:
        game = editable_game(str(args.get("game_id")))
        if request.args.get("from") == "picker":
            view = sheetview.view_game(game)
            n, seat = int(args.get("n", 0)), int(args.get("seat", 0))
            round_and_seat(view, n, seat)
            stored, marker = picked(view.rounds[n - 1].entries.get(view.players[seat]))
            return render_picker(game, view, n, seat, stored, marker, {"photo": message}, 413)
    except ServiceError as refused:
        return error_response(refused.status, refused.message, refused.field)
    # The request body was refused unread, so what was typed comes back from the stored round
    # (and the page script restores the unsaved draft).
    return render_sheet(
        game,
        editable=True,
        form_round=int(args.get("n", 0)) or None,
        errors={f"photo-{args.get('seat', 0)}": message},
        status=413,
    )
