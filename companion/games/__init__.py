"""Games: set-up, scoresheet, sharing and export pages, and the service they share with the API."""

from .views import bp

__all__ = ["bp"]
