"""The referee pages: settle a dispute inside a game (anyone at the table may ask) or without
one, keep a ruling with the game, and read the tiles in dispute from a photo."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from .. import photos
from ..games import access, service, sheetview
from ..games.models import Game
from ..games.ruleform import parse_token, value_token
from ..photo_overlay import Overlay
from ..rules import CHOICES, PRESETS, Rules, RulesError, Tile, full_set
from ..rules.describe import book_title, preset_label, rule_name, rules_summary, value_words
from . import kept, last_table, table_photo
from .dispute import (
    ACTION_KINDS,
    ACTION_ROWS,
    ASK_KINDS,
    BONEYARD_CHOICES,
    ROUND_END_CHOICES,
    DisputeForm,
    FormError,
    train_rows,
)
from .models import KeptRuling
from .ruling import RulingView, judge

bp = Blueprint("referee", __name__)

SET_SIZES = (6, 9, 12, 15, 18)
DEFAULT_PLAYERS = 4
MAX_PLAYERS = 8


@dataclass(frozen=True)
class RefereeContext:
    """Who is asking and under which rules: a game's table, or a table with no game (the page's
    context, not the rules engine's ``Table``, which is a position)."""

    game: Game | None
    seats: tuple[str, ...]
    rules: Rules
    """The rules the question is judged under (the table's, or another book's, plus a change)."""
    preset: str
    """The rule book ``rules`` come from."""
    own_rules: Rules
    own_preset: str
    engine: int
    book: str
    """The rule book asked for ("" for the table's own)."""
    change: str
    """One changed value, "key=value" ("" for none)."""
    set_max: int

    def url(self, endpoint_suffix: str = "page", **values: Any) -> str:
        if self.game is not None:
            return url_for(f"referee.game_{endpoint_suffix}", game_id=self.game.id, **values)
        params: dict[str, Any] = {"set_max": self.set_max, "players": len(self.seats)}
        if self.book:
            params["book"] = self.book
        return url_for(f"referee.{endpoint_suffix}", **params, **values)


def change_choices(rules: Rules) -> list[tuple[str, list[tuple[str, str]]]]:
    """One changed value to re-ask under: (rule name, [(token, value in words), ...])."""
    groups = []
    for key, values in CHOICES.items():
        if values is None or key == "set_max":
            continue
        current = getattr(rules, key)
        options = [
            (f"{key}={value_token(value)}", value_words(key, value))
            for value in values
            if not (value == current and type(value) is type(current))
        ]
        groups.append((rule_name(key), options))
    return groups


def _rules_for(base: Rules, base_preset: str, book: str, change: str) -> tuple[Rules, str]:
    rules, preset = base, base_preset
    if book and book != base_preset:
        if book not in PRESETS:
            raise FormError("book", "Choose one of the rule books listed.")
        data: dict[str, Any] = {"preset": book, "set_max": base.set_max}
        try:
            rules = Rules.from_json(data)
        except RulesError:
            raise FormError("book", "That rule book can't be used with this set.") from None
        preset = book
    if change:
        key, _, token = change.partition("=")
        if key not in CHOICES or CHOICES[key] is None or key == "set_max":
            raise FormError("change", "Choose one of the rule changes listed.")
        try:
            rules = rules.replace(**{key: parse_token(token)})
        except RulesError:
            raise FormError("change", "Choose one of the rule changes listed.") from None
    return rules, preset


def _current_engine(game: Game) -> int:
    view = sheetview.view_game(game)
    if view.next_round is not None:
        return view.next_round.engine
    return view.rounds[-1].engine if view.rounds else view.rules.set_max


def _source() -> Mapping[str, str]:
    # A refused upload leaves no form to read: its error page works from the address alone.
    if request.method == "POST" and not getattr(request, "upload_refused", False):
        return request.form
    return request.args


def game_context(game: Game) -> RefereeContext:
    """The table of a game: its seats, its rules and the current round's engine."""
    own = sheetview.load_rules(game)
    source = _source()
    book = source.get("book", "").strip()
    change = source.get("change", "").strip()
    try:
        rules, preset = _rules_for(own, game.preset, book, change)
    except FormError:
        rules, preset, book, change = own, game.preset, "", ""
    return RefereeContext(
        game, tuple(game.players), rules, preset, own, game.preset, _current_engine(game),
        book, change, own.set_max,
    )  # fmt: skip


def free_context() -> RefereeContext:
    """A table with no game: the set, rule book and number of players come from the request."""
    source = _source()
    set_text = source.get("set_max", "12")
    set_max = int(set_text) if set_text.isdigit() and int(set_text) in SET_SIZES else 12
    players_text = source.get("players", str(DEFAULT_PLAYERS))
    players = int(players_text) if players_text.isdigit() else DEFAULT_PLAYERS
    players = min(max(players, 2), MAX_PLAYERS)
    book = source.get("book", "standard").strip() or "standard"
    if book not in PRESETS:
        book = "standard"
    base = Rules.from_json({"preset": book, "set_max": set_max})
    change = source.get("change", "").strip()
    try:
        rules, preset = _rules_for(base, book, "", change)
    except FormError:
        rules, preset, change = base, book, ""
    seats = tuple(f"Player {n}" for n in range(1, players + 1))
    return RefereeContext(None, seats, rules, preset, base, book, set_max, book, change, set_max)


def chosen_ask() -> str:
    ask = _source().get("ask", "turn")
    return ask if ask in ASK_KINDS else "turn"


def read_form(context: RefereeContext, ask: str) -> DisputeForm:
    """The submitted question, read and checked.

    A table read from a photo whose trains' owners changed (a select, with or without the
    page script) has its trains put again under their new owners first."""
    lists = {key: request.form.getlist(key) for key in request.form if _is_list(key)}
    single = {key: value for key, value in request.form.items() if not _is_list(key)}
    reading = table_photo.reading_from(single)
    if reading is not None:
        rows = train_rows(context.seats, context.rules)
        chosen = table_photo.chosen_owners(single, len(reading.trains), rows)
        owners = table_photo.assign_owners(len(reading.trains), chosen, rows)
        single["owners-set"] = " ".join(str(index) for index in sorted(chosen))
        if owners != single.get("owners-was", "").split():
            table_photo.apply_reading(single, rows, context.set_max, reading, owners)
    return DisputeForm.from_form(ask, context.seats, context.rules, context.engine, single, lists)


def _is_list(key: str) -> bool:
    return key == "hand" or key.startswith("hand-")


def render_page(
    context: RefereeContext,
    ask: str,
    form: DisputeForm,
    *,
    ruling: RulingView | None = None,
    photo_tiles: list[Tile] | None = None,
    overlay: Overlay | None = None,
    photo_key: str = "",
    photo_read: str = "",
    recalled: last_table.Recalled | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """Show the referee page for ``table``: the question form, and a ruling when given."""
    table_read = table_photo.reading_from(form.values)
    owners: list[str] = []
    chosen: dict[int, str] = {}
    if table_read is not None:
        chosen = table_photo.chosen_owners(form.values, len(table_read.trains), form.rows)
        owners = table_photo.assign_owners(len(table_read.trains), chosen, form.rows)
    kept_here: list[KeptRuling] = []
    editable = False
    if context.game is not None:
        kept_here = kept.kept_rulings(context.game.id)
        editable = access.can_edit(context.game)
    return render_template(
        "referee/page.html",
        context=context,
        game=context.game,
        ask=ask,
        asks=ASK_KINDS,
        form=form,
        values=form.values,
        errors=form.errors,
        ruling=ruling,
        kept=kept_here,
        editable=editable,
        rows=form.rows,
        action_rows=ACTION_ROWS,
        action_kinds=ACTION_KINDS,
        boneyard_choices=BONEYARD_CHOICES,
        round_ends=ROUND_END_CHOICES,
        tiles=sorted(full_set(context.set_max), key=lambda t: (-t.high, -t.low)),
        books={name: book_title(name) for name in PRESETS},
        own_label=preset_label(context.own_preset, context.own_rules.to_json()),
        summary=rules_summary(context.rules.to_json(), context.preset),
        changes=change_choices(context.rules),
        set_sizes=SET_SIZES,
        max_players=MAX_PLAYERS,
        photo_tiles=photo_tiles or _photo_tiles_kept(),
        overlay=overlay,
        photo_key=photo_key,
        photo_read=photo_read,
        photo_reading=photos.reading_available(),
        max_upload_bytes=current_app.config.get("MAX_CONTENT_LENGTH") or "",
        table_read=table_read,
        table_read_json=json.dumps(table_read.to_json(), separators=(",", ":"))
        if table_read
        else "",
        table_drawing=table_read.overlay() if table_read else None,
        table_photo_key=urlsplit(context.url("photo")).path + "?table",
        owners=owners,
        owners_set=" ".join(str(index) for index in sorted(chosen)),
        owner_choices=table_photo.owner_choices(form.rows),
        owner_clashes=table_photo.clashes(owners, form.rows),
        recalled=recalled,
    ), status


def _photo_tiles_kept() -> list[Tile]:
    tiles: list[Tile] = []
    for text in _source().get("photo-tiles", "").split():
        try:
            tiles.append(Tile.parse(text))
        except ValueError:
            continue
    return tiles


def apply_use(form: DisputeForm, use: str) -> None:
    """A one-tap choice from a photo: the tile played, or the end of the train played on."""
    kind, _, value = use.partition(":")
    if kind == "tile":
        try:
            tile = Tile.parse(value)
        except ValueError:
            return
        form.values["act0-kind"] = "play"
        form.values["act0-a"], form.values["act0-b"] = str(tile.high), str(tile.low)
        # The half shared with the train's end goes against it (their own train by default).
        on = form.values.get("act0-on") or form.values.get("seat", "")
        end = form.values.get(f"end-{on}", "")
        if isinstance(end, str) and end.isdigit() and tile.has(int(end)):
            form.values["act0-a"] = end
            form.values["act0-b"] = str(tile.other_half(int(end)))
    elif kind == "end" and value.isdigit():
        on = form.values.get("act0-on") or form.values.get("seat", "")
        if isinstance(on, str) and on:
            form.values[f"end-{on}"] = value
    form.errors.clear()


def answer_page(context: RefereeContext) -> BaseResponse | tuple[str, int]:
    """Judge a submitted question (or apply a photo choice, or keep the ruling)."""
    ask = chosen_ask()
    form = read_form(context, ask)
    use = request.form.get("use", "")
    if context.game is not None and table_photo.reading_from(form.values) is not None:
        # The position from the table photo, as fixed so far, for the round's next dispute.
        last_table.remember(context.game, form.values, form.rows)
    if use == "owners":
        return render_page(context, ask, form, photo_read="table")
    if use:
        apply_use(form, use)
        return render_page(context, ask, form)
    try:
        ruling = judge(form, context.preset)
    except FormError as problem:
        form.errors.setdefault(problem.field, problem.message)
        return render_page(context, ask, form, status=400)
    hand_note = form.hand_note()
    if hand_note:
        ruling = replace(ruling, notes=(hand_note, *ruling.notes))
    if request.form.get("keep") and context.game is not None:
        kept.keep_ruling(context.game, ruling)
        flash("Ruling kept with the game.")
        return redirect(context.url("page", ask=ask) + "#kept")
    return render_page(context, ask, form, ruling=ruling)


# -- routes ----------------------------------------------------------------------------------


@bp.get("/referee")
def page() -> tuple[str, int]:
    """The referee without a game: choose the set, rule book and players, then ask."""
    context = free_context()
    ask = chosen_ask()
    return render_page(
        context, ask, DisputeForm.blank(ask, context.seats, context.rules, context.engine)
    )


@bp.post("/referee")
def answer() -> BaseResponse | tuple[str, int]:
    """Rule on a question asked without a game."""
    return answer_page(free_context())


@bp.get("/games/<game_id>/referee")
def game_page(game_id: str) -> tuple[str, int]:
    """The referee inside a game: its seats, house rules and current engine."""
    context = game_context(service.get_game(game_id))
    ask = chosen_ask()
    form = DisputeForm.blank(ask, context.seats, context.rules, context.engine)
    recalled = None
    if context.game is not None and ask in ("turn", "options", "round"):
        recalled = last_table.recall(context.game, form.rows, context.set_max)
        if recalled is not None:
            form.values.update(recalled.values)
    return render_page(context, ask, form, recalled=recalled)


@bp.post("/games/<game_id>/referee")
def game_answer(game_id: str) -> BaseResponse | tuple[str, int]:
    """Rule on a question asked inside a game (no edit token needed: anyone may ask)."""
    return answer_page(game_context(service.get_game(game_id)))


@bp.post("/games/<game_id>/referee/photo")
def game_photo(game_id: str) -> tuple[str, int]:
    """Read the hand, or the tiles in dispute, from a photo (nothing is stored)."""
    return read_photo(game_context(service.get_game(game_id)))


@bp.post("/referee/photo")
def photo() -> tuple[str, int]:
    """Read tiles from a photo for a question asked without a game."""
    return read_photo(free_context())


def read_photo(context: RefereeContext) -> tuple[str, int]:
    """Tick the hand from a photo, or offer the tiles read as one-tap choices."""
    ask = chosen_ask()
    form = read_form(context, ask)
    form.errors.clear()
    target = request.form.get("photo-target", "tiles")
    if target == "table":
        return read_table_photo(context, ask, form)
    try:
        reading = photos.read_photo(uploaded("photo", "tiles"), set_max=context.set_max)
    except photos.PhotoUnreadable as error:
        form.errors["photo"] = error.message
        return render_page(context, ask, form, photo_read="error", status=photo_status(error))
    tiles: list[Tile] = []
    for tile, _confidence in reading.found:
        if tile.high <= context.set_max and tile not in tiles:
            tiles.append(tile)
    if not tiles:
        form.errors["photo"] = (
            "No tiles were found in the photo. Take it again from straight above, or enter "
            "the tiles by hand."
        )
        return render_page(context, ask, form, photo_read="error", status=200)
    if target == "hand":
        form.values["hand"] = [str(tile) for tile in tiles]
        after = (
            " It is taken as the hand now, after the move: the tiles already laid are put back "
            "when the turn is judged."
            if ask == "turn"
            else ""
        )
        flash(
            f"Read {len(tiles)} tile{'' if len(tiles) == 1 else 's'} from the photo into the "
            f"hand: check them before asking.{after}"
        )
        return render_page(context, ask, form, photo_read="hand")
    return render_page(
        context,
        ask,
        form,
        photo_tiles=tiles,
        overlay=reading.overlay(context.rules),
        photo_key=urlsplit(request.path).path,
        photo_read="tiles",
    )


def uploaded(field: str, what: str) -> bytes:
    """The photo sent in ``field``; PhotoUnreadable when none was chosen."""
    upload = request.files.get(field)
    if upload is None or not upload.filename:
        raise photos.PhotoUnreadable(f"Choose a photo of the {what} first.")
    data: bytes = upload.read()
    return data


def photo_status(error: photos.PhotoUnreadable) -> int:
    """503 when this server can't read photos (now or at all), 400 for the photo itself."""
    return 503 if isinstance(error, photos.PhotoReadingUnavailable) else 400


def read_table_photo(context: RefereeContext, ask: str, form: DisputeForm) -> tuple[str, int]:
    """Fill the position from a photo of the whole table, trains given owners in seat
    order (nothing is stored)."""
    # Inside a game the round, and so its engine, is known; a table with no game has only the
    # form's engine, which may be its default rather than what lies in the hub.
    round_engine = context.engine if context.game is not None else None
    try:
        reading = photos.read_table(
            uploaded("table-photo", "table"), set_max=context.set_max, round_engine=round_engine
        )
    except photos.PhotoUnreadable as error:
        form.errors["table-photo"] = error.message
        return render_page(context, ask, form, photo_read="table", status=photo_status(error))
    if not reading.trains:
        form.errors["table-photo"] = (
            "No trains were found in the photo. Take it again from straight above, with the hub "
            "and every train in view, or enter the trains' ends below."
        )
        return render_page(context, ask, form, photo_read="table")
    values = {
        key: value
        for key, value in form.values.items()
        if not key.startswith("owner") and key != "table-read"
    }
    values["table-read"] = json.dumps(reading.to_json(), separators=(",", ":"))
    rows = form.rows
    # The first train is whose it was in this game's last table photo, as the photo is most
    # likely taken from the same place; the player sets it otherwise.
    first = last_table.first_owner(context.game, rows) if context.game is not None else None
    owners = table_photo.assign_owners(len(reading.trains), {0: first} if first else {}, rows)
    single = {key: value for key, value in values.items() if isinstance(value, str)}
    lists = {key: value for key, value in values.items() if isinstance(value, list)}
    table_photo.apply_reading(single, rows, context.set_max, reading, owners)
    if first:
        single["owners-set"] = "0"  # as if set by the player: the page shows it so
    form = DisputeForm.from_form(ask, context.seats, context.rules, context.engine, single, lists)
    form.errors.clear()
    if context.game is not None:
        # The session was let go during the read: the game is read again to keep the position.
        last_table.remember(service.get_game(context.game.id), form.values, rows)
    count = len(reading.trains)
    markers = table_photo.marker_note(reading, owners, rows)
    names = {row.key: row.name for row in rows}
    owners_said = (
        f"train 1 is {names[first]}'s, as in this game's last table photo, and the others follow "
        "in seat order (set one if not)"
        if first
        else "pick the owner of any one train and the others follow in seat order"
    )
    flash(
        f"Read {count} train{'' if count == 1 else 's'} from the photo: {owners_said}; check the "
        "ends before asking." + (f" {markers}" if markers else "")
    )
    return render_page(context, ask, form, photo_read="table")


@bp.post("/games/<game_id>/rulings/<int:ruling_id>/delete")
def delete_ruling(game_id: str, ruling_id: int) -> BaseResponse:
    """Delete a kept ruling (the scorekeeper only)."""
    game = service.get_game(game_id)
    access.require_edit(game)
    kept.delete_ruling(game, ruling_id)
    flash("Ruling deleted.")
    return redirect(url_for("games.sheet", game_id=game.id) + "#rulings")


@bp.errorhandler(RequestEntityTooLarge)
def photo_too_large(_error: RequestEntityTooLarge) -> tuple[str, int]:
    """A photo over the size limit: say so next to the photo field."""
    limit = int(current_app.config.get("MAX_CONTENT_LENGTH") or 0)
    request.upload_refused = True  # type: ignore[attr-defined]
    context = (
        game_context(service.get_game(str((request.view_args or {}).get("game_id"))))
        if request.view_args and "game_id" in request.view_args
        else free_context()
    )
    ask = request.args.get("ask", "turn")
    ask = ask if ask in ASK_KINDS else "turn"
    form = DisputeForm.blank(ask, context.seats, context.rules, context.engine)
    field = "table-photo" if request.args.get("target") == "table" else "photo"
    form.errors[field] = (
        f"This photo is too large to send (the limit is {limit // 2**20} MB). Take it again at a "
        "lower resolution or choose a smaller file."
    )
    photo_read = "table" if field == "table-photo" else ""
    return render_page(context, ask, form, photo_read=photo_read, status=413)
