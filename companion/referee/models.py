"""Rulings a table kept with its game. They are a record only: they never change a score."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, String, Text
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
