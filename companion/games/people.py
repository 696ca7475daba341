"""The people behind the names: who sat in which seat of which game, and one score line per
person per round, kept in step with the games so the record book is a query, not a replay.

A game still names its players in ``Game.players`` (every page and the API read that); the
:class:`Seat` rows say which :class:`Person` each name is, and :class:`ScoreLine` holds each
round's points as the sheet scores them under the game's current rules. Both are rewritten
from the game by :func:`sync_book` inside the same transaction as every write to the game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db, rollback_quietly
from ..rules import Rules, Tile, schedule
from .entry import ScoreEntry
from .errors import BookChanged, PersonNotFound, StorageTrouble, ValidationFailed
from .models import Change, Game, utc_now
from .parsing import MAX_NAME_LENGTH

DOUBLE_BLANK = Tile(0, 0)


def name_key(name: str) -> str:
    """The form of a name two people may not share: "ann" and "Ann" are one person."""
    return " ".join(name.split()).casefold()


class Person(db.Model):  # type: ignore[name-defined,misc]
    """Someone who plays at this table, across all their games."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    # Unique in the database itself, so two phones adding "ann" and "Ann" at once make one.
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utc_now)


class Seat(db.Model):  # type: ignore[name-defined,misc]
    """Which person sat in seat ``seat`` (0 is the first player) of a game."""

    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_seat_game_seat"),
        # One person, one seat: a merge of two people who played each other is refused.
        UniqueConstraint("game_id", "person_id", name="uq_seat_game_person"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"), index=True)
    # Whether every round of the game's schedule has every score: only finished games count
    # for games played and won. Kept on the seat so the book's queries need no game JSON.
    game_finished: Mapped[bool] = mapped_column(Boolean, default=False)
    # The sum of this seat's score lines: the book ranks thousands of games by it, and
    # summing every line again for each figure would cost ten times the page's budget.
    total: Mapped[int] = mapped_column(Integer, default=0)


class ScoreLine(db.Model):  # type: ignore[name-defined,misc]
    """One person's score in one round of one game, as the sheet scores it."""

    __tablename__ = "score_line"
    __table_args__ = (
        UniqueConstraint("game_id", "n", "seat", name="uq_score_line_game_n_seat"),
        # Covers the book's per-person round figures: read from the index alone, in order.
        Index(
            "ix_score_line_person_figures", "person_id", "points", "went_out", "held_double_blank"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    n: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id"))
    points: Mapped[int] = mapped_column(Integer)
    went_out: Mapped[bool] = mapped_column(Boolean)
    # None when points were typed: only a hand entered tile by tile says what it held.
    held_double_blank: Mapped[bool | None] = mapped_column(Boolean, nullable=True)


# --- what a game's rows should be (pure: the migration's backfill uses it too) --------------


@dataclass(frozen=True)
class Line:
    """One score line, before it has a person."""

    n: int
    seat: int
    points: int
    went_out: bool
    held_double_blank: bool | None


def score_lines(
    players: Sequence[str], rules_json: Mapping[str, Any], rounds: Mapping[int, Mapping[str, Any]]
) -> tuple[list[Line], bool]:
    """The lines of a game's entered scores, and whether the game is finished.

    ``rounds`` maps a round number to its stored scores (keyed by player name), as
    ``Round.scores`` holds them.
    """
    rules = Rules.from_json(dict(rules_json))
    lines = []
    for n, scores in sorted(rounds.items()):
        for seat, name in enumerate(players):
            stored = scores.get(name)
            if stored is None:
                continue
            entry = ScoreEntry.from_json(stored)
            hand = entry.hand
            lines.append(
                Line(
                    n,
                    seat,
                    entry.score(rules),
                    entry.went_out,
                    None if hand is None else DOUBLE_BLANK in hand,
                )
            )
    finished = len(lines) == len(schedule(rules)) * len(players)
    return lines, finished


# --- keeping the rows in step -------------------------------------------------------------


def people_for(names: Iterable[str]) -> list[Person]:
    """The person of each name (matched ignoring case), adding the ones not known yet."""
    names = list(names)
    keys = [name_key(name) for name in names]
    known = {
        person.name_key: person
        for person in db.session.scalars(select(Person).where(Person.name_key.in_(keys)))
    }
    people = []
    for name, key in zip(names, keys, strict=True):
        person = known.get(key)
        if person is None:
            person = known[key] = Person(name=name, name_key=key)
            db.session.add(person)
        people.append(person)
    db.session.flush()
    return people


def sync_book(game: Game) -> None:
    """Rewrite the game's seats and score lines from its players, rules and rounds.

    Called inside the transaction of every write, so the book never disagrees with the sheet:
    a changed rule re-scores tile entries and the lines follow.
    """
    players = list(game.players)
    people = people_for(players)
    lines, finished = score_lines(
        players, game.rules, {round_.n: round_.scores for round_ in game.rounds}
    )
    db.session.execute(delete(ScoreLine).where(ScoreLine.game_id == game.id))
    db.session.execute(delete(Seat).where(Seat.game_id == game.id))
    db.session.execute(
        insert(Seat),
        [
            {
                "game_id": game.id,
                "seat": seat,
                "person_id": person.id,
                "game_finished": finished,
                "total": sum(line.points for line in lines if line.seat == seat),
            }
            for seat, person in enumerate(people)
        ],
    )
    if lines:
        db.session.execute(
            insert(ScoreLine),
            [
                {
                    "game_id": game.id,
                    "n": line.n,
                    "seat": line.seat,
                    "person_id": people[line.seat].id,
                    "points": line.points,
                    "went_out": line.went_out,
                    "held_double_blank": line.held_double_blank,
                }
                for line in lines
            ],
        )


# --- renaming and merging -----------------------------------------------------------------


def list_people() -> list[Person]:
    """Every person in the book, by name."""
    return list(db.session.scalars(select(Person).order_by(Person.name_key)))


def get_person(person_id: Any) -> Person:
    """The person with this id, or :class:`PersonNotFound`."""
    try:
        number = int(person_id)
    except (TypeError, ValueError):
        number = 0
    person = db.session.get(Person, number) if number > 0 else None
    if person is None:
        raise PersonNotFound(
            "That person is no longer in the book (another phone may have merged them into "
            "someone else); nothing was changed."
        )
    return person


def _check_unchanged(person: Person, name_seen: Any) -> None:
    """Refuse a form built on a name another phone has changed since."""
    if not isinstance(name_seen, str) or name_seen != person.name:
        raise BookChanged(
            f"Another phone changed this person since your page was loaded: they are now "
            f"{person.name}. Nothing was changed; check the book and try again."
        )


def _games_of(person: Person) -> list[tuple[Game, int]]:
    """The games a person sat in, with their seat."""
    rows = db.session.execute(
        select(Game, Seat.seat)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.person_id == person.id)
    )
    return [(game, seat) for game, seat in rows]


def _rename_keys(scores: Any, old: str, new: str) -> Any:
    if not isinstance(scores, dict) or old not in scores:
        return scores
    return {new if key == old else key: value for key, value in scores.items()}


def _rename_in_game(game: Game, seat: int, new: str) -> None:
    """Put ``new`` in seat ``seat`` of the game: its players, rounds and history.

    The history's entries are keyed by name too, so undo and the history list keep working
    (and read the new name); one more entry says the name changed, which keeps a game's
    version one ahead per history entry (what round_as_of counts on).
    """
    old = game.players[seat]
    if old == new:
        return
    players = list(game.players)
    players[seat] = new
    for round_ in game.rounds:
        round_.scores = _rename_keys(round_.scores, old, new)
    for change in db.session.scalars(game.changes.select().where(Change.round_n.is_not(None))):
        change.old = _rename_keys(change.old, old, new)
        change.new = _rename_keys(change.new, old, new)
    game.changes.add(Change(kind="people", old=list(game.players), new=players))
    game.players = players


def _commit_people() -> None:
    try:
        db.session.commit()
    except StaleDataError:
        db.session.rollback()
        raise BookChanged(
            "A game of this person was changed on another phone at the same moment; nothing "
            "was changed. Try again."
        ) from None
    except IntegrityError:
        db.session.rollback()
        raise BookChanged(
            "Another phone changed the book at the same moment; nothing was changed. Try again."
        ) from None
    except OperationalError as error:
        rollback_quietly()
        raise StorageTrouble(error) from None


def rename_person(person_id: Any, new_name: Any, name_seen: Any) -> Person:
    """Rename a person everywhere: the book and every game they sat in."""
    person = get_person(person_id)
    _check_unchanged(person, name_seen)
    if not isinstance(new_name, str) or not new_name.strip():
        raise ValidationFailed("Type the new name.", "name")
    name = " ".join(new_name.split())
    if len(name) > MAX_NAME_LENGTH:
        raise ValidationFailed(f"Keep names to {MAX_NAME_LENGTH} characters or fewer.", "name")
    if name == person.name:
        return person
    key = name_key(name)
    other = db.session.scalar(select(Person).where(Person.name_key == key, Person.id != person.id))
    if other is not None:
        raise ValidationFailed(
            f"{other.name} is already in the book. If they are the same person, merge "
            f"{person.name} into {other.name} instead.",
            "name",
        )
    for game, seat in _games_of(person):
        _rename_in_game(game, seat, name)
    person.name = name
    person.name_key = key
    _commit_people()
    return person


def merge_people(keep_id: Any, keep_seen: Any, gone_id: Any, gone_seen: Any) -> Person:
    """Make two people one: every game of ``gone`` becomes a game of ``keep``, by its name.

    Refused when both sat in the same game, since one person cannot hold two seats.
    """
    keep = get_person(keep_id)
    gone = get_person(gone_id)
    _check_unchanged(keep, keep_seen)
    _check_unchanged(gone, gone_seen)
    if keep.id == gone.id:
        raise ValidationFailed("Pick two different people to merge.", "gone")
    games = _games_of(gone)
    shared = db.session.scalar(
        select(func.count())
        .select_from(Seat)
        .where(Seat.person_id == keep.id, Seat.game_id.in_([game.id for game, _ in games]))
    )
    if shared:
        raise ValidationFailed(
            f"{keep.name} and {gone.name} played in the same game ({shared} "
            f"game{'' if shared == 1 else 's'}), so they are two people; nothing was merged.",
            "gone",
        )
    for game, seat in games:
        _rename_in_game(game, seat, keep.name)
    db.session.flush()
    db.session.execute(update(Seat).where(Seat.person_id == gone.id).values(person_id=keep.id))
    db.session.execute(
        update(ScoreLine).where(ScoreLine.person_id == gone.id).values(person_id=keep.id)
    )
    db.session.delete(gone)
    _commit_people()
    return keep
