"""Flask extensions, created unbound here and bound to the app in ``create_app``."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase

# Named constraints let Alembic's batch mode drop and recreate them on SQLite.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base carrying the constraint naming convention."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()

logger = logging.getLogger(__name__)


def rollback_quietly() -> None:
    """Roll back the request's session; a database that is gone only gets logged.

    A connection the server dropped (PostgreSQL restarted, its backend killed) fails the
    rollback too, which must not turn the sentence the player is about to read into a bare
    server error: the server rolls back on its own when the connection dies.
    """
    try:
        db.session.rollback()
    except SQLAlchemyError as error:
        logger.warning("Rolling back failed (the connection is dropped): %s", error)


def release_connection() -> None:
    """End the request's transaction and hand its connection back to the pool, for a long
    wait with nothing to read or write (a photo being read). Nothing is pending at such a
    point; objects loaded stay usable (expired, they reload on their next use)."""
    db.session.commit()


def end_session(_error: BaseException | None = None) -> None:
    """Close the request's session, whatever the database says (a teardown function).

    Flask-SQLAlchemy's own teardown closes it too, but outside the app's error handlers: a
    rollback failing there (a dropped connection) became a bare 500 page in place of the
    answer already made. Registered after it, this runs first and leaves it nothing to do.
    """
    try:
        db.session.remove()
    except SQLAlchemyError as error:
        logger.warning("Closing the session failed (the connection is dropped): %s", error)
        try:
            db.session.registry().invalidate()  # never hand the connection to another request
        except SQLAlchemyError:
            pass
        db.session.registry.clear()


@event.listens_for(Engine, "connect")
def _enable_sqlite_foreign_keys(dbapi_connection: Any, _connection_record: Any) -> None:
    """Make SQLite enforce foreign keys (and cascades) the way PostgreSQL does.

    WAL lets the phones polling the scoresheet read while a round is written, and with it
    synchronous=NORMAL is safe against the app crashing (a power cut may lose the last write).
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()
