"""Changing a game's house rules mid-game."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from . import parsing, ruleform, service
from .errors import StaleVersion, ValidationFailed
from .views import bp, editable_game


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
