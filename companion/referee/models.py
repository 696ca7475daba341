"""Rulings a table kept with its game. They are a record only: they never change a score."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from ..games.models import utc_now


class KeptRuling(db.Model):  # type: ignore[name-defined,misc]
    """One ruling kept with a game: when, the question in words, and the answer."""

    __tablename__ = "kept_ruling"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    question: Mapped[str] = mapped_column(Text)
    verdict: Mapped[str] = mapped_column(String(80))
    sentence: Mapped[str] = mapped_column(Text)
    # The deciding rule in words, with the value in force ("" for a core rule or none).
    rule: Mapped[str] = mapped_column(Text, default="")


class TablePosition(db.Model):  # type: ignore[name-defined,misc]
    """The last table read from a photo in a game's round in progress: the position only
    (the engine, each train's end and open double, by owner), never the photo. A newer read
    replaces it; once its round is scored it is no longer used."""

    __tablename__ = "table_position"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    round_n: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    # {"engine": "12", "ends": {"0": "5", "m1": "none", ...}, "open": ["1"]}: form values.
    position: Mapped[dict[str, Any]] = mapped_column(JSON)
