"""Games: set-up, scoresheet, sharing and export pages, and the service they share with the API."""

# Each page module adds its routes to the blueprint when it is imported.
from . import (  # noqa: F401
    all_games_page,
    picker_page,
    rules_page,
    setup_page,
    share_page,
    sheet_page,
)
from .views import bp

__all__ = ["bp"]
