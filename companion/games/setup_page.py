"""The page that starts a game: players, rule book and house rules, with a live deal preview."""

from __future__ import annotations

from typing import Any

from flask import Response, flash, jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from . import access, parsing, people, ruleform, service
from .errors import ServiceError, ValidationFailed
from .views import bp

PLAYER_INPUTS = 8
EXTRA_PLAYER_INPUTS = 8  # for double-15 and double-18 sets


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
    seated = {people.name_key(value) for key, value in values.items() if key.startswith("player-")}
    return render_template(
        "games/new.html",
        values=values,
        errors=errors,
        **ruleform.form_context(),
        player_inputs=PLAYER_INPUTS,
        extra_player_inputs=EXTRA_PLAYER_INPUTS,
        max_name_length=parsing.MAX_NAME_LENGTH,
        preview=setup_preview(raw_rules, players),
        known_people=people.list_people(),
        seated=seated,
        name_key=people.name_key,
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
    if "add" in request.form:
        return add_known_person(values, request.form["add"])
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


def add_known_person(values: dict[str, str], name: str) -> tuple[str, int]:
    """Put a person picked from the book in the first empty seat (the page without script)."""
    values.pop("add", None)
    seats = [f"player-{seat}" for seat in range(PLAYER_INPUTS + EXTRA_PLAYER_INPUTS)]
    if any(people.name_key(values.get(seat, "")) == people.name_key(name) for seat in seats):
        return render_new(values, {})
    empty = next((seat for seat in seats if not values.get(seat, "").strip()), None)
    if empty is None:
        return render_new(values, {"players": "Every seat is taken; clear one to add someone."})
    values[empty] = name
    return render_new(values, {})


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
