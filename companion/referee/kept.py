"""Rulings a table keeps with its game: listing, keeping and deleting them.

The pages call this as the game pages call :mod:`companion.games.service`; the scoresheet is
handed a game's kept rulings by its view. A kept ruling is a record only: it never changes a
score.
"""

from __future__ import annotations

from ..extensions import db
from ..games.errors import ServiceError
from ..games.models import Game
from .models import KeptRuling
from .ruling import RulingView

KEPT_SHOWN = 50


class KeptRulingNotFound(ServiceError):
    """No such ruling is kept with this game (deleted already, or another game's)."""

    status = 404


def kept_rulings(game_id: str, limit: int = KEPT_SHOWN) -> list[KeptRuling]:
    """The rulings kept with a game, newest first (at most ``limit``)."""
    rows = db.session.execute(
        db.select(KeptRuling)
        .where(KeptRuling.game_id == game_id)
        .order_by(KeptRuling.at.desc(), KeptRuling.id.desc())
        .limit(limit)
    ).scalars()
    return list(rows)


def keep_ruling(game: Game, ruling: RulingView) -> KeptRuling:
    """Keep ``ruling`` with ``game``: the question, verdict and sentence in words, and the
    deciding rule with the value in force. Over-long words are cut to the columns' sizes."""
    rule = f"{ruling.rule}: {ruling.value}" if ruling.value else (ruling.rule or "")
    kept = KeptRuling(
        game_id=game.id,
        question=ruling.question[:2000],
        verdict=ruling.verdict[:80],
        sentence=ruling.sentence[:4000],
        rule=rule[:1000],
    )
    db.session.add(kept)
    db.session.commit()
    return kept


def delete_ruling(game: Game, ruling_id: int) -> None:
    """Delete one ruling kept with ``game``; another game's ruling is never touched."""
    kept = db.session.get(KeptRuling, ruling_id)
    if kept is None or kept.game_id != game.id:
        raise KeptRulingNotFound("That ruling is no longer kept with this game.")
    db.session.delete(kept)
    db.session.commit()
