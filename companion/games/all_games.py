"""The whole book out and in: every game as one JSON file (the API's own game format under a
format header) or one CSV, and a JSON export read back on another host.

Imported games go through the service like any other (:func:`service.create_game`, then
:func:`service.set_round` round by round), so the rules check them exactly as they check a
phone. A game is all or nothing: when one of its rounds is refused, what was written of it is
deleted again.

Two games are the same when they have the same players in the same seats, the same house rules
and the same scores entered in every round (points typed or tiles picked, who went out, markers
left up). Ids are not compared: each host gives its games its own, and a game copied back
to the host it came from is the same game under any id.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import selectinload

from ..extensions import db
from ..rules import Rules
from . import export, service, sheetview
from .entry import ScoreEntry
from .errors import RoundRefused, ServiceError
from .models import Game, utc_now
from .parsing import parse_round_scores, parse_rules
from .sheetview import GameView

FORMAT = "mexican-train-companion/games"
FORMAT_VERSION = 1
DEFAULT_MAX_IMPORT_BYTES = 8 * 1024 * 1024  # some 1,500 games of 8 players: a family's lifetime


class BookRefused(ValueError):
    """A file that is not a games export this host can read; nothing was imported."""


class GameRefused(ValueError):
    """One game of an export that can't be imported; the message says why in words."""


# --- out ------------------------------------------------------------------------------------


def as_utc(moment: datetime) -> datetime:
    """A stored time as UTC (SQLite gives it back without its time zone)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def export_document(views: Iterable[GameView], exported_at: datetime) -> dict[str, Any]:
    """Every game in the scoresheet API's format, under a header naming the format.

    The API's game has no date, so when each game was started goes in the header
    (``"started"``: game id to time), and an import keeps it.
    """
    views = list(views)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": as_utc(exported_at).isoformat(timespec="seconds"),
        "started": {
            view.game.id: as_utc(view.game.created_at).isoformat()
            for view in views
            if view.game.created_at
        },
        "games": [export.game_to_json(view) for view in views],
    }


CSV_HEADER = [
    "game",
    "started",
    "round",
    "engine",
    "seat",
    "player",
    "points",
    "went out",
    "markers up",
    "tiles",
]


def csv_rows(views: Iterable[GameView]) -> Iterable[list[str]]:
    """One row per game, round and player with a score entered (points as scored)."""
    yield CSV_HEADER
    for view in views:
        started = view.game.created_at.date().isoformat() if view.game.created_at else ""
        for round_ in view.rounds:
            for seat, name in enumerate(view.players):
                entry = round_.entries.get(name)
                if entry is None:
                    continue
                tiles = " ".join(f"{a}|{b}" for a, b in entry.tiles or ())
                yield [
                    view.game.id,
                    started,
                    str(round_.n),
                    export.engine_cell(round_.engine),
                    str(seat + 1),
                    export.spreadsheet_safe(name),
                    str(round_.points[name]),
                    "yes" if entry.went_out else "",
                    str(entry.markers_up or ""),
                    tiles,
                ]


# --- in -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportFile:
    """An export as read: its games (each still to check) and when each was started."""

    games: list[Any]
    started: dict[str, datetime]


def started_times(raw: Any) -> dict[str, datetime]:
    """The header's start times; one that doesn't read is left out (that game is then dated
    the day it is imported), as is one in the future."""
    if not isinstance(raw, dict):
        return {}
    times: dict[str, datetime] = {}
    for game_id, text in raw.items():
        try:
            moment = as_utc(datetime.fromisoformat(text))
        except (TypeError, ValueError):
            continue
        if moment <= utc_now():
            times[str(game_id)] = moment
    return times


def read_document(data: bytes, max_bytes: int = DEFAULT_MAX_IMPORT_BYTES) -> ExportFile:
    """The games of an export file, or :class:`BookRefused` saying what is wrong with it."""
    if len(data) > max_bytes:
        raise BookRefused(
            f"The file is larger than {max_bytes // (1024 * 1024) or 1} MB; an export of this "
            "app's games is much smaller. Nothing was imported."
        )
    if not data.strip():
        raise BookRefused("The file is empty. Nothing was imported.")
    try:
        document = json.loads(data.decode("utf-8-sig"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BookRefused(
            "The file is not a JSON export of games (it can't be read as JSON). Choose the "
            "file that \u201cDownload every game (JSON)\u201d saved. Nothing was imported."
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BookRefused(
            "The file is JSON but not an export of this app's games (it has no "
            f"\u201cformat\u201d: \u201c{FORMAT}\u201d header). Nothing was imported."
        )
    version = document.get("version")
    if version != FORMAT_VERSION:
        raise BookRefused(
            f"The file is an export in version {version} of the format; this app reads version "
            f"{FORMAT_VERSION}. Nothing was imported."
        )
    games = document.get("games")
    if not isinstance(games, list):
        raise BookRefused(
            "The file's \u201cgames\u201d is not a list of games. Nothing was imported."
        )
    return ExportFile(games, started_times(document.get("started")))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


@dataclass(frozen=True)
class IncomingGame:
    """A game of an export, checked for shape: what the service is asked to create."""

    label: str
    players: list[str]
    rules: dict[str, Any]
    rounds: list[tuple[int, dict[str, Any]]]  # round number, scores in the API's input form
    totals: dict[str, Any] | None


def game_label(index: int, item: Any) -> str:
    """How a message names a game of the file: "game 3 (Ann, Bob, Cy)"."""
    players = item.get("players") if isinstance(item, dict) else None
    if isinstance(players, list) and players and all(isinstance(p, str) for p in players):
        names = ", ".join(players)
        names = names if len(names) <= 60 else names[:59] + "…"
        return f"game {index + 1} ({names})"
    return f"game {index + 1}"


def score_input(shown: Any, rules: Rules, where: str) -> dict[str, Any]:
    """A score as the API shows it, turned back into what a phone would send.

    The API shows typed points with the going-out bonus and the marker penalty added, so they
    are taken off again; picked tiles are sent as tiles and scored again here.
    """
    if not isinstance(shown, dict):
        raise GameRefused(f"{where}: the score is not a score.")
    went_out = shown.get("went_out", False)
    markers_up = shown.get("markers_up", 0)
    if not isinstance(went_out, bool) or type(markers_up) is not int:
        raise GameRefused(
            f"{where}: \u201cwent out\u201d or \u201cmarkers up\u201d is not readable."
        )
    if shown.get("tiles") is not None:
        return {"tiles": shown["tiles"], "went_out": went_out, "markers_up": markers_up}
    points = shown.get("points")
    if type(points) is not int:
        raise GameRefused(f"{where}: the points are not a whole number.")
    added = (rules.going_out_bonus if went_out else 0) + rules.open_marker_penalty * markers_up
    typed = points - added
    if went_out and typed == 0:
        return {"went_out": True, "markers_up": markers_up}
    return {"points": typed, "went_out": went_out, "markers_up": markers_up}


def incoming_game(index: int, item: Any) -> IncomingGame:
    """Check one game of the file for shape (the service checks the rest when it is written)."""
    if not isinstance(item, dict):
        raise GameRefused("it is not a game (a JSON object with players, rules and rounds).")
    players, raw_rules, rounds = item.get("players"), item.get("rules"), item.get("rounds")
    if not isinstance(players, list) or not isinstance(raw_rules, dict):
        raise GameRefused("it has no list of players or no house rules.")
    if not isinstance(rounds, list):
        raise GameRefused("it has no list of rounds.")
    try:
        rules = parse_rules(raw_rules)
    except ServiceError as error:
        raise GameRefused(f"its house rules: {error.message}") from None
    written: list[tuple[int, dict[str, Any]]] = []
    for round_ in rounds:
        if not isinstance(round_, dict) or type(round_.get("n")) is not int:
            raise GameRefused("a round has no round number.")
        n = round_["n"]
        scores = round_.get("scores")
        if not isinstance(scores, dict):
            raise GameRefused(f"round {n} has no scores.")
        if scores:
            written.append(
                (
                    n,
                    {
                        str(name): score_input(shown, rules, f"round {n}, {name}")
                        for name, shown in scores.items()
                    },
                )
            )
    totals = item.get("totals")
    return IncomingGame(
        game_label(index, item),
        list(players),
        raw_rules,
        written,
        totals if isinstance(totals, dict) else None,
    )


def fingerprint(players: list[str], rules: Rules, rounds: Mapping[int, Mapping[str, Any]]) -> str:
    """What makes two games the same (see the module's docstring), as one comparable text."""
    return json.dumps(
        {
            "players": players,
            "rules": rules.to_json(),
            "rounds": {
                str(n): {name: ScoreEntry.from_json(s).to_json() for name, s in scores.items()}
                for n, scores in sorted(rounds.items())
                if scores
            },
        },
        sort_keys=True,
    )


def game_fingerprint(game: Game) -> str:
    """The fingerprint of a stored game."""
    return fingerprint(
        list(game.players),
        sheetview.load_rules(game),
        {round_.n: round_.scores for round_ in game.rounds},
    )


def incoming_fingerprint(incoming: IncomingGame) -> str | None:
    """The fingerprint of a game of the file, or None when its scores don't read (then the
    service refuses it with the reason)."""
    try:
        rules = parse_rules(incoming.rules)
        players = [" ".join(str(name).split()) for name in incoming.players]
        rounds = {
            n: {
                name: entry.to_json()
                for name, entry in parse_round_scores(players, rules, scores).items()
            }
            for n, scores in incoming.rounds
        }
    except ServiceError:
        return None
    return fingerprint(players, rules, rounds)


def every_game() -> list[Game]:
    """Every game with its rounds, oldest first, in two queries however many there are."""
    query = db.select(Game).options(selectinload(Game.rounds)).order_by(Game.created_at, Game.id)
    return list(db.session.execute(query).scalars())


@dataclass
class ImportReport:
    """What an import did: the games made (with their edit tokens) and the ones skipped."""

    imported: list[tuple[Game, str]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # "game 2 (Ann, Bob): why"


def problem_words(error: ServiceError, n: int | None = None) -> str:
    """A service's refusal as the import's message says it."""
    message = error.message
    if n is not None and not isinstance(error, RoundRefused):
        name = (error.field or "").split(".")[1:2]
        where = f"round {n}" + (f", {name[0]}" if name and name[0] else "")
        return f"{where}: {message}"
    if n is not None:
        return f"round {n}: {message}"
    if (error.field or "").startswith("rules"):
        return f"its house rules: {message}"
    return message


def write_game(incoming: IncomingGame) -> tuple[Game, str]:
    """Create one game and its rounds through the service, or nothing (:class:`GameRefused`)."""
    try:
        game, token = service.create_game(incoming.players, incoming.rules)
    except ServiceError as error:
        raise GameRefused(problem_words(error)) from None
    try:
        for n, scores in incoming.rounds:
            try:
                # Typed scores past a dealt hand were confirmed at the table that entered them.
                service.set_round(game, n, scores, game.version, confirmed=True)
            except ServiceError as error:
                raise GameRefused(problem_words(error, n)) from None
        if incoming.totals is not None:
            totals = sheetview.view_game(game).totals
            if {name: incoming.totals.get(name) for name in totals} != totals:
                raise GameRefused(
                    "its totals in the file don't add up to its rounds under its house rules "
                    "(the file was changed by hand?)."
                )
    except BaseException:
        service.delete_game(game)
        raise
    return game, token


def import_games(items: list[Any], started: Mapping[str, datetime] | None = None) -> ImportReport:
    """Import the games of an export, skipping duplicates and games the rules refuse; each
    game keeps the time it was started (``started``, by its id in the file) when known."""
    report = ImportReport()
    known = {game_fingerprint(game) for game in every_game()}
    for index, item in enumerate(items):
        label = game_label(index, item)
        try:
            incoming = incoming_game(index, item)
            mark = incoming_fingerprint(incoming)
            if mark is not None and mark in known:
                raise GameRefused(
                    "it is already here (the same players, house rules and scores), so it was "
                    "skipped."
                )
            game, token = write_game(incoming)
            report.imported.append((game, token))
            moment = (started or {}).get(str(item.get("id")))
            if moment is not None:
                # A plain UPDATE: through the model it would count as a change of the game
                # (its version), and a game's version counts the changes in its history.
                db.session.execute(
                    db.update(Game).where(Game.id == game.id).values(created_at=moment)
                )
                db.session.commit()
        except GameRefused as refused:
            report.skipped.append(f"{label[:1].upper()}{label[1:]}: {refused}")
            continue
        if mark is not None:
            known.add(mark)
    return report
