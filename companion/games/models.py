"""Database rows of a game: the game itself, its entered rounds and its change history."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, WriteOnlyMapped, mapped_column, relationship

from ..extensions import db

# No 0/O or 1/I/l, so an id read aloud or copied by hand survives.
ID_ALPHABET = "23456789abcdefghijkmnpqrstuvwxyz"
ID_LENGTH = 10


def new_game_id() -> str:
    """Return a random, hard-to-guess public id for a game."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def utc_now() -> datetime:
    """Return the current time as a timezone-aware UTC datetime."""
    return datetime.now(UTC)


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game at the table: players in seat order, the house rules and a version counter."""

    id: Mapped[str] = mapped_column(String(16), primary_key=True, default=new_game_id)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    players: Mapped[list[str]] = mapped_column(JSON)
    # The resolved value of every rule key, so later preset edits never change an old game.
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    preset: Mapped[str] = mapped_column(String(40), default="standard")
    # Only a hash: a leaked database must not hand out edit rights.
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    rounds: Mapped[list[Round]] = relationship(
        back_populates="game",
        cascade="all, delete-orphan",
        order_by="Round.n",
        passive_deletes=True,
    )
    # Write-only: a round write appends one row without loading the whole history.
    changes: WriteOnlyMapped[Change] = relationship(
        back_populates="game",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )

    # SQLAlchemy adds "WHERE version = <old>" to every UPDATE, so two phones writing at the
    # same instant cannot both win even if both passed the version check.
    __mapper_args__ = {"version_id_col": version}


class Round(db.Model):  # type: ignore[name-defined,misc]
    """The scores entered for one round, keyed by player name."""

    __table_args__ = (UniqueConstraint("game_id", "n"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    n: Mapped[int] = mapped_column(Integer)
    # {"Ann": {"points": 12, "went_out": false, "markers_up": 0}, "Bob": {"tiles": [[0, 0]]}}
    scores: Mapped[dict[str, Any]] = mapped_column(JSON)

    game: Mapped[Game] = relationship(back_populates="rounds")


class Change(db.Model):  # type: ignore[name-defined,misc]
    """One entry of a game's history: what changed, from what, to what, and when."""

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # "round" (scores of round n), "rules" (house rules or schedule) or "undo".
    kind: Mapped[str] = mapped_column(String(16))
    round_n: Mapped[int | None] = mapped_column(Integer, nullable=True)
    old: Mapped[Any] = mapped_column(JSON, nullable=True)
    new: Mapped[Any] = mapped_column(JSON, nullable=True)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)

    game: Mapped[Game] = relationship(back_populates="changes")
