"""JSON endpoints; they call the same service functions as the pages."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request
from werkzeug.wrappers import Response as BaseResponse

from ..games import export, service, sheetview
from ..games.errors import StaleVersion, ValidationFailed
from ..games.models import Game
from ..links import public_url
from ..rules.referee import answer_all

bp = Blueprint("api", __name__, url_prefix="/api")


MAX_JSON_BYTES = 64 * 1024
"""The largest body the API reads: a full game's rules and a round of 16 picked hands fit many
times over."""


def _refuse_constant(name: str) -> Any:
    raise ValidationFailed(f"{name} is not a number JSON allows; send numbers in digits.")


def json_body() -> dict[str, Any]:
    """Return the request's JSON object, or raise a 400 (413 when too large) saying what is
    wrong: not JSON, nested too deep, a number too long, NaN or Infinity."""
    if not request.is_json:
        raise ValidationFailed("Send a JSON object with Content-Type: application/json.")
    if (request.content_length or 0) > MAX_JSON_BYTES:
        raise BodyTooLarge(f"The API reads at most {MAX_JSON_BYTES // 1024} kB of JSON.")
    data = request.stream.read(MAX_JSON_BYTES + 1)
    if len(data) > MAX_JSON_BYTES:
        raise BodyTooLarge(f"The API reads at most {MAX_JSON_BYTES // 1024} kB of JSON.")
    try:
        body = json.loads(data, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValidationFailed("The JSON is nested too deeply to be a game.") from None
    except ValueError as error:
        if "digits" in str(error):
            raise ValidationFailed("The JSON holds a number far too long to be a score.") from None
        raise ValidationFailed(
            "The body is not valid JSON; send a JSON object with Content-Type: application/json."
        ) from None
    if not isinstance(body, dict):
        raise ValidationFailed("The body must be a JSON object.")
    return body


class BodyTooLarge(ValidationFailed):
    """A JSON body over :data:`MAX_JSON_BYTES`."""

    status = 413


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, if any."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def writable_game(game_id: str) -> Game:
    """Load a game and check the request carries its edit token (401/403)."""
    game = service.get_game(game_id)
    service.require_token(game, bearer_token())
    return game


def game_etag(game: Game) -> str:
    """The ETag of a game: it changes exactly when the version does."""
    return f"{game.id}-{game.version}"


def game_response(game: Game, status: int = 200) -> Response:
    """Answer with the game, tagged with its version so pollers can ask If-None-Match."""
    response = jsonify(export.game_to_json(sheetview.view_game(game)))
    response.status_code = status
    response.set_etag(game_etag(game))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Create a game; the edit token is in the answer and nowhere else."""
    body = json_body()
    game, token = service.create_game(body.get("players"), body.get("rules"))
    return jsonify(
        {
            "id": game.id,
            "edit_token": token,
            "view_url": public_url("games.watch", game_id=game.id),
            "edit_url": public_url("games.claim", game_id=game.id, token=token),
        }
    ), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> BaseResponse:
    """Return the game; answers 304 when the caller's ETag is still current."""
    game = service.get_game(game_id)
    if game_etag(game) in request.if_none_match:
        # Every phone on the read-only view asks once a second; skip building the game.
        unchanged = Response(status=304)
        unchanged.set_etag(game_etag(game))
        unchanged.headers["Cache-Control"] = "no-cache"
        return unchanged
    return game_response(game)


@bp.put("/games/<game_id>/rounds/<int:n>")
def put_round(game_id: str, n: int) -> Response | tuple[Response, int]:
    """Replace the scores of round ``n``."""
    game = writable_game(game_id)
    body = json_body()
    confirm = body.get("confirm", False)
    if not isinstance(confirm, bool):
        raise ValidationFailed("confirm must be true or false.", "confirm")
    try:
        service.set_round(game, n, body.get("scores"), body.get("version"), confirmed=confirm)
    except StaleVersion as stale:
        return stale_response(stale)
    return game_response(game)


@bp.delete("/games/<game_id>/rounds/<int:n>")
def delete_round(game_id: str, n: int) -> Response | tuple[Response, int]:
    """Clear the scores of round ``n``."""
    game = writable_game(game_id)
    body = json_body()
    try:
        service.clear_round(game, n, body.get("version"))
    except StaleVersion as stale:
        return stale_response(stale)
    return game_response(game)


def stale_response(stale: StaleVersion) -> tuple[Response, int]:
    """A 409 carrying the current game, so the caller can merge and retry."""
    return jsonify(
        {
            "error": stale.message,
            "field": "version",
            "game": export.game_to_json(sheetview.view_game(stale.game)),
        }
    ), 409


MAX_REFEREE_BYTES = 1024 * 1024
"""The largest referee body read: about 1,500 turn queries (the largest answer is some 30 times
its query, so a full batch answers in tens of megabytes, not gigabytes)."""
MAX_REFEREE_QUERIES = 1000
"""The most queries one request may ask: a batch takes a fraction of a second to judge."""


@bp.post("/referee")
def referee() -> Response:
    """The referee contract over HTTP: one query or a list, answered exactly as
    ``python -m companion.rules check`` answers them; 400 when any query is malformed, 413 past
    :data:`MAX_REFEREE_BYTES` or :data:`MAX_REFEREE_QUERIES`."""
    too_big = f"body: over {MAX_REFEREE_BYTES // 2**20} MB; send fewer queries per request"
    if (request.content_length or 0) > MAX_REFEREE_BYTES:
        return _referee_response(json.dumps({"error": too_big}), status=413)
    data = request.stream.read(MAX_REFEREE_BYTES + 1)
    if len(data) > MAX_REFEREE_BYTES:
        return _referee_response(json.dumps({"error": too_big}), status=413)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _referee_error("body: not UTF-8 text")
    try:
        queries = json.loads(text)
    except json.JSONDecodeError as error:
        return _referee_error(f"body: not valid JSON ({error})")
    except RecursionError:
        return _referee_error("body: JSON nested too deeply")
    if isinstance(queries, list):
        if len(queries) > MAX_REFEREE_QUERIES:
            return _referee_response(
                json.dumps(
                    {
                        "error": f"body: {len(queries):,} queries, more than the "
                        f"{MAX_REFEREE_QUERIES:,} answered at once; send the rest in "
                        "another request"
                    }
                ),
                status=413,
            )
        # Each answer is larger than its query: a list of anything but queries would be
        # answered many times its size, one error each, so the first one stops it.
        for index, item in enumerate(queries):
            if not isinstance(item, dict):
                return _referee_error(
                    f'[{index}]: not a query (an object with a "kind"); nothing was judged'
                )
    # The collector is left running: pausing it would pause it for every thread of the
    # worker, and the rulings of a batch this size leave it little to do.
    answers, ok = answer_all(queries)
    return _referee_response(json.dumps(answers, check_circular=False), status=200 if ok else 400)


def _referee_error(message: str) -> Response:
    return _referee_response(json.dumps({"error": message}), status=400)


def _referee_response(body: str, *, status: int) -> Response:
    return Response(body, status=status, mimetype="application/json")
