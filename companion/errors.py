"""Error pages: JSON for the API, a friendly page everywhere else, never a traceback."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, SecurityError

from .extensions import rollback_quietly
from .games.errors import ServiceError
from .storage import storage_trouble

FRIENDLY_TITLES = {
    400: "That request didn't make sense",
    401: "You need the game's edit link",
    403: "This link can't change this game",
    404: "Not found",
    405: "That can't be done here",
    409: "Changed on another phone",
    413: "That upload is too big",
    500: "Something went wrong on the laptop",
    503: "The laptop can't save right now",
}
FRIENDLY_DEFAULTS = {
    401: "Open the game from its edit link (the owner can share it) to make changes.",
    403: "Only the phone that started the game, or one given its edit link, can change it.",
    404: "There is nothing at this address. The game may have been deleted.",
    405: "This page doesn't accept that kind of request.",
    413: "The file or form you sent is larger than the table companion accepts.",
    500: "The scores that were already saved are safe. Go back and try again.",
}
UNTRUSTED_HOST = "This server does not answer to that address; open the address the host gave you."
CSRF_MESSAGE = (
    "This form has expired or did not come from this site. Reload the page and try again."
)


def wants_json() -> bool:
    """Say whether the answer should be JSON (the API) rather than a page."""
    return request.path.startswith("/api/")


def error_response(
    status: int, message: str, field: str | None = None, details: dict[str, Any] | None = None
) -> tuple[Response, int]:
    """Build the error answer in the form the client expects."""
    if wants_json():
        body: dict[str, Any] = {"error": message}
        if field:
            body["field"] = field
        body.update(details or {})
        return jsonify(body), status
    title = FRIENDLY_TITLES.get(status, "Something went wrong")
    page = render_template("error.html", title=title, message=message, status=status)
    return Response(page, status=status, mimetype="text/html"), status


def init_app(app: Flask) -> None:
    """Register the error handlers."""

    @app.errorhandler(ServiceError)
    def handle_service_error(error: ServiceError) -> tuple[Response, int]:
        rollback_quietly()
        return error_response(error.status, error.message, error.field, error.details())

    @app.errorhandler(CSRFError)
    def handle_csrf_error(_error: CSRFError) -> tuple[Response, int]:
        return error_response(400, CSRF_MESSAGE, "csrf_token")

    @app.errorhandler(HTTPException)
    def handle_http_error(error: HTTPException) -> tuple[Response, int] | HTTPException:
        if isinstance(error, SecurityError):
            # A Host outside TRUSTED_HOSTS: no page can be built for it (every link would
            # name that host), so the answer is a sentence.
            return Response(UNTRUSTED_HOST, status=400, mimetype="text/plain"), 400
        status = error.code or 500
        if status < 400:
            return error
        described = error.description or ""
        generic = type(error).description
        message = described if described and described != generic else None
        if message is None:
            message = FRIENDLY_DEFAULTS.get(status, described or "The request could not be done.")
        response, code = error_response(status, message)
        allowed = getattr(error, "valid_methods", None)
        if allowed:
            response.headers["Allow"] = ", ".join(allowed)
        return response, code

    @app.errorhandler(OperationalError)
    def handle_storage_trouble(error: OperationalError) -> tuple[Response, int]:
        rollback_quietly()
        app.logger.error("Database trouble: %s", error)
        trouble = storage_trouble(error)
        return error_response(
            503,
            f"{trouble[:1].upper()}{trouble[1:]}. The scores already saved are safe; "
            "try again once that is fixed.",
        )

    @app.errorhandler(Exception)
    def handle_unexpected(error: Exception) -> tuple[Response, int]:
        rollback_quietly()
        app.logger.exception("Unhandled error", exc_info=error)
        return error_response(500, FRIENDLY_DEFAULTS[500])
