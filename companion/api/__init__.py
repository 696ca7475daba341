"""The scoresheet JSON API (shared/spec/scoresheet-api.md)."""

from .views import bp

__all__ = ["bp"]
