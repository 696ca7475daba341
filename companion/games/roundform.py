"""The round form of the scoresheet: its values from a stored round, what a phone sent,
and the form shown again after a refusal or a save that came too late."""

from __future__ import annotations

from typing import Any

from flask import request

from ..rules import Tile
from . import merging, parsing, service, sheetview
from .entry import ScoreEntry
from .errors import RoundRefused, ValidationFailed
from .models import Game
from .sheetview import GameView


def entry_form_values(entry: ScoreEntry | None) -> dict[str, Any]:
    """The round form's values for one score (all empty when none is entered)."""
    if entry is None:
        return {"points": "", "out": False, "marker": False, "tiles": ""}
    hand = entry.hand
    typed = hand is None and not entry.went_out and entry.points is not None
    return {
        "points": str(entry.points) if typed else "",
        "out": entry.went_out,
        "marker": bool(entry.markers_up),
        "tiles": " ".join(str(tile) for tile in hand) if hand else "",
    }


def stored_entry(scores: dict[str, Any] | None, name: str) -> ScoreEntry | None:
    """One player's entry in a round's stored scores, if there is one."""
    stored = (scores or {}).get(name)
    return ScoreEntry.from_json(stored) if stored else None


def picked(entry: ScoreEntry | None) -> tuple[set[str], bool]:
    """The tiles the picker shows ticked for an entry, and whether its marker is up."""
    if entry is None:
        return set(), False
    return {str(tile) for tile in entry.hand or ()}, bool(entry.markers_up)


def round_form_values(view: GameView, n: int) -> dict[int, dict[str, Any]]:
    """Prefill the round form from what is stored for round ``n``."""
    round_ = view.rounds[n - 1]
    return {
        seat: entry_form_values(round_.entries.get(name)) for seat, name in enumerate(view.players)
    }


def scores_from_form(
    game: Game,
) -> tuple[dict[str, Any], dict[str, str], dict[int, dict[str, Any]]]:
    """Read the round form: raw scores by name, errors by field, and the values to re-show.

    After a conflict, a player's cell may carry "use mine": then the values that phone had
    typed (kept in ``mine-...`` fields) are read instead of the boxes showing the sheet's.
    """
    rules = sheetview.load_rules(game)
    raw_scores: dict[str, Any] = {}
    errors: dict[str, str] = {}
    shown: dict[int, dict[str, Any]] = {}
    for seat, name in enumerate(game.players):
        prefix = "mine-" if request.form.get(f"mine-{seat}") is not None else ""
        typed = request.form.get(f"{prefix}points-{seat}", "").strip()
        went_out = request.form.get(f"{prefix}out-{seat}") is not None
        marker = request.form.get(f"{prefix}marker-{seat}") is not None
        tiles_text = request.form.get(f"{prefix}tiles-{seat}", "").strip()
        shown[seat] = {"points": typed, "out": went_out, "marker": marker, "tiles": tiles_text}
        entry: dict[str, Any] = {}
        try:
            if typed:
                entry["points"] = parsing.parse_whole_number(
                    typed, f"scores.{name}.points", allow_text=True
                )
            elif tiles_text and not went_out:
                entry["tiles"] = [Tile.parse(part).as_list() for part in tiles_text.split()]
            if went_out:
                entry["went_out"] = True
            if marker:
                entry["markers_up"] = 1
            if entry:
                raw_scores[name] = parsing.parse_score(entry, rules, f"scores.{name}").to_json()
        except ValidationFailed as error:
            errors[f"player-{seat}"] = error.message
        except ValueError:
            errors[f"player-{seat}"] = "The tiles kept for this player could not be read."
    return raw_scores, errors, shown


def cell_key(values: dict[str, Any]) -> tuple[str, bool, bool, str]:
    """What a round form's cell for one player says, in a form that compares fairly."""
    out = bool(values.get("out"))
    typed = str(values.get("points", "")).strip()
    points = "" if out else str(int(typed)) if typed.isdigit() and typed.isascii() else typed
    tiles = "" if out or points else " ".join(str(values.get("tiles", "")).split())
    return points, out, bool(values.get("marker")), tiles


def cell_words(values: dict[str, Any]) -> str:
    """A player's cell in words: "6", "went out", "tiles 3-4 5-5", "nothing"."""
    points, out, marker, tiles = cell_key(values)
    if out:
        words = "went out"
    elif points:
        words = points
    elif tiles:
        words = f"tiles {tiles}"
    else:
        words = "nothing"
    return f"{words} with a marker left up" if marker else words


def merge_stale_round(
    game: Game, n: int, mine: dict[int, dict[str, Any]]
) -> tuple[dict[int, dict[str, Any]], str]:
    """The round form to show a phone whose save came too late.

    A cell both phones changed since this phone loaded the game, to different values, shows
    the sheet's value with this phone's beside it (``conflict``); a cell only the other phone
    changed shows the sheet's; every other cell keeps what this phone typed
    (:func:`merging.merge`). Nothing is saved until it sends again.
    """
    view = sheetview.view_game(game)
    now = round_form_values(view, n)
    base_version = parsing.parse_version(request.form.get("version"))
    base_scores = service.round_as_of(game, n, base_version) or {}
    read = {
        seat: entry_form_values(stored_entry(base_scores, name))
        for seat, name in enumerate(game.players)
    }
    result = merging.merge(range(len(game.players)), read, mine, now, compare=cell_key)
    merged = dict(result.values)
    for seat in result.conflicts:
        merged[seat] = {
            **now[seat],
            "conflict": {
                "sheet": cell_words(now[seat]),
                "mine": cell_words(mine[seat]),
                "values": mine[seat],
            },
        }
    conflicts = len(result.conflicts)
    if conflicts:
        message = (
            f"Round {n} was changed on another phone while you were typing; nothing was saved "
            "yet. Each score changed there shows both values: the sheet's is kept unless you "
            "choose yours. Check them, then save again."
        )
    else:
        message = (
            "This game was changed on another phone since you loaded it (not the scores you "
            f"typed for round {n}); nothing was saved yet. Check the sheet, then save again."
        )
    return merged, message


def round_problem_errors(
    game: Game, refused: RoundRefused, shown: dict[int, dict[str, Any]]
) -> dict[str, str]:
    """Put each of a refused round's problems next to the player it is about; a typed score
    that only needs confirming gets a "that is right" box in the re-shown form."""
    errors: dict[str, str] = {}
    seats = {name: seat for seat, name in enumerate(game.players)}
    for problem in refused.problems:
        seat = seats[problem.player]
        key = f"player-{seat}"
        errors[key] = f"{errors[key]} {problem.message}" if key in errors else problem.message
        if problem.needs_confirmation:
            shown[seat]["confirm"] = True
    if refused.needs_confirmation_only:
        errors["form"] = "Check the marked score before saving; nothing was saved yet."
    else:
        # The banner is what is read first: it says why, not only the box further down.
        reasons = " ".join(
            problem.message for problem in refused.problems if not problem.needs_confirmation
        )
        errors["form"] = f"This round can't be saved as it is; nothing was saved. {reasons}"
    return errors
