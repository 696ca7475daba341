"""The record book's figures, each one an aggregate query over seats and score lines.

Round figures (average, best, worst, went out, double-blank) count every round entered; game
figures (games, wins, average per game, runs of wins) count finished games only, since an
unfinished game has no winner yet. A finished game's winners are everyone on its lowest total.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Integer, case, cast, func, literal, select
from sqlalchemy.sql import Subquery

from ..extensions import db
from ..games.models import Game
from ..games.people import Person, ScoreLine, Seat


@dataclass(frozen=True)
class PersonRecord:
    """One person's line in the book."""

    person_id: int
    name: str
    games: int
    wins: int
    average_game: float | None
    longest_run: int
    rounds: int
    average_round: float | None
    best_round: int | None
    worst_round: int | None
    went_out: int
    double_blank: int
    rounds_with_tiles: int

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game, 0 to 1 (None before a first finished game)."""
        return self.wins / self.games if self.games else None


@dataclass(frozen=True)
class HeadToHead:
    """Two people over the finished games they both played."""

    games: int
    wins_a: int
    wins_b: int
    ahead_a: int
    ahead_b: int
    average_margin: float | None  # a's total minus b's, on average: below 0, a does better


@dataclass(frozen=True)
class GameTotal:
    """One finished game of a person: when, their total, whether they won."""

    game_id: str
    played: datetime
    total: int
    won: bool


def _totals() -> Subquery:
    """Each person's total in each finished game, and whether it was the game's lowest."""
    return (
        select(
            Seat.game_id,
            Seat.person_id,
            Seat.total,
            (Seat.total == func.min(Seat.total).over(partition_by=Seat.game_id))
            .cast(Integer)
            .label("won"),
        )
        .where(Seat.game_finished.is_(True))
        .subquery()
    )


def _with_dates(totals: Subquery) -> Subquery:
    return (
        select(totals, Game.created_at.label("played"))
        .join(Game, Game.id == totals.c.game_id)
        .subquery()
    )


def person_records() -> list[PersonRecord]:
    """Every person's figures, most wins first (then best win rate, then name)."""
    rounds = (
        select(
            ScoreLine.person_id,
            func.count().label("rounds"),
            func.avg(ScoreLine.points).label("average_round"),
            func.min(ScoreLine.points).label("best_round"),
            func.max(ScoreLine.points).label("worst_round"),
            func.sum(case((ScoreLine.went_out, 1), else_=0)).label("went_out"),
            func.sum(case((ScoreLine.held_double_blank.is_(True), 1), else_=0)).label(
                "double_blank"
            ),
            func.count(ScoreLine.held_double_blank).label("rounds_with_tiles"),
        )
        .group_by(ScoreLine.person_id)
        .subquery()
    )
    totals = _totals()
    games = (
        select(
            totals.c.person_id,
            func.count().label("games"),
            func.sum(totals.c.won).label("wins"),
            func.avg(totals.c.total).label("average_game"),
        )
        .group_by(totals.c.person_id)
        .subquery()
    )
    runs = _longest_runs(_with_dates(totals))
    query = (
        select(
            Person.id,
            Person.name,
            func.coalesce(games.c.games, 0),
            func.coalesce(games.c.wins, 0),
            games.c.average_game,
            func.coalesce(runs.c.longest, 0),
            func.coalesce(rounds.c.rounds, 0),
            rounds.c.average_round,
            rounds.c.best_round,
            rounds.c.worst_round,
            func.coalesce(rounds.c.went_out, 0),
            func.coalesce(rounds.c.double_blank, 0),
            func.coalesce(rounds.c.rounds_with_tiles, 0),
        )
        .join(games, games.c.person_id == Person.id, isouter=True)
        .join(rounds, rounds.c.person_id == Person.id, isouter=True)
        .join(runs, runs.c.person_id == Person.id, isouter=True)
    )
    records = [
        PersonRecord(
            person_id=row[0],
            name=row[1],
            games=int(row[2]),
            wins=int(row[3]),
            average_game=None if row[4] is None else float(row[4]),
            longest_run=int(row[5]),
            rounds=int(row[6]),
            average_round=None if row[7] is None else float(row[7]),
            best_round=row[8],
            worst_round=row[9],
            went_out=int(row[10]),
            double_blank=int(row[11]),
            rounds_with_tiles=int(row[12]),
        )
        for row in db.session.execute(query)
    ]
    return sorted(records, key=lambda r: _book_order(r.wins, r.games, r.name, r.person_id))


def _book_order(wins: int, games: int, name: str, person_id: int) -> tuple[int, float, str, int]:
    """Who stands first in the book: most wins, then the best win rate, then by name."""
    return (-wins, -(wins / games if games else 0.0), name.casefold(), person_id)


@dataclass(frozen=True)
class Leader:
    """Who leads the book, for the home page."""

    name: str
    wins: int
    games: int


def leader() -> Leader | None:
    """Who stands first in the book (as person_records orders it), if anyone has won a game:
    the finished games' totals only, without the book's round figures."""
    totals = _totals()
    rows = db.session.execute(
        select(Person.id, Person.name, func.count(), func.sum(totals.c.won))
        .join(totals, totals.c.person_id == Person.id)
        .group_by(Person.id, Person.name)
    ).all()
    if not rows:
        return None
    person_id, name, games, wins = min(
        rows, key=lambda row: _book_order(int(row[3]), int(row[2]), row[1], row[0])
    )
    return Leader(name, int(wins), int(games)) if wins else None


def _longest_runs(dated: Subquery) -> Subquery:
    """Each person's longest run of finished games won one after another (gaps and islands:
    a run's games share the difference between their place among all the person's games and
    their place among the person's wins)."""
    ordered = (
        select(
            dated.c.person_id,
            dated.c.won,
            (
                func.row_number().over(
                    partition_by=dated.c.person_id, order_by=(dated.c.played, dated.c.game_id)
                )
                - func.row_number().over(
                    partition_by=(dated.c.person_id, dated.c.won),
                    order_by=(dated.c.played, dated.c.game_id),
                )
            ).label("island"),
        )
    ).subquery()
    islands = (
        select(ordered.c.person_id, func.count().label("length"))
        .where(ordered.c.won == 1)
        .group_by(ordered.c.person_id, ordered.c.island)
        .subquery()
    )
    return (
        select(islands.c.person_id, func.max(islands.c.length).label("longest"))
        .group_by(islands.c.person_id)
        .subquery()
    )


def game_totals(person_id: int) -> list[GameTotal]:
    """A person's finished games, oldest first, with their total and whether they won."""
    dated = _with_dates(_totals())
    rows = db.session.execute(
        select(dated.c.game_id, dated.c.played, dated.c.total, dated.c.won)
        .where(dated.c.person_id == person_id)
        .order_by(dated.c.played, dated.c.game_id)
    )
    return [GameTotal(row[0], row[1], int(row[2]), bool(row[3])) for row in rows]


def head_to_head(a_id: int, b_id: int) -> HeadToHead:
    """How two people did in the finished games they both played."""
    totals = _totals()
    a = totals.alias("a")
    b = totals.alias("b")
    row = db.session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(a.c.won), 0),
            func.coalesce(func.sum(b.c.won), 0),
            func.coalesce(func.sum(case((a.c.total < b.c.total, 1), else_=0)), 0),
            func.coalesce(func.sum(case((b.c.total < a.c.total, 1), else_=0)), 0),
            func.avg(cast(a.c.total - b.c.total, Integer) * literal(1.0)),
        )
        .select_from(a)
        .join(b, a.c.game_id == b.c.game_id)
        .where(a.c.person_id == a_id, b.c.person_id == b_id)
    ).one()
    return HeadToHead(
        games=int(row[0]),
        wins_a=int(row[1]),
        wins_b=int(row[2]),
        ahead_a=int(row[3]),
        ahead_b=int(row[4]),
        average_margin=None if row[5] is None else float(row[5]),
    )
