"""The game pages: set up a game, keep its scoresheet, share it, export it."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from .. import photos
from ..links import public_url
from ..photo_overlay import Overlay
from ..photos import PhotoTiles
from ..rules import Rules, Tile, full_set, max_hand_points, schedule, tile_points
from . import access, export, merging, parsing, ruleform, service, sheetview
from .entry import ScoreEntry
from .errors import (
    NothingToUndo,
    RoundNotFound,
    RoundRefused,
    ServiceError,
    StaleVersion,
    ValidationFailed,
)
from .history import undo_words
from .models import Game
from .sheetview import GameView

bp = Blueprint("games", __name__, url_prefix="/games")

PLAYER_INPUTS = 8
HISTORY_SHOWN = 20  # the page lists the newest changes; "show all" lists every one
EXTRA_PLAYER_INPUTS = 8  # for double-15 and double-18 sets


# --- setting up ---------------------------------------------------------------------------


def players_from_form() -> list[str]:
    """Player names in seat order; blank inputs are skipped."""
    names = []
    for seat in range(PLAYER_INPUTS + EXTRA_PLAYER_INPUTS):
        name = request.form.get(f"player-{seat}", "")
        if name.strip():
            names.append(name)
    return names


def player_field_errors(error: ValidationFailed, raw_names: list[str]) -> dict[str, str]:
    """Map a players error to the input it is about (blank inputs are skipped by the parser)."""
    if error.field and error.field.startswith("players."):
        position = int(error.field.split(".")[1])
        seats = [
            seat
            for seat in range(PLAYER_INPUTS + EXTRA_PLAYER_INPUTS)
            if request.form.get(f"player-{seat}", "").strip()
        ]
        if position < len(seats):
            return {f"player-{seats[position]}": error.message}
    return {error.field or "form": error.message}


def setup_preview(raw_rules: dict[str, Any], players: int) -> dict[str, Any]:
    """Deal size and boneyard for the form's current choice (or why it can't be dealt)."""
    try:
        rules = parsing.parse_rules(raw_rules)
        setup = parsing.check_setup(rules, max(players, parsing.MIN_PLAYERS))
    except ServiceError as error:
        return {"error": error.message, "field": error.field}
    return {
        "players": players,
        "hand_size": setup.hand_size,
        "set_tiles": setup.set_tiles,
        "boneyard": setup.boneyard,
        "rounds": setup.rounds,
        "set_max": rules.set_max,
    }


def render_new(
    values: dict[str, str], errors: dict[str, str], status: int = 200
) -> tuple[str, int]:
    """Render the setup form with the given field values and errors."""
    try:
        raw_rules = ruleform.rules_from_form(request.form) if request.form else {}
    except ValidationFailed:
        raw_rules = {"preset": values.get("preset", "standard")}
    players = len(players_from_form()) if request.form else 4
    return render_template(
        "games/new.html",
        values=values,
        errors=errors,
        **ruleform.form_context(),
        player_inputs=PLAYER_INPUTS,
        extra_player_inputs=EXTRA_PLAYER_INPUTS,
        max_name_length=parsing.MAX_NAME_LENGTH,
        preview=setup_preview(raw_rules, players),
    ), status


@bp.get("/new")
def new() -> tuple[str, int]:
    """Show the form that starts a game."""
    return render_new({"preset": "standard"}, {})


@bp.post("/new")
def create() -> BaseResponse | tuple[str, int]:
    """Start a game from the setup form, or just refresh the deal preview."""
    values = {key: value for key, value in request.form.items() if key != "csrf_token"}
    if request.form.get("action") == "preview":
        return render_new(values, {})
    raw_names = players_from_form()
    try:
        raw_rules = ruleform.rules_from_form(request.form)
        game, token = service.create_game(raw_names, raw_rules)
    except ValidationFailed as error:
        errors = player_field_errors(error, raw_names)
        return render_new(values, errors, 400)
    access.remember_token(game.id, token)
    flash("Game started. Share the view link so others can follow the scores.")
    return redirect(url_for("games.sheet", game_id=game.id))


@bp.get("/new/deal")
def deal_preview() -> Response:
    """Tell the setup page's script the deal size for the choices made so far."""
    try:
        raw_rules = ruleform.rules_from_form(request.args)
    except ValidationFailed as error:
        return jsonify({"error": error.message, "field": error.field})
    players = sum(
        1
        for seat in range(PLAYER_INPUTS + EXTRA_PLAYER_INPUTS)
        if request.args.get(f"player-{seat}", "").strip()
    )
    return jsonify(setup_preview(raw_rules, players))


# --- the scoresheet -----------------------------------------------------------------------


def entry_form_values(entry: ScoreEntry | None) -> dict[str, Any]:
    """The round form's values for one score (all empty when none is entered)."""
    if entry is None:
        return {"points": "", "out": False, "marker": False, "tiles": ""}
    hand = entry.hand
    typed = hand is None and not entry.went_out and entry.points is not None
    return {
        "points": str(entry.points) if typed else "",
        "out": entry.went_out,
        "marker": bool(entry.markers_up),
        "tiles": " ".join(str(tile) for tile in hand) if hand else "",
    }


def stored_entry(scores: dict[str, Any] | None, name: str) -> ScoreEntry | None:
    """One player's entry in a round's stored scores, if there is one."""
    stored = (scores or {}).get(name)
    return ScoreEntry.from_json(stored) if stored else None


def picked(entry: ScoreEntry | None) -> tuple[set[str], bool]:
    """The tiles the picker shows ticked for an entry, and whether its marker is up."""
    if entry is None:
        return set(), False
    return {str(tile) for tile in entry.hand or ()}, bool(entry.markers_up)


def round_form_values(view: GameView, n: int) -> dict[int, dict[str, Any]]:
    """Prefill the round form from what is stored for round ``n``."""
    round_ = view.rounds[n - 1]
    return {
        seat: entry_form_values(round_.entries.get(name)) for seat, name in enumerate(view.players)
    }


def chosen_round(view: GameView) -> int | None:
    """The round the entry form is for: ``?round=n``, else the next one to play."""
    asked = request.args.get("round", "")
    if asked.isdecimal() and len(asked) <= 3 and 1 <= int(asked) <= len(view.rounds):
        return int(asked)
    return view.next_round.n if view.next_round else None


def render_sheet(
    game: Game,
    *,
    editable: bool,
    form_round: int | None = None,
    form_values: dict[int, dict[str, Any]] | None = None,
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """Render the scoresheet (with entry forms when ``editable``)."""
    view = sheetview.view_game(game)
    if editable and form_round is None:
        form_round = chosen_round(view)
    if editable and form_round is not None and form_values is None:
        form_values = round_form_values(view, form_round)
    token = access.token_for(game) if editable else None
    show_all = request.args.get("history") == "all"
    return render_template(
        "games/sheet.html",
        view=view,
        game=game,
        editable=editable,
        form_round=form_round,
        form_values=form_values or {},
        errors=errors or {},
        max_points=max_hand_points(view.rules),
        view_url=public_url("games.watch", game_id=game.id),
        edit_url=public_url("games.claim", game_id=game.id, token=token) if token else None,
        rule_fields=ruleform.rule_fields(),
        changes=service.history(game, None if show_all else HISTORY_SHOWN),
        history_length=service.history_length(game),
        show_all_history=show_all,
        undo_words=undo_words(service.next_undo(game), view.players) if editable else "",
        short_rounds=ruleform.SHORT_GAME_ROUNDS,
        photo_reading=editable and photos.reading_available(),
        max_upload_bytes=current_app.config.get("MAX_CONTENT_LENGTH") or "",
    ), status


@bp.get("/<game_id>")
def sheet(game_id: str) -> tuple[str, int]:
    """Show the scoresheet; a phone holding the edit token gets the entry forms."""
    game = service.get_game(game_id)
    access.remember_seen(game.id)
    return render_sheet(game, editable=access.can_edit(game))


@bp.get("/<game_id>/view")
def watch(game_id: str) -> tuple[str, int]:
    """Show the read-only scoresheet that other phones follow live."""
    game = service.get_game(game_id)
    access.remember_seen(game.id)
    return render_sheet(game, editable=False)


@bp.get("/<game_id>/edit/<token>")
def claim(game_id: str, token: str) -> BaseResponse:
    """Open the owner's edit link: remember the token on this phone, then show the sheet."""
    game = service.get_game(game_id)
    service.require_token(game, token)
    access.remember_token(game.id, token)
    return redirect(url_for("games.sheet", game_id=game.id))


def editable_game(game_id: str) -> Game:
    """Load a game this browser may change, or raise 404/401/403."""
    game = service.get_game(game_id)
    access.require_edit(game)
    return game


def scores_from_form(
    game: Game,
) -> tuple[dict[str, Any], dict[str, str], dict[int, dict[str, Any]]]:
    """Read the round form: raw scores by name, errors by field, and the values to re-show.

    After a conflict, a player's cell may carry "use mine": then the values that phone had
    typed (kept in ``mine-...`` fields) are read instead of the boxes showing the sheet's.
    """
    rules = sheetview.load_rules(game)
    raw_scores: dict[str, Any] = {}
    errors: dict[str, str] = {}
    shown: dict[int, dict[str, Any]] = {}
    for seat, name in enumerate(game.players):
        prefix = "mine-" if request.form.get(f"mine-{seat}") is not None else ""
        typed = request.form.get(f"{prefix}points-{seat}", "").strip()
        went_out = request.form.get(f"{prefix}out-{seat}") is not None
        marker = request.form.get(f"{prefix}marker-{seat}") is not None
        tiles_text = request.form.get(f"{prefix}tiles-{seat}", "").strip()
        shown[seat] = {"points": typed, "out": went_out, "marker": marker, "tiles": tiles_text}
        entry: dict[str, Any] = {}
        try:
            if typed:
                entry["points"] = parsing.parse_whole_number(
                    typed, f"scores.{name}.points", allow_text=True
                )
            elif tiles_text and not went_out:
                entry["tiles"] = [Tile.parse(part).as_list() for part in tiles_text.split()]
            if went_out:
                entry["went_out"] = True
            if marker:
                entry["markers_up"] = 1
            if entry:
                raw_scores[name] = parsing.parse_score(entry, rules, f"scores.{name}").to_json()
        except ValidationFailed as error:
            errors[f"player-{seat}"] = error.message
        except ValueError:
            errors[f"player-{seat}"] = "The tiles kept for this player could not be read."
    return raw_scores, errors, shown


def cell_key(values: dict[str, Any]) -> tuple[str, bool, bool, str]:
    """What a round form's cell for one player says, in a form that compares fairly."""
    out = bool(values.get("out"))
    typed = str(values.get("points", "")).strip()
    points = "" if out else str(int(typed)) if typed.isdigit() and typed.isascii() else typed
    tiles = "" if out or points else " ".join(str(values.get("tiles", "")).split())
    return points, out, bool(values.get("marker")), tiles


def cell_words(values: dict[str, Any]) -> str:
    """A player's cell in words: "6", "went out", "tiles 3-4 5-5", "nothing"."""
    points, out, marker, tiles = cell_key(values)
    if out:
        words = "went out"
    elif points:
        words = points
    elif tiles:
        words = f"tiles {tiles}"
    else:
        words = "nothing"
    return f"{words} with a marker left up" if marker else words


def merge_stale_round(
    game: Game, n: int, mine: dict[int, dict[str, Any]]
) -> tuple[dict[int, dict[str, Any]], str]:
    """The round form to show a phone whose save came too late.

    A cell both phones changed since this phone loaded the game, to different values, shows
    the sheet's value with this phone's beside it (``conflict``); a cell only the other phone
    changed shows the sheet's; every other cell keeps what this phone typed
    (:func:`merging.merge`). Nothing is saved until it sends again.
    """
    view = sheetview.view_game(game)
    now = round_form_values(view, n)
    base_version = parsing.parse_version(request.form.get("version"))
    base_scores = service.round_as_of(game, n, base_version) or {}
    read = {
        seat: entry_form_values(stored_entry(base_scores, name))
        for seat, name in enumerate(game.players)
    }
    result = merging.merge(range(len(game.players)), read, mine, now, compare=cell_key)
    merged = dict(result.values)
    for seat in result.conflicts:
        merged[seat] = {
            **now[seat],
            "conflict": {
                "sheet": cell_words(now[seat]),
                "mine": cell_words(mine[seat]),
                "values": mine[seat],
            },
        }
    conflicts = len(result.conflicts)
    if conflicts:
        message = (
            f"Round {n} was changed on another phone while you were typing; nothing was saved "
            "yet. Each score changed there shows both values: the sheet's is kept unless you "
            "choose yours. Check them, then save again."
        )
    else:
        message = (
            "This game was changed on another phone since you loaded it (not the scores you "
            f"typed for round {n}); nothing was saved yet. Check the sheet, then save again."
        )
    return merged, message


def round_problem_errors(
    game: Game, refused: RoundRefused, shown: dict[int, dict[str, Any]]
) -> dict[str, str]:
    """Put each of a refused round's problems next to the player it is about; a typed score
    that only needs confirming gets a "that is right" box in the re-shown form."""
    errors: dict[str, str] = {}
    seats = {name: seat for seat, name in enumerate(game.players)}
    for problem in refused.problems:
        seat = seats[problem.player]
        key = f"player-{seat}"
        errors[key] = f"{errors[key]} {problem.message}" if key in errors else problem.message
        if problem.needs_confirmation:
            shown[seat]["confirm"] = True
    if refused.needs_confirmation_only:
        errors["form"] = "Check the marked score before saving; nothing was saved yet."
    else:
        # The banner is what is read first: it says why, not only the box further down.
        reasons = " ".join(
            problem.message for problem in refused.problems if not problem.needs_confirmation
        )
        errors["form"] = f"This round can't be saved as it is; nothing was saved. {reasons}"
    return errors


@bp.post("/<game_id>/rounds/<int:n>")
def save_round(game_id: str, n: int) -> BaseResponse | tuple[str, int]:
    """Save the scores typed, tapped or picked for round ``n``."""
    game = editable_game(game_id)
    raw_scores, errors, shown = scores_from_form(game)
    version_before = game.version
    if not errors:
        confirmed = [
            name
            for seat, name in enumerate(game.players)
            if request.form.get(f"confirm-{seat}") is not None
        ]
        try:
            service.set_round(game, n, raw_scores, request.form.get("version"), confirmed=confirmed)
        except StaleVersion as stale:
            merged, message = merge_stale_round(stale.game, n, shown)
            return render_sheet(
                stale.game,
                editable=True,
                form_round=n,
                form_values=merged,
                errors={"form": message},
                status=409,
            )
        except RoundRefused as refused:
            errors = round_problem_errors(game, refused, shown)
        except ValidationFailed as error:
            errors = {"form": error.message}
    if errors:
        return render_sheet(
            game, editable=True, form_round=n, form_values=shown, errors=errors, status=400
        )
    missing = [name for name in game.players if name not in raw_scores]
    if game.version == version_before:
        flash(f"Nothing new to save in round {n}; the sheet already holds these scores.")
    elif not raw_scores:
        flash(f"Round {n} cleared. Undo brings it back.")
    elif missing:
        flash(f"Round {n} saved; still to enter: {', '.join(missing)}.")
    else:
        flash(f"Round {n} saved.")
    return redirect(url_for("games.sheet", game_id=game.id))


@bp.post("/<game_id>/rounds/<int:n>/clear")
def clear_round(game_id: str, n: int) -> BaseResponse | tuple[str, int]:
    """Clear round ``n`` (the history keeps what it held)."""
    game = editable_game(game_id)
    try:
        service.clear_round(game, n, request.form.get("version"))
    except StaleVersion as stale:
        return render_sheet(stale.game, editable=True, errors={"form": stale.message}, status=409)
    flash(f"Round {n} cleared. Undo brings it back.")
    return redirect(url_for("games.sheet", game_id=game.id))


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


def round_and_seat(view: GameView, n: int, seat: int) -> None:
    """Refuse a round or seat the game doesn't have."""
    if not 1 <= n <= len(view.rounds):
        raise RoundNotFound(f"This game has no round {n}.")
    if not 0 <= seat < len(view.players):
        raise ValidationFailed("There is no player in that seat.", "seat")


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


@bp.post("/<game_id>/undo")
def undo(game_id: str) -> BaseResponse | tuple[str, int]:
    """Undo the most recent change."""
    game = editable_game(game_id)
    try:
        service.undo_last(game, request.form.get("version"))
    except StaleVersion as stale:
        return render_sheet(stale.game, editable=True, errors={"form": stale.message}, status=409)
    except NothingToUndo as error:
        return render_sheet(game, editable=True, errors={"form": error.message}, status=409)
    flash("The last change was undone.")
    return redirect(url_for("games.sheet", game_id=game.id))


def schedule_words(rules_json: dict[str, Any]) -> str:
    """A schedule as the engines in play order, e.g. "9 8 7 6 5 4 3 2 1 0"."""
    return " ".join(str(engine) for engine in schedule(Rules.from_json(rules_json)))


def stale_schedule_errors(game: Game, mine: Any, message: str) -> dict[str, str]:
    """What a phone whose schedule change came too late is told: when another phone changed
    the schedule meanwhile, both schedules; the sheet's stays unless it is chosen again."""
    base = service.rules_as_of(game, parsing.parse_version(request.form.get("version")))
    if base.get("schedule") == game.rules.get("schedule"):
        return {"form": message}
    sheet = schedule_words(dict(game.rules))
    yours = schedule_words({**game.rules, "schedule": mine}) if mine is not None else sheet
    return {
        "form": "The schedule was changed on another phone; nothing was saved yet.",
        "schedule": (
            f"On the sheet now: {sheet} — yours: {yours}. The sheet's schedule is kept; "
            "choose yours again below to use it instead."
        ),
    }


@bp.post("/<game_id>/schedule")
def change_schedule(game_id: str) -> BaseResponse | tuple[str, int]:
    """Shorten, restart or spell out the engine schedule."""
    game = editable_game(game_id)
    rules_json = dict(game.rules)
    value: Any = None
    try:
        value = ruleform.schedule_value(
            request.form.get("schedule_kind", ""),
            int(rules_json["set_max"]),
            request.form.get("schedule_start", ""),
            request.form.get("schedule_custom", ""),
        )
        if value is not None:
            rules_json["schedule"] = value
            service.change_rules(
                game, {"preset": game.preset, **rules_json}, request.form.get("version")
            )
    except StaleVersion as stale:
        return render_sheet(
            stale.game,
            editable=True,
            errors=stale_schedule_errors(stale.game, value, stale.message),
            status=409,
        )
    except ValidationFailed as error:
        return render_sheet(game, editable=True, errors={"schedule": error.message}, status=400)
    flash("Schedule changed.")
    return redirect(url_for("games.sheet", game_id=game.id))


@bp.route("/<game_id>/rules", methods=["GET", "POST"])
def change_rules(game_id: str) -> BaseResponse | tuple[str, int]:
    """Change the house rules mid-game (picked tiles are re-scored under the new rules)."""
    game = editable_game(game_id)
    errors: dict[str, str] = {}
    status = 200
    values = ruleform.form_defaults(game.rules, game.preset)
    conflicts: list[dict[str, str]] = []
    if request.method == "POST":
        values = {key: value for key, value in request.form.items() if key != "csrf_token"}
        try:
            raw_rules = ruleform.rules_from_form(request.form)
            raw_rules.update(ruleform.chosen_mine(request.form))
            service.change_rules(game, raw_rules, request.form.get("version"))
        except StaleVersion as stale:
            game = stale.game
            values, conflicts = ruleform.merge_stale_rules(
                game,
                service.rules_as_of(game, parsing.parse_version(request.form.get("version"))),
                parsing.parse_rules(raw_rules).to_json(),
                str(raw_rules.get("preset", game.preset)),
            )
            errors["form"] = (
                "The house rules were changed on another phone while you were choosing; "
                "nothing was saved yet. "
                + (
                    "Each rule changed there shows both values: the sheet's is kept unless "
                    "you choose yours. Check them, then save again."
                    if conflicts
                    else "None of the rules you changed were touched there; save again."
                )
            )
            status = 409
        except ValidationFailed as error:
            errors[error.field or "form"] = error.message
            status = 400
        else:
            flash("House rules changed; every round was re-scored.")
            return redirect(url_for("games.sheet", game_id=game.id))
    return render_template(
        "games/rules.html",
        game=game,
        values=values,
        errors=errors,
        **ruleform.form_context(),
        locked_set=bool(game.rounds),
        conflicts=conflicts,
    ), status


@bp.post("/<game_id>/delete")
def delete(game_id: str) -> BaseResponse:
    """Delete a game for good."""
    game = editable_game(game_id)
    service.delete_game(game)
    access.forget_token(game_id)
    flash("Game deleted.")
    return redirect(url_for("home.index"))


@bp.get("/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """Download the scoresheet as CSV."""
    view = sheetview.view_game(service.get_game(game_id))
    # The byte-order mark tells Excel the file is UTF-8; without it accented names show as
    # mojibake ("ZoÃ©"). LibreOffice and Python's "utf-8-sig" read it as well.
    buffer = io.StringIO()
    buffer.write("\ufeff")
    csv.writer(buffer).writerows(export.scoresheet_rows(view))
    return Response(
        buffer.getvalue().encode("utf-8"),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="mexican-train-{game_id}.csv"'},
    )
