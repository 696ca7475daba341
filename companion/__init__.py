"""The Mexican Train table companion: the web app (``companion.app``) and the rules engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create and configure an instance of the table companion."""
    # Flask is imported here rather than at package import: `companion.rules` and `vision`
    # import this package, and must stay free of Flask (and start in milliseconds).
    from .app import create_app as build_app

    return build_app(test_config)
