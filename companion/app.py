"""The Flask application factory and its configuration."""

from __future__ import annotations

import mimetypes
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response

from .extensions import csrf, db, end_session, migrate
from .sessions import PlayerVisitSessions

PROJECT_ROOT = Path(__file__).resolve().parent.parent
mimetypes.add_type("application/manifest+json", ".webmanifest")
DEFAULT_MAX_UPLOAD_BYTES = 16 * 1024 * 1024  # phone photos of a hand, HEIC or JPEG


def database_url_from_env(instance_path: str) -> str:
    """Return the database URL: ``DATABASE_URL`` if set, else SQLite in the instance folder."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return "sqlite:///" + os.path.join(instance_path, "companion.sqlite")
    # Hosts still hand out the old "postgres://" scheme, which SQLAlchemy 2 rejects; psycopg 3
    # is the driver this project installs.
    for legacy in ("postgres://", "postgresql://"):
        if url.startswith(legacy):
            return "postgresql+psycopg://" + url[len(legacy) :]
    return url


def persistent_secret_key(instance_path: str) -> str:
    """Return a random secret key kept in the instance folder, creating it on first use.

    Sessions (the owner's edit rights) then survive restarts, and every gunicorn worker reads
    the same key. O_EXCL makes concurrent first starts agree on one file.
    """
    path = os.path.join(instance_path, "secret_key")
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with open(path, encoding="ascii") as existing:
            key = existing.read().strip()
        if key:
            return key
        descriptor = os.open(path, os.O_WRONLY | os.O_TRUNC, 0o600)
    key = secrets.token_hex(32)
    with os.fdopen(descriptor, "w", encoding="ascii") as new_file:
        new_file.write(key)
    return key


CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""Only the app's own files run or style a page: no inline script or style attribute is
needed (the one ``<script type="application/json">`` block is data, never run)."""


def add_security_headers(response: Response) -> Response:
    """Harden every answer; the edit link carries its token, so never leak it as a Referer."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create and configure an instance of the table companion."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    app.session_interface = PlayerVisitSessions()
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url_from_env(app.instance_path),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        MAX_CONTENT_LENGTH=DEFAULT_MAX_UPLOAD_BYTES,
        # The token lives as long as the session: a phone left on the table for an hour
        # must still be able to save a round.
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        # FLASK_SECRET_KEY, FLASK_SQLALCHEMY_DATABASE_URI, ... override everything above.
        app.config.from_prefixed_env()
        if os.environ.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    else:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = persistent_secret_key(app.instance_path)

    db.init_app(app)
    # Teardown functions run last registered first: this one closes the session before
    # Flask-SQLAlchemy's would (see end_session).
    app.teardown_appcontext(end_session)
    migrate.init_app(app, db, directory=str(PROJECT_ROOT / "migrations"))
    csrf.init_app(app)

    from . import errors, templating
    from .api import bp as api_bp
    from .book import bp as book_bp
    from .games import bp as games_bp
    from .home import bp as home_bp
    from .referee import bp as referee_bp

    app.register_blueprint(home_bp)
    app.register_blueprint(games_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(referee_bp)
    app.register_blueprint(book_bp)
    # The API authenticates with a Bearer token in a header, never with the session cookie,
    # so a forged cross-site request carries no credentials: CSRF protection adds nothing.
    csrf.exempt(api_bp)
    errors.init_app(app)
    app.after_request(add_security_headers)
    templating.init_app(app)
    # Keep players in seat order in JSON answers.
    app.json.sort_keys = False  # type: ignore[attr-defined]
    return app
