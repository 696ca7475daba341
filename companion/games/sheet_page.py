"""The scoresheet page: the sheet itself, the round form's saves, clearing, undo, the
schedule, deleting the game and its CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Response, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from .. import photos
from ..links import public_url

# The kept rulings are the referee's; the sheet lists them, so it asks the referee's service.
from ..referee.kept import kept_rulings
from ..rules import Rules, max_hand_points, schedule
from . import access, export, holder, merging, parsing, ruleform, service, sheetview
from .errors import NothingToUndo, RoundRefused, StaleVersion, ValidationFailed
from .history import undo_words
from .models import Game
from .roundform import merge_stale_round, round_form_values, round_problem_errors, scores_from_form
from .sheetview import GameView
from .views import bp, editable_game

HISTORY_SHOWN = 20  # the page lists the newest changes; "show all" lists every one


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
    held = holder.held_player(game)
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
        kept=kept_rulings(game.id),
        held=held,
        form_seats=holder.seats_holder_first(view.players, held),
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
    the schedule meanwhile to another one (:func:`merging.merge`), both schedules; the sheet's
    stays unless it is chosen again."""
    base = service.rules_as_of(game, parsing.parse_version(request.form.get("version")))
    sent = {} if mine is None else {"schedule": mine}
    now = {"schedule": game.rules.get("schedule")}
    if not merging.merge(["schedule"], base, sent, now).conflicts:
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
