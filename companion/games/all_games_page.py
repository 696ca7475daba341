"""The whole book out and in: every game this browser may see as one JSON or CSV file, and a
page that imports a JSON export from another host."""

from __future__ import annotations

import csv
import io
import json

from flask import Response, current_app, render_template, request

from . import access, all_games, sheetview
from .models import Game, utc_now
from .views import bp


def visible_games() -> list[Game]:
    """The games this browser may export, oldest first (as a book reads, and an import writes
    them): every game on the laptop running the app, on a phone only those it started or
    opened (as the home page lists them)."""
    # Imported here: the home blueprint imports this package.
    from ..home.views import is_host_laptop

    games = all_games.every_game()
    if is_host_laptop():
        return games
    known = access.known_game_ids()
    return [game for game in games if game.id in known]


def download(body: bytes, mimetype: str, name: str) -> Response:
    return Response(
        body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@bp.get("/export.json")
def export_all_json() -> Response:
    """Every game as one JSON file (a list of the API's games under a format header)."""
    views = [sheetview.view_game(game) for game in visible_games()]
    document = all_games.export_document(views, utc_now())
    stamp = utc_now().strftime("%Y-%m-%d")
    body = json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")
    return download(body, "application/json", f"mexican-train-games-{stamp}.json")


@bp.get("/export.csv")
def export_all_csv() -> Response:
    """Every game as one CSV: a row per game, round and player."""
    views = [sheetview.view_game(game) for game in visible_games()]
    buffer = io.StringIO()
    buffer.write("\ufeff")  # Excel reads accented names right only with the byte-order mark
    csv.writer(buffer).writerows(all_games.csv_rows(views))
    stamp = utc_now().strftime("%Y-%m-%d")
    return download(
        buffer.getvalue().encode("utf-8"), "text/csv", f"mexican-train-games-{stamp}.csv"
    )


def max_import_bytes() -> int:
    return int(current_app.config.get("IMPORT_MAX_BYTES", all_games.DEFAULT_MAX_IMPORT_BYTES))


@bp.get("/import")
def import_page() -> str:
    """The page with both downloads and the import form."""
    return render_template(
        "games/import.html", count=len(visible_games()), max_mb=max_import_bytes() // 2**20
    )


@bp.post("/import")
def import_games() -> tuple[str, int]:
    """Import a JSON export: each game all or nothing, duplicates and bad games skipped."""
    upload = request.files.get("file")
    limit = max_import_bytes()
    error: str | None = None
    report: all_games.ImportReport | None = None
    if upload is None or not upload.filename:
        error = "Choose the JSON file to import first. Nothing was imported."
    else:
        data = upload.stream.read(limit + 1)
        try:
            document = all_games.read_document(data, limit)
        except all_games.BookRefused as refused:
            error = str(refused)
        else:
            report = all_games.import_games(document.games, document.started)
            for game, token in report.imported:
                access.remember_token(game.id, token)
    status = (
        400 if error or (report is not None and not report.imported and report.skipped) else 200
    )
    return render_template(
        "games/import.html",
        count=len(visible_games()),
        max_mb=limit // 2**20,
        error=error,
        report=report,
    ), status
