"""Games: set-up, scoresheet, sharing and export pages, and the service they share with the API."""

# Each page module adds its routes to the blueprint when it is imported.
from . import picker_page, rules_page, setup_page, share_page, sheet_page  # noqa: F401
from .views import bp

__all__ = ["bp"]
