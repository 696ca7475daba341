"""The record book page and the people page (rename, merge)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from ..chart import game_totals_chart
from ..games import people
from ..games.errors import PersonNotFound, ServiceError
from ..games.parsing import MAX_NAME_LENGTH
from . import records

bp = Blueprint("book", __name__, url_prefix="/book")


def _chosen(value: str | None, known: dict[int, str]) -> int | None:
    """A person id from the query string, if it names someone in the book."""
    try:
        number = int(value or "")
    except ValueError:
        return None
    return number if number in known else None


@bp.get("/")
def index() -> str:
    """The record book: everyone's figures, one person's totals chart, a head to head."""
    book = records.person_records()
    names = {record.person_id: record.name for record in book}
    shown = _chosen(request.args.get("person"), names)
    if shown is None:
        shown = next((record.person_id for record in book if record.games), None)
    chart = None
    if shown is not None:
        totals = records.game_totals(shown)
        chart = game_totals_chart(
            names[shown], [game.total for game in totals], [game.won for game in totals]
        )
    a = _chosen(request.args.get("a"), names)
    b = _chosen(request.args.get("b"), names)
    versus = None
    problem = ""
    if "a" in request.args or "b" in request.args:
        if a is None or b is None:
            problem = "Pick two people from the lists to compare them."
        elif a == b:
            problem = "Pick two different people to compare."
        else:
            versus = records.head_to_head(a, b)
    return render_template(
        "book/index.html",
        book=book,
        names=names,
        shown=shown,
        chart=chart,
        a=a,
        b=b,
        versus=versus,
        versus_problem=problem,
    )


def render_people(errors: dict[str, str], values: dict[str, str], status: int = 200) -> Any:
    """The people page, with any message and the values typed kept."""
    everyone = people.list_people()
    return render_template(
        "book/people.html",
        everyone=everyone,
        errors=errors,
        values=values,
        max_name_length=MAX_NAME_LENGTH,
    ), status


@bp.get("/people")
def people_page() -> Any:
    """Everyone in the book, to rename or merge."""
    return render_people({}, {})


@bp.post("/people/rename")
def rename() -> BaseResponse | Any:
    """Rename one person everywhere."""
    person_id = request.form.get("person", "")
    field = f"name-{person_id}"
    try:
        person = people.rename_person(person_id, request.form.get("name"), request.form.get("seen"))
    except PersonNotFound as error:
        return render_people({"form": error.message}, {}, error.status)
    except ServiceError as error:
        return render_people(
            {field: error.message}, {field: request.form.get("name", "")}, error.status
        )
    flash(f"Renamed to {person.name} in the book and in every game.")
    return redirect(url_for("book.people_page"))


@bp.post("/people/merge")
def merge() -> BaseResponse | Any:
    """Merge two people into one."""
    keep = request.form.get("keep", "")
    gone = request.form.get("gone", "")
    values = {"keep": keep, "gone": gone}
    if not keep or not gone:
        return render_people({"merge": "Pick both people to merge."}, values, 400)
    try:
        kept = people.merge_people(
            keep, request.form.get(f"seen-{keep}"), gone, request.form.get(f"seen-{gone}")
        )
    except ServiceError as error:
        return render_people({"merge": error.message}, values, error.status)
    flash(f"Merged: their games are now all {kept.name}'s.")
    return redirect(url_for("book.people_page"))
