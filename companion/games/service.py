"""Reading and changing stored games, shared by the HTML pages and the JSON API (one code path).

Each write validates its input (:mod:`.parsing`), puts a round through the rules engine's
checks, raises an :mod:`.errors` error with a plain message on failure and then leaves the
database untouched.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db, rollback_quietly
from ..rules import Rules, schedule
from ..rules.integrity import check_round
from .entry import ScoreEntry
from .errors import (
    BookChanged,
    GameNotFound,
    NothingToUndo,
    RoundNotFound,
    RoundRefused,
    StaleVersion,
    StorageTrouble,
    TokenMissing,
    TokenWrong,
    ValidationFailed,
)
from .models import Change, Game, Round, utc_now
from .parsing import (
    check_setup,
    parse_round_scores,
    parse_rules,
    parse_version,
    validate_players,
)
from .people import sync_book
from .sheetview import load_rules

GAME_ID = re.compile(r"[0-9a-z]{1,16}")


# --- tokens -------------------------------------------------------------------------------


def hash_token(token: str) -> str:
    """Return the stored form of an edit token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(game: Game, token: str) -> bool:
    """Say whether ``token`` is the game's edit token (constant-time comparison)."""
    return hmac.compare_digest(hash_token(token), game.edit_token_hash)


def require_token(game: Game, token: str | None) -> None:
    """Raise 401 without a token and 403 with a wrong one."""
    if not token:
        raise TokenMissing("Writing to a game needs its edit token.")
    if not token_matches(game, token):
        raise TokenWrong("That edit token is not this game's.")


# --- reading ------------------------------------------------------------------------------


def get_game(game_id: str) -> Game:
    """Return the game with this id, or raise 404."""
    if GAME_ID.fullmatch(game_id) is None:
        raise GameNotFound("There is no game at this address; check the link.")
    # One SELECT for the game and its rounds: a single statement reads one snapshot, so the
    # version (and the ETag built from it) always matches the rounds answered with it.
    game: Game | None = (
        db.session.execute(
            db.select(Game).options(joinedload(Game.rounds)).where(Game.id == game_id)
        )
        .unique()
        .scalar_one_or_none()
    )
    if game is None:
        raise GameNotFound(f"There is no game {game_id!r}; it may have been deleted.")
    return game


def list_games() -> list[Game]:
    """Return every game, most recently changed first."""
    return list(db.session.execute(db.select(Game).order_by(Game.updated_at.desc())).scalars())


# --- writing ------------------------------------------------------------------------------


def create_game(players: Any, raw_rules: Any) -> tuple[Game, str]:
    """Create a game and return it with its edit token (shown once, stored only as a hash)."""
    rules = parse_rules(raw_rules)
    names = validate_players(players, rules.set_max)
    check_setup(rules, len(names))
    preset = raw_rules.get("preset", "standard") if isinstance(raw_rules, Mapping) else "standard"
    token = secrets.token_urlsafe(24)
    game = Game(
        players=names,
        rules=rules.to_json(),
        preset=str(preset),
        edit_token_hash=hash_token(token),
    )
    db.session.add(game)
    try:
        db.session.flush()  # gives the game its id, which its seats name
        sync_book(game)
        db.session.commit()
    except IntegrityError:
        # Only a person's name can clash: another phone added the same new name just now.
        db.session.rollback()
        raise BookChanged(
            "Another phone added one of these players to the book at the same moment; the game "
            "was not started. Start it again."
        ) from None
    except OperationalError as error:
        rollback_quietly()
        raise StorageTrouble(error) from None
    return game, token


def _check_version(game: Game, version: Any) -> None:
    if parse_version(version) != game.version:
        raise StaleVersion(game)


def _commit(game: Game) -> None:
    """Commit a write, turning a lost race with another device into a 409."""
    game.updated_at = utc_now()
    try:
        sync_book(game)
        db.session.commit()
    except StaleDataError:
        db.session.rollback()
        raise StaleVersion(get_game(game.id)) from None
    except OperationalError as error:
        rollback_quietly()
        raise StorageTrouble(error) from None


def _round_row(game: Game, n: int) -> Round | None:
    return next((round_ for round_ in game.rounds if round_.n == n), None)


def _store_round(game: Game, n: int, scores: dict[str, Any] | None) -> None:
    row = _round_row(game, n)
    if not scores:
        if row is not None:
            game.rounds.remove(row)
        return
    if row is None:
        game.rounds.append(Round(n=n, scores=scores))
    else:
        row.scores = scores


def _check_round_number(game: Game, rules: Rules, n: int) -> None:
    rounds = len(schedule(rules))
    if not 1 <= n <= rounds:
        raise RoundNotFound(f"This game has rounds 1 to {rounds}; there is no round {n}.", "n")


def check_round_scores(
    game: Game,
    rules: Rules,
    n: int,
    scores: Mapping[str, ScoreEntry],
    old: Mapping[str, ScoreEntry],
    confirmed: bool | Iterable[str] = False,
) -> None:
    """Put a round's entries through the rules engine's :func:`check_round`.

    A typed score that only needs confirming passes when ``confirmed`` is true (or names the
    player), or when it is the score already on the sheet (confirmed when it was saved).
    """
    engine = schedule(rules)[n - 1]
    entries = {name: entry.hand_entry() for name, entry in scores.items()}
    agreed = set(game.players) if confirmed is True else set(confirmed or ())
    problems = [
        problem
        for problem in check_round(rules, list(game.players), engine, entries)
        if not (
            problem.needs_confirmation
            and (problem.player in agreed or old.get(problem.player) == scores.get(problem.player))
        )
    ]
    if problems:
        raise RoundRefused(problems)


def set_round(
    game: Game, n: int, raw_scores: Any, version: Any, confirmed: bool | Iterable[str] = False
) -> Game:
    """Replace the scores of round ``n`` (players left out have no score yet).

    The round must be one the rules allow (:func:`check_round_scores`); ``confirmed`` accepts
    typed scores above what a dealt hand could hold.
    """
    rules = load_rules(game)
    _check_round_number(game, rules, n)
    scores = parse_round_scores(game.players, rules, raw_scores)
    row = _round_row(game, n)
    old = dict(row.scores) if row else None
    old_entries = {name: ScoreEntry.from_json(stored) for name, stored in (old or {}).items()}
    check_round_scores(game, rules, n, scores, old_entries, confirmed)
    _check_version(game, version)
    if old_entries == scores:
        return game
    new = {name: entry.to_json() for name, entry in scores.items()}
    _store_round(game, n, new)
    game.changes.add(Change(kind="round", round_n=n, old=old, new=new or None))
    _commit(game)
    return game


def clear_round(game: Game, n: int, version: Any) -> Game:
    """Clear the scores of round ``n``; the history keeps them."""
    rules = load_rules(game)
    _check_round_number(game, rules, n)
    _check_version(game, version)
    row = _round_row(game, n)
    if row is None:
        return game
    game.changes.add(Change(kind="round", round_n=n, old=dict(row.scores), new=None))
    _store_round(game, n, None)
    _commit(game)
    return game


def change_rules(game: Game, raw_rules: Any, version: Any) -> Game:
    """Change the house rules or schedule mid-game; tile entries are re-scored."""
    rules = parse_rules(raw_rules)
    old_rules = load_rules(game)
    check_setup(rules, len(game.players))
    if rules.set_max != old_rules.set_max and game.rounds:
        raise ValidationFailed("The set can't change once scores are entered.", "rules.set_max")
    last = len(schedule(rules))
    beyond = [round_.n for round_ in game.rounds if round_.n > last]
    if beyond:
        raise ValidationFailed(
            f"Round {beyond[0]} has scores, but this schedule has only {last} rounds; clear "
            "those rounds first.",
            "rules.schedule",
        )
    engines = schedule(rules)
    for round_ in sorted(game.rounds, key=lambda row: row.n):
        entries = {
            name: ScoreEntry.from_json(stored).hand_entry()
            for name, stored in round_.scores.items()
        }
        for problem in check_round(rules, list(game.players), engines[round_.n - 1], entries):
            if not problem.needs_confirmation:
                raise ValidationFailed(
                    f"With this change round {round_.n} would not add up: {problem.message}",
                    "rules.schedule",
                )
    _check_version(game, version)
    new_json = rules.to_json()
    if new_json == game.rules:
        return game
    game.changes.add(Change(kind="rules", old=dict(game.rules), new=new_json))
    game.rules = new_json
    if isinstance(raw_rules, Mapping) and "preset" in raw_rules:
        game.preset = str(raw_rules["preset"])
    _commit(game)
    return game


def next_undo(game: Game) -> Change | None:
    """The change "Undo" would take back: the most recent one not yet undone."""
    return db.session.scalars(
        game.changes.select()
        .where(Change.kind.in_(("round", "rules")), Change.undone.is_(False))
        .order_by(Change.id.desc())
        .limit(1)
    ).first()


def undo_last(game: Game, version: Any) -> Game:
    """Revert the most recent change not yet undone, and record the undo in the history."""
    _check_version(game, version)
    target = next_undo(game)
    if target is None:
        raise NothingToUndo("There is nothing to undo.")
    if target.kind == "round" and target.round_n is not None:
        _store_round(game, target.round_n, target.old)
    elif target.kind == "rules":
        game.rules = target.old
    target.undone = True
    game.changes.add(Change(kind="undo", round_n=target.round_n, old=target.new, new=target.old))
    _commit(game)
    return game


def round_as_of(game: Game, n: int, version: int) -> dict[str, Any] | None:
    """The scores of round ``n`` as they stood at ``version`` of the game.

    Every write adds one change to the history and one to the version, so the newest
    ``game.version - version`` changes are the ones made since; undoing those that touched
    round ``n`` gives the round as the phone that loaded ``version`` saw it.
    """
    row = _round_row(game, n)
    scores = dict(row.scores) if row else None
    since = game.version - version
    if since <= 0:
        return scores
    newest = db.session.scalars(game.changes.select().order_by(Change.id.desc()).limit(since))
    for change in newest:
        if change.round_n == n and change.kind in ("round", "undo"):
            scores = dict(change.old) if change.old else None
    return scores


def rules_as_of(game: Game, version: int) -> dict[str, Any]:
    """The game's rules as they stood at ``version`` (see :func:`round_as_of`)."""
    rules = dict(game.rules)
    since = game.version - version
    if since <= 0:
        return rules
    newest = db.session.scalars(game.changes.select().order_by(Change.id.desc()).limit(since))
    for change in newest:
        if change.round_n is None and change.kind in ("rules", "undo") and change.old:
            rules = dict(change.old)
    return rules


def history(game: Game, limit: int | None = None) -> list[Change]:
    """Return the game's changes, newest first (the newest ``limit`` of them when given)."""
    query = game.changes.select().order_by(Change.id.desc())
    if limit is not None:
        query = query.limit(limit)
    return list(db.session.scalars(query))


def history_length(game: Game) -> int:
    """How many changes the game's history holds."""
    counted = db.session.scalar(
        db.select(db.func.count()).select_from(Change).where(Change.game_id == game.id)
    )
    return int(counted or 0)


def delete_game(game: Game) -> None:
    """Delete a game with its rounds and history."""
    db.session.delete(game)
    db.session.commit()
