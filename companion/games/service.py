"""Everything a game can do, shared by the HTML pages and the JSON API (one code path).

Functions here validate their input, raise :class:`ServiceError` subclasses that carry a plain
message, the field at fault and an HTTP status, and leave the database untouched on failure.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.exc import StaleDataError

from ..extensions import db
from ..rules import (
    HandStatus,
    InvalidTileError,
    Rules,
    RulesError,
    Tile,
    check_hand,
    deal,
    leaders,
    max_hand_points,
    schedule,
    score_hand,
    set_size,
)
from ..rules.integrity import HandEntry, Problem, check_round
from ..storage import storage_trouble
from .models import Change, Game, Round, utc_now

MIN_PLAYERS = 2
# The deal tables go further for big sets; these caps keep a table playable on one sheet.
MAX_PLAYERS_BY_SET = {6: 4, 9: 8, 12: 8, 15: 12, 18: 16}
MAX_NAME_LENGTH = 24
MAX_MARKERS_UP = 1  # a player has one train, so at most one marker of their own left up
MAX_SCHEDULE_ROUNDS = 60  # a double-18 game played three times over; anything longer is a mistake
MAX_DIGITS = 9  # no score, version or rule value needs more; longer text is refused unread
MAX_LIST_ITEMS = 64  # players, deal-table entries: far more than any table seats
GAME_ID = re.compile(r"[0-9a-z]{1,16}")


class ServiceError(Exception):
    """A request the game cannot carry out; nothing was saved."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def details(self) -> dict[str, Any]:
        """Anything more the API's error answer carries besides the message and field."""
        return {}


class ValidationFailed(ServiceError):
    """Bad input: the message says what is wrong and ``field`` names the input."""


class RoundRefused(ValidationFailed):
    """A round the rules would not allow (or a score to confirm first); ``problems`` has all."""

    def __init__(self, problems: list[Problem]) -> None:
        first = problems[0]
        super().__init__(first.message, first.field)
        self.problems = problems

    @property
    def needs_confirmation_only(self) -> bool:
        """Whether every problem goes away once the players confirm their scores."""
        return all(problem.needs_confirmation for problem in self.problems)

    def details(self) -> dict[str, Any]:
        return {
            "problems": [
                {
                    "field": problem.field,
                    "error": problem.message,
                    "confirm": problem.needs_confirmation,
                    **(
                        {"suggestion": problem.suggestion} if problem.suggestion is not None else {}
                    ),
                }
                for problem in self.problems
            ]
        }


class StorageTrouble(ValidationFailed):
    """The database refused a write (a full disk, a read-only file); nothing was saved."""

    status = 503

    def __init__(self, error: BaseException) -> None:
        trouble = storage_trouble(error)
        super().__init__(
            f"{trouble[:1].upper()}{trouble[1:]}: this change was not saved. Keep this page "
            "open and save again once that is fixed."
        )


class GameNotFound(ServiceError):
    """No game has this id (or it was deleted)."""

    status = 404


class RoundNotFound(ServiceError):
    """The game's schedule has no round with this number."""

    status = 404


class TokenMissing(ServiceError):
    """A write came without the game's edit token."""

    status = 401


class TokenWrong(ServiceError):
    """A write came with a token that is not this game's."""

    status = 403


class StaleVersion(ServiceError):
    """The write was based on an older version of the game; the current game is attached."""

    status = 409

    def __init__(self, game: Game) -> None:
        super().__init__(
            "This game was changed on another device since you loaded it; nothing was saved. "
            "Check the current scores and enter your change again.",
            "version",
        )
        self.game = game


class NothingToUndo(ServiceError):
    """The history has no change left to undo."""

    status = 409


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


# --- parsing input ------------------------------------------------------------------------


def parse_whole_number(
    value: Any, field_name: str, *, what: str = "Points", allow_text: bool = False
) -> int:
    """Turn a JSON number (or, from a form, its text) into a whole number, refusing the rest.

    Typed text may use the digits of any script (full-width "１２", Arabic-Indic "٣").
    """
    too_big = (
        f"{what} must be a whole number of at most {MAX_DIGITS} digits; that is far too large."
    )
    if isinstance(value, bool):
        raise ValidationFailed(f"{what} must be a whole number.", field_name)
    if isinstance(value, int):
        if abs(value) >= 10**MAX_DIGITS:
            raise ValidationFailed(too_big, field_name)
        return value
    if isinstance(value, float):
        if math.isnan(value):
            raise ValidationFailed(
                f"{what} must be a whole number; NaN is not a number.", field_name
            )
        if math.isinf(value) or abs(value) >= 10**MAX_DIGITS:
            raise ValidationFailed(too_big, field_name)
        if value.is_integer():
            return int(value)
        raise ValidationFailed(f"{what} must be a whole number, not a fraction.", field_name)
    if isinstance(value, str) and allow_text:
        text = value.strip()
        digits = text.removeprefix("-")
        if digits.isdecimal():
            if len(digits) > MAX_DIGITS:
                raise ValidationFailed(too_big, field_name)
            return int(text)
        shown = text if len(text) <= 20 else text[:20] + "…"
        lowered = text.casefold().lstrip("+-")
        if lowered in ("nan", "inf", "infinity", "∞"):
            raise ValidationFailed(
                f"{what} must be a whole number typed in digits, not {shown!r}.", field_name
            )
        if re.fullmatch(r"\d+(\.\d+)?e[+-]?\d+", lowered):
            raise ValidationFailed(
                f"{what} must be written out in digits, not as a power of ten ({shown!r}).",
                field_name,
            )
        if text.replace(".", "", 1).removeprefix("-").isdecimal() or "," in text:
            raise ValidationFailed(f"{what} must be a whole number, not a fraction.", field_name)
        raise ValidationFailed(f"{what} must be a whole number (you typed {shown!r}).", field_name)
    raise ValidationFailed(f"{what} must be a whole number.", field_name)


def parse_version(value: Any) -> int:
    """Read the ``version`` a write is based on."""
    if value is None or value == "":
        raise ValidationFailed(
            "The version of the game this change is based on is missing.", "version"
        )
    return parse_whole_number(value, "version", what="The version", allow_text=True)


def validate_players(names: Any, set_max: int) -> list[str]:
    """Return cleaned player names in seat order, or raise with the field at fault."""
    if not isinstance(names, Sequence) or isinstance(names, str):
        raise ValidationFailed("Players must be a list of names.", "players")
    if len(names) > MAX_LIST_ITEMS:
        raise ValidationFailed(f"A game seats at most {MAX_LIST_ITEMS} players.", "players")
    cleaned: list[str] = []
    seen: dict[str, int] = {}
    for seat, raw in enumerate(names):
        field_name = f"players.{seat}"
        if not isinstance(raw, str):
            raise ValidationFailed("Each player's name must be text.", field_name)
        name = " ".join(raw.split())
        if not name:
            raise ValidationFailed("A player's name is empty.", field_name)
        if len(name) > MAX_NAME_LENGTH:
            raise ValidationFailed(
                f"Keep names to {MAX_NAME_LENGTH} characters or fewer.", field_name
            )
        key = name.casefold()
        if key in seen:
            raise ValidationFailed(
                f"{name!r} is already the name of player {seen[key] + 1}; give each player a "
                "different name.",
                field_name,
            )
        seen[key] = seat
        cleaned.append(name)
    limit = MAX_PLAYERS_BY_SET.get(set_max, 8)
    if len(cleaned) < MIN_PLAYERS:
        raise ValidationFailed(f"A game needs at least {MIN_PLAYERS} players.", "players")
    if len(cleaned) > limit:
        raise ValidationFailed(f"A double-{set_max} set seats at most {limit} players.", "players")
    return cleaned


def rules_error_message(error: RulesError) -> str:
    """The engine's words about a rules value, for players: without the leading ``rules.key:``
    (the field says which rule) and with any long value shortened."""
    text = re.sub(r"^rules\.\w+:\s*", "", str(error))
    text = re.sub(r"([\"'])([^\"']{12})[^\"']{8,}\1", r"\1\2…\1", text)
    return text[:1].upper() + text[1:]


def rules_error_field(error: RulesError) -> str:
    """Name the rules field a :class:`RulesError` is about (its message starts "rules.key:")."""
    match = re.match(r"rules\.(\w+):", str(error))
    return f"rules.{match.group(1)}" if match else "rules"


def parse_rules(raw: Any) -> Rules:
    """Build a :class:`Rules` value from JSON, turning engine errors into field errors."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ValidationFailed('Rules must be an object such as {"preset": "standard"}.', "rules")
    for key, limit in (("schedule", MAX_SCHEDULE_ROUNDS), ("hand_size", MAX_LIST_ITEMS)):
        value = raw.get(key)
        if isinstance(value, list | Mapping) and len(value) > limit:
            raise ValidationFailed(f"rules.{key} may list at most {limit} entries.", f"rules.{key}")
    try:
        return Rules.from_json(dict(raw))
    except RulesError as error:
        raise ValidationFailed(rules_error_message(error), rules_error_field(error)) from error


@dataclass(frozen=True)
class Setup:
    """What the table needs to know before dealing."""

    hand_size: int
    set_tiles: int
    boneyard: int
    rounds: int


def check_setup(rules: Rules, players: int) -> Setup:
    """Check the rules can deal to this many players and describe the deal."""
    try:
        dealt = deal(rules, players)
        engines = schedule(rules)
    except RulesError as error:
        raise ValidationFailed(rules_error_message(error), rules_error_field(error)) from error
    if dealt.boneyard < 0:
        raise ValidationFailed(
            f"A double-{rules.set_max} set has too few tiles to deal {dealt.hand_size} each to "
            f"{players} players.",
            "rules.hand_size",
        )
    return Setup(dealt.hand_size, dealt.set_tiles, dealt.boneyard, len(engines))


def parse_tiles(raw: Any, set_max: int, field_name: str) -> list[Tile]:
    """Parse a list of tiles, refusing duplicates and tiles the set does not have."""
    if not isinstance(raw, list):
        raise ValidationFailed("Tiles must be a list such as [[0, 0], [5, 6]].", field_name)
    if len(raw) > set_size(set_max):
        raise ValidationFailed(
            f"A double-{set_max} set has only {set_size(set_max)} tiles; {len(raw)} are listed.",
            field_name,
        )
    tiles: list[Tile] = []
    for index, item in enumerate(raw):
        try:
            tiles.append(Tile.from_json(item))
        except InvalidTileError as error:
            raise ValidationFailed(f"Tile {index + 1}: {error}", field_name) from error
    status = check_hand(tiles, set_max)
    if status & HandStatus.TILE_NOT_IN_SET:
        strangers = sorted({str(t) for t in tiles if t.high > set_max})
        raise ValidationFailed(f"A double-{set_max} set has no {', '.join(strangers)}.", field_name)
    if status & HandStatus.DUPLICATE_TILE:
        twice = sorted(str(tile) for tile, count in Counter(tiles).items() if count > 1)
        raise ValidationFailed(
            f"The set has only one {', '.join(twice)}; it is listed twice.", field_name
        )
    return tiles


def parse_score(raw: Any, rules: Rules, field_name: str) -> dict[str, Any]:
    """Validate one player's score for a round and return the form it is stored in."""
    if not isinstance(raw, Mapping):
        raise ValidationFailed(
            'A score must be an object such as {"points": 12} or {"tiles": [[0, 0]]}.',
            field_name,
        )
    unknown = set(raw) - {"points", "tiles", "went_out", "markers_up"}
    if unknown:
        raise ValidationFailed(
            f"Unknown score field {sorted(unknown)[0]!r}; use points, tiles, went_out or "
            "markers_up.",
            f"{field_name}.{sorted(unknown)[0]}",
        )
    went_out = raw.get("went_out", False)
    if not isinstance(went_out, bool):
        raise ValidationFailed("went_out must be true or false.", f"{field_name}.went_out")
    markers_up = parse_whole_number(
        raw.get("markers_up", 0), f"{field_name}.markers_up", what="Markers left up"
    )
    if not 0 <= markers_up <= MAX_MARKERS_UP:
        raise ValidationFailed(
            f"Markers left up must be between 0 and {MAX_MARKERS_UP}.", f"{field_name}.markers_up"
        )
    entry: dict[str, Any] = {"went_out": went_out, "markers_up": markers_up}
    has_points = raw.get("points") is not None
    if "tiles" in raw and raw["tiles"] is not None:
        if has_points:
            raise ValidationFailed("Give either points or tiles, not both.", f"{field_name}.points")
        tiles = parse_tiles(raw["tiles"], rules.set_max, f"{field_name}.tiles")
        if went_out and tiles:
            raise ValidationFailed(
                "A player who went out has no tiles left in hand.", f"{field_name}.tiles"
            )
        # An empty hand is a player who went out; the engine scores it that way too.
        entry["went_out"] = not tiles
        # Kept as given (order of halves included), so an API client reads back what it sent.
        entry["tiles"] = [list(pair) for pair in raw["tiles"]]
        return entry
    if not has_points:
        if went_out:
            entry["points"] = 0
            return entry
        raise ValidationFailed(
            "Enter the points, pick the tiles left in hand, or mark the player as out.",
            f"{field_name}.points",
        )
    points = parse_whole_number(raw["points"], f"{field_name}.points")
    largest = max_hand_points(rules)
    if points < 0:
        raise ValidationFailed("Points can't be negative.", f"{field_name}.points")
    if points > largest:
        raise ValidationFailed(
            f"{points} is more than any hand can hold in a double-{rules.set_max} set "
            f"(at most {largest}).",
            f"{field_name}.points",
        )
    if went_out and points:
        raise ValidationFailed(
            "A player who went out scores 0 before any bonus; clear the points or untick "
            "\u201cwent out\u201d.",
            f"{field_name}.points",
        )
    entry["points"] = points
    return entry


def entry_points(entry: Mapping[str, Any], rules: Rules) -> int:
    """Score a stored entry under the rules (tiles are re-scored, so rule changes apply)."""
    went_out = bool(entry.get("went_out", False))
    markers_up = int(entry.get("markers_up", 0))
    if "tiles" in entry:
        tiles = [Tile.from_json(pair) for pair in entry["tiles"]]
        return score_hand(tiles, rules, went_out=went_out, markers_up=markers_up).points
    # Typed points are the pips counted at the table; the rules add the bonus and penalty.
    bonus = rules.going_out_bonus if went_out else 0
    return int(entry["points"]) + bonus + rules.open_marker_penalty * markers_up


# --- reading a game -----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundView:
    """One round of the schedule with whatever scores are entered."""

    n: int
    engine: int
    leader: str | None
    hand_size: int
    entries: dict[str, dict[str, Any]]
    points: dict[str, int]


@dataclass(frozen=True)
class GameView:
    """A game with everything derived from its rules and scores (what every page shows)."""

    game: Game
    rules: Rules
    setup: Setup
    rounds: list[RoundView]
    totals: dict[str, int]
    standings: list[str]
    ranks: dict[str, int]
    finished: bool
    winners: list[str]
    next_round: RoundView | None
    cumulative: dict[str, list[int]]

    @property
    def players(self) -> list[str]:
        """Player names in seat order."""
        return list(self.game.players)


def load_rules(game: Game) -> Rules:
    """Return the game's stored rules as a :class:`Rules` value."""
    return Rules.from_json(dict(game.rules))


def view_game(game: Game) -> GameView:
    """Derive schedule, points, totals, standings and winners from a stored game."""
    rules = load_rules(game)
    players = list(game.players)
    setup = check_setup(rules, len(players))
    engines = schedule(rules)
    seat_of_leader = leaders(rules, len(players))
    stored = {round_.n: round_.scores for round_ in game.rounds}
    rounds: list[RoundView] = []
    totals = dict.fromkeys(players, 0)
    cumulative: dict[str, list[int]] = {name: [] for name in players}
    for index, engine in enumerate(engines):
        n = index + 1
        entered = stored.get(n, {})
        points = {name: entry_points(entered[name], rules) for name in players if name in entered}
        seat = seat_of_leader[index] if index < len(seat_of_leader) else None
        leader = players[seat] if seat is not None else None
        rounds.append(
            RoundView(
                n,
                engine,
                leader,
                setup.hand_size,
                {name: entered.get(name, {}) for name in players},
                points,
            )
        )
        for name, value in points.items():
            totals[name] += value
        if points:
            for name in players:
                cumulative[name].append(totals[name])
    standings = sorted(players, key=lambda name: (totals[name], players.index(name)))
    ranks: dict[str, int] = {}
    for position, name in enumerate(standings):
        earlier = standings[position - 1]
        tied = position > 0 and totals[earlier] == totals[name]
        ranks[name] = ranks[earlier] if tied else position + 1
    finished = all(len(round_.points) == len(players) for round_ in rounds)
    winners = (
        [name for name in standings if totals[name] == totals[standings[0]]] if finished else []
    )
    next_round = next((r for r in rounds if len(r.points) < len(players)), None)
    return GameView(
        game,
        rules,
        setup,
        rounds,
        totals,
        standings,
        ranks,
        finished,
        winners,
        next_round,
        cumulative,
    )


def score_to_json(entry: Mapping[str, Any], points: int) -> dict[str, Any]:
    """Give one entered score in the API's form."""
    shown: dict[str, Any] = {"points": points}
    if entry.get("went_out"):
        shown["went_out"] = True
    if "tiles" in entry:
        shown["tiles"] = [list(pair) for pair in entry["tiles"]]
    if entry.get("markers_up"):
        shown["markers_up"] = entry["markers_up"]
    return shown


def game_to_json(view: GameView) -> dict[str, Any]:
    """Give the game in the form of shared/spec/scoresheet-api.md."""
    next_round = view.next_round
    return {
        "id": view.game.id,
        "version": view.game.version,
        "players": view.players,
        "rules": view.rules.to_json(),
        "rounds": [
            {
                "n": round_.n,
                "engine": round_.engine,
                "leader": round_.leader,
                "hand_size": round_.hand_size,
                "scores": {
                    name: score_to_json(round_.entries[name], round_.points[name])
                    for name in view.players
                    if name in round_.points
                },
            }
            for round_ in view.rounds
        ],
        "totals": view.totals,
        "standings": view.standings,
        "next_round": (
            {"n": next_round.n, "engine": next_round.engine, "leader": next_round.leader}
            if next_round
            else None
        ),
        "finished": view.finished,
        "winners": view.winners,
    }


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
        db.session.commit()
    except OperationalError as error:
        db.session.rollback()
        raise StorageTrouble(error) from None
    return game, token


def _check_version(game: Game, version: Any) -> None:
    if parse_version(version) != game.version:
        raise StaleVersion(game)


def _commit(game: Game) -> None:
    """Commit a write, turning a lost race with another device into a 409."""
    game.updated_at = utc_now()
    try:
        db.session.commit()
    except StaleDataError:
        db.session.rollback()
        raise StaleVersion(get_game(game.id)) from None
    except OperationalError as error:
        db.session.rollback()
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


def parse_round_scores(game: Game, raw_scores: Any) -> dict[str, Any]:
    """Validate the scores of one round for this game's players and rules."""
    rules = load_rules(game)
    if not isinstance(raw_scores, Mapping):
        raise ValidationFailed("scores must be an object keyed by player name.", "scores")
    players = list(game.players)
    scores: dict[str, Any] = {}
    for name, raw in raw_scores.items():
        if name not in players:
            raise ValidationFailed(
                f"{name!r} is not playing in this game (players: {', '.join(players)}).",
                f"scores.{name}",
            )
        scores[name] = parse_score(raw, rules, f"scores.{name}")
    return scores


def hand_entry(entry: Mapping[str, Any]) -> HandEntry:
    """A stored (or parsed) score in the rules engine's terms."""
    tiles = entry.get("tiles")
    points = entry.get("points")
    return HandEntry(
        tiles=tuple(Tile.from_json(pair) for pair in tiles) if tiles is not None else None,
        points=int(points) if points is not None and tiles is None else None,
        went_out=bool(entry.get("went_out", False)),
    )


def check_round_scores(
    game: Game,
    rules: Rules,
    n: int,
    scores: Mapping[str, Any],
    old: Mapping[str, Any] | None,
    confirmed: bool | Iterable[str] = False,
) -> None:
    """Put a round's entries through the rules engine's :func:`check_round`.

    A typed score that only needs confirming passes when ``confirmed`` is true (or names the
    player), or when it is the score already on the sheet (confirmed when it was saved).
    """
    engine = schedule(rules)[n - 1]
    entries = {name: hand_entry(entry) for name, entry in scores.items()}
    agreed = set(game.players) if confirmed is True else set(confirmed or ())
    problems = [
        problem
        for problem in check_round(rules, list(game.players), engine, entries)
        if not (
            problem.needs_confirmation
            and (
                problem.player in agreed
                or (old or {}).get(problem.player) == scores.get(problem.player)
            )
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
    scores = parse_round_scores(game, raw_scores)
    row = _round_row(game, n)
    old = dict(row.scores) if row else None
    check_round_scores(game, rules, n, scores, old, confirmed)
    _check_version(game, version)
    if (old or None) == (scores or None):
        return game
    _store_round(game, n, scores)
    game.changes.add(Change(kind="round", round_n=n, old=old, new=scores or None))
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
        entries = {name: hand_entry(entry) for name, entry in round_.scores.items()}
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


def undo_last(game: Game, version: Any) -> Game:
    """Revert the most recent change not yet undone, and record the undo in the history."""
    _check_version(game, version)
    target = db.session.scalars(
        game.changes.select()
        .where(Change.kind != "undo", Change.undone.is_(False))
        .order_by(Change.id.desc())
        .limit(1)
    ).first()
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


def history(game: Game) -> list[Change]:
    """Return the game's changes, newest first."""
    return list(db.session.scalars(game.changes.select().order_by(Change.id.desc())))


def delete_game(game: Game) -> None:
    """Delete a game with its rounds and history."""
    db.session.delete(game)
    db.session.commit()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: str) -> str:
    """A CSV cell a spreadsheet will show as text: one that starts like a formula (``=``,
    ``+``, ``-``, ``@``, tab, return) gets a leading apostrophe, unless it is a plain number."""
    if cell.startswith(FORMULA_STARTS) and not re.fullmatch(r"-?\d+", cell):
        return "'" + cell
    return cell


def scoresheet_rows(view: GameView) -> Iterable[list[str]]:
    """Yield the scoresheet as CSV rows: one per round, then the totals and ranks.

    Player names are made spreadsheet-safe (:func:`spreadsheet_safe`); every other cell is a
    number or a tile written by the app.
    """
    yield ["round", "engine", "leader", *(spreadsheet_safe(name) for name in view.players)]
    for round_ in view.rounds:
        yield [
            str(round_.n),
            f"{round_.engine}-{round_.engine}",
            spreadsheet_safe(round_.leader or ""),
            *(str(round_.points[name]) if name in round_.points else "" for name in view.players),
        ]
    yield ["total", "", "", *(str(view.totals[name]) for name in view.players)]
    yield ["rank", "", "", *(str(view.ranks[name]) for name in view.players)]
