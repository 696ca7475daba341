"""Template helpers shared by every page."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Flask

from .chart import COLOURS, DASHES, cumulative_chart
from .games.history import describe, entry_summary
from .games.ruleform import rule_help
from .qr import qr_svg


def short_time(moment: datetime | None) -> str:
    """Format a stored time for the history list (stored in UTC; SQLite drops the zone)."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%d %b %H:%M:%S UTC")


def iso_time(moment: datetime | None) -> str:
    """Format a stored time for a ``<time datetime>`` attribute."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.isoformat()


def init_app(app: Flask) -> None:
    """Register filters and globals used by the templates."""
    app.jinja_env.filters["short_time"] = short_time
    app.jinja_env.filters["iso_time"] = iso_time
    app.jinja_env.globals.update(
        qr_svg=qr_svg,
        cumulative_chart=cumulative_chart,
        chart_colours=COLOURS,
        chart_dashes=DASHES,
        rule_help=rule_help,
        describe_change=describe,
        entry_summary=entry_summary,
    )
