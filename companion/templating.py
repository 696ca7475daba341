"""Template helpers shared by every page."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket

from .chart import COLOURS, DASHES, cumulative_chart
from .games.history import describe, entry_summary
from .games.ruleform import RuleField, form_value_words, rule_help, rule_title, value_label
from .qr import qr_svg
from .rules.describe import preset_label, rules_summary, value_words
from .sessions import is_live_refresh


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


class MemoryBytecodeCache(BytecodeCache):
    """Compiled templates shared by every app in the process (keys include the source hash)."""

    def __init__(self) -> None:
        self._compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Load a template's code if this source was compiled before."""
        compiled = self._compiled.get(bucket.key)
        if compiled is not None:
            bucket.bytecode_from_string(compiled)

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep a freshly compiled template."""
        self._compiled[bucket.key] = bucket.bytecode_to_string()


# Tests and benchmarks build many apps; without this each one recompiles every template.
SHARED_BYTECODE_CACHE = MemoryBytecodeCache()


def dom_id(text: str) -> str:
    """An HTML id made from any text (a URL path with slashes and %-escapes), safe to link to
    as ``#id`` from the same page."""
    return "id-" + hashlib.sha1(text.encode()).hexdigest()[:12]


def first_upper(text: str) -> str:
    """Start a sentence or a choice with a capital, leaving the rest alone (Jinja's
    ``capitalize`` lowercases it, and names like "Fundex" or "wikiHow" with it)."""
    return text[:1].upper() + text[1:]


def rules_open(errors: Mapping[str, str], rule_fields: Iterable[RuleField]) -> bool:
    """Open the folded house rules on the setup page when one of them has an error."""
    return any(f"rules.{field.key}" in errors for field in rule_fields)


def init_app(app: Flask) -> None:
    """Register filters and globals used by the templates."""
    app.jinja_env.bytecode_cache = SHARED_BYTECODE_CACHE
    app.jinja_env.filters["short_time"] = short_time
    app.jinja_env.filters["iso_time"] = iso_time
    app.jinja_env.filters["first_upper"] = first_upper
    app.jinja_env.filters["dom_id"] = dom_id
    app.jinja_env.globals.update(
        qr_svg=qr_svg,
        cumulative_chart=cumulative_chart,
        chart_colours=COLOURS,
        chart_dashes=DASHES,
        rule_help=rule_help,
        rule_title=rule_title,
        value_label=value_label,
        form_value_words=form_value_words(),
        rules_open=rules_open,
        describe_change=describe,
        entry_summary=entry_summary,
        rules_summary=rules_summary,
        rules_label=preset_label,
        rule_value_words=value_words,
        is_live_refresh=is_live_refresh,
    )
